"""In a real browser: the organiser's whole tournament day and the referee's protocols, through the
app's own Polish screens only, never the admin (issue 12).

The organiser (at 1366 px) creates a Puck tournament, publishes it, adds a referee, registers 40
players (8 teams of 4 and 8 individuals) with two team changes, checks them in, draws all series,
registers a late arrival and redraws the unplayed series, swaps two players past the repeat
warning and prints. The referee (on a phone, 390 px) types protocols in shorthand, closes series
1, corrects a deal of the closed series, reopens it and closes it again. The results PDF read back
then says what the public standings and the API say.
"""

from __future__ import annotations

import io
import random
import re
from itertools import combinations
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from playwright.sync_api import expect
from pypdf import PdfReader

from league.games.baska.demo import play_protocol
from league.models import Registration, Series, TableAssignment, Tournament
from league.results.selectors import protocol_sheet, sheet_totals
from league.tournaments.registrations import registration_create
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS, fits_the_screen
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-day")
PASSWORD = "haslo-na-turniej"
DEALS = 8  # per series: a short evening, the same screens as 40 deals
# the referee's paper for table 1, deal by deal, in the shorthand of the protocol page's help
TABLE_1 = ["ac60", "bd+", "za+", "ab70", "cd-", "ad45", "bc+", "gb+"]
TEAMS = [
    "Kaszëbë Puck",
    "Gwiazda Morza",
    "Czarne Damy",
    "Korona Baśki",
    "Gryfici",
    "Stare Damy",
    "Młodzi Wilcy",
    "Hirsz",
]
NEWCOMERS = [("Grażyna", "Wenta", "F"), ("Zbigniew", "Żmuda", "M")]  # nobody had them on file
LATE = ("Kazimierz", "Labuda", "M")  # comes after the draw


@pytest.fixture
def browser(monkeypatch):
    """Chromium, launched as tests/browser/conftest.py launches it; each person opens their own context."""
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def window(browser, viewport: str, visited: list[str]):
    """A new person's browser window asking for Polish, every address it requests noted in ``visited``."""
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale="pl-PL", accept_downloads=True)
    context.on("request", lambda request: visited.append(request.url))
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def log_in(page, live_server, username: str, next_url: str) -> None:
    page.goto(live_server.url + reverse("login") + "?next=" + next_url)
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj").click()
    page.wait_for_url(f"**{next_url}")


def person(username: str, first_name: str, last_name: str):
    user = UserFactory(username=username, first_name=first_name, last_name=last_name)
    user.set_password(PASSWORD)
    user.save()
    return user


def organiser_group() -> Group:
    """The rights an organiser account has (as league/demo.py gives them): the league's rooms, no superuser."""
    group, _ = Group.objects.get_or_create(name="Organizatorzy")
    group.permissions.set(
        Permission.objects.filter(content_type__app_label__in=["players", "league", "results", "printing"])
    )
    return group


def open_pdf(page, link) -> str:
    """Click ``link`` to a PDF (the app shows it in the browser's viewer, to print at once), come back
    to the page, and return the text of the PDF as the browser downloads it with the same session."""
    with page.expect_response(lambda response: response.url.endswith(".pdf")) as opened:
        link.click()
    response = opened.value
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    # the viewer hands Playwright its own page as the body: the file itself is downloaded again,
    # in the language the browser asked for (without it the tests' default is English, tests/conftest.py)
    download = page.context.request.get(
        response.url, headers={"Accept-Language": response.request.headers["accept-language"]}
    )
    assert download.headers["content-type"] == "application/pdf"
    body = download.body()
    page.go_back()
    return "\n".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(body)).pages)


def play_the_other_tables(series: Series, referee, *, skip: tuple[int, ...]) -> None:
    """The tables the test does not type: their deals, paper totals, completion and confirmation through
    the results services, to keep the walk short."""
    for protocol in series.protocols.exclude(table__in=skip).order_by("table"):
        play_protocol(random.Random(protocol.pk), protocol, deals=DEALS, referee=referee, finish=True)


def polish_number(value: float) -> str:
    """A number as the Polish pages print it: a decimal comma, no ",0"."""
    return f"{value:g}".replace(".", ",")


def signed(value: int) -> str:
    """Small points as printed: "+12", "0", "−3" (the minus sign, not a hyphen)."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def public_row(page, name: str):
    return page.locator("table tbody tr", has=page.get_by_role("link", name=name, exact=True)).first


def registration_row(page, name: str):
    return page.locator("table.day tbody tr", has_text=name)


def a_swap_that_repeats_a_meeting(series: Series) -> tuple:
    """Two players of ``series`` at different tables whose swap is legal (no teammates together)
    but seats one of them with somebody met at a table of an earlier series."""
    tournament = series.tournament
    teams = dict(tournament.registrations.values_list("player_id", "team_id"))
    tables: dict[int, list[int]] = {}
    for table, player in series.assignments.values_list("table", "player_id"):
        tables.setdefault(table, []).append(player)
    met = set()
    others = TableAssignment.objects.filter(series__tournament=tournament, series__number__lt=series.number)
    other_tables: dict[tuple[int, int], list[int]] = {}
    for series_id, table, player in others.values_list("series_id", "table", "player_id"):
        other_tables.setdefault((series_id, table), []).append(player)
    for seated in other_tables.values():
        met |= {frozenset(pair) for pair in combinations(seated, 2)}

    def fits(player: int, table: list[int]) -> bool:
        return teams[player] is None or all(teams[other] != teams[player] for other in table)

    for seated_a, seated_b in combinations(tables.values(), 2):
        for a in seated_a:
            for b in seated_b:
                rest_a = [p for p in seated_a if p != a]
                rest_b = [p for p in seated_b if p != b]
                if not (fits(b, rest_a) and fits(a, rest_b)):
                    continue
                if any(frozenset((b, other)) in met for other in rest_a):
                    return a, b
    raise AssertionError("the draw left no swap that repeats a meeting")


def test_the_organisers_day_and_the_referees_protocols_need_no_admin(browser, live_server):
    visited: list[str] = []
    organiser = person("organizator", "Ewa", "Organizatorska")
    organiser.groups.add(organiser_group())
    referee = person("sedzia", "Jan", "Sędziowski")

    # --- the organiser creates the tournament, publishes it and adds the referee ---------------
    page = window(browser, "desktop", visited)
    log_in(page, live_server, "organizator", reverse("tournaments:create"))
    page.locator("#id_name").fill("Turniej o Puchar Wójta Gminy Puck")
    page.locator("#id_date").fill("2026-12-05")
    page.locator("#id_venue").fill("Puck, Dom Kultury")
    page.locator("#id_ruleset_preset").select_option("puck")
    page.locator("#id_series_count").fill("3")
    page.locator("#id_deals_per_series").fill(str(DEALS))
    shot(page, "01-new-tournament")
    page.get_by_role("button", name="Utwórz turniej").click()
    page.get_by_role("button", name="Opublikuj turniej").wait_for()
    tournament = Tournament.objects.get(name="Turniej o Puchar Wójta Gminy Puck")
    assert not tournament.published
    page.get_by_role("button", name="Opublikuj turniej").click()
    page.get_by_role("button", name="Opublikuj turniej").wait_for(state="detached")
    tournament.refresh_from_db()
    assert tournament.published

    page.get_by_role("link", name="Sędziowie i współorganizatorzy").click()
    page.get_by_role("searchbox").fill("sedzia")  # the staff search finds an exact username or e-mail only
    page.get_by_role("button", name="Szukaj").click()
    page.get_by_role("button", name="Dodaj jako sędziego").click()
    page.get_by_text("Wysłano zaproszenie: Jan Sędziowski").wait_for()
    shot(page, "02-staff")
    assert not tournament.referees.exists()  # a referee joins once they accept the invitation

    # --- registration: 8 teams of 4 and 8 individuals, two of the teams' players new today -----
    clubs = ClubFactory.create_batch(3)
    teams = [TeamFactory(name=f"Drużyna {name}", members=4, club=clubs[i % 3]) for i, name in enumerate(TEAMS[:7])]
    eighth = TeamFactory(name=f"Drużyna {TEAMS[7]}", members=2, club=clubs[0])  # two more join on the day
    poblocki = teams[0].members.first()
    poblocki.first_name, poblocki.last_name = "Józef", "Pobłocki"
    poblocki.save()
    kakol = PlayerFactory(first_name="Żaneta", last_name="Kąkol", gender="F", club=clubs[1])
    individuals = [kakol, *PlayerFactory.create_batch(7, club=clubs[2])]
    for team in [*teams, eighth]:
        for member in team.members.exclude(pk=poblocki.pk):
            registration_create(tournament=tournament, player=member)
    for player in individuals[1:]:
        registration_create(tournament=tournament, player=player, individual=True)

    page.get_by_role("link", name="Zgłoszenia").click()
    for typed, found in (("poblocki", "Józef Pobłocki"), ("kakol", "Żaneta Kąkol")):  # without Polish letters
        page.locator("#id_q").fill(typed)
        hit = page.locator("#search-results li", has_text=found)
        hit.wait_for()
        hit.get_by_role("button", name="Zgłoś").click()
        registration_row(page, found).wait_for()
    for first_name, last_name, gender in NEWCOMERS:
        page.get_by_role("link", name="Dodaj nowego zawodnika").first.click()
        page.locator("#id_first_name").fill(first_name)
        page.locator("#id_last_name").fill(last_name)
        page.locator("#id_gender").select_option(gender)
        page.locator("#id_club").select_option(label=str(clubs[0]))
        page.get_by_role("button", name="Dodaj i zgłoś").click()
        registration_row(page, f"{first_name} {last_name}").wait_for()
    shot(page, "03-registered")
    for first_name, last_name, _gender in NEWCOMERS:  # quick-added as individuals, they play for the eighth team
        row = registration_row(page, f"{first_name} {last_name}")
        row.locator("summary").first.click()
        row.locator("select[name=team]").select_option(label=eighth.name)
        row.get_by_role("button", name="Zmień drużynę").click()
        registration_row(page, f"{first_name} {last_name}").locator("td.team", has_text=eighth.name).wait_for()
    registrations = tournament.registrations
    assert registrations.count() == 40
    assert registrations.filter(team__isnull=True).count() == 8
    assert all(registrations.filter(team=team).count() == 4 for team in [*teams, eighth])
    assert registrations.get(player=poblocki).team == teams[0]

    # --- check-in at once, and the draw of all series ---------------------------------------------
    ticks = page.locator("input[name=registrations]")
    for index in range(ticks.count()):
        ticks.nth(index).check()
    page.get_by_role("button", name="Zaznaczeni obecni").click()
    expect(page.get_by_role("button", name="nieobecny")).to_have_count(0)
    assert registrations.filter(checked_in=True).count() == 40
    shot(page, "04-checked-in")

    page.get_by_role("link", name="Losowanie", exact=True).click()
    page.locator("#id_seed").fill("2026")
    page.get_by_role("button", name="Rozlosuj wszystkie pozostałe serie").click()
    page.locator("#series-3 table").wait_for()
    assert list(tournament.series.values_list("status", flat=True).order_by("number")) == ["drawn"] * 3
    assert TableAssignment.objects.filter(series__tournament=tournament).count() == 3 * 40

    # --- a late arrival: the unplayed series are drawn again in one click --------------------------
    page.get_by_role("link", name="Zgłoszenia").click()
    page.get_by_role("link", name="Dodaj nowego zawodnika").first.click()
    page.locator("#id_first_name").fill(LATE[0])
    page.locator("#id_last_name").fill(LATE[1])
    page.locator("#id_gender").select_option(LATE[2])
    page.get_by_role("button", name="Dodaj i zgłoś").click()
    registration_row(page, " ".join(LATE[:2])).wait_for()
    page.get_by_role("link", name="Losowanie", exact=True).click()
    offer = page.locator("#outdated")
    assert " ".join(LATE[:2]) in offer.inner_text()
    shot(page, "05-redraw-offer")
    offer.get_by_role("button").click()
    page.locator("#outdated").wait_for(state="detached")
    late = Registration.objects.get(tournament=tournament, player__last_name=LATE[1]).player
    for series in tournament.series.all():
        assert series.assignments.filter(player=late).exists() or series.byes.filter(player=late).exists()

    # --- a swap that repeats a meeting: warned, then confirmed -------------------------------------
    second = tournament.series.get(number=2)
    a, b = a_swap_that_repeats_a_meeting(second)
    section = page.locator("#series-2")
    section.locator("#id_swap2-player_a").select_option(str(a))
    section.locator("#id_swap2-player_b").select_option(str(b))
    section.locator("#id_swap2-reason").fill("prośba stolika")
    section.get_by_role("button", name="Zamień", exact=True).click()
    warning = page.locator("#repeats")
    warning.wait_for()
    assert "grali już ze sobą" in warning.inner_text()
    shot(page, "06-repeat-warning")
    before = dict(second.assignments.values_list("player_id", "table"))
    warning.get_by_role("button", name="Zamień mimo to").click()
    page.wait_for_url(f"**{reverse('tournaments:draw', args=[tournament.slug])}")
    after = dict(second.assignments.values_list("player_id", "table"))
    assert (after[a], after[b]) == (before[b], before[a])

    # --- the draw goes public; the printing page, the table list and the (empty) results sheets ---
    page.get_by_role("link", name="Program").click()
    page.get_by_role("button", name="Opublikuj losowanie").click()
    page.get_by_role("button", name="Ukryj losowanie").wait_for()
    page.get_by_role("link", name="Wydruki").click()
    shot(page, "07-printing")
    table_list = open_pdf(page, page.locator("section", has_text="Seria 1").get_by_role("link", name="Lista stolików"))
    assert late.full_name in table_list
    assert f"Ziarno losowania: {tournament.series.get(number=1).seed}" in table_list
    sheets = open_pdf(page, page.get_by_role("link", name="Arkusze wyników"))
    assert "Nie ma jeszcze wyników." in sheets

    # --- the referee, on a phone: two tables of series 1 typed in shorthand, completed, confirmed ---
    first = tournament.series.get(number=1)
    referee_page = window(browser, "phone", visited)
    log_in(referee_page, live_server, "sedzia", reverse("tournaments:list"))
    referee_page.get_by_role("button", name="Przyjmij").click()
    referee_page.get_by_text("Dołączono do").first.wait_for()
    assert list(tournament.referees.all()) == [referee]
    referee_page.goto(live_server.url + reverse("tournaments:list"))
    referee_page.locator(f"a[href='{reverse('results:series', args=[tournament.slug, 1])}']").click()
    shot(referee_page, "08-referee-series")
    assert fits_the_screen(referee_page)
    line = referee_page.locator("#id_line")
    for table, paper in ((1, TABLE_1), (2, TABLE_1[::-1])):
        referee_page.get_by_role("link", name=f"Stolik {table}", exact=True).click()
        if table == 1:  # a line short of a value: refused with the reason, the cursor still in the line
            line.fill("=2,-2,2")
            line.press("Enter")
            referee_page.locator("#entry .errorlist", has_text="wymaga czterech liczb").wait_for()
            assert referee_page.evaluate("document.activeElement.id") == "id_line"
            shot(referee_page, "09-shorthand-refused")
            assert fits_the_screen(referee_page)
        for number, typed in enumerate(paper, start=1):
            line.fill(typed)
            line.press("Enter")
            expect(referee_page.locator("#sheet td.tools")).to_have_count(number)
        protocol = first.protocols.get(table=table)
        totals = sheet_totals(protocol_sheet(protocol=protocol))
        for seat, total in totals.items():
            referee_page.locator(f"#totals input[name={seat}]").fill(str(total))
        referee_page.get_by_role("button", name="Sprawdź i oznacz jako kompletny").click()
        referee_page.get_by_text("Protokół jest kompletny").wait_for()
        if table == 2:  # marked complete too early: undone on the same page, then marked again
            referee_page.get_by_role("button", name="Cofnij „kompletny”").click()
            referee_page.get_by_text("Protokół jest znów w trakcie wpisywania").wait_for()
            for seat, total in totals.items():
                referee_page.locator(f"#totals input[name={seat}]").fill(str(total))
            referee_page.get_by_role("button", name="Sprawdź i oznacz jako kompletny").click()
        referee_page.locator("select[name=seat]").select_option("B")
        referee_page.get_by_role("button", name="Potwierdź").click()
        referee_page.get_by_text("Protokół został potwierdzony.").wait_for()
        shot(referee_page, f"10-table-{table}-confirmed")
        assert list(protocol.rows.order_by("number").values_list("number", flat=True)) == list(range(1, DEALS + 1))
        referee_page.get_by_role("link", name="wszystkie stoliki").click()

    # closing asks first, and names the tables not confirmed yet
    referee_page.get_by_role("link", name="Zamknij serię").click()
    unconfirmed = referee_page.locator("section.card li")
    assert unconfirmed.count() == first.protocols.count() - 2
    shot(referee_page, "11-close-refused")
    assert fits_the_screen(referee_page)
    play_the_other_tables(first, referee, skip=(1, 2))
    referee_page.reload()
    referee_page.get_by_role("button", name="Tak, zamknij serię").click()
    referee_page.get_by_text("Seria jest zamknięta.").first.wait_for()
    first.refresh_from_db()
    assert first.status == Series.Status.CLOSED

    # the organiser's programme: series 1 closed, its results on the public pages (the default)
    page.get_by_role("link", name="Program").click()
    assert page.locator("table.data tbody tr").first.get_by_role("button", name="opublikowane — ukryj").is_visible()

    # --- a correction in the closed series, with its reason; reopened with a reason, closed again ---
    referee_page.get_by_role("link", name="Stolik 1", exact=True).click()
    referee_page.locator("#sheet tbody tr").nth(2).get_by_role("link", name="popraw").click()
    referee_page.locator("#id_line").fill("za-")
    referee_page.locator("#id_reason").fill("na papierze zolo przegrane")
    referee_page.get_by_role("button", name="Zapisz poprawkę").click()
    referee_page.get_by_text("Rozdanie 3 zostało poprawione.").wait_for()
    assert referee_page.locator("#next-steps").is_visible()
    shot(referee_page, "12-corrected")
    protocol = first.protocols.get(table=1)
    assert protocol.rows.get(number=3).deal["contract"] == "zolo"
    for seat, total in sheet_totals(protocol_sheet(protocol=protocol)).items():
        referee_page.locator(f"#totals input[name={seat}]").fill(str(total))
    referee_page.get_by_role("button", name="Zapisz sumy").click()
    referee_page.get_by_role("link", name="historia zmian").click()
    logged = referee_page.locator("table.history tbody tr", has_text="na papierze zolo przegrane")
    assert "Jan Sędziowski" in logged.inner_text()
    shot(referee_page, "12b-history")
    assert fits_the_screen(referee_page)
    referee_page.go_back()
    referee_page.get_by_role("link", name="wszystkie stoliki").click()
    referee_page.locator("#reopen textarea, #reopen input[name=reason]").fill("stolik 4 zgłasza pomyłkę w sumie")
    referee_page.get_by_role("button", name="Otwórz serię ponownie").click()
    referee_page.get_by_text("Seria jest znów otwarta").wait_for()
    shot(referee_page, "13-reopened")
    assert fits_the_screen(referee_page)
    first.refresh_from_db()
    assert first.status != Series.Status.CLOSED
    referee_page.get_by_role("link", name="Zamknij serię").click()
    referee_page.get_by_role("button", name="Tak, zamknij serię").click()
    referee_page.get_by_text("Seria jest zamknięta.").first.wait_for()
    first.refresh_from_db()
    assert first.status == Series.Status.CLOSED

    # --- the results sheet says what the public standings and the API say ---------------------------
    # while series 2 is being played: its deals count nowhere public until it is closed
    for protocol in tournament.series.get(number=2).protocols.all():
        play_protocol(random.Random(protocol.pk), protocol, deals=DEALS // 2, referee=referee, finish=False)
    page.get_by_role("link", name="Wydruki").click()
    sheets = open_pdf(page, page.get_by_role("link", name="Arkusze wyników"))
    assert "Klasyfikacja indywidualna po 1 serii" in sheets  # series 2 and 3 are not closed
    api = page.context.request.get(live_server.url + reverse("public:api_standings", args=[tournament.slug])).json()
    page.goto(live_server.url + reverse("public:standings", args=[tournament.slug]))
    shot(page, "14-standings")
    for entry in api["individual"][:5]:
        big, small = polish_number(entry["big_points"]), signed(entry["small_points"])
        printed = " ".join(filter(None, [entry["name"], entry["team"], big, small]))
        place = re.compile(rf"{entry['place']}(\.|–\d+\.) {re.escape(printed)}$")
        assert any(place.match(line) for line in sheets.splitlines()), (printed, sheets)
        shown = [cell.strip() for cell in public_row(page, entry["name"]).locator("td").all_inner_texts()]
        assert big in shown and small in shown, (entry, shown)

    # the corrected protocol is what the public numbers say for its table
    table_1 = {seat.seat: seat.player.full_name for seat in first.assignments.filter(table=1).select_related("player")}
    corrected = sheet_totals(protocol_sheet(protocol=first.protocols.get(table=1)))
    by_player = {entry["name"]: entry for entry in api["individual"]}
    for seat, player in table_1.items():
        assert by_player[player]["small_points"] == corrected[seat]

    assert not [url for url in visited if "/admin/" in url]

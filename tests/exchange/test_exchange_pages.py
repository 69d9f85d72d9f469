"""The exchange file in the app: the organiser downloads a tournament's file (the same bytes as
the command), uploads one with a preview (players new, existing or probable duplicates, errors
at their place) and confirms it all or nothing; the same tournament uploaded again replaces the
earlier import after a preview of what changes, keeping the earlier version."""

import html
import io
import json
import uuid

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from league.exchange import export_tournament, import_tournament
from league.exchange.services import pending_exchange_confirm, pending_exchange_create, tournament_file_import
from league.models import PendingExchangeImport, Tournament, TournamentFileVersion
from league.results.models import DealRow
from players.models import Player
from tests.exchange.files import load
from tests.exchange.test_import import row_counts
from tests.factories import ClubFactory, LeagueFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

UPLOAD = reverse("exchange:upload")
PREVIEW = reverse("exchange:preview")


def upload(client, content, name="turniej.json", league=None, **headers):
    text = content if isinstance(content, bytes) else json.dumps(content, ensure_ascii=False).encode()
    fields = {"file": SimpleUploadedFile(name, text, "application/json")} | ({"league": league.pk} if league else {})
    return client.post(UPLOAD, fields, **headers)


def organised(data, user) -> Tournament:
    tournament = import_tournament(data)
    tournament.organisers.add(user)
    return tournament


def deals(tournament) -> int:
    return DealRow.objects.filter(protocol__series__tournament=tournament).count()


def test_the_download_is_the_commands_file_as_an_attachment(client, organiser):
    tournament = organised(load("small_puck"), organiser)
    printed = io.StringIO()
    call_command("export_tournament", tournament.slug, stdout=printed)

    response = client.get(reverse("exchange:download", args=[tournament.slug]))

    assert response.status_code == 200
    assert response.content == printed.getvalue().encode("utf-8")
    assert "Recław" in response.content.decode("utf-8")  # letters as they are, in UTF-8
    assert response["Content-Disposition"] == 'attachment; filename="maly-turniej.json"'
    assert json.loads(response.content)["tournament"]["tournament_id"] == str(tournament.exchange_id)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert reverse("exchange:download", args=[tournament.slug]) in page


def test_an_uploaded_file_is_previewed_then_imported_as_a_draft_of_its_organiser(client, organiser):
    assert UPLOAD in client.get(reverse("tournaments:list")).content.decode()
    before = row_counts()

    response = upload(client, load("small_puck"))

    assert response.status_code == 302 and response["Location"] == PREVIEW
    assert row_counts() == before  # the preview writes nothing of the tournament
    page = client.get(PREVIEW).content.decode()
    assert "Mały turniej" in page and "Józef Recław" in page
    assert page.count(">new<") == 9

    response = client.post(PREVIEW)

    tournament = Tournament.objects.get(slug="maly-turniej")
    assert response["Location"] == tournament.get_absolute_url()
    assert not tournament.published and list(tournament.organisers.all()) == [organiser]
    assert tournament.registrations.count() == 9 and deals(tournament) == 7
    assert not PendingExchangeImport.objects.exists()


def test_a_file_uploaded_from_a_leagues_screen_becomes_a_tournament_of_that_league(client, organiser):
    league, foreign = LeagueFactory(name="Liga Pucka"), LeagueFactory(name="Liga Obca")
    league.organisers.add(organiser)
    screen = client.get(reverse("leagues:edit", args=[league.slug])).content.decode()
    assert f"{UPLOAD}?liga={league.slug}" in screen
    assert f'<option value="{league.pk}" selected>' in client.get(f"{UPLOAD}?liga={league.slug}").content.decode()

    refused = upload(client, load("small_puck"), league=foreign)  # a league someone else organises
    assert refused.status_code == 200 and not PendingExchangeImport.objects.exists()

    upload(client, load("small_puck"), league=league)
    assert "nowy turniej dołączy do ligi Liga Pucka" in client.get(PREVIEW, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    client.post(PREVIEW)
    assert Tournament.objects.get(slug="maly-turniej").league == league


def test_a_new_tournament_whose_address_is_taken_here_gets_a_free_one(client, organiser):
    TournamentFactory(slug="maly-turniej", name="Nasz mały turniej")

    upload(client, load("small_puck"))
    client.post(PREVIEW)

    imported = Tournament.objects.get(name="Mały turniej")
    assert imported.slug == "maly-turniej-2" and imported.registrations.count() == 9


def test_the_organiser_chooses_who_a_probable_duplicate_is(client, organiser):
    anna = PlayerFactory(first_name="ANNA", last_name="Kowalska", club=ClubFactory(name="KS Wejherowo"))
    PlayerFactory(first_name="Jozef", last_name="Reclaw", club=None)
    upload(client, load("small_puck"))
    page = client.get(PREVIEW).content.decode()
    assert page.count("probable duplicate") == 2
    assert "use ANNA Kowalska (KS Wejherowo)" in page
    players = Player.objects.count()

    # Anna is the stored ANNA; Józef is somebody else than the stored Jozef
    client.post(PREVIEW, {"player-a1": str(anna.pk), "player-b4": "new"})

    tournament = Tournament.objects.get(slug="maly-turniej")
    registered = {r.external_id: r.player for r in tournament.registrations.select_related("player")}
    assert registered["a1"] == anna
    assert registered["b4"].first_name == "Józef" and registered["b4"].pk != anna.pk
    assert Player.objects.count() == players + 8  # everyone but Anna is new


def test_a_choice_outside_the_candidates_adds_a_new_player(client, organiser):
    PlayerFactory(first_name="Anna", last_name="Kowalská")
    stranger = PlayerFactory(first_name="Someone", last_name="Else")
    upload(client, load("small_puck"))

    client.post(PREVIEW, {"player-a1": str(stranger.pk)})

    registered = Tournament.objects.get(slug="maly-turniej").registrations.get(external_id="a1").player
    assert registered != stranger and registered.last_name == "Kowalska"


@pytest.mark.parametrize(
    ("change", "place", "path"),
    [
        (
            lambda data: data["players"][2].update(gender="X"),
            "Player 3 (Piotr Konkol), field “gender”",
            "players[2].gender",
        ),
        (
            lambda data: data["series"][1]["tables"][0]["deals"][0].update(contract="bomba"),
            "Series 2, table 1, deal 1",
            "series[1].tables[0].deals[0]",
        ),
        (
            lambda data: data["tournament"].update(tournament_id="nie-uuid"),
            "The tournament, field “tournament_id”",
            "tournament.tournament_id",
        ),
    ],
)
def test_an_error_is_shown_at_its_place_and_nothing_is_kept(client, organiser, change, place, path):
    data = load("small_puck")
    change(data)
    before = row_counts()

    response = upload(client, data)

    page = response.content.decode()
    assert response.status_code == 200
    assert "The file has an error; nothing has been saved." in page
    assert place in page and f"<code>{path}" in page
    assert "Import the tournament" not in page
    assert row_counts() == before and not PendingExchangeImport.objects.exists()


@pytest.mark.parametrize(
    ("change", "polish"),
    [
        (
            lambda data: data["players"][2].update(gender="X"),
            "Zawodnik 3 (Piotr Konkol), pole „gender”</strong>: oczekiwano: jedna z wartości: F, M",
        ),
        (
            lambda data: data["players"][1].update(id="a1"),
            'Zawodnik 2 (Jan Formela), pole „id”</strong>: identyfikator "a1" jest pusty albo już użyty',
        ),
        (
            lambda data: data["series"][1]["tables"][0]["deals"][0].update(contract="bomba"),
            "Seria 2, stolik 1, rozdanie 1, pole „contract”</strong>: Nieznany kontrakt",
        ),
    ],
)
def test_an_error_is_told_in_polish_at_its_place(client, organiser, change, polish):
    data = load("small_puck")
    change(data)

    page = upload(client, data, HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert "Plik zawiera błąd; nic nie zostało zapisane." in page
    assert html.unescape(polish) in html.unescape(page)


@pytest.mark.parametrize(
    ("content", "polish"),
    [
        (b"\xff\xfe\x00\x00", "To nie jest plik tekstowy UTF-8"),
        (b"<html>turniej</html>", "To nie jest plik wymiany: jego tekst nie jest JSON-em."),
        (b"[" * 200_000, "To nie jest plik wymiany"),
        ('{"format": "baska-league/1", "tournament": ' + "7" * 5000 + "}", "Turniej"),
    ],
)
def test_hostile_files_are_refused_in_polish_and_change_nothing(client, organiser, content, polish):
    before = row_counts()

    response = upload(client, content.encode() if isinstance(content, str) else content, HTTP_ACCEPT_LANGUAGE="pl")

    assert response.status_code == 200
    assert polish in response.content.decode()
    assert row_counts() == before and not PendingExchangeImport.objects.exists()


def test_a_players_name_holding_a_lone_surrogate_is_told_at_its_place(client, organiser):
    text = json.dumps(load("small_puck"), ensure_ascii=True)
    first = json.loads(text)["players"][0]["first_name"]
    text = text.replace(json.dumps(first), '"\\udfff"', 1)  # valid JSON naming a character no text can hold

    response = upload(client, text.encode(), HTTP_ACCEPT_LANGUAGE="pl")

    assert response.status_code == 200 and "Zawodnik 1" in response.content.decode()
    assert not PendingExchangeImport.objects.exists()


def test_a_file_over_the_upload_limit_is_refused_unread(client, organiser, settings):
    content = json.dumps(load("small_puck")).encode()
    settings.BASKA_UPLOAD_MAX_BYTES = len(content) - 1

    response = upload(client, content, HTTP_ACCEPT_LANGUAGE="pl")

    assert "Plik jest większy niż" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_same_tournament_uploaded_again_replaces_it_and_keeps_the_earlier_version(client, organiser):
    tournament = organised(load("small_puck"), organiser)
    tournament.published = True
    tournament.save()
    original = export_tournament(tournament)
    played_on = json.loads(json.dumps(original))
    played_on["series"][1]["tables"][0]["deals"].pop()  # a deal struck out on the laptop
    played_on["players"].append({"id": "n1", "first_name": "Ewa", "last_name": "Nowa", "gender": "F"})

    upload(client, played_on, name="wieczor.json")
    page = client.get(PREVIEW).content.decode()

    assert "The file replaces “Mały turniej”" in page
    assert "Series 2: tables 2 → 2, deals 2 → 1" in page and "Player added: Ewa Nowa" in page
    client.post(PREVIEW)

    replaced = Tournament.objects.get()
    assert replaced.pk == tournament.pk and replaced.published  # the same tournament, its settings kept
    assert deals(replaced) == 6 and replaced.registrations.count() == 10
    version = TournamentFileVersion.objects.get()
    assert (version.tournament, version.user, version.file) == (replaced, organiser, original)
    assert "wieczor.json" in version.reason

    # the earlier version is on the tournament's screen, and its file brings it back
    page = client.get(replaced.get_absolute_url()).content.decode()
    link = reverse("exchange:version", args=[replaced.slug, version.pk])
    assert link in page
    upload(client, client.get(link).content)
    client.post(PREVIEW)
    assert deals(replaced) == 7 and replaced.registrations.count() == 9
    assert TournamentFileVersion.objects.count() == 2


def test_the_same_file_twice_says_nothing_changes(client, organiser):
    tournament = organised(load("small_puck"), organiser)
    file = client.get(reverse("exchange:download", args=[tournament.slug])).content

    page = upload(client, file).content.decode()

    assert "Nothing changes: the file is the tournament as it is here." in page
    assert "Replace the tournament" not in page and not PendingExchangeImport.objects.exists()
    # confirmed all the same (a second tab, a double click), it writes nothing
    replaced, written = tournament_file_import(user=organiser, data=json.loads(file), filename="x.json", players={})
    assert (replaced, written) == (tournament, False)
    assert not TournamentFileVersion.objects.exists()
    assert Tournament.objects.get().updated == tournament.updated


def test_a_file_changing_the_venue_and_one_deal_says_so_in_polish(client, organiser):
    """Issue 41: the preview said "zmieniają się inne szczegóły turnieju…" instead of the differences."""
    tournament = organised(load("small_puck"), organiser)
    changed = export_tournament(tournament)
    changed["tournament"]["venue"] = "Kartuzy, Dom Kultury"
    changed["tournament"]["date"] = "2026-05-16"
    changed["tournament"]["team_ranking"] = "sum"  # was "best3"
    changed["series"][0]["tables"][1]["deals"][0] = {"values": {"A": 15, "B": 15, "C": -5, "D": -25}}

    upload(client, changed)
    page = client.get(PREVIEW, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    changes = page.split('id="changes"')[1].split("</section>")[0]

    assert f"<li>Miejsce rozgrywek: {tournament.venue} → Kartuzy, Dom Kultury</li>" in changes
    assert "Seria 1, stolik 2: zmienia się rozdanie 1." in changes
    assert f"<li>Data: {tournament.date:%d.%m.%Y} → 16.05.2026</li>" in changes  # the reader's date
    assert "<li>Zmiana: klasyfikacja drużynowa.</li>" in changes and "best3" not in changes  # never the code
    assert "inne szczegóły" not in changes


def test_the_same_file_twice_offers_no_choice_it_cannot_send(client, organiser):
    """Issue 41: an identical file still showed the duplicate radios, with no button to send them."""
    PlayerFactory(first_name="ANNA", last_name="Kowalská", club=ClubFactory(name="KS Wejherowo"))
    tournament = organised(load("small_puck"), organiser)
    file = client.get(reverse("exchange:download", args=[tournament.slug])).content

    page = upload(client, file).content.decode()

    assert "Nothing changes" in page and 'type="radio"' not in page
    assert tournament.get_absolute_url() in page


def test_nobody_replaces_a_tournament_they_do_not_organise(client, organiser):
    somebody = UserFactory()
    tournament = organised(load("small_puck"), somebody)
    file = export_tournament(tournament)
    file["series"] = []

    page = upload(client, file).content.decode()

    assert "which you do not organise" in page
    assert deals(tournament) == 7 and not PendingExchangeImport.objects.exists()


def test_a_file_without_a_tournament_id_still_imports_with_its_own():
    first, second = load("small_puck"), load("small_puck")
    second["tournament"]["slug"] = "maly-turniej-2"

    ids = {import_tournament(first).exchange_id, import_tournament(second).exchange_id}

    assert len(ids) == 2


def test_the_download_is_for_the_tournaments_organisers(client):
    tournament = import_tournament(load("small_puck"))
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)

    assert client.get(reverse("exchange:download", args=[tournament.slug])).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_tournaments_stored_before_the_exchange_id_get_one_each():
    before = [("league", "0014_leagues_and_start_times")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("league", "Tournament")
    for slug in ("jeden", "dwa", "trzy"):
        old.objects.create(name=slug, slug=slug, date="2025-05-01", ruleset_preset="puck")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    ids = set(Tournament.objects.values_list("exchange_id", flat=True))
    assert len(ids) == 3 and all(isinstance(i, uuid.UUID) for i in ids)


def test_a_second_confirmation_of_the_same_upload_imports_nothing_more(organiser):
    pending = pending_exchange_create(user=organiser, filename="turniej.json", data=load("small_puck"))

    first = pending_exchange_confirm(pending=pending, user=organiser, players={})
    second = pending_exchange_confirm(pending=pending, user=organiser, players={})

    assert first == (Tournament.objects.get(), True) and second is None
    assert not PendingExchangeImport.objects.exists()


def test_the_same_file_again_after_a_duplicate_was_matched_changes_nothing(client, organiser):
    anna = PlayerFactory(first_name="ANNA", last_name="Kowalska", club=ClubFactory(name="KS Wejherowo"))
    played = load("small_puck")
    played["tournament"]["tournament_id"] = str(uuid.uuid4())  # as the laptop's export writes it
    upload(client, played)
    client.post(PREVIEW, {"player-a1": str(anna.pk)})

    page = upload(client, played).content.decode()

    assert "Nothing changes: the file is the tournament as it is here." in page
    assert not PendingExchangeImport.objects.exists()


def test_one_stored_namesake_is_offered_to_one_player_of_the_file_only(client, organiser):
    data = load("small_puck")
    data["players"][1].update(first_name="Anna", last_name="Kowalska", club="Gryf Kartuzy")  # a namesake of a1
    stored = PlayerFactory(first_name="Anna", last_name="Kowalská")
    upload(client, data)

    page = client.get(PREVIEW).content.decode()
    assert page.count(f'value="{stored.pk}" checked') == 1

    client.post(PREVIEW, {"player-a1": str(stored.pk), "player-a2": "new"})
    registered = dict(Tournament.objects.get().registrations.values_list("external_id", "player_id"))
    assert registered["a1"] == stored.pk and registered["a2"] != stored.pk

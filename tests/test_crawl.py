"""A crawl of the whole site on the demo league, as every role, in Polish and English: no answer is
a server error, and every refusal is a 403, a 404 or a redirect to the login page.

Each role starts from the pages a person starts from (the home page, the lists of the menu, the
demo's tournaments) and from :data:`SEEDS`, the addresses no page links to (a phone's JSON, the
service worker); it follows every link and every GET form on each page it sees. Links of one
shape (the same URL pattern with the same query keys) are followed ``PER_SHAPE`` times per role
in Polish, the site's language, and once in English, whose pages differ from the Polish ones only in
their words: the demo's 48 players' pages are one shape, and the first ones tell what the others
would. The admin is crawled by the superuser, one page per shape.

:func:`test_every_url_pattern_is_crawled_or_named_as_needing_a_post` then asks every named URL
pattern of the project (the admin's aside: Django's own) to have been reached by some role, or to
be in :data:`POST_ONLY`: a new URL without a crawl entry fails it. CI runs this module in both of
its configurations (the embedded default, and PostgreSQL with Redis as the cache).
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import Resolver404

from league.models import League, Series, Tournament, TournamentFileVersion
from league.printing.models import PrintJob
from league.public import page_store
from league.results.models import Penalty, Protocol
from league.signups.links import signup_token
from league.signups.services import signup_create
from tests.caches import SPOILED, cache_keys, cache_raw_set
from tests.factories import OwnRulesetFactory, TournamentFactory, UserFactory

ROLES = ("anon", "phone", "referee", "organiser", "other_organiser", "superuser")
LANGUAGES = ("pl", "en")
PER_SHAPE = {"pl": 2, "en": 1}
GONE = 410  # a sign-up's private link once its tournament has started: a page saying so
PAGES_AT_MOST = 1500  # per role and language; the demo's crawl takes a few hundred

# Patterns a GET does not reach: each needs a form sent with POST (a GET answers 405 or is sent back).
POST_ONLY = {
    "logout",
    "set_language",
    "exchange:preview",
    "tournaments:publish",
    "tournaments:publish_tournament",
    "tournaments:archive",
    "tournaments:staff_add",
    "tournaments:staff_remove",
    "tournaments:invitation_answer",
    "tournaments:register",
    "tournaments:check_in",
    "tournaments:fee",
    "tournaments:withdraw",
    "tournaments:registration_team",
    "tournaments:unregister",
    "tournaments:registrations_bulk",
    "tournaments:registrations_all",
    "tournaments:team_build",
    "tournaments:swap",
    "tournaments:redraw",
    "tournaments:redraw_undo",
    "tournaments:draw_restore",
    "tournaments:fixed_seat_remove",
    "results:close",
    "results:reopen",
    "results:new_pins",
    "results:penalty_remove",
    "results:confirm",
    "results:uncomplete",
    "results:new_pin",
    "results:unlock",
    "results:pulka_deal",
    "results:pulka_penalty",
    "results:pulka_close",
    "table:save",
    "table:deals_json",
    "table:preview",
    "results:preview",
    "results:totals",
    "table:contact_json",
    "table:delete",
    "table:finish",
    "table:confirm",
    "table:pulka_deal",
    "table:pulka_entry",
    "table:pulka_close",
    "printing:results_job",
    "printing:protocols_job",
    "printing:archive_job",
    "printing:restart_job",
    "hall:start",
    "hall:pause",
    "hall:resume",
    "hall:time_up",
    "seasons:attach",
    "seasons:detach",
    "results:penalty_add",
    "results:table_penalty_add",
    "seasons:counts",
    "players:import_preview",
    "leagues:organiser_add",
    "leagues:organiser_remove",
    "signups:confirm",
    "signups:cancel",
}


@dataclass
class Demo:
    """The demo league's objects the crawl starts from, and each role's session."""

    live: str  # the tournament being played (series 3 in play)
    preferans: str
    signups: str
    league: str
    other_league: str
    table: tuple[int, int]  # a series and table of the live tournament, in play
    sessions: dict[str, str]
    extra: list[str]  # pages of objects the demo has none of (a penalty, a print job, own rules…)


def _seeds(demo: Demo) -> list[str]:
    """Where each role starts: the menu's lists, the demo's tournaments as organiser and public
    pages, and the addresses no page links to."""
    series, table = demo.table
    starts = [
        reverse(name)
        for name in (
            "home",
            "tournaments:list",
            "tournaments:create",
            "players:player_list",
            "players:team_list",
            "players:club_list",
            "seasons:list",
            "rulesets:list",
            "leagues:list",
            "public:records",
            "exchange:upload",
            "players:import_upload",
            "calculator",
            "pulka_calculator",
            "health",
            "favicon",
            "login",
            "leagues:calendar_all_ics",
            "admin:index",
        )
    ]
    for slug in (demo.live, demo.preferans, demo.signups):
        starts += [reverse("tournaments:detail", args=[slug]), reverse("public:tournament", args=[slug])]
    starts += [
        reverse("leagues:page", args=[demo.league]),
        reverse("leagues:page", args=[demo.other_league]),
        reverse("leagues:logo", args=[demo.league]),
        reverse("public:api_standings", args=[demo.live]),
        reverse("public:projector_pages", args=[demo.live]),
        reverse("table:sw", args=[demo.live]),
        reverse("table:protocol", args=[demo.live, series, table]),
        reverse("table:pin", args=[demo.live, series, table]),
        reverse("printing:pins", args=[demo.live, series]),
        reverse("hall:tables", args=[demo.live, series]),
        *(reverse(f"table:{name}", args=[demo.live, series, table]) for name in ("state_json", "value_table_json")),
        reverse("table:edit", args=[demo.live, series, table, 1]),
        reverse("results:correct", args=[demo.live, series, table, 1]),
        reverse("players:search") + "?q=kow",
        *demo.extra,
    ]
    return starts


class _Links(HTMLParser):
    """The addresses a page links to: every ``a href`` and every GET form, sent with its fields'
    values as the page fills them in (a select's chosen or first option)."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self._form: tuple[str, list[tuple[str, str]]] | None = None
        self._select: str | None = None
        self._chosen: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form" and a.get("method", "get").lower() == "get":
            self._form = (a.get("action", ""), [])
        elif self._form is not None and tag in ("input", "button") and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind not in ("submit", "button", "file") and (kind not in ("checkbox", "radio") or "checked" in a):
                self._form[1].append((a["name"], a.get("value", "")))
        elif self._form is not None and tag == "select" and a.get("name"):
            self._select, self._chosen = a["name"], None
        elif self._select is not None and tag == "option" and (self._chosen is None or "selected" in a):
            self._chosen = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._form is not None and self._select is not None:
            self._form[1].append((self._select, self._chosen or ""))
            self._select = None
        elif tag == "form" and self._form is not None:
            action, fields = self._form
            self.links.append(f"{action}?{urlencode(fields)}" if fields else action)
            self._form = None


def links_of(page_url: str, html: str) -> Iterator[str]:
    """The site's own addresses ``html`` links to, as paths with their queries."""
    parser = _Links()
    parser.feed(html)
    for link in parser.links:
        own = own_address(page_url, link)
        if own is not None:
            yield own


def own_address(page_url: str, link: str) -> str | None:
    """``link`` as a path with its query when it is one of the site's pages (not a static or
    media file, nor another site), else None."""
    parts = urlsplit(urljoin(page_url, link))
    if parts.netloc not in ("", "testserver") or not parts.path.startswith("/"):
        return None
    if parts.path.startswith((settings.STATIC_URL, settings.MEDIA_URL)):
        return None
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


def shape_of(url: str) -> tuple[str, tuple[str, ...]] | None:
    """The URL pattern's name and the query's keys; None for an address no pattern answers."""
    parts = urlsplit(url)
    try:
        name = resolve(parts.path).view_name
    except Resolver404:
        return None
    return name, tuple(sorted({key for key, _value in parse_qsl(parts.query, keep_blank_values=True)}))


@dataclass
class Crawl:
    """What one role saw in one language: each address's answer, and the pattern names reached."""

    answers: dict[str, int]
    reached: set[str]
    refusals: list[str]
    errors: list[str]


def crawl(client: Client, starts: list[str], *, admin_too: bool, per_shape_most: int) -> Crawl:
    seen: set[str] = set()
    per_shape: Counter = Counter()
    queue = list(starts)
    result = Crawl({}, set(), [], [])
    while queue and len(result.answers) < PAGES_AT_MOST:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        shape = shape_of(url)
        if shape is None:
            result.answers[url] = 404
            result.errors.append(f"{url}: linked, but no URL pattern answers it")
            continue
        admin = shape[0].startswith("admin:")
        if admin and not admin_too and url not in starts:
            continue
        if admin:  # Django's own pages: one of each is enough to know the app's models show there
            shape = (shape[0], ())
        per_shape[shape] += 1
        if per_shape[shape] > (1 if admin else per_shape_most) and url not in starts:
            continue
        response = client.get(url)
        result.answers[url] = response.status_code
        result.reached.add(shape[0])
        status = response.status_code
        if status >= 500:
            result.errors.append(f"{url}: {status}")
        elif status in (401, 402) or 405 <= status < 500 and status != GONE:
            result.errors.append(f"{url}: a refusal must be 403, 404 or the login page, not {status}")
        elif status in (403, 404, GONE):
            result.refusals.append(url)
        elif status in (301, 302, 303, 307, 308):
            target = own_address(url, response["Location"])
            if target is not None:
                queue.append(target)
        elif status == 200 and response.get("Content-Type", "").startswith("text/html"):
            html = b"".join(response.streaming_content) if response.streaming else response.content
            queue += [link for link in links_of(url, html.decode()) if link not in seen]
    return result


def _phone_session(handler, demo_live: str, series: int, table: int) -> str:
    client = Client()
    client.handler = handler
    pin = Protocol.objects.get(series__tournament__slug=demo_live, series__number=series, table=table).pin
    response = client.post(reverse("table:pin", args=[demo_live, series, table]), {"pin": pin, "seat": "A"})
    assert response.status_code == 302, "the PIN did not let the phone in"
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _build_demo(handler) -> Demo:
    call_command("load_demo", stdout=io.StringIO())
    live = Tournament.objects.get(series__status=Series.Status.IN_PLAY, game="baska")
    in_play = Protocol.objects.filter(series__tournament=live, series__status=Series.Status.IN_PLAY).first()
    preferans = Tournament.objects.exclude(game="baska").first()
    signups = Tournament.objects.filter(signup_window__is_open=True).first()
    league = League.objects.get()

    other_organiser = UserFactory(username="crawl-other-organiser")
    other_organiser.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_player", "change_player", "add_tournament"])
    )
    other_league = League.objects.create(name="Liga Łódzka", slug="liga-lodzka")
    other_league.organisers.add(other_organiser)
    TournamentFactory(slug="lodz-open", league=other_league).organisers.add(other_organiser)
    superuser = UserFactory(username="crawl-superuser", is_superuser=True, is_staff=True)

    sessions = {}
    for role, user in (
        ("referee", User.objects.get(username="sedzia")),
        ("organiser", User.objects.get(username="organizator")),
        ("other_organiser", other_organiser),
        ("superuser", superuser),
    ):
        client = Client()
        client.handler = handler
        client.force_login(user)
        sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    table = (in_play.series.number, in_play.table)
    sessions["phone"] = _phone_session(handler, live.slug, *table)
    return Demo(
        live.slug, preferans.slug, signups.slug, league.slug, other_league.slug, table, sessions, _extra(live, signups)
    )


def _extra(live: Tournament, signups: Tournament) -> list[str]:
    """Objects the demo has none of, made for the crawl, and their pages."""
    closed = live.series.get(number=1)
    player = closed.assignments.first().player
    penalty = Penalty.objects.create(series=closed, player=player, small_points=-10, reason="spóźnienie")
    job = PrintJob.objects.create(series=closed, kind=PrintJob.Kind.ARCHIVE, status=PrintJob.Status.DONE)
    job.file.save("archiwum.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"))
    version = TournamentFileVersion.objects.create(tournament=live, file={"format": "baska-league/1"})
    own_rules = OwnRulesetFactory(owner=User.objects.get(username="organizator"))
    signup, _new = signup_create(
        tournament=signups,
        form_token="crawl",
        page="/",
        first_name="Ola",
        last_name="Treder",
        gender="F",
        email="ola@example.org",
    )
    return [
        reverse("results:penalty", args=[live.slug, 1, penalty.pk]),
        reverse("printing:job", args=[live.slug, job.pk]),
        reverse("printing:job_file", args=[live.slug, job.pk]),
        reverse("exchange:version", args=[live.slug, version.pk]),
        reverse("rulesets:edit", args=[own_rules.pk]),
        reverse("signups:detail", args=[signups.slug, signup_token(signup=signup)]),
    ]


@pytest.fixture(scope="module")
def handler():
    return Client().handler


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, handler, tmp_path_factory) -> Iterator[Demo]:
    """The demo league, loaded once for the module inside a transaction rolled back at its end."""
    from django.test import override_settings

    with (
        override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media")),
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        yield _build_demo(handler)
        transaction.set_rollback(True)


# What each role reached, per language: the last test reads the crawls this process made
_crawled: dict[tuple[str, str], Crawl] = {}


def crawled(demo: Demo, handler, role: str, language: str) -> Crawl:
    if (role, language) not in _crawled:
        client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
        client.handler = handler
        if role in demo.sessions:
            client.cookies[settings.SESSION_COOKIE_NAME] = demo.sessions[role]
        _crawled[role, language] = crawl(
            client, _seeds(demo), admin_too=role == "superuser", per_shape_most=PER_SHAPE[language]
        )
    return _crawled[role, language]


# one process crawls them all (``--dist loadgroup``), so the last test finds every crawl made
pytestmark = pytest.mark.xdist_group("crawl")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_no_page_of_the_crawl_is_a_server_error(demo: Demo, handler, db, role: str, language: str):
    result = crawled(demo, handler, role, language)
    assert not result.errors, "\n".join(result.errors)
    assert len(result.answers) < PAGES_AT_MOST, "the crawl did not end: a link makes new addresses forever"


def url_pattern_names() -> Iterator[str]:
    def walk(patterns, namespace: str) -> Iterator[str]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = ":".join(filter(None, (namespace, pattern.namespace)))
                yield from walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield ":".join(filter(None, (namespace, pattern.name)))

    yield from walk(get_resolver().url_patterns, "")


def test_every_url_pattern_is_crawled_or_named_as_needing_a_post(demo: Demo, handler, db):
    reached = set().union(*(crawled(demo, handler, role, "pl").reached for role in ROLES))
    ours = {name for name in url_pattern_names() if not name.startswith("admin:")}
    missing = ours - reached - POST_ONLY
    assert not missing, f"URL patterns neither crawled nor named in POST_ONLY: {sorted(missing)}"
    stale = POST_ONLY & reached
    assert not stale, f"POST_ONLY names patterns the crawl reaches with GET: {sorted(stale)}"
    assert POST_ONLY <= ours, f"POST_ONLY names no such pattern: {sorted(POST_ONLY - ours)}"


@pytest.mark.parametrize("spoiled", SPOILED, ids=list(SPOILED))
def test_whatever_is_found_under_the_apps_keys_every_public_page_answers_the_same(demo: Demo, handler, db, spoiled):
    """An unreadable cache value (a stale format after an upgrade, junk, another version's value)
    is a miss: a season page's sort and page variants answered 500 on them."""
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    client.handler = handler
    first = steady_pages(demo, handler, client)
    assert len(first) > 30
    for url in first:  # each test starts with an empty cache: the pages fill it
        client.get(url)

    keys = cache_keys()
    assert any(key.startswith("rankings:season:") for key in keys)
    for key in keys:
        cache_raw_set(key, SPOILED[spoiled])
    page_store.forget_all()  # as a web process started after the upgrade

    for url, page in first.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert shown(response) == page, url


# The public pages as a visitor sees them, read once for all the kinds of spoiled values
_steady: dict[str, bytes] = {}


def steady_pages(demo: Demo, handler, client: Client) -> dict[str, bytes]:
    """What each public page of the visitor's crawl shows, for the pages that show the same when read
    again (a page of the time now, e.g. a hall's clock, is left out)."""
    if not _steady:
        pages = [url for url, status in crawled(demo, handler, "anon", "en").answers.items() if status == 200]
        first = {url: shown(client.get(url)) for url in pages}
        _steady.update({url: page for url, page in first.items() if shown(client.get(url)) == page})
    return _steady


def shown(response) -> bytes:
    """What a page shows: its CSRF tokens, new for every page built, left out; of a download
    (a calendar stamped with the time it was made, a spreadsheet zipped with it) only its type."""
    if not response["Content-Type"].startswith(("text/html", "application/json")):
        return response["Content-Type"].encode()
    return re.sub(rb'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*', rb"\1", response.content)


@pytest.mark.parametrize("spoiled", SPOILED, ids=list(SPOILED))
def test_whatever_is_found_under_a_session_the_organiser_and_the_phone_stay_let_in(demo: Demo, handler, db, spoiled):
    """A session is read from the database when its cached copy does not verify: after the cache was
    spoiled, a table phone lost its PIN grant (403 on every deal, bench/dependency_faults.py)."""
    pages = {
        "organiser": reverse("tournaments:detail", args=[demo.live]),
        "phone": reverse("table:protocol", args=[demo.live, *demo.table]),
    }
    clients = {}
    for role, url in pages.items():
        clients[role] = Client(raise_request_exception=False)
        clients[role].handler = handler
        clients[role].cookies[settings.SESSION_COOKIE_NAME] = demo.sessions[role]
        assert clients[role].get(url).status_code == 200
    for key in cache_keys():
        cache_raw_set(key, SPOILED[spoiled])

    for role, url in pages.items():
        response = clients[role].get(url)
        assert response.status_code == 200, role
        assert 'name="pin"' not in response.content.decode(), "the phone was asked for its PIN again"

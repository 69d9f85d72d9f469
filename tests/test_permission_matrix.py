"""Who may open what: every named URL of the project × every role.

The table :data:`MATRIX` gives, for each URL name, the expected answer per role;
:func:`test_every_url_pattern_has_an_entry` enumerates the project's resolver,
so a new URL without an entry here fails until somebody decides who may use it.

Roles, in the order of the answer tuples:

- ``anon``: nobody logged in;
- ``scorer_other``: a table scorer let in by the PIN of table 2 of series 1;
- ``scorer``: a table scorer let in by the PIN of table 1 of series 1;
- ``referee``: a referee of the tournament (no organiser permissions);
- ``other_organiser``: organises another tournament (same permissions);
- ``organiser``: organises the tournament.

Answers: ``OK`` 200, ``PIN`` 200 showing the table's PIN form, ``REDIR`` a 302
that is not the login page, ``LOGIN`` 302 to the login page, ``BAD`` 400,
``DENY`` 403, ``HIDDEN`` 404, ``NOPE`` 405. A POST is sent with an empty body;
any answer other than OK/REDIR/BAD must leave the database exactly as it was.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from league.logo import small_png
from league.models import Series, TournamentFileVersion
from league.printing.models import PrintJob
from league.results import services
from league.results.models import Penalty
from tests.factories import (
    ClubFactory,
    LeagueFactory,
    OwnRulesetFactory,
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TableAssignmentFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    played_series,
    register_teams,
    table_protocols,
)

ROLES = ("anon", "scorer_other", "scorer", "referee", "other_organiser", "organiser")

OK, PIN, REDIR, LOGIN, BAD, DENY, HIDDEN, NOPE = "OK", "PIN", "REDIR", "LOGIN", "BAD", "DENY", "HIDDEN", "NOPE"
WRITES_ALLOWED = {OK, REDIR, BAD}

# Answer tuples in ROLES order.
EVERYONE = (OK,) * 6
NOBODY_405 = (NOPE,) * 6
HIDDEN_ALL = (HIDDEN,) * 6
LOGGED_IN = (LOGIN, LOGIN, LOGIN, OK, OK, OK)
ORGANISER = (LOGIN, LOGIN, LOGIN, DENY, DENY, OK)
ORGANISER_REDIR = (LOGIN, LOGIN, LOGIN, DENY, DENY, REDIR)
ORGANISER_405 = (LOGIN, LOGIN, LOGIN, DENY, DENY, NOPE)
REFEREE = (LOGIN, LOGIN, LOGIN, OK, DENY, OK)
REFEREE_REDIR = (LOGIN, LOGIN, LOGIN, REDIR, DENY, REDIR)
REFEREE_405 = (LOGIN, LOGIN, LOGIN, NOPE, DENY, NOPE)
REFEREE_HIDDEN = (LOGIN, LOGIN, LOGIN, HIDDEN, DENY, HIDDEN)
# players.add_player / change_player / league.add_tournament: both organisers hold them, the referee not
PERMITTED = (LOGIN, LOGIN, LOGIN, DENY, OK, OK)
PERMITTED_REDIR = (LOGIN, LOGIN, LOGIN, DENY, REDIR, REDIR)
# the table scorer's pages of table 1: only its PIN opens them, others get the PIN form (GET) or 403 (POST)
TABLE_GET = (PIN, PIN, OK, PIN, PIN, PIN)
TABLE_GET_405 = (PIN, PIN, NOPE, PIN, PIN, PIN)
TABLE_POST = (DENY, DENY, OK, DENY, DENY, DENY)
TABLE_POST_REDIR = (DENY, DENY, REDIR, DENY, DENY, DENY)


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...] = ()  # world attributes, resolved when the test runs
    get: tuple[str, ...] | None = None
    post: tuple[str, ...] | None = None
    variant: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.name}[{self.variant}]" if self.variant else self.name


MATRIX: list[Case] = [
    # --- pages of no single feature ---
    Case("home", get=EVERYONE),
    Case("calculator", get=EVERYONE),
    Case("pulka_calculator", get=EVERYONE, post=EVERYONE),
    Case("health", get=EVERYONE),
    Case("favicon", get=(REDIR,) * 6),
    Case("login", get=EVERYONE, post=EVERYONE),
    Case("logout", get=NOBODY_405, post=(REDIR,) * 6),
    # --- organiser screens ---
    Case("tournaments:list", get=LOGGED_IN),
    Case("tournaments:create", get=PERMITTED, post=PERMITTED),
    # own rules ("Własne zasady"): an organiser's own, another organiser's are missing to them
    Case("rulesets:list", get=PERMITTED),
    Case("rulesets:create", get=PERMITTED, post=PERMITTED),
    Case(
        "rulesets:edit",
        ("own_ruleset",),
        get=(LOGIN, LOGIN, LOGIN, DENY, HIDDEN, OK),
        post=(LOGIN, LOGIN, LOGIN, DENY, HIDDEN, OK),
    ),
    Case(
        "rulesets:delete",
        ("own_ruleset",),
        get=(LOGIN, LOGIN, LOGIN, DENY, HIDDEN, OK),
        post=(LOGIN, LOGIN, LOGIN, DENY, HIDDEN, REDIR),
    ),
    Case("tournaments:detail", ("slug",), get=ORGANISER),
    Case("tournaments:detail", ("other_slug",), variant="other tournament", get=(LOGIN, LOGIN, LOGIN, DENY, OK, DENY)),
    Case("tournaments:detail", ("missing_slug",), variant="missing", get=(LOGIN, LOGIN, LOGIN, HIDDEN, HIDDEN, HIDDEN)),
    Case("tournaments:publish", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:registrations", ("slug",), get=ORGANISER),
    Case("tournaments:register", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:quick_add", ("slug",), get=ORGANISER, post=ORGANISER),
    Case("tournaments:check_in", ("slug", "registration"), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case(
        "tournaments:check_in",
        ("slug", "other_registration"),
        variant="registration of another tournament",
        get=ORGANISER_405,
        post=(LOGIN, LOGIN, LOGIN, DENY, DENY, HIDDEN),
    ),
    Case("tournaments:fee", ("slug", "registration"), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:withdraw", ("slug", "registration"), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case(
        "tournaments:withdraw",
        ("slug", "other_registration"),
        variant="registration of another tournament",
        post=(LOGIN, LOGIN, LOGIN, DENY, DENY, HIDDEN),
    ),
    # registration on the day (issue 12): a registration's team, removal, bulk ticks, a team built of individuals
    Case("tournaments:registration_team", ("slug", "registration"), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case(
        "tournaments:registration_team",
        ("slug", "other_registration"),
        variant="registration of another tournament",
        post=(LOGIN, LOGIN, LOGIN, DENY, DENY, HIDDEN),
    ),
    Case("tournaments:unregister", ("slug", "registration"), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case(
        "tournaments:unregister",
        ("slug", "other_registration"),
        variant="registration of another tournament",
        post=(LOGIN, LOGIN, LOGIN, DENY, DENY, HIDDEN),
    ),
    Case("tournaments:registrations_bulk", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:team_build", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    # registering the regulars (issue 25): add many with its preview, tick or untick everyone the filter shows
    Case("tournaments:add_many", ("slug",), get=ORGANISER, post=ORGANISER_REDIR),
    Case("tournaments:registrations_all", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:draw", ("slug",), get=ORGANISER, post=ORGANISER),
    Case("tournaments:swap", ("slug", 1), get=ORGANISER, post=(LOGIN, LOGIN, LOGIN, DENY, DENY, BAD)),
    Case("tournaments:swap", ("slug", 9), variant="missing series", get=(LOGIN, LOGIN, LOGIN, DENY, DENY, HIDDEN)),
    Case("tournaments:draw_log", ("slug",), get=ORGANISER),
    # drawing one series again says first what it makes wrong; a played series' redraw is refused
    Case("tournaments:redraw", ("slug", 1), get=ORGANISER, post=(LOGIN, LOGIN, LOGIN, DENY, DENY, BAD)),
    Case("tournaments:redraw_undo", ("slug", 1), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:draw_history", ("slug", 1), get=ORGANISER),
    Case("tournaments:draw_restore", ("slug", 1, 1), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:fixed_seats", ("slug",), get=ORGANISER, post=(LOGIN, LOGIN, LOGIN, DENY, DENY, BAD)),
    Case("tournaments:fixed_seat_remove", ("slug", 1), get=ORGANISER_405, post=ORGANISER_REDIR),
    # tournament settings, staff, draft and archive (the tournament is drawn and played: not deletable)
    Case("tournaments:update", ("slug",), get=ORGANISER, post=ORGANISER),
    Case("tournaments:delete", ("slug",), get=ORGANISER, post=ORGANISER_REDIR),
    Case("tournaments:publish_tournament", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:archive", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:staff", ("slug",), get=ORGANISER),
    Case("tournaments:staff_add", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("tournaments:staff_remove", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    # the exchange file: the tournament's own, its earlier versions, and an upload by anyone who may create one
    Case("exchange:download", ("slug",), get=ORGANISER, post=NOBODY_405),
    Case("exchange:download", ("other_slug",), variant="other tournament", get=(LOGIN, LOGIN, LOGIN, DENY, OK, DENY)),
    Case("exchange:version", ("slug", "version"), get=ORGANISER, post=NOBODY_405),
    Case(
        "exchange:version",
        ("other_slug", "version"),
        variant="another tournament's version",
        get=(LOGIN, LOGIN, LOGIN, DENY, HIDDEN, DENY),
    ),
    Case("exchange:upload", get=PERMITTED, post=PERMITTED),
    Case("exchange:preview", get=PERMITTED_REDIR, post=PERMITTED_REDIR),
    # the invited person's answer; nobody here holds invitation 1, so a post changes nothing and goes back
    Case(
        "tournaments:invitation_answer",
        (1,),
        get=(LOGIN, LOGIN, LOGIN, NOPE, NOPE, NOPE),
        post=(LOGIN, LOGIN, LOGIN, REDIR, REDIR, REDIR),
    ),
    # seasons: the organiser organises the tournament's season
    Case("seasons:list", get=LOGGED_IN),
    Case("seasons:create", get=PERMITTED, post=PERMITTED),
    Case("seasons:edit", ("season",), get=ORGANISER, post=ORGANISER),
    Case("seasons:attach", ("season",), get=ORGANISER_405, post=ORGANISER),
    Case(
        "seasons:detach",
        ("season", 999999),
        variant="missing tournament",
        get=ORGANISER_405,
        post=(LOGIN, LOGIN, LOGIN, DENY, DENY, HIDDEN),
    ),
    Case(
        "seasons:counts",
        ("season", 999999),
        variant="missing tournament",
        get=ORGANISER_405,
        post=(LOGIN, LOGIN, LOGIN, DENY, DENY, HIDDEN),
    ),
    # leagues (issue 25): the organiser organises the league of the tournament; the other organiser
    # organises another league, whose draft only they reach (not being among its own organisers)
    Case("leagues:list", get=LOGGED_IN),
    Case("leagues:create", get=PERMITTED, post=PERMITTED),
    Case("leagues:edit", ("league",), get=ORGANISER, post=ORGANISER),
    Case("leagues:organiser_add", ("league",), get=ORGANISER_405, post=ORGANISER),
    Case("leagues:organiser_remove", ("league",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case(
        "tournaments:detail",
        ("league_draft",),
        variant="draft of another league",
        get=(LOGIN, LOGIN, LOGIN, DENY, OK, DENY),
    ),
    Case(
        "tournaments:update",
        ("league_draft",),
        variant="draft of another league",
        get=(LOGIN, LOGIN, LOGIN, DENY, OK, DENY),
    ),
    Case(
        "public:tournament",
        ("league_draft",),
        variant="draft of another league",
        get=(HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK, HIDDEN),
    ),
    # --- the referee's results screens (series 1 in play, series 2 closed) ---
    Case("results:series", ("slug", 1), get=REFEREE),
    Case("results:series", ("slug", 2), variant="closed", get=REFEREE),
    Case("results:series", ("other_slug", 1), variant="other tournament", get=(LOGIN, LOGIN, LOGIN, DENY, OK, DENY)),
    Case("results:close", ("slug", 1), get=REFEREE, post=REFEREE_REDIR),
    Case("results:protocol", ("slug", 1, 1), get=REFEREE, post=REFEREE),
    Case("results:protocol", ("slug", 2, 1), variant="closed", get=REFEREE, post=REFEREE),
    Case("results:protocol", ("slug", 1, 9), variant="missing table", get=REFEREE_HIDDEN),
    Case("results:preview", ("slug", 1, 1), get=REFEREE_405, post=REFEREE),
    Case("results:totals", ("slug", 1, 1), get=REFEREE_405, post=REFEREE),
    Case("results:confirm", ("slug", 1, 1), get=REFEREE_405, post=REFEREE),
    Case("results:correct", ("slug", 1, 1, 1), get=REFEREE, post=REFEREE),
    Case("results:correct", ("slug", 1, 1, 9), variant="missing row", get=REFEREE_HIDDEN),
    Case("results:history", ("slug", 1, 1), get=REFEREE),
    Case("results:new_pins", ("slug", 1), get=REFEREE_405, post=REFEREE_REDIR),
    Case("results:new_pins", ("slug", 2), variant="closed", post=REFEREE_REDIR),
    Case("results:new_pin", ("slug", 1, 1), get=REFEREE_405, post=REFEREE_REDIR),
    Case("results:new_pin", ("slug", 1, 9), variant="missing table", post=REFEREE_HIDDEN),
    Case("results:unlock", ("slug", 1, 1), get=REFEREE_405, post=REFEREE_REDIR),
    # results: reopening a closed series, undoing "complete"
    Case("results:reopen", ("slug", 2), get=REFEREE_405, post=REFEREE_REDIR),
    Case("results:uncomplete", ("slug", 1, 1), get=REFEREE_405, post=REFEREE_REDIR),
    # results: referee penalties (series 2, closed, has one; an empty POST is refused and changes nothing)
    Case("results:penalty_add", ("slug", 1), get=REFEREE_405, post=REFEREE),
    # results: a Preferans table's pulka (the matrix's tournament plays Baśka: its tables have none)
    Case("results:pulka_deal", ("slug", 1, 1), get=REFEREE_405, post=REFEREE_HIDDEN),
    Case("results:pulka_penalty", ("slug", 1, 1), get=REFEREE_405, post=REFEREE_HIDDEN),
    Case("results:pulka_close", ("slug", 1, 1), get=REFEREE_405, post=REFEREE_HIDDEN),
    Case("results:table_penalty_add", ("slug", 1, 1), get=REFEREE_405, post=REFEREE),
    Case("results:penalty", ("slug", 2, "penalty"), get=REFEREE, post=REFEREE),
    Case("results:penalty", ("slug", 1, "penalty"), variant="another series", get=REFEREE_HIDDEN),
    Case("results:penalty_remove", ("slug", 2, "penalty"), get=REFEREE_405, post=REFEREE),
    # the control room of a series and its clock (issue 14); stopping the tables at the end of time: the organiser
    Case("hall:room", ("slug", 1), get=REFEREE),
    Case("hall:room", ("other_slug", 1), variant="other tournament", get=(LOGIN, LOGIN, LOGIN, DENY, OK, DENY)),
    Case("hall:tables", ("slug", 1), get=REFEREE),
    Case("hall:start", ("slug", 1), get=REFEREE_405, post=REFEREE_REDIR),
    Case("hall:pause", ("slug", 1), get=REFEREE_405, post=REFEREE),
    Case("hall:resume", ("slug", 1), get=REFEREE_405, post=REFEREE_REDIR),
    Case("hall:time_up", ("slug", 1), get=ORGANISER, post=ORGANISER_REDIR),
    # --- the table scorer's phone pages of table 1, series 1 ---
    Case("table:protocol", ("slug", 1, 1), get=TABLE_GET),
    Case("table:protocol", ("slug", 1, 2), variant="table 2", get=(PIN, OK, PIN, PIN, PIN, PIN)),
    Case("table:protocol", ("slug", 2, 1), variant="closed series, no grant", get=(PIN,) * 6, post=(DENY,) * 6),
    Case("table:protocol", ("slug", 1, 9), variant="missing table", get=HIDDEN_ALL, post=HIDDEN_ALL),
    Case("table:pin", ("slug", 1, 1), get=(PIN,) * 6, post=(PIN,) * 6),
    Case("table:preview", ("slug", 1, 1), get=TABLE_GET_405, post=TABLE_POST),
    Case("table:save", ("slug", 1, 1), get=TABLE_GET_405, post=TABLE_POST),
    Case("table:save", ("slug", 1, 2), variant="table 2", post=(DENY, OK, DENY, DENY, DENY, DENY)),
    Case("table:edit", ("slug", 1, 1, 1), get=TABLE_GET),
    Case("table:edit", ("slug", 1, 1, 9), variant="missing row", get=(PIN, PIN, HIDDEN, PIN, PIN, PIN)),
    Case("table:delete", ("slug", 1, 1, 2), get=TABLE_GET_405, post=TABLE_POST_REDIR),
    Case("table:finish", ("slug", 1, 1), get=TABLE_GET_405, post=TABLE_POST),
    Case("table:confirm", ("slug", 1, 1), get=TABLE_GET_405, post=TABLE_POST),
    # a Preferans table's pulka on the phone (the matrix's tournament plays Baśka: its tables have none)
    Case("table:pulka_deal", ("slug", 1, 1), get=TABLE_GET_405, post=(DENY, DENY, HIDDEN, DENY, DENY, DENY)),
    Case(
        "table:pulka_entry",
        ("slug", 1, 1, 1),
        get=(PIN, PIN, HIDDEN, PIN, PIN, PIN),
        post=(DENY, DENY, HIDDEN, DENY, DENY, DENY),
    ),
    Case("table:pulka_close", ("slug", 1, 1), get=TABLE_GET_405, post=(DENY, DENY, HIDDEN, DENY, DENY, DENY)),
    Case("table:sw", ("slug",), get=EVERYONE, post=NOBODY_405),  # the same static script for every phone
    # the phone's JSON (issue 15): 403 without the grant; the empty form body is no JSON deal (422);
    # a closed series answers 409 "closed" to everyone, grant or not
    Case("table:deals_json", ("slug", 1, 1), get=NOBODY_405, post=(DENY, DENY, "422", DENY, DENY, DENY)),
    Case("table:deals_json", ("slug", 2, 1), variant="closed series", post=("409",) * 6),
    Case("table:state_json", ("slug", 1, 1), get=(DENY, DENY, OK, DENY, DENY, DENY), post=NOBODY_405),
    Case("table:contact_json", ("slug", 1, 1), get=NOBODY_405, post=(DENY, DENY, "422", DENY, DENY, DENY)),
    Case("table:value_table_json", ("slug", 1, 1), get=(DENY, DENY, OK, DENY, DENY, DENY), post=NOBODY_405),
    # --- printing ---
    Case("printing:index", ("slug",), get=REFEREE),
    Case("printing:registrations", ("slug",), get=REFEREE),
    Case("printing:results", ("slug",), get=REFEREE),
    Case("printing:results_job", ("slug",), get=REFEREE_405, post=REFEREE_REDIR),
    Case("printing:blank_protocol", ("slug",), get=REFEREE),
    Case("printing:seating_slips", ("slug",), get=REFEREE),
    Case("printing:noticeboard", ("slug",), get=REFEREE),
    Case("printing:table_list", ("slug", 1), get=REFEREE),
    Case("printing:table_list", ("slug", 3), variant="not drawn", get=REFEREE_HIDDEN),
    Case("printing:protocol", ("slug", 1, 1), get=REFEREE),
    Case("printing:protocol", ("slug", 1, 9), variant="missing table", get=REFEREE_HIDDEN),
    Case("printing:archive", ("slug", 2, 1), get=REFEREE),
    Case("printing:protocols_job", ("slug", 1), get=REFEREE_405, post=REFEREE_REDIR),
    Case("printing:archive_job", ("slug", 2), get=REFEREE_405, post=REFEREE_REDIR),
    Case("printing:job", ("slug", "job"), get=REFEREE),
    Case("printing:job", ("slug", "other_job"), variant="job of another tournament", get=REFEREE_HIDDEN),
    Case(
        "printing:restart_job",
        ("slug", "other_job"),
        variant="job of another tournament",
        get=REFEREE_405,
        post=REFEREE_HIDDEN,
    ),
    Case("printing:restart_job", ("slug", "job"), get=REFEREE_405, post=REFEREE_REDIR),
    Case("printing:job_file", ("slug", "job"), get=REFEREE),
    Case("printing:job_file", ("slug", "other_job"), variant="job of another tournament", get=REFEREE_HIDDEN),
    # printing: the tables' links and PINs of a series
    Case("printing:pins", ("slug", 1), get=REFEREE),
    Case("printing:pins", ("slug", 2), variant="closed", get=REFEREE),
    Case("printing:pins", ("slug", 3), variant="not drawn", get=REFEREE_HIDDEN),
    Case("printing:pins_pdf", ("slug", 1), get=REFEREE),
    # --- players, teams, clubs ---
    Case("players:player_list", get=PERMITTED),
    Case("players:player_add", get=PERMITTED, post=PERMITTED),
    Case("players:player_edit", ("player",), get=ORGANISER, post=ORGANISER),
    # merging and deleting: whoever may change the player (the player is registered, so a deletion is refused)
    Case("players:player_merge", ("player",), get=ORGANISER, post=ORGANISER),
    Case("players:player_delete", ("player",), get=ORGANISER, post=ORGANISER),
    Case("players:search", get=PERMITTED, post=NOBODY_405),
    # players' data (RODO, issue 43): whoever may change the player anonymises and downloads their data
    Case("privacy:anonymise", ("player",), get=ORGANISER, post=ORGANISER),
    Case("privacy:data_json", ("player",), get=ORGANISER, post=NOBODY_405),
    Case("privacy:data_pdf", ("player",), get=ORGANISER, post=NOBODY_405),
    # the notices: public; a league's edited by its organisers, the installation's by a superuser only
    Case("privacy:notice", get=EVERYONE),
    Case("privacy:league_notice", ("league",), get=EVERYONE),
    Case(
        "privacy:notice_edit", get=(LOGIN, LOGIN, LOGIN, DENY, DENY, DENY), post=(LOGIN, LOGIN, LOGIN, DENY, DENY, DENY)
    ),
    Case("privacy:league_notice_edit", ("league",), get=ORGANISER, post=ORGANISER),
    Case("players:import_upload", get=PERMITTED, post=PERMITTED),
    Case("players:import_preview", get=PERMITTED_REDIR, post=PERMITTED_REDIR),
    Case("players:team_list", get=PERMITTED),
    Case("players:team_add", get=PERMITTED, post=PERMITTED),
    Case("players:team_edit", ("team",), get=ORGANISER, post=ORGANISER),
    Case("players:club_list", get=PERMITTED),
    Case("players:club_add", get=PERMITTED, post=PERMITTED),
    # --- the public site ---
    Case("public:season", ("season",), get=EVERYONE),
    Case("public:tournament", ("slug",), get=EVERYONE),
    Case("public:tournament", ("missing_slug",), variant="missing", get=HIDDEN_ALL),
    Case("public:standings", ("slug",), get=EVERYONE),
    Case("public:find_table", ("slug",), get=EVERYONE, post=NOBODY_405),
    Case("public:series", ("slug", 1), get=EVERYONE),
    Case("public:series", ("slug", 3), variant="not drawn", get=HIDDEN_ALL),
    Case("public:series", ("other_slug", 1), variant="draw not published", get=HIDDEN_ALL),
    Case("public:table", ("slug", 2, 1), get=EVERYONE),
    Case("public:table", ("slug", 1, 1), variant="series in play", get=HIDDEN_ALL),
    Case("public:table", ("other_slug", 1, 1), variant="draw not published", get=HIDDEN_ALL),
    Case("public:projector", ("slug",), get=EVERYONE),
    Case("public:projector_pages", ("slug",), get=EVERYONE),
    Case("public:player", ("player",), get=EVERYONE),
    Case("public:team", ("team",), get=EVERYONE),
    Case("public:api_standings", ("slug",), get=EVERYONE, post=NOBODY_405),
    Case("public:records", get=EVERYONE),
    Case("rating:list", get=EVERYONE),
    Case("rating:game", ("game",), get=EVERYONE),
    Case("rating:game", ("missing_game",), variant="a game not installed", get=HIDDEN_ALL),
    Case("public:records_league", ("league",), get=EVERYONE),
    Case("leagues:page", ("league",), get=EVERYONE),
    Case("leagues:logo", ("league",), get=EVERYONE),
    Case("leagues:logo", ("other_league",), variant="no logo", get=HIDDEN_ALL),
    Case("leagues:calendar", ("league",), get=EVERYONE),
    Case("leagues:calendar_ics", ("league",), get=EVERYONE, post=NOBODY_405),
    Case("leagues:calendar_all_ics", get=EVERYONE),
    # online sign-ups (issue 25): the public form and private link, the organiser's list and settings
    Case("signups:signup", ("slug",), get=EVERYONE, post=EVERYONE),
    Case("signups:signup", ("missing_slug",), variant="missing", get=HIDDEN_ALL, post=HIDDEN_ALL),
    Case("signups:detail", ("slug", "forged_link"), variant="forged link", get=HIDDEN_ALL, post=HIDDEN_ALL),
    Case("signups:list", ("slug",), get=ORGANISER),
    Case("signups:window", ("slug",), get=ORGANISER, post=ORGANISER),
    Case("signups:confirm", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
    Case("signups:cancel", ("slug",), get=ORGANISER_405, post=ORGANISER_REDIR),
]

# Not the app's own screens: Django's admin (its own permission system) and the language switch.
ALLOWLIST_PREFIXES = ("admin:",)
ALLOWLIST = {"set_language"}


def named_patterns(resolver: URLResolver | None = None, namespace: tuple[str, ...] = ()) -> set[str]:
    names = set()
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            names |= named_patterns(pattern, namespace + ((pattern.namespace,) if pattern.namespace else ()))
        elif isinstance(pattern, URLPattern):
            names.add(":".join((*namespace, pattern.name or f"<unnamed {pattern.pattern}>")))
    return names


def test_every_url_pattern_has_an_entry():
    names = {n for n in named_patterns() if n not in ALLOWLIST and not n.startswith(ALLOWLIST_PREFIXES)}
    assert not [n for n in names if "<unnamed" in n], "an unnamed URL cannot be given an entry"
    covered = {case.name for case in MATRIX}
    assert names - covered == set(), "URLs without an entry in the permission matrix"
    assert covered - names == set(), "entries for URLs that no longer exist"


def test_every_entry_has_an_answer_for_every_role():
    for case in MATRIX:
        assert case.get or case.post, case.id
        for answers in (case.get, case.post):
            assert answers is None or len(answers) == len(ROLES), case.id


# --- the world ----------------------------------------------------------------


@dataclass
class World:
    slug: str
    other_slug: str
    missing_slug: str
    season: str
    registration: int
    other_registration: int
    player: int
    team: int
    job: int
    other_job: int
    own_ruleset: int
    pins: dict[int, str]
    users: dict[str, Any]
    league: str = ""
    other_league: str = ""
    league_draft: str = ""
    penalty: int = 0
    forged_link: str = "1:forged-signature"
    version: int = 0
    game: str = "preferans"  # a rating list of a game other than the first
    missing_game: str = "szachy"


DEAL = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}
# a 1×1 transparent PNG: the league's logo
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


def _organiser_user(username: str):
    user = UserFactory(username=username)
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_player", "change_player", "add_tournament"])
    )
    return user


def _build_world() -> World:
    organiser, other_organiser = _organiser_user("matrix-org"), _organiser_user("matrix-other-org")
    referee = UserFactory(username="matrix-referee")

    tournament = TournamentFactory(
        slug="matrix-t", series_count=3, deals_per_series=4, draw_published=True, season=SeasonFactory()
    )
    tournament.organisers.add(organiser)
    tournament.season.organisers.add(organiser)
    tournament.referees.add(referee)
    registrations = register_teams(tournament, teams=2, size=4)
    players = [r.player for r in registrations]

    series1 = Series.objects.create(tournament=tournament, number=1, status=Series.Status.DRAWN)
    for i, player in enumerate(players):
        TableAssignmentFactory(series=series1, table=i // 4 + 1, seat="ABCD"[i % 4], player=player)
    for protocol in table_protocols(series1):
        for number in (1, 2):
            protocol = services.protocol_row_save(
                protocol=protocol, number=number, deal=DEAL, expected_version=protocol.version, user=referee
            )
    series1.refresh_from_db()
    assert series1.status == Series.Status.IN_PLAY

    tables = [[(p, v) for p, v in zip(players[t * 4 : t * 4 + 4], (30, 10, -10, -30), strict=True)] for t in (0, 1)]
    series2 = played_series(tournament, 2, tables)
    penalty = Penalty.objects.create(series=series2, player=players[0], small_points=-10, reason="wpis")
    Series.objects.create(tournament=tournament, number=3)

    job = PrintJob.objects.create(series=series2, kind=PrintJob.Kind.ARCHIVE, status=PrintJob.Status.DONE)
    job.file.save("matrix.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"))

    other = TournamentFactory(slug="matrix-other", series_count=2)
    other.organisers.add(other_organiser)
    other_registrations = RegistrationFactory.create_batch(4, tournament=other)
    other_series = Series.objects.create(tournament=other, number=1, status=Series.Status.DRAWN)
    for seat, registration in zip("ABCD", other_registrations, strict=True):
        TableAssignmentFactory(series=other_series, table=1, seat=seat, player=registration.player)
    table_protocols(other_series)
    other_job = PrintJob.objects.create(series=other_series, kind=PrintJob.Kind.PROTOCOLS)

    league = LeagueFactory(logo=ContentFile(small_png(io.BytesIO(PNG)), name="liga.png"))
    league.organisers.add(organiser)
    tournament.league = league
    tournament.save(update_fields=["league"])
    other_league = LeagueFactory()
    other_league.organisers.add(other_organiser)
    league_draft = TournamentFactory(slug="matrix-league-draft", published=False, league=other_league)

    PlayerFactory(club=ClubFactory())
    TeamFactory(members=4)
    return World(
        league=league.slug,
        other_league=other_league.slug,
        league_draft=league_draft.slug,
        slug=tournament.slug,
        other_slug=other.slug,
        missing_slug="no-such-tournament",
        season=tournament.season.slug,
        registration=registrations[0].pk,
        other_registration=other_registrations[0].pk,
        player=players[0].pk,
        team=registrations[0].team_id,
        job=job.pk,
        other_job=other_job.pk,
        own_ruleset=OwnRulesetFactory(owner=organiser).pk,
        pins={p.table: p.pin for p in series1.protocols.all()},
        users={"organiser": organiser, "other_organiser": other_organiser, "referee": referee},
        penalty=penalty.pk,
        version=TournamentFileVersion.objects.create(tournament=tournament, file={"format": "baska-league/1"}).pk,
    )


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """Built once for the module inside a transaction that is rolled back at its end;
    each test runs in a savepoint of it (pytest-django's ``db``), so writes do not leak."""
    with (
        override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media")),
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        yield _build_world()
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def handler():
    """One request handler for the module: loading the middleware (WhiteNoise scans every
    static file) costs more than most requests, so the clients share it."""
    return Client().handler


@pytest.fixture(scope="module")
def sessions(world: World, handler) -> dict[str, str]:
    """Each role's session cookie, made once: the users logged in, the scorers let in by their PIN."""
    cookies = {}
    for role in ROLES[1:]:
        client = Client()
        client.handler = handler
        if role in world.users:
            client.force_login(world.users[role])
        else:
            table = 1 if role == "scorer" else 2
            url = reverse("table:pin", args=[world.slug, 1, table])
            response = client.post(url, {"pin": world.pins[table], "seat": "A"})
            assert response.status_code == 302, "the PIN did not let the scorer in"
        cookies[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return cookies


def client_for(role: str, handler, sessions: dict[str, str]) -> Client:
    client = Client(raise_request_exception=False)
    client.handler = handler
    if role in sessions:
        client.cookies[settings.SESSION_COOKIE_NAME] = sessions[role]
    return client


def snapshot() -> dict[str, list[tuple]]:
    """Every row of the app's own tables (many-to-many ones too), read with plain SQL to stay quick."""
    state = {}
    with connection.cursor() as cursor:
        for label in ("league", "results", "players", "printing", "signups"):
            for model in apps.get_app_config(label).get_models(include_auto_created=True):
                table = connection.ops.quote_name(model._meta.db_table)
                cursor.execute(f"SELECT * FROM {table} ORDER BY 1")
                state[model._meta.db_table] = cursor.fetchall()
    return state


def answer(response) -> str:
    status = response.status_code
    if status == 302:
        return LOGIN if response.url.startswith(reverse("login")) else REDIR
    if status == 200:
        names = {t.name for t in response.templates if t.name}
        return PIN if "results/table/pin.html" in names else OK
    return {400: BAD, 403: DENY, 404: HIDDEN, 405: NOPE}.get(status, str(status))


def _params():
    for case in MATRIX:
        for method, answers in (("GET", case.get), ("POST", case.post)):
            if answers is None:
                continue
            for role, expected in zip(ROLES, answers, strict=True):
                yield pytest.param(case, method, role, expected, id=f"{case.id}-{method}-{role}")


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize(("case", "method", "role", "expected"), list(_params()))
def test_permission(world: World, handler, sessions, db, case: Case, method: str, role: str, expected: str):
    args = [getattr(world, a) if isinstance(a, str) else a for a in case.args]
    url = reverse(case.name, args=args)
    assert resolve(url).view_name == case.name, f"{url} is answered by another view"
    client = client_for(role, handler, sessions)
    before = snapshot() if expected not in WRITES_ALLOWED else None
    response = client.get(url) if method == "GET" else client.post(url, case.data)
    assert response.status_code < 500
    assert answer(response) == expected, f"{method} {url} as {role}: {response.status_code}"
    if before is not None:
        assert snapshot() == before, f"{method} {url} as {role} was refused but changed the database"

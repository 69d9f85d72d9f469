"""Find my table (znajdź swój stolik): a player types their name and reads where they sit.

A **miejsce** (seat) is one of A–D (A–C at a Preferans table of three) at a numbered
**stolik** (table); a **pauza** (wolny los, bye) is a series the player sits out. The page
lists, for every series whose draw the public may see (``draw_visible``), each matching
player's table, seat and opponents (three, or two at a table of three), and links to the
table's public page once that page is open (``results_visible``, as ``table_page``
decides). It works without JavaScript: a GET form whose answer depends only on what it is asked.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django import forms
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext_lazy as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from league.models import Bye, Registration, Series, TableAssignment, Tournament
from league.public import page_store
from league.public.views import (
    TournamentState,
    current_series,
    draw_visible,
    results_visible,
    tournament_answer,
    tournament_series,
    visible_tournament,
)
from players.models import search_key
from players.names import player_key

# A name is at most 80 + 80 characters (players.models.Player); a longer question finds nobody.
QUERY_MAX_LENGTH = 100
# A first name shared by many ("Jan") lists this many players; more asks for the surname.
MAX_MATCHES = 20


class FindTableForm(forms.Form):
    q = forms.CharField(label=_("Your name"), max_length=QUERY_MAX_LENGTH, required=False, strip=True)


@dataclass
class Opponent:
    seat: str
    name: str
    player_id: int


@dataclass
class SeriesSeat:
    """Where a player is in one series: a table and seat with the opponents there, or a bye."""

    series: Series
    current: bool
    table: int | None = None  # None: a bye, or no seat in this series
    seat: str = ""
    bye: bool = False
    opponents: list[Opponent] = field(default_factory=list)
    table_url: str = ""  # the table's public page, once the public may open it


@dataclass
class FoundPlayer:
    registration: Registration
    series: list[SeriesSeat]


def matching_registrations(tournament: Tournament, query: str) -> list[Registration]:
    """The tournament's players whose name holds every word of ``query``, accents and case aside
    ("lukasz" finds Łukasz, "kakol" Kąkol), in Polish name order; at most ``MAX_MATCHES`` + 1,
    so the page can tell there are more."""
    words = search_key(query).split()
    if not words:
        return []
    condition = Q()
    for word in words:
        condition &= Q(player__search_name__contains=word)
    # a player who appears by initials only is found by their full name typed in full, never by a part
    condition &= Q(player__public_initials=False) | Q(player__search_name=" ".join(words))
    found = tournament.registrations.filter(condition).select_related("player", "player__club", "team")[
        : MAX_MATCHES + 1
    ]
    return sorted(found, key=lambda registration: player_key(registration.player))


def player_seats(
    *, tournament: Tournament, series_list: list[Series], registrations: list[Registration]
) -> list[FoundPlayer]:
    """Each player's seat in every series whose draw the public may see, the series being played
    first (the one a player at the door looks for), then the others in order: two queries however
    many tables, series or players."""
    if not registrations:
        return []
    current = current_series(series_list)
    shown = sorted((series for series in series_list if draw_visible(series)), key=lambda series: series != current)
    players = [registration.player_id for registration in registrations]

    # every seat at a table where one of the players sits: theirs and their opponents'
    with_a_player = TableAssignment.objects.filter(
        series=OuterRef("series"), table=OuterRef("table"), player__in=players
    )
    tables: dict[tuple[int, int], list[TableAssignment]] = defaultdict(list)
    for assignment in (
        TableAssignment.objects.filter(Exists(with_a_player), series__in=shown)
        .select_related("player", "player__club")
        .order_by("seat")
    ):
        tables[assignment.series_id, assignment.table].append(assignment)
    seats = {
        (assignment.series_id, assignment.player_id): (table, assignment.seat)
        for (_series, table), assignments in tables.items()
        for assignment in assignments
    }
    byes = set(Bye.objects.filter(series__in=shown, player__in=players).values_list("series_id", "player_id"))

    def where(series: Series, player_id: int) -> SeriesSeat:
        here = SeriesSeat(series=series, current=series == current, bye=(series.pk, player_id) in byes)
        if (series.pk, player_id) not in seats:
            return here
        here.table, here.seat = seats[series.pk, player_id]
        here.opponents = [
            Opponent(a.seat, a.player.public_name, a.player_id)
            for a in tables[series.pk, here.table]
            if a.player_id != player_id
        ]
        if results_visible(series):
            here.table_url = reverse("public:table", args=[tournament.slug, series.number, here.table])
        return here

    return [
        FoundPlayer(registration, [where(series, registration.player_id) for series in shown])
        for registration in registrations
    ]


@gzip_page
@require_GET
def find_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The "Znajdź swój stolik" page: a name in, the player's tables and seats out.

    Players ask it for their own name all evening, the same names again after every draw, so a
    question that finds somebody is kept ready per tournament state and question (with its
    spaces tidied, ``tidy_query``) in a store of its own (``page_store.found``), as the other
    tournament pages are. A question that finds nobody is answered afresh and never kept, so
    made-up names fill nothing; so is every question of a logged-in visitor (staff see drafts).
    """
    form = FindTableForm(request.GET)
    if not form.is_valid():
        return fresh_answer(request, slug, form)
    query = tidy_query(form.cleaned_data["q"])
    params = {"q": query} if query else {}
    return tournament_answer(
        request,
        slug,
        page_build=lambda visitor, state: found_page(visitor, state, FindTableForm(params), query),
        variant=("find", query),
        params=params,
        store=page_store.found,
        fresh=lambda: fresh_answer(request, slug, form),
    )


def tidy_query(query: str) -> str:
    """``query`` with its words separated by single spaces: what a kept answer is kept under."""
    return " ".join(query.split())


def fresh_answer(request: HttpRequest, slug: str, form: FindTableForm) -> HttpResponse:
    """The page built for this visitor alone and never cached: the answer changes with every
    published draw, and a question that is not kept is the visitor's own."""
    tournament = visible_tournament(request, slug)
    query = tidy_query(form.cleaned_data["q"]) if form.is_valid() else ""
    response = found_page(request, (tournament, tournament_series(tournament), ""), form, query)
    add_never_cache_headers(response)
    return response


def found_page(request: HttpRequest, state: TournamentState, form: FindTableForm, query: str) -> HttpResponse:
    """The page for ``query``; worth keeping (``keep``) without a question, or when it found somebody."""
    tournament, series_list, _stamp = state
    drawn = any(draw_visible(series) for series in series_list)
    # before the draw is published nobody has a seat to find: nothing is looked up
    registrations = matching_registrations(tournament, query) if drawn else []
    context = {
        "tournament": tournament,
        "form": form,
        "query": query,
        "draw_visible": drawn,
        "found": player_seats(
            tournament=tournament, series_list=series_list, registrations=registrations[:MAX_MATCHES]
        ),
        "more": len(registrations) > MAX_MATCHES,
    }
    response = render(request, "public/find_table.html", context)
    response.keep = not query or bool(registrations)
    return response

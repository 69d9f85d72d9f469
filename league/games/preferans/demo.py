"""Preferans's part of the demo league (``league.demo``): an evening of pulkas, plausible deals
entered through the results services until each pulka is played out."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING

from league.games.choices import Game
from league.games.preferans import services as pulka_services
from league.games.preferans.pulka import protocol_pulka
from league.games.preferans.settings import PulkaVariant
from league.models import DEALS_PER_SERIES, Tournament
from league.results import services as results
from league.results.selectors import protocol_sheet, sheet_totals
from league.tournaments.services import tournament_create
from scoring import preferans

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from league.models import League, Series
    from league.results.models import Protocol
    from players.models import Player

# How often a pulka deal is a contract of each level (misère apart), roughly.
PULKA_LEVEL_WEIGHTS = {6: 40, 7: 30, 8: 17, 9: 9, 10: 4}
PULKA_SUITS = ("S", "C", "D", "H", "NT")


def random_pulka_deal(rng: random.Random, *, dealer: str, seats: tuple[str, ...]) -> dict:
    """A plausible pulka deal at a table of four whose ``dealer`` sits out: a contract, its
    whisters and tricks, now and then a remiz (the declarer's contract failed)."""
    declarer, *defenders = rng.sample([seat for seat in seats if seat != dealer], 3)
    if rng.random() < 0.05:
        return {"contract": preferans.MISERE, "declarer": declarer, "tricks": rng.choices([0, 1, 2], [8, 2, 1])[0]}
    level = rng.choices(list(PULKA_LEVEL_WEIGHTS), weights=list(PULKA_LEVEL_WEIGHTS.values()))[0]
    deal: dict = {"contract": f"{level}{rng.choice(PULKA_SUITS)}", "declarer": declarer}
    whisting = rng.choices([0, 1, 2], weights=[15, 45, 40])[0]
    if not whisting:
        return deal  # nobody whisted: the contract counts as made
    tricks = min(10, max(0, level + rng.choices([0, 1, -1, -2], weights=[70, 10, 15, 5])[0]))
    rest = 10 - tricks
    first = rng.randint(0, rest)
    shares = [first, rest - first] if whisting == 2 else [first]
    deal["tricks"] = tricks
    deal["whisters"] = [{"player": p, "tricks": t} for p, t in zip(defenders, shares, strict=False)]
    return deal


def play_pulka(
    rng: random.Random,
    protocol: Protocol,
    *,
    referee: User,
    close_after: int | None = None,
    penalty: dict | None = None,
) -> Protocol:
    """Fill ``protocol``'s pulka with plausible deals until it is played out (or, with
    ``close_after``, closed by agreement after that many deals), a referee's ``penalty`` written
    after the last deal; then record its totals, complete and confirm it."""
    seats = protocol.series.tournament.seats
    entries: list[dict] = []
    while not protocol_pulka(protocol=protocol).sheet.over and len(entries) != close_after:
        deal = random_pulka_deal(rng, dealer=seats[len(entries) % len(seats)], seats=seats)
        entries.append(deal)
        protocol = results.protocol_row_save(
            protocol=protocol, number=len(entries), deal=deal, expected_version=protocol.version, user=referee
        )
    if close_after is not None:
        protocol = pulka_services.protocol_pulka_close(
            protocol=protocol,
            closed=True,
            expected_version=protocol.version,
            user=referee,
            reason="koniec czasu serii, za zgodą graczy",
        )
    if penalty is not None:
        protocol = results.protocol_row_save(
            protocol=protocol,
            number=protocol.rows.count() + 1,
            deal=penalty,
            expected_version=protocol.version,
            user=referee,
        )
    totals = sheet_totals(protocol_sheet(protocol=protocol))
    protocol = results.protocol_totals_set(
        protocol=protocol, totals=totals, expected_version=protocol.version, user=referee
    )
    protocol = results.protocol_complete(protocol=protocol, expected_version=protocol.version, user=referee)
    return results.protocol_confirm(protocol=protocol, seat="B", expected_version=protocol.version, user=referee)


def demo_evening(
    *,
    organiser: User,
    referee: User,
    players: list[Player],
    league: League,
    drawn: Callable[..., list[Series]],
    seed: int,
) -> Tournament:
    """Twelve players, three series at three tables of four, Sochi pulkas to 20, all played out
    (one closed by agreement, one with a referee's penalty), the series closed and published.
    ``drawn`` registers, draws and publishes as the demo's other tournaments; ``seed`` its random numbers."""
    rng = random.Random(seed)
    evening = tournament_create(
        user=organiser,
        name="Wieczór Preferansa w Wejherowie",
        game=Game.PREFERANS,
        pulka_variant=PulkaVariant.SOCHI,
        pulka_total=20,
        table_size=4,
        # what its exchange file says for the Baśka rules every file names, as it always has
        file_ruleset="psb",
        file_deals_per_series=DEALS_PER_SERIES.low,
        date=date(2026, 4, 18),
        venue="Wejherowo, Gryf",
        organiser_name="Gryf Wejherowo",
        league=league,
        series_count=3,
        published=True,
        team_ranking=Tournament._meta.get_field("team_ranking").default,
    )
    for series in drawn(evening, organiser, referee, individuals=players):
        for protocol in series.protocols.select_related("series__tournament").order_by("table"):
            first_table = protocol.table == 1
            play_pulka(
                rng,
                protocol,
                referee=referee,
                close_after=14 if series.number == 2 and first_table else None,
                penalty=PULKA_PENALTY if series.number == 3 and first_table else None,
            )
        results.series_close(series=series)
    return evening


PULKA_PENALTY = {"penalty": "pulka", "player": "C", "size": 2, "reason": "dopisał sobie 2 do pulki"}
"""The evening's one referee's penalty: a pulka over-written by 2, onto the writer's mountain."""

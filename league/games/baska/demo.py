"""Baśka's part of the demo league (``league.demo``): plausible deals, as a referee types them,
entered into a protocol through the results services."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import scoring
from league.games.baska.settings import tournament_ruleset
from league.results import services as results
from league.results.selectors import protocol_sheet, sheet_totals

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from league.results.models import Protocol

# How often each contract comes up at a real table, roughly.
CONTRACT_WEIGHTS = {
    "zwykla": 62,
    "wesele": 8,
    "cicha": 5,
    "zolo": 10,
    "gran": 6,
    "zolo_du": 2,
    "gran_du": 2,
    "zolo_bieda": 2,
    "mester": 2,
    "baska": 1,
}


def random_deal(rng: random.Random, ruleset: scoring.Ruleset) -> dict:
    """A plausible deal that ``ruleset`` accepts, as a referee would type it."""
    while True:
        contract = rng.choices(list(CONTRACT_WEIGHTS), weights=list(CONTRACT_WEIGHTS.values()))[0]
        rule = ruleset.contract(contract)
        if rule is None:
            continue
        pair = contract in scoring.PAIR_CONTRACTS
        deal: dict = {"contract": contract, "old": sorted(rng.sample(scoring.SEATS, 2 if pair else 1))}
        if rule.thrown:
            return deal
        doublings = rng.choices(range(rule.max_doublings + 1), weights=[24, 6, 2, 1, 1][: rule.max_doublings + 1])[0]
        # kontras alternate; in a solo game the young give the first one
        deal["kontras"] = [("young", "old")[i % 2] for i in range(doublings)]
        deal["old_eyes"] = rng.choice(
            [rng.randint(0, 104), rng.randint(40, 75), rng.randint(40, 75), 104 if rule.needs_all_tricks else 60]
        )
        try:
            scoring.score_deal(deal, ruleset)
        except scoring.ScoringError:
            continue
        return deal


def play_protocol(
    rng: random.Random, protocol: Protocol, *, deals: int, referee: User | None, finish: bool
) -> Protocol:
    """Enter ``deals`` plausible deals into ``protocol`` as ``referee``, through the results services;
    with ``finish`` also enter the paper's totals, mark it complete and confirm it."""
    ruleset = tournament_ruleset(protocol.series.tournament)
    for number in range(1, deals + 1):
        protocol = results.protocol_row_save(
            protocol=protocol,
            number=number,
            deal=random_deal(rng, ruleset),
            expected_version=protocol.version,
            user=referee,
        )
    if finish:
        totals = sheet_totals(protocol_sheet(protocol=protocol))
        protocol = results.protocol_totals_set(
            protocol=protocol, totals=totals, expected_version=protocol.version, user=referee
        )
        protocol = results.protocol_complete(protocol=protocol, expected_version=protocol.version, user=referee)
        protocol = results.protocol_confirm(
            protocol=protocol, seat="B", expected_version=protocol.version, user=referee
        )
    return protocol

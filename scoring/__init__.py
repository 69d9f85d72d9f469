"""The scoring engine of Baśka League: pure Python, no Django.

Baśka (baszka) is the Kashubian four-player card game; this package values its
deals, keeps table protocols, turns table results into placement points and
ranks players and teams, all under a ruleset given as data.
"""

from .constants import CONTRACTS, LEVELS, OFFENCES, PAIR_CONTRACTS, SEATS, SIDES
from .deal import (
    Deal,
    DealResult,
    counted_doublings,
    eyes_possible,
    parse_deal,
    possible_values,
    score_deal,
    value_deal,
)
from .errors import MESSAGES, ScoringError
from .placement import ByeCompensation, bye_compensation, place_shares, placement_points
from .protocol import ProtocolResult, ProtocolRow, score_protocol
from .ranking import (
    Penalty,
    Ranked,
    SeriesResult,
    Standing,
    TableResult,
    accumulate,
    award_points,
    rank,
    season_place_points,
    season_running_totals,
    season_totals,
    team_small_points,
    team_standing,
    team_standings,
)
from .ruleset import (
    PRESETS,
    BokRounds,
    Byes,
    ContractRule,
    Placement,
    Ruleset,
    TeamBigPoints,
    Wyjscie,
    deals_per_series_check,
    load_ruleset,
    parse_place_points,
    parse_ruleset,
    preset_choices,
    ruleset_to_dict,
)
from .value_table import value_table

__all__ = [
    "value_table",
    "CONTRACTS",
    "LEVELS",
    "OFFENCES",
    "PAIR_CONTRACTS",
    "PRESETS",
    "SEATS",
    "SIDES",
    "MESSAGES",
    "BokRounds",
    "ByeCompensation",
    "Byes",
    "ContractRule",
    "Deal",
    "DealResult",
    "Penalty",
    "Placement",
    "ProtocolResult",
    "ProtocolRow",
    "Ranked",
    "Ruleset",
    "ScoringError",
    "SeriesResult",
    "Standing",
    "TableResult",
    "Wyjscie",
    "accumulate",
    "award_points",
    "counted_doublings",
    "eyes_possible",
    "bye_compensation",
    "deals_per_series_check",
    "load_ruleset",
    "parse_deal",
    "parse_place_points",
    "parse_ruleset",
    "place_shares",
    "placement_points",
    "possible_values",
    "preset_choices",
    "rank",
    "ruleset_to_dict",
    "score_deal",
    "score_protocol",
    "season_place_points",
    "season_running_totals",
    "season_totals",
    "team_small_points",
    "team_standing",
    "team_standings",
    "TeamBigPoints",
    "value_deal",
]

"""Rulesets as data: presets, validation, round-trips (docs/rules.md)."""

import json

import pytest

from scoring import PRESETS, ScoringError, load_ruleset, parse_ruleset, preset_choices, ruleset_to_dict


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_round_trips_through_a_dict(preset):
    ruleset = load_ruleset(preset)
    assert parse_ruleset(ruleset_to_dict(ruleset)) == ruleset
    assert ruleset.id == preset and ruleset.notes


def test_preset_choices_name_every_preset():
    assert [choice[0] for choice in preset_choices()] == list(PRESETS)


def test_ruleset_loads_from_a_file(tmp_path):
    data = ruleset_to_dict(load_ruleset("puck")) | {"id": "club", "young_win_factor": 3}
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    assert load_ruleset(str(path)).young_win_factor == 3


def test_unknown_ruleset():
    with pytest.raises(ScoringError) as error:
        load_ruleset("kartuzy")
    assert error.value.code == "unknown_ruleset"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.pop("tie"), "tie"),
        (lambda d: d.update(tie="coin"), "tie"),
        (lambda d: d.update(colour="red"), "colour"),
        (lambda d: d["contracts"]["zolo"].update(base=0), "contracts.zolo.base"),
        (lambda d: d["contracts"]["zwykla"].update(thrown=True), "contracts.zwykla"),
        (lambda d: d["wyjscie"].update(old="27"), "wyjscie.old"),
        (lambda d: d.update(eyes_to_win=52), "eyes_to_win"),
        (lambda d: d.update(tiebreaks=["height"]), "tiebreaks[0]"),
        (lambda d: d["first_kontra"].update(solo=[]), "first_kontra.solo"),
        # absurd numbers no rulebook has, whose deals would leave a database integer or a printed cell
        (lambda d: d["contracts"]["zolo"].update(base=10**12), "contracts.zolo.base"),
        (lambda d: d["contracts"]["zolo"].update(max_doublings=96), "contracts.zolo.max_doublings"),
        (lambda d: d["bok_rounds"].update(length=10**9), "bok_rounds.length"),
        (lambda d: d["placement"].update(positive_bonus=float("inf")), "placement.positive_bonus"),
        (lambda d: d["placement"].update(points=[5, 3, 2, 1, 0]), "placement.points"),
        (lambda d: d.update(tiebreaks=["small_points"] * 96), "tiebreaks"),
        (lambda d: d.update(notes=["x" * 1_000_000]), "notes[0]"),
    ],
)
def test_invalid_ruleset_names_the_place(change, path):
    data = ruleset_to_dict(load_ruleset("gorzow"))
    change(data)
    with pytest.raises(ScoringError) as error:
        parse_ruleset(data)
    assert (error.value.code, error.value.path) == ("invalid_ruleset", path)


def test_presets_carry_no_contracts_their_sources_lack():
    assert load_ruleset("psb").contract("mester") is None
    assert load_ruleset("pomorska").contract("zolo_bieda") is None

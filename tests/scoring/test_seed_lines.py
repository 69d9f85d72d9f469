"""The Baśka rulebooks' lines quoted by issue 38, one test each: what the presets follow."""

from dataclasses import replace

import pytest

from scoring import ScoringError, SeriesResult, TableResult, accumulate, load_ruleset, rank, score_deal

POMORSKA, GORZOW, PSB = load_ruleset("pomorska"), load_ruleset("gorzow"), load_ruleset("psb")


def test_pomorska_12k_a_baska_takes_a_kontra_but_no_rekontra():
    """004 §12k "Na wykładane gry: zolo, gran, zolo – du, gran – du, przyjmuje się tylko kontrę –
    nie można rekontrować", and §12h: baśka is "honorowe zolo – du"."""
    kontra = score_deal({"contract": "baska", "old": ["A"], "kontras": ["young"]}, POMORSKA)
    assert kontra.values["A"] == 2 * score_deal({"contract": "baska", "old": ["A"]}, POMORSKA).values["A"]
    with pytest.raises(ScoringError) as refused:
        score_deal({"contract": "baska", "old": ["A"], "kontras": ["young", "old"]}, POMORSKA)
    assert refused.value.code == "too_many_doublings"


@pytest.mark.parametrize("preset", ["gorzow", "puck"])
def test_gorzow_and_puck_mark_a_kontra_on_baska_x_in_their_tables(preset):
    with pytest.raises(ScoringError):
        score_deal({"contract": "baska", "old": ["A"], "kontras": ["young"]}, load_ruleset(preset))


def table(players, points):
    return TableResult(dict(zip("ABCD", players, strict=True)), dict(zip("ABCD", points, strict=True)))


def test_gorzow_ix_shared_places_count_by_the_points_they_gave():
    """001 IX: "większa liczba pierwszych, drugich i trzecich miejsc czyli 5 pkt., 3 pkt., 2 pkt.
    … (jeśli punkty będą dzielone to ich wartości będą się liczyły tak samo np. 4,0, 2,5 …)".
    Ala shares 1st–2nd twice (4,0 + 4,0), Bożena is 1st then 2nd (5 + 3): equal big and small
    points, and by the points earned Bożena's 5 is the better result."""
    series = [
        SeriesResult(
            [
                table(["ala", "x1", "y1", "z1"], [20, 20, -10, -30]),
                table(["bozena", "t1", "u1", "v1"], [30, 10, -10, -30]),
            ]
        ),
        SeriesResult(
            [
                table(["ala", "x2", "y2", "z2"], [20, 20, -10, -30]),
                table(["bozena", "t2", "u2", "v2"], [10, 30, -10, -30]),
            ]
        ),
    ]
    assert GORZOW.shared_places == "points"
    totals = accumulate(series, GORZOW)
    ala, bozena = totals["ala"], totals["bozena"]
    assert (ala.big_points, ala.small_points) == (bozena.big_points, bozena.small_points) == (8.0, 40)
    ranked = rank([ala, bozena], GORZOW.tiebreaks)
    assert [r.standing.id for r in ranked] == ["bozena", "ala"] and ranked[0].place == 1 and ranked[1].place == 2
    # the fractional reading, a setting: half a first twice is a whole first, and they share the place
    fractional = accumulate(series, replace(GORZOW, shared_places="fractional"))
    assert [r.place for r in rank([fractional["ala"], fractional["bozena"]], GORZOW.tiebreaks)] == [1, 1]


def test_psb_states_no_cap_on_the_bok_rounds_of_a_series():
    """000 §7.13 caps the raise (6400 %), not the number of bok rounds; "tylko 4 razy" is pomorska's."""
    assert PSB.bok_rounds.max_per_series is None
    assert POMORSKA.bok_rounds.max_per_series == 4

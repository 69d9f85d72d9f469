"""A pulka's entries in words, as the history and the sheet read them (and any page reading a row's description)."""

import pytest
from django.utils import translation

from league.games import game_rules
from league.games.preferans.describe import describe_pulka_entry

NAMES = {"A": "Anna Nowak", "B": "Jan Kowalski"}


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (
            {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]},
            "7 kier ♥, rozgrywa B – Jan Kowalski (7 lew, ugrany), wisty: C 3 lewy",
        ),
        (
            {"contract": "8S", "declarer": "A", "tricks": 6, "whisters": [{"player": "C", "tricks": 4}]},
            "8 pik ♠, rozgrywa A – Anna Nowak (6 lew, nieugrany), wisty: C 4 lewy",
        ),
        (
            {"contract": "6NT", "declarer": "C", "dealer": "A"},
            "6 bez atu, rozgrywa C (ugrany), bez wistu, rozdaje A – Anna Nowak",
        ),
        ({"contract": "misere", "declarer": "A", "tricks": 1}, "mizer, rozgrywa A – Anna Nowak (1 lewa, nieugrany)"),
        (
            {"penalty": "pulka", "player": "B", "size": 2, "reason": "dopisał 2"},
            "kara dla B – Jan Kowalski: pulka zawyżona o 2, tyle samo na górę, powód: dopisał 2",
        ),
        (
            {"penalty": "whists", "player": "A", "wronged": "B", "size": 4, "reason": "4 wisty"},
            "kara dla A – Anna Nowak: wisty na B – Jan Kowalski zawyżone o 4, "
            "B – Jan Kowalski wpisuje tyle samo z powrotem, powód: 4 wisty",
        ),
    ],
)
def test_an_entry_reads_in_polish_with_the_players_names(entry, words):
    with translation.override("pl"):
        assert str(describe_pulka_entry(entry, NAMES)) == words


def test_a_row_of_a_preferans_table_is_read_by_its_game_as_a_pulka_entry_not_a_baska_deal():
    entry = {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]}
    with translation.override("pl"):
        description = game_rules("preferans").describe(entry)
        assert str(description) == "7 kier ♥, rozgrywa B (7 lew, ugrany), wisty: C 3 lewy"
    assert not hasattr(description, "shorthand")

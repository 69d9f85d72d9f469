"""The table phone's flow as the server renders it (issue 15): solo games in their own words,
thrown games won, the paper's totals typed not offered, a refused stale save that stays the form
it was, and the offline queue's pieces on the page (its bar, its words, its service worker)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

import scoring
from league.results import services
from tests.factories import game_settings_set
from tests.results.test_table_views import protocol, save_line, scorer, series, url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def deal_form_tag(content: str) -> str:
    return re.search(r'<form[^>]*id="deal-form"[^>]*>', content).group(0)


def buttons_post(protocol, number: int = 1, **fields: str | list[str]) -> dict:  # noqa: F811
    return {"number": number, "version": protocol.version, **{f"full-{k}": v for k, v in fields.items()}}


def test_a_solo_game_s_form_speaks_of_the_declarer_who_won_or_lost(scorer, protocol):  # noqa: F811
    scorer.post(url(protocol, "save"), buttons_post(protocol, contract="zolo", old=["B"], winner="young"))
    page = scorer.get(url(protocol, "edit", 1), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'class="solo"' in deal_form_tag(page)
    assert "Rozgrywający" in page and "wygrał" in page and "przegrał" in page
    # the pair game's words are there for a tap on another contract, hidden by the page's style
    assert '<i class="pair-only">starzy</i><i class="solo-only">wygrał</i>' in page
    assert ".tbl form.solo .pair-only" in page


def test_a_pair_game_s_form_keeps_the_old_and_the_young(scorer, protocol):  # noqa: F811
    page = scorer.get(url(protocol), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'class=""' in deal_form_tag(page)
    assert 'data-solo="cicha zolo gran zolo_du gran_du zolo_bieda mester baska"' in deal_form_tag(page)
    assert 'data-thrown="zolo_bieda mester baska"' in deal_form_tag(page)


@pytest.mark.parametrize("contract", ["mester", "zolo_bieda", "baska"])
def test_a_thrown_game_saved_without_a_winner_is_won(scorer, protocol, contract):  # noqa: F811
    assert scorer.post(url(protocol, "save"), buttons_post(protocol, contract=contract, old=["C"])).status_code == 302
    row = protocol.rows.get()
    assert row.values["C"] > 0 and sum(row.values.values()) == 0


def test_the_paper_s_totals_start_empty(scorer, protocol):  # noqa: F811
    save_line(scorer, protocol, "ac60")
    page = scorer.get(url(protocol)).content.decode()
    finish = page[page.index('id="finish"') :]
    for seat in "ABCD":
        field = re.search(rf'<input[^>]*name="{seat}"[^>]*>', finish).group(0)
        assert "value=" not in field, field
    assert "keep the computed ones" not in page


def test_after_the_referee_reopens_the_table_the_old_paper_totals_are_not_offered_again(scorer, protocol):  # noqa: F811
    save_line(scorer, protocol, "ac60")
    protocol.refresh_from_db()
    totals = protocol.rows.get().values
    protocol = services.protocol_totals_set(protocol=protocol, totals=totals, expected_version=protocol.version)
    protocol = services.protocol_complete(protocol=protocol, expected_version=protocol.version, ended_early=True)
    protocol = services.protocol_reopen(protocol=protocol, expected_version=protocol.version, user=None)
    save_line(scorer, protocol, "bd70")

    page = scorer.get(url(protocol)).content.decode()
    finish = page[page.index('id="finish"') :]
    for seat in "ABCD":
        field = re.search(rf'<input[^>]*name="{seat}"[^>]*>', finish).group(0)
        assert "value=" not in field, field


def test_typed_totals_that_were_refused_stay_as_typed(scorer, protocol):  # noqa: F811
    save_line(scorer, protocol, "ac60")
    protocol.refresh_from_db()
    response = scorer.post(url(protocol, "finish"), {"version": protocol.version, "A": 5, "B": -5, "C": 1, "D": -1})
    assert response.context["totals_form"]["A"].value() == "5"


def test_a_new_deal_refused_as_stale_stays_a_new_deal_with_the_next_number(scorer, protocol):  # noqa: F811
    game_settings_set(protocol.series.tournament, deals_per_series=40)
    protocol.series.tournament.save()
    save_line(scorer, protocol, "ac60")
    protocol.refresh_from_db()
    seen = protocol.version
    services.protocol_row_save(
        protocol=protocol,
        number=2,
        deal={"contract": "zwykla", "old": ["B", "D"], "old_eyes": 70},
        expected_version=seen,
        author="sędzia",
    )
    response = save_line(scorer, protocol, "ac+", number=2, version=seen)
    content = response.content.decode()
    assert response.status_code == 200 and response.context["editing"] is None
    assert "Fix deal 2" not in content and "Deal 3</h2>" in content
    assert 'name="number" value="3"' in content and 'name="fixing"' not in content
    assert protocol.rows.get(number=2).deal["old"] == ["B", "D"]  # the referee's row untouched


def test_a_fix_refused_as_stale_stays_the_fix_of_its_deal(scorer, protocol):  # noqa: F811
    save_line(scorer, protocol, "ac60")
    save_line(scorer, protocol, "bd60")
    protocol.refresh_from_db()
    seen = protocol.version
    services.protocol_row_save(
        protocol=protocol,
        number=1,
        deal={"contract": "zwykla", "old": ["A", "B"], "old_eyes": 70},
        expected_version=seen,
        author="sędzia",
    )
    response = scorer.post(url(protocol, "save"), {"number": 1, "version": seen, "line": "ac+", "fixing": "1"})
    content = response.content.decode()
    assert response.context["editing"].number == 1 and "Fix deal 1" in content
    assert content.count('name="fixing" value="1"') == 2


def test_the_page_carries_the_offline_bar_and_its_words_for_the_script(scorer, protocol):  # noqa: F811
    save_line(scorer, protocol, "ac60")
    protocol.refresh_from_db()
    page = scorer.get(url(protocol), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    bar = re.search(r'<div id="netbar"[^>]*>', page).group(0)
    assert f'data-version="{protocol.version}"' in bar and 'data-rows="1"' in bar
    assert 'data-totals="1 -1 1 -1 "' in bar and 'data-can-enter="1"' in bar
    assert "brak sieci – zapisuję w telefonie" in page and "Czeka na wysłanie" in page
    assert "Zostaw wersję z protokołu" in page and "Zapisz moją" in page
    assert '<tr id="row-1"' in page
    assert re.search(r'<script src="/static/js/table-offline.js" nonce="[^"]+" defer>', page)


def test_the_service_worker_is_served_under_the_table_pages_and_writes_nothing(protocol):  # noqa: F811
    slug = protocol.series.tournament.slug
    response = Client().get(f"/turnieje/{slug}/stolik/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert b"data-offline-shell" in response.content
    assert Client().post(f"/turnieje/{slug}/stolik/sw.js").status_code == 405


MARKED_BOK = {"bok_rounds": {"enabled": True, "trigger": "marked", "length": 4, "factor": 2, "max_per_series": 4}}


@pytest.mark.parametrize(("marked", "offered"), [(True, True), (False, False)])
def test_the_phone_offers_the_bok_mark_where_the_rules_mark_bok_rows(scorer, protocol, marked, offered):  # noqa: F811
    tournament = protocol.series.tournament
    data = scoring.ruleset_to_dict(scoring.load_ruleset("pomorska"))
    game_settings_set(tournament, ruleset_preset="pomorska", ruleset_data=data | (MARKED_BOK if marked else {}))
    tournament.save()
    page = scorer.get(url(protocol), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert ('name="full-bok_round"' in page) is offered


def test_a_row_marked_bok_on_the_phone_or_in_shorthand_is_valued_at_the_bok_factor(scorer, protocol):  # noqa: F811
    tournament = protocol.series.tournament
    game_settings_set(
        tournament,
        ruleset_preset="pomorska",
        ruleset_data=scoring.ruleset_to_dict(scoring.load_ruleset("pomorska")) | MARKED_BOK,
        deals_per_series=4,
    )
    tournament.save()
    scorer.post(
        url(protocol, "save"), buttons_post(protocol, contract="zwykla", old=["A", "C"], old_eyes="60", bok_round="on")
    )
    save_line(scorer, protocol, "bok bd70")
    save_line(scorer, protocol, "ab60")
    rows = list(protocol.rows.order_by("number"))
    assert [(row.doubled, row.values["A"]) for row in rows] == [(True, 2), (True, -2), (False, 1)]


@pytest.mark.parametrize(("preset", "offered", "declarer"), [("gorzow", True, 12), ("psb", False, 24)])
def test_the_phone_marks_a_cicha_na_dobiciu_where_the_rules_treat_its_kontra_apart(
    scorer,  # noqa: F811
    protocol,  # noqa: F811
    preset,
    offered,
    declarer,
):
    tournament = protocol.series.tournament
    game_settings_set(tournament, ruleset_preset=preset)
    tournament.save()
    page = scorer.get(url(protocol), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert ('name="full-cicha_na_dobiciu"' in page) is offered
    deal = {"contract": "cicha", "old": ["A"], "kontras": "m", "laid_down": "on", "cicha_na_dobiciu": "on"}
    scorer.post(url(protocol, "save"), buttons_post(protocol, **deal))
    row = protocol.rows.get()
    assert (row.deal["cicha_na_dobiciu"], row.values["A"]) == (True, declarer)


def test_the_page_gives_the_bok_rounds_state_after_each_row_where_a_tie_starts_them(scorer, protocol):  # noqa: F811
    """The phone's script walks on from the last state over its queued deals (scoring.value_table);
    under puck there are no bok rounds and nothing to walk."""
    tournament = protocol.series.tournament
    game_settings_set(tournament, ruleset_preset="pomorska", deals_per_series=8)
    tournament.save()
    save_line(scorer, protocol, "ac52")
    save_line(scorer, protocol, "ac60")
    page = scorer.get(url(protocol)).content.decode()
    states = re.search(r'data-bok-states="([^"]*)"', page).group(1).split()
    # left in the round . rounds queued . rounds started (pomorska caps them at four a series):
    # the tie starts a round of four
    assert states == ["0.0.0", "4.0.1", "3.0.1"]
    game_settings_set(tournament, ruleset_preset="psb")  # no cap (issue 38): the rounds started are not counted
    tournament.save()
    page = scorer.get(url(protocol)).content.decode()
    assert re.search(r'data-bok-states="([^"]*)"', page).group(1).split() == ["0.0", "4.0", "3.0"]
    game_settings_set(tournament, ruleset_preset="puck")
    tournament.save()
    assert 'data-bok-states=""' in scorer.get(url(protocol)).content.decode()

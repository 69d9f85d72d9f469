"""A stored deal opened in any edit surface and saved unchanged is stored unchanged, with its value.

Issue 38: the phone's button form did not carry a cicha "na dobiciu" nor a bok row into the form it
reopened, so a gorzow row worth +12 (a cicha na dobiciu with a kontra the rules do not count)
reopened unticked and, saved for an unrelated fix, became +24; a marked bok row lost its ×2.

The surfaces: the shorthand line (the referee's correction, the phone's line) and the phone's
button form (``DealForm``), for every preset and every deal the engine's generator can make.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from league.games.baska.forms import DealForm, with_kept_note
from league.games.baska.shorthand import format_deal, parse
from league.models import Series, TableAssignment
from league.results.models import Protocol
from tests.factories import PlayerFactory, TournamentFactory, table_protocols
from tests.scoring.test_properties import RULESETS, valid_deals

OFFENCES = sorted(scoring.OFFENCES)


@st.composite
def stored_deals(draw):
    """A ruleset and a deal as a protocol row may hold it: any valid deal, with the marks its rules
    allow (a bok row, a cicha "na dobiciu", the kind of offence of a misplay), or written values."""
    ruleset, deal = draw(valid_deals())
    if draw(st.integers(0, 9)) == 0:
        written = draw(st.lists(st.integers(-500, 500), min_size=3, max_size=3))
        values = {"values": dict(zip(scoring.SEATS, [*written, -sum(written)], strict=True))}
        if draw(st.booleans()):
            return ruleset, values
        # written values with a contract as their label: they must be the contract's possible outcome
        return ruleset, {"contract": deal["contract"], "values": scoring.score_deal(deal, ruleset).values}
    if not deal["kontras"]:
        del deal["kontras"]
    if ruleset.bok_rounds.enabled and draw(st.booleans()):
        deal["bok_round"] = True
    refused = ruleset.cicha_na_dobiciu_kontra == "refused" and deal.get("kontras")
    if deal["contract"] == "cicha" and not refused and draw(st.booleans()):
        deal["cicha_na_dobiciu"] = True
    if "misplay" in deal and draw(st.booleans()):
        deal["offence"] = draw(st.sampled_from(OFFENCES))
    return ruleset, deal


def posted(initial: dict) -> dict:
    """What a browser sends for the button form filled with ``initial``."""
    data = {}
    for name, value in initial.items():
        if value is True:
            data[f"full-{name}"] = "on"
        elif value is not None and value is not False:
            data[f"full-{name}"] = value
    return data


@settings(max_examples=400, deadline=None)
@given(stored_deals())
def test_every_surface_opens_and_saves_a_deal_unchanged(case):
    ruleset, deal = case
    value = scoring.score_deal(deal, ruleset).values

    retyped = with_kept_note(parse(format_deal(deal)), deal)
    assert retyped == deal

    if "contract" not in deal:
        return  # values written with no contract: the line carries them, the buttons need a contract
    form = DealForm(posted(DealForm.initial_from(deal)), prefix="full", ruleset=ruleset)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["deal"] == deal
    assert scoring.score_deal(form.cleaned_data["deal"], ruleset).values == value


@pytest.fixture
def gorzow_table(db) -> Protocol:
    tournament = TournamentFactory(ruleset_preset="gorzow", deals_per_series=4)
    series = Series.objects.create(tournament=tournament, number=1, status=Series.Status.IN_PLAY)
    for seat in scoring.SEATS:
        TableAssignment.objects.create(series=series, table=1, seat=seat, player=PlayerFactory())
    return table_protocols(series)[0]


def test_a_cicha_na_dobiciu_reopened_on_the_phone_and_saved_keeps_its_value(gorzow_table):
    protocol = gorzow_table
    args = [protocol.series.tournament.slug, 1, 1]
    phone = Client()
    assert phone.post(reverse("table:pin", args=args), {"pin": protocol.pin, "seat": "A"}).status_code == 302
    deal = {"contract": "cicha", "old": ["B"], "kontras": ["young"], "cicha_na_dobiciu": True, "winner": "old"}
    first = {"number": 1, "version": protocol.version, **posted(DealForm.initial_from(deal))}
    assert phone.post(reverse("table:save", args=args), first).status_code == 302
    stored = protocol.rows.get(number=1)
    assert stored.values["B"] == 12  # gorzow does not count a kontra on a cicha na dobiciu

    edit = phone.get(reverse("table:edit", args=[*args, 1]))
    reopened = {name: field.value() for name, field in ((f.name, f) for f in edit.context["deal_form"])}
    assert reopened["cicha_na_dobiciu"] is True
    protocol.refresh_from_db()
    again = {"number": 1, "version": protocol.version, "fixing": "1", **posted(reopened)}
    assert phone.post(reverse("table:save", args=args), again).status_code == 302
    assert protocol.rows.get(number=1).values["B"] == 12


def test_the_generator_reaches_every_preset():
    assert len(RULESETS) == len(scoring.PRESETS)

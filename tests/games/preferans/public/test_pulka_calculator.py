"""The "Rozliczenie pulki" calculator: a Preferans sheet typed in deal by deal, settled, nothing stored."""

from decimal import Decimal

import pytest
from django.core import signing
from django.urls import reverse
from django.utils import translation

from league.games.labels import ERROR_MESSAGES
from league.games.preferans.calculator import MAX_ENTRIES, MAX_STATE_CHARS, SIGNING_SALT, PulkaGame, game_dumps
from scoring import MESSAGES

pytestmark = pytest.mark.django_db

URL = reverse("pulka_calculator")
ALA, BARTEK, CELINA, DAREK = "A", "B", "C", "D"


def post(client, data, **headers):
    return client.post(URL, data, HTTP_ACCEPT_LANGUAGE="pl", **headers)


def start(client, *, names=("Ala", "Bartek", "Celina"), variant="sochi", total=10, stake=""):
    data = {f"name_{i}": name for i, name in enumerate(names, start=1)}
    response = post(client, {"action": "start", **data, "variant": variant, "total": total, "stake": stake})
    assert response.status_code == 200
    return response


def unwhisted(declarer, contract, **fields):
    """What the deal form sends for a contract nobody whisted."""
    return {"contract": contract, "declarer": declarer, **fields}


def send(client, response, action, **fields):
    """The next POST of the page ``response`` showed, carrying its sheet."""
    return post(client, {"action": action, "stan": response.context["state"], **fields})


def enter(client, response, deals):
    for deal in deals:
        response = send(client, response, "deal", **deal)
        assert not response.context["deal_form"].errors, response.context["deal_form"].errors
    return response


def pulka_of(points, declarer):
    """Unwhisted deals writing ``points`` (even, at least 2) for ``declarer``: tens, then one more contract."""
    deals = [unwhisted(declarer, "10NT") for _ in range(points // 10)]
    if points % 10:
        deals.append(unwhisted(declarer, f"{points % 10 // 2 + 5}S"))
    return deals


def text(response):
    return response.content.decode()


def test_the_seeds_leningrad_example_typed_in_gives_its_settlement_and_money(client):
    # three players at 48 in a Leningrad pulka to 50; Ala plays an eight and reaches 54
    page = start(client, variant="leningrad", total=50, stake="0,10")
    deals = [*pulka_of(48, ALA), *pulka_of(48, BARTEK), *pulka_of(48, CELINA), unwhisted(ALA, "8S")]

    page = enter(client, page, deals)

    settlement = page.context["pulka"].settlement
    assert settlement.mountains_at_end == {ALA: -8, BARTEK: 4, CELINA: 4}
    assert settlement.mountains == {ALA: 0, BARTEK: 12, CELINA: 12}
    assert settlement.balance == {ALA: 80, BARTEK: -40, CELINA: -40}
    assert page.context["money"] == [
        ("Ala", Decimal("8.00")),
        ("Bartek", Decimal("-4.00")),
        ("Celina", Decimal("-4.00")),
    ]
    assert "8,00 zł" in text(page) and "-4,00 zł" in text(page)
    assert "Rozliczenie pulki" in text(page)
    assert 'name="action" value="deal"' not in text(page)  # over: no further deal


def test_the_remainder_rule_is_shown_when_a_mountain_does_not_divide(client):
    # every pulka full at 10, then one penalty point on Ala's mountain: 1 × 10 / 3 does not divide
    page = enter(client, start(client), [unwhisted(p, "10NT") for p in (ALA, BARTEK, CELINA)])
    penalty = {"column": "pulka", "player": ALA, "size": 1, "penalty_reason": "dopisała punkt za dużo"}

    page = send(client, page, "penalty", **penalty)

    [adjustment] = page.context["pulka"].settlement.adjustments
    assert (adjustment.player, adjustment.points, adjustment.whists_each) == (ALA, -1, 3)
    assert "dopisała punkt za dużo" in text(page)
    settlement = text(page).split("pulka-settlement")[1]
    assert "−1" in settlement  # the point moved off Ala's mountain


def test_a_deal_the_engine_refuses_is_explained_in_polish_with_the_players_name_and_not_written(client):
    page = start(client)
    declarer_whists = unwhisted(BARTEK, "7H", tricks=7, **{f"whist_{BARTEK}": "on", f"tricks_{BARTEK}": 3})

    refused = send(client, page, "deal", **declarer_whists)

    assert "Bartek rozgrywa to rozdanie i nie może w nim wistować" in text(refused)
    assert refused.context["game"].entries == ()


def test_with_four_players_the_dealer_sits_out_and_may_not_declare(client):
    page = start(client, names=("Ala", "Bartek", "Celina", "Darek"))
    assert "Ala rozdaje i pauzuje" in text(page)

    refused = send(client, page, "deal", **unwhisted(ALA, "6S"))

    assert "Ala rozdaje w tym rozdaniu" in text(refused)
    page = send(client, page, "deal", **unwhisted(BARTEK, "6S"))
    assert "Bartek rozdaje i pauzuje" in text(page)


def test_the_last_entry_can_be_taken_back_and_a_pulka_closed_and_opened_by_agreement(client):
    page = enter(client, start(client), [unwhisted(ALA, "6S"), unwhisted(BARTEK, "7S")])

    page = send(client, page, "undo")
    assert [entry["declarer"] for entry in page.context["game"].entries] == [ALA]

    page = send(client, page, "close")
    assert page.context["pulka"].settlement is not None
    assert send(client, page, "deal", **unwhisted(BARTEK, "7S")).context["game"].entries == page.context["game"].entries

    page = send(client, page, "open")
    assert page.context["pulka"].settlement is None


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ("changed", "zmieniony lub uszkodzony"),
        ("oversized", "za długi"),
        ("unsigned", "zmieniony lub uszkodzony"),
        ("too many entries", f"najwyżej {MAX_ENTRIES} wpisów"),
    ],
)
def test_a_tampered_or_oversized_hidden_sheet_is_refused_in_polish(client, sheet, message):
    signed = start(client).context["state"]
    sent = {
        "changed": signed[:-4] + ("AAAA" if not signed.endswith("AAAA") else "BBBB"),
        "oversized": "x" * (MAX_STATE_CHARS + 1),
        "unsigned": '{"names": ["Ala", "Bartek", "Celina"], "entries": []}',
        "too many entries": signing.dumps(
            {
                "names": ["A", "B", "C"],
                "variant": "sochi",
                "total": 10,
                "stake": None,
                "closed": False,
                "entries": [{"penalty": "pulka", "player": "A", "size": 1, "reason": "x"}] * (MAX_ENTRIES + 1),
            },
            salt=SIGNING_SALT,
            compress=True,
        ),
    }[sheet]

    response = post(client, {"action": "deal", "stan": sent, **unwhisted(ALA, "6S")})

    assert response.status_code == 400
    assert message in text(response)
    assert "setup" in response.context  # the visitor starts a new pulka


def test_a_sheet_at_its_limit_takes_no_further_entry(client):
    full = PulkaGame(
        names=("Ala", "Bartek", "Celina"),
        variant="sochi",
        total=10,
        entries=({"penalty": "pulka", "player": ALA, "size": 1, "reason": "x"},) * MAX_ENTRIES,
    )
    page = post(client, {"action": "deal", "stan": game_dumps(full), **unwhisted(ALA, "6S")})

    assert f"najwyżej {MAX_ENTRIES} wpisów" in text(page)
    assert len(page.context["game"].entries) == MAX_ENTRIES


@pytest.mark.parametrize(
    ("stake", "shown"),
    [("0,10", "0,10 zł za wist"), ("0.5", "0,50 zł za wist"), ("2", "2,00 zł za wist"), ("", None)],
)
def test_the_stake_is_typed_with_a_decimal_comma_or_left_out(client, stake, shown):
    page = start(client, stake=stake)
    assert page.context["game"].stake == (Decimal(stake.replace(",", ".")) if stake else None)
    if shown:
        assert shown in text(page)


@pytest.mark.parametrize("stake", ["0,105", "abc", "-1", "0", "1e9", "NaN"])
def test_a_stake_that_is_not_an_amount_is_refused_in_polish(client, stake):
    page = post(
        client,
        {
            "action": "start",
            "name_1": "A",
            "name_2": "B",
            "name_3": "C",
            "variant": "sochi",
            "total": 10,
            "stake": stake,
        },
    )
    assert "setup" in page.context and "np. 0,10" in text(page)


def test_two_players_of_one_name_are_refused(client):
    page = post(
        client, {"action": "start", "name_1": "Ala", "name_2": "ala", "name_3": "C", "variant": "sochi", "total": 10}
    )
    assert page.context["setup"].non_field_errors()


def test_htmx_gets_the_changing_part_alone_with_the_new_sheet_in_its_forms(client):
    page = start(client)
    fragment = post(
        client, {"action": "deal", "stan": page.context["state"], **unwhisted(ALA, "6S")}, HTTP_HX_REQUEST="true"
    )
    assert b"<html" not in fragment.content
    assert fragment.context["state"] != page.context["state"]
    assert f'value="{fragment.context["state"]}"' in text(fragment)


def test_entering_a_deal_stores_nothing(client, django_assert_num_queries):
    page = start(client)
    with django_assert_num_queries(0):
        page = send(client, page, "deal", **unwhisted(ALA, "6S"))
    assert len(page.context["game"].entries) == 1


def test_the_page_opens_empty_and_links_to_the_deal_calculator_and_back(client):
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="pl")
    assert page.status_code == 200 and "setup" in page.context
    assert reverse("calculator") in text(page)
    assert URL in client.get(reverse("calculator")).content.decode()


@pytest.mark.parametrize(
    "code", sorted(code for code in MESSAGES if code.startswith("pulka_") or code == "unknown_variant")
)
def test_every_error_of_the_pulka_sheet_has_a_polish_message(code):
    with translation.override("pl"):
        polish = str(ERROR_MESSAGES[code])
    with translation.override("en"):
        english = str(ERROR_MESSAGES[code])
    assert polish != english


@pytest.mark.parametrize(
    ("names", "refused"),
    [
        (["Ala\u202e", "Bartek", "Celina"], "Control characters"),
        (["Zo\u00eb", "Zoe\u0308", "Celina"], "different name"),
    ],
    ids=["direction override", "one name composed and decomposed"],
)
def test_names_that_would_print_backwards_or_twice_alike_are_refused(client, names, refused):
    data = {f"name_{i}": name for i, name in enumerate(names, start=1)} | {"variant": "sochi", "total": 20}
    response = client.post(reverse("pulka_calculator"), data)
    assert refused in response.content.decode()

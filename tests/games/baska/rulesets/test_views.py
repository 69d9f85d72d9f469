"""The "Własne zasady" screens: only organisers, only their own rules; the editor values what is typed."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation

import scoring
from league.games.baska.rulesets import services
from league.games.baska.rulesets.forms import RulesetForm
from league.games.baska.rulesets.models import OwnRuleset
from tests.factories import OwnRulesetFactory, TournamentFactory, UserFactory, ruleset_form_data
from tests.games.baska.rulesets.test_services import played_with, with_zolo_base

pytestmark = pytest.mark.django_db


def edit_url(ruleset) -> str:
    return reverse("rulesets:edit", args=[ruleset.pk])


def test_the_list_shows_my_rules_and_never_another_organisers(client, own):
    theirs = OwnRulesetFactory(owner=UserFactory(), name="Zasady sąsiada")
    page = client.get(reverse("rulesets:list")).content.decode()
    assert own.name in page
    assert theirs.name not in page


@pytest.mark.parametrize("name", ["rulesets:list", "rulesets:create"])
def test_a_user_who_may_not_create_tournaments_is_refused(client, name):
    client.force_login(UserFactory())
    assert client.get(reverse(name)).status_code == 403


def test_a_user_who_may_not_create_tournaments_cannot_open_even_their_own_rules(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(edit_url(OwnRulesetFactory(owner=user))).status_code == 403


def test_nobody_logged_in_is_sent_to_log_in(client):
    response = client.get(reverse("rulesets:list"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("name", ["rulesets:edit", "rulesets:delete"])
def test_another_organisers_rules_are_not_found(client, organiser, name):
    other = UserFactory()
    other.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    theirs = OwnRulesetFactory(owner=other)
    assert client.get(reverse(name, args=[theirs.pk])).status_code == 404
    assert client.post(reverse(name, args=[theirs.pk]), ruleset_form_data(theirs)).status_code == 404
    assert OwnRuleset.objects.filter(pk=theirs.pk).exists()


def test_a_preset_copied_under_a_new_name_opens_in_the_editor(client, organiser):
    response = client.post(reverse("rulesets:create"), {"name": "Liga Kaszubska 2027", "source": "psb"})
    copy = OwnRuleset.objects.get(owner=organiser)
    assert response.url == edit_url(copy)
    assert copy.name == "Liga Kaszubska 2027"


def test_the_copy_posted_twice_is_one_ruleset(client, organiser):
    for _ in range(2):
        response = client.post(reverse("rulesets:create"), {"name": "Liga", "source": "puck"})
    assert response.status_code == 302
    assert OwnRuleset.objects.filter(owner=organiser).count() == 1


def test_the_editor_shows_the_value_grid_and_the_calculators_deal(client, own):
    page = client.get(edit_url(own)).content.decode()
    assert "contract × level × kontra grid as a table of numbers" in page
    # the calculator starts with a zolo won by A: +15 for A, -5 for each of the young (psb)
    assert "+15" in page and ">-5<" in page


def grid_row(page: str, contract: str, outcome: str) -> list[str]:
    """The values of one row of the first grid in ``page`` (0, 1, 2 … counted doublings)."""
    row = page.split(f"<td>{contract}</td><td>{outcome}</td>", 1)[1].split("</tr>", 1)[0]
    return [cell.split("<")[0] or "–" for cell in row.split('<td class="num">')[1:]]


@pytest.mark.parametrize(("applies", "most"), [("before_loss", "640"), ("after_loss", "320")])
def test_the_grid_in_a_bok_round_shows_the_cap_of_the_raises_as_typed(client, own, applies, most):
    """psb §7.13's 6400 %: a zolo-du lost with four kontras in a bok round is 64 × its base before the
    loser's doubling (320, doubled to 640), or 320 in all where the cap applies after it."""
    data = ruleset_form_data(own, stake_cap_factor="64", stake_cap_applies=applies, preview="")
    page = client.post(edit_url(own), data).content.decode()
    plain, bok = page.split("In a bok round (×2)", 1)
    assert grid_row(plain, "zolo-du", "lost") == ["20", "40", "80", "160", "320"]
    assert grid_row(bok, "zolo-du", "lost") == ["40", "80", "160", "320", most]


@pytest.mark.parametrize(("reading", "values"), [("ignored", ["4", "4"]), ("refused", ["4", "–"])])
def test_the_grid_shows_a_cicha_na_dobiciu_as_the_rules_read_its_kontra(client, own, reading, values):
    data = ruleset_form_data(own, cicha_na_dobiciu_kontra=reading, preview="")
    page = client.post(edit_url(own), data).content.decode()
    assert grid_row(page, "silent wedding (cicha)", "laid down “na dobiciu”")[:2] == values
    counted = client.post(edit_url(own), ruleset_form_data(own, preview="")).content.decode()
    assert "na dobiciu”</td>" not in counted  # psb counts it as any kontra: no row of its own


def test_the_calculator_values_the_deal_under_the_rules_as_typed_before_saving(client, own):
    data = ruleset_form_data(own, zolo__base=7, preview="")
    page = client.post(edit_url(own), data).content.decode()
    assert "+21" in page and ">-7<" in page
    own.refresh_from_db()
    assert own.ruleset().contract("zolo").base == 5


def test_while_typing_htmx_gets_the_grid_and_calculator_alone(client, own):
    data = ruleset_form_data(own, zolo__base=7, **{"calc-contract": "zolo", "calc-old": "B", "calc-winner": "young"})
    response = client.post(edit_url(own), data, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert "<form" not in page
    # zolo lost by B under psb: the loss doubled, 2 × 7 per opponent
    assert "-42" in page and "+14" in page
    assert not own.history.exists()


def test_the_grid_follows_the_rules_as_typed(client, own):
    page = client.post(edit_url(own), ruleset_form_data(own, zolo__base=7, preview="")).content.decode()
    zolo_row = page.split("<td>zolo</td>", 1)[1].split("</tr>", 1)[0]
    assert [cell.split("<")[0] for cell in zolo_row.split('<td class="num">')[1:]] == ["7", "14", "28", "56", "112"]


def test_saving_stores_the_rules_and_the_history_says_who_and_why(client, organiser, own):
    organiser.first_name, organiser.last_name = "Jan", "Kowalski"
    organiser.save()
    data = ruleset_form_data(own, zolo__base=7, misplay_min_doublings=1, reason="zolo za 7", save="")
    response = client.post(edit_url(own), data)
    assert response.url == edit_url(own)
    own.refresh_from_db()
    ruleset = own.ruleset()
    assert (ruleset.contract("zolo").base, ruleset.misplay_min_doublings) == (7, 1)
    page = client.get(edit_url(own)).content.decode()
    assert "Jan Kowalski" in page and "zolo za 7" in page


@pytest.mark.parametrize(
    ("factor", "applies", "stored"), [("64", "after_loss", (64, "after_loss")), ("", "before_loss", None)]
)
def test_the_cap_of_the_raises_is_set_in_the_editor_with_its_reading(client, own, factor, applies, stored):
    data = ruleset_form_data(own, stake_cap_factor=factor, stake_cap_applies=applies, reason="6400 %", save="")
    client.post(edit_url(own), data)
    own.refresh_from_db()
    cap = own.ruleset().stake_cap
    assert (cap and (cap.factor, cap.applies)) == stored
    page = client.get(edit_url(own), headers={"Accept-Language": "pl"}).content.decode()
    assert "podwyższenia mnożą stawkę podstawową najwyżej" in page


def test_the_editor_saves_every_setting_unchanged_as_the_preset_had_it(client, organiser):
    for preset in ("psb", "gorzow", "puck", "pomorska"):
        own = OwnRulesetFactory(owner=organiser, based_on=preset)
        form = RulesetForm(ruleset_form_data(own), owner=organiser, instance=own)
        assert form.is_valid(), form.errors
        assert scoring.ruleset_to_dict(form.ruleset) | {"id": preset} == scoring.ruleset_to_dict(own.ruleset())


def test_big_points_take_a_decimal_comma(client, own):
    data = ruleset_form_data(
        own, bye_points_2="2,5", placement_1="5", placement_2="3,5", placement_3="2", placement_4="1"
    )
    data["team_by"], data["team_points"] = "place", "100; 80; 62,5"
    client.post(edit_url(own), data)
    own.refresh_from_db()
    ruleset = own.ruleset()
    assert ruleset.byes.big_points[1] == 2.5
    assert ruleset.placement.points == (5, 3.5, 2, 1)
    assert ruleset.team_big_points.points == (100, 80, 62.5)


ERRORS = [
    ("zolo__base", 0, "Podaj liczbę całkowitą od 1 do 1000."),
    ("zolo__base", 10**12, "Podaj liczbę całkowitą od 1 do 1000."),
    ("wyjscie_old", 60, "Podaj liczbę całkowitą od 1 do 52."),
    ("misplay_min_doublings", 5, "Podaj liczbę całkowitą od 0 do 4."),
    ("eyes_to_win", 40, "Podaj liczbę całkowitą od 53 do 104."),
    ("first_kontra_solo", [], "Zaznacz co najmniej jedną stronę."),
    ("bok_length", 0, "Podaj liczbę całkowitą od 1 do 96."),
    ("bok_length", 10**9, "Podaj liczbę całkowitą od 1 do 96."),
    ("notes", "x" * 2001, "Podaj tekst o długości najwyżej 2000 znaków."),
]


@pytest.mark.parametrize(("field", "value", "message"), ERRORS)
def test_a_setting_the_engine_refuses_is_explained_in_polish_next_to_it(client, own, field, value, message):
    data = ruleset_form_data(own, **{field: None if value == [] else value})
    with translation.override("pl"):
        form = RulesetForm(data, owner=own.owner, instance=own)
        assert not form.is_valid()
        assert form.errors[field] == [message]
    page = client.post(edit_url(own), data | {"save": ""}, headers={"Accept-Language": "pl"}).content.decode()
    assert message in page
    own.refresh_from_db()
    assert own.ruleset().contract("zolo").base == 5


def test_a_name_i_already_use_is_refused(client, organiser, own):
    other = OwnRulesetFactory(owner=organiser, name="Inne")
    response = client.post(edit_url(other), ruleset_form_data(other, name=own.name, save=""))
    assert "You already have rules called" in response.content.decode()
    other.refresh_from_db()
    assert other.name == "Inne"


def test_locked_rules_are_not_saved_and_the_page_offers_a_copy(client, own):
    played_with(own)
    response = client.post(edit_url(own), ruleset_form_data(own, zolo__base=7, save=""), follow=True)
    page = response.content.decode()
    assert "can no longer change" in page
    assert reverse("rulesets:create") + f"?z=own-{own.pk}" in page
    own.refresh_from_db()
    assert own.ruleset().contract("zolo").base == 5


def test_the_copy_button_preselects_the_rules_to_copy(client, own):
    page = client.get(reverse("rulesets:create") + f"?z=own-{own.pk}").content.decode()
    assert f'<option value="own-{own.pk}" selected>' in page


def test_unused_rules_are_deleted_after_asking(client, own):
    assert "Yes, delete the rules" in client.get(reverse("rulesets:delete", args=[own.pk])).content.decode()
    response = client.post(reverse("rulesets:delete", args=[own.pk]))
    assert response.url == reverse("rulesets:list")
    assert not OwnRuleset.objects.filter(pk=own.pk).exists()


def test_rules_a_tournament_uses_stay_when_deleting(client, own):
    TournamentFactory(own_ruleset=own, ruleset_preset="psb")
    client.post(reverse("rulesets:delete", args=[own.pk]))
    assert OwnRuleset.objects.filter(pk=own.pk).exists()


@pytest.mark.parametrize("count", [2, 20])
def test_the_list_takes_the_same_queries_for_few_and_many_rules(
    client, organiser, count, django_assert_max_num_queries
):
    rulesets = OwnRulesetFactory.create_batch(count, owner=organiser)
    with django_assert_max_num_queries(6):
        page = client.get(reverse("rulesets:list")).content.decode()
    assert all(edit_url(ruleset) in page for ruleset in rulesets)


@pytest.mark.parametrize("saves", [1, 15])
def test_the_editor_takes_the_same_queries_for_a_short_and_a_long_history(
    client, organiser, own, saves, django_assert_max_num_queries
):
    for base in range(6, 6 + saves):
        data = with_zolo_base(own.data, base)
        services.own_ruleset_update(ruleset=own, user=organiser, name=own.name, data=data, reason=f"zolo za {base}")
    with django_assert_max_num_queries(10):
        page = client.get(edit_url(own)).content.decode()
    assert page.count("zolo za ") == saves


def test_a_tournament_on_own_rules_names_them_on_its_pages(client, organiser, own):
    tournament = TournamentFactory(ruleset_preset="psb", own_ruleset=own, published=True)
    tournament.organisers.add(organiser)
    organisers_page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    public_page = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    for page in (organisers_page, public_page):
        assert "Liga Kaszubska 2027" in page

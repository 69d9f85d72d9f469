"""Own rules are copied, saved with their history, locked once used for results, and deleted while unused."""

import pytest
from django.core.exceptions import ValidationError

import scoring
from league.games.baska.rulesets import services
from league.games.baska.rulesets.models import OwnRuleset
from tests.factories import OwnRulesetFactory, RegistrationFactory, TournamentFactory, UserFactory, played_series

pytestmark = pytest.mark.django_db


def with_zolo_base(data: dict, base: int) -> dict:
    return data | {"contracts": data["contracts"] | {"zolo": data["contracts"]["zolo"] | {"base": base}}}


def played_with(ruleset):
    """A tournament on ``ruleset`` with one deal entered."""
    tournament = TournamentFactory(own_ruleset=ruleset, ruleset_preset=ruleset.based_on)
    players = [RegistrationFactory(tournament=tournament).player for _ in range(4)]
    played_series(tournament, 1, [list(zip(players, (30, 10, -10, -30), strict=True))])
    return tournament


def test_a_copy_of_a_preset_has_its_rules_under_the_new_name(organiser):
    copy, created = services.own_ruleset_copy(user=organiser, name="Liga Kaszubska 2027", source="gorzow")
    assert created
    assert (copy.name, copy.based_on, copy.owner) == ("Liga Kaszubska 2027", "gorzow", organiser)
    ruleset = copy.ruleset()
    assert ruleset.name == "Liga Kaszubska 2027"
    assert ruleset.contracts == scoring.load_ruleset("gorzow").contracts


def test_a_copy_of_an_own_ruleset_keeps_its_changes_and_its_preset(organiser, own):
    own.data = with_zolo_base(own.data, 7)
    own.save()
    copy, _ = services.own_ruleset_copy(user=organiser, name="Kopia", source=own)
    assert copy.ruleset().contract("zolo").base == 7
    assert copy.based_on == "psb"


def test_copying_twice_under_one_name_makes_one_ruleset(organiser):
    first, created_first = services.own_ruleset_copy(user=organiser, name="Liga", source="psb")
    again, created_again = services.own_ruleset_copy(user=organiser, name="Liga", source="psb")
    assert (created_first, created_again) == (True, False)
    assert again == first
    assert OwnRuleset.objects.filter(owner=organiser).count() == 1


def test_another_organisers_ruleset_cannot_be_copied(organiser):
    theirs = OwnRulesetFactory(owner=UserFactory())
    with pytest.raises(ValidationError, match="only your own"):
        services.own_ruleset_copy(user=organiser, name="Cudze", source=theirs)
    assert not OwnRuleset.objects.filter(owner=organiser).exists()


def test_a_save_keeps_the_previous_rules_with_who_and_why(organiser, own):
    before = own.data
    services.own_ruleset_update(
        ruleset=own, user=organiser, name=own.name, data=with_zolo_base(before, 7), reason="zolo za 7"
    )
    own.refresh_from_db()
    assert own.ruleset().contract("zolo").base == 7
    [version] = own.history.all()
    assert (version.old_data, version.user, version.reason) == (before, organiser, "zolo za 7")


def test_saving_the_same_rules_again_adds_nothing_to_the_history(organiser, own):
    data = with_zolo_base(own.data, 7)
    for _ in range(2):
        services.own_ruleset_update(ruleset=own, user=organiser, name=own.name, data=data)
    assert own.history.count() == 1


def test_rules_the_engine_refuses_are_not_saved(organiser, own):
    with pytest.raises(scoring.ScoringError):
        services.own_ruleset_update(ruleset=own, user=organiser, name=own.name, data=with_zolo_base(own.data, 0))
    own.refresh_from_db()
    assert own.ruleset().contract("zolo").base == 5
    assert not own.history.exists()


def test_once_a_tournament_using_them_has_results_the_rules_are_locked(organiser, own):
    played_with(own)
    with pytest.raises(ValidationError, match="Copy them"):
        services.own_ruleset_update(ruleset=own, user=organiser, name=own.name, data=with_zolo_base(own.data, 7))
    own.refresh_from_db()
    assert own.ruleset().contract("zolo").base == 5


def test_rules_no_tournament_uses_are_deleted(own):
    services.own_ruleset_delete(ruleset=own)
    assert not OwnRuleset.objects.filter(pk=own.pk).exists()


def test_rules_a_tournament_uses_are_not_deleted(own):
    TournamentFactory(own_ruleset=own, ruleset_preset="psb")
    with pytest.raises(ValidationError, match="uses these rules"):
        services.own_ruleset_delete(ruleset=own)
    assert OwnRuleset.objects.filter(pk=own.pk).exists()


def test_a_copys_id_spells_the_polish_letters_of_its_name_in_latin_ones(organiser):
    copy, _ = services.own_ruleset_copy(user=organiser, name="Złote zasady Łeby", source="gorzow")
    assert copy.data["id"] == "zlote-zasady-leby"

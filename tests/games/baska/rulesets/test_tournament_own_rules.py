"""The own rules a tournament plays by live in Baśka's table (issue 39): the migration moves every
tournament's choice there and back, and the database still refuses to delete rules a tournament plays by."""

import json

import pytest
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ProtectedError

from league.exchange import export_tournament, import_tournament
from league.games import game_of
from league.games.baska.rulesets.models import OwnRuleset, TournamentOwnRuleset
from league.games.baska.settings import own_ruleset_of, own_ruleset_set, tournament_ruleset
from league.models import Tournament
from league.tournaments.services import tournament_update
from tests.factories import OwnRulesetFactory, TournamentFactory, preset_data

BEFORE = [("league", "0024_tournament_game_no_default"), ("rulesets", "0002_history_rows_share_a_base")]

# each tournament's slug, game and the own rules it plays by (None: its preset)
TOURNAMENTS = [
    ("na-zasadach-klubu", "baska", "Zasady klubu"),
    ("tez-na-zasadach-klubu", "baska", "Zasady klubu"),
    ("na-zasadach-ligi", "baska", "Zasady ligi"),
    ("na-presecie", "baska", None),
    ("wieczor-preferansa", "preferans", None),
]


def leaf_nodes() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_each_tournaments_own_rules_into_baskas_table_and_back():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    owner = old.get_model(settings.AUTH_USER_MODEL).objects.create(username="organizator")
    rulesets = {
        name: old.get_model("rulesets", "OwnRuleset").objects.create(
            name=name, based_on="pomorska", data=preset_data("pomorska") | {"name": name}, owner=owner
        )
        for name in ("Zasady klubu", "Zasady ligi")
    }
    for slug, game, own in TOURNAMENTS:
        old.get_model("league", "Tournament").objects.create(
            name=slug,
            slug=slug,
            date="2026-05-01",
            game=game,
            game_settings={"ruleset_preset": "pomorska"} if game == "baska" else {},
            own_ruleset=rulesets[own] if own else None,
        )

    MigrationExecutor(connection).migrate(leaf_nodes())
    for slug, _game, own in TOURNAMENTS:
        tournament = Tournament.objects.get(slug=slug)
        assert getattr(own_ruleset_of(tournament), "name", None) == own
        if own:
            assert (tournament_ruleset(tournament).name, game_of(tournament).rules_name(tournament)) == (own, own)
    assert TournamentOwnRuleset.objects.count() == 3

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    back = executor.loader.project_state(BEFORE).apps.get_model("league", "Tournament")
    chosen = dict(back.objects.values_list("slug", "own_ruleset__name"))
    assert chosen == {slug: own for slug, _game, own in TOURNAMENTS}
    MigrationExecutor(connection).migrate(leaf_nodes())  # the schema every other test expects


@pytest.mark.django_db
def test_own_rules_a_tournament_plays_by_cannot_be_deleted():
    own = OwnRulesetFactory()
    TournamentFactory(own_ruleset=own, ruleset_preset=own.based_on)
    with pytest.raises(ProtectedError):
        own.delete()
    assert OwnRuleset.objects.filter(pk=own.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_the_database_itself_refuses_to_delete_own_rules_a_tournament_plays_by():
    own = OwnRulesetFactory()
    TournamentFactory(own_ruleset=own, ruleset_preset=own.based_on)
    table = OwnRuleset._meta.db_table
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [own.pk])  # past Django's PROTECT
    assert OwnRuleset.objects.filter(pk=own.pk).exists()


@pytest.mark.django_db
def test_own_rules_may_be_deleted_once_no_tournament_plays_by_them():
    own, other = OwnRulesetFactory(), OwnRulesetFactory()
    changed = TournamentFactory(own_ruleset=own, ruleset_preset=own.based_on)
    deleted = TournamentFactory(own_ruleset=other, ruleset_preset=other.based_on)
    own_ruleset_set(tournament=changed, ruleset=None)
    deleted.delete()
    own.delete()
    other.delete()
    assert (own_ruleset_of(Tournament.objects.get(pk=changed.pk)), OwnRuleset.objects.count()) == (None, 0)


@pytest.mark.django_db
def test_a_tournament_on_own_rules_changed_to_preferans_before_its_draw_no_longer_holds_them():
    own = OwnRulesetFactory()
    tournament = TournamentFactory(own_ruleset=own, ruleset_preset=own.based_on)
    tournament_update(tournament=tournament, game="preferans")
    assert own_ruleset_of(Tournament.objects.get(pk=tournament.pk)) is None
    own.delete()  # no tournament plays by them now


@pytest.mark.django_db
def test_a_file_replacing_a_tournament_on_own_rules_brings_their_copy_and_frees_them():
    own = OwnRulesetFactory(based_on="puck", data=preset_data("puck") | {"name": "Zasady klubu"})
    own.data["placement"]["points"] = [9, 3, 2, 0]
    own.save()
    stored = TournamentFactory(own_ruleset=own, ruleset_preset="puck")
    exported = json.loads(json.dumps(export_tournament(stored)))
    replaced = import_tournament(exported, replacing=stored)
    assert (replaced.pk, own_ruleset_of(replaced)) == (stored.pk, None)
    assert tournament_ruleset(Tournament.objects.get(pk=stored.pk)).placement.points == (9, 3, 2, 0)
    own.delete()
    assert export_tournament(Tournament.objects.get(pk=stored.pk))["tournament"] == exported["tournament"]

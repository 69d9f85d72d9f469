"""Test data builders (factory_boy)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from players.models import Club, Gender, Player, Team, TeamMember
from scoring import SEATS

# --- players ---------------------------------------------------------------


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.django.Password("test-password")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"KS Baśka {n}")
    city = "Kartuzy"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Faker("first_name", locale="pl_PL")
    last_name = factory.Sequence(lambda n: f"Kowalski{n}")
    gender = Gender.MAN
    club = factory.SubFactory(ClubFactory)


class TeamFactory(factory.django.DjangoModelFactory):
    """A team; ``TeamFactory(members=4)`` also adds four new players and makes
    the first one captain (pass ``members=[...]`` to use existing players)."""

    class Meta:
        model = Team
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Drużyna {n}")
    club = factory.SubFactory(ClubFactory)

    @factory.post_generation
    def members(team: Team, create: bool, extracted, **kwargs) -> None:
        if not create or not extracted:
            return
        players = (
            PlayerFactory.create_batch(extracted, club=team.club) if isinstance(extracted, int) else list(extracted)
        )
        for player in players:
            TeamMember.objects.create(team=team, player=player)
        team.captain = players[0]
        team.save()


class TeamMemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TeamMember

    team = factory.SubFactory(TeamFactory)
    player = factory.SubFactory(PlayerFactory)


# --- league: tournaments and registrations ----------------------------------


class LeagueFactory(factory.django.DjangoModelFactory):
    """A league (liga) with no organisers: add them with ``league.organisers.add(user)``."""

    class Meta:
        model = "league.League"

    name = factory.Sequence(lambda n: f"Złota Liga {n}")
    slug = factory.Sequence(lambda n: f"zlota-liga-{n}")


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "league.Season"

    name = factory.Sequence(lambda n: f"Liga Baśki {n}")
    slug = factory.Sequence(lambda n: f"liga-{n}")
    year = 2026


def _game_settings(factory_params) -> dict:
    """The factory's settings (``ruleset_preset=``, ``pulka_total=`` …) as the tournament's game stores them."""
    from league.games import game_rules

    settings = game_rules(factory_params.game).settings_class()
    values = {
        "ruleset_preset": factory_params.ruleset_preset,
        "ruleset_data": factory_params.ruleset_data,
        "deals_per_series": factory_params.deals_per_series,
        "pulka_variant": factory_params.pulka_variant,
        "pulka_total": factory_params.pulka_total,
        # a Preferans tournament's file names the rules and deals it was given, as it always has
        "file_ruleset": factory_params.ruleset_preset,
        "file_deals_per_series": factory_params.deals_per_series,
    }
    return settings.changed(values).stored()


def game_settings(tournament):
    """The tournament's settings of its game, read through the game as the app reads them."""
    from league.games import game_of

    return game_of(tournament).settings(tournament)


def game_settings_set(tournament, **values) -> None:
    """Put ``values`` (by setting name: ``deals_per_series=4``) into the tournament's settings of
    its game, in memory (save the tournament to keep them)."""
    from league.games import game_of

    tournament.game_settings = game_of(tournament).settings_with(tournament, values).stored()


class TournamentFactory(factory.django.DjangoModelFactory):
    """A tournament on the puck preset; the draw services create its series on demand. Its game's
    settings are given by name (``ruleset_preset=``, ``deals_per_series=``, ``pulka_total=`` …)."""

    class Meta:
        model = "league.Tournament"
        skip_postgeneration_save = True

    class Params:
        ruleset_preset = "puck"
        ruleset_data = None
        deals_per_series = 40
        pulka_variant = "sochi"
        pulka_total = 20

    name = factory.Sequence(lambda n: f"Turniej {n}")
    slug = factory.Sequence(lambda n: f"turniej-{n}")
    date = factory.Faker("date_this_year")
    venue = "Puck"
    game = "baska"
    series_count = 3
    game_settings = factory.LazyAttribute(_game_settings)

    @factory.post_generation
    def own_ruleset(tournament, create, ruleset, **kwargs):
        """``own_ruleset=``: the own rules a Baśka tournament plays by, kept in Baśka's table."""
        if ruleset is None:
            return
        from league.games.baska.settings import own_ruleset_hold, own_ruleset_set

        (own_ruleset_set if create else own_ruleset_hold)(tournament=tournament, ruleset=ruleset)


class PreferansTournamentFactory(TournamentFactory):
    """A Preferans tournament: Sochi pulkas to 10 at tables of four (``table_size=3`` for three)."""

    class Params:
        pulka_variant = "sochi"
        pulka_total = 10

    game = "preferans"
    table_size = 4
    series_count = 2


class RegistrationFactory(factory.django.DjangoModelFactory):
    """A present individual player; pass ``team=`` for a team player."""

    class Meta:
        model = "league.Registration"

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    team = None
    checked_in = True


def register_teams(tournament, *, teams: int, size: int = 4, individuals: int = 0) -> list:
    """Register ``teams`` new teams of ``size`` plus ``individuals``, all present; returns the registrations."""
    registrations = []
    for _ in range(teams):
        team = TeamFactory(members=size)
        registrations += [
            RegistrationFactory(tournament=tournament, player=member.player, team=team)
            for member in team.memberships.all()
        ]
    registrations += RegistrationFactory.create_batch(individuals, tournament=tournament)
    return registrations


# --- results: drawn series, seats and protocols ------------------------------


class SeriesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "league.Series"
        django_get_or_create = ("tournament", "number")

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    status = "drawn"


class TableAssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "league.TableAssignment"

    series = factory.SubFactory(SeriesFactory)
    table = 1
    seat = "A"
    player = factory.SubFactory(PlayerFactory)


class ByeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "league.Bye"

    series = factory.SubFactory(SeriesFactory)
    player = factory.SubFactory(PlayerFactory)


def table_protocols(series) -> list:
    """One protocol (with its PIN) for each seated table of ``series``, as the draw makes them; in table order."""
    from league.results.models import Protocol

    tables = series.assignments.values_list("table", flat=True).distinct().order_by("table")
    return [Protocol.objects.get_or_create(series=series, table=table)[0] for table in tables]


def drawn_series(tournament=None, *, tables: int = 1, number: int = 1, **series_fields):
    """A drawn series with ``tables`` tables of new players at seats A–D (A–C at a Preferans
    table of three), and their protocols."""
    series = SeriesFactory(tournament=tournament or TournamentFactory(), number=number, **series_fields)
    for table in range(1, tables + 1):
        for seat in series.tournament.seats:
            TableAssignmentFactory(series=series, table=table, seat=seat)
    table_protocols(series)
    return series


def pulka_entered(protocol, entries, user, **kwargs):
    """A Preferans table's pulka ``entries`` saved one by one as the referee's page saves them; the protocol after."""
    from league.results import services

    for entry in entries:
        protocol = services.protocol_row_save(
            protocol=protocol,
            number=protocol.rows.count() + 1,
            deal=entry,
            expected_version=protocol.version,
            user=user,
            **kwargs,
        )
    return protocol


def played_series(tournament, number: int, tables, *, byes=(), status: str = "closed"):
    """A series with results: ``tables`` lists each table's four ``(player, small points)``
    at seats A–D, recorded as one deal of those values; ``byes`` sit the series out."""
    from league.models import Bye
    from league.results.models import DealRow, Protocol
    from league.standings.refresh import standings_touch

    # a series with saved deals is past its draw: results_entered, as the first saved row makes it
    series = SeriesFactory(tournament=tournament, number=number, status=status, results_entered=True)
    for table, seats in enumerate(tables, start=1):
        protocol = Protocol.objects.create(series=series, table=table, status="confirmed")
        values = {}
        for seat, (player, points) in zip(SEATS, seats, strict=True):
            TableAssignmentFactory(series=series, table=table, seat=seat, player=player)
            values[seat] = points
        DealRow.objects.create(
            protocol=protocol,
            number=1,
            deal={"values": values},
            **{f"value_{seat.lower()}": points for seat, points in values.items()},
        )
    for player in byes:
        Bye.objects.create(series=series, player=player)
    standings_touch(tournament_id=tournament.pk)  # as closing the series does
    return series


def tournament_form_data(**changes) -> dict:
    """What the organiser's create screen posts for a puck tournament of 3 series of 40 deals."""
    return {
        "name": "Puchar Wójta",
        "date": "2026-03-14",
        "ruleset_preset": "puck",
        "series_count": 3,
        "deals_per_series": 40,
        "team_ranking": "sum",
        "team_best_of": 3,
        **changes,
    }


# --- own rulesets --------------------------------------------------------------


class OwnRulesetFactory(factory.django.DjangoModelFactory):
    """An organiser's own ruleset: a copy of the psb preset under its own name."""

    class Meta:
        model = "rulesets.OwnRuleset"

    name = factory.Sequence(lambda n: f"Zasady klubu {n}")
    based_on = "psb"
    owner = factory.SubFactory(UserFactory)
    data = factory.LazyAttribute(lambda r: preset_data(r.based_on) | {"name": r.name})


def preset_data(preset: str) -> dict:
    """The JSON of a scoring preset, complete with the engine's defaults."""
    import scoring

    return scoring.ruleset_to_dict(scoring.load_ruleset(preset))


def ruleset_form_data(ruleset, **changes) -> dict:
    """What the ruleset editor posts for ``ruleset`` unchanged, with ``changes`` (field name: value;
    None leaves a field out, as an unticked box is)."""
    from league.games.baska.rulesets.forms import RulesetForm

    form = RulesetForm(owner=ruleset.owner, instance=ruleset)
    data = {}
    for name, field in form.fields.items():
        value = changes.get(name, form.initial.get(name, field.initial))
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    return data | {name: value for name, value in changes.items() if name not in form.fields}

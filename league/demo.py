"""The demo league: clubs, players, teams, one league (liga) holding this year's season and its
tournaments, one of them still to come in its calendar, two past seasons of small played
tournaments where the same regulars come back, an evening of the other game (its own demo,
``league.games.preferans.demo``) and a coming tournament open for online sign-ups. Each game plays
its own rows (``league.games.<game>.demo``).

Built through the same services an organiser uses, from a fixed random seed, so
every newcomer sees the same league. Used by ``manage.py load_demo``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta

from django.contrib.auth.models import Group, Permission, User
from django.db import transaction
from django.utils import timezone

from league.games.baska.demo import play_protocol
from league.games.preferans.demo import demo_evening
from league.leagues.services import league_create
from league.models import League, Season, Series, Tournament
from league.results import services as results
from league.seasons.services import season_create
from league.signups.forms import new_form_token
from league.signups.services import signup_create, signup_window_save, signups_confirm
from league.tournaments.draws import series_draw
from league.tournaments.registrations import registration_create
from league.tournaments.services import tournament_create
from players.models import Club, Player, Team
from players.services import club_create, player_create, team_create

DEMO_PASSWORD = "baska-demo"
SEED = 2026

CLUBS = [
    ("GKS Puck", "Puck"),
    ("Klub Baśki Kościerzyna", "Kościerzyna"),
    ("Kaszëbë Kartuzy", "Kartuzy"),
    ("Piast Gorzów Wlkp.", "Gorzów Wielkopolski"),
    ("Gryf Wejherowo", "Wejherowo"),
]
WOMEN = ["Anna", "Małgorzata", "Żaneta", "Bożena", "Jadwiga", "Elżbieta", "Grażyna", "Teresa", "Urszula", "Halina"]
MEN = ["Józef", "Stanisław", "Zbigniew", "Łukasz", "Jarosław", "Kazimierz", "Mirosław", "Grzegorz", "Paweł", "Wojciech"]
SURNAMES = [
    ("Formela", "Formela"),
    ("Bork", "Bork"),
    ("Hinz", "Hinz"),
    ("Lewańczyk", "Lewańczyk"),
    ("Gruchała", "Gruchała"),
    ("Pioch", "Pioch"),
    ("Stenka", "Stenka"),
    ("Kreft", "Kreft"),
    ("Bigus", "Bigus"),
    ("Czapp", "Czapp"),
    ("Labuda", "Labuda"),
    ("Treder", "Treder"),
    ("Kwidziński", "Kwidzińska"),
    ("Pobłocki", "Pobłocka"),
    ("Mielewczyk", "Mielewczyk"),
    ("Wenta", "Wenta"),
    ("Grzenia", "Grzenia"),
    ("Recław", "Recław"),
    ("Jereczek", "Jereczek"),
    ("Kąkol", "Kąkol"),
    ("Konkel", "Konkel"),
    ("Żmuda", "Żmuda"),
    ("Dawidowski", "Dawidowska"),
    ("Szczepański", "Szczepańska"),
]
TEAM_NAMES = [
    "Kaszëbë Puck",
    "Gwiazda Morza",
    "Czarne Damy",
    "Korona Baśki",
    "Méster Kartuzy",
    "Rëbôk Kościerzyna",
    "Gryfici",
    "Stare Damy",
    "Młodzi Wilcy",
    "Hirsz Wejherowo",
]


def play_series(rng: random.Random, series: Series, *, deals: int, close: bool) -> None:
    """Enter ``deals`` deals at every table of ``series``; with ``close`` also finish every
    protocol and close the series."""
    referee = series.tournament.referees.first()
    for protocol in series.protocols.select_related("series__tournament").order_by("table"):
        play_protocol(rng, protocol, deals=deals, referee=referee, finish=close)
    if close:
        results.series_close(series=series)


def _organiser_group() -> Group:
    group, _ = Group.objects.get_or_create(name="Organizatorzy")
    group.permissions.set(
        Permission.objects.filter(
            content_type__app_label__in=["players", "league", "results", "printing"],
        )
    )
    return group


def _user(username: str, first: str, last: str) -> User:
    return User.objects.create_user(username, password=DEMO_PASSWORD, first_name=first, last_name=last)


def _players(rng: random.Random, clubs: list[Club], count: int) -> list[Player]:
    players = []
    names = set()
    while len(players) < count:
        woman = rng.random() < 0.4
        first = rng.choice(WOMEN if woman else MEN)
        male_surname, female_surname = rng.choice(SURNAMES)
        last = female_surname if woman else male_surname
        if (first, last) in names:
            continue
        names.add((first, last))
        players.append(
            player_create(first_name=first, last_name=last, gender="F" if woman else "M", club=rng.choice(clubs))
        )
    return players


@transaction.atomic
def load_demo() -> dict[str, str]:
    """Create the demo league; returns the demo accounts (user name → role)."""
    rng = random.Random(SEED)
    organiser = _user("organizator", "Ewa", "Organizatorska")
    organiser.groups.add(_organiser_group())
    referee = _user("sedzia", "Jan", "Sędziowski")

    clubs = [club_create(name=name, city=city) for name, city in CLUBS]
    players = _players(rng, clubs, 48)
    teams = []
    for index, name in enumerate(TEAM_NAMES):
        members = players[index * 4 : index * 4 + 4]
        teams.append(team_create(name=name, members=members, captain=members[0], club=members[0].club))

    league = league_create(
        user=organiser,
        name="Liga Baśki Kaszuby",
        description="Turnieje Baśki na Kaszubach: Puck, Kościerzyna, Kartuzy i Wejherowo, raz w miesiącu.",
    )
    for year, tournaments in PAST_SEASONS.items():
        _past_season(organiser, referee, league, teams, year=year, tournaments=tournaments)
    season = _season(organiser, league, year=2026, best_of=3)
    spring = tournament_create(
        user=organiser,
        name="Turniej o Puchar Wójta Gminy Puck",
        ruleset_preset="puck",
        date=date(2026, 3, 14),
        venue="Puck, Dom Kultury",
        organiser_name="Pucka Liga Baśki",
        league=league,
        season=season,
        series_count=3,
        deals_per_series=40,
        published=True,
        time_limit_minutes=55,
        team_ranking=Tournament._meta.get_field("team_ranking").default,
    )
    # 10 teams of 4 and 6 individuals: 46 players, so two byes each series.
    first, second, third = _drawn(spring, organiser, referee, members=_members(teams), individuals=players[40:46])
    play_series(rng, first, deals=40, close=True)
    play_series(rng, second, deals=40, close=True)
    play_series(rng, third, deals=12, close=False)  # the evening is still going on

    autumn = tournament_create(
        user=organiser,
        name="Mistrzostwa Kościerzyny w Baśce",
        ruleset_preset="gorzow",
        date=date(2026, 12, 5),
        start_time=time(10, 0),
        venue="Kościerzyna, Klub Baśki",
        organiser_name="Klub Baśki Kościerzyna",
        league=league,
        season=season,
        series_count=4,
        deals_per_series=20,
        published=True,
    )
    autumn.referees.add(referee)
    for member in _members(teams[:6]):
        registration_create(tournament=autumn, player=member)
    # its own random numbers, so the tournaments above stay as they always were
    demo_evening(
        organiser=organiser, referee=referee, players=players[36:48], league=league, drawn=_drawn, seed=SEED + 1
    )
    _tournament_open_for_signups(organiser, players[:3], league)
    return {"organizator": "organiser", "sedzia": "referee"}


def _members(teams: list[Team]) -> list[Player]:
    """The players of ``teams``, team by team."""
    return [member for team in teams for member in team.members.all()]


def _drawn(
    tournament: Tournament,
    organiser: User,
    referee: User,
    *,
    members: Sequence[Player] = (),
    individuals: Sequence[Player] = (),
) -> list[Series]:
    """Give ``tournament`` its referee, register ``members`` for their teams and ``individuals``
    for none, everyone checked in with the fee paid, draw every series and publish the draw;
    returns the series in order."""
    tournament.referees.add(referee)
    for player in members:
        registration_create(tournament=tournament, player=player)
    for player in individuals:
        registration_create(tournament=tournament, player=player, individual=True)
    tournament.registrations.update(checked_in=True, fee_paid=True)
    series_draw(tournament=tournament, numbers="all", seed=SEED, user=organiser)
    tournament.draw_published = True
    tournament.save(update_fields=["draw_published"])
    return list(tournament.series.order_by("number"))


def _season(organiser: User, league: League, *, year: int, best_of: int) -> Season:
    """The league's season (sezon) of ``year``, counting each player's best ``best_of`` tournaments."""
    return season_create(
        user=organiser,
        name="Liga Baśki Kaszuby",
        slug=f"liga-kaszuby-{year}",
        year=year,
        best_of=best_of,
        league=league,
    )


# Where the league plays: the venue and the club that organises there.
VENUES = {
    "Puck": ("Puck, Dom Kultury", "Pucka Liga Baśki"),
    "Kartuzy": ("Kartuzy, Kaszubski Dom Kultury", "Kaszëbë Kartuzy"),
    "Kościerzyna": ("Kościerzyna, Klub Baśki", "Klub Baśki Kościerzyna"),
    "Wejherowo": ("Wejherowo, Gryf", "Gryf Wejherowo"),
}
# The league's past seasons: small tournaments (name, preset, day, town), all played out.
PAST_SEASONS = {
    2024: [
        ("Turniej Wiosenny w Kartuzach", "pomorska", date(2024, 4, 20), "Kartuzy"),
        ("Jesienna Baśka w Pucku", "puck", date(2024, 10, 12), "Puck"),
    ],
    2025: [
        ("Turniej o Puchar Gryfa", "pomorska", date(2025, 3, 8), "Wejherowo"),
        ("Letnia Baśka w Kościerzynie", "gorzow", date(2025, 6, 14), "Kościerzyna"),
        ("Turniej Andrzejkowy w Pucku", "puck", date(2025, 11, 29), "Puck"),
    ],
}
PAST_SERIES = 2
PAST_DEALS = 16
PAST_TEAMS = 4


def _past_season(
    organiser: User,
    referee: User,
    league: League,
    teams: list[Team],
    *,
    year: int,
    tournaments: list[tuple[str, str, date, str]],
) -> Season:
    """A season of ``year`` whose ``tournaments`` were all played out: at each, the first team (the
    league's regulars) and three others drawn from the next five, ``PAST_SERIES`` closed series of
    ``PAST_DEALS`` deals; the season counts each player's best two."""
    # its own random numbers, so this year's tournaments stay as they always were
    rng = random.Random(SEED - year)
    season = _season(organiser, league, year=year, best_of=2)
    for name, preset, day, town in tournaments:
        venue, organiser_name = VENUES[town]
        tournament = tournament_create(
            user=organiser,
            name=name,
            ruleset_preset=preset,
            date=day,
            venue=venue,
            organiser_name=organiser_name,
            league=league,
            season=season,
            series_count=PAST_SERIES,
            deals_per_series=PAST_DEALS,
            published=True,
        )
        playing = [teams[0], *rng.sample(teams[1:6], PAST_TEAMS - 1)]
        for series in _drawn(tournament, organiser, referee, members=_members(playing)):
            play_series(rng, series, deals=PAST_DEALS, close=True)
    return season


def _tournament_open_for_signups(organiser: User, regulars: list[Player], league: League) -> Tournament:
    """A tournament three weeks from the day the demo is loaded, open for online sign-ups (closing
    two days before it), with 16 places and a waiting list: three regulars of the register signed
    up, one of them confirmed, and a newcomer who typed her name and e-mail address."""
    day = timezone.localdate() + timedelta(days=21)
    tournament = tournament_create(
        user=organiser,
        name="Turniej Mikołajkowy w Baśce",
        ruleset_preset="pomorska",
        date=day,
        start_time=time(10),
        league=league,
        venue="Kartuzy, Kaszubski Dom Kultury",
        organiser_name="Kaszëbë Kartuzy",
        series_count=3,
        deals_per_series=20,
        published=True,
    )
    signup_window_save(
        tournament=tournament,
        user=organiser,
        page="demo",
        is_open=True,
        closes_at=timezone.make_aware(datetime.combine(day - timedelta(days=2), time(20))),
        capacity=16,
        waiting_list=True,
        note="Wpisowe 20 zł, płatne na miejscu. Start o 10:00, zapisy na sali do 9:45.",
    )
    common = {"tournament": tournament, "page": "demo", "gender": "", "first_name": "", "last_name": ""}
    signups = [
        signup_create(**common, form_token=new_form_token(), player=player, phone="600 100 200")[0]
        for player in regulars
    ]
    signup_create(
        **common | {"first_name": "Grażyna", "last_name": "Kiedrowska", "gender": "F"},
        form_token=new_form_token(),
        email="grazyna.kiedrowska@example.org",
    )
    signups_confirm(tournament=tournament, choices=[(signups[0], None)], user=organiser, page="demo")
    return tournament


def demo_exists() -> bool:
    return User.objects.filter(username="organizator").exists() or Team.objects.exists()

"""The demo league: clubs, players, teams, a season and its tournaments.

Built through the same services an organiser uses, from a fixed random seed, so
every newcomer sees the same league. Used by ``manage.py load_demo``.
"""

from __future__ import annotations

import random
from datetime import date

from django.contrib.auth.models import Group, Permission, User
from django.db import transaction

import scoring
from league.models import Season, Series, Tournament
from league.results import services as results
from league.results.models import Protocol
from league.results.selectors import protocol_sheet, sheet_totals
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
    "Zolo-Du Kościerzyna",
    "Gryfici",
    "Stare Damy",
    "Młodzi Wilcy",
    "Hirsz Wejherowo",
]


# How often each contract comes up at a real table, roughly.
CONTRACT_WEIGHTS = {
    "zwykla": 62,
    "wesele": 8,
    "cicha": 5,
    "zolo": 10,
    "gran": 6,
    "zolo_du": 2,
    "gran_du": 2,
    "zolo_bieda": 2,
    "mester": 2,
    "baska": 1,
}


def random_deal(rng: random.Random, ruleset: scoring.Ruleset) -> dict:
    """A plausible deal that ``ruleset`` accepts, as a referee would type it."""
    while True:
        contract = rng.choices(list(CONTRACT_WEIGHTS), weights=list(CONTRACT_WEIGHTS.values()))[0]
        rule = ruleset.contract(contract)
        if rule is None:
            continue
        pair = contract in scoring.PAIR_CONTRACTS
        deal: dict = {"contract": contract, "old": sorted(rng.sample(scoring.SEATS, 2 if pair else 1))}
        if rule.thrown:
            return deal
        doublings = rng.choices(range(rule.max_doublings + 1), weights=[24, 6, 2, 1, 1][: rule.max_doublings + 1])[0]
        # kontras alternate; in a solo game the young give the first one
        deal["kontras"] = [("young", "old")[i % 2] for i in range(doublings)]
        deal["old_eyes"] = rng.choice(
            [rng.randint(0, 104), rng.randint(40, 75), rng.randint(40, 75), 104 if rule.needs_all_tricks else 60]
        )
        try:
            scoring.score_deal(deal, ruleset)
        except scoring.ScoringError:
            continue
        return deal


def play_protocol(
    rng: random.Random, protocol: Protocol, *, deals: int, referee: User | None, finish: bool
) -> Protocol:
    """Enter ``deals`` plausible deals into ``protocol`` as ``referee``, through the results services;
    with ``finish`` also enter the paper's totals, mark it complete and confirm it."""
    ruleset = protocol.series.tournament.ruleset()
    for number in range(1, deals + 1):
        protocol = results.protocol_row_save(
            protocol=protocol,
            number=number,
            deal=random_deal(rng, ruleset),
            expected_version=protocol.version,
            user=referee,
        )
    if finish:
        totals = sheet_totals(protocol_sheet(protocol=protocol))
        protocol = results.protocol_totals_set(
            protocol=protocol, totals=totals, expected_version=protocol.version, user=referee
        )
        protocol = results.protocol_complete(protocol=protocol, expected_version=protocol.version, user=referee)
        protocol = results.protocol_confirm(
            protocol=protocol, seat="B", expected_version=protocol.version, user=referee
        )
    return protocol


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

    season = Season.objects.create(name="Liga Baśki Kaszuby", slug="liga-kaszuby-2026", year=2026, best_of=3)
    spring = tournament_create(
        user=organiser,
        name="Turniej o Puchar Wójta Gminy Puck",
        ruleset_preset="puck",
        date=date(2026, 3, 14),
        venue="Puck, Dom Kultury",
        organiser_name="Pucka Liga Baśki",
        season=season,
        series_count=3,
        deals_per_series=40,
        published=True,
        time_limit_minutes=55,
        team_ranking=Tournament._meta.get_field("team_ranking").default,
    )
    spring.referees.add(referee)
    # 10 teams of 4 and 6 individuals: 46 players, so two byes each series.
    for team in teams:
        for member in team.members.all():
            registration_create(tournament=spring, player=member)
    for player in players[40:46]:
        registration_create(tournament=spring, player=player, individual=True)
    spring.registrations.update(checked_in=True, fee_paid=True)
    series_draw(tournament=spring, numbers="all", seed=SEED, user=organiser)
    spring.draw_published = True
    spring.save(update_fields=["draw_published"])
    first, second, third = spring.series.order_by("number")
    play_series(rng, first, deals=40, close=True)
    play_series(rng, second, deals=40, close=True)
    play_series(rng, third, deals=12, close=False)  # the evening is still going on

    autumn = tournament_create(
        user=organiser,
        name="Mistrzostwa Kościerzyny w Baśce",
        ruleset_preset="gorzow",
        date=date(2026, 12, 5),
        venue="Kościerzyna, Klub Baśki",
        organiser_name="Klub Baśki Kościerzyna",
        season=season,
        series_count=4,
        deals_per_series=20,
        published=True,
    )
    autumn.referees.add(referee)
    for team in teams[:6]:
        for member in team.members.all():
            registration_create(tournament=autumn, player=member)
    return {"organizator": "organiser", "sedzia": "referee"}


def demo_exists() -> bool:
    return User.objects.filter(username="organizator").exists() or Team.objects.exists()

"""Reads of the seasons' screens: whose seasons, which tournaments may join one, and how a
season adds up its tournaments in words for its public page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet
from django.utils.formats import localize
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.games import game_of, linked_related, registered_games
from league.models import Season, SeasonScheme, SeasonVersion, Tournament
from league.ranking_lists import points
from players.names import name_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    User = AbstractBaseUser | AnonymousUser

# places named one by one in the page's sentence before "…" and the last place
PLACES_SHOWN = 3


def is_season_organiser(*, user: User, season: Season) -> bool:
    """A superuser, one of the season's organisers or of its league's: only they change a season."""
    return user.is_authenticated and (
        user.is_superuser or Season.objects.filter(_organised_by(user), pk=season.pk).exists()
    )


def _organised_by(user: AbstractBaseUser) -> Q:
    return Q(organisers=user) | Q(league__organisers=user)


def season_list(*, user: AbstractBaseUser) -> QuerySet[Season]:
    """The seasons the user organises, themself or through their league (a superuser: all),
    newest first, with their tournament counts."""
    seasons = Season.objects.all()
    if not user.is_superuser:  # by a subquery: joined here, the organisers would multiply the counts
        seasons = seasons.filter(pk__in=Season.objects.filter(_organised_by(user)).values("pk"))
    return seasons.annotate(
        tournament_count=Count("tournaments"),
        counted_count=Count("tournaments", filter=Q(tournaments__counts_for_season=True)),
    ).order_by("-year", "name", "pk")


def season_tournaments_all(*, season: Season) -> QuerySet[Tournament]:
    """Every tournament of the season, drafts and uncounted ones too, in date order."""
    return season.tournaments.order_by("date", "pk")


def season_mixed_rules_warning(*, season: Season) -> str | None:
    """The warning of a season adding up small points whose counted tournaments play under several
    rules of a game where one deal earns different small points under each
    (``GameRules.small_points_by_rules``): such a season compares what does not compare (``None``
    when it does not)."""
    if season.scheme != SeasonScheme.SMALL:
        return None
    games = [game.key for game in registered_games().values() if game.small_points_by_rules]
    counted = season.tournaments.filter(counts_for_season=True, game__in=games).select_related(*linked_related())
    names = sorted({game_of(tournament).standing_rules(tournament).name for tournament in counted}, key=name_key)
    if len(names) < 2:
        return None
    return _(
        "The season's tournaments play under different rules (%(rules)s), and it adds up small points, "
        "which the same deal earns differently under each: count big points or points for places instead."
    ) % {"rules": ", ".join(names)}


def attachable_tournaments(*, user: AbstractBaseUser, season: Season) -> QuerySet[Tournament]:
    """The tournaments ``user`` organises, themself or through their league (a superuser: all),
    of the season's league (or outside any league, as the season is), not yet in ``season``, newest
    first, with the season each is in now."""
    tournaments = Tournament.objects.filter(league=season.league_id)
    if not user.is_superuser:
        tournaments = tournaments.filter(pk__in=Tournament.objects.filter(_organised_by(user)).values("pk"))
    return (
        tournaments.filter(Q(season__isnull=True) | ~Q(season=season))
        .select_related("season")
        .order_by("-date", "name")
    )


def season_scheme_sentence(*, season: Season, tournament_count: int) -> str:
    """How the season adds up its ``tournament_count`` counted tournaments, in one sentence
    for its page: "Sezon liczony według punktów za miejsca (PSB): 1. miejsce 100 pkt, …;
    liczą się 3 najlepsze wyniki z 5 turniejów"."""
    if season.scheme == SeasonScheme.SMALL:
        sentence = _("The season adds up the small points of its tournaments")
    elif season.scheme == SeasonScheme.BIG:
        sentence = _("The season adds up the big points of its tournaments, small points deciding ties")
    else:
        sentence = _("The season counts points for places (PSB): %(places)s; only a positive result is placed") % {
            "places": places_text(season.place_points)
        }
        if season.team_place_points:
            sentence += _("; teams: %(places)s") % {"places": places_text(season.team_place_points)}
    if season.best_of:
        sentence += ngettext(
            "; each player's and team's best result counts (tournaments in the season: %(count)s)",
            "; each player's and team's best %(best)s results count (tournaments in the season: %(count)s)",
            season.best_of,
        ) % {"best": season.best_of, "count": tournament_count}
    return sentence + "."


def places_text(place_points: list[float]) -> str:
    """A places-to-points table in words: the first places one by one, then "…" and the last."""
    if not place_points:
        return _("no points for places set")

    def place(number: int) -> str:
        # "pts" and "pkt" do not change with the number, which may be a fraction (0,5 pkt)
        value = localize(points(place_points[number - 1]))
        return _("place %(place)s: %(points)s pts") % {"place": number, "points": value}

    shown = [place(n) for n in range(1, min(len(place_points), PLACES_SHOWN) + 1)]
    if len(place_points) > PLACES_SHOWN:
        shown.append("…")
        shown.append(place(len(place_points)))
    return ", ".join(shown)


# the newest changes the season's page lists; a season of a year has a few dozen
HISTORY_SHOWN = 50


def _shown(value: object) -> str:
    if isinstance(value, list):
        return "; ".join(localize(v) for v in value) or "—"
    return "—" if value in (None, "") else str(localize(value))


def season_history(*, season: Season) -> list[dict[str, str]]:
    """The season's changes, newest first, in words: when, who, what and why; a change of settings
    names each setting with its value before and after."""
    rows = []
    for version in season.history.select_related("user")[:HISTORY_SHOWN]:
        if version.action == SeasonVersion.Action.CHANGE:
            details = "; ".join(
                f"{Season._meta.get_field(name).verbose_name}: {_shown(old)} → {_shown(version.new[name])}"
                for name, old in version.old.items()
            )
        elif version.action == SeasonVersion.Action.COUNT:
            counts = version.new["counts"]
            details = f"{version.new['name']}: " + (_("counts") if counts else _("does not count"))
        elif version.action in (SeasonVersion.Action.ATTACH, SeasonVersion.Action.DETACH):
            details = (version.new or version.old)["name"]
        else:
            details = ""
        rows.append(version.line(details))
    return rows

"""The ranking lists (klasyfikacje) a tournament has: their keys, titles and publish flags,
and how their points print.

Every page, printed sheet and JSON body that shows standings walks this one
tuple, so a list's title or the flag that publishes it is defined once. The
standings compute the lists (``league.standings``); the forms that set the
flags and the rooms that show the lists read this vocabulary alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league.figures import whole_or_rounded
from league.models import Tournament
from players.models import Gender


@dataclass(frozen=True)
class RankingList:
    """One ranking list: ``key`` as in ``standings --json`` (docs/interfaces.md §4),
    the title it is shown under, and the Tournament flag that publishes it."""

    key: str
    title: Promise
    publish_field: str
    gender: str | None = None  # a women's or men's list counts only those players
    teams: bool = False

    def published(self, tournament: Tournament) -> bool:
        """Whether the organiser has chosen to publish this list."""
        return getattr(tournament, self.publish_field)


INDIVIDUAL = RankingList("individual", _("Individual ranking"), "publish_individual")
WOMEN = RankingList("women", _("Women's ranking"), "publish_women", gender=Gender.WOMAN)
MEN = RankingList("men", _("Men's ranking"), "publish_men", gender=Gender.MAN)
TEAMS = RankingList("teams", _("Team ranking"), "publish_teams", teams=True)

RANKING_LISTS = (INDIVIDUAL, WOMEN, MEN, TEAMS)
# a season adds up players and teams; women's and men's season tables are not kept
SEASON_LISTS = (INDIVIDUAL, TEAMS)
BY_KEY = {ranking_list.key: ranking_list for ranking_list in RANKING_LISTS}
# The Tournament flags that publish the lists, in list order, for the forms that set them.
PUBLISH_FIELDS = [ranking_list.publish_field for ranking_list in RANKING_LISTS]


def published_lists(tournament: Tournament) -> list[RankingList]:
    """The lists the organiser publishes, in their order."""
    return [ranking_list for ranking_list in RANKING_LISTS if ranking_list.published(tournament)]


def points(value: float) -> float | int:
    """Big points as the standings print them: whole where whole (14, 14.5), else
    rounded to hundredths (half away from zero), so shared thirds print as 3.33."""
    return whole_or_rounded(value, 2)

"""The ratings (``league.rating.compute``) kept as rows, one per person and series played, so a
player's rating, its history and the rating list are reads, never a recomputation.

The rows are derived: ``league.rating.services`` rewrites them from the series whose inputs
changed on (a series closed, reopened or corrected, a merge), and ``manage.py rebuild_ratings``
writes all of them again; the same history gives the same rows. They are not exported
(the exchange file carries results, not what is computed from them).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.rating.compute import Skill, displayed


class Rating(models.Model):
    """Wartość rankingowa (a player's rating) in one game after one series they played at a table:
    the skill (``mu``, ``sigma``) and the series it rests on, where they sat, the place the ratings
    before the series expected at that table and the place they took. ``date``, ``tournament`` and
    ``number`` repeat the series' place in time, the order of the history; ``latest`` marks each
    player's last row in each game, the one the rating list shows."""

    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    series = models.ForeignKey(
        "league.Series", verbose_name=_("series"), on_delete=models.CASCADE, related_name="ratings"
    )
    tournament = models.ForeignKey(
        "league.Tournament", verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="+"
    )
    date = models.DateField(_("date"))
    number = models.PositiveSmallIntegerField(_("series"))
    game = models.CharField(_("game"), max_length=10)  # the key of an installed game (league.games)
    table = models.PositiveSmallIntegerField(_("table"))
    mu = models.FloatField()
    sigma = models.FloatField()
    series_count = models.PositiveIntegerField(_("series played"))
    expected_place = models.PositiveSmallIntegerField(_("expected place"))
    place = models.PositiveSmallIntegerField(_("place at the table"))
    latest = models.BooleanField(default=False)

    class Meta:
        ordering = ["date", "tournament", "number"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["player", "series"], name="rating_one_per_series")]
        indexes = [
            models.Index(fields=["game", "latest"], name="rating_list_idx"),
            models.Index(fields=["player", "date", "tournament", "number"], name="rating_history_idx"),
            models.Index(fields=["date", "tournament"], name="rating_time_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.series_id}: {self.shown}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma, self.series_count)

    @property
    def shown(self) -> int:
        return displayed(self.mu, self.sigma)


class RatedTournament(models.Model):
    """What the ratings last read of one tournament: a ``digest`` of its matches and its ``date``,
    so a refresh finds whether anything changed, and from when (a moved date moves it in time)."""

    tournament = models.OneToOneField("league.Tournament", on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    digest = models.CharField(max_length=32)

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.digest}"

"""A player's results kept as rows, so that their page and the league's records read one row
per tournament instead of computing every tournament they ever played.

The standings themselves stay computed from the deals (``league.standings.compute``); a
:class:`PlayerResult` is what that computation said about one player in one published
tournament, stored under the tournament's standings stamp. The rows are rewritten for a whole
tournament when its stamp moves (a series closed, reopened or corrected: the recompute task,
``league.standings.summaries``) and can be rebuilt from the deals by ``manage.py
rebuild_statistics``, which must give the same rows.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PlayerResult(models.Model):
    """Wynik zawodnika (a player's result) in one tournament, as the public site shows it.

    ``ranked`` says whether the standings rank the player at all (a series of theirs counts);
    ``place`` and ``place_label`` are the player's entry of the individual ranking (empty where
    the tournament does not publish it); ``team`` the team they played for there (empty: as an
    individual), so a team's page reads its members' rows; ``series`` the series one by one as the player's page
    lists them (table, seat, opponents with their small points, place at the table, big points,
    penalties; a bye has no table); ``places`` the place after each series, for the chart;
    ``tally`` the deals' statistics (``league.standings.statistics``: deals, the game's own tallies,
    contracts played and won on the declaring side).
    """

    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="results")
    tournament = models.ForeignKey("league.Tournament", on_delete=models.CASCADE, related_name="player_results")
    team = models.ForeignKey(
        "players.Team", on_delete=models.SET_NULL, null=True, blank=True, related_name="player_results"
    )
    stamp = models.CharField(_("standings stamp"), max_length=32)
    ranked = models.BooleanField(_("ranked"), default=False)
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    place_label = models.CharField(_("place"), max_length=16, blank=True)
    big_points = models.FloatField(_("big points"), default=0)
    small_points = models.IntegerField(_("small points"), default=0)
    series = models.JSONField(_("series"), default=list, blank=True)
    places = models.JSONField(_("place after each series"), default=list, blank=True)
    tally = models.JSONField(_("deal statistics"), default=dict, blank=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("player's result")
        verbose_name_plural = _("players' results")
        constraints = [
            models.UniqueConstraint(fields=["player", "tournament"], name="standings_one_result_per_tournament"),
        ]
        indexes = [models.Index(fields=["player", "updated"], name="standings_result_player_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.tournament_id}: {self.place_label or '—'}"


class TeamResult(models.Model):
    """Wynik drużyny (a team's result) in one tournament: its entry of the team ranking, kept
    beside its players' rows under the same stamp, only where the tournament publishes that ranking."""

    team = models.ForeignKey("players.Team", on_delete=models.CASCADE, related_name="results")
    tournament = models.ForeignKey("league.Tournament", on_delete=models.CASCADE, related_name="team_results")
    stamp = models.CharField(_("standings stamp"), max_length=32)
    place = models.PositiveIntegerField(_("place"))
    place_label = models.CharField(_("place"), max_length=16)
    big_points = models.FloatField(_("big points"), default=0)
    small_points = models.IntegerField(_("small points"), default=0)

    class Meta:
        verbose_name = _("team's result")
        verbose_name_plural = _("teams' results")
        constraints = [
            models.UniqueConstraint(fields=["team", "tournament"], name="standings_one_team_result_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.team_id} @ {self.tournament_id}: {self.place_label}"


class TournamentStamp(models.Model):
    """Znacznik klasyfikacji (the standings' stamp) of one tournament: a token written anew, in the
    writer's own transaction, by every change its public standings depend on
    (``league.standings.refresh.standings_touch``). A page reads it to know whether what it keeps is
    current: one row, where the stamp used to be a scan of every row of the tournament.

    A tournament no write has touched yet has no row; its stamp is ``"0"``."""

    tournament = models.OneToOneField(
        "league.Tournament", on_delete=models.CASCADE, primary_key=True, related_name="standings_stamp"
    )
    token = models.CharField(_("stamp"), max_length=32)
    changed = models.DateTimeField(_("changed"))

    class Meta:
        verbose_name = _("standings stamp")
        verbose_name_plural = _("standings stamps")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.token}"

"""Własne zasady (own rules): an organiser's ruleset, kept as the JSON of ``scoring``.

An own ruleset starts as a copy of a preset (``based_on``) and can change every
setting ``scoring.parse_ruleset`` knows. Tournaments that use it read it live, so
it is locked once any of them has results: to change it then, copy it. Every
save keeps the previous data in an :class:`OwnRulesetVersion`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

import scoring
from league.history import HistoryRow


def preset_choices() -> list[tuple[str, str]]:
    """The presets an own ruleset may start from; a callable keeps them out of migrations."""
    return scoring.preset_choices()


class OwnRuleset(models.Model):
    name = models.CharField(_("name"), max_length=120)
    based_on = models.CharField(_("based on"), max_length=20, choices=preset_choices)
    data = models.JSONField(_("rules"))
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("owner"), related_name="own_rulesets", on_delete=models.PROTECT
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("own ruleset")
        verbose_name_plural = _("own rulesets")
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="rulesets_unique_name_per_owner")]

    def __str__(self) -> str:
        return self.name

    def ruleset(self) -> scoring.Ruleset:
        return scoring.parse_ruleset(self.data)


class TournamentOwnRuleset(models.Model):
    """The own rules a Baśka tournament plays by instead of a preset: one row per such tournament,
    rather than a setting of the game, so that the database refuses to delete rules a tournament
    plays by (``PROTECT``). Written and read only through Baśka's settings
    (``league.games.baska.settings``: ``own_ruleset_of``, ``own_ruleset_set``)."""

    tournament = models.OneToOneField(
        "league.Tournament", verbose_name=_("tournament"), related_name="own_rules", on_delete=models.CASCADE
    )
    ruleset = models.ForeignKey(
        OwnRuleset, verbose_name=_("own rules"), related_name="played_by", on_delete=models.PROTECT
    )

    class Meta:
        verbose_name = _("own rules of a tournament")
        verbose_name_plural = _("own rules of tournaments")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.ruleset}"


class OwnRulesetVersion(HistoryRow):
    """The data an own ruleset had before one save: who changed it, when and why."""

    ruleset = models.ForeignKey(
        OwnRuleset, verbose_name=_("own ruleset"), related_name="history", on_delete=models.CASCADE
    )
    old_data = models.JSONField(_("rules before"))

    class Meta:
        ordering = ["ruleset", "created", "pk"]
        verbose_name = _("change of an own ruleset")
        verbose_name_plural = _("changes of own rulesets")

    def __str__(self) -> str:
        return f"{self.ruleset} {self.created:%Y-%m-%d %H:%M}"

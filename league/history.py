"""Historia zmian (history of changes): the rows that record what was done to the league's
records, by whom, when and why, so that every result and setting can be explained later.

Each kept history is a model built on one of these abstract bases, one row per change:

- :class:`LogRow`, who and when: a log ("dziennik") of acts that explain themselves by
  their details rather than in words, such as a draw or a protocol marked complete.
- :class:`HistoryRow`, a log row with why: the reason typed by whoever made the change
  (blank where none was asked for).
- :class:`ChangeRow`, a history row with the record before and after, one JSON pair.

A history whose before and after are shaped otherwise (a deal's entry and values, a
ruleset's rules before a save) declares those fields itself on :class:`HistoryRow`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

REASON_MAX_LENGTH = 500
"""The longest reason a person may type for a change: a sentence or a few, never a pasted document."""


class LogRow(models.Model):
    """Who did something and when. ``user`` is empty when no account acted (a table phone,
    a command) or when the account was deleted since: the row itself is kept."""

    # A history is read from the record it tells about, never from the user's side.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        related_name="+",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    created = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        abstract = True


class HistoryRow(LogRow):
    """A change of a record: who, when and why."""

    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        abstract = True


class ChangeRow(HistoryRow):
    """A change of a record that keeps the record before and after it, as JSON: ``old``
    is empty for a new record and ``new`` for a removed one."""

    old = models.JSONField(_("before"), null=True, blank=True)
    new = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        abstract = True

    def line(self, details: str) -> dict[str, Any]:
        """The row as a history table shows it: when, who ("—" without an account), what was done
        (the subclass's ``action``), the details the caller words, and why."""
        return {
            "when": self.created,
            "who": self.user.get_username() if self.user else "—",
            "what": self.get_action_display(),
            "details": details,
            "reason": self.reason,
        }


def settings_apply(
    *,
    stored: models.Model,
    fields: Mapping[str, Any],
    names: Iterable[str],
    settings_of: Callable[[Any], dict[str, Any]],
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Set on ``stored`` those of ``fields`` among ``names`` that differ from it, check and save it;
    the changed settings before and after (as ``settings_of`` gives them for a ``ChangeRow``), or
    None when nothing changes and nothing is saved."""
    changed = [name for name in names if name in fields and fields[name] != getattr(stored, name)]
    if not changed:
        return None
    before = settings_of(stored)
    for name in changed:
        setattr(stored, name, fields[name])
    stored.full_clean()
    stored.save()
    after = settings_of(stored)
    return {name: before[name] for name in changed}, {name: after[name] for name in changed}

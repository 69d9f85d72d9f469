"""Writes of own rulesets ("własne zasady"): a copy under a new name, a save kept in the history,
and a delete; a ruleset whose tournament has results is locked and only copied."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

import scoring
from league.games.baska.rulesets import selectors
from league.games.baska.rulesets.models import OwnRuleset, OwnRulesetVersion
from league.models import Tournament
from league.slugs import polish_slug
from league.standings.refresh import standings_touch_many


def own_ruleset_copy(*, user: AbstractBaseUser, name: str, source: str | OwnRuleset) -> tuple[OwnRuleset, bool]:
    """A new own ruleset of ``user`` named ``name``: a copy of the preset ``source`` or of one of the
    user's own rulesets. The user's ruleset of that name, if there is one already, comes back
    instead (False: not created), so a repeated POST makes no second one."""
    existing = OwnRuleset.objects.filter(owner=user, name=name).first()
    if existing:
        return existing, False
    if isinstance(source, OwnRuleset):
        if source.owner_id != user.pk:
            raise ValidationError(_("You can copy only your own rules."), code="not_yours")
        based_on, ruleset = source.based_on, source.ruleset()
    else:
        based_on, ruleset = source, scoring.load_ruleset(source)
    data = scoring.ruleset_to_dict(ruleset) | {"id": polish_slug(name, max_length=40) or based_on, "name": name}
    try:
        with transaction.atomic():
            return OwnRuleset.objects.create(owner=user, name=name, based_on=based_on, data=data), True
    except IntegrityError:
        # the same copy posted twice at once: the other request made it
        return OwnRuleset.objects.get(owner=user, name=name), False


def own_ruleset_locked_error() -> ValidationError:
    return ValidationError(
        _("A tournament using these rules has results, so they can no longer change. Copy them to change the copy."),
        code="locked",
    )


@transaction.atomic
def own_ruleset_update(
    *, ruleset: OwnRuleset, user: AbstractBaseUser, name: str, data: dict[str, Any], reason: str = ""
) -> OwnRuleset:
    """Store new rules (``data``, checked by ``scoring.parse_ruleset``) and name; the previous data
    goes into the history with ``user`` and ``reason``. The same data again changes nothing."""
    stored = OwnRuleset.objects.select_for_update().get(pk=ruleset.pk)
    scoring.parse_ruleset(data)
    if stored.data == data and stored.name == name:
        return stored
    if selectors.own_ruleset_locked(ruleset=stored):
        raise own_ruleset_locked_error()
    OwnRulesetVersion.objects.create(ruleset=stored, old_data=stored.data, user=user, reason=reason)
    stored.name, stored.data = name, data
    stored.save()
    # the rules' name is shown with the tournaments that play by them
    standings_touch_many(tournaments=Tournament.objects.filter(own_rules__ruleset=stored))
    return stored


@transaction.atomic
def own_ruleset_delete(*, ruleset: OwnRuleset) -> None:
    """Delete an own ruleset that no tournament uses, with its history."""
    stored = OwnRuleset.objects.select_for_update().get(pk=ruleset.pk)
    if selectors.own_ruleset_in_use(ruleset=stored):
        raise ValidationError(
            _("A tournament uses these rules: they can be deleted only when no tournament does."), code="in_use"
        )
    stored.delete()

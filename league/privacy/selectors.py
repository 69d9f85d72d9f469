"""Reads of the privacy notices, sign-up contacts due for erasure and a person's data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from league.models import League
from league.privacy.models import PrivacyNotice
from league.privacy.texts import NoticeText, default_notice
from league.signups.models import SignUp, SignUpChange
from players.models import Player
from players.selectors import player_references


def notice_latest(*, league: League | None) -> PrivacyNotice | None:
    """The latest saved version of the notice of ``league`` (None: the installation's), if any."""
    return PrivacyNotice.objects.filter(league=league).order_by("-version").select_related("league").first()


def notice_shown(*, league: League | None) -> tuple[int, NoticeText]:
    """The notice a visitor reads now and its version: the latest saved, or the default text as
    version 0 until somebody saves one (``services.notice_for_signup`` keeps it as version 1)."""
    latest = notice_latest(league=league)
    if latest is None:
        return 0, notice_default(league=league)
    return latest.version, NoticeText(latest.controller, latest.contact, latest.text_pl, latest.text_en)


def notice_default(*, league: League | None) -> NoticeText:
    return default_notice(league=league, days=settings.BASKA_SIGNUP_CONTACT_DAYS, contact=settings.DEFAULT_FROM_EMAIL)


def notice_versions(*, league: League | None) -> QuerySet[PrivacyNotice]:
    """Every saved version, the newest first, with who saved it: the notice's history."""
    return PrivacyNotice.objects.filter(league=league).select_related("user").order_by("-version")


def signups_with_expired_contacts(*, today: date, days: int) -> QuerySet[SignUp]:
    """Sign-ups still holding an e-mail address or a phone number ``days`` days after their
    tournament's day (any status: a cancelled one keeps nothing longer)."""
    held = SignUp.objects.exclude(email="", phone="")
    return held.filter(tournament__date__lte=today - timedelta(days=days))


# Fields no person needs in their copy and nobody should get through it: a one-time form token,
# the folded search copy of the name, a cache's stamp.
INTERNAL_FIELDS = frozenset({"form_token", "search_name", "stamp"})


@dataclass(frozen=True)
class HeldRows:
    """The rows of one kind that name a person: the kind's name, its fields' names and the rows
    (``pk`` first, each field as JSON gives it: a foreign key as the number of the row it names)."""

    kind: str
    label: str
    fields: list[tuple[str, str]]
    rows: list[dict[str, Any]]

    def cells(self) -> list[list[Any]]:
        """The rows as the PDF prints them: the number, then each field in the order of ``fields``;
        yes or no for a flag, and a structure (a kept result's series, a deal's statistics) left to
        the JSON file, where it can be read by a program."""
        return [[row["pk"], *(_readable(row[name]) for name, _label in self.fields)] for row in self.rows]


def _readable(value: Any) -> Any:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict | list):
        return _("(in the JSON file)") if value else "—"
    return value


def _held(queryset: QuerySet) -> HeldRows | None:
    model = queryset.model
    fields = [
        (field.attname, str(field.verbose_name))
        for field in model._meta.concrete_fields
        if field.name not in INTERNAL_FIELDS and not field.primary_key
    ]
    rows = [
        {"pk": row["pk"]} | {name: row[name] for name, _label in fields}
        for row in queryset.order_by("pk").values("pk", *(name for name, _label in fields))
    ]
    if not rows:
        return None
    return HeldRows(model._meta.label_lower, str(model._meta.verbose_name_plural), fields, rows)


def person_data(*, player: Player) -> tuple[HeldRows, list[HeldRows]]:
    """Everything the installation holds about ``player`` (prawo dostępu, the right of access):
    their register entry, then every kind of row that names them — registrations, seats, byes,
    penalties, teams, sign-ups, kept results, removals merged into them, an anonymisation, and any
    kind added later (``players.selectors.player_references``, read from the models) — and the
    history of their sign-ups."""
    entry = _held(Player.objects.filter(pk=player.pk))
    held = [
        _held(relation.related_model._base_manager.filter(**{relation.field.name: player}))
        for relation in player_references()
    ]
    held.append(_held(SignUpChange.objects.filter(signup__player=player)))
    return entry, sorted((rows for rows in held if rows is not None), key=lambda rows: rows.kind)


def person_data_json(*, player: Player, now: datetime) -> dict[str, Any]:
    """``person_data`` as one JSON document, each kind keyed by its model's name."""
    entry, held = person_data(player=player)
    return {
        "format": "baska-league/person-data/1",
        "made": now.isoformat(),
        "player": entry.rows[0],
        "held": {rows.kind: rows.rows for rows in held},
    }


@dataclass(frozen=True)
class PrivacyFooter:
    """What every e-mail says of the data at its end: the controller, the retention, the notice's address."""

    controller: str
    days: int
    url: str


def privacy_footer(*, league: League | None, link: str) -> PrivacyFooter:
    """The footer of an e-mail about a tournament of ``league``; ``link`` is any absolute address of
    the site (the e-mail's own link), whose host the notice's address takes."""
    path = reverse("privacy:league_notice", args=[league.slug]) if league else reverse("privacy:notice")
    return PrivacyFooter(
        notice_shown(league=league)[1].controller, settings.BASKA_SIGNUP_CONTACT_DAYS, urljoin(link, path)
    )

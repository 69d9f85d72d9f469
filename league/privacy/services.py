"""Writes for players' data (RODO): a new version of a privacy notice, the notice a sign-up saw,
the erasure of sign-ups' contacts after the retention period, and anonymisation on request.

Who may anonymise a player is who may change them (``players.services``, docs/register.md);
a league's notice is changed by its organisers, the installation's by a superuser."""

from __future__ import annotations

import logging
from datetime import date
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.leagues.selectors import is_league_organiser
from league.models import League, Registration, Tournament, TournamentFileVersion
from league.privacy import selectors
from league.privacy.models import Anonymisation, ContactErasure, PrivacyNotice
from league.privacy.texts import NoticeText
from league.signups.models import SignUp
from league.standings.refresh import standings_touch_many
from league.standings.summaries import player_results_refresh
from players.models import Player, PlayerRemoval
from players.services import player_check_editable

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

logger = logging.getLogger(__name__)

PSEUDONYM_FIRST_NAME = "Zawodnik"


def notice_check_editable(*, league: League | None, user: AbstractBaseUser) -> None:
    """A league's notice is its organisers' (and superusers'); the installation's, superusers' only."""
    allowed = is_league_organiser(user=user, league=league) if league else user.is_superuser
    if not allowed:
        raise PermissionDenied(_("Only the league's organisers may change its privacy notice."))


def _notice_add(
    *, league: League | None, text: NoticeText, user: AbstractBaseUser | None, reason: str
) -> PrivacyNotice:
    latest = selectors.notice_latest(league=league)
    notice = PrivacyNotice(
        league=league,
        version=(latest.version if latest else 0) + 1,
        controller=text.controller.strip(),
        contact=text.contact.strip(),
        text_pl=text.text_pl.strip(),
        text_en=text.text_en.strip(),
        user=user,
        reason=reason.strip(),
    )
    notice.full_clean()
    notice.save()
    return notice


def _lock_notices(league: League | None) -> None:
    """Two saves of one league's notice take turns (they would both take the same next version)."""
    if league is not None:
        list(League.objects.select_for_update().filter(pk=league.pk).values_list("pk"))


@transaction.atomic
def notice_save(*, league: League | None, text: NoticeText, user: AbstractBaseUser, reason: str) -> PrivacyNotice:
    """Save ``text`` as the next version of the notice of ``league`` (None: the installation's).
    The default text people may have read so far is kept first as version 1, so a sign-up made
    under it still shows what its person read. The same text again adds no version."""
    notice_check_editable(league=league, user=user)
    _lock_notices(league)
    version, shown = selectors.notice_shown(league=league)
    if version == 0:
        _notice_add(league=league, text=shown, user=None, reason=_("the default text"))
    latest = selectors.notice_latest(league=league)
    cleaned = NoticeText(*(value.strip() for value in (text.controller, text.contact, text.text_pl, text.text_en)))
    if cleaned == NoticeText(latest.controller, latest.contact, latest.text_pl, latest.text_en):
        return latest
    return _notice_add(league=league, text=cleaned, user=user, reason=reason)


def notice_seen(*, league: League | None, version: int) -> PrivacyNotice | None:
    """The version ``version`` of the notice of ``league`` a person read on a form; version 0, the
    default text, is kept as version 1 the first time somebody signs up under it. None for a
    version that does not exist (a forged form): the sign-up then records no notice."""
    if version == 0:
        _lock_notices(league)
        if selectors.notice_latest(league=league) is None:
            return _notice_add(league=league, text=selectors.notice_default(league=league), user=None, reason="")
        version = 1
    return PrivacyNotice.objects.filter(league=league, version=version).first()


@transaction.atomic
def signup_contacts_erase(*, today: date, days: int) -> ContactErasure | None:
    """Erase the e-mail address and phone number of every sign-up ``days`` days after its
    tournament (okres przechowywania); the sign-up rows and their history stay. Logged as a
    ``ContactErasure`` with the count and the tournaments; running it again finds nothing."""
    due = selectors.signups_with_expired_contacts(today=today, days=days).select_for_update()
    rows = list(due.values_list("pk", "tournament__slug"))
    if not rows:
        return None
    SignUp.objects.filter(pk__in=[pk for pk, _slug in rows]).update(email="", phone="", contact_erased=timezone.now())
    tournaments = sorted({slug for _pk, slug in rows})
    logger.info("Erased the contacts of %d sign-ups of %s", len(rows), ", ".join(tournaments))
    return ContactErasure.objects.create(days=days, signups=len(rows), tournaments=tournaments)


def pseudonym(*, player: Player) -> tuple[str, str]:
    """The stable pseudonym of an anonymised player: "Zawodnik #<number in the register>". The
    number was never shown with the name, so it tells nothing about the person, and every page,
    file and export made from now on names them the same."""
    return PSEUDONYM_FIRST_NAME, f"#{player.pk}"


def _scrub_file_versions(player: Player, first_name: str, last_name: str) -> None:
    """Earlier versions of tournaments (whole exchange files) of the player's tournaments: their
    entry, found by the name the file gave it, takes the pseudonym, and loses club and licence."""
    first, last = pseudonym(player=player)
    tournaments = Registration.objects.filter(player=player).values("tournament")
    for version in TournamentFileVersion.objects.select_for_update().filter(tournament__in=tournaments):
        changed = False
        for entry in version.file.get("players", []):
            if (entry.get("first_name"), entry.get("last_name")) == (first_name, last_name):
                entry.update(first_name=first, last_name=last)
                for optional in ("club", "licence"):
                    entry.pop(optional, None)
                changed = True
        if changed:
            version.save(update_fields=["file"])


def _scrub_removals(player: Player) -> None:
    """A merge into the player kept the entries before and after it: they take the pseudonym too."""
    first, last = pseudonym(player=player)
    masked = {"name": f"{first} {last}", "first_name": first, "last_name": last, "club": "", "licence": ""}
    for removal in PlayerRemoval.objects.select_for_update().filter(merged_into=player):
        removal.old = {**(removal.old or {}), **masked}
        removal.new = {**(removal.new or {}), **masked}
        removal.save(update_fields=["old", "new"])


@transaction.atomic
def player_anonymise(*, player: Player, user: AbstractBaseUser, reason: str) -> Anonymisation:
    """Anonimizacja: replace ``player``'s name, club link and licence, and the name, club, e-mail and
    phone of their sign-ups, by the pseudonym (``pseudonym``), on behalf of ``user``, who must be
    allowed to change the player. Registrations, seats, deals, byes, penalties and teams stay, so
    every standing, season table and statistic of everybody else stays exactly as it was; the
    player's own results stay under the pseudonym. The kept results of their tournaments are
    written again (other players' rows name their opponents) under their tournaments' new stamps,
    which the caches follow (``league.standings.refresh``).

    Logged as an ``Anonymisation``: who, when, why, nothing of the erased data. It cannot be undone:
    the person can only be entered again as a new player."""
    [player] = Player.objects.select_for_update().filter(pk=player.pk)
    player_check_editable(player=player, user=user)
    if Anonymisation.objects.filter(player=player).exists():
        raise ValidationError(_("This player has already been anonymised."))
    if not reason.strip():
        raise ValidationError({"reason": _("Say why (e.g. the player's request of 05.12.2026), without their name.")})
    old_first, old_last = player.first_name, player.last_name
    player.first_name, player.last_name = pseudonym(player=player)
    player.club, player.licence, player.active, player.public_initials = None, "", False, False
    player.save()
    standings_touch_many(tournaments=Tournament.objects.filter(registrations__player=player))
    signups = SignUp.objects.select_for_update().filter(player=player)
    erased = signups.update(
        first_name=player.first_name,
        last_name=player.last_name,
        search_name=player.search_name,
        club=None,
        email="",
        phone="",
        contact_erased=timezone.now(),
    )
    _scrub_file_versions(player, old_first, old_last)
    _scrub_removals(player)
    anonymisation = Anonymisation.objects.create(player=player, user=user, reason=reason.strip(), signups=erased)
    tournaments = list(Registration.objects.filter(player=player).values_list("tournament", flat=True).distinct())
    for tournament_id in tournaments:
        player_results_refresh(tournament_id=tournament_id, force=True)
    return anonymisation

"""Writes of online sign-ups: the window's settings, a sign-up, its cancellation and the organiser's
confirmation. Each change leaves a history row: who (empty for the person signing up), when, from
which page, and the sign-up before and after."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.models import Registration, Tournament
from league.privacy.services import notice_seen
from league.signups import selectors
from league.signups.models import SignUp, SignUpChange, SignUpWindow, SignUpWindowChange
from league.tournaments.registrations import registration_create, registration_delete
from players.models import Club, Player, Team, search_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

WINDOW_FIELDS = ("is_open", "closes_at", "capacity", "waiting_list", "note")


def _window_snapshot(window: SignUpWindow) -> dict[str, Any]:
    values = {name: getattr(window, name) for name in WINDOW_FIELDS}
    values["closes_at"] = window.closes_at.isoformat()
    return values


def _window_for_update(tournament: Tournament) -> SignUpWindow | None:
    """The tournament's window, locked: sign-ups, cancellations and confirmations of one tournament
    take turns (and lock the window first, the tournament after), so two of them never count the
    same free place."""
    window = SignUpWindow.objects.select_for_update().filter(tournament=tournament).first()
    if window is not None:
        window.tournament = tournament
    return window


@transaction.atomic
def signup_window_save(*, tournament: Tournament, user: AbstractBaseUser, page: str, **fields: Any) -> SignUpWindow:
    """Open, close or change the tournament's sign-up window (made on first use).

    The window closes before the tournament starts, when the players' private links expire.
    """
    if fields["closes_at"] > selectors.tournament_start(tournament=tournament):
        raise ValidationError(_("Sign-ups must close before the tournament starts."), code="closes_too_late")
    window = _window_for_update(tournament)
    if window is None:
        # the tournament's lock keeps two organisers from making its first window at once
        Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
        window = _window_for_update(tournament)
    old = _window_snapshot(window) if window else None
    if window is None:
        window = SignUpWindow(tournament=tournament)
    for name, value in fields.items():
        setattr(window, name, value)
    window.full_clean()
    window.save()
    SignUpWindowChange.objects.create(window=window, user=user, page=page, old=old, new=_window_snapshot(window))
    return window


def _record(signup: SignUp, *, old: dict | None, user: AbstractBaseUser | None, page: str, reason: str) -> None:
    SignUpChange.objects.create(signup=signup, user=user, page=page, reason=reason, old=old, new=signup.snapshot())


@transaction.atomic
def signup_create(
    *,
    tournament: Tournament,
    form_token: str,
    page: str,
    first_name: str,
    last_name: str,
    gender: str,
    player: Player | None = None,
    club: Club | None = None,
    email: str = "",
    phone: str = "",
    team: Team | None = None,
    language: str = "pl",
    notice_version: int | None = None,
    contact_consent: bool = False,
) -> tuple[SignUp, bool]:
    """Sign up for ``tournament``: a place while there is one, else the waiting list (if kept).

    Returns the sign-up and whether it is new: a form sent again with the same one-time
    ``form_token`` (a double click, a network retry) finds the sign-up it made the first time.
    A picked ``player`` gives the name, gender and club; typed data stays as typed. The sign-up
    keeps the version of the privacy notice its person read (``notice_version``, as the form
    showed it) and whether they consent to be contacted.
    """
    window = _window_for_update(tournament)
    # the token is looked up within the tournament only: it finds the sender's own retry, never another's sign-up
    earlier = tournament.signups.filter(form_token=form_token).first()
    if earlier is not None:
        return earlier, False
    if not selectors.signups_open(window=window, now=timezone.now()):
        raise ValidationError(_("Sign-ups for this tournament are closed."), code="closed")
    if player is not None:
        if Registration.objects.filter(tournament=tournament, player=player).exists():
            raise ValidationError(_("%(player)s is already registered."), code="registered", params={"player": player})
        first_name, last_name, gender, club = player.first_name, player.last_name, player.gender, player.club
    if not email and not phone and player is None:
        raise ValidationError(_("Give an e-mail address or a phone number."), code="no_contact")
    name = search_key(f"{first_name} {last_name}")
    active = tournament.signups.filter(status__in=SignUp.ACTIVE)
    # a player picked from the register is told apart from namesakes by the register; a typed name by its letters
    same = active.filter(player=player) if player is not None else active.filter(search_name=name)
    if same.exists():
        raise ValidationError(
            _("%(name)s has already signed up for this tournament."),
            code="signed_up",
            params={"name": f"{first_name} {last_name}"},
        )
    status = SignUp.Status.NEW
    if window.capacity is not None and active.filter(status__in=SignUp.TAKING_A_PLACE).count() >= window.capacity:
        if not window.waiting_list:
            raise ValidationError(_("All places are taken."), code="full")
        status = SignUp.Status.WAITING
    signup = SignUp(
        tournament=tournament,
        player=player,
        first_name=first_name,
        last_name=last_name,
        search_name=name,
        gender=gender,
        club=club,
        email=email,
        phone=phone,
        team=team,
        status=status,
        form_token=form_token,
        source_page=page,
        language=language,
        privacy_notice=None
        if notice_version is None
        else notice_seen(league=tournament.league, version=notice_version),
        contact_consent=contact_consent,
    )
    signup.full_clean(exclude=["search_name", "form_token"])
    signup.save()
    _record(signup, old=None, user=None, page=page, reason="")
    return signup, True


@transaction.atomic
def signup_cancel(*, signup: SignUp, user: AbstractBaseUser | None, page: str, reason: str = "") -> SignUp | None:
    """Cancel a sign-up (by its person, ``user`` None, or by the organiser); a confirmed one takes
    its registration back too, as long as the player is in no series drawn.

    A place freed goes to the first sign-up on the waiting list, in the same transaction (unless
    the organiser has confirmed more than the places); returns that sign-up, or None. Cancelling a
    cancelled sign-up changes nothing.
    """
    window = _window_for_update(signup.tournament)
    stored = SignUp.objects.select_for_update().get(pk=signup.pk)
    if stored.status == SignUp.Status.CANCELLED:
        return None
    freed = stored.status in SignUp.TAKING_A_PLACE
    old = stored.snapshot()
    if stored.registration_id is not None:
        registration_delete(registration=stored.registration)
        stored.registration = None
    stored.status = SignUp.Status.CANCELLED
    stored.save(update_fields=["status", "registration"])
    _record(stored, old=old, user=user, page=page, reason=reason)
    signups = stored.tournament.signups
    taken = signups.filter(status__in=SignUp.TAKING_A_PLACE).count()
    if not freed or window is None or window.capacity is None or taken >= window.capacity:
        return None
    first = signups.select_for_update().filter(status=SignUp.Status.WAITING).order_by("created", "pk").first()
    if first is None:
        return None
    old = first.snapshot()
    first.status = SignUp.Status.NEW
    first.save(update_fields=["status"])
    _record(first, old=old, user=user, page=page, reason="moved up from the waiting list")
    return first


@transaction.atomic
def signups_cancel(
    *, tournament: Tournament, signups: Iterable[SignUp], user: AbstractBaseUser, page: str
) -> list[SignUp]:
    """The organiser cancels the ticked sign-ups, all or none; returns those moved up from the waiting
    list (and not cancelled among the ticked ones themselves)."""
    moved = [signup_cancel(signup=signup, user=user, page=page) for signup in signups]
    return list(tournament.signups.filter(pk__in=[s.pk for s in moved if s is not None], status=SignUp.Status.NEW))


NEW_PLAYER = "new"
"""The organiser's choice, for a sign-up of nobody in the register, to add the person as a new player."""


@transaction.atomic
def signups_confirm(
    *,
    tournament: Tournament,
    choices: Iterable[tuple[SignUp, Player | str | None]],
    user: AbstractBaseUser,
    page: str,
) -> list[SignUp]:
    """Register the ticked sign-ups (new or waiting: the organiser may take more than the places), all or none.

    Each comes with the organiser's match: a player of the register, ``NEW_PLAYER`` to create one
    from the typed data, or None to keep the player the sign-up already names. A sign-up of nobody
    in the register without a match is refused: the organiser decides who the person is.
    """
    _window_for_update(tournament)
    Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
    confirmed, errors = [], []
    for signup, match in choices:
        stored = SignUp.objects.select_for_update().get(pk=signup.pk, tournament=tournament)
        if stored.status not in (SignUp.Status.NEW, SignUp.Status.WAITING):
            continue
        if match == NEW_PLAYER:
            match = Player.objects.create(
                first_name=stored.first_name,
                last_name=stored.last_name,
                gender=stored.gender,
                club=stored.club,
                created_by=user,
            )
        player = match or stored.player
        if player is None:
            errors.append(
                ValidationError(
                    _("%(name)s: choose the player from the register, or add a new one."),
                    code="unmatched",
                    params={"name": stored.full_name},
                )
            )
            continue
        if tournament.signups.filter(status__in=SignUp.ACTIVE, player=player).exclude(pk=stored.pk).exists():
            errors.append(
                ValidationError(
                    _("%(name)s: %(player)s has another sign-up for this tournament; cancel one of the two."),
                    code="signed_up_twice",
                    params={"name": stored.full_name, "player": player},
                )
            )
            continue
        # the team named on the public form counts only for one of its members: anybody may type any team
        team = stored.team if stored.team and stored.team.memberships.filter(player=player).exists() else None
        registration = Registration.objects.filter(tournament=tournament, player=player).first()
        if registration is None:
            registration = registration_create(tournament=tournament, player=player, team=team)
        old = stored.snapshot()
        stored.player, stored.registration, stored.status = player, registration, SignUp.Status.CONFIRMED
        stored.save(update_fields=["player", "registration", "status"])
        _record(stored, old=old, user=user, page=page, reason="")
        confirmed.append(stored)
    if errors:
        raise ValidationError(errors)
    return confirmed

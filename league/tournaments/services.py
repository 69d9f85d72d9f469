"""Writes of a tournament: creating, changing, archiving and deleting it, planning its series,
its staff and what the public pages show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from league.games import default_game, game_of, game_rules, registered_games, tournament_rules_check
from league.leagues.services import league_calendar_left
from league.models import Series, StaffInvitation, Tournament
from league.slugs import polish_slug
from league.standings.refresh import standings_touch
from league.tournaments import selectors

if TYPE_CHECKING:
    from league.games.base import GameRules

# The settings the draw seats players by: fixed once any series is drawn.
TABLE_FIELDS = ("game", "table_size")

Role = Literal["organisers", "referees"]


def tournament_free_slug(*, name: str) -> str:
    """A slug from the name, with -2, -3 … appended while it is taken."""
    base = polish_slug(name, max_length=70) or "turniej"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def game_settings_split(fields: dict[str, Any]) -> dict[str, Any]:
    """Take the games' own settings (as the forms name them: each game's ``settings_class``)
    out of ``fields``, which keeps the tournament's columns; returns them by name."""
    names = {name for game in registered_games().values() for name in game.settings_class.names()}
    return {name: fields.pop(name) for name in list(fields) if name in names}


def game_linked_split(fields: dict[str, Any], game: GameRules) -> dict[str, Any]:
    """Take the settings the games keep in rows of their own (``GameRules.linked_fields``: Baśka's
    own rules) out of ``fields``; returns those of ``game`` by name (another game's it holds none of)."""
    names = {name for other in registered_games().values() for name in other.linked_fields}
    linked = {name: fields.pop(name) for name in list(fields) if name in names}
    return {name: value for name, value in linked.items() if name in game.linked_fields}


@transaction.atomic
def tournament_create(*, user: AbstractBaseUser, name: str, **fields: Any) -> Tournament:
    """A new tournament organised by ``user``, with its series planned, its game (the first installed
    unless ``fields`` give ``game``) and the game's settings among ``fields`` (a Baśka tournament's
    ``ruleset_preset`` …); a draft until the organiser publishes
    it (``published=True`` makes it public at once)."""
    if not fields.get("slug"):
        fields["slug"] = tournament_free_slug(name=name)
    fields.setdefault("published", False)
    fields.setdefault("game", default_game())
    values = game_settings_split(fields)
    linked = game_linked_split(fields, game_rules(fields["game"]))
    tournament = Tournament(name=name, **fields)
    game = game_of(tournament)
    settings = game.settings_with(tournament, values)
    game.tournament_check(tournament, settings)
    tournament.game_settings = settings.stored()
    tournament.save()
    game.linked_save(tournament=tournament, values=linked)
    tournament.organisers.add(user)
    series_ensure(tournament=tournament)
    return tournament


def series_ensure(*, tournament: Tournament) -> list[Series]:
    """Plan the missing series 1..series_count (the count may be raised later) and return them all."""
    existing = set(tournament.series.values_list("number", flat=True))
    Series.objects.bulk_create(
        Series(tournament=tournament, number=n) for n in range(1, tournament.series_count + 1) if n not in existing
    )
    return list(tournament.series.order_by("number"))


def tournament_draw_publication_toggle(*, tournament: Tournament) -> bool:
    """Show or hide the draw on the public pages; returns whether it is now shown."""
    tournament.draw_published = not tournament.draw_published
    tournament.save(update_fields=["draw_published"])
    return tournament.draw_published


@transaction.atomic
def series_results_publication_toggle(*, series: Series) -> bool:
    """Show or hide a closed series' results on the public pages; returns whether they are now shown."""
    series.results_published = not series.results_published
    series.save(update_fields=["results_published"])
    # the players' kept results (league.standings.summaries) show or drop the series with the standings
    standings_touch(tournament_id=series.tournament_id)
    return series.results_published


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields: Any) -> Tournament:
    """Change the tournament's settings; returns it as stored.

    The rules (the game's own settings, e.g. a preset and the deals per series) change only
    while no deal is played; the game and the players at a table only
    while no series is drawn. The number of series goes down only while the series left out
    are not drawn (they are removed), and up at any time (the new ones are planned). The
    game's settings among ``fields`` are checked by the game (a new Baśka preset drops the
    own copy of the old one). ``organiser_logo`` follows the form's file field: None keeps
    the logo, False removes it.
    """
    stored = Tournament.objects.select_for_update().get(pk=tournament.pk)
    logo = fields.pop("organiser_logo", None)
    was = game_of(stored)
    before = was.settings(stored)
    game = game_rules(fields.get("game", stored.game))
    settings = game.settings_with(stored, game_settings_split(fields))
    linked_before = game.linked_read(stored) if game is was else {}
    linked = {
        name: value for name, value in game_linked_split(fields, game).items() if value != linked_before.get(name)
    }
    changed_rules = settings.rules() != before.rules() or bool(linked)
    if changed_rules and selectors.tournament_played(tournament=stored):
        raise ValidationError(
            _("Deals have been played: the rules and the number of deals per series can no longer change."),
            code="played",
        )
    series_count = fields.get("series_count", stored.series_count)
    last_drawn = selectors.series_last_drawn(tournament=stored)
    changed_tables = [name for name in TABLE_FIELDS if name in fields and fields[name] != getattr(stored, name)]
    if changed_tables and last_drawn:
        raise ValidationError(
            _("The tables have been drawn: the game and the number of players at a table can no longer change."),
            code="tables_drawn",
        )
    if last_drawn and series_count < last_drawn:
        raise ValidationError(
            _("Series %(number)s has been drawn: the tournament needs at least %(number)s series."),
            code="drawn",
            params={"number": last_drawn},
        )
    left = stored.league_id
    for name, value in fields.items():
        setattr(stored, name, value)
    if stored.league_id != left:
        league_calendar_left(league_id=left)
    stored.game_settings = settings.stored()
    game.linked_hold(stored, linked)
    if logo is not None:
        stored.organiser_logo = logo or ""
    stored.full_clean()
    game.tournament_check(stored, settings)
    tournament_rules_check(stored)
    stored.save()
    if was is not game:  # a tournament now of another game plays by none of the old one's rows
        was.linked_save(tournament=stored, values=dict.fromkeys(was.linked_fields))
    game.linked_save(tournament=stored, values=linked)
    stored.series.filter(number__gt=stored.series_count, status=Series.Status.PLANNED).delete()
    series_ensure(tournament=stored)
    # which lists are published and the names shown are in the players' kept results too
    standings_touch(tournament_id=stored.pk)
    return stored


@transaction.atomic
def tournament_delete(*, tournament: Tournament) -> None:
    """Delete a tournament that nothing has been drawn for yet, with its registrations."""
    stored = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if selectors.series_last_drawn(tournament=stored):
        raise ValidationError(
            _("The tables have been drawn: the tournament can no longer be deleted. Archive it instead."),
            code="drawn",
        )
    stored.delete()
    league_calendar_left(league_id=stored.league_id)


@transaction.atomic
def tournament_publish(*, tournament: Tournament) -> None:
    """Make a draft public: the home page lists it and its public pages open for everyone."""
    tournament.published = True
    tournament.save(update_fields=["published", "updated"])
    # its players' pages read kept results (league.standings.summaries), which a draft never has
    standings_touch(tournament_id=tournament.pk)


@transaction.atomic
def tournament_archive_toggle(*, tournament: Tournament) -> bool:
    """Move the tournament to the archive or back; returns whether it is now archived."""
    tournament.archived = not tournament.archived
    tournament.save(update_fields=["archived", "updated"])
    standings_touch(tournament_id=tournament.pk)  # archived tournaments are listed apart
    return tournament.archived


def tournament_staff_invite(
    *, tournament: Tournament, role: Role, user: AbstractBaseUser, invited_by: AbstractBaseUser
) -> bool:
    """Invite ``user`` to be one of the tournament's organisers or referees: they become one
    when they accept (:func:`staff_invitation_answer`). Returns whether an invitation was made
    (none when they already have the role or are already invited to it)."""
    if getattr(tournament, role).filter(pk=user.pk).exists():
        return False
    _invitation, made = StaffInvitation.objects.get_or_create(
        tournament=tournament, user=user, role=role, defaults={"invited_by": invited_by}
    )
    return made


@transaction.atomic
def staff_invitation_answer(*, invitation_id: int, user: AbstractBaseUser, accept: bool) -> StaffInvitation:
    """``user``'s answer to an invitation made to them: accepted, they take the role; either
    way the invitation is gone. Another account's invitation, or one answered or withdrawn
    already, is ``StaffInvitation.DoesNotExist``."""
    invitation = (
        StaffInvitation.objects.select_for_update().select_related("tournament").get(pk=invitation_id, user=user)
    )
    if accept:
        getattr(invitation.tournament, invitation.role).add(user)
    invitation.delete()
    return invitation


@transaction.atomic
def tournament_staff_remove(*, tournament: Tournament, role: Role, user: AbstractBaseUser) -> None:
    """Take ``user`` off the tournament's organisers or referees, or withdraw their invitation;
    the last organiser stays."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one removal at a time keeps the last one
    organisers = tournament.organisers
    if role == "organisers" and organisers.filter(pk=user.pk).exists() and not organisers.exclude(pk=user.pk).exists():
        raise ValidationError(
            _("A tournament needs an organiser: add another one before removing the last."), code="last_organiser"
        )
    getattr(tournament, role).remove(user)
    StaffInvitation.objects.filter(tournament=tournament, user=user, role=role).delete()  # or withdraw the invitation

"""Rozliczenie pulki (the pulka calculator): a Preferans sheet typed in deal by deal and settled.

Beside the Baśka deal calculator (``calculator.py``): the visitor names three or four
players, chooses the variant, the pulka's total and, if they like, the stake per whist,
then enters the deals (and penalties) one by one. The page shows the running sheet —
pulka, góra (mountain), whists — and, once the pulka is over or closed by agreement
("zamknięta za porozumieniem"), its settlement and the money.

Nothing is stored on the server: every POST carries the sheet so far in the hidden field
``stan``, signed so that only a sheet this site wrote comes back, and bounded (at most
:data:`MAX_ENTRIES` entries, :data:`MAX_STATE_CHARS` characters). Each answer is computed
from what the POST carries alone, so a form sent twice (a reload) gives the same sheet
again rather than a deal entered twice.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from league.games.labels import scoring_error_message
from league.games.preferans.forms import PulkaDealForm, PulkaPenaltyForm
from league.games.preferans.pulka import PulkaView
from league.games.preferans.settings import PULKA_TOTAL, PulkaVariant
from players.models import refuse_control_characters
from scoring import SEATS, ScoringError, preferans

MAX_ENTRIES = 200
"""The most entries a sheet may hold: a pulka to 200 among four is played out well before."""

MAX_STATE_CHARS = 64 * 1024
"""The longest hidden sheet accepted, and written (long penalty reasons fill it first)."""

STATE_FIELD = "stan"
SIGNING_SALT = "league.games.preferans.calculator"
STAKE_LIMIT = Decimal(1000)


class SheetRefused(Exception):
    """The hidden sheet that came back is not one this page wrote, or is too long."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class PulkaGame:
    """The pulka being calculated: its players' ``names`` in seating order (the engine knows
    them by their seats, "A" … "D", as a tournament table's sheet does), the variant, the
    total, the stake per whist (or ``None``), whether it was closed by agreement, and the
    entries in the engine's format."""

    names: tuple[str, ...]
    variant: str
    total: int
    stake: Decimal | None = None
    closed: bool = False
    entries: tuple[dict[str, Any], ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return SEATS[: len(self.names)]

    @property
    def choices(self) -> list[tuple[str, str]]:
        """The players as the entry forms offer them: (seat, name)."""
        return list(zip(self.players, self.names, strict=True))

    @property
    def variant_label(self) -> str:
        return PulkaVariant(self.variant).label

    def score(self) -> preferans.TableScore:
        """The sheet of the entries; raises ``ScoringError`` as the engine does."""
        return preferans.table_score(
            players=self.players,
            variant=preferans.load_variant(self.variant),
            total=self.total,
            entries=list(self.entries),
            closed=self.closed,
        )


def game_dumps(game: PulkaGame) -> str:
    """The game as the hidden field carries it: signed, compressed JSON."""
    data = {
        "names": list(game.names),
        "variant": game.variant,
        "total": game.total,
        "stake": None if game.stake is None else str(game.stake),
        "closed": game.closed,
        "entries": list(game.entries),
    }
    return signing.dumps(data, salt=SIGNING_SALT, compress=True)


def game_loads(value: str) -> PulkaGame:
    """The game the hidden field carried back; :class:`SheetRefused` for a changed or oversized one."""
    if len(value) > MAX_STATE_CHARS:
        raise SheetRefused(gettext("The sheet sent is too long for the calculator; start a new pulka."))
    try:
        data = signing.loads(value, salt=SIGNING_SALT)
        game = PulkaGame(
            names=tuple(data["names"]),
            variant=data["variant"],
            total=data["total"],
            stake=None if data["stake"] is None else Decimal(data["stake"]),
            closed=data["closed"],
            entries=tuple(data["entries"]),
        )
    except (signing.BadSignature, KeyError, TypeError, ValueError, InvalidOperation) as error:
        raise SheetRefused(gettext("The sheet sent was changed or damaged; start a new pulka.")) from error
    if len(game.entries) > MAX_ENTRIES:
        raise SheetRefused(too_many_entries())
    try:
        game.score()  # a sheet this page signed is valid; one signed under rules since changed may not be
    except ScoringError as error:
        raise SheetRefused(scoring_error_message(named(error, game))) from error
    return game


def too_many_entries() -> str:
    return gettext("A sheet holds at most %(count)s entries; start a new pulka.") % {"count": MAX_ENTRIES}


def game_with_entry(game: PulkaGame, entry: dict[str, Any]) -> PulkaGame:
    """``game`` with ``entry`` written after its last one; ``ValidationError`` in the user's
    words where the engine or the calculator's bounds refuse it."""
    if len(game.entries) >= MAX_ENTRIES:
        raise ValidationError(too_many_entries())
    if game.closed and "penalty" not in entry:
        raise ValidationError(gettext("The pulka is closed by agreement; open it again to enter a deal."))
    written = replace(game, entries=(*game.entries, entry))
    try:
        written.score()
    except ScoringError as error:
        raise ValidationError(scoring_error_message(named(error, game))) from error
    if len(game_dumps(written)) > MAX_STATE_CHARS:
        raise ValidationError(gettext("The sheet would be too long for the calculator; shorten the reason."))
    return written


def named(error: ScoringError, game: PulkaGame) -> ScoringError:
    """The engine's error naming the players by their names instead of their seats."""
    names = dict(game.choices)
    params = {key: names.get(value, value) if key == "player" else value for key, value in error.params.items()}
    return ScoringError(error.code, params, error.path)


class PulkaSetupForm(forms.Form):
    """The players (three, or four with the dealer sitting each deal out), the variant, the total and the stake."""

    # names as the player register takes them: no control or text-direction characters
    name_1 = forms.CharField(label=_("Player 1"), max_length=40, validators=[refuse_control_characters])
    name_2 = forms.CharField(label=_("Player 2"), max_length=40, validators=[refuse_control_characters])
    name_3 = forms.CharField(label=_("Player 3"), max_length=40, validators=[refuse_control_characters])
    name_4 = forms.CharField(
        label=_("Player 4"),
        max_length=40,
        required=False,
        help_text=_("Optional: with four, the dealer sits out."),
        validators=[refuse_control_characters],
    )
    variant = forms.ChoiceField(label=_("Pulka variant"), choices=PulkaVariant.choices, initial=PulkaVariant.SOCHI)
    total = forms.IntegerField(label=_("Pulka to"), validators=[PULKA_TOTAL], initial=20)
    stake = forms.CharField(
        label=_("Stake per whist (zł)"), max_length=12, required=False, help_text=_("Optional, e.g. 0,10.")
    )

    def clean_stake(self) -> Decimal | None:
        typed = self.cleaned_data["stake"].strip()
        if not typed:
            return None
        try:
            stake = Decimal(typed.replace(",", "."))
        except InvalidOperation:
            stake = None
        if stake is None or not stake.is_finite() or not 0 < stake <= STAKE_LIMIT or stake != round(stake, 2):
            raise ValidationError(_("Give the stake in złoty and grosze, e.g. 0,10."))
        return stake

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        names = [cleaned.get(f"name_{i}") for i in range(1, 5)]
        # "Zoë" typed composed or decomposed is one player
        typed = [unicodedata.normalize("NFC", name.strip()) for name in names if name and name.strip()]
        if len({name.casefold() for name in typed}) != len(typed):
            raise ValidationError(_("Give each player a different name."))
        return cleaned

    def game(self) -> PulkaGame:
        """The empty pulka set up; call after ``is_valid()``."""
        data = self.cleaned_data
        names = tuple(
            unicodedata.normalize("NFC", data[f"name_{i}"].strip()) for i in range(1, 5) if data[f"name_{i}"].strip()
        )
        return PulkaGame(names=names, variant=data["variant"], total=data["total"], stake=data["stake"])


def sheet_context(
    game: PulkaGame,
    *,
    deal_form: PulkaDealForm | None = None,
    penalty_form: PulkaPenaltyForm | None = None,
) -> dict[str, Any]:
    """What the page shows of ``game``: the sheet, the settlement and money once over, and the entry forms."""
    score = game.score()
    sheet = score.sheet
    settlement = preferans.settle(sheet) if sheet.over else None
    names = dict(game.choices)
    money = None
    if settlement is not None and game.stake is not None:
        amounts = preferans.money(settlement.balance, game.stake)
        money = [(name, amounts[player]) for player, name in names.items()]
    return {
        "game": game,
        "state": game_dumps(game),
        "pulka": PulkaView(score=score, settlement=settlement),
        "names": names,
        "money": money,
        "dealer": names[sheet.upcoming_dealer],
        "deal_form": deal_form or PulkaDealForm(players=game.choices),
        "penalty_form": penalty_form or PulkaPenaltyForm(players=game.choices),
    }


SHEET_ACTIONS = ("deal", "penalty", "undo", "close", "open")
"""What a POST may do to the sheet it carries; any other POST sets a new pulka up."""


def posted(request: HttpRequest) -> tuple[dict[str, Any], int]:
    """The page after the POSTed action, and its status: 400 for a refused hidden sheet."""
    action = request.POST.get("action")
    if action not in SHEET_ACTIONS:
        setup = PulkaSetupForm(request.POST)
        return (sheet_context(setup.game()) if setup.is_valid() else {"setup": setup}), 200
    try:
        game = game_loads(request.POST.get(STATE_FIELD, ""))
    except SheetRefused as error:
        return {"setup": PulkaSetupForm(), "refused": error.message}, 400
    if action == "deal":
        return with_entry(game, deal_form=PulkaDealForm(request.POST, players=game.choices)), 200
    if action == "penalty":
        return with_entry(game, penalty_form=PulkaPenaltyForm(request.POST, players=game.choices)), 200
    if action == "undo":
        return sheet_context(replace(game, entries=game.entries[:-1])), 200
    return sheet_context(replace(game, closed=action == "close")), 200


def with_entry(
    game: PulkaGame, *, deal_form: PulkaDealForm | None = None, penalty_form: PulkaPenaltyForm | None = None
) -> dict[str, Any]:
    """The page after a deal or a penalty was sent: written on the sheet, or its form with the refusal."""
    form = deal_form or penalty_form
    if form.is_valid():
        try:
            return sheet_context(game_with_entry(game, form.entry()))
        except ValidationError as error:
            form.add_error(None, error)
    return sheet_context(game, deal_form=deal_form, penalty_form=penalty_form)


@require_http_methods(["GET", "HEAD", "POST"])
def pulka_calculator(request: HttpRequest) -> HttpResponse:
    """The calculator page: the set-up form on GET; each POST answers with the sheet it
    carried, changed by its action. htmx asks for the changing part alone."""
    context, status = posted(request) if request.method == "POST" else ({"setup": PulkaSetupForm()}, 200)
    template = "games/preferans/_calculator_result.html" if request.htmx else "games/preferans/calculator.html"
    return render(request, template, context, status=status)

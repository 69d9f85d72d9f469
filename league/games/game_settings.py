"""A game's own settings of a tournament (ustawienia gry: the game's settings), as one value.

Every tournament keeps what every game has in its own columns (name, date, series, time limit,
big points, publishing, the players at a table); what only its game reads (Baśka's rules and
deals per series, Preferans' pulka) is one JSON value, ``Tournament.game_settings``, read and
written only through the game's :class:`GameSettings`, a frozen dataclass in
``league/games/<game>/settings.py``: its defaults, its checks, its form fields and its keys in
the exchange file. A setting added to a game touches that class alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar, Self

from django import forms
from django.core.exceptions import ValidationError

if TYPE_CHECKING:
    from league.models import Between


@dataclass(frozen=True)
class GameSettings:
    """One tournament's settings of its game; a game's class names them as fields with defaults.

    A setting's name is its key in the stored value and its form field's name."""

    # the settings that decide how deals are scored: fixed once a deal is played
    rules_fields: ClassVar[tuple[str, ...]] = ()
    # where the exchange file holds each setting (``pulka.total``), so a refusal names the file's place
    exchange_keys: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(field.name for field in fields(cls))

    @classmethod
    def from_stored(cls, data: Mapping[str, Any] | None) -> Self:
        """The settings as ``Tournament.game_settings`` holds them; a setting it lacks takes its default."""
        data = data or {}
        return cls(**{name: data[name] for name in cls.names() if name in data})

    def stored(self) -> dict[str, Any]:
        """The value ``Tournament.game_settings`` stores."""
        return asdict(self)

    def changed(self, values: Mapping[str, Any]) -> Self:
        """These settings with ``values`` (of this game's names; others are not its own) put in."""
        return replace(self, **{name: value for name, value in values.items() if name in self.names()})

    def rules(self) -> dict[str, Any]:
        """The settings fixed once a deal is played, by name."""
        return {name: getattr(self, name) for name in self.rules_fields}

    def check(self) -> None:
        """Refuse settings out of bounds: ``ValidationError`` by setting name, as a form or a file names it.
        Each setting is checked by its form field, so the forms, the services and the import agree."""
        form_fields = self.form_fields()
        errors: dict[str, list[ValidationError]] = {}
        for name in self.names():
            if name in form_fields:
                try:
                    form_fields[name].clean(getattr(self, name))
                except ValidationError as error:
                    errors[name] = error.error_list
        if errors:
            raise ValidationError(errors)

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
        """The tournament form's fields of these settings, by name (new ones at each call)."""
        return {}

    def exchange(self) -> dict[str, Any]:
        """The settings as the exchange file's ``tournament`` object writes them (docs/interfaces.md §4)."""
        return {}

    @classmethod
    def from_exchange(cls, data: Mapping[str, Any], path: str) -> Self:
        """The settings from the file's ``tournament`` object at ``path`` (what :meth:`exchange` wrote);
        raises ``ExchangeError`` or the field readers' ``ScoringError`` naming the place."""
        return cls()


def bounded(field: forms.Field, bound: Between) -> forms.Field:
    """Check ``field`` against ``bound`` alone, with its one message, and tell the browser the range."""
    field.validators = [bound]
    field.widget.attrs.update(min=bound.low, max=bound.high)
    return field

"""Forms of the own-ruleset screens: a new ruleset copied from a preset (or another own one), and the
editor of every setting, which builds the ruleset JSON and lets ``scoring.parse_ruleset`` judge it."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

import scoring
from league.games.baska.rulesets.models import OwnRuleset
from league.games.labels import CONTRACT_LABELS, LEVEL_LABELS, SIDE_LABELS, scoring_error_message
from league.place_points import PlacePointsField
from league.slugs import polish_slug
from scoring import CONTRACTS, LEVELS, PAIR_CONTRACTS, SIDES, ScoringError
from scoring.ruleset import MAX_NOTE_LENGTH, MAX_NOTES

PLACES = 4
BYE_COUNTS = 3  # one, two or three bye players in a series of tables of four
TIEBREAK_SLOTS = 8


def tiebreak_labels() -> dict[str, str]:
    """The ranking criteria of ``scoring.ruleset.TIEBREAK_PATTERN`` by name, in the user's language."""
    return {
        "big_points": str(_("big points")),
        "small_points": str(_("small points")),
        **{f"more_places_{n}": gettext("more %(place)s. places") % {"place": n} for n in range(1, PLACES + 1)},
        **{f"fewer_places_{n}": gettext("fewer %(place)s. places") % {"place": n} for n in range(1, PLACES + 1)},
    }


TIE_LABELS = {"young_wins": _("a young win"), "last_doubler_loses": _("the side that doubled last loses (gorzow)")}
MISPLAY_LABELS = {"player": _("the offender alone pays each of the three others"), "side": _("the offender's side")}
BOK_TRIGGER_LABELS = {"tie": _("a 52:52 deal"), "marked": _("rows marked on the sheet")}
SHARED_PLACES_LABELS = {
    "fractional": _("fractionally (1st and 2nd shared: half a 1st and half a 2nd place)"),
    "better": _("as the better place"),
    "points": _("by the points they earned"),
}
CICHA_NA_DOBICIU_LABELS = {
    "counts": _("counts as usual"),
    "ignored": _("does not count (gorzow)"),
    "refused": _("not allowed (puck)"),
}
STAKE_CAP_LABELS = {
    "before_loss": _("the raises alone"),
    "after_loss": _("with the loser's doubling"),
}
TEAM_BY_LABELS = {"members": _("the members' big points added"), "place": _("points for the team's place")}

# The settings of one contract, as the editor's table columns: (key in the JSON, column heading).
CONTRACT_COLUMNS = {
    "base": _("base value"),
    "max_doublings": _("max doublings"),
    "max_doublings_laid_down": _("max doublings laid down"),
    "stake_multiplier": _("stake multiplier"),
    "thrown": _("thrown"),
    "needs_all_tricks": _("needs all tricks"),
}
SOLO_ONLY = ("max_doublings_laid_down", "thrown", "needs_all_tricks")

# Where the engine's path of a setting ("contracts.zolo.base", "placement.points[2]") is typed in the form.
_PATH_FIELDS = {
    "eyes_to_win": "eyes_to_win",
    "wyjscie.old": "wyjscie_old",
    "wyjscie.young": "wyjscie_young",
    **{f"level_factors.{level}": f"level_{level}" for level in LEVELS},
    "young_win_factor": "young_win_factor",
    "solo_loss_factor": "solo_loss_factor",
    "tie": "tie",
    "first_kontra.pair": "first_kontra_pair",
    "first_kontra.solo": "first_kontra_solo",
    **{f"bok_rounds.{key}": f"bok_{key}" for key in ("enabled", "trigger", "length", "factor", "max_per_series")},
    "misplay": "misplay",
    "misplay_min_doublings": "misplay_min_doublings",
    "stake_cap": "stake_cap_factor",
    "stake_cap.factor": "stake_cap_factor",
    "stake_cap.applies": "stake_cap_applies",
    "cicha_na_dobiciu_kontra": "cicha_na_dobiciu_kontra",
    "placement.points": "placement_1",
    "placement.positive_bonus": "positive_bonus",
    "byes.big_points": "bye_points_1",
    "byes.small_points": "bye_small_points",
    "byes.max_per_player": "bye_max_per_player",
    "byes.individuals_first": "bye_individuals_first",
    "tiebreaks": "tiebreak_1",
    "shared_places": "shared_places",
    "team_big_points.by": "team_by",
    "team_big_points.points": "team_points",
    "deals_multiple": "deals_multiple",
    "penalty_big_points": "penalty_big_points",
    "notes": "notes",
    "contracts": f"{CONTRACTS[0]}__played",
}
_INDEXED = {"placement.points": "placement_{}", "byes.big_points": "bye_points_{}", "tiebreaks": "tiebreak_{}"}


def error_field(path: str) -> str | None:
    """The form field of the engine's ``path``: ``contracts.zolo.base`` → ``zolo__base``,
    ``placement.points[2]`` → ``placement_3``; None for a path the form does not type."""
    match = re.fullmatch(r"contracts\.(\w+?)(?:\.(\w+))?", path)
    if match and match[1] in CONTRACTS:
        return f"{match[1]}__{match[2] or 'base'}"
    match = re.fullmatch(r"(.+?)\[(\d+)\].*", path)
    if match:
        base, index = match[1], int(match[2])
        if base in _INDEXED:
            return _INDEXED[base].format(index + 1)
        path = base
    return _PATH_FIELDS.get(path)


# The engine says what it expected in English (scoring/fields.py); the user reads it in their language.
_EXPECTED = [
    (re.compile(r"an integer from (-?\d+) to (-?\d+)"), _("Give a whole number from %(low)s to %(high)s.")),
    (re.compile(r"an integer of at least (-?\d+)"), _("Give a whole number of at least %(low)s.")),
    (re.compile(r"an integer"), _("Give a whole number.")),
    (re.compile(r"a number from (\S+) to (\S+)"), _("Give a number from %(low)s to %(high)s.")),
    (re.compile(r"a number of at least (\S+)"), _("Give a number of at least %(low)s.")),
    (re.compile(r"a text of at most (\d+) characters"), _("Give a text of at most %(low)s characters.")),
    (re.compile(r"a list of at most (\d+) items"), _("Give at most %(low)s values.")),
    (re.compile(r"a non-empty list of distinct sides"), _("Tick at least one side.")),
    (re.compile(r"a non-empty list of points"), _("Give the points of places 1, 2, 3 …")),
    (re.compile(r"a non-empty list"), _("Give at least one value.")),
    (re.compile(r"a non-empty object"), _("Play at least one contract.")),
    (re.compile(r"a pair contract"), _("A game of two against two is never thrown, nor laid down, nor all tricks.")),
]


def ruleset_error_message(error: ScoringError) -> str:
    """What is wrong with one setting, in the user's language, to show next to its field."""
    expected = str(error.params.get("expected", ""))
    for pattern, message in _EXPECTED:
        match = pattern.match(expected)
        if match:
            groups = match.groups()
            return str(message) % {"low": groups[0] if groups else "", "high": groups[1] if len(groups) > 1 else ""}
    return scoring_error_message(error)


class PointsField(forms.FloatField):
    """Big points: a decimal comma (2,5) as well as a point; a whole number is kept whole in the JSON."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(localize=True, **kwargs)

    def to_python(self, value: Any) -> float | int | None:
        if isinstance(value, str):
            value = value.strip().replace(",", ".")
        number = super().to_python(value)
        return int(number) if number is not None and number.is_integer() else number


def _number(label: Any, **kwargs: Any) -> forms.IntegerField:
    # no bounds here: the engine is the one judge of what a setting may be
    return forms.IntegerField(label=label, **kwargs)


class RulesetForm(forms.Form):
    """Every setting of a ruleset. ``ruleset`` (after ``is_valid``) is the ruleset as typed, ``data`` its JSON.

    ``owner`` and ``instance`` check the name is free among the owner's own rulesets.
    """

    name = forms.CharField(label=_("name"), max_length=OwnRuleset._meta.get_field("name").max_length)
    eyes_to_win = _number(_("eyes the old need to win"))
    wyjscie_old = _number(_("wyjście of the old"))
    wyjscie_young = _number(_("wyjście of the young"))
    level_z_wyjsciem = _number(LEVEL_LABELS["z_wyjsciem"])
    level_bez_wyjscia = _number(LEVEL_LABELS["bez_wyjscia"])
    level_bez_bitki = _number(LEVEL_LABELS["bez_bitki"])
    young_win_factor = _number(_("young win factor (pair games)"))
    solo_loss_factor = _number(_("solo loss factor"))
    tie = forms.ChoiceField(label=_("a 52:52 deal is"), choices=list(TIE_LABELS.items()))
    first_kontra_pair = forms.MultipleChoiceField(
        label=_("first kontra in pair games by"),
        choices=list(SIDE_LABELS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    first_kontra_solo = forms.MultipleChoiceField(
        label=_("first kontra in solo games by"),
        choices=list(SIDE_LABELS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    bok_enabled = forms.BooleanField(label=_("bok rounds are played"), required=False)
    bok_trigger = forms.ChoiceField(label=_("a bok round starts after"), choices=list(BOK_TRIGGER_LABELS.items()))
    bok_length = _number(_("deals in a bok round"))
    bok_factor = _number(_("bok round factor"))
    bok_max_per_series = _number(_("bok rounds per series at most"), required=False, help_text=_("Empty: no limit."))
    misplay = forms.ChoiceField(label=_("a misplay is paid by"), choices=list(MISPLAY_LABELS.items()))
    misplay_min_doublings = _number(
        _("doublings a misplay costs at least"),
        help_text=_("0: the contract as bid; 1: at least a kontra (pomorska §12e read literally)."),
    )
    stake_cap_factor = _number(
        _("the raises multiply the base stake at most"),
        required=False,
        help_text=_("Du, kontras and the bok round together; 64 is psb's 6400 %. Empty: no cap."),
    )
    stake_cap_applies = forms.ChoiceField(
        label=_("the cap counts"),
        choices=list(STAKE_CAP_LABELS.items()),
        help_text=_("The raises alone (a lost game is doubled after the cap), or with that doubling."),
    )
    cicha_na_dobiciu_kontra = forms.ChoiceField(
        label=_("a kontra on a cicha “na dobiciu”"), choices=list(CICHA_NA_DOBICIU_LABELS.items())
    )
    positive_bonus = PointsField(label=_("bonus shared by the players with a positive result"))
    bye_small_points = _number(_("small points for a bye"))
    bye_max_per_player = _number(_("byes per player at most"))
    bye_individuals_first = forms.BooleanField(label=_("players outside a team sit out first"), required=False)
    shared_places = forms.ChoiceField(
        label=_("shared places in the place tie-breaks count"), choices=list(SHARED_PLACES_LABELS.items())
    )
    team_by = forms.ChoiceField(label=_("team big points"), choices=list(TEAM_BY_LABELS.items()))
    team_points = PlacePointsField(
        label=_("points for team places 1, 2, 3 …"),
        required=False,
        help_text=_("Separated by semicolons, e.g. 100; 80; 62,5."),
        widget=forms.TextInput,
    )
    deals_multiple = _number(
        _("deals per series a multiple of"), help_text=_("4: every player deals equally often (psb).")
    )
    penalty_big_points = forms.BooleanField(label=_("referee penalties may take big points"), required=False)
    notes = forms.CharField(
        label=_("notes"),
        required=False,
        max_length=MAX_NOTES * MAX_NOTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One per line."),
    )
    reason = forms.CharField(
        label=_("reason for the change"), max_length=200, required=False, help_text=_("Kept in the history.")
    )

    def __init__(self, *args: Any, owner: AbstractBaseUser, instance: OwnRuleset, **kwargs: Any) -> None:
        super().__init__(*args, initial=initial_of(instance), **kwargs)
        self.owner = owner
        self.instance = instance
        self.ruleset: scoring.Ruleset | None = None
        self.data_built: dict[str, Any] | None = None
        for code in CONTRACTS:
            played = _("%(contract)s is played") % {"contract": CONTRACT_LABELS[code]}
            self.fields[f"{code}__played"] = forms.BooleanField(
                label=played, required=False, widget=forms.CheckboxInput(attrs={"aria-label": played})
            )
            for key, heading in CONTRACT_COLUMNS.items():
                if code in PAIR_CONTRACTS and key in SOLO_ONLY:
                    continue
                label = f"{CONTRACT_LABELS[code]}: {heading}"
                if key in ("thrown", "needs_all_tricks"):
                    field = forms.BooleanField(label=label, required=False)
                else:
                    field = _number(label, required=False)
                # the table's column heading says it to the eye; this says it to a screen reader
                field.widget.attrs["aria-label"] = label
                self.fields[f"{code}__{key}"] = field
        for n in range(1, PLACES + 1):
            self.fields[f"placement_{n}"] = PointsField(
                label=_("big points for place %(place)s") % {"place": n}, required=False
            )
        for n in range(1, BYE_COUNTS + 1):
            self.fields[f"bye_points_{n}"] = PointsField(
                label=ngettext(
                    "big points for a bye when %(count)s player sits out",
                    "big points for a bye when %(count)s players sit out",
                    n,
                )
                % {"count": n}
            )
        tiebreaks = [("", "—"), *tiebreak_labels().items()]
        for n in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{n}"] = forms.ChoiceField(
                label=_("ranking criterion %(n)s") % {"n": n}, choices=tiebreaks, required=False
            )

    def contract_headings(self) -> list[str]:
        return [str(heading) for heading in CONTRACT_COLUMNS.values()]

    def contract_rows(self) -> list[tuple[str, forms.BoundField, list[forms.BoundField | None]]]:
        """The contracts table: a row per contract, its label, the "played" box and a cell per column."""
        return [
            (
                CONTRACT_LABELS[code],
                self[f"{code}__played"],
                [self[f"{code}__{key}"] if f"{code}__{key}" in self.fields else None for key in CONTRACT_COLUMNS],
            )
            for code in CONTRACTS
        ]

    def fieldsets(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The settings after the contracts table, grouped under their legends."""
        groups = [
            (_("Winning and wyjście"), ["eyes_to_win", "wyjscie_old", "wyjscie_young"]),
            (
                _("Value factors"),
                [f"level_{level}" for level in LEVELS]
                + ["young_win_factor", "solo_loss_factor", "stake_cap_factor", "stake_cap_applies"],
            ),
            (_("Ties and kontras"), ["tie", "first_kontra_pair", "first_kontra_solo", "cicha_na_dobiciu_kontra"]),
            (_("Bok rounds"), ["bok_enabled", "bok_trigger", "bok_length", "bok_factor", "bok_max_per_series"]),
            (_("Misplays"), ["misplay", "misplay_min_doublings"]),
            (_("Placement points"), [f"placement_{n}" for n in range(1, PLACES + 1)] + ["positive_bonus"]),
            (
                _("Byes"),
                [f"bye_points_{n}" for n in range(1, BYE_COUNTS + 1)]
                + ["bye_small_points", "bye_max_per_player", "bye_individuals_first"],
            ),
            (_("Ranking"), [f"tiebreak_{n}" for n in range(1, TIEBREAK_SLOTS + 1)] + ["shared_places"]),
            (_("Readings"), ["team_by", "team_points", "deals_multiple", "penalty_big_points"]),
        ]
        return [(legend, [self[name] for name in names]) for legend, names in groups]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        taken = OwnRuleset.objects.filter(owner=self.owner, name=name).exclude(pk=self.instance.pk)
        if taken.exists():
            raise ValidationError(_("You already have rules called “%(name)s”."), code="taken", params={"name": name})
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        self.data_built = self.build()
        try:
            self.ruleset = scoring.parse_ruleset(self.data_built)
        except ScoringError as error:
            field = error_field(error.path or "")
            self.add_error(field if field in self.fields else None, ruleset_error_message(error))
        return cleaned

    def build(self) -> dict[str, Any]:
        """The ruleset JSON (scoring/ruleset.py) of what was typed; empty numbers are left for the engine
        to refuse, at their path."""
        d = self.cleaned_data
        contracts = {}
        for code in CONTRACTS:
            if not d[f"{code}__played"]:
                continue
            rule = {key: d[f"{code}__{key}"] for key in CONTRACT_COLUMNS if f"{code}__{key}" in d}
            contracts[code] = rule
        placement = [d[f"placement_{n}"] for n in range(1, PLACES + 1)]
        # no placement points at all (psb ranks by small points), or one value per place
        placement = [] if all(p is None for p in placement) else placement
        return {
            "id": polish_slug(d["name"], max_length=40) or self.instance.based_on,
            "name": d["name"],
            "notes": [line.strip() for line in d["notes"].splitlines() if line.strip()],
            "contracts": contracts,
            "eyes_to_win": d["eyes_to_win"],
            "wyjscie": {"old": d["wyjscie_old"], "young": d["wyjscie_young"]},
            "level_factors": {level: d[f"level_{level}"] for level in LEVELS},
            "young_win_factor": d["young_win_factor"],
            "solo_loss_factor": d["solo_loss_factor"],
            "tie": d["tie"],
            "first_kontra": {
                "pair": [s for s in SIDES if s in d["first_kontra_pair"]],
                "solo": [s for s in SIDES if s in d["first_kontra_solo"]],
            },
            "bok_rounds": {
                "enabled": d["bok_enabled"],
                "trigger": d["bok_trigger"],
                "length": d["bok_length"],
                "factor": d["bok_factor"],
                "max_per_series": d["bok_max_per_series"],
            },
            "misplay": d["misplay"],
            "placement": {"points": placement, "positive_bonus": d["positive_bonus"]},
            "byes": {
                "big_points": [d[f"bye_points_{n}"] for n in range(1, BYE_COUNTS + 1)],
                "small_points": d["bye_small_points"],
                "max_per_player": d["bye_max_per_player"],
                "individuals_first": d["bye_individuals_first"],
            },
            "tiebreaks": [d[f"tiebreak_{n}"] for n in range(1, TIEBREAK_SLOTS + 1) if d[f"tiebreak_{n}"]],
            "misplay_min_doublings": d["misplay_min_doublings"],
            "shared_places": d["shared_places"],
            "team_big_points": {"by": d["team_by"], "points": d["team_points"]},
            "deals_multiple": d["deals_multiple"],
            "penalty_big_points": d["penalty_big_points"],
            "stake_cap": None
            if d["stake_cap_factor"] is None
            else {"factor": d["stake_cap_factor"], "applies": d["stake_cap_applies"]},
            "cicha_na_dobiciu_kontra": d["cicha_na_dobiciu_kontra"],
        }


def initial_of(instance: OwnRuleset) -> dict[str, Any]:
    """The editor's fields filled from the stored ruleset (complete with the engine's defaults)."""
    r = scoring.ruleset_to_dict(instance.ruleset())
    initial: dict[str, Any] = {
        "name": instance.name,
        "eyes_to_win": r["eyes_to_win"],
        "wyjscie_old": r["wyjscie"]["old"],
        "wyjscie_young": r["wyjscie"]["young"],
        **{f"level_{level}": r["level_factors"][level] for level in LEVELS},
        "young_win_factor": r["young_win_factor"],
        "solo_loss_factor": r["solo_loss_factor"],
        "tie": r["tie"],
        "first_kontra_pair": r["first_kontra"]["pair"],
        "first_kontra_solo": r["first_kontra"]["solo"],
        **{f"bok_{key}": value for key, value in r["bok_rounds"].items()},
        "misplay": r["misplay"],
        "misplay_min_doublings": r["misplay_min_doublings"],
        "positive_bonus": r["placement"]["positive_bonus"],
        **{f"placement_{n}": p for n, p in enumerate(r["placement"]["points"], start=1)},
        **{f"bye_points_{n}": p for n, p in enumerate(r["byes"]["big_points"], start=1)},
        "bye_small_points": r["byes"]["small_points"],
        "bye_max_per_player": r["byes"]["max_per_player"],
        "bye_individuals_first": r["byes"]["individuals_first"],
        **{f"tiebreak_{n}": code for n, code in enumerate(r["tiebreaks"], start=1)},
        "shared_places": r["shared_places"],
        "team_by": r["team_big_points"]["by"],
        "team_points": r["team_big_points"]["points"],
        "deals_multiple": r["deals_multiple"],
        "penalty_big_points": r["penalty_big_points"],
        "stake_cap_factor": (r["stake_cap"] or {}).get("factor"),
        "stake_cap_applies": (r["stake_cap"] or {}).get("applies", "before_loss"),
        "cicha_na_dobiciu_kontra": r["cicha_na_dobiciu_kontra"],
        "notes": "\n".join(r["notes"]),
    }
    for code, rule in r["contracts"].items():
        initial[f"{code}__played"] = True
        initial.update({f"{code}__{key}": value for key, value in rule.items()})
    for code in CONTRACTS:
        if code not in r["contracts"]:
            # a contract not played yet is offered with a plain start, to tick and fill in
            initial.update({f"{code}__stake_multiplier": 1})
    return initial


class NewRulesetForm(forms.Form):
    """A new own ruleset: a copy of a preset or of one of the user's own rulesets, under a new name."""

    name = forms.CharField(label=_("name"), max_length=OwnRuleset._meta.get_field("name").max_length)
    source = forms.ChoiceField(label=_("copy of"))

    def __init__(self, *args: Any, owner: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.own = {str(r.pk): r for r in OwnRuleset.objects.filter(owner=owner)}
        self.fields["source"].choices = [
            (_("presets"), scoring.preset_choices()),
            *([(_("my rules"), [(f"own-{pk}", r.name) for pk, r in self.own.items()])] if self.own else []),
        ]

    def clean_name(self) -> str:
        return self.cleaned_data["name"].strip()

    def clean_source(self) -> str | OwnRuleset:
        """A preset id, or the own ruleset chosen."""
        source = self.cleaned_data["source"]
        return self.own[source.removeprefix("own-")] if source.startswith("own-") else source

"""The organiser's "Własne zasady" (own rules) screens: the list, a new copy, the editor with its value
grid and deal calculator, and deleting. Only a user who may create tournaments comes in, and sees
only their own rulesets."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from league.games.baska.forms import DealForm
from league.games.baska.rulesets import selectors, services
from league.games.baska.rulesets.forms import NewRulesetForm, RulesetForm
from league.games.baska.rulesets.models import OwnRuleset
from league.games.labels import CONTRACT_LABELS, LEVEL_LABELS

# The deal the calculator beside the editor starts with: a zolo won by seat A.
CALCULATOR_START = {"calc-contract": "zolo", "calc-old": ["A"], "calc-winner": "old"}


def organiser_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Logged in, and allowed to create tournaments (the organiser's right): else the login page or 403."""

    @login_required
    @permission_required("league.add_tournament", raise_exception=True)
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return view(request, *args, **kwargs)

    return wrapped


@organiser_only
def ruleset_list(request: HttpRequest) -> HttpResponse:
    rulesets = selectors.own_ruleset_list(user=request.user)
    return render(request, "games/baska/rulesets/list.html", {"rulesets": rulesets})


@organiser_only
def ruleset_create(request: HttpRequest) -> HttpResponse:
    """A copy of a preset or of an own ruleset (``?z=`` preselects it, as the "Copy" button does)."""
    form = NewRulesetForm(request.POST or None, owner=request.user, initial={"source": request.GET.get("z", "psb")})
    if form.is_valid():
        try:
            ruleset, created = services.own_ruleset_copy(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if created:
                messages.success(request, _("The rules “%(name)s” have been created.") % {"name": ruleset.name})
            else:
                already = _("You already have rules called “%(name)s”: here they are.")
                messages.info(request, already % {"name": ruleset.name})
            return redirect("rulesets:edit", pk=ruleset.pk)
    return render(request, "games/baska/rulesets/new.html", {"form": form})


def _effect(form: RulesetForm, calculator: DealForm) -> dict[str, Any]:
    """The value grid and the calculator's result under the ruleset as the form has it now."""
    if form.is_bound and not form.is_valid():
        # the deal's own fields are still checked (and shown) under the stored rules; no value is shown
        calculator.ruleset = form.instance.ruleset()
        return {"grid": None, "calculator": calculator, "result": None}
    ruleset = form.ruleset if form.is_bound else form.instance.ruleset()
    grid = selectors.value_grid(ruleset=ruleset)
    calculator.ruleset = ruleset
    result = calculator.result if calculator.is_valid() else None
    return {
        "grid": _labelled(grid.rows),
        "bok_grid": _labelled(grid.bok_rows),
        "bok_factor": ruleset.bok_rounds.factor,
        "doublings": range(grid.widest + 1),
        "calculator": calculator,
        "result": result,
        "level_label": LEVEL_LABELS.get(result.level) if result else None,
    }


def _labelled(rows: list[selectors.GridRow]) -> list[tuple[str, str, tuple[int | None, ...]]]:
    """The grid's rows as the page shows them: the contract's and the outcome's words, the values."""
    return [(CONTRACT_LABELS[row.contract], outcome_label(row), row.values) for row in rows]


def outcome_label(row: selectors.GridRow) -> str:
    """ "won", "lost", or in a pair game who won and the loser's level; a cicha "na dobiciu" laid down."""
    if row.na_dobiciu:
        return _("laid down “na dobiciu”")
    if row.level is None:
        return _("won") if row.winner == "old" else _("lost")
    if row.winner == "old":
        return _("old win, young %(level)s") % {"level": LEVEL_LABELS[row.level]}
    return _("young win, old %(level)s") % {"level": LEVEL_LABELS[row.level]}


@organiser_only
def ruleset_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The editor. A POST saves; with "preview" (the no-JS button) or from htmx (while typing) it only
    values the grid and the calculator's deal under the rules as typed, and stores nothing."""
    ruleset = selectors.own_ruleset_get(user=request.user, pk=pk)
    locked = selectors.own_ruleset_locked(ruleset=ruleset)
    post = request.POST if request.method == "POST" else None
    form = RulesetForm(post, owner=request.user, instance=ruleset)
    calculator = DealForm(post if post and "calc-contract" in post else CALCULATOR_START, prefix="calc")
    previewing = bool(request.htmx) or (post is not None and "preview" in post)
    if post is not None and not previewing:
        if locked:
            messages.error(request, services.own_ruleset_locked_error().messages[0])
        elif form.is_valid():
            try:
                services.own_ruleset_update(
                    ruleset=ruleset,
                    user=request.user,
                    name=form.cleaned_data["name"],
                    data=form.data_built,
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("The rules have been saved."))
                return redirect("rulesets:edit", pk=ruleset.pk)
    context = {
        "ruleset": ruleset,
        "form": form,
        "locked": locked,
        "in_use": selectors.own_ruleset_in_use(ruleset=ruleset),
        "history": selectors.own_ruleset_history(ruleset=ruleset),
        "copy_url": reverse("rulesets:create") + f"?z=own-{ruleset.pk}",
        **_effect(form, calculator),
    }
    return render(
        request, "games/baska/rulesets/_effect.html" if request.htmx else "games/baska/rulesets/edit.html", context
    )


@organiser_only
def ruleset_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first (GET), deletes on the confirming POST; refused while a tournament uses the rules."""
    ruleset: OwnRuleset = selectors.own_ruleset_get(user=request.user, pk=pk)
    if request.method == "POST":
        try:
            services.own_ruleset_delete(ruleset=ruleset)
        except ValidationError as error:
            messages.error(request, error.messages[0])
            return redirect("rulesets:edit", pk=ruleset.pk)
        messages.success(request, _("The rules “%(name)s” have been deleted.") % {"name": ruleset.name})
        return redirect("rulesets:list")
    context = {"ruleset": ruleset, "in_use": selectors.own_ruleset_in_use(ruleset=ruleset)}
    return render(request, "games/baska/rulesets/delete.html", context)

"""Kalkulator rozdania (deal calculator): the four values of one deal under any ruleset."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.games.baska.forms import CalculatorForm
from league.games.labels import LEVEL_LABELS


def calculator(request: HttpRequest) -> HttpResponse:
    """The calculator page; htmx asks for the result fragment alone while the form is edited."""
    form = CalculatorForm(request.GET or None, initial={"ruleset_id": "puck", "contract": "zwykla"})
    result = form.result if form.is_bound and form.is_valid() else None
    context = {"form": form, "result": result, "level_label": LEVEL_LABELS.get(result.level) if result else None}
    template = "games/baska/_calculator_result.html" if request.htmx else "games/baska/calculator.html"
    return render(request, template, context)

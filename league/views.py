"""Pages that belong to no single feature: the home page and the deal calculator."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .deal_forms import CalculatorForm
from .labels import LEVEL_LABELS
from .models import Season, Tournament


def home(request: HttpRequest) -> HttpResponse:
    """The public front page: the seasons and the tournaments, newest first."""
    context = {
        "seasons": Season.objects.order_by("-year", "name"),
        "tournaments": Tournament.objects.select_related("season").order_by("-date")[:30],
    }
    return render(request, "home.html", context)


def calculator(request: HttpRequest) -> HttpResponse:
    """"Kalkulator rozdania" (deal calculator): the four values of one deal under a ruleset."""
    form = CalculatorForm(request.GET or None, initial={"ruleset_id": "puck", "contract": "zwykla"})
    result = form.result if form.is_bound and form.is_valid() else None
    context = {"form": form, "result": result, "level_label": LEVEL_LABELS.get(result.level) if result else None}
    template = "calculator_result.html" if request.htmx else "calculator.html"
    return render(request, template, context)

"""Template filters for points as the league writes them."""

from django import template
from django.utils.formats import number_format

from league import ranking_lists
from league.figures import rounded

register = template.Library()

register.filter("big_points", ranking_lists.points)


@register.filter
def signed(value: int) -> str:
    """Small points with their sign, as protocols write them: +128, −40, 0."""
    return f"{value:+d}".replace("-", "−") if value else "0"


@register.filter
def signed_average(value: float) -> str:
    """An average of small points with its sign and one decimal, rounded half away from zero, in
    the reader's format: +12,5 in Polish, +12.5 in English, 0 for none (never "−0,0")."""
    shown = rounded(value or 0, 1)
    if not shown:
        return "0"
    return ("+" if shown > 0 else "−") + number_format(abs(shown), decimal_pos=1)

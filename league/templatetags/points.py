"""Template filters for points as the league writes them."""

from django import template

register = template.Library()


@register.filter
def signed(value: int) -> str:
    """Small points with their sign, as protocols write them: +128, −40, 0."""
    return f"{value:+d}".replace("-", "−") if value else "0"

"""Template filters for what goes on paper."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def breakable_link(link: str) -> SafeString:
    """A printed link that wraps only after a "/": a line ending at one of its hyphens would
    read as a word split across lines, and the reader would leave the hyphen out."""
    return format_html_join(
        mark_safe("/<wbr>"), '<span class="nowrap">{}</span>', ((part,) for part in link.split("/"))
    )

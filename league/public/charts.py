"""Line charts of the public pages as inline SVG, drawn on the server.

A chart (wykres) is a few lines over a row of steps: a player's place after each
series of a tournament, the season's leaders' points after each tournament. It is
markup only: no script, so it prints and shows with scripts off, and a screen
reader reads its ``<title>`` and ``<desc>`` (the page adds the numbers as a table).

The module is pure drawing: it takes numbers the standings code computed and lays
them out; it counts nothing itself. Every name is escaped, so a player called
"<Ala & Ola>" is text, never markup. Colours come from the stylesheet by each
line's class (``line-0`` … ``line-9``), so print and screen styles choose them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape

from django.utils.safestring import SafeString, mark_safe

from league.figures import whole_or_rounded

# the stylesheet has a colour (and, for print, a dash pattern) for this many lines
PALETTE_SIZE = 10
MAX_TICKS = 6


@dataclass(frozen=True)
class Line:
    """One line of a chart: whose it is and its value at each step (``None``: no value there)."""

    name: str
    values: Sequence[float | None]


@dataclass(frozen=True)
class Geometry:
    """The drawing's size in its own units (the page scales it to the width it has) and its margins."""

    width: int = 360
    height: int = 200
    left: int = 40
    right: int = 14
    top: int = 26
    bottom: int = 40
    # about 13 px on a 390 px phone, where the drawing is some 335 px wide
    font_size: int = 14


@dataclass(frozen=True)
class Chart:
    """A drawn chart: the SVG, and its lines and steps for the legend and the table of numbers."""

    svg: SafeString
    title: str
    steps: Sequence[str]
    lines: Sequence[Line]
    ident: str
    value_labels: Sequence[Sequence[str]] = field(default_factory=list)

    @property
    def legend(self) -> list[tuple[str, str, list[str]]]:
        """Each line's name, its class and its values as printed, in order."""
        return [
            (line.name, line_class(i), list(labels))
            for i, (line, labels) in enumerate(zip(self.lines, self.value_labels, strict=True))
        ]


def line_class(index: int) -> str:
    return f"line-{index % PALETTE_SIZE}"


def nice_step(span: float, ticks: int = MAX_TICKS) -> int:
    """The smallest whole step of 1, 2 or 5 times a power of ten giving at most ``ticks`` intervals."""
    if span <= 0:
        return 1
    magnitude = 10 ** max(0, math.floor(math.log10(span / ticks)))
    for factor in (1, 2, 5, 10):
        if span / (factor * magnitude) <= ticks:
            return factor * magnitude
    return 10 * magnitude


def y_range(values: Sequence[float], *, lowest: float | None = None) -> tuple[float, float, int]:
    """The value range the axis shows and its tick step: from ``lowest`` (places: 1) or a whole
    step below the least value, to a whole step above the greatest."""
    low, high = min(values), max(values)
    if lowest is not None:
        low = min(low, lowest)
    step = nice_step(high - low)
    if lowest is None:
        low = math.floor(low / step) * step
    return low, max(math.ceil(high / step) * step, low + step), step


def ticks(low: float, high: float, step: int, *, lowest: float | None = None) -> list[float]:
    """The labelled values: every multiple of ``step`` in the range; with ``lowest`` (1st place)
    that value first, and the multiples at least half a step away from it, so no labels overlap."""
    marks: list[float] = list(range(math.ceil(low / step) * step, math.floor(high) + 1, step))
    if lowest is None:
        return marks
    return [lowest, *(mark for mark in marks if mark - lowest > step / 2)]


def number(value: float) -> str:
    """A value as the axis and the table print it: whole where whole, else with a decimal comma,
    and a minus sign (−) as the standings write it."""
    shown = whole_or_rounded(value, 2)
    return str(shown).replace(".", ",").replace("-", "−")


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def line_chart(
    *,
    ident: str,
    title: str,
    description: str,
    steps: Sequence[str],
    lines: Sequence[Line],
    y_label: str,
    x_label: str,
    inverted: bool = False,
    lowest: float | None = None,
    highest: float | None = None,
    value_label: Callable[[float], str] = number,
    geometry: Geometry | None = None,
) -> Chart:
    """Draw ``lines`` over ``steps`` (at least one line with a value). With ``inverted`` the least
    value is on top (1st place); ``lowest`` and ``highest`` widen the axis (places 1 to the field's
    size). ``ident`` makes the ids of the title and description unique on the page."""
    g = geometry or Geometry()
    values = [v for line in lines for v in line.values if v is not None]
    if highest is not None:
        values.append(highest)
    low, high, step = y_range(values, lowest=lowest)
    if lowest is not None and highest is not None:
        high = max(highest, low + 1)  # places end at the field's last, not at a round number past it
    plot_width = g.width - g.left - g.right
    plot_height = g.height - g.top - g.bottom

    def x(index: int) -> float:
        if len(steps) == 1:
            return g.left + plot_width / 2
        return g.left + index * plot_width / (len(steps) - 1)

    def y(value: float) -> float:
        share = (value - low) / (high - low)
        return g.top + (share if inverted else 1 - share) * plot_height

    ident = escape(ident)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {g.width} {g.height}" '
        f'role="img" aria-labelledby="{ident}-title {ident}-desc" font-size="{g.font_size}">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(description)}</desc>',
        '<g class="grid">',
    ]
    for mark in ticks(low, high, step, lowest=lowest):
        parts.append(
            f'<line x1="{g.left}" x2="{g.width - g.right}" y1="{_fmt(y(mark))}" y2="{_fmt(y(mark))}"/>'
            f'<text x="{g.left - 6}" y="{_fmt(y(mark) + g.font_size / 3)}" text-anchor="end">{number(mark)}</text>'
        )
    parts.append("</g>")
    parts.append('<g class="steps">')
    # a label every few steps where all of them would overprint each other (a season of a hundred
    # tournaments), counted back from the last step, the newest; the dots and the table name them all
    label_width = max(len(label) for label in steps) * g.font_size * 0.6 + g.font_size / 2
    every = max(1, math.ceil(len(steps) * label_width / plot_width))
    for index, label in enumerate(steps):
        if (len(steps) - 1 - index) % every:
            continue
        parts.append(
            f'<text x="{_fmt(x(index))}" y="{g.height - g.bottom + g.font_size + 4}" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
    parts.append("</g>")
    parts.append(f'<text class="axis" x="{g.left - 6}" y="{g.top - 10}">{escape(y_label)}</text>')
    parts.append(
        f'<text class="axis" x="{_fmt(g.left + plot_width / 2)}" y="{g.height - 6}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    value_labels = []
    for i, line in enumerate(lines):
        name = escape(line.name)
        path, dots = [], []
        move = True
        for index, value in enumerate(line.values):
            if value is None:
                move = True  # a gap: the next value starts a new stroke
                continue
            px, py = _fmt(x(index)), _fmt(y(value))
            path.append(f"{'M' if move else 'L'}{px} {py}")
            move = False
            dots.append(
                f'<circle cx="{px}" cy="{py}" r="{g.font_size / 4:g}">'
                f"<title>{name}, {escape(steps[index])}: {escape(value_label(value))}</title></circle>"
            )
        value_labels.append(["" if v is None else value_label(v) for v in line.values])
        parts.append(
            f'<g class="{line_class(i)}"><title>{name}</title>'
            f'<path class="line" fill="none" stroke="currentColor" d="{" ".join(path)}"/>{"".join(dots)}</g>'
        )
    parts.append("</svg>")
    # every text in it was escaped above
    return Chart(mark_safe("".join(parts)), title, list(steps), list(lines), ident, value_labels)

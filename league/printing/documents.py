"""What goes on paper: the data of each printed document and its rendering to PDF.

Every document is a Django template extending ``printing/document.html`` (the
organiser's header, the page-number footer and the embedded fonts) and is turned
into an A4 PDF by WeasyPrint. The functions here gather the data; the views and
the batch task only choose which document to render.
"""

from __future__ import annotations

import base64
import functools
import io
import itertools
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdf
import segno
import weasyprint
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from league.games import game_of
from league.logo import printable_logo
from league.models import Bye, Registration, Series, TableAssignment, Tournament
from league.printing.layout import Renderer, collector_paused
from league.ranking_lists import published_lists
from league.results.models import DealRow, Protocol
from league.results.penalties.services import PenaltyLine, published_penalties, series_penalties
from league.results.table import pin
from league.standings.cache import tournament_rankings
from players.models import Gender, Player
from players.names import name_key, player_key
from scoring import SEATS

FONT_FILES = {
    # family, weight -> vendored file; DejaVu carries every Polish letter.
    ("DejaVu Sans", "normal"): "fonts/DejaVuSans.ttf",
    ("DejaVu Sans", "bold"): "fonts/DejaVuSans-Bold.ttf",
    ("DejaVu Sans Condensed", "normal"): "fonts/DejaVuSansCondensed.ttf",
    ("DejaVu Sans Condensed", "bold"): "fonts/DejaVuSansCondensed-Bold.ttf",
}


# --- rendering ----------------------------------------------------------------


def font_faces() -> list[dict[str, str]]:
    """@font-face entries with file URLs, so WeasyPrint embeds the vendored fonts
    whatever the server has installed."""
    return [
        {"family": family, "weight": weight, "url": Path(finders.find(path)).as_uri()}
        for (family, weight), path in FONT_FILES.items()
    ]


def page_counter_css(pages: str = "counter(pages)") -> SafeString:
    """The footer's CSS ``content`` value: the translated "Page 1 of 3" with the
    numbers left to WeasyPrint's page counters; ``pages`` is the CSS of the total
    (a document of many protocols gives each its own, see ``protocols_context``)."""
    text = _("Page %(page)s of %(pages)s") % {"page": "\x00page\x00", "pages": "\x00pages\x00"}
    quoted = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return mark_safe(quoted.replace("\x00page\x00", '" counter(page) "').replace("\x00pages\x00", f'" {pages} "'))


def own_file_roots() -> tuple[str, ...]:
    """The folders a document may read files from: our static files (the fonts) and the
    media files (the logo); see ``league.printing.layout.OwnFiles``."""
    return tuple(str(root) for root in (settings.STATIC_ROOT, *settings.STATICFILES_DIRS, settings.MEDIA_ROOT))


def logo_url(tournament: Tournament) -> str:
    """The organiser's logo as a URL WeasyPrint can read, or "" without one (or without a usable one)."""
    if not tournament.organiser_logo:
        return ""
    return printable_logo(tournament.organiser_logo.path)


def document_context(tournament: Tournament, title: str, **extra: Any) -> dict[str, Any]:
    """What every printed document needs besides its own data."""
    return {
        "tournament": tournament,
        "title": title,
        "logo_url": logo_url(tournament),
        "font_faces": font_faces(),
        "page_counter": page_counter_css(),
        **extra,
    }


def write_pdf(documents: Sequence[weasyprint.Document]) -> bytes:
    """One PDF of all pages of ``documents`` in order; each keeps its own page numbers."""
    pages = [page for document in documents for page in document.pages]
    return documents[0].copy(pages).write_pdf()


def merge_pdfs(parts: Sequence[bytes]) -> bytes:
    """The chunks of a batch as one PDF, in order."""
    writer = pypdf.PdfWriter()
    for part in parts:
        writer.append(pypdf.PdfReader(io.BytesIO(part)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def render_pdf(template_name: str, context: dict[str, Any]) -> bytes:
    with collector_paused():
        renderer = Renderer(own_file_roots())
        return write_pdf([renderer.render(render_to_string(template_name, context), str(settings.BASE_DIR))])


def file_name(tournament: Tournament, *parts: str | int) -> str:
    """A download name such as ``puchar-wojta-2026-protokoly-seria-2.pdf``."""
    return "-".join([tournament.slug, *map(str, parts)]) + ".pdf"


def protocols_file_name(series: Series, *, archive: bool, table: int | None = None) -> str:
    """``…-protokoly-seria-2.pdf`` or ``…-archiwum-seria-2-stolik-5.pdf``."""
    parts: list[str | int] = ["archiwum" if archive else "protokoly", "seria", series.number]
    if table is not None:
        parts += ["stolik", table]
    return file_name(series.tournament, *parts)


# --- who plays for which team -------------------------------------------------


def teams_by_player(tournament: Tournament) -> dict[int, str]:
    """Team names by player id for this tournament (a player's team is the one they registered for)."""
    return dict(tournament.registrations.filter(team__isnull=False).values_list("player_id", "team__name"))


# --- registration list --------------------------------------------------------


GENDER_INITIALS = {
    Gender.WOMAN: pgettext_lazy("gender initial", "F"),
    Gender.MAN: pgettext_lazy("gender initial", "M"),
}


@dataclass
class RegistrationGroup:
    """A block of the registration list: one team, the individuals, or (sorted by name) everyone."""

    title: str
    registrations: list[Registration]


def registration_groups(tournament: Tournament, *, by_team: bool) -> list[RegistrationGroup]:
    """Registrations sorted by name, or grouped by team with the individuals last."""
    registrations = sorted(
        tournament.registrations.select_related("player__club", "team"),
        key=lambda registration: player_key(registration.player),
    )
    for registration in registrations:
        registration.gender_initial = GENDER_INITIALS.get(registration.player.gender, "")
    if not by_team:
        return [RegistrationGroup("", registrations)]

    def team_key(registration: Registration) -> tuple[bool, tuple[tuple[str, str], ...]]:
        return (registration.team is None, name_key(registration.team.name if registration.team else ""))

    return [
        RegistrationGroup(members[0].team.name if members[0].team else _("Individual players"), members)
        for _key, group in itertools.groupby(sorted(registrations, key=team_key), key=team_key)
        if (members := list(group))
    ]


# --- table list ---------------------------------------------------------------


@dataclass
class SeatLine:
    """One seat of the table list."""

    table: int
    seat: str
    player: Player
    team: str


def table_list(series: Series) -> dict[str, Any]:
    """The seating of a series by table and by player name, and its byes."""
    teams = teams_by_player(series.tournament)
    seats = [
        SeatLine(a.table, a.seat, a.player, teams.get(a.player_id, ""))
        for a in TableAssignment.objects.filter(series=series).select_related("player").order_by("table", "seat")
    ]
    by_table = [list(lines) for _table, lines in itertools.groupby(seats, key=lambda line: line.table)]
    byes = sorted(Bye.objects.filter(series=series).select_related("player"), key=lambda bye: player_key(bye.player))
    return {
        "series": series,
        "by_table": by_table,
        "by_player": sorted(seats, key=lambda line: player_key(line.player)),
        "byes": byes,
    }


# --- table protocols ----------------------------------------------------------


def table_entry_url(base_url: str, series: Series, table: int) -> str:
    """The table scorer's entry page at its short address, as printed under the QR code for typing
    by hand; the QR code carries the table's token too (:func:`table_token_url`)."""
    path = reverse("table:protocol", args=[series.tournament.slug, series.number, table])
    return f"{base_url.rstrip('/')}{path}"


def table_token_url(base_url: str, protocol: Protocol) -> str:
    """The table scorer's entry page with the table's token, which the printed QR code opens
    (the token door of ``league.results.table.pin``)."""
    return pin.with_token(table_entry_url(base_url, protocol.series, protocol.table), protocol)


def printed_link(url: str) -> str:
    """A link as people read and type it from paper: without "https://" and the closing slash
    (the browser adds the one, the site the other)."""
    return url.split("://", 1)[-1].rstrip("/")


def qr_data_uri(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI: vector, so it stays sharp on any printer."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


# Column widths of the deals table in mm (number, contract, then value and running
# total per seat): the template's <col>s and the blank rows' grid both use them.
PROTOCOL_COLUMNS_MM = (8, 30, *(18, 19) * len(SEATS))  # 186 mm: A4 less the 12 mm margins
GRID_PX_PER_MM = 20  # about 500 dpi: as sharp as the printer draws a 0.5 pt line
GRID_WHITE, GRID_SHADE, GRID_LINE = 0xFF, 0xF2, 0x44  # grey levels of the cells, total columns, lines
THIN_LINE_MM, SEAT_LINE_MM = 0.18, 0.5  # 0.5 pt and 1.4 pt, as the table's borders


def png_row(pixels: bytes) -> bytes:
    """A one-pixel-high 8-bit greyscale PNG (written by hand: a few bytes need no image library)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", len(pixels), 1, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" + pixels))
        + chunk(b"IEND", b"")
    )


@functools.cache
def row_grid(widths: tuple[float, ...], *, shaded: frozenset[int], thick: frozenset[int]) -> str:
    """The inside of a blank row as a PNG data URI, stretched to the row's height:
    cells ``widths`` mm wide, the ``shaded`` ones grey, a thick line after each of
    the ``thick`` ones and a thin one after the others (indices into ``widths``).

    Blank rows are drawn as one cell with this background instead of nine empty
    cells: WeasyPrint's time grows with the number of cells (64 protocols of 40
    rows are 23,000 cells fewer this way), and one raster image is stored once in
    the PDF however many rows show it (an SVG would be redrawn for every row).
    """

    def px(mm: float) -> int:
        return round(mm * GRID_PX_PER_MM)

    pixels = bytearray([GRID_WHITE]) * px(sum(widths))
    right = 0.0
    for index, width in enumerate(widths):
        left, right = right, right + width
        if index in shaded:
            pixels[px(left) : px(right)] = bytes([GRID_SHADE]) * (px(right) - px(left))
        if index < len(widths) - 1:  # the cell's own border draws the outer edge
            half = (SEAT_LINE_MM if index in thick else THIN_LINE_MM) / 2
            pixels[px(right - half) : px(right + half)] = bytes([GRID_LINE]) * (px(right + half) - px(right - half))
    return "data:image/png;base64," + base64.b64encode(png_row(bytes(pixels))).decode()


@dataclass
class ProtocolLine:
    """One row of a protocol sheet; ``cells`` (value, running total per seat) is
    None for a row left blank for the pen."""

    number: int
    contract: str = ""
    doubled: bool = False  # the game counts the row multiplied: its sheet may mark it
    cells: list[tuple[int, int]] | None = None


@dataclass
class ProtocolSheet:
    """One table's protocol: who sits where, the rows, and the way in for live scoring."""

    series: Series | None
    table: int | None
    players: list[tuple[str, Player | None, str]]
    lines: list[ProtocolLine]
    totals: list[int | None]  # None: left blank for the pen
    qr: str = ""
    link: str = ""  # the QR code's address as printed under it, for a phone that cannot scan
    pin: str = ""
    ended_early: bool = False
    penalties: list[PenaltyLine] = field(default_factory=list)  # of the table's players (the archive copy)
    paper: Any = None  # a game's own sheet in place of ``lines`` and ``totals`` (its print template reads it)
    # the game's own sheet's name, alone and of a table ("… series %(series)s, table %(table)s"); None: a protocol
    titles: tuple[str, str] | None = None

    @property
    def title(self) -> str:
        alone, of_table = self.titles or (_("Table protocol"), _("Table protocol: series %(series)s, table %(table)s"))
        if self.table is None:
            return alone
        return of_table % {"series": self.series.number, "table": self.table}


def blank_lines(count: int) -> list[ProtocolLine]:
    return [ProtocolLine(number) for number in range(1, count + 1)]


def protocol_sheets(series: Series, tables: Sequence[int], *, filled: bool, base_url: str) -> list[ProtocolSheet]:
    """The protocols of ``tables`` of a drawn series, in table order, pre-filled with
    their players; with ``filled`` also the entered deals (the archive copy), or the game's own sheet
    (``GameRules.print_rows``). The same few queries however many
    tables; a table without a protocol has no sheet."""
    tournament = series.tournament
    teams = teams_by_player(tournament)
    seated: dict[int, dict[str, Player]] = {}
    for a in TableAssignment.objects.filter(series=series, table__in=tables).select_related("player"):
        seated.setdefault(a.table, {})[a.seat] = a.player
    protocols = series.protocols.filter(table__in=tables).order_by("table")
    if filled:
        protocols = protocols.prefetch_related(Prefetch("rows", queryset=DealRow.objects.order_by("number")))
    sheet_rows = game_of(tournament).print_rows(tournament=tournament)
    penalties: dict[int | None, list[PenaltyLine]] = {}
    if filled:
        for line in series_penalties(series=series):
            penalties.setdefault(line.table, []).append(line)
    # the way in for the phones is printed while deals may still be entered; the archive copy of a
    # closed series shows neither its QR code nor a PIN that opens nothing any more
    entry_open = not (filled and series.status == Series.Status.CLOSED)
    sheets = []
    for protocol in protocols:
        players = seated.get(protocol.table, {})
        names = {seat: player.full_name for seat, player in players.items()}
        rows = sheet_rows(protocol if filled else None, names)
        sheets.append(
            ProtocolSheet(
                series=series,
                table=protocol.table,
                players=[
                    (seat, players.get(seat), teams.get(players[seat].pk, "") if seat in players else "")
                    for seat in tournament.seats
                ],
                qr=qr_data_uri(table_token_url(base_url, protocol)) if entry_open else "",
                link=printed_link(table_entry_url(base_url, series, protocol.table)) if entry_open else "",
                # the PIN lives on the protocol; printing the sheets is when the tables need it
                pin=protocol.pin if entry_open else "",
                ended_early=filled and protocol.ended_early,
                penalties=penalties.get(protocol.table, []),
                **rows,
            )
        )
    return sheets


@dataclass
class TablePin:
    """One table's way in for its phones: its protocol (the PIN and the counts of wrong PINs
    that lock it), its link as printed on its protocol, the address with its token (as its QR code
    opens it), and who sits there."""

    protocol: Protocol
    link: str
    token_url: str
    players: list[str]


def table_pins(series: Series, *, base_url: str) -> list[TablePin]:
    """Every table of a drawn series with its link and PIN, in table order, in two queries."""
    seated: dict[int, list[str]] = {}
    for a in TableAssignment.objects.filter(series=series).select_related("player").order_by("table", "seat"):
        seated.setdefault(a.table, []).append(a.player.full_name)
    return [
        TablePin(
            protocol,
            printed_link(table_entry_url(base_url, series, protocol.table)),
            table_token_url(base_url, protocol),
            seated.get(protocol.table, []),
        )
        for protocol in series.protocols.order_by("table")
    ]


def blank_protocol_sheet(tournament: Tournament) -> ProtocolSheet:
    """A protocol for a walk-in table: the tournament printed, everything else by hand."""
    return ProtocolSheet(
        series=None,
        table=None,
        players=[(seat, None, "") for seat in tournament.seats],
        **game_of(tournament).print_rows(tournament=tournament)(None, {}),
    )


def series_table_numbers(series: Series) -> list[int]:
    """The table numbers of a drawn series (the tables its draw made protocols for), in order."""
    return list(series.protocols.order_by("table").values_list("table", flat=True))


def protocol_template(tournament: Tournament) -> str:
    """The template of the tournament's table protocols, as its game prints them."""
    return game_of(tournament).templates.print_protocol


def protocol_context(tournament: Tournament, sheet: ProtocolSheet) -> dict[str, Any]:
    """One protocol, alone in its PDF (a single table's download or the blank walk-in sheet)."""
    return protocols_context(tournament, [sheet], title=sheet.title)


def protocols_context(tournament: Tournament, sheets: Sequence[ProtocolSheet], title: str = "") -> dict[str, Any]:
    """Several protocols in one document, each from a new page.

    One WeasyPrint document for many sheets parses and cascades the stylesheet
    once instead of once per table. The page numbers stay each sheet's own: the
    template makes every sheet a page group restarting the page counter, and its
    footer's total is the page of the sheet's last element (the ``protocolpages``
    string), not the document's page count.
    """
    default_title, sheet_layout = game_of(tournament).print_layout(tournament=tournament)
    return document_context(
        tournament,
        title or default_title,
        sheets=sheets,
        page_counter=page_counter_css("string(protocolpages)"),
        **sheet_layout,
    )


# --- results sheets -----------------------------------------------------------


def published_series_count(tournament: Tournament) -> int:
    """How many series the public standings count: the closed ones with their results published."""
    return tournament.series.filter(status=Series.Status.CLOSED, results_published=True).count()


# More players than this, and the results sheets are printed by the worker (a print job) rather
# than in the referee's request: 512 players took 9.5 s to lay out, 100 about 1 s.
RESULTS_IN_REQUEST_PLAYERS = 100


def results_now(tournament: Tournament) -> dict[str, Any]:
    """:func:`results_context` of the tournament's public standings as they are now."""
    return results_context(tournament, tournament_rankings(tournament), series=published_series_count(tournament))


def results_context(
    tournament: Tournament, standings: dict[str, list[dict[str, Any]]], *, series: int
) -> dict[str, Any]:
    """The results sheets from the public standings (``league.standings.cache.tournament_rankings``,
    which already carry each entry's place label, "3–4." for a shared place) after ``series``
    counted series: each published, non-empty ranking on its own page."""
    # a printed sheet on the wall is publishing too: only the lists the organiser publishes
    rankings = [
        {"key": ranking_list.key, "title": ranking_list.title, "entries": entries}
        for ranking_list in published_lists(tournament)
        if (entries := standings.get(ranking_list.key))
    ]
    after = ngettext("after %(count)s series", "after %(count)s series", series) % {"count": series}
    # the referee's penalties the lists count, as published: closed series with their results out
    penalties = published_penalties(tournament=tournament)
    big_points = any(line.big_points for line in penalties)
    return document_context(
        tournament, _("Results"), rankings=rankings, after=after, penalties=penalties, penalty_big_points=big_points
    )

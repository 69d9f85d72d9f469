"""The printed pulka sheet: its column widths reach WeasyPrint as CSS in any language (found by an attack)."""

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from league.printing import documents
from tests.factories import PreferansTournamentFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("table_size", [4, 3])
def test_the_polish_pulka_sheet_gives_its_columns_widths_the_printer_can_read(table_size):
    tournament = PreferansTournamentFactory(table_size=table_size)
    context = documents.protocol_context(tournament, documents.blank_protocol_sheet(tournament))
    with translation.override("pl"):
        html = render_to_string(documents.protocol_template(tournament), context)
    widths = re.findall(r'<col style="width: ([^"]*)">', html)
    # 6,9mm (decimal comma) is not CSS: WeasyPrint drops it and the grid image no longer meets the columns
    assert widths and all(re.fullmatch(r"\d+(\.\d+)?mm", width) for width in widths), widths

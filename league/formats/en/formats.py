"""English pages and sheets write dates as the Polish ones do (05.12.2026, 18:30): a league's
dates mean the same to every reader, and 12/05/2026 would read as the 12th of May in Poland.
Numbers keep the English decimal point."""

# Django reads the formats as this module's names
from league.formats.pl.formats import (  # noqa: F401
    DATE_FORMAT,
    DATE_INPUT_FORMATS,
    DATETIME_FORMAT,
    DATETIME_INPUT_FORMATS,
    FIRST_DAY_OF_WEEK,
    MONTH_DAY_FORMAT,
    SHORT_DATE_FORMAT,
    SHORT_DATETIME_FORMAT,
    TIME_FORMAT,
)

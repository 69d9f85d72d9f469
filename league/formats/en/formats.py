"""English pages and sheets write dates as the Polish ones do (05.12.2026, 18:30): a league's
dates mean the same to every reader, and 12/05/2026 would read as the 12th of May in Poland.
Numbers keep the English decimal point."""

DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = "d.m.Y"
DATETIME_FORMAT = "d.m.Y H:i"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
MONTH_DAY_FORMAT = "d.m"
TIME_FORMAT = "H:i"
DATE_INPUT_FORMATS = ["%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d"]
DATETIME_INPUT_FORMATS = ["%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M", "%d.%m.%Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"]
FIRST_DAY_OF_WEEK = 1  # Monday

"""Polish formats as the clubs write them on their sheets: 05.12.2026, 18:30, 2,5."""

DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = "d.m.Y"
DATETIME_FORMAT = "d.m.Y H:i"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
MONTH_DAY_FORMAT = "d.m"
TIME_FORMAT = "H:i"
DATE_INPUT_FORMATS = ["%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d"]
DATETIME_INPUT_FORMATS = ["%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M", "%d.%m.%Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"  # a non-breaking space: 1 250 stays on one line
NUMBER_GROUPING = 3
FIRST_DAY_OF_WEEK = 1  # Monday

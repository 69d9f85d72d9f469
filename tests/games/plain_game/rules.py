"""Zero (gra na zero): each deal written as one integer per seat, summing to zero; the whole game."""

from django.utils.translation import gettext_lazy

from league.games.plain.game import PlainRowsGame


class Zero(PlainRowsGame):
    key = "zero"
    label = gettext_lazy("Zero")
    form_heading = gettext_lazy("Zero only")


ZERO = Zero()

"""The games a tournament may play, as ``Tournament.game`` stores them: the keys of the games'
rules objects (``settings.BASKA_GAMES``), the default first."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    """The card game a tournament plays."""

    BASKA = "baska", _("Baśka")
    PREFERANS = "preferans", _("Preferans")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingConfig(AppConfig):
    name = "league.rating"
    label = "rating"
    verbose_name = _("Rating")

    def ready(self) -> None:
        # A merge of two players is written by ``players.services`` alone and runs no standings
        # task; the receiver recomputes the ratings from the merged player's first series. Here,
        # not at the top: the receivers read the models, which are not loaded yet.
        from . import receivers  # noqa: F401

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games (league.games): no models; their template tags and pages' templates."""

    name = "league.games"
    label = "games"

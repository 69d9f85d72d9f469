"""The tournament room's fixtures (tests/tournaments/conftest.py), for its Preferans tests kept with their game."""

from tests.tournaments.conftest import tournament  # noqa: F401  (the fixture)

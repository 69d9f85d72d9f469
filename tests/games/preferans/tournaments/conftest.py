"""The tournament room's fixtures (tests/tournaments/conftest.py), for the Preferans tests of that room kept with their game."""

from tests.tournaments.conftest import tournament  # noqa: F401  (the fixture)

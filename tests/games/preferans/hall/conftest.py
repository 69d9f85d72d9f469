"""The control room's fixtures (tests/hall/conftest.py), for the pulka's room tests kept with their game."""

from tests.hall.conftest import no_room_kept, organiser, referee  # noqa: F401  (the fixtures)

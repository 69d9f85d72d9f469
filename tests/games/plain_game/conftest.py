from tests.games.plain_game.fixtures import zero_game  # noqa: F401  (the fixture, for these tests)

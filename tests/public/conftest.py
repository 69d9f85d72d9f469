import pytest

from league.public import page_store


class Clock:
    """time.monotonic for page_store, moved on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch, settings):
    """The stamps are read once a second, on a clock the test moves (``clock.now += 1``)."""
    settings.STANDINGS_STAMP_SECONDS = 1
    clock = Clock()
    monkeypatch.setattr(page_store.time, "monotonic", clock)
    return clock

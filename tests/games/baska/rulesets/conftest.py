"""A ruleset of the own-rules room's organiser (tests/conftest.py: logged in)."""

import pytest

from tests.factories import OwnRulesetFactory


@pytest.fixture
def own(organiser):
    return OwnRulesetFactory(owner=organiser, name="Liga Kaszubska 2027")

# the public pages' hand-moved clock: a reload within the second is answered from the page kept
from tests.public.conftest import clock  # noqa: F401

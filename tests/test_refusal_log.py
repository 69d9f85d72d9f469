"""A 403 writes one line to the server's log, not a traceback (issue 41)."""

import logging
import logging.config

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_refused_request_is_one_line_in_the_log(client, capsys):
    logging.config.dictConfig(settings.LOGGING)  # the console handler as production has it
    client.force_login(UserFactory())
    tournament = TournamentFactory()
    assert client.get(reverse("results:series", args=[tournament.slug, 1])).status_code == 403
    logged = capsys.readouterr().err.strip().splitlines()
    assert len(logged) == 1 and logged[0].startswith("Forbidden"), logged
    assert "Traceback" not in "\n".join(logged)

"""The admin keeps a Preferans tournament's pulka settings once its pulkas have entries (found by an attack)."""

import pytest
from django.contrib.admin.sites import site
from django.forms.models import model_to_dict
from django.test import Client
from django.urls import reverse

from league.models import Tournament
from league.results import services
from tests.factories import PreferansTournamentFactory, UserFactory, drawn_series, game_settings

pytestmark = pytest.mark.django_db

# at a table of three in a pulka to 10: B's ten, then C's six; to 2 the ten alone fills the pulka
TEN_BY_B = {"contract": "10NT", "declarer": "B"}
SIX_BY_C = {"contract": "6S", "declarer": "C"}


def played_pulka():
    series = drawn_series(PreferansTournamentFactory(table_size=3), tables=1)
    referee = UserFactory()
    series.tournament.referees.add(referee)
    protocol = series.protocols.get()
    for number, entry in enumerate([TEN_BY_B, SIX_BY_C], start=1):
        protocol = services.protocol_row_save(
            protocol=protocol, number=number, deal=entry, expected_version=protocol.version, user=referee
        )
    return protocol, referee


def stored(tournament, name):
    """The tournament's column ``name``, or its setting of its game."""
    return getattr(game_settings(tournament), name, None) or getattr(tournament, name)


def admin_change(rf, tournament, **changes):
    superuser = UserFactory(is_staff=True, is_superuser=True)
    request = rf.get("/")
    request.user = superuser
    model_admin = site._registry[Tournament]
    form_class = model_admin.get_form(request, obj=tournament, change=True)
    data = {key: value for key, value in model_to_dict(tournament).items() if value is not None}
    data["organisers"] = [user.pk for user in data.get("organisers", [])]
    data["referees"] = [user.pk for user in data.get("referees", [])]
    data.pop("organiser_logo", None)
    return form_class({**data, **changes}, instance=tournament)


@pytest.mark.parametrize(
    "changes",
    [{"pulka_total": 2}, {"pulka_variant": "leningrad"}, {"game": "baska", "table_size": 4}, {"table_size": 4}],
    ids=["total", "variant", "game", "table_size"],
)
def test_the_admin_keeps_the_pulka_settings_once_its_pulkas_have_entries(rf, changes):
    protocol, _referee = played_pulka()
    tournament = protocol.series.tournament
    before = {name: stored(tournament, name) for name in changes}
    form = admin_change(rf, tournament, **changes)
    # shown read-only, as the organiser's form disables them ("Deals have been played" / "tables drawn")
    assert not set(changes) & set(form.fields)
    form.save()
    tournament.refresh_from_db()
    assert {name: stored(tournament, name) for name in changes} == before


def test_a_pulka_total_lowered_in_the_admin_does_not_break_the_tables_protocol_page(rf):
    protocol, referee = played_pulka()
    form = admin_change(rf, protocol.series.tournament, pulka_total=2)
    if form.is_valid():
        form.save()
    client = Client(raise_request_exception=False)
    client.force_login(referee)
    series = protocol.series
    page = client.get(reverse("results:protocol", args=[series.tournament.slug, series.number, protocol.table]))
    # the stored second deal now follows a full pulka: the engine's re-reading raises pulka_over (a 500)
    assert page.status_code == 200

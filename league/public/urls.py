"""The public site; included by the project at the root (``path("", include("league.public.urls"))``)."""

from django.urls import path

from . import api, projector, records, seating, views

app_name = "public"

urlpatterns = [
    path("sezony/<slug:slug>/", views.season_page, name="season"),
    path("t/<slug:slug>/", views.tournament_page, name="tournament"),
    path("t/<slug:slug>/klasyfikacja/", views.standings_page, name="standings"),
    path("t/<slug:slug>/gdzie-siedze/", seating.find_table, name="find_table"),
    path("t/<slug:slug>/seria/<int:number>/", views.series_page, name="series"),
    path("t/<slug:slug>/seria/<int:number>/stolik/<int:table>/", views.table_page, name="table"),
    path("t/<slug:slug>/rzutnik/", projector.projector_page, name="projector"),
    path("t/<slug:slug>/rzutnik/strony/", projector.projector_pages_fragment, name="projector_pages"),
    path("zawodnik/<int:pk>/", views.player_page, name="player"),
    path("druzyna/<int:pk>/", views.team_page, name="team"),
    path("rekordy/", records.records_page, name="records"),
    path("rekordy/<slug:slug>/", records.records_page, name="records_league"),
    path("api/t/<slug:slug>/klasyfikacja.json", api.standings, name="api_standings"),
]

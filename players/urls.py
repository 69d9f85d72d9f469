from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("zawodnicy/", views.player_list, name="player_list"),
    path("zawodnicy/dodaj/", views.player_add, name="player_add"),
    path("zawodnicy/<int:pk>/", views.player_edit, name="player_edit"),
    path("zawodnicy/<int:pk>/scal/", views.player_merge, name="player_merge"),
    path("zawodnicy/<int:pk>/usun/", views.player_delete, name="player_delete"),
    path("zawodnicy/szukaj/", views.player_search, name="search"),
    path("zawodnicy/import/", views.import_upload, name="import_upload"),
    path("zawodnicy/import/podglad/", views.import_preview, name="import_preview"),
    path("druzyny/", views.team_list, name="team_list"),
    path("druzyny/dodaj/", views.team_add, name="team_add"),
    path("druzyny/<int:pk>/", views.team_edit, name="team_edit"),
    path("kluby/", views.club_list, name="club_list"),
    path("kluby/dodaj/", views.club_add, name="club_add"),
]

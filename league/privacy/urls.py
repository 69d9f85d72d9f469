"""Players' data (RODO); included by the project at the root: the public notices, their editing
by the league's organisers, and a player's anonymisation and data export from the register."""

from django.urls import path

from league.privacy import views

app_name = "privacy"

urlpatterns = [
    path("prywatnosc/", views.notice_page, name="notice"),
    path("prywatnosc/edytuj/", views.notice_edit, name="notice_edit"),
    path("liga/<slug:slug>/prywatnosc/", views.notice_page, name="league_notice"),
    path("liga/<slug:slug>/prywatnosc/edytuj/", views.notice_edit, name="league_notice_edit"),
    path("zawodnicy/<int:pk>/anonimizuj/", views.player_anonymise, name="anonymise"),
    path("zawodnicy/<int:pk>/dane.json", views.player_data_json, name="data_json"),
    path("zawodnicy/<int:pk>/dane.pdf", views.player_data_pdf, name="data_pdf"),
]

"""The exchange file on the organiser's screens; included by the project under ``turnieje/``."""

from django.urls import path

from league.exchange import views

app_name = "exchange"

urlpatterns = [
    path("plik-wymiany/wczytaj/", views.upload, name="upload"),
    path("plik-wymiany/podglad/", views.preview, name="preview"),
    path("<slug:slug>/plik-wymiany/", views.download, name="download"),
    path("<slug:slug>/plik-wymiany/wersja-<int:pk>/", views.version_download, name="version"),
]

"""The rating list; included by the project at the root."""

from django.urls import path

from . import views

app_name = "rating"

urlpatterns = [
    path("ranking/", views.ranking_page, name="list"),
    path("ranking/<slug:game>/", views.ranking_page, name="game"),
]

"""The league screens; included by the project at the root: the organiser's under ``ligi/``,
the public ones under ``liga/<slug>/`` and the feed of every league at ``kalendarz.ics``."""

from django.urls import path

from league.leagues import views

app_name = "leagues"

urlpatterns = [
    path("ligi/", views.league_list, name="list"),
    path("ligi/nowa/", views.league_create, name="create"),
    path("ligi/<slug:slug>/", views.league_edit, name="edit"),
    path("ligi/<slug:slug>/organizatorzy/dodaj/", views.organiser_add, name="organiser_add"),
    path("ligi/<slug:slug>/organizatorzy/usun/", views.organiser_remove, name="organiser_remove"),
    path("liga/<slug:slug>/", views.league_page, name="page"),
    path("liga/<slug:slug>/logo.png", views.league_logo, name="logo"),
    path("liga/<slug:slug>/kalendarz/", views.league_calendar, name="calendar"),
    path("liga/<slug:slug>/kalendarz.ics", views.league_calendar_ics, name="calendar_ics"),
    path("kalendarz.ics", views.calendar_all_ics, name="calendar_all_ics"),
]

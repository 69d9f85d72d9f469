"""Organiser screens of tournaments; included by the project as ``turnieje/``."""

from django.urls import path

from league.tournaments import draw_views, registration_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("nowy/", views.tournament_create, name="create"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/publikacja/", views.publish, name="publish"),
]

# registration (registration_views)
urlpatterns += [
    path("<slug:slug>/zapisy/", registration_views.registration_list, name="registrations"),
    path("<slug:slug>/zapisy/dodaj/", registration_views.register, name="register"),
    path("<slug:slug>/zapisy/nowy-zawodnik/", registration_views.quick_add, name="quick_add"),
    path(
        "<slug:slug>/zapisy/<int:pk>/obecnosc/",
        registration_views.toggle,
        {"flag": "checked_in"},
        name="check_in",
    ),
    path("<slug:slug>/zapisy/<int:pk>/oplata/", registration_views.toggle, {"flag": "fee_paid"}, name="fee"),
    path("<slug:slug>/zapisy/<int:pk>/wycofanie/", registration_views.withdraw, name="withdraw"),
]

# the draw (draw_views)
urlpatterns += [
    path("<slug:slug>/losowanie/", draw_views.draw_page, name="draw"),
    path("<slug:slug>/losowanie/seria-<int:number>/zamiana/", draw_views.swap, name="swap"),
    path("<slug:slug>/losowanie/dziennik/", draw_views.draw_log, name="draw_log"),
]

"""Organiser screens of tournaments; included by the project as ``turnieje/``."""

from django.urls import path

from league.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("nowy/", views.tournament_create, name="create"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/publikacja/", views.publish, name="publish"),
    path("<slug:slug>/zapisy/", views.registration_list, name="registrations"),
    path("<slug:slug>/zapisy/dodaj/", views.register, name="register"),
    path("<slug:slug>/zapisy/nowy-zawodnik/", views.quick_add, name="quick_add"),
    path("<slug:slug>/zapisy/<int:pk>/obecnosc/", views.toggle, {"flag": "checked_in"}, name="check_in"),
    path("<slug:slug>/zapisy/<int:pk>/oplata/", views.toggle, {"flag": "fee_paid"}, name="fee"),
    path("<slug:slug>/zapisy/<int:pk>/wycofanie/", views.withdraw, name="withdraw"),
    path("<slug:slug>/losowanie/", views.draw_page, name="draw"),
    path("<slug:slug>/losowanie/seria-<int:number>/zamiana/", views.swap, name="swap"),
    path("<slug:slug>/losowanie/dziennik/", views.draw_log, name="draw_log"),
]

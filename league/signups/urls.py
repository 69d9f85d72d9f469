"""Online sign-ups; included by the project at the root, beside the organiser's ``turnieje/`` screens
and the public ``t/`` pages."""

from django.urls import path

from league.signups import views

app_name = "signups"

urlpatterns = [
    path("t/<slug:slug>/zgloszenie/", views.signup_page, name="signup"),
    path("t/<slug:slug>/zgloszenie/<str:token>/", views.signup_detail, name="detail"),
    path("turnieje/<slug:slug>/zgloszenia/", views.signup_list, name="list"),
    path("turnieje/<slug:slug>/zgloszenia/ustawienia/", views.signup_window_edit, name="window"),
    path("turnieje/<slug:slug>/zgloszenia/potwierdz/", views.signups_confirm, name="confirm"),
    path("turnieje/<slug:slug>/zgloszenia/anuluj/", views.signups_cancel, name="cancel"),
]

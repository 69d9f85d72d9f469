"""The organiser's own rules ("Własne zasady"); included by the project as ``zasady/``."""

from django.urls import path

from league.games.baska.rulesets import views

app_name = "rulesets"

urlpatterns = [
    path("", views.ruleset_list, name="list"),
    path("nowe/", views.ruleset_create, name="create"),
    path("<int:pk>/", views.ruleset_edit, name="edit"),
    path("<int:pk>/usun/", views.ruleset_delete, name="delete"),
]

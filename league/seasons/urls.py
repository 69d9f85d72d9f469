"""The organiser's season screens; included by the project as ``sezony-ligi/``
(the public season page is ``sezony/<slug>/``)."""

from django.urls import path

from league.seasons import views

app_name = "seasons"

urlpatterns = [
    path("", views.season_list, name="list"),
    path("nowy/", views.season_create, name="create"),
    path("<slug:slug>/", views.season_edit, name="edit"),
    path("<slug:slug>/turnieje/dodaj/", views.season_attach, name="attach"),
    path("<slug:slug>/turnieje/<int:pk>/odlacz/", views.season_detach, name="detach"),
    path("<slug:slug>/turnieje/<int:pk>/liczenie/", views.season_counts, name="counts"),
]

"""The control room of a series; included by the project as ``turnieje/``."""

from django.urls import path

from . import views

app_name = "hall"

room = "<slug:slug>/seria-<int:number>/sala/"

urlpatterns = [
    path(room, views.room, name="room"),
    path(room + "stoly/", views.room_tables, name="tables"),
    path(room + "start/", views.clock_start, name="start"),
    path(room + "pauza/", views.clock_pause, name="pause"),
    path(room + "wznow/", views.clock_resume, name="resume"),
    path(room + "koniec-czasu/", views.time_up, name="time_up"),
]

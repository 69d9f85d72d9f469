"""The table scorer's phone pages; included by the project as ``turnieje/``. Each game adds its
own forms (``GameRules.phone_urls``) under the same names for every tournament."""

from django.urls import path

from league.games import registered_games
from league.results.table import queue_views, service_worker, views

app_name = "table"

table = "<slug:slug>/stolik/<int:series>/<int:table>/"

urlpatterns = [
    path(table, views.protocol_page, name="protocol"),
    path("<slug:slug>/stolik/sw.js", service_worker.service_worker, name="sw"),
    path(table + "pin/", views.pin_entry, name="pin"),
    path(table + "podglad/", views.preview, name="preview"),
    path(table + "zapisz/", views.save_row, name="save"),
    path(table + "rozdanie-<int:number>/", views.edit_row, name="edit"),
    path(table + "rozdanie-<int:number>/usun/", views.delete_row, name="delete"),
    path(table + "koniec/", views.finish, name="finish"),
    path(table + "potwierdzenie/", views.confirm, name="confirm"),
    path(table + "rozdania.json", queue_views.deals, name="deals_json"),
    path(table + "stan.json", queue_views.state, name="state_json"),
    path(table + "kontakt.json", queue_views.contact, name="contact_json"),
    path(table + "tabela-wartosci.json", queue_views.value_table, name="value_table_json"),
]
urlpatterns += [pattern for game in registered_games().values() for pattern in game.phone_urls()]

"""The table scorer's phone pages; included by the project as ``turnieje/``."""

from django.urls import path

from . import offline_views, table_sw
from . import table_views as views

app_name = "table"

table = "<slug:slug>/stolik/<int:series>/<int:table>/"

urlpatterns = [
    path(table, views.protocol_page, name="protocol"),
    path("<slug:slug>/stolik/sw.js", table_sw.service_worker, name="sw"),
    path(table + "pin/", views.pin_entry, name="pin"),
    path(table + "podglad/", views.preview, name="preview"),
    path(table + "zapisz/", views.save_row, name="save"),
    path(table + "rozdanie-<int:number>/", views.edit_row, name="edit"),
    path(table + "rozdanie-<int:number>/usun/", views.delete_row, name="delete"),
    path(table + "koniec/", views.finish, name="finish"),
    path(table + "potwierdzenie/", views.confirm, name="confirm"),
    path(table + "pulka/rozdanie/", views.pulka_deal, name="pulka_deal"),
    path(table + "pulka/wpis-<int:number>/", views.pulka_entry, name="pulka_entry"),
    path(table + "pulka/zamkniecie/", views.pulka_close, name="pulka_close"),
    path(table + "rozdania.json", offline_views.deals, name="deals_json"),
    path(table + "stan.json", offline_views.state, name="state_json"),
    path(table + "kontakt.json", offline_views.contact, name="contact_json"),
    path(table + "tabela-wartosci.json", offline_views.value_table, name="value_table_json"),
]

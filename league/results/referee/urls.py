"""Results entry for referees; included by the project as ``turnieje/``. Each game adds its own
forms (``GameRules.referee_urls``) under the same names for every tournament."""

from django.urls import path

from league.games import registered_games
from league.results.penalties import views as penalty_views
from league.results.referee import views

app_name = "results"

series = "<slug:slug>/seria-<int:number>/"
table = series + "stol-<int:table>/"

urlpatterns = [
    path(series + "wyniki/", views.series_results, name="series"),
    path(series + "zamknij/", views.close_series, name="close"),
    path(series + "otworz-ponownie/", views.reopen_series, name="reopen"),
    path(series + "nowe-piny/", views.series_pins_renew, name="new_pins"),
    path(series + "kary/dodaj/", penalty_views.penalty_add, name="penalty_add"),
    path(series + "kary/<int:pk>/", penalty_views.penalty_edit, name="penalty"),
    path(series + "kary/<int:pk>/usun/", penalty_views.penalty_remove, name="penalty_remove"),
    path(table, views.protocol_entry, name="protocol"),
    path(table + "sumy/", views.protocol_totals, name="totals"),
    path(table + "potwierdzenie/", views.protocol_confirm, name="confirm"),
    path(table + "cofnij-zakonczenie/", views.protocol_reopen, name="uncomplete"),
    path(table + "rozdanie-<int:row>/", views.row_correction, name="correct"),
    path(table + "historia/", views.protocol_history, name="history"),
    path(table + "nowy-pin/", views.protocol_pin_renew, name="new_pin"),
    path(table + "odblokuj/", views.protocol_pin_unlock, name="unlock"),
    path(table + "kary/dodaj/", penalty_views.penalty_add, name="table_penalty_add"),
]
urlpatterns += [pattern for game in registered_games().values() for pattern in game.referee_urls()]

"""Organiser screens of tournaments; included by the project as ``turnieje/``."""

from django.urls import path

from league.tournaments import draw_views, registration_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("nowy/", views.tournament_create, name="create"),
    path("zaproszenia/<int:pk>/", views.invitation_answer, name="invitation_answer"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/publikacja/", views.publish, name="publish"),
    path("<slug:slug>/ustawienia/", views.tournament_update, name="update"),
    path("<slug:slug>/usun/", views.tournament_delete, name="delete"),
    path("<slug:slug>/opublikuj/", views.tournament_publish, name="publish_tournament"),
    path("<slug:slug>/archiwum/", views.tournament_archive, name="archive"),
    path("<slug:slug>/obsluga/", views.staff, name="staff"),
    path("<slug:slug>/obsluga/dodaj/", views.staff_change, {"action": "add"}, name="staff_add"),
    path("<slug:slug>/obsluga/usun/", views.staff_change, {"action": "remove"}, name="staff_remove"),
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
    path("<slug:slug>/zapisy/<int:pk>/druzyna/", registration_views.change_team, name="registration_team"),
    path("<slug:slug>/zapisy/<int:pk>/usun/", registration_views.unregister, name="unregister"),
    path("<slug:slug>/zapisy/zaznaczeni/", registration_views.bulk_tick, name="registrations_bulk"),
    path("<slug:slug>/zapisy/nowa-druzyna/", registration_views.build_team, name="team_build"),
    path("<slug:slug>/zapisy/wszyscy/", registration_views.flag_all, name="registrations_all"),
    path("<slug:slug>/zapisy/wielu/", registration_views.add_many, name="add_many"),
]

# the draw (draw_views)
urlpatterns += [
    path("<slug:slug>/losowanie/", draw_views.draw_page, name="draw"),
    path("<slug:slug>/losowanie/seria-<int:number>/zamiana/", draw_views.swap, name="swap"),
    path("<slug:slug>/losowanie/seria-<int:number>/ponownie/", draw_views.redraw, name="redraw"),
    path("<slug:slug>/losowanie/seria-<int:number>/przywroc/", draw_views.redraw_undo, name="redraw_undo"),
    path("<slug:slug>/losowanie/dziennik/", draw_views.draw_log, name="draw_log"),
    path("<slug:slug>/losowanie/seria-<int:number>/historia/", draw_views.draw_history, name="draw_history"),
    path(
        "<slug:slug>/losowanie/seria-<int:number>/historia/<int:pk>/przywroc/",
        draw_views.draw_restore,
        name="draw_restore",
    ),
    path("<slug:slug>/losowanie/stale-miejsca/", draw_views.fixed_seats, name="fixed_seats"),
    path("<slug:slug>/losowanie/stale-miejsca/<int:pk>/usun/", draw_views.fixed_seat_remove, name="fixed_seat_remove"),
]

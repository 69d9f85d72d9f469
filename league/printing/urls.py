"""Printing; included by the project as ``path("turnieje/", include("league.printing.urls"))``."""

from django.urls import path

from league.printing import views
from league.printing.models import PrintJob

app_name = "printing"

PLAY, ARCHIVE = {"kind": PrintJob.Kind.PROTOCOLS}, {"kind": PrintJob.Kind.ARCHIVE}

urlpatterns = [
    path("<slug:slug>/druk/", views.index, name="index"),
    path("<slug:slug>/druk/zapisy.pdf", views.registration_list, name="registrations"),
    path("<slug:slug>/druk/wyniki.pdf", views.results, name="results"),
    path("<slug:slug>/druk/wyniki/", views.start_results_job, name="results_job"),
    path("<slug:slug>/druk/protokol.pdf", views.blank_protocol, name="blank_protocol"),
    path("<slug:slug>/druk/karteczki.pdf", views.seating_slips, name="seating_slips"),
    path("<slug:slug>/druk/kto-gdzie-siedzi.pdf", views.noticeboard, name="noticeboard"),
    path("<slug:slug>/druk/seria-<int:number>/stoliki.pdf", views.table_list, name="table_list"),
    path("<slug:slug>/druk/seria-<int:number>/piny/", views.table_pins, name="pins"),
    path("<slug:slug>/druk/seria-<int:number>/piny.pdf", views.table_pins_pdf, name="pins_pdf"),
    path("<slug:slug>/druk/seria-<int:number>/stolik-<int:table>/protokol.pdf", views.protocol, PLAY, name="protocol"),
    path(
        "<slug:slug>/druk/seria-<int:number>/stolik-<int:table>/archiwum.pdf", views.protocol, ARCHIVE, name="archive"
    ),
    path("<slug:slug>/druk/seria-<int:number>/protokoly/", views.start_job, PLAY, name="protocols_job"),
    path("<slug:slug>/druk/seria-<int:number>/archiwum/", views.start_job, ARCHIVE, name="archive_job"),
    path("<slug:slug>/druk/zadanie/<int:pk>/", views.job, name="job"),
    path("<slug:slug>/druk/zadanie/<int:pk>/ponow/", views.restart_job, name="restart_job"),
    path("<slug:slug>/druk/zadanie/<int:pk>/plik.pdf", views.job_file, name="job_file"),
]

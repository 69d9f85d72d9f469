"""The organiser's logo: checked by its content when uploaded, stored as a small PNG,
and no document, whatever file sits in the logo's place, makes the server fetch
anything but our own static and media files."""

from __future__ import annotations

import io
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from league.models import Tournament
from league.printing import documents, layout, tasks
from league.printing.models import PrintJob
from league.tournaments.forms import TournamentForm
from league.tournaments.services import tournament_create
from tests.factories import UserFactory, tournament_form_data
from tests.printing.test_documents import seated_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def listener():
    """A web server on 127.0.0.1, as an internal service the server can reach; yields
    its address and the paths it was asked for."""
    asked: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", asked
    server.shutdown()
    server.server_close()


def hostile_svg(address: str) -> bytes:
    """An SVG that has WeasyPrint fetch ``address`` as an image and as a stylesheet."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100">'
        f'<style>@import url("{address}/style.css");</style>'
        f'<image href="{address}/image.png" xlink:href="{address}/image.png" width="200" height="100"/>'
        "</svg>"
    ).encode()


def png(width: int, height: int, image_format: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, image_format)
    return out.getvalue()


def huge_png(width: int, height: int) -> bytes:
    """A valid greyscale PNG of ``width`` × ``height`` white pixels, written row by row:
    a few hundred kilobytes on disk, gigabytes once decoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    compressor = zlib.compressobj(9)
    row = b"\x00" + b"\xff" * width
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def tournament_form(logo: bytes, name: str = "logo.png") -> TournamentForm:
    return TournamentForm(tournament_form_data(), {"organiser_logo": SimpleUploadedFile(name, logo)})


def created(form: TournamentForm) -> Tournament:
    """The tournament the organiser's create screen makes of ``form``."""
    assert form.is_valid(), form.errors
    return tournament_create(user=UserFactory(), **form.cleaned_data)


def logo_errors(form: TournamentForm) -> list[str]:
    assert not form.is_valid()
    return form.errors["organiser_logo"]


def test_an_svg_named_png_is_refused_at_upload(listener) -> None:
    address, _asked = listener

    errors = logo_errors(tournament_form(hostile_svg(address)))

    assert errors == ["The logo must be a PNG, JPEG, GIF or WebP picture; this file is none of them."]


def test_the_create_screen_refuses_an_svg_logo_in_polish_and_creates_nothing(client, listener) -> None:
    address, asked = listener
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    form = tournament_form(b"")

    response = client.post(
        reverse("tournaments:create"),
        {**form.data, "organiser_logo": SimpleUploadedFile("logo.png", hostile_svg(address))},
        HTTP_ACCEPT_LANGUAGE="pl",
    )

    assert response.status_code == 200
    assert "Logo musi być obrazkiem PNG, JPEG, GIF lub WebP" in response.content.decode()
    assert not Tournament.objects.exists() and asked == []


@pytest.mark.parametrize("content", [b"%PDF-1.4 not a picture", b"\x89PNG\r\n\x1a\n broken", b"GIF89a"])
def test_a_file_that_is_no_picture_is_refused_whatever_its_name(content) -> None:
    assert logo_errors(tournament_form(content, "logo.jpg"))


@pytest.mark.parametrize("side", [4_500, 12_000, 20_000])
def test_a_logo_of_too_many_pixels_is_refused_before_it_is_decoded(side) -> None:
    errors = logo_errors(tournament_form(huge_png(side, side)))

    assert errors == ["The logo has more than 16 megapixels; send a smaller picture."]


def test_a_logo_over_the_upload_limit_is_refused(settings) -> None:
    content = png(300, 300)
    settings.BASKA_UPLOAD_MAX_BYTES = len(content) - 1

    assert logo_errors(tournament_form(content))


def test_a_large_logo_is_shrunk_to_fit_and_stored_as_png(media_root) -> None:
    tournament = created(tournament_form(png(2400, 1200, "JPEG"), "herb gminy.jpg"))

    assert tournament.organiser_logo.name.endswith(".png")
    with Image.open(tournament.organiser_logo.path) as stored:
        assert stored.format == "PNG"
        assert stored.size == (600, 300)


def test_a_small_logo_keeps_its_size() -> None:
    tournament = created(tournament_form(png(120, 80, "GIF"), "logo.gif"))

    with Image.open(tournament.organiser_logo.path) as stored:
        assert (stored.format, stored.size) == ("PNG", (120, 80))


# --- documents: whatever file is in the logo's place -----------------------


def stored_logo(media_root: Path, content: bytes) -> Tournament:
    """A tournament whose logo on disk, stored before uploads were checked, is ``content`` under a .png name."""
    tournament, _series = seated_tournament()
    (media_root / "logos").mkdir(parents=True)
    (media_root / "logos" / "old.png").write_bytes(content)
    tournament.organiser_logo.name = "logos/old.png"
    tournament.save()
    return tournament


def organiser_of(client, tournament: Tournament) -> None:
    user = UserFactory()
    tournament.organisers.add(user)
    client.force_login(user)


def printed_images(client, tournament: Tournament) -> list[tuple[int, int]]:
    """The sizes of the pictures on the first page of the registration list, as an organiser prints it."""
    organiser_of(client, tournament)
    response = client.get(reverse("printing:registrations", args=[tournament.slug]))
    assert response["Content-Type"] == "application/pdf"
    return [image.image.size for image in PdfReader(io.BytesIO(response.content)).pages[0].images]


@pytest.mark.django_db(transaction=True)  # the batch prints in a thread, which sees committed rows only
def test_a_hostile_logo_on_disk_makes_no_document_fetch_anything(client, media_root, listener) -> None:
    address, asked = listener
    tournament = stored_logo(media_root, hostile_svg(address))
    organiser_of(client, tournament)

    for name, args in [("registrations", [tournament.slug]), ("protocol", [tournament.slug, 1, 1])]:
        response = client.get(reverse(f"printing:{name}", args=args))
        assert response["Content-Type"] == "application/pdf", name
    client.post(reverse("printing:protocols_job", args=[tournament.slug, 1]))
    tasks.wait_for_background_prints()

    assert PrintJob.objects.get().status == PrintJob.Status.DONE
    assert asked == []


def test_a_document_referencing_an_svg_that_fetches_fetches_nothing(media_root, listener) -> None:
    address, asked = listener
    hostile = media_root / "logos" / "old.png"
    hostile.parent.mkdir(parents=True)
    hostile.write_bytes(hostile_svg(address))
    tournament, _series = seated_tournament()
    context = documents.document_context(tournament, "Lista", groups=[], total=0)
    html = (
        f'<link rel="stylesheet" href="{address}/style.css">'
        f'<img src="{hostile.as_uri()}"><img src="{address}/direct.png">'
    )

    documents.render_pdf("printing/registration_list.html", {**context, "logo_url": hostile.as_uri()})
    layout.html_to_pdf(layout.Chunk(html, "/", documents.own_file_roots()))

    assert asked == []


def test_documents_read_only_our_own_files(settings, listener) -> None:
    address, asked = listener
    fetcher = layout.OwnFiles(documents.own_file_roots())

    outside = Path(settings.MEDIA_ROOT) / ".." / ".." / "etc" / "passwd"
    for url in (
        f"{address}/",
        "file:///etc/passwd",
        "file://127.0.0.1/etc/passwd",
        "ftp://127.0.0.1/",
        outside.as_uri(),
    ):
        with pytest.raises(ValueError):
            fetcher.fetch(url)
    assert asked == []

    font = Path(finders.find("fonts/DejaVuSans.ttf"))
    assert fetcher.fetch(font.as_uri()).read(4) == font.read_bytes()[:4]


def test_an_uploaded_logo_is_printed(client) -> None:
    tournament = created(tournament_form(png(200, 100)))

    assert printed_images(client, tournament) == [(200, 100)]


def test_a_large_logo_stored_before_the_check_is_printed_shrunk(client, media_root) -> None:
    tournament = stored_logo(media_root, png(2400, 1200, "JPEG"))

    assert printed_images(client, tournament) == [(600, 300)]


@pytest.mark.parametrize("side", [7_000, 20_000])
def test_a_logo_of_too_many_pixels_stored_before_the_check_is_left_out(client, media_root, side) -> None:
    tournament = stored_logo(media_root, huge_png(side, side))

    assert printed_images(client, tournament) == []

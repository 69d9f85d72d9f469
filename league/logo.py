"""The organiser's logo: checked when the tournament's form takes it, printed in the documents' header.

An uploaded logo is trusted by nothing but its content: Pillow must recognise it
as one of a few plain raster formats, it must not be a decompression bomb, and
what is stored is a re-encoded PNG no larger than the header needs. An SVG (which
may reference any address, and WeasyPrint would fetch it) or anything else is
refused. A logo stored before this check is checked the same way each time it
is printed (:func:`printable_logo`), and the documents' own ``url_fetcher``
(``league.printing.layout.OwnFiles``) lets no document fetch anything else.
"""

from __future__ import annotations

import base64
import io
import warnings
from pathlib import Path
from typing import IO

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

# Pillow's names of the formats accepted; Pillow would also open EPS (by running
# Ghostscript), PSD, ICO and dozens more, none of which a logo needs.
LOGO_FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
# Image.open reads the header only; a larger picture is refused before its pixels are
# decoded: shrinking a 16 MP PNG takes about 73 MB and 0.2 s here (40 MP: 164 MB, and more under gunicorn).
MAX_LOGO_PIXELS = 16_000_000
# The header prints the logo 12 mm high and at most 35 mm wide: 600 px is over 400 dpi.
LOGO_BOX = (600, 600)


def logo_normalise(*, upload: UploadedFile) -> ContentFile:
    """The uploaded logo as a PNG of at most ``LOGO_BOX`` pixels, named after the upload.

    Raises ``ValidationError`` with the organiser's message when the file is too big,
    is no picture of ``LOGO_FORMATS`` or has too many pixels.
    """
    if upload.size > settings.BASKA_UPLOAD_MAX_BYTES:
        raise ValidationError(
            _("The logo file is too big; send one of at most %(size)s.")
            % {"size": filesizeformat(settings.BASKA_UPLOAD_MAX_BYTES)}
        )
    upload.seek(0)
    return ContentFile(small_png(upload), name=f"{Path(upload.name).stem}.png")


def printable_logo(path: str) -> str:
    """The stored logo at ``path`` as a URL for the documents' header, or "" for none.

    A logo uploaded since uploads are checked is a small PNG: its file is used as it is
    (and a batch decodes it once). One stored before may be anything: a picture of
    ``LOGO_FORMATS`` is shrunk for the document in memory (a data: URI), and anything
    else (an SVG, a decompression bomb, a missing file) is left out.
    """
    try:
        with _header(path, ("PNG",)) as image:
            if image.width <= LOGO_BOX[0] and image.height <= LOGO_BOX[1]:
                return Path(path).as_uri()
    except (OSError, Image.DecompressionBombError):
        pass  # not a PNG, no such file, or far too large: checked below
    try:
        with open(path, "rb") as file:
            return "data:image/png;base64," + base64.b64encode(small_png(file)).decode()
    except (OSError, ValidationError):
        return ""


def small_png(source: IO[bytes]) -> bytes:
    """The picture in ``source`` re-encoded as a PNG fitting ``LOGO_BOX``; ``ValidationError``
    when it is no picture of ``LOGO_FORMATS`` or has more than ``MAX_LOGO_PIXELS``."""
    too_large = ValidationError(_("The logo has more than 16 megapixels; send a smaller picture."))
    try:
        with _header(source, LOGO_FORMATS) as image:
            if image.width * image.height > MAX_LOGO_PIXELS:
                raise too_large
            image.thumbnail(LOGO_BOX)  # decodes, shrinking a JPEG while it does
            picture = image.convert("RGBA")
    except Image.DecompressionBombError as error:
        raise too_large from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        # a truncated or corrupt file fails only when its pixels are decoded
        raise ValidationError(
            _("The logo must be a PNG, JPEG, GIF or WebP picture; this file is none of them.")
        ) from error
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    return out.getvalue()


def _header(source: str | IO[bytes], formats: tuple[str, ...]) -> Image.Image:
    """The picture opened as one of ``formats``, its header read and its pixels not yet.

    Pillow warns of a decompression bomb past 89 MP and refuses one past 178 MP
    (``DecompressionBombError``); the limit here is lower, so the warning says nothing.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        return Image.open(source, formats=formats)

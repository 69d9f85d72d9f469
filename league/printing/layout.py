"""Laying out HTML into PDF pages with WeasyPrint: no Django here, so a batch can
hand its chunks to fresh processes that only import this module.

WeasyPrint fetches whatever a document (or an SVG image in it) references, by
any protocol; here it may read only data: URIs and files under the folders it
is given (our static and media files), so no document can make the server
fetch an internal address or read a file of the system.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import weasyprint
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse


class OwnFiles(URLFetcher):
    """WeasyPrint's ``url_fetcher`` for our documents: data: URIs, and local files under
    ``roots``; anything else (http://127.0.0.1:…, file:///etc/…) is refused and left out
    of the document. A symbolic link counts where it points."""

    def __init__(self, roots: Iterable[str]) -> None:
        super().__init__(allowed_protocols={"data", "file"}, allow_redirects=False)
        self.roots = tuple(Path(root).resolve() for root in roots)

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme == "file" and parts.netloc in ("", "localhost"):
            path = Path(url2pathname(parts.path)).resolve()
            if not any(path.is_relative_to(root) for root in self.roots):
                raise ValueError(f"Not one of our own files: {url}")
        elif parts.scheme != "data":
            raise ValueError(f"Not one of our own files: {url}")
        return super().fetch(url, headers)


@dataclass
class Renderer:
    """Lays out the documents of one PDF with shared fonts and images, so a batch
    of 64 protocols loads each font and decodes the blank rows' grid image once;
    ``roots`` are the folders its documents may read files from (see :class:`OwnFiles`)."""

    roots: tuple[str, ...]
    font_config: FontConfiguration = field(default_factory=FontConfiguration)
    image_cache: dict[str, Any] = field(default_factory=dict)

    def render(self, html: str, base_url: str) -> weasyprint.Document:
        """Lay the HTML out into pages (the slow step; the PDF is written later)."""
        fetcher = OwnFiles(self.roots)
        return weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(
            font_config=self.font_config, cache=self.image_cache
        )


@dataclass(frozen=True)
class Chunk:
    """One document of a batch, as handed to another process: its HTML, the base its
    relative links resolve against, and the folders it may read files from."""

    html: str
    base_url: str
    roots: tuple[str, ...]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a batch, collecting once at the end.

    A batch keeps millions of layout objects alive until the PDF is written, and
    every automatic collection walks them all again: a third of the time of 64
    protocols. Peak memory stays about 400 MB.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
        gc.collect()


@functools.cache
def _process_renderer(roots: tuple[str, ...]) -> Renderer:
    return Renderer(roots)


def html_to_pdf(chunk: Chunk) -> bytes:
    """One chunk of a batch laid out and written as PDF; each process keeps one font
    configuration for all the chunks it is given."""
    with collector_paused():
        return _process_renderer(chunk.roots).render(chunk.html, chunk.base_url).write_pdf()

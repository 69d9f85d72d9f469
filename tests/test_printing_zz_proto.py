import io
import pytest
from pypdf import PdfReader
from league.printing import documents
from tests.test_printing_documents import seated_tournament, BASE_URL

pytestmark = pytest.mark.django_db

def test_proto():
    tournament, series = seated_tournament(tables=3)
    sheets = [documents.protocol_sheet(series, t, filled=False, base_url=BASE_URL) for t in (1, 2, 3)]
    content = documents.render_pdf("printing/protocol.html", documents.protocols_context(tournament, sheets))
    open("/tmp/batch.pdf", "wb").write(content)
    for p in PdfReader(io.BytesIO(content)).pages:
        t = p.extract_text()
        print([l for l in t.splitlines() if "Page" in l or "Strona" in l or "protocol" in l.lower()])

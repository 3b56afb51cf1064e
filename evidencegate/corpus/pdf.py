"""PDF page text, by one of two extractors: pypdfium2 (the default) or pypdf.

Both give one string per PDF page (1-based page ``n`` is ``pages[n - 1]``), so page numbers
always match the PDF. The default was chosen by ``benchmarks/ingest.py`` on the shared
FinanceBench 10-Ks: pypdfium2 (PDFium, the engine of Chromium's PDF viewer) extracts them an
order of magnitude faster than pypdf and finds at least as many of the golden sets' required
quotes on their cited pages.

pypdfium2's raw text is normalised in two ways, both restoring what is printed on the page:
line breaks ``\\r\\n`` become ``\\n``, and U+FFFE, which PDFium puts where it removed a line
break after a hyphen (``regu\\ufffelation``, ``long\\ufffeterm``), becomes that hyphen and line
break again (``regu-\\nlation``), as pypdf reads it; the verifier's normalisation then rejoins
a word hyphenated across a line. U+FFFE is a Unicode non-character: it is never real text.

The extractor and its version are recorded with every stored version (``extractor_id``), and
the text a quote was verified against is the stored text, never a fresh extraction.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Literal, get_args

from evidencegate.exceptions import IngestError

__all__ = [
    "DEFAULT_PDF_EXTRACTOR",
    "PDF_EXTRACTORS",
    "PdfExtractor",
    "extract_pdf_pages",
    "extractor_id",
]

PdfExtractor = Literal["pypdfium2", "pypdf"]
PDF_EXTRACTORS: tuple[str, ...] = get_args(PdfExtractor)
DEFAULT_PDF_EXTRACTOR: PdfExtractor = "pypdfium2"

_PDFIUM_PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD


def extractor_id(extractor: PdfExtractor) -> str:
    """The extractor with its version, as recorded with a stored version (``pypdf 7.1.0``)."""
    if extractor == "pypdf":
        import pypdf

        return f"pypdf {pypdf.__version__}"
    from pypdfium2.version import PDFIUM_INFO, PYPDFIUM_INFO

    return f"pypdfium2 {PYPDFIUM_INFO.version} (pdfium {PDFIUM_INFO.version})"


def extract_pdf_pages(data: bytes, extractor: PdfExtractor, *, path: str) -> list[str]:
    """The text of every page of the PDF in ``data``; IngestError (naming ``path``, and the
    page when one page fails) for an encrypted, unreadable or broken file."""
    reader = _READERS.get(extractor)
    if reader is None:
        known = ", ".join(PDF_EXTRACTORS)
        raise IngestError(f"unknown PDF extractor {extractor!r} (known: {known})", path=path)
    return reader(data, path)


def _pdfium_pages(data: bytes, path: str) -> list[str]:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == _PDFIUM_PASSWORD_ERROR:
            raise IngestError("encrypted PDF (it needs a password to open)", path=path) from exc
        raise IngestError(f"not a readable PDF ({exc})", path=path) from exc
    pages: list[str] = []
    try:
        for index in range(len(document)):
            try:
                page = document[index]
                textpage = page.get_textpage()
                raw = textpage.get_text_range()
                textpage.close()
                page.close()
            except pdfium.PdfiumError as exc:
                raise IngestError(
                    f"cannot extract text ({exc})", path=path, page=index + 1
                ) from exc
            pages.append(raw.replace("\r\n", "\n").replace("\r", "\n").replace("\ufffe", "-\n"))
    finally:
        document.close()
    return pages


def _pypdf_pages(data: bytes, path: str) -> list[str]:
    from pypdf import PdfReader

    # pypdf signals a broken file with many exception types (PdfReadError, ValueError,
    # KeyError, struct errors...); any of them means "not a readable PDF".
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise IngestError("encrypted PDF (it needs a password to open)", path=path)
        count = len(reader.pages)
    except IngestError:
        raise
    except Exception as exc:
        if "encrypt" in str(exc).lower() or "decrypt" in str(exc).lower():
            raise IngestError(
                f"encrypted PDF that cannot be opened ({type(exc).__name__}: {exc})", path=path
            ) from exc
        raise IngestError(f"not a readable PDF ({type(exc).__name__}: {exc})", path=path) from exc
    pages: list[str] = []
    for number in range(1, count + 1):
        try:
            pages.append(reader.pages[number - 1].extract_text())
        except Exception as exc:
            raise IngestError(
                f"cannot extract text ({type(exc).__name__}: {exc})", path=path, page=number
            ) from exc
    return pages


_READERS: dict[str, Callable[[bytes, str], list[str]]] = {
    "pypdfium2": _pdfium_pages,
    "pypdf": _pypdf_pages,
}

"""A control catalog of fictional controls for the tests of provision questions: a source lookup
(what the verifier, the critic and the drafter ask of a store) over (page, label, heading, text)
rows of one document, ``CAT`` version ``5``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from evidencegate.contracts import DocumentVersion, Page, SourcePage

Control = tuple[int, str, str, str]
"""A control's page number, label, heading path and statement."""


class Catalog:
    """A source lookup over ``controls``, the pages of the catalog titled ``title``."""

    def __init__(self, controls: Sequence[Control], title: str) -> None:
        self.controls = list(controls)
        self.document = DocumentVersion(
            doc_id="CAT",
            version="5",
            version_date=dt.date(2020, 9, 1),
            effective_from=dt.date(2020, 9, 1),
            authority="primary",
            title=title,
            sha256="0" * 64,
        )

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None:
        if (doc_id, version) != ("CAT", "5"):
            return None
        for number, label, heading, text in self.controls:
            if number == page:
                return SourcePage(
                    document=self.document,
                    page=Page(
                        doc_id="CAT",
                        version="5",
                        page=number,
                        label=label,
                        heading=heading,
                        text=text,
                    ),
                )
        return None

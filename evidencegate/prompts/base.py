"""The prompt template type and the evidence blocks templates embed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from string import Template

from evidencegate.analysis import Sentence, split_sentences
from evidencegate.canonical import canonical_json, sha256_hex
from evidencegate.contracts import Passage

__all__ = [
    "EvidenceBlocks",
    "EvidenceSpans",
    "PromptTemplate",
    "Span",
    "evidence_blocks",
    "evidence_spans",
]


@dataclass(frozen=True)
class PromptTemplate:
    """``system`` and ``user`` use ``$name`` placeholders; every placeholder must be given."""

    name: str
    version: int
    system: str
    user: str

    @property
    def id(self) -> str:
        return f"{self.name}@v{self.version}"

    @property
    def sha256(self) -> str:
        return sha256_hex(
            canonical_json(
                {
                    "name": self.name,
                    "version": self.version,
                    "system": self.system,
                    "user": self.user,
                }
            )
        )

    def render(self, **values: object) -> tuple[str, str]:
        """The (system, user) texts. A missing placeholder value raises KeyError naming it."""
        text = {k: str(v) for k, v in values.items()}
        return Template(self.system).substitute(text), Template(self.user).substitute(text)

    def metadata(self, purpose: str) -> dict[str, str]:
        """What a model call records about its prompt."""
        return {"purpose": purpose, "prompt": self.id, "prompt_sha256": self.sha256}


@dataclass(frozen=True)
class EvidenceBlocks:
    """The evidence as delimited blocks with short ids (E1, E2, ...) and the id -> passage map."""

    text: str
    by_id: dict[str, Passage]

    def describe_ids(self) -> str:
        return ", ".join(self.by_id) or "none"


def evidence_blocks(evidence: Sequence[Passage]) -> EvidenceBlocks:
    """Delimited, attributed blocks. A closing tag inside a passage is neutralised so the data
    cannot end its own block."""
    by_id: dict[str, Passage] = {}
    blocks: list[str] = []
    for number, passage in enumerate(evidence, start=1):
        block_id = f"E{number}"
        by_id[block_id] = passage
        body = passage.text.replace("</evidence", "<\\/evidence")
        blocks.append(
            f'<evidence id="{block_id}" doc_id="{passage.doc_id}" version="{passage.version}" '
            f'page="{passage.page}" authority="{passage.authority}">\n{body}\n</evidence>'
        )
    return EvidenceBlocks(text="\n".join(blocks) or "(no evidence)", by_id=by_id)


@dataclass(frozen=True)
class Span:
    """One numbered span of an evidence block: ``passage.text[start:end] == text``."""

    span_id: str
    block_id: str
    passage: Passage
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class EvidenceSpans:
    """The evidence as blocks (E1, E2, ...) of numbered sentence spans (E1.1, E1.2, ...).

    What models cite since contract v2: an id, never offsets, never a copied quote (a quote a
    model does write is checked verbatim like any other). The engine maps an id back to its
    passage and the span's exact text.
    """

    text: str
    by_id: dict[str, Passage]
    spans: dict[str, Span]

    def describe_ids(self) -> str:
        """The span ids, compactly: ``E1.1-E1.4, E2.1-E2.2``."""
        parts = []
        for block_id in self.by_id:
            ids = [s.span_id for s in self.spans.values() if s.block_id == block_id]
            if ids:
                parts.append(ids[0] if len(ids) == 1 else f"{ids[0]}-{ids[-1]}")
        return ", ".join(parts) or "none"

    def passage_of(self, ref: str) -> Passage | None:
        """The passage a span id or a block id names (None when it names none)."""
        span = self.spans.get(ref)
        return span.passage if span is not None else self.by_id.get(ref)


def evidence_spans(evidence: Sequence[Passage]) -> EvidenceSpans:
    """Blocks of numbered spans: one span per sentence of each line of each passage.

    Lines are split first (a heading or a list item is a span of its own), then sentences
    (:func:`~evidencegate.analysis.split_sentences`). A closing tag inside a passage is
    neutralised so the data cannot end its own block.
    """
    by_id: dict[str, Passage] = {}
    spans: dict[str, Span] = {}
    blocks: list[str] = []
    for number, passage in enumerate(evidence, start=1):
        block_id = f"E{number}"
        by_id[block_id] = passage
        lines: list[str] = []
        for sentence, body in _lines(passage.text):
            span_id = f"{block_id}.{len(lines) + 1}"
            spans[span_id] = Span(
                span_id=span_id,
                block_id=block_id,
                passage=passage,
                start=sentence.start,
                end=sentence.end,
                text=sentence.text,
            )
            lines.append(f"[{span_id}] {body}")
        blocks.append(
            f'<evidence id="{block_id}" doc_id="{passage.doc_id}" version="{passage.version}" '
            f'page="{passage.page}" authority="{passage.authority}">\n'
            + "\n".join(lines)
            + "\n</evidence>"
        )
    return EvidenceSpans(text="\n".join(blocks) or "(no evidence)", by_id=by_id, spans=spans)


@lru_cache(maxsize=4096)  # pure; every model call of a run shows the same passages again
def _lines(text: str) -> tuple[tuple[Sentence, str], ...]:
    """Each span of a passage's text (:func:`_sentences`) with its text as shown: on one
    line, a closing tag neutralised."""
    return tuple(
        (sentence, " ".join(sentence.text.split()).replace("</evidence", "<\\/evidence"))
        for sentence in _sentences(text)
    )


def _sentences(text: str) -> list[Sentence]:
    out: list[Sentence] = []
    start = 0
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):  # a Markdown heading is one span, numbers and all
            out.extend(_whole(line, start))
        else:
            out.extend(split_sentences(line, offset=start))
        start += len(line) + 1
    return out


def _whole(line: str, offset: int) -> list[Sentence]:
    stripped = line.strip()
    if not stripped:
        return []
    begin = offset + len(line) - len(line.lstrip())
    return [Sentence(text=stripped, start=begin, end=begin + len(stripped))]

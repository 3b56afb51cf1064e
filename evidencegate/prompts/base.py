"""The prompt template type and the evidence blocks templates embed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from string import Template

from evidencegate.canonical import canonical_json, sha256_hex
from evidencegate.contracts import Passage

__all__ = ["EvidenceBlocks", "PromptTemplate", "evidence_blocks"]


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

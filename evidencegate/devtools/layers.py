"""The package's layers, bottom to top, and a check that every import goes down.

    python -m evidencegate.devtools.layers [--package DIR]

A module may import modules of its own layer and of the layers below it, never above: the
contracts know nothing of the engine, the trace format nothing of the loop, the loop nothing
of the audit tools that read its traces, and only the command line sees everything. On top of
the order, :data:`FORBIDDEN` names imports that the order alone would allow but the design does
not: the loop reaches the judges through :mod:`evidencegate.protocols`, never by importing them.

Every import counts: module level, inside a function, under ``TYPE_CHECKING``, relative or
absolute. A module that is in no layer is an error too (a new package must be given a place).

Exit codes: 0 every import goes down; 1 some import does not (each is printed as
``path:line: importer (layer) imports imported (layer): why``), or a known exception is no
longer needed; 2 bad input (no package at ``--package``, a file that does not parse).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "FORBIDDEN",
    "KNOWN_EXCEPTIONS",
    "LAYERS",
    "Layer",
    "Problem",
    "check",
    "main",
]


@dataclass(frozen=True)
class Layer:
    """A named layer: the modules and packages (dotted names) that belong to it."""

    name: str
    modules: tuple[str, ...]


LAYERS: tuple[Layer, ...] = (
    Layer("core", ("_version", "exceptions", "canonical", "closing", "hygiene", "userio", "data")),
    Layer("contracts", ("contracts", "judgements", "policy")),
    Layer("text", ("text", "stats")),
    Layer("trace", ("trace",)),
    Layer("analysis", ("analysis", "lexicon", "protocols", "runscope")),
    Layer("services", ("corpus", "verify", "providers", "prompts")),
    Layer("roles", ("generation", "critique", "judges")),
    Layer("loop", ("loop", "components")),
    Layer("audit", ("audit", "review")),
    Layer("application", ("gate", "evals", "testing")),
    Layer("interface", ("__init__", "__main__", "cli", "schemas", "devtools")),
)
"""The layers, bottom to top: the one place the order is written down.

Names are relative to the package; a package stands for everything under it, and ``__init__``
is the package module itself (the curated public API)."""

FORBIDDEN: tuple[tuple[str, str], ...] = (
    ("loop", "judges"),
    ("trace", "judges"),
)
"""(importer, imported) prefixes that may not meet even where the order would allow it."""

KNOWN_EXCEPTIONS: tuple[tuple[str, str], ...] = ()
"""(importer, imported) prefixes of imports tolerated for now, each with its reason above.

An entry that no longer matches any import is reported, so the list cannot go stale."""


@dataclass(frozen=True)
class Problem:
    """One import that breaks the layering (or a stale exception), as a printable line."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def _within(name: str, prefix: str) -> bool:
    return name == prefix or (prefix != "__init__" and name.startswith(prefix + "."))


def _layer_of(name: str, layers: Sequence[Layer]) -> int | None:
    """Index of the layer whose longest name contains ``name``; None when none does."""
    best: tuple[int, int] | None = None
    for index, layer in enumerate(layers):
        for prefix in layer.modules:
            if _within(name, prefix) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    return None if best is None else best[0]


def _module_name(path: Path, package_dir: Path) -> str:
    """``trace.events`` for ``trace/events.py``, ``cli`` for ``cli/__init__.py``, and
    ``__init__`` for the package module itself."""
    parts = list(path.relative_to(package_dir).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _is_module(relative: str, package_dir: Path) -> bool:
    base = package_dir.joinpath(*relative.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _relative(dotted: str, root: str) -> str | None:
    """``trace.events`` for ``evidencegate.trace.events``; ``__init__`` for ``evidencegate``;
    None outside the package."""
    if dotted == root:
        return "__init__"
    if dotted.startswith(root + "."):
        return dotted[len(root) + 1 :]
    return None


def _imports(tree: ast.Module, path: Path, package_dir: Path) -> list[tuple[int, str]]:
    """(line, imported module relative to the package) of every import of its own modules."""
    root = package_dir.name
    dotted = [root, *path.relative_to(package_dir).with_suffix("").parts]
    package = dotted[:-1]  # what a relative import starts from (for __init__: its package)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                sub = _relative(f"{target}.{alias.name}", root)
                found.append(
                    (node.lineno, f"{target}.{alias.name}")
                    if sub is not None and _is_module(sub, package_dir)
                    else (node.lineno, target)
                )
    mine = [(line, rel) for line, name in found if (rel := _relative(name, root)) is not None]
    return list(dict.fromkeys(mine))  # one entry per imported module and line


def check(
    package_dir: Path,
    *,
    layers: Sequence[Layer] = LAYERS,
    forbidden: Sequence[tuple[str, str]] = FORBIDDEN,
    known: Sequence[tuple[str, str]] = KNOWN_EXCEPTIONS,
) -> list[Problem]:
    """Every import under ``package_dir`` that goes up a layer or is forbidden, in file order,
    then every known exception that no import needs any more.

    Raises ``ValueError`` when ``package_dir`` is not a package and ``SyntaxError`` when a
    module does not parse.
    """
    if not (package_dir / "__init__.py").is_file():
        raise ValueError(f"{package_dir} is not a Python package (no __init__.py)")
    root = package_dir.name
    problems: list[Problem] = []
    used: set[tuple[str, str]] = set()
    for path in sorted(package_dir.rglob("*.py")):
        shown = str(path.relative_to(package_dir.parent))
        module = _module_name(path, package_dir)
        mine = _layer_of(module, layers)
        if mine is None:
            problems.append(Problem(shown, 1, f"{root}.{module} is in no layer (add it to LAYERS)"))
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=shown)
        for line, imported in _imports(tree, path, package_dir):
            theirs = _layer_of(imported, layers)
            if theirs is None:
                message = f"{root}.{imported} is in no layer (add it to LAYERS)"
                problems.append(Problem(shown, line, message))
                continue
            if theirs > mine:
                why = "upward"
            elif any(_within(module, a) and _within(imported, b) for a, b in forbidden):
                why = "forbidden"
            else:
                continue
            waived = {(a, b) for a, b in known if _within(module, a) and _within(imported, b)}
            if waived:
                used |= waived
                continue
            problems.append(
                Problem(
                    shown,
                    line,
                    f"{root}.{module} ({layers[mine].name}) imports {root}.{imported} "
                    f"({layers[theirs].name}): {why}",
                )
            )
    problems.extend(
        Problem("KNOWN_EXCEPTIONS", 0, f"{a} -> {b} is no longer needed: remove it")
        for a, b in known
        if (a, b) not in used
    )
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evidencegate.devtools.layers",
        description="Check that every import of the package goes down its layers.",
    )
    parser.add_argument(
        "--package",
        type=Path,
        default=Path(__file__).resolve().parents[1],
        help="the package directory (default: this evidencegate)",
    )
    args = parser.parse_args(argv)
    try:
        problems = check(args.package)
    except (ValueError, SyntaxError, OSError, UnicodeDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    order = " -> ".join(layer.name for layer in LAYERS)
    if problems:
        print(f"{len(problems)} layering problem(s); layers bottom to top: {order}")
        return 1
    print(f"layering ok: every import goes down ({order})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A benchmark script (``benchmarks/NAME.py``) loaded as a module, for the tests of its parts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = REPO / "benchmarks"


def load_benchmark(script: str, name: str) -> ModuleType:
    """``benchmarks/<script>.py`` as the module ``name``: registered in ``sys.modules`` (its
    dataclasses look their module up) and run with the benchmarks folder on the path (a script
    imports its sibling scripts)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{script}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))

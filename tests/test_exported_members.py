"""The public API is pinned: adding or removing a name is a deliberate act."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import REPO_ROOT

import evidencegate
from evidencegate import _version, testing

EXPECTED = {
    "BudgetExceeded",
    "Citation",
    "Claim",
    "ClaimVerification",
    "ConfigurationError",
    "CriticAudit",
    "CriticOutputInvalid",
    "CriticSufficiency",
    "Decision",
    "Derivation",
    "DocumentVersion",
    "Draft",
    "EvidenceGate",
    "EvidenceGateError",
    "EvidenceThresholdNotMet",
    "ExtractiveGenerator",
    "GatedAnswer",
    "IngestError",
    "IngestOptions",
    "IngestReport",
    "LoopController",
    "Operand",
    "Operation",
    "Outcome",
    "Page",
    "Passage",
    "Policy",
    "PostgresStore",
    "PolicyError",
    "RulesCritic",
    "StopReason",
    "Store",
    "StoreError",
    "TraceFormatError",
    "TraceRecorder",
    "UsageError",
    "Verdict",
    "Verifier",
    "__version__",
    "open_store",
    "load_policy",
    "load_schema",
    "Arm",
    "GoldenItem",
    "ReviewQueue",
    "load_golden",
    "replay_trace",
    "run_ablation",
    "write_report",
    "verify_trace",
    "AnswerClass",
    "grade_answer",
    "AnthropicChatModel",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "Critic",
    "Generator",
    "ModelCallFailed",
    "ModelOutputInvalid",
    "OpenAIChatModel",
    "Retriever",
    "RunOutcome",
    "ScriptedChatModel",
    "ScriptedCritic",
    "ScriptedGenerator",
    "TraceSink",
}

#: The modules each lazily exported name comes from.
LAZY = {
    "AnthropicChatModel": "evidencegate.providers.anthropic",
    "OpenAIChatModel": "evidencegate.providers.openai",
}


class TestExportedMembers:
    def test_all_is_pinned(self) -> None:
        """__all__ is exactly the curated set."""
        assert set(evidencegate.__all__) == EXPECTED

    def test_every_name_resolves(self) -> None:
        """Every exported name is importable from the package, except a private or unknown one."""
        namespace: dict[str, object] = {}
        exec(f"from evidencegate import {', '.join(evidencegate.__all__)}", namespace)
        assert set(namespace) - {"__builtins__"} == EXPECTED
        with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
            _ = evidencegate.NoSuchName  # type: ignore[attr-defined]

    def test_exports_come_from_their_home_modules(self) -> None:
        """Each exported class or function is the one its defining module holds."""
        for name in EXPECTED - {"__version__"}:
            obj = getattr(evidencegate, name)
            module = importlib.import_module(obj.__module__)
            assert getattr(module, name) is obj, name
        for name, module_name in LAZY.items():
            assert getattr(evidencegate, name).__module__ == module_name


class TestDocumented:
    def test_readme_lists_exactly_the_exports(self) -> None:
        """README's "What the package exports" names every exported name and no other."""
        readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
        section = readme.split("### What the package exports", 1)[1].split("\n#", 1)[0]
        listed = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", section))
        listed -= {"__all__", "evidencegate"}  # the prose around the list
        assert listed == EXPECTED

    def test_test_doubles_are_the_testing_modules_own(self) -> None:
        """The exported scripted doubles are evidencegate.testing's, listed in its __all__."""
        for name in ("ScriptedCritic", "ScriptedGenerator"):
            assert name in testing.__all__
            assert getattr(evidencegate, name) is getattr(testing, name)


class TestImportCost:
    def test_importing_the_package_loads_no_vendor_sdk(self) -> None:
        """import evidencegate imports neither the anthropic nor the openai SDK."""
        code = "import sys, evidencegate; print(sorted({'anthropic', 'openai'} & set(sys.modules)))"
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        assert out.strip() == "[]"


class TestVersion:
    def test_version_has_one_definition(self) -> None:
        """__version__ is _version.__version__, which pyproject.toml reads as the version."""
        assert evidencegate.__version__ == _version.__version__
        config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        assert "version" not in config["project"] and "version" in config["project"]["dynamic"]
        dynamic = config["tool"]["setuptools"]["dynamic"]["version"]
        assert dynamic == {"attr": "evidencegate._version.__version__"}

    def test_no_module_imports_the_package_from_inside(self) -> None:
        """No module of the package imports a name (not a submodule) from its own __init__."""
        package = Path(evidencegate.__file__).parent
        offenders = []
        for path in package.rglob("*.py"):
            if path.name == "__init__.py" and path.parent == package:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module == "evidencegate":
                    offenders.extend(
                        f"{path.relative_to(package)}:{node.lineno} {alias.name}"
                        for alias in node.names
                        if not (package / f"{alias.name}.py").is_file()
                        and not (package / alias.name).is_dir()
                    )
        assert offenders == []

"""The layering check: every import of the package goes down its layers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import evidencegate
from evidencegate.devtools.layers import KNOWN_EXCEPTIONS, LAYERS, Layer, check, main

PACKAGE = Path(evidencegate.__file__).parent


def make_package(root: Path, files: dict[str, str]) -> Path:
    """A package ``pkg`` under ``root`` with ``files`` (relative path -> source)."""
    package = root / "pkg"
    for relative, source in {"__init__.py": "", **files}.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return package


class TestThePackage:
    def test_every_import_goes_down(self) -> None:
        """evidencegate itself has no upward, forbidden or unplaced import."""
        assert [str(p) for p in check(PACKAGE)] == []

    def test_command_exits_0_on_the_package(self) -> None:
        """`python -m evidencegate.devtools.layers` exits 0 and says the order it checked."""
        done = subprocess.run(
            [sys.executable, "-m", "evidencegate.devtools.layers"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "core -> contracts -> text" in done.stdout

    def test_every_layer_name_is_a_module_of_the_package(self) -> None:
        """Each name in LAYERS is a module or package that exists (no stale entry)."""
        missing = [
            name
            for layer in LAYERS
            for name in layer.modules
            if name != "__init__"
            and not (PACKAGE / f"{name.replace('.', '/')}.py").is_file()
            and not (PACKAGE / name.replace(".", "/") / "__init__.py").is_file()
        ]
        assert missing == []


class TestCheck:
    def test_upward_import_is_named(self, tmp_path: Path) -> None:
        """The trace format importing the audit tools is reported with file, line and layers."""
        package = make_package(
            tmp_path,
            {
                "trace/__init__.py": "",
                "trace/events.py": "import json\n\nfrom pkg.audit.replay import replay\n",
                "audit/__init__.py": "",
                "audit/replay.py": "from pkg.trace import events\n",
            },
        )
        problems = [str(p) for p in check(package, known=())]
        assert problems == [
            "pkg/trace/events.py:3: pkg.trace.events (trace) imports pkg.audit.replay (audit): "
            "upward"
        ]

    def test_imports_inside_functions_and_relative_imports_count(self, tmp_path: Path) -> None:
        """A function-level import and a relative import are checked like any other."""
        package = make_package(
            tmp_path,
            {
                "text.py": "def f():\n    from pkg.analysis import profile\n",
                "verify/__init__.py": "",
                "verify/quotes.py": "from ..cli import main\n",
                "analysis.py": "",
                "cli/__init__.py": "",
            },
        )
        problems = [str(p) for p in check(package, known=())]
        assert problems == [
            "pkg/text.py:2: pkg.text (text) imports pkg.analysis (analysis): upward",
            "pkg/verify/quotes.py:1: pkg.verify.quotes (services) imports pkg.cli (interface): "
            "upward",
        ]

    def test_loop_importing_a_judge_is_forbidden(self, tmp_path: Path) -> None:
        """loop/ sits above judges/ yet may not import it: judges come through protocols."""
        package = make_package(
            tmp_path,
            {
                "loop/__init__.py": "",
                "loop/controller.py": "from pkg.judges import triad\n",
                "judges/__init__.py": "",
                "judges/triad.py": "",
            },
        )
        problems = [str(p) for p in check(package, known=())]
        assert problems == [
            "pkg/loop/controller.py:1: pkg.loop.controller (loop) imports pkg.judges.triad "
            "(roles): forbidden"
        ]

    def test_module_in_no_layer_is_reported(self, tmp_path: Path) -> None:
        """A new top-level module must be given a layer."""
        package = make_package(tmp_path, {"newthing.py": ""})
        assert [str(p) for p in check(package, known=())] == [
            "pkg/newthing.py:1: pkg.newthing is in no layer (add it to LAYERS)"
        ]

    def test_known_exception_waives_and_must_stay_needed(self, tmp_path: Path) -> None:
        """A listed exception hides its import; an exception nothing needs is reported."""
        package = make_package(
            tmp_path,
            {"contracts.py": "from pkg import gate\n", "gate.py": ""},
        )
        assert check(package, known=[("contracts", "gate")]) == []
        stale = [str(p) for p in check(package, known=[("contracts", "gate"), ("loop", "cli")])]
        assert stale == ["KNOWN_EXCEPTIONS:0: loop -> cli is no longer needed: remove it"]

    def test_custom_layers(self, tmp_path: Path) -> None:
        """The order is data: with two layers, the lower importing the upper is reported."""
        package = make_package(tmp_path, {"low.py": "import pkg.high\n", "high.py": ""})
        layers = (Layer("bottom", ("low",)), Layer("top", ("high", "__init__")))
        assert [str(p) for p in check(package, layers=layers, forbidden=(), known=())] == [
            "pkg/low.py:1: pkg.low (bottom) imports pkg.high (top): upward"
        ]


class TestMain:
    def test_exit_1_names_each_upward_import(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The command prints each offending import and exits 1."""
        package = make_package(tmp_path, {"contracts.py": "from pkg.cli import main\n"})
        (package / "cli").mkdir()
        (package / "cli" / "__init__.py").write_text("", encoding="utf-8")
        assert main(["--package", str(package)]) == 1
        out = capsys.readouterr().out
        assert "pkg/contracts.py:1: pkg.contracts (contracts) imports pkg.cli (interface)" in out
        assert len(KNOWN_EXCEPTIONS) == 0 or "is no longer needed" in out

    def test_exit_2_on_a_directory_that_is_not_a_package(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Bad input is a one-line error and exit 2, not a traceback."""
        assert main(["--package", str(tmp_path)]) == 2
        assert "is not a Python package" in capsys.readouterr().err

    def test_exit_2_on_a_module_that_does_not_parse(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A syntax error is reported with its file, exit 2."""
        package = make_package(tmp_path, {"contracts.py": "def (:\n"})
        assert main(["--package", str(package)]) == 2
        assert "contracts.py" in capsys.readouterr().err

"""schemas/ is exported from the models; a file that drifts fails here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidencegate.schemas import SCHEMA_DIR, all_schemas, main, render


class TestSchemaFiles:
    @pytest.mark.parametrize("name", sorted(all_schemas()))
    def test_file_matches_model(self, name: str) -> None:
        """Each schemas/NAME.schema.json equals the schema exported from its model."""
        path = SCHEMA_DIR / f"{name}.schema.json"
        assert path.read_text(encoding="utf-8") == render(all_schemas()[name]), (
            f"{path} drifted: run python -m evidencegate.schemas"
        )

    def test_check_detects_drift(self, tmp_path: Path) -> None:
        """--check exits 1 when a file differs from its model, 0 when regenerated."""
        assert main(["--out", str(tmp_path)]) == 0
        assert main(["--out", str(tmp_path), "--check"]) == 0
        path = tmp_path / "policy.schema.json"
        data = json.loads(path.read_text())
        data["properties"]["max_passes"]["maximum"] = 9
        path.write_text(json.dumps(data))
        assert main(["--out", str(tmp_path), "--check"]) == 1

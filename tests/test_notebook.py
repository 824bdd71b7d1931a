"""The designer notebook runs top to bottom (nbclient, the venv's python3 kernel, small N) on the API alone."""

from __future__ import annotations

import json

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import ROOT


def test_balance_tour_uses_only_the_api():
    nb = nbformat.read(ROOT / "notebooks" / "balance_tour.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    imports = [line for line in code.splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import pandas as pd", "import sim"], imports


@pytest.mark.timeout(600)
def test_balance_tour_executes():
    nb = nbformat.read(ROOT / "notebooks" / "balance_tour.ipynb", as_version=4)
    NotebookClient(nb, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(ROOT)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"], json.dumps(outputs)[:2000]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "vorschlag on Leicht wins" in text and "difficulty.normal.hp = " in text
    assert "win_rate: vorschlag@paschmeister - vorschlag" in text and "optimal expected score: 254.58" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 4

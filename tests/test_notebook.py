"""The designer notebook runs top to bottom (nbclient, the venv's python3 kernel, small N)."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import ROOT


@pytest.mark.timeout(600)
def test_balance_tour_executes():
    nb = nbformat.read(ROOT / "notebooks" / "balance_tour.ipynb", as_version=4)
    NotebookClient(nb, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(ROOT)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "bonus.threshold = " in text and "bands hold" in text and "greedy - random" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 4

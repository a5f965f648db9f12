"""Dependencies point one way: webui -> vision -> calibration, and everything -> referee."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "referee": {"cv2", "onnxruntime", "flask", "werkzeug", "vision", "calibration", "webui", "torch"},
    "calibration": {"vision", "webui", "onnxruntime", "flask", "torch"},
    "vision": {"webui", "flask", "torch"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downwards(package):
    offenders = {str(p.relative_to(ROOT)): sorted(_imports(p) & FORBIDDEN[package])
                 for p in (ROOT / package).rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_the_referee_loads_no_heavy_library():
    code = ("import sys, referee, referee.games, referee.playout; referee.games.types(); "
            "print(sorted({'cv2', 'numpy', 'onnxruntime', 'flask'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"

"""Fixtures for calibration tests; the rendering helpers live in mat_views.py beside this file."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from mat_views import _texture  # noqa: E402


@pytest.fixture(scope="session")
def a3():
    return _texture("plain", "A3")[0]

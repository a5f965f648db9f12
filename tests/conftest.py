"""Shared test fixtures.

Reference data lives beside the project in ``../shared``. A test that needs it asks for the
``shared`` fixture: it skips with a reason when the data is absent, except under CI (``CI=true``),
where absent data is a failure, so CI can never pass by skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "data").is_dir() or not (SHARED / "rules").is_dir():
        message = f"reference data not found at {SHARED} (expected data/ and rules/ there)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + "; CI must run with ../shared beside the project")
        pytest.skip(message)
    return SHARED

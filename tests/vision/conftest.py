"""Fixtures for vision tests; helpers that build and measure rendered scenes live in synth_checks.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

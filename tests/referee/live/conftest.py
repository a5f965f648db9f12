"""Fixtures for the live-refereeing tests; the helpers live in live_table.py beside this file."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

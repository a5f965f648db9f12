"""Fixtures for the dashboard tests; recorded_table.py beside this file stages recorded games for the API."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

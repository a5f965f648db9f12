"""Fixtures for the layout tests; staging tables from views lives in layout_staging.py beside this file."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

"""Fixtures for the live-capture and stabilisation tests; frame makers and fake cameras live in live_frames.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

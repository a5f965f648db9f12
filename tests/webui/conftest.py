"""Fixtures for the dashboard tests: an app and its test client, a real server, headless Chromium.

recorded_table.py beside this file stages recorded games for the API; served.py runs a real server.
"""

import os
import shutil
import sys
from pathlib import Path

import pytest

from webui import create_app

sys.path.insert(0, str(Path(__file__).parent))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    yield app
    app.extensions["tableside.games"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real dashboard server on a fresh instance folder, one per test module: (its URL, the app)."""
    from served import running

    app = create_app({"TESTING": True}, instance_path=str(tmp_path_factory.mktemp("instance")))
    with running(app) as url:
        yield url, app
    app.extensions["tableside.games"].close()


@pytest.fixture(scope="session")
def browser():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        message = "Debian's chromium is not installed (apt-get install chromium); .ci/run installs it"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()

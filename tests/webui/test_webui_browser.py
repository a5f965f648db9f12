"""The dashboard in a real headless browser (Debian's chromium, driven by Playwright) against a real server."""

from __future__ import annotations

import pytest
from served import running
from webui import create_app

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app({"TESTING": True}, instance_path=str(tmp_path_factory.mktemp("instance")))
    with running(app) as url:
        yield url


def test_whatif_settles_a_dispute_and_links_to_the_rule(browser, server):
    page = browser.new_page()
    page.goto(f"{server}/whatif")
    page.fill("#position", "@game pungo players=ann,bob\nstep ann r2c3 1 N\n")
    page.fill("#action", "step bob r2c3 3 N")
    page.click("button[type=submit]")
    verdict = page.locator("section.verdict")
    assert "is illegal" in verdict.locator("h2").inner_text()
    assert "bob must roll the die now" in verdict.inner_text()
    page.click("a[href='/rules/pungo#pungo/turn/order']")
    assert page.url.endswith("/rules/pungo#pungo/turn/order")
    assert page.locator("[id='pungo/turn/order']").is_visible()
    page.close()


def test_a_bad_position_shows_what_to_fix(browser, server):
    page = browser.new_page()
    page.goto(f"{server}/whatif")
    page.fill("#position", "@game pungo players=ann")
    page.click("button[type=submit]")
    assert "Pungo is for 2 players, got 1" in page.locator("[role=alert]").inner_text()
    page.close()

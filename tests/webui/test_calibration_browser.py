"""The calibration check and the live page's relabel picker in headless Chromium against a real server.

The cameras are real capture sources: ``demo:pouches`` (the rendered demo table on its mat) and a
folder holding a rendered checkerboard with no mat (tests/webui/table_pictures.py).
"""

from __future__ import annotations

import base64
import os
import shutil

import cv2
from playwright.sync_api import expect

from table_pictures import as_camera, board_picture

WAIT_MS = 15_000
SHOTS = "/tmp/shots"
SCREENSHOTS = os.environ.get("TABLESIDE_SCREENSHOTS")  # a folder to keep pictures of the pages in


def shot(page, name, for_docs=True):
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)
    if SCREENSHOTS and for_docs:
        shutil.copy(os.path.join(SHOTS, f"{name}.png"), os.path.join(SCREENSHOTS, f"{name}.png"))


def test_the_calibration_page_shows_the_mat_and_calibrates_from_four_clicked_corners(browser, server, tmp_path):
    url, app = server
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.goto(f"{url}/play")
    page.select_option("#game", "pouches")
    page.fill("#camera", "demo:pouches")
    page.click("#calibration-link")
    page.wait_for_url("**/play/calibrate?*", timeout=WAIT_MS)
    status = page.locator("#cal-status")
    expect(status).to_contain_text("Mat found. The pouches mat (A3): 6 of its 6 markers seen.", timeout=WAIT_MS)
    expect(page.locator("#marker-view")).to_have_js_property("naturalWidth", 1280, timeout=WAIT_MS)
    expect(page.locator("#rectified")).to_have_js_property("naturalWidth", 900, timeout=WAIT_MS)
    assert page.locator("#mat-pdf").get_attribute("href") == "/mats/pouches.pdf?paper=A4"
    page.select_option("#mat-paper", "A3")
    assert page.locator("#mat-png").get_attribute("href") == "/mats/pouches.png?paper=A3"
    shot(page, "calibration")

    # no mat: a measured checkerboard, its four corners clicked on the picture
    picture, corners = board_picture()
    page.fill("#camera", as_camera(tmp_path / "board", picture))
    page.click("#look button[type=submit]")
    expect(status).to_contain_text("No mat found. No marker in view", timeout=WAIT_MS)
    expect(page.locator("#marker-view")).to_have_js_property("naturalWidth", 1280, timeout=WAIT_MS)
    assert page.locator("#rectified").is_hidden()
    page.click("#start-clicking")
    box = page.locator("#clicks").bounding_box()
    for x, y in corners:
        page.mouse.click(box["x"] + x * box["width"] / 1280, box["y"] + y * box["height"] / 720)
    expect(page.locator("#click-count")).to_have_text("4 of 4 corners")
    page.fill("#width-mm", "600")
    page.fill("#height-mm", "400")
    page.click("#save-corners")
    expect(page.locator("#corners-result")).to_contain_text("Saved: the 600 x 400 mm area", timeout=WAIT_MS)
    expect(page.locator("#rectified")).to_have_js_property("naturalWidth", 900, timeout=WAIT_MS)
    assert page.evaluate("document.getElementById('rectified').naturalHeight") == 600
    expect(status).to_contain_text("Calibration from the saved corners", timeout=WAIT_MS)
    shot(page, "calibration-corners", for_docs=False)
    from calibration import store
    saved = store.load(app.instance_path, image_size=(1280, 720))
    clicked = saved.to_table(corners)  # a click is as good as the page's pixel: within a few millimetres
    assert abs(clicked - [[0, 0], [600, 0], [600, 400], [0, 400]]).max() < 4
    page.close()


def demo_moments():
    """Two moments of demo:pouches: the opening table, then the first card revealed (the 6C)."""
    from vision.synth.demo import DemoSource

    source = DemoSource("pouches")
    moments = []
    for frame in (8, 32):  # the hand is out of the picture in both
        source.seek(frame)
        picture = source.read()
        ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
        moments.append((source.truth.snapshot.to_json(), base64.b64encode(jpeg.tobytes()).decode()))
    return source.demo.recorded, moments


def test_a_card_clicked_on_the_camera_picture_is_relabelled_from_the_picker(browser, server):
    url, app = server
    recorded, (opening, revealed) = demo_moments()
    client = app.test_client()
    game_id = client.post("/api/games", json={"game": "pouches", "edition": recorded.game.edition,
                                              "players": list(recorded.game.players), "setup": recorded.setup,
                                              "camera": "demo:pouches", "run_camera": False}).get_json()["id"]
    client.post(f"/api/games/{game_id}/snapshot", json={"snapshot": opening[0], "frame": opening[1]})
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.goto(f"{url}/play/{game_id}")
    page.wait_for_selector("#live[data-connected=yes]", timeout=WAIT_MS)
    link = page.locator("#calibration-link").get_attribute("href")
    assert link.startswith("/play/calibrate?") and "camera=demo:pouches" in link and "game=pouches" in link

    snapshot, frame = revealed
    index = next(i for i, card in enumerate(snapshot["cards"]) if card["card"] == "6C")
    snapshot["cards"][index]["card"] = "KC"  # misread: a King of Clubs, which three players take out of the deck
    events = client.post(f"/api/games/{game_id}/snapshot", json={"snapshot": snapshot, "frame": frame}).get_json()
    assert [e["kind"] for e in events["events"]] == ["unrecognised"]
    page.locator("#problem-banner.unrecognised").wait_for(state="visible", timeout=WAIT_MS)

    card = page.locator(f"#overlay g.sighting[data-sighting='cards/{index}']")
    expect(card).to_have_attribute("data-label", "KC", timeout=WAIT_MS)
    assert page.locator("#overlay g.sighting").count() == len(snapshot["cards"])
    assert "placed by the pouches mat's markers" in page.locator("#overlay-note").inner_text()
    card.click()
    picker = page.locator("#picker")
    picker.wait_for(state="visible", timeout=WAIT_MS)
    assert f"cards/{index} reads as KC" in page.locator("#picker-title").inner_text()
    assert page.locator("#picker-choices button.choice").count() == 53  # the deck and a face-down card
    page.fill("#picker-filter", "6")
    expect(page.locator("#picker-choices button.choice")).to_have_count(4)
    shot(page, "live-relabel-picker")
    page.click("#picker-choices button.choice[data-label='6C']")
    picker.wait_for(state="hidden", timeout=WAIT_MS)
    page.locator("#problem-banner").wait_for(state="hidden", timeout=WAIT_MS)
    page.wait_for_selector("#log .event.move:has-text('reveal heap/0,0 6C')", timeout=WAIT_MS)
    assert page.locator(f"#log .event.correction:has-text('relabel cards/{index} from KC to 6C')").count() == 1
    expect(card).to_have_attribute("data-label", "6C", timeout=WAIT_MS)
    assert page.locator("[data-place='heap/0,0']").inner_text().startswith("6\u2663")
    log = client.get(f"/api/games/{game_id}").get_json()["log"]
    assert log[-1]["kind"] == "move" and log[-1]["payload"]["source"] == "relabel"
    page.close()

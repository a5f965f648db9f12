"""How the live page draws a game's table, in headless Chromium against a real server: the Pouches
heap with each pile's height and the tokens standing on piles, the Deck Town board with who
controls which card. The games are played by hand through the API from recorded playthroughs."""

from __future__ import annotations


from recorded_table import ROOT
from referee import playthrough

WAIT_MS = 10_000
POUCHES = ROOT / "vision" / "synth" / "demo_games" / "pouches.txt"
DECK_TOWN = ROOT / "tests" / "referee" / "deck_town" / "playthroughs" / "flight-and-flush.txt"


def play(app, path, until) -> str:
    """A game started from the playthrough and played by hand up to and including the line ``until``
    (its action, or its line number)."""
    recorded = playthrough.load(path)
    client = app.test_client()
    game_id = client.post("/api/games", json={"game": recorded.game.type.name, "edition": recorded.game.edition,
                                              "options": dict(recorded.game.options), "setup": recorded.setup,
                                              "players": list(recorded.game.players)}).get_json()["id"]
    for line in recorded.lines:
        if line.illegal_rule is None:
            response = client.post(f"/api/games/{game_id}/enter", json={"action": line.action})
            assert response.status_code == 200, response.get_json()
        if until in (line.action, line.number):
            return game_id
    raise AssertionError(f"{path.name} has no line {until!r}")


def test_the_pouches_heap_shows_each_piles_height_and_the_token_on_it(browser, server):
    url, app = server
    game_id = play(app, POUCHES, "move cat 1,2")  # cat climbs from the bedrock onto the 3C
    page = browser.new_page()
    page.goto(f"{url}/play/{game_id}")
    page.wait_for_selector("#live[data-connected=yes]", timeout=WAIT_MS)
    tops = {"0,0": "6", "1,0": "7", "2,0": "8", "0,1": "5", "1,1": "13", "2,1": "9", "0,2": "4", "1,2": "3",
            "2,2": "10"}  # the top cards' values: 6C 7C 8C 5C KS 9C 4C 3C TC
    for cell, height in tops.items():
        assert page.locator(f".grid .cell[data-cell='{cell}'] .height").inner_text() == height, cell
    on_pile = page.locator(".grid .cell[data-cell='1,2']")
    assert on_pile.locator("[data-place='heap/1,2']").inner_text() == "3\u2663"
    assert on_pile.locator("[data-place='tokens/1,2']").inner_text() == "cat"  # drawn with the pile, not over it
    assert page.locator(".grid .cell[data-cell='-1,1'] .height").count() == 0  # a token on the bedrock: no pile
    page.close()


def test_the_deck_town_board_frames_each_card_in_the_colour_of_who_controls_it(browser, server):
    url, app = server
    game_id = play(app, DECK_TOWN, 50)  # seven cards on the board, two of them contested
    view = app.test_client().get(f"/api/games/{game_id}").get_json()["view"]
    page = browser.new_page()
    page.goto(f"{url}/play/{game_id}")
    page.wait_for_selector("#live[data-connected=yes]", timeout=WAIT_MS)
    contested = 0
    for place, items in view.items():
        if not place.startswith("board/"):
            continue
        owners = {group.split("+")[0].rstrip("123") for group in items[1:]}
        contested += len(owners) > 1
        cell = page.locator(f".grid[data-group=board] .cell[data-cell='{place[6:]}']")
        assert ("controlled" in cell.get_attribute("class").split()) == (len(owners) == 1), (place, items)
        assert cell.locator(".piece.stack .pyramid").count() == sum(len(group.split("+")) for group in items[1:])
    assert contested >= 1  # the position has both kinds of card
    page.close()

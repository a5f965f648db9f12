"""Rules pages and the what-if referee: pages, the JSON API, and bad input."""

from __future__ import annotations

import pytest

from referee.rules import RuleBook
from webui import create_app
from webui.rules import book_names

POSITION = "@game pungo players=ann,bob\nstep ann r2c3 1 N\n"


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True}, instance_path=str(tmp_path)).test_client()


def test_every_rule_book_has_a_page_with_every_rule_anchored(client):
    assert set(book_names()) >= {"pouches-1.9", "pouches-1.3", "mongoose", "deck-town-1.1", "pungo"}
    index = client.get("/rules").get_data(as_text=True)
    for name in book_names():
        assert f'href="/rules/{name}"' in index
        page = client.get(f"/rules/{name}").get_data(as_text=True)
        for rule in RuleBook.load(name):
            assert f'id="{rule.id}"' in page
            if rule.ruling:
                assert "House ruling:" in page


def test_an_unknown_rule_book_is_404(client):
    assert client.get("/rules/chess").status_code == 404


def test_whatif_answers_a_legal_question_and_links_the_rule(client):
    response = client.post("/whatif", data={"position": POSITION, "action": "roll bob W 5"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<code>roll bob W 5</code> is legal" in html
    assert 'href="/rules/pungo#pungo/roll/geometry"' in html


def test_whatif_explains_an_illegal_action(client):
    data = client.post("/api/whatif", json={"position": POSITION, "action": "step bob r2c3 3 N"}).get_json()
    assert data["legal"] is False and data["to_move"] == "bob"
    reason = data["reasons"][0]
    assert reason["rule"] == "pungo/turn/order" and reason["url"] == "/rules/pungo#pungo/turn/order"
    assert reason["statement"] and reason["text"] == "bob must roll the die now (roll, then move)"
    assert "roll bob W 5" in data["legal_actions"]


@pytest.mark.parametrize("payload, message", [
    ({"position": POSITION}, "send JSON"),
    ({"position": "@game chess players=a,b", "action": "x"}, "no game named 'chess'"),
    ({"position": POSITION + "step ann r2c3 1 N\n", "action": "roll bob W 5"}, "position:3: step ann r2c3 1 N: refused"),
    ({"position": POSITION, "action": "fly away"}, "the action: unknown action 'fly'"),
    ({"position": POSITION, "action": "  "}, "write the action to check"),
    ({"position": "#" * 100_001, "action": "roll bob W 5"}, "too long"),
])
def test_bad_questions_get_a_400_that_says_what_to_fix(client, payload, message):
    response = client.post("/api/whatif", json=payload)
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_oversized_and_non_json_requests(client):
    assert client.post("/api/whatif", data="x" * 2_000_000, content_type="application/json").status_code == 413
    assert client.post("/api/whatif", data="not json", content_type="application/json").status_code == 400
    form = client.post("/whatif", data={"position": "@game pungo players=ann", "action": "roll bob W 5"})
    html = form.get_data(as_text=True)
    assert form.status_code == 400 and 'role="alert"' in html and "Pungo is for 2 players, got 1" in html

"""Every rule book loads, cites a real source section, and every rule id is named by a test."""

from importlib import resources
from pathlib import Path

import pytest

from referee.rules import RuleBook

TESTS = Path(__file__).resolve().parent.parent
_FOLDER = resources.files("referee") / "rulebooks"
BOOKS = sorted(p.name[:-5] for p in _FOLDER.iterdir() if p.name.endswith(".toml")) if _FOLDER.is_dir() else []


def _test_text() -> str:
    return "\n".join(p.read_text() for p in TESTS.rglob("*.py"))


@pytest.mark.parametrize("book", BOOKS)
def test_rule_book_loads_and_every_rule_is_tested(book):
    rules = RuleBook.load(book)
    assert len(rules) > 0
    text = _test_text()
    untested = [rule.id for rule in rules if f'"{rule.id}"' not in text and f"'{rule.id}'" not in text]
    assert untested == [], f"rules no test names: {untested}"


@pytest.mark.parametrize("book", BOOKS)
def test_rule_sources_are_real_documents(book, shared):
    for rule in RuleBook.load(book):
        assert (shared / "rules" / rule.source).is_file(), f"{rule.id} cites missing {rule.source}"


"""The rules package itself: pure Python without Django, and its doctests hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import rules
from tests.rules.helpers import fresh_python

# ``rules.__main__`` runs the command line when imported.
MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(rules.__path__, "rules.")
    if info.name != "rules.__main__"
)


def test_rules_imports_nothing_from_django() -> None:
    code = (
        "import sys, rules, rules.cli\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    printed = fresh_python(code)
    assert printed.strip() == "[]"


def test_import_rules_loads_no_bot_and_no_weights() -> None:
    # As ``import chess`` leaves ``chess.engine`` out: the bots, their evaluation and its
    # learned weights load only where a bot plays (``import rules.bot``); the master's
    # search only where a master plays, and numpy never (tests/rules/test_master.py).
    code = (
        "import sys, rules\n"
        "bots = ('rules.bot', 'rules.evaluation', 'rules.lookahead', 'numpy')\n"
        "loaded = sorted(m for m in sys.modules if m in bots)\n"
        "import rules.bot\n"
        "loaded += [m for m in sys.modules if m in ('rules.lookahead', 'numpy')]\n"
        "print(loaded, rules.bot.search_of(rules.bot.BotLevel.STRONG).evaluation)\n"
    )
    printed = fresh_python(code)
    # Nothing of the bots before, and then the weights, once asked for.
    assert printed.strip() == "[] LearnedWeights(<16 stages of 27 coefficients>)"
    assert not hasattr(rules, "bot_turn")


def test_rules_source_never_imports_django() -> None:
    pattern = re.compile(r"^\s*(import|from)\s+django\b", re.MULTILINE)
    for path in Path(rules.__file__).parent.rglob("*.py"):
        assert not pattern.search(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_doctests_exist() -> None:
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert attempted >= 5


def test_no_module_of_rules_imports_numpy() -> None:
    # The site installs no numpy (requirements.txt): the lab's distilled value left rules/.
    pattern = re.compile(r"^\s*(import|from)\s+numpy\b", re.MULTILINE)
    for path in Path(rules.__file__).parent.rglob("*.py"):
        assert not pattern.search(path.read_text(encoding="utf-8")), path
    requirements = Path(rules.__file__).parents[1] / "requirements.txt"
    assert "numpy" not in requirements.read_text(encoding="utf-8")


def test_public_api_is_one_import() -> None:
    assert all(hasattr(rules, name) for name in rules.__all__)

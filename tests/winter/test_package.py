"""The winter package itself: pure Python without Django or the bots, doctests that hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys

import pytest

import winter

MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(winter.__path__, "winter.")
    if info.name != "winter.__main__"
)


def fresh(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def test_import_winter_loads_no_django_no_rules_and_no_bot() -> None:
    code = (
        "import sys, winter, winter.cli\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rules')"
        " or m == 'winter.bot'))\n"
    )
    assert fresh(code) == "[]"


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

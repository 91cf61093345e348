"""The catalogues: complete, valid, and holding every string the code marks."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ["django", "djangojs"]
CATALOGUES = [(language, domain) for language in LANGUAGES for domain in DOMAINS]


def catalogue(root: Path, language: str, domain: str) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def msgids(path: Path) -> set[tuple[str, str]]:
    """The (context, msgid) of each live entry: obsolete ``#~`` entries and the header left out."""
    found = set()
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        text = "\n".join(lines)
        msgid = _field(text, "msgid")
        if msgid:
            found.add((_field(text, "msgctxt"), msgid))
    return found


def _field(entry: str, keyword: str) -> str:
    match = re.search(rf'^{keyword} ((?:".*"\n?)+)', entry, re.MULTILINE)
    return "".join(re.findall(r'"(.*)"', match.group(1))) if match else ""


@pytest.mark.parametrize(("language", "domain"), CATALOGUES)
def test_every_entry_is_translated_and_valid(language: str, domain: str) -> None:
    # -c checks the header, plural forms and that every placeholder survives translation.
    result = subprocess.run(
        ["msgfmt", "-c", "--statistics", "-o", "/dev/null", catalogue(ROOT, language, domain)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"\d+ translated messages?\.\n", result.stderr), result.stderr


def test_the_catalogues_hold_every_marked_string(tmp_path: Path) -> None:
    # makemessages, run on a copy as scripts/messages runs it, must find nothing new.
    copy = tmp_path / "site"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "*.mo", "*.sqlite3", "staticfiles", "artifacts", "media", ".*"
        ),
    )
    subprocess.run(
        [copy / "scripts" / "messages"],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHON": sys.executable},
    )
    for language, domain in CATALOGUES:
        missing = msgids(catalogue(copy, language, domain)) - msgids(
            catalogue(ROOT, language, domain)
        )
        assert not missing, f"{language}/{domain}.po lacks {sorted(missing)}: run scripts/messages"

"""The catalogues: complete, valid, and holding every string the code marks."""

from __future__ import annotations

import os
import re
import shutil
import socket
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


_SKIPPED = shutil.ignore_patterns(
    ".venv", ".git", "*.mo", "*.sqlite3", "staticfiles", "artifacts", "media", "var", ".*"
)


def _ignored_by_git(root: Path) -> set[Path]:
    listed = subprocess.run(
        [
            "git",
            "-C",
            root,
            "ls-files",
            "-z",
            "--others",
            "--ignored",
            "--exclude-standard",
            "--directory",
        ],
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:  # not a checkout: the patterns above only
        return set()
    return {root / name.rstrip("/") for name in listed.stdout.decode().split("\0") if name}


def copy_sources(source: Path, target: Path) -> None:
    """Copy ``source`` as makemessages needs it: its files and folders only, never what git
    ignores (var/, databases, the virtualenv) nor a socket, such as the ones a running
    scripts/serve keeps in var/push."""
    ignored = _ignored_by_git(source)

    def skip(folder: str, names: list[str]) -> set[str]:
        skipped = set(_SKIPPED(folder, names))
        for name in names:
            path = Path(folder) / name
            if path in ignored or not (path.is_dir() or path.is_file()):
                skipped.add(name)
        return skipped

    shutil.copytree(source, target, ignore=skip)


def test_the_copy_skips_sockets_and_what_git_ignores(tmp_path: Path) -> None:
    # As scripts/serve leaves its tree: live Unix sockets in var/push and elsewhere.
    source = tmp_path / "s"
    (source / "var" / "push").mkdir(parents=True)
    (source / "app").mkdir()
    (source / "app" / "views.py").write_text("x = 1\n")
    (source / "build").mkdir()
    (source / "build" / "out.py").write_text("y = 2\n")
    (source / ".gitignore").write_text("/build/\n")
    subprocess.run(["git", "init", "-q", source], check=True)
    listeners = []
    for path in (source / "var" / "push" / "0.sock", source / "app" / "live.sock"):
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(path))
        listeners.append(listener)
    try:
        copy_sources(source, tmp_path / "c")
    finally:
        for listener in listeners:
            listener.close()

    assert (tmp_path / "c" / "app" / "views.py").read_text() == "x = 1\n"
    assert not (tmp_path / "c" / "app" / "live.sock").exists()
    assert not (tmp_path / "c" / "var").exists()
    assert not (tmp_path / "c" / "build").exists()


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
    copy_sources(ROOT, copy)
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


# The formal "you" (Sie, Ihr, Ihnen) inside a sentence; at a sentence's start "Sie" and
# "Ihre" may as well be "they" and "their", which the catalogue says too.
_FORMAL = re.compile(
    r"(?<![.:!?\"]\s)(?<!^)\b(Sie|Ihr|Ihre|Ihrer|Ihren|Ihrem|Ihres|Ihnen)\b|\b\w+en Sie\b"
)


@pytest.mark.parametrize("domain", DOMAINS)
def test_german_says_du_to_the_player_throughout(domain: str) -> None:
    """The German catalogue speaks to the player as "du", as most of it always did; an
    entry now and then in the formal "Sie" reads as a different site."""
    formal = []
    for block in catalogue(ROOT, "de", domain).read_text(encoding="utf-8").split("\n\n"):
        text = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        for match in re.finditer(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', text, re.MULTILINE):
            translation = "".join(re.findall(r'"(.*)"', match.group(1)))
            if _FORMAL.search(translation):
                formal.append(translation)
    assert not formal, formal

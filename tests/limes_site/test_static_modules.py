"""The boards' ES modules load under production's static files (hashed names).

collectstatic with production's storage names every file by its content's hash; the
boards' modules import one another by their plain names, which each page's import map
(templates/games/_board_scripts.html, templates/wintergames/_turn_scripts.html) turns
into the hashed ones. Every import of every
module, followed from the page's entry scripts through the map, must reach a file that
collectstatic wrote: otherwise the board is dead in production and nowhere else.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

from tests.fresh_django import PROD_ENV, run_django

COLLECT_AND_DRAW = """
import json
from django.core.management import call_command
from django.template import engines
from django.test import override_settings
with override_settings(STATIC_ROOT={root!r}):
    call_command("collectstatic", interactive=False, verbosity=0)
    class Request:
        csp_nonce = "n"
    pages = {{
        name: engines["django"].get_template(name).render({{"request": Request()}})
        for name in ("games/_board_scripts.html", "wintergames/_turn_scripts.html")
    }}
print(json.dumps(pages))
"""

IMPORT = re.compile(r"""^\s*import\s+(?:[^"']*?\sfrom\s+)?["']([^"']+)["']""", re.MULTILINE)
MAP = re.compile(r'<script type="importmap"[^>]*>(.*?)</script>', re.DOTALL)
ENTRY = re.compile(r'<script type="module" src="([^"]+)"')


def test_every_module_a_board_imports_is_found_under_its_hashed_name(tmp_path: Path) -> None:
    result = run_django(COLLECT_AND_DRAW.format(root=str(tmp_path)), **PROD_ENV)
    assert result.returncode == 0, result.stderr
    for name, page in json.loads(result.stdout).items():
        _follow_every_import(tmp_path, name, page)


def _follow_every_import(root: Path, name: str, page: str) -> None:
    imports = json.loads(MAP.search(page).group(1))["imports"]  # type: ignore[union-attr]
    entries = ENTRY.findall(page)
    assert entries, f"{name}: no module script"

    def file_of(url: str) -> Path:
        assert url.startswith("/static/"), url
        return root / url.removeprefix("/static/")

    seen: set[str] = set()
    waiting = list(entries)
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        seen.add(url)
        source = file_of(url)
        assert source.is_file(), f"{url} is imported but collectstatic wrote no such file"
        for imported in IMPORT.findall(source.read_text()):
            plain = posixpath.normpath(posixpath.join(posixpath.dirname(url), imported))
            # A browser resolves the import against the module's own (hashed) address,
            # then looks the result up in the import map.
            assert plain in imports, f"{name}: {url} imports {imported}, which its map misses"
            waiting.append(imports[plain])
    # The entries and every module in the map were reached, each under a hashed name.
    assert seen == {*entries, *imports.values()}
    assert all(re.search(r"\.[0-9a-f]{12}\.m?js$", url) for url in seen)

"""Templates stay readable: no line longer than LIMIT characters."""

from __future__ import annotations

from fnmatch import fnmatch

from django.conf import settings

TEMPLATES = settings.BASE_DIR / "templates"
LIMIT = 200

# Templates being rewrapped on other branches, as fnmatch patterns; none today.
WAITING: tuple[str, ...] = ()

# Lines that can't be broken without changing what they mean (one long URL, SVG path data),
# as (template, the line without its indent). None today.
UNAVOIDABLE: frozenset[tuple[str, str]] = frozenset()


def test_no_template_line_is_longer_than_the_limit() -> None:
    too_long = []
    for path in sorted(TEMPLATES.rglob("*")):
        name = path.relative_to(TEMPLATES).as_posix()
        if not path.is_file() or any(fnmatch(name, pattern) for pattern in WAITING):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if len(line) > LIMIT and (name, line.strip()) not in UNAVOIDABLE:
                too_long.append(f"templates/{name}:{number} ({len(line)} characters)")
    assert not too_long, f"break these lines (attributes, blocktranslate trimmed): {too_long}"

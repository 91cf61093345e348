"""A server process's start: load what requests would load on first use, then freeze the heap.

Python's cycle collector walks every object it tracks. A Django process holds about 140,000
long-lived ones (modules, URL patterns, compiled templates, translation catalogues, the
bots' weights), and each full collection walked them all again: 68 ms on this machine, in
the middle of whichever request allocated the object that tipped it over. After ``settle``
they sit in the permanent generation (``gc.freeze``), which no collection walks (a full
collection of the warmed process: 0.0 ms), and the young generation is collected a tenth as
often: most of a request's objects are gone by the time it is. A template that does not
compile now stops the server at its start, not a player's request.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import get_resolver
from django.utils import translation

GC_THRESHOLD = (7000, 10, 10)
"""Allocations between young collections (CPython's default: 700), and the older two's."""


def load() -> None:
    """What the first requests would load: every view, our templates, each catalogue."""
    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    for engine in engines.all():
        for name in _own_templates(engine.template_dirs):
            engine.get_template(name)
    for code, _name in settings.LANGUAGES:
        translation.activate(code)  # which reads the language's catalogue
    translation.deactivate()
    import rules.bot  # noqa: F401  (the learned weights, read once a process)


def settle() -> None:
    """``load``, then everything that survives a full collection frozen for good."""
    load()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


def _own_templates(folders: Iterable[str | Path]) -> list[str]:
    # The project's templates (not the admin's or allauth's many: most are never drawn).
    names: list[str] = []
    for folder in map(Path, folders):
        if folder.is_relative_to(settings.BASE_DIR) and ".venv" not in folder.parts:
            names += sorted(str(path.relative_to(folder)) for path in folder.rglob("*.html"))
    return names

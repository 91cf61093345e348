"""A server process's start (limes_site.warmup): everything loaded, then frozen."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.template import TemplateSyntaxError, engines
from pytest_django.fixtures import Settings

from limes_site import warmup


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settle_compiles_every_project_template_then_freezes_the_heap(restored_gc: None) -> None:
    (engine,) = engines.all()
    names = warmup._own_templates(engine.template_dirs)
    warmup.settle()

    on_disk = list((settings.BASE_DIR / "templates").rglob("*.html"))
    assert len(names) == len(on_disk) > 50
    assert "games/game.html" in names
    # What the process had loaded is out of the collector's way for good.
    assert gc.get_freeze_count() > 10_000
    assert gc.get_threshold() == warmup.GC_THRESHOLD


def test_a_template_that_does_not_compile_stops_the_start(
    restored_gc: None, tmp_path: Path, settings: Settings
) -> None:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "broken.html").write_text("{% if %}")
    settings.BASE_DIR = tmp_path
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [folder]}]

    with pytest.raises(TemplateSyntaxError):
        warmup.load()

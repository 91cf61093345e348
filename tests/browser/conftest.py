from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Screenshots land here; git ignores it.
_ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install it with apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        new_context = browser.new_context

        def watched_context(*args: object, **kwargs: object) -> object:
            context = new_context(*args, **kwargs)  # type: ignore[arg-type]
            context.add_init_script(_REPORT_VIOLATIONS)
            context.on("console", _record_violation)
            return context

        browser.new_context = watched_context  # type: ignore[method-assign,assignment]
        yield browser
        browser.close()


# Every page reports what the Content-Security-Policy blocked, as a console error the
# tests collect (Chromium's own message may name less).
_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI} `
    + `at ${event.sourceFile}:${event.lineNumber}`);
});
"""
_violations: list[str] = []


def _record_violation(message: object) -> None:
    text = str(message.text)  # type: ignore[attr-defined]
    if "CSP violation" not in text and "Content Security Policy" not in text:
        return
    # Code a test evaluates in the page (axe-core's checks add style elements) has no
    # source file: what it does is the test's, not the site's.
    ours = text.startswith("CSP violation")
    if ours and re.search(r" at :\d+$", text.rstrip()):
        return
    if not ours and not message.location.get("url"):  # type: ignore[attr-defined]
        return
    _violations.append(text)


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """Fails a browser test during which any page broke the Content-Security-Policy."""
    _violations.clear()
    yield
    assert not _violations, "\n".join(_violations)


@pytest.fixture
def page(browser: object, live_server: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def artifacts() -> Path:
    """The folder for screenshots (made if missing); git ignores it."""
    _ARTIFACTS.mkdir(exist_ok=True)
    return _ARTIFACTS

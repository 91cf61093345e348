from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator
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


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium, for one module's tests.

    Playwright's sync API keeps an event loop running in this thread while it is open, so
    it is closed after each module: tests elsewhere that run coroutines with
    ``async_to_sync`` (the event streams') need a thread without one. pytest-django runs
    the transactional tests, these among them, after the others, so a session-wide browser
    would still be open when they ran.
    """
    if not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install it with apt-get install chromium")
    # The ORM calls the tests make around the browser are synchronous and safe, though
    # Django sees the event loop; allowed only while the browser is open.
    allowed = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _launched()
    finally:
        if allowed is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = allowed


def _launched() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

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


class _ViewsRunning:
    """The live server's WSGI application, counting the requests whose views are running.

    A streaming response's view returns at once (its body runs later), so an open event
    stream does not count: only the requests that could be reading or writing the
    database.
    """

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.running = 0
        self.done = threading.Condition()

    def __call__(self, environ: dict[str, object], start_response: object) -> Iterable[bytes]:
        with self.done:
            self.running += 1
        try:
            return self.app(environ, start_response)
        finally:
            with self.done:
                self.running -= 1
                self.done.notify_all()

    def wait(self, seconds: float) -> None:
        with self.done:
            self.done.wait_for(lambda: self.running == 0, timeout=seconds)


@pytest.fixture(autouse=True)
def _no_request_outlives_the_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Before the test's tables are emptied, wait for the live server's running requests.

    A page closed at the end of a test may leave a request in a view (a chat panel it had
    just asked for, a poll). If that view is reading when the tables are truncated,
    PostgreSQL can find the two waiting on each other's locks and fail the truncation: the
    rows left behind then fail the next test. The database fixture is set up first, so it
    is torn down after this.
    """
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    server = request.getfixturevalue("live_server").thread.httpd
    app = server.get_app()
    if not isinstance(app, _ViewsRunning):
        app = _ViewsRunning(app)
        server.set_app(app)
    yield
    app.wait(seconds=30)

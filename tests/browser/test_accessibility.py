"""axe-core finds no serious or critical accessibility problem on the site's main pages.

One browser session visits every page at a desktop width (1280 px) and a phone width
(390 px); a failure lists each page, width, rule and the elements it flagged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from accounts.models import Notification, User
from games import services
from games.models import Game
from tests.browser.pages import settle
from tests.factories import (
    PASSWORD,
    ReportFactory,
    UserFactory,
    finished_multi,
    moderators_group,
    solo_results,
    started_game,
)
from wintergames import services as winter_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: 640 px is the 1280 px screen at 200% zoom: checked for horizontal scrolling only.
WIDTHS = (1280, 640, 390)
AXE_WIDTHS = (1280, 390)
BLOCKING = {"serious", "critical"}


def sign_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form [type=submit]").last.click()
    page.wait_for_url(f"{base}/")


def place_first_card(page: Any) -> None:
    """Put the card on a slot, so the page shows the worker choices as well."""
    page.locator("[data-slot]").first.click()
    page.locator(".card--draft").wait_for()
    settle(page)


def choose_a_winter_place(page: Any) -> None:
    """Take the first place and a follower, so the bar shows the choices in words."""
    settle(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("f")
    page.locator("[data-followers] button").first.wait_for()


def a_game_in_progress(player: User, play: Callable[[Game, int], Game]) -> Game:
    game = services.game_create_solo(user=player, diagonal=True, ferryman=True, seed=7)
    return play(game, 4)


def summarise(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{where}: {', '.join(rules) or 'none'}" for where, rules in found.items())


def test_main_pages_have_no_serious_or_critical_violations(
    browser: Any, live_server: Any, play_rounds: Callable[[Game, int], Game]
) -> None:
    base = live_server.url
    # ana moderates as well, so one session also sees the moderators' pages.
    player = UserFactory(username="ana", is_staff=True)
    player.groups.add(moderators_group())
    other = UserFactory(username="bo")
    third = UserFactory(username="cy")
    in_progress = a_game_in_progress(player, play_rounds)
    finished = play_rounds(
        services.game_create_solo(user=player, diagonal=False, ferryman=False, seed=3), 16
    )
    solo_results(player, [31, 44, 38, 52])
    waiting = services.game_create_multi(user=player, seats_max=3, pace=Game.Pace.LIVE)
    table = started_game([other, player, third])
    Notification.objects.create(user=player, text="Your report was read. Thank you.")
    report = ReportFactory(reporter=third, target=other)
    winter = winter_services.game_create(
        user=player, players=2, computers=1, level="easy", farmers=True, pace="untimed", seed=5
    )

    # Signed out first (the sign-in and sign-up forms), then signed in as ana.
    signed_out = [
        ("sign-in", "/accounts/login/", None),
        ("sign-up", "/accounts/signup/", None),
        ("account closed", "/account-closed/", None),
    ]
    signed_in: list[tuple[str, str, Callable[[Any], None] | None]] = [
        ("home", "/", None),
        ("rules", "/rules/", None),
        ("solo game in progress", f"/games/{in_progress.pk}/", place_first_card),
        ("multiplayer game in progress", f"/games/{table.pk}/", None),
        ("finished game", f"/games/{finished.pk}/", None),
        ("replay", f"/games/{finished.pk}/replay/?round=8", None),
        ("lobby", "/lobby/", None),
        ("waiting room", f"/games/{waiting.pk}/", None),
        ("my games", "/games/mine/", None),
        ("leaderboards", "/leaderboards/", None),
        ("rating leaderboard", "/leaderboards/standard/rating/", None),
        ("daily", "/daily/", None),
        ("profile", "/players/ana/", None),
        ("settings", "/players/settings/", None),
        ("notifications", "/notifications/", None),
        ("report a player", "/report/bo/", None),
        ("moderation: reports", "/admin/moderation/report/", None),
        ("moderation: a report", f"/admin/moderation/report/{report.pk}/change/", None),
        ("moderation: bans", "/admin/moderation/ban/", None),
        ("winter home", "/winter/", None),
        ("winter rules", "/winter/rules/", None),
        ("winter game, your turn", f"/winter/games/{winter.pk}/", choose_a_winter_place),
    ]

    axe = Axe()
    found: dict[str, list[str]] = {}
    details: list[str] = []
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        for pages, signed in ((signed_out, False), (signed_in, True)):
            if signed:
                sign_in(page, base, player.username)
            for name, path, then in pages:
                response = page.goto(f"{base}{path}")
                assert response is not None and response.status < 400, (name, response)
                if then is not None:
                    then(page)
                where = f"{name} @ {width}px"
                # The page itself never scrolls sideways (a wide landscape scrolls in its box).
                wider = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                if wider > 0:
                    details.append(f"{where}: scrolls sideways by {wider} px")
                if width not in AXE_WIDTHS:
                    continue
                results = axe.run(page, options={"resultTypes": ["violations"]})
                blocking = [v for v in results.response["violations"] if v["impact"] in BLOCKING]
                found[where] = [f"{v['id']} ({v['impact']}, {len(v['nodes'])})" for v in blocking]
                for violation in blocking:
                    targets = "; ".join(" ".join(n["target"]) for n in violation["nodes"][:5])
                    details.append(f"{where}: {violation['id']}: {violation['help']} -> {targets}")
        context.close()

    print("axe: serious and critical violations per page\n" + summarise(found))
    assert not details, "\n".join(details)


# Machado, Oliveira and Fernandes (2009), full severity: how a protanope and a deuteranope
# see linear RGB. Used both as an SVG filter on the page and on the art's own colours.
SIMULATIONS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}
Matrix = tuple[tuple[float, float, float], ...]


def _linear(hex_colour: str) -> tuple[float, float, float]:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return r, g, b


def _luminance(rgb: tuple[float, float, float], matrix: Matrix | None) -> float:
    if matrix is not None:
        rgb = tuple(
            min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
        )  # type: ignore[assignment]
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(one: str, other: str, matrix: Matrix | None) -> float:
    a, b = sorted((_luminance(_linear(one), matrix), _luminance(_linear(other), matrix)))
    return (b + 0.05) / (a + 0.05)


def _art_colours() -> dict[str, str]:
    import re
    from pathlib import Path

    defs = (Path(__file__).resolve().parents[2] / "templates/games/_svg_defs.html").read_text()
    colours = {
        terrain: re.search(rf'id="pat-{terrain}".*?fill="(#[0-9a-f]{{6}})"', defs, re.S)
        for terrain in ("field", "water", "forest", "tower")
    }
    worker = re.search(r'id="worker".*?fill="(#[0-9a-f]{6})"', defs, re.S)
    assert worker and all(colours.values())
    return {"worker": worker.group(1), **{t: m.group(1) for t, m in colours.items() if m}}


def test_the_worker_stands_out_on_every_terrain_for_colour_blind_eyes() -> None:
    colours = _art_colours()
    for name, matrix in [("normal", None), *SIMULATIONS.items()]:
        for terrain in ("field", "water", "forest", "tower"):
            ratio = _contrast(colours["worker"], colours[terrain], matrix)
            # 3:1, the contrast WCAG asks of the parts of a picture one must make out.
            assert ratio >= 3.0, f"worker on {terrain}, {name} sight: {ratio:.2f}:1"


def test_board_pictures_as_protanopes_and_deuteranopes_see_them(
    page: Any, live_server: Any, artifacts: Any, play_rounds: Callable[[Game, int], Game]
) -> None:
    base = live_server.url
    player = UserFactory(username="ana")
    game = play_rounds(
        services.game_create_solo(user=player, diagonal=True, ferryman=True, seed=7), 6
    )
    sign_in(page, base, "ana")
    page.goto(f"{base}/games/{game.pk}/")
    place_first_card(page)
    sources = page.locator("a[data-role=source]")
    assert page.locator("a[data-role=place]").count() and sources.count()
    page.locator("a[data-role=place]").first.focus()
    board = page.locator("#board .landscape")
    board.screenshot(path=str(artifacts / "colour-normal.png"))
    for name, matrix in SIMULATIONS.items():
        values = " ".join(" ".join(str(v) for v in (*row, 0, 0)) for row in matrix)
        page.evaluate(
            """([name, values]) => {
                const ns = 'http://www.w3.org/2000/svg';
                const svg = document.createElementNS(ns, 'svg');
                svg.setAttribute('width', '0'); svg.setAttribute('height', '0');
                svg.innerHTML = `<filter id="sim-${name}" color-interpolation-filters="linearRGB">
                  <feColorMatrix type="matrix" values="${values} 0 0 0 1 0"/></filter>`;
                document.body.appendChild(svg);
                document.querySelector('#board .landscape').style.filter = `url(#sim-${name})`;
            }""",
            [name, values],
        )
        board.screenshot(path=str(artifacts / f"colour-{name}.png"))
    # The roles differ in line style, not only in colour: a protanope tells them apart too.
    styles = {
        role: page.evaluate(
            "role => getComputedStyle(document.querySelector(`a[data-role=${role}]`), '::after')"
            ".borderTopStyle",
            role,
        )
        for role in ("place", "source")
    }
    assert styles["place"] != styles["source"], styles


def contrast_failures(axe: Any, page: Any, where: str, context: str | None = None) -> list[str]:
    """Each element whose text axe finds too faint on its background, with its colours."""
    options = {"runOnly": ["color-contrast"], "resultTypes": ["violations"]}
    results = axe.run(page, context=context, options=options)
    return [
        f"{where}: {' '.join(node['target'])}: {node['any'][0]['message'] if node['any'] else ''}"
        for violation in results.response["violations"]
        for node in violation["nodes"]
    ]


def test_text_stays_readable_in_dark_mode_and_on_hovered_buttons(
    browser: Any, live_server: Any, play_rounds: Callable[[Game, int], Game]
) -> None:
    base = live_server.url
    player = UserFactory(username="ana")
    other = UserFactory(username="bo")
    in_progress = a_game_in_progress(player, play_rounds)
    finished = play_rounds(
        services.game_create_solo(user=player, diagonal=True, ferryman=True, seed=3), 16
    )
    table = finished_multi([player, other], [1, 2])
    waiting = services.game_create_multi(user=player, seats_max=3, pace=Game.Pace.LIVE)
    pages = [
        ("home", "/"),
        ("finished game", f"/games/{finished.pk}/"),
        ("finished table (rating change)", f"/games/{table.pk}/"),
        ("waiting room", f"/games/{waiting.pk}/"),
        ("my games", "/games/mine/"),
        ("lesson with variant tags", "/learn/8/"),
        ("profile", "/players/ana/"),
    ]
    # (page, the button pointed at, what to do first)
    hovered = [
        (f"/games/{in_progress.pk}/", "[data-key=rotate-left]", place_first_card),
        (f"/games/{finished.pk}/", "[data-testid=replay-link]", None),
        (f"/games/{waiting.pk}/", "#table .button--secondary", None),
        (f"/games/{waiting.pk}/", "form[action$='/cancel/'] button", None),
    ]
    axe = Axe()
    failures: list[str] = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.set_default_timeout(15_000)
        sign_in(page, base, player.username)
        if scheme == "dark":
            for name, path in pages:
                page.goto(f"{base}{path}")
                failures += contrast_failures(axe, page, f"{name} ({scheme})")
        for path, button, then in hovered:
            page.goto(f"{base}{path}")
            if then is not None:
                then(page)
            page.locator(button).first.hover()
            failures += contrast_failures(
                axe, page, f"{button} hovered on {path} ({scheme})", button
            )
        context.close()
    assert not failures, "\n".join(failures)


def test_a_destructive_confirmation_does_not_look_like_the_main_action(
    page: Any, live_server: Any, play_rounds: Callable[[Game, int], Game]
) -> None:
    base = live_server.url
    player = UserFactory(username="ana")
    game = a_game_in_progress(player, play_rounds)
    waiting = services.game_create_multi(user=player, seats_max=3, pace=Game.Pace.LIVE)
    sign_in(page, base, "ana")

    def background(selector: str) -> str:
        colour: str = page.evaluate(
            "s => getComputedStyle(document.querySelector(s)).backgroundColor", selector
        )
        return colour

    page.goto(f"{base}/games/{game.pk}/")
    page.locator("[data-testid=resign-box] summary").click()
    commit = background("[data-key=commit]")
    abandon = background("[data-testid=resign]")
    assert abandon != commit
    page.goto(f"{base}/games/{waiting.pk}/")
    start = background("[data-testid=start]")
    cancel = background("form[action$='/cancel/'] button")
    assert cancel == abandon != start


def test_landmarks_are_unique_and_the_embed_has_a_heading(
    browser: Any, live_server: Any, play_rounds: Callable[[Game, int], Game]
) -> None:
    import datetime

    from django.utils import timezone

    from tournaments import services as tournament_services

    base = live_server.url
    player = UserFactory(username="ana")
    other = UserFactory(username="bo")
    in_progress = a_game_in_progress(player, play_rounds)
    finished = play_rounds(
        services.game_create_solo(user=player, diagonal=False, ferryman=False, seed=3), 16
    )
    table = started_game([other, player])
    done_table = finished_multi([player, other], [1, 2])
    tournament = tournament_services.tournament_create(
        name="Wednesday cup",
        ruleset="standard",
        deal_count=2,
        starts_at=timezone.now() - datetime.timedelta(hours=1),
        ends_at=timezone.now() + datetime.timedelta(days=1),
    )
    for entrant in (player, other):
        tournament_services.tournament_join(tournament=tournament, user=entrant)
    pages = [
        ("tournament", f"/tournaments/{tournament.pk}/"),
        ("tournaments", "/tournaments/"),
        ("solo game in progress", f"/games/{in_progress.pk}/"),
        ("multiplayer game in progress", f"/games/{table.pk}/"),
        ("finished game", f"/games/{finished.pk}/"),
        ("finished multiplayer game", f"/games/{done_table.pk}/"),
        ("profile", "/players/ana/"),
        ("another's profile", "/players/bo/"),
        ("embed", f"/embed/games/{finished.pk}/"),
    ]
    rules = ["landmark-unique", "page-has-heading-one", "landmark-no-duplicate-main"]
    axe = Axe()
    failures: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, base, player.username)
    for name, path in pages:
        response = page.goto(f"{base}{path}")
        assert response is not None and response.status == 200, (name, response)
        settle(page)
        results = axe.run(page, options={"runOnly": rules, "resultTypes": ["violations"]})
        for violation in results.response["violations"]:
            targets = "; ".join(" ".join(n["target"]) for n in violation["nodes"][:5])
            failures.append(f"{name}: {violation['id']}: {targets}")
    context.close()
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("width", AXE_WIDTHS)
def test_the_api_docs_have_no_serious_or_critical_violations(
    browser: Any, live_server: Any, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/api/v1/docs")
        # Swagger UI draws the operations from the schema once the page has loaded.
        page.locator(".opblock").first.wait_for()
        page.locator(".json-schema-2020-12-head").first.wait_for()
        results = Axe().run(page, options={"resultTypes": ["violations"]})
        blocking = [
            f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['nodes'][0]['target']}"
            for v in results.response["violations"]
            if v["impact"] in BLOCKING
        ]
        assert blocking == []
    finally:
        context.close()

"""Draws the installed app's icons (static/icons/*.png) from the site's logo, static/favicon.svg.

Run by hand when the logo changes: ``python scripts/app_icons.py``; the PNGs are committed.
Chromium (the browser tests' /usr/bin/chromium, through Playwright) does the drawing.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "static"
#: The maskable icon's background, the site's page colour (--color-bg in css/site.css).
BACKGROUND = "#f7f6f1"
#: (file, size in pixels, logo's share of the side, background or None for transparent).
#: A maskable icon keeps the logo inside the middle 80% circle the platforms may cut to.
ICONS = [
    ("icon-192.png", 192, 1.0, None),
    ("icon-512.png", 512, 1.0, None),
    ("icon-maskable-512.png", 512, 0.6, BACKGROUND),
]


def main() -> None:
    logo = (STATIC / "favicon.svg").read_text()
    (STATIC / "icons").mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        for name, size, share, background in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            inner = round(size * share)
            page.set_content(
                f'<body style="margin:0;width:{size}px;height:{size}px;display:grid;'
                f'place-items:center;background:{background or "transparent"}">'
                f'<div style="width:{inner}px;height:{inner}px">{logo}</div></body>'
            )
            page.locator("svg").evaluate("svg => { svg.style.width = svg.style.height = '100%'; }")
            page.screenshot(path=STATIC / "icons" / name, omit_background=background is None)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()

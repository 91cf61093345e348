"""The words of a page a reader sees or hears, and those that are the same in every
language: shared by the tests of translated pages and of the translated admin."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Words that are the same in any language: names, the game's title, the language menu
# (each language is named in itself), and abbreviations.
NAMES = {
    "jana",
    "petr",
    "limes",
    "online",
    "english",
    "česky",
    "deutsch",
    "français",
    "json",
    "utc",
    "zip",
    "javascript",
    "api",
}
# The second game's title, Carcassonne, is a name in every language.
NAMES |= {"carcassonne"}
# Players' own words, and English words Czech uses as they are.
NAMES |= {"hraju", "hra", "čeká", "software"}
# Words spelt as in English that are the right word in the language too (Czech keyboards
# name their keys as English ones do).
SAME_WORDS = {
    "cs": {"reset", "shift", "enter", "home", "end", "data", "chat"},
    "de": {"browser", "lobby", "live", "solo", "standard", "diagonal", "code", "minute", "per",
           "name", "computer", "link", "see", "passkey", "passkeys", "chat", "winter", "edition"},
    "fr": {"notifications", "point", "points", "profession", "score", "scores", "solo",
           "total", "zone", "zones", "standard", "minute", "minutes", "invitation", "code",
           "place", "excellent", "mode", "modes", "public", "page", "final", "menu", "record",
           "dates", "sessions", "chat", "message"},
}  # fmt: skip
# A finished game's share box: an image format's name, and two French words spelt as English.
NAMES |= {"svg"}
SAME_WORDS["fr"] |= {"image", "web"}
# Vacation: a clock that "steht still" (stands still) in German.
SAME_WORDS["de"] |= {"still"}
# Notifications: "push" is the word in every language, an iPhone an iPhone; German and
# French write e-mail (and German a browser's tab, an iPhone's Home-Bildschirm) as English.
NAMES |= {"push", "iphone"}
SAME_WORDS["de"] |= {"mail", "tab", "home"}
SAME_WORDS["fr"] |= {"mail", "notification", "site"}


class Text(HTMLParser):
    """What a reader sees or hears: text, titles, labels, placeholders; not scripts."""

    SPOKEN = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        self.parts.extend(value or "" for name, value in attrs if name in self.SPOKEN)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def words(html: str) -> set[str]:
    parser = Text()
    parser.feed(html)
    # Format names (limes-game/1, limes-bot/1) are names in every language.
    text = re.sub(r"\blimes-\w+/\d+", " ", " ".join(parser.parts))
    return {word.lower() for word in re.findall(r"[^\W\d_]{3,}", text)}

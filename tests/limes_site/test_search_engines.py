"""What search engines read: a description on every page, and /robots.txt (issue #51)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "free software for playing the card game Limes"),
        ("cs", "Limes"),
        ("de", "Limes"),
        ("fr", "Limes"),
    ],
)
def test_every_page_describes_the_site_in_its_language(language: str, words: str) -> None:
    client = Client(headers={"accept-language": language})
    for url in ("/", "/tournaments/", "/learn/"):
        page = " ".join(client.get(url).content.decode().split())
        assert page.count('<meta name="description" content="') == 1, url
        description = page.split('<meta name="description" content="', 1)[1].split('"', 1)[0]
        assert words in description and len(description) > 40, (url, description)
    if language != "en":
        assert "free software for playing" not in description


def test_robots_txt_lets_crawlers_read_the_site_but_not_its_polls() -> None:
    response = Client().get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert "User-agent: *" in text
    assert "Disallow: /admin/" in text and "Disallow: /games/*/poll/" in text
    assert "Disallow: /\n" not in text

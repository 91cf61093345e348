"""The rules page speaks each language with the printed game's own terms."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

# The professions, the tower, the huts and the two variants as the publisher's rulebook
# in that language names them (../shared/rulebooks/).
TERMS = {
    "cs": ["Farmář", "Rybář", "Dřevorubec", "Strážný", "věž", "rybářská chatrč",
           "Přikládání karet úhlopříčně", "Rybář jako převozník"],
    "de": ["Bauer", "Fischer", "Holzfäller", "Wächter", "Turm", "Fischerhütte",
           "Diagonales Anlegen", "Der Fischer als Fährmann"],
    "fr": ["Fermier", "Pêcheur", "Bûcheron", "Gardien", "tour", "cabane de pêcheur",
           "Pose en diagonale", "Le pêcheur devient passeur"],
}  # fmt: skip


@pytest.mark.parametrize("language", TERMS)
def test_the_rules_use_the_rulebook_terms(client: Client, language: str) -> None:
    page = client.get(reverse("games:rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for term in TERMS[language]:
        assert term in page, term
    assert "Only one worker scores in each region." not in page

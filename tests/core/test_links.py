"""Many links from one reverse(): each is the URL reverse() itself would give."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import NoReverseMatch, reverse

from core.links import STAND_IN, Link


@pytest.mark.parametrize(
    "name", ["ann", "Zoë Ünal", "a b&c?d#e", "100%", "~tilde:at@", "987654321987", "12"]
)
def test_a_profile_link_is_the_one_reverse_gives(name: str) -> None:
    assert Link("accounts:profile")(name) == reverse("accounts:profile", args=[name])


def test_a_game_link_is_the_one_reverse_gives() -> None:
    replay = Link("games:replay")
    assert [replay(pk) for pk in (1, 42, 10**15)] == [
        reverse("games:replay", args=[pk]) for pk in (1, 42, 10**15)
    ]


def test_an_absolute_link_keeps_the_scheme_and_host_and_fills_the_id() -> None:
    request = RequestFactory().get("/", secure=True)
    link = Link("games:detail", build=request.build_absolute_uri)
    assert link(7) == request.build_absolute_uri(reverse("games:detail", args=[7]))
    assert STAND_IN not in link(7)


def test_a_route_without_an_argument_is_refused() -> None:
    with pytest.raises(NoReverseMatch):
        Link("games:lobby")

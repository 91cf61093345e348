"""Every URL pattern of the project, walked with hostile values: none may answer 500.

The patterns come from the resolver, so a view added tomorrow is walked too. For each one,
a first request with sensible values records which GET and POST keys the view reads; then
each path parameter and each of those keys gets hostile values in turn (NUL bytes, huge
numbers, unicode digits, slashes, long strings, several values for one key), by GET and
by POST, as a visitor, a player and a moderator. Each request runs in a transaction that
is rolled back, so that no request changes what the next one finds.
"""

from __future__ import annotations

import datetime
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils.datastructures import MultiValueDict

from accounts.models import User
from games import services
from games.models import Game
from games.services import game_create_daily
from moderation.models import Report
from tests.factories import FinishedSoloFactory, UserFactory, moderators_group
from wintergames import services as winter_services
from wintergames.models import WinterGame

HOSTILE = [
    "\x00",
    "a\x00b",
    "99999999999999999999999",
    "-1",
    "²",
    "١٢٣",
    "a/b",
    "x" * 3000,
    "0001-01-01",
    "%",
]
# For a query key: the worst of those, and a key sent twice (a list where one is read).
HOSTILE_QUERY: list[str | list[str]] = [
    "\x00",
    "99999999999999999999999",
    "²",
    "a/b",
    "x" * 3000,
    ["1", "2"],
]
LOGIN_PAGES = ("/accounts/login/", "/admin/login/")


@dataclass(frozen=True)
class Param:
    name: str
    regex: str


@dataclass(frozen=True)
class Route:
    """A URL pattern as a list of literal text and parameters, and the view behind it."""

    parts: tuple[str | Param, ...]
    view: object

    @property
    def text(self) -> str:
        return "".join(p if isinstance(p, str) else f"<{p.name}>" for p in self.parts)

    def params(self) -> list[Param]:
        return [p for p in self.parts if isinstance(p, Param)]

    def url(self, values: dict[str, str]) -> str:
        return "/" + "".join(
            p if isinstance(p, str) else quote(values[p.name], safe="") for p in self.parts
        )


_ROUTE_PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _route_parts(pattern: RoutePattern) -> list[str | Param]:
    route = str(pattern)
    parts: list[str | Param] = []
    at = 0
    for match in _ROUTE_PARAM.finditer(route):
        parts.append(route[at : match.start()])
        converter = pattern.converters[match["name"]]
        parts.append(Param(match["name"], converter.regex))
        at = match.end()
    parts.append(route[at:])
    return [p for p in parts if p != ""]


def _regex_parts(pattern: RegexPattern) -> list[str | Param]:
    # Named groups become parameters; the text between them is literal once unescaped.
    regex = str(pattern).lstrip("^").removesuffix("$").removesuffix(r"\Z")
    parts: list[str | Param] = []
    at = 0
    while (start := regex.find("(?P<", at)) != -1:
        parts.append(regex[at:start])
        name_end = regex.index(">", start)
        depth, end = 0, start
        while True:
            if regex[end] == "\\":
                end += 2
                continue
            depth += {"(": 1, ")": -1}.get(regex[end], 0)
            end += 1
            if depth == 0:
                break
        parts.append(Param(regex[start + 4 : name_end], regex[name_end + 1 : end - 1]))
        at = end
    parts.append(regex[at:])
    return [re.sub(r"\\(.)", r"\1", p) if isinstance(p, str) else p for p in parts if p != ""]


def iter_routes(resolver: URLResolver | None = None, prefix: tuple = ()) -> Iterator[Route]:  # type: ignore[type-arg]
    """Every URL pattern of the project, includes followed."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        pattern = entry.pattern
        if isinstance(pattern, RoutePattern):
            parts = _route_parts(pattern)
        else:
            assert isinstance(pattern, RegexPattern)
            parts = _regex_parts(pattern)
        if isinstance(entry, URLResolver):
            yield from iter_routes(entry, (*prefix, *parts))
        else:
            assert isinstance(entry, URLPattern)
            yield Route((*prefix, *parts), entry.callback)


# -- the world the walk runs in --------------------------------------------------------


@dataclass
class World:
    player: User
    moderator: User
    rival: User
    game: Game
    unlisted: Game
    finished: Game
    #: Opened by the player, a computer seated, a seat open: Winter's pages have a game.
    winter: WinterGame


@pytest.fixture
def world(db: None) -> World:
    player = UserFactory(username="walker")
    rival = UserFactory(username="rival")
    moderator = UserFactory(username="warden", is_staff=True)
    moderator.groups.add(moderators_group())
    finished = FinishedSoloFactory(user=rival, game__created_by=rival).game
    game = services.game_create_multi(user=rival, seats_max=3, pace="live")
    services.game_join(game=game, user=player)
    unlisted = services.game_create_multi(user=rival, seats_max=2, pace="live", listed=False)
    services.game_create_solo(user=player)
    game_create_daily(user=player)
    Report.objects.create(
        reporter=player, target=rival, category=Report.Category.OTHER, text="Rude."
    )
    winter = winter_services.game_create(
        user=player, players=3, computers=1, level="easy", farmers=True, pace="live"
    )
    return World(player, moderator, rival, game, unlisted, finished, winter)


def _admin_model(route: Route) -> type[Model] | None:
    literal = "".join(p for p in route.parts if isinstance(p, str))
    match = re.match(r"/?admin/(\w+)/(\w+)/", "/" + literal.lstrip("/"))
    if match is None:
        return None
    try:
        return apps.get_model(match[1], match[2])
    except LookupError:
        return None


def sensible_values(route: Route, world: World) -> dict[str, str]:
    """Values that reach the view's own code: an existing game, player, day, object."""
    model = _admin_model(route)
    values: dict[str, str] = {}
    winter = route.text.startswith("winter/")
    for param in route.params():
        name = param.name
        if winter and name in ("pk", "seat"):
            computer = world.winter.seats.exclude(bot_level="").get()
            values[name] = str(world.winter.pk if name == "pk" else computer.pk)
            continue
        if name in ("object_id", "id") and model is not None:
            obj = model._default_manager.order_by("pk").first()
            values[name] = str(obj.pk) if obj is not None else "1"
        elif name == "action" and model is not None:
            model_admin = admin.site._registry.get(model)
            actions = getattr(model_admin, "reason_actions", ())
            values[name] = actions[0].name if actions else "nothing"
        else:
            values[name] = {
                "pk": str(world.game.pk),
                "username": world.rival.username,
                "code": world.unlisted.invite_code or "",
                "ruleset": "standard",
                "kind": "best",
                "day": (datetime.date(2026, 6, 9)).isoformat(),
                "app_label": "games",
                "content_type_id": str(ContentType.objects.get_for_model(Game).pk),
                "object_id": str(world.finished.pk),
                "url": "nowhere/",
                "key": "abc",
                "uidb36": "1",
            }.get(name, "1")
    return values


# -- recording what a view reads ---------------------------------------------------------


class KeyRecorder:
    """Records every key read from a request's GET or POST while it is on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.keys: set[str] = set()
        recorder = self
        for method in ("__getitem__", "get", "getlist", "__contains__", "pop"):
            original = getattr(MultiValueDict, method, None) or getattr(dict, method)

            def spy(self, key, *args, _original=original, **kwargs):  # type: ignore[no-untyped-def]
                from django.http import QueryDict

                if isinstance(self, QueryDict) and isinstance(key, str):
                    recorder.keys.add(key)
                return _original(self, key, *args, **kwargs)

            monkeypatch.setattr(MultiValueDict, method, spy)


@dataclass
class Outcome:
    statuses: Counter[int]
    failures: list[str]


CSRF_SECRET = "k" * 32


def _request(client: Client, method: str, url: str, data: object, **extra: object) -> HttpResponse:
    # Rolled back after each request: no request changes what the next one finds. The
    # cookies too: a request that signs out must not sign out the next one.
    cookies = client.cookies.__class__(client.cookies)
    with transaction.atomic():
        cache.clear()
        try:
            if method == "GET":
                return client.get(url, data, **extra)  # type: ignore[arg-type,return-value]
            # The CSRF check runs as in production, with the token a page would give.
            return client.post(url, data, HTTP_X_CSRFTOKEN=CSRF_SECRET, **extra)  # type: ignore[arg-type,return-value]
        finally:
            transaction.set_rollback(True)
            client.cookies = cookies


def _client(who: User | None) -> Client:
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    if who is not None:
        client.force_login(who)
    client.cookies[settings.CSRF_COOKIE_NAME] = CSRF_SECRET
    return client


def walk(world: World, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    recorder = KeyRecorder(monkeypatch)
    only = re.compile(os.environ.get("LIMES_WALK_ONLY", ""))
    identities = [(who, _client(who)) for who in (None, world.player, world.moderator)]

    def send(
        client: Client, method: str, url: str, data: object, what: str, **extra: object
    ) -> int:
        try:
            response = _request(client, method, url, data, **extra)
        except Exception as error:
            # Not even Django's error page could answer: the server sends a bare 500.
            response = HttpResponse(repr(error)[:200], status=500)
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            failures.append(f"{response.status_code} {method} {url[:120]!r} {what} as {name}")
        location = response.get("Location", "")
        return -1 if location.startswith(LOGIN_PAGES) else response.status_code

    for route in iter_routes():
        if not only.search(route.text):
            continue
        values = sensible_values(route, world)
        url = route.url(values)
        for who, client in identities:
            name = who.username if who else "anonymous"
            recorder.keys.clear()
            # -1: sent to sign in before the view ran; 405: the view refuses the method.
            answers = {m: send(client, m, url, {}, "(sensible)") for m in ("GET", "POST")}
            methods = [m for m, status in answers.items() if status not in (-1, 405)]
            keys = sorted(recorder.keys)
            # Where the view never runs for this visitor, a few values show the door holds.
            hostile = HOSTILE if methods else HOSTILE[:3]
            for param in route.params():
                for value in hostile:
                    if not re.fullmatch(param.regex, value):
                        continue  # the resolver answers 404 before any view
                    for method in methods or ["GET"]:
                        hostile_url = route.url({**values, param.name: value})
                        send(client, method, hostile_url, {}, f"{param.name}={value[:20]!r}")
            for method in methods:
                for key in keys:
                    for query_value in HOSTILE_QUERY:
                        what = f"?{key}={str(query_value)[:20]!r}"
                        send(client, method, url, {key: query_value}, what)
            if "POST" in methods:
                # A form in another charset than the UTF-8 the site sends.
                for content_type in (
                    "application/x-www-form-urlencoded; charset=latin-1",
                    "multipart/form-data; boundary=x; charset=latin-1",
                ):
                    body = "&".join(f"{quote(k)}=%E9t%E9" for k in keys) or "a=%E9"
                    what = f"charset ({content_type})"
                    send(client, "POST", url, body, what, content_type=content_type)
    return Outcome(statuses, failures)


def test_every_url_answers_hostile_input_without_a_server_error(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome = walk(world, monkeypatch)
    total = sum(outcome.statuses.values())
    with capsys.disabled():
        print(f"\nhostile URL walk: {total} requests, statuses {sorted(outcome.statuses.items())}")
    assert not outcome.failures, "\n".join(outcome.failures)
    # The walk reached the views, not only the resolver's 404s.
    assert outcome.statuses[200] > 100


def test_the_walk_finds_the_project_s_own_views_and_the_admin_s() -> None:
    texts = {route.text for route in iter_routes()}
    for expected in (
        "games/<pk>/poll/",
        "join/<code>/",
        "daily/<day>/",
        "report/<username>/",
        "admin/games/game/<object_id>/moderate/<action>/",
        "accounts/password/reset/key/<uidb36>-<key>/",
        "winter/games/<pk>/rematch/",
        "winter/games/<pk>/leave/",
        "winter/games/<pk>/cancel/",
        "winter/games/<pk>/computers/",
        "winter/games/<pk>/computers/<seat>/remove/",
    ):
        assert expected in texts

"""The shared lists keep the game filter (``?game=``) through their forms and pagers, and
the Winter rating board and the profile hold what Limes' do."""

from __future__ import annotations

import datetime
import html
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leaderboards import services
from leaderboards.models import WinterRating, WinterRatingChange
from tests.factories import FinishedSoloFactory, GameFactory, SeatFactory, UserFactory
from wintergames.models import WinterGame, WinterSeat

pytestmark = pytest.mark.django_db


class _Form(HTMLParser):
    """The fields of the form marked ``data-testid`` as a browser would submit them
    untouched: each input's value, each select's chosen (or first) option."""

    def __init__(self, testid: str) -> None:
        super().__init__()
        self.testid, self.inside, self.action = testid, False, ""
        self.fields: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form" and found.get("data-testid") == self.testid:
            self.inside, self.action = True, found["action"]
        elif self.inside and tag == "input" and "name" in found:
            self.fields[found["name"]] = found.get("value", "")
        elif self.inside and tag == "select":
            self._select = found["name"]
        elif (
            self.inside
            and tag == "option"
            and self._select
            and (self._select not in self.fields or "selected" in found)
        ):
            self.fields[self._select] = found.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None


def _form(page: str, testid: str = "game-filters") -> _Form:
    form = _Form(testid)
    form.feed(page)
    assert form.action, f"no form {testid}"
    return form


def _link(page: str, pattern: str) -> str:
    """The address of the first link whose tag matches ``pattern``, as a browser reads it."""
    found = re.search(rf'<a href="([^"]*)"[^>]*{pattern}', page)
    assert found, pattern
    return html.unescape(found.group(1))


def _get(client: Client, address: str, base: str = "/games/mine/") -> str:
    if address.startswith("?"):
        address = base + address
    answer = client.get(address.split("#")[0])
    assert answer.status_code == 200
    return answer.content.decode()


def _winter(people: list[User], *, status: str = "finished") -> WinterGame:
    finished = status == WinterGame.Status.FINISHED
    game = WinterGame.objects.create(
        seed=5,
        status=status,
        created_by=people[0],
        finished_at=timezone.now() if finished else None,
    )
    WinterSeat.objects.bulk_create(
        WinterSeat(
            game=game,
            position=i,
            user=u,
            place=i + 1 if finished else None,
            score=90 - i if finished else None,
        )
        for i, u in enumerate(people)
    )
    return game


def _limes_finished(user: User, count: int) -> None:
    for _ in range(count):
        FinishedSoloFactory(game__created_by=user)


# -- My games: the game filter survives the form and the pager ---------------------------


def test_my_games_pager_keeps_the_limes_filter(client_logged_in: Client, user: User) -> None:
    _limes_finished(user, 21)
    _winter([user, UserFactory()])
    first = _get(client_logged_in, "/games/mine/?game=limes")
    address = _link(first, 'data-testid="finished-next"')
    assert "game=limes" in address
    second = _get(client_logged_in, address)
    assert "Page 2 of 2" in second
    assert 'data-testid="winter-games"' not in second
    newer = _link(second, 'rel="prev"')
    assert 'data-testid="winter-games"' not in _get(client_logged_in, newer)


def test_my_games_filter_form_keeps_the_game_and_the_pager_both(
    client_logged_in: Client, user: User
) -> None:
    _limes_finished(user, 21)
    _winter([user, UserFactory()])
    form = _form(_get(client_logged_in, "/games/mine/?game=limes"))
    assert form.fields["game"] == "limes"
    form.fields["mode"] = Game.Mode.SOLO
    filtered = _get(client_logged_in, f"{form.action}?{urlencode(form.fields)}")
    assert 'data-testid="winter-games"' not in filtered
    assert "Page 1 of 2" in filtered
    address = _link(filtered, 'data-testid="finished-next"')
    assert "mode=solo" in address and "game=limes" in address
    second = _get(client_logged_in, address)
    assert "Page 2 of 2" in second and 'data-testid="winter-games"' not in second
    # The form on the second page still carries both.
    again = _form(second)
    assert again.fields["game"] == "limes" and again.fields["mode"] == "solo"


def test_my_games_without_a_game_filter_submits_none(client_logged_in: Client) -> None:
    assert "game" not in _form(_get(client_logged_in, "/games/mine/")).fields


def test_my_games_kind_links_keep_the_other_filters(client_logged_in: Client) -> None:
    page = _get(client_logged_in, "/games/mine/?mode=multi&game=limes")
    nav = page.split('data-testid="game-kinds"')[1].split("</nav>")[0]
    links = [html.unescape(link) for link in re.findall(r'href="([^"]*)"', nav)]
    assert links == [
        "/games/mine/?mode=multi",
        "/games/mine/?mode=multi&game=limes",
        "/games/mine/?mode=multi&game=winter",
    ]
    clear = _link(page, 'data-testid="filters-clear"')
    assert clear == "/games/mine/?game=limes"


def test_my_games_for_winter_offers_no_limes_filter(client_logged_in: Client, user: User) -> None:
    _winter([user, UserFactory()])
    page = _get(client_logged_in, "/games/mine/?game=winter")
    assert 'data-testid="game-filters"' not in page
    assert 'data-testid="winter-games"' in page and 'id="finished"' not in page


def test_my_winter_games_page_by_twenty_and_stay_winter(
    client_logged_in: Client, user: User
) -> None:
    _limes_finished(user, 3)
    games = [_winter([user, UserFactory()]) for _ in range(25)]
    first = _get(client_logged_in, "/games/mine/?game=winter")
    assert first.count('data-testid="winter-game"') == 20
    address = _link(first, 'data-testid="winter-next"')
    assert "game=winter" in address
    second = _get(client_logged_in, address)
    assert second.count('data-testid="winter-game"') == 5
    assert 'id="finished"' not in second  # still no Limes list
    assert f'href="/winter/games/{games[0].pk}/"' in second  # the oldest, last
    assert "winter-next" not in second
    assert 'data-testid="winter-games"' in _get(client_logged_in, _link(second, 'rel="prev"'))
    # Limes' filters, which Winter's list does not read, ride along for the way back.
    kept = _get(client_logged_in, "/games/mine/?mode=solo&game=winter")
    assert _link(kept, 'data-testid="winter-next"').startswith("?mode=solo&game=winter&page=2")


def test_beside_limes_the_winter_list_is_its_first_page(
    client_logged_in: Client, user: User
) -> None:
    _limes_finished(user, 21)
    for _ in range(21):
        _winter([user, UserFactory()])
    # Limes' page 2 is not Winter's: Winter shows its first page and pages on its own.
    page = _get(client_logged_in, "/games/mine/?page=2")
    assert page.count('data-testid="winter-game"') == 20
    assert _link(page, 'data-testid="winter-next"').startswith("?game=winter&page=2")


@pytest.mark.parametrize("page", ["0", "-1", "abc", "%00", "²", "9" * 7, "99999"])
def test_my_winter_games_take_hostile_pages(
    client_logged_in: Client, user: User, page: str
) -> None:
    _winter([user, UserFactory()])
    page_html = _get(client_logged_in, f"/games/mine/?game=winter&page={page}")
    assert 'data-testid="winter-games"' in page_html


def test_my_winter_games_pages_cost_fixed_queries(
    client_logged_in: Client, user: User, django_assert_max_num_queries: Any
) -> None:
    for _ in range(21):
        _winter([user, UserFactory()])
    with django_assert_max_num_queries(10_000) as few:
        _get(client_logged_in, "/games/mine/?game=winter&page=2")
    baseline = len(few.captured_queries)
    for _ in range(30):
        _winter([user, UserFactory(), UserFactory()])
    with django_assert_max_num_queries(baseline):
        page = _get(client_logged_in, "/games/mine/?game=winter&page=2")
    assert page.count('data-testid="winter-game"') == 20


# -- The lobby: its pager keeps the game filter ------------------------------------------


def test_the_lobby_pager_keeps_the_limes_filter(client: Client) -> None:
    for _ in range(31):
        host = UserFactory()
        game = GameFactory(
            mode=Game.Mode.MULTI,
            status=Game.Status.OPEN,
            seats_max=2,
            listed=True,
            created_by=host,
        )
        SeatFactory(game=game, user=host)
    _winter([UserFactory()], status="open")
    first = _get(client, "/lobby/?game=limes", base="/lobby/")
    address = _link(first, 'data-testid="lobby-next"')
    assert "game=limes" in address
    second = _get(client, address, base="/lobby/")
    assert 'data-testid="lobby-games"' in second
    assert 'id="winter-lobby"' not in second
    # The list's poll, on the second page, asks for the same game and page.
    assert "page=2&amp;game=limes" in second


# -- The Winter rating board, as Limes' rating board ------------------------------------


def _rated(user: User, *, games: int = 5, ordinal: float = 1.0, days: int = 0) -> WinterRating:
    return WinterRating.objects.create(
        user=user,
        mu=25,
        sigma=8,
        ordinal=ordinal,
        games=games,
        last_game_at=timezone.now() - datetime.timedelta(days=days),
    )


def test_the_winter_board_pages_fifty_a_page(client: Client) -> None:
    for i in range(51):
        _rated(UserFactory(username=f"p{i:02d}"), ordinal=100 - i)
    first = _get(client, "/leaderboards/winter/rating/", base="")
    assert first.count("<tr>") + first.count("<tr ") == 51  # the head's row and 50
    assert ">p00<" in first and ">p50<" not in first
    second = _get(client, _link(first, 'rel="next"'))
    assert ">p50<" in second and ">p49<" not in second
    assert 'hx-get="/leaderboards/winter/rating/?page=1"' in second


def test_the_winter_board_hides_banned_deleted_inactive_and_provisional(client: Client) -> None:
    shown, banned, deleted = (UserFactory(username=n) for n in ("shown", "banned", "deleted"))
    for player in (shown, banned, deleted):
        _rated(player)
    _rated(UserFactory(username="newcomer"), games=4)
    _rated(UserFactory(username="away"), days=91)
    User.objects.filter(pk=banned.pk).update(banned_until=timezone.now() + datetime.timedelta(1))
    User.objects.filter(pk=deleted.pk).update(deleted_at=timezone.now())
    page = _get(client, "/leaderboards/winter/rating/", base="")
    assert ">shown<" in page
    for name in ("banned", "deleted", "newcomer", "away"):
        assert f">{name}<" not in page


def test_the_winter_board_marks_the_viewers_row_or_tells_their_rank(client: Client) -> None:
    me = UserFactory(username="me")
    for i in range(55):
        _rated(UserFactory(), ordinal=100 - i)
    _rated(me, ordinal=-5)
    client.force_login(me)
    page = _get(client, "/leaderboards/winter/rating/", base="")
    assert 'data-testid="own-rank"' in page and "<strong>56</strong>" in page
    second = _get(client, "/leaderboards/winter/rating/?page=2", base="")
    assert 'class="board-table__own" aria-current="true"' in second
    assert 'data-testid="own-rank"' not in second


def test_the_winter_board_tells_a_provisional_viewer_how_far_they_are(client: Client) -> None:
    me = UserFactory()
    _rated(me, games=3, ordinal=1.0)
    client.force_login(me)
    page = _get(client, "/leaderboards/winter/rating/", base="")
    note = page.split('data-testid="own-provisional"')[1].split("</p>")[0]
    assert "1524" in note and "2 more rated games" in note


def test_the_winter_board_costs_fixed_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    me = UserFactory()
    _rated(me, ordinal=-9)
    client.force_login(me)
    for _ in range(3):
        _rated(UserFactory())
    with django_assert_max_num_queries(10_000) as few:
        _get(client, "/leaderboards/winter/rating/", base="")
    baseline = len(few.captured_queries)
    for _ in range(30):
        _rated(UserFactory())
    with django_assert_max_num_queries(baseline):
        _get(client, "/leaderboards/winter/rating/", base="")


def test_every_board_tab_reaches_the_winter_board_and_back(client: Client) -> None:
    winter = _get(client, "/leaderboards/winter/rating/", base="")
    tabs = winter.split('class="tabs"')[1].split("</nav>")[0]
    assert 'href="/leaderboards/standard/rating/"' in tabs
    assert 'href="/leaderboards/winter/rating/" aria-current="page"' in tabs
    for kind in ("best", "week", "average", "rating"):
        page = _get(client, f"/leaderboards/diagonal/{kind}/", base="")
        assert 'href="/leaderboards/winter/rating/" data-testid="winter-board-link"' in page


# -- The profile: both ratings and the Winter rating's history ---------------------------


def _rated_games(user: User, count: int) -> None:
    for _ in range(count):
        rival = UserFactory()
        game = _winter([user, rival])
        seats = list(game.seats.select_related("user").order_by("position"))
        services.winter_game_finished(game=game, seats=seats)


def test_the_profile_charts_the_winter_rating(client: Client, user: User) -> None:
    _rated_games(user, 3)
    page = _get(client, f"/players/{user.username}/", base="")
    chart = page.split('data-testid="winter-rating-chart"')[1].split("</svg>")[0]
    assert chart.count("<circle") == 3
    rating = WinterRating.objects.get(user=user)
    assert f"<title>{rating.display} · " in chart  # the last dot: the rating now


def test_the_profile_shows_both_ratings(client: Client, user: User) -> None:
    from tests.factories import finished_multi

    finished_multi([user, UserFactory()], [1, 2])
    _rated_games(user, 1)
    page = _get(client, f"/players/{user.username}/", base="")
    assert 'data-testid="ratings"' in page and 'data-testid="rating-chart"' in page
    assert (
        'data-testid="winter-rating-value"' in page and 'data-testid="winter-rating-chart"' in page
    )


def test_a_hidden_game_leaves_the_winter_chart(client: Client, user: User) -> None:
    _rated_games(user, 2)
    hidden = WinterRatingChange.objects.filter(user=user).latest("id").game_id
    WinterGame.objects.filter(pk=hidden).update(hidden=True)
    page = _get(client, f"/players/{user.username}/", base="")
    chart = page.split('data-testid="winter-rating-chart"')[1].split("</svg>")[0]
    assert chart.count("<circle") == 1


def test_the_winter_chart_costs_fixed_queries(
    client: Client, user: User, django_assert_max_num_queries: Any
) -> None:
    _rated_games(user, 1)
    with django_assert_max_num_queries(10_000) as few:
        _get(client, f"/players/{user.username}/", base="")
    baseline = len(few.captured_queries)
    _rated_games(user, 8)
    with django_assert_max_num_queries(baseline):
        page = _get(client, f"/players/{user.username}/", base="")
    assert page.split('data-testid="winter-rating-chart"')[1].count("<circle") >= 9

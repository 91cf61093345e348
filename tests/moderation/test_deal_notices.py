"""A moderator's notice about a tournament's deal names it as its page does."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import Notification, User
from games import services as games
from games.models import Game, SoloResult
from moderation import services
from tests.factories import tournament_open
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def deal(player: User, play_rounds: Callable[[Game, int], Game]) -> Game:
    """The player's first deal of the Weekday cup, played to the end."""
    cup = tournament_open("Weekday cup")
    tournaments.tournament_join(tournament=cup, user=player)
    return play_rounds(tournaments.deal_play(tournament=cup, user=player, number=1), 16)


def test_hiding_a_deals_result_tells_the_player_which_deal(
    moderator: User, player: User, deal: Game
) -> None:
    result = SoloResult.objects.get(game=deal)
    services.result_hide(moderator=moderator, result=result, reason="Shared account")
    notice = Notification.objects.get(user=player)
    assert notice.text == (
        f"A moderator hid your result of {result.score} points in “Weekday cup, deal 1 of 2”: "
        "Shared account"
    )
    assert notice.url == f"/games/{deal.pk}/"


def test_hiding_a_deal_tells_the_player_which_deal(
    moderator: User, player: User, deal: Game
) -> None:
    services.game_hide(moderator=moderator, game=deal, reason="Bot help")
    notice = Notification.objects.get(user=player)
    assert notice.text == "A moderator hid “Weekday cup, deal 1 of 2” from the boards: Bot help"


def test_hiding_a_game_of_its_own_still_names_it_by_number(
    moderator: User, player: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(games.game_create_solo(user=player), 16)
    services.game_hide(moderator=moderator, game=game, reason="Bot help")
    notice = Notification.objects.get(user=player)
    assert notice.text == f"A moderator hid game #{game.pk} from the boards: Bot help"

"""The order of receivers where it matters: apps connect them in ``ready()``, so they run
in INSTALLED_APPS order; these tests make that order explicit and keep it."""

from __future__ import annotations

from django.dispatch import Signal

from accounts.signals import user_deleting
from games.signals import game_finished


def _order(signal: Signal) -> list[str]:
    # Each receiver is connected with a dispatch_uid: the first part of its lookup key.
    return [lookup_key[0] for lookup_key, *_rest in signal.receivers]


def test_a_finished_game_is_on_the_boards_before_the_standings_see_it() -> None:
    # The tournament's standings read the deal's table, which the boards' receiver writes.
    assert _order(game_finished) == ["leaderboards.game_finished", "tournaments.game_finished"]


def test_a_deleted_player_leaves_the_games_before_the_results_are_forgotten() -> None:
    # Leaving a game may finish it: its result is counted (game_finished), then the boards
    # and the standings forget the player's results, that one included.
    order = _order(user_deleting)

    assert order[:2] == ["games-user-deleting", "games-showcase-deleting"]
    assert order.index("leaderboards.duplicate_forget") < order.index("tournaments.forget_deleted")
    assert set(order[2:]) == {
        "leaderboards.duplicate_forget",
        "tournaments.forget_deleted",
        "social-user-deleting",
        "api-tokens-deleting",
    }

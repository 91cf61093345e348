"""The computer's work for Winter games: its players' turns.

A turn is worked out outside any transaction (``winter.bot``, which sees the board, the
drawn tile and the bag's counts, never the deal), then committed as a
person's is, through ``services.bot_turn_submit``, which drops it if the game moved on
meanwhile. Running a task twice changes nothing: a turn already played is skipped.
"""

from __future__ import annotations

from django_tasks import task

import winter.bot
from floor.taskqueue import fair_priority, opened_by_the_same
from wintergames import services
from wintergames.models import WinterGame
from wintergames.rebuild import winter_game

BOTS_PRIORITY = 50


def bots_play(*, game_id: int, turn_number: int) -> int:
    """Play the computer's turn at record entry ``turn_number``, if it is still to play.

    Returns how many turns were committed (0 or 1); the next computer's turn, if any, is
    queued by the commit itself."""
    game = WinterGame.objects.filter(pk=game_id).first()
    if game is None or not game.is_running:
        return 0
    seats = list(game.seats.select_related("user").order_by("position"))
    state = winter_game(game, seats)
    seat = seats[state.to_move]
    if len(state.turns) != turn_number or not seat.is_bot or state.drawn is None:
        return 0
    placement = winter.bot.choose(seat.bot_level, winter.bot.View.from_game(state))
    played = services.bot_turn_submit(game_id=game_id, turn_number=turn_number, placement=placement)
    return int(played is not None and not played.repeated)


@task()
def bots_play_task(game_id: int, turn_number: int) -> int:
    """A computer player's turn of one game (``bots_play``)."""
    return bots_play(game_id=game_id, turn_number=turn_number)


def bots_play_enqueue(game_id: int, turn_number: int) -> None:
    """Queue a computer player's turn, behind the computers' turns already waiting in the
    other running games of whoever opened this one (``floor.taskqueue.fair_priority``):
    one person's games against computers take turns with everyone else's."""
    running = opened_by_the_same(
        WinterGame.objects.filter(status=WinterGame.Status.RUNNING), game_id
    )
    priority = fair_priority(bots_play_task.module_path, BOTS_PRIORITY, running)
    bots_play_task.using(priority=priority).enqueue(game_id, turn_number)

"""The computer's work for the games: its players' turns, hints, post-game analyses and
the daily challenge's par.

Each thinks outside any transaction (a search takes from milliseconds to seconds) and then
writes through the kernel of ``games.services`` in a short one: a computer player's turn is
committed as a person's is (``services.bot_move_submit``), a hint marks its game assisted
(``services.game_mark_assisted``); an analysis and a par store their own rows. The bots
themselves are ``rules.bot``'s, blind to the order of the cards to come.
"""

from __future__ import annotations

import datetime
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

import rules
import rules.bot
from accounts.models import User
from core.errors import ActionRefused
from floor.taskqueue import COMPUTERS, fair_priority, opened_by_the_same
from games import services, throttle
from games.analysis import assess_seat
from games.models import DailyPar, Game, GameAnalysis, Ruleset, SeatAnalysis
from games.rebuild import deck, game_moves, player_key, rules_game, unseen_cards, variants_of

# -- computer players ------------------------------------------------------------------------

#: How long a master seat thinks about a move (issue #53): about a second of the task
#: worker's CPU, measured on its own thread (a loaded machine slows the answer, not the
#: player). The other levels take no budget. Hints, analyses and the par never use it.
SEAT_BUDGET = rules.bot.Budget(seconds=0.9, clock=time.thread_time)


def bots_play(*, game_id: int, round_number: int) -> int:
    """Play round ``round_number`` for every computer player still to play it.

    Run by the ``bots_play`` task. Each turn is computed outside any lock, then submitted
    like a person's move; if the round moved on meanwhile (a deadline, a resignation) the
    turn is dropped. Running twice changes nothing: a round already played is skipped.
    Returns how many turns were committed.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_active or game.round != round_number:
        return 0
    seats = list(game.seats.select_related("user").order_by("position"))
    state = rules_game(game, seats)
    card = state.current_card
    if card is None:
        return 0
    waiting = set(state.waiting_for())
    unseen = unseen_cards(state)
    played = 0
    for seat in seats:
        key = player_key(seat)
        if not seat.is_bot or key not in waiting:
            continue
        # The bot sees its own board, this round's card and which cards are left: never
        # the order of the cards to come.
        turn = rules.bot.bot_turn(
            state.boards[key],
            card,
            unseen=unseen,
            variants=state.variants,
            level=seat.bot_level,
            seed=game.seed + 100 * round_number + seat.position,
            budget=SEAT_BUDGET,
        )
        try:
            services.bot_move_submit(game=game, seat=seat, round_number=round_number, turn=turn)
        except services.MoveRejected:
            continue  # the round moved on, or this seat played meanwhile: nothing to do
        played += 1
    return played


# -- hints ---------------------------------------------------------------------------------


def hint_take(*, game: Game, user: User) -> rules.Turn:
    """The computer's quick best turn (``rules.bot.hint_turn``) for ``user``'s round in play.

    For solo games and games against computer players only (not the daily challenge),
    ``throttle.HINTS_PER_WINDOW`` a minute per player. The game is marked assisted for good,
    which keeps it off every board. Raises ``PermissionDenied`` or ``ActionRefused``
    (nothing changed) when no hint can be given.
    """
    game = Game.objects.get(pk=game.pk)
    seats = list(game.seats.select_related("user").order_by("position"))
    services.ensure_hint_allowed(game=game, seats=seats, user=user)
    if not throttle.hint_take_allowed(user.pk):
        raise ActionRefused(_("That is a lot of hints at once: wait a minute."), status=429)
    state = rules_game(game, seats)
    card = state.current_card
    assert card is not None
    round_number = game.round
    # In the request: the one-ply assessment's best turn, about 9 ms (benchmarks/README.md).
    # It is computed before taking the lock, so the other seats' commits need not wait.
    turn = rules.bot.hint_turn(
        state.boards[user.username],
        card,
        unseen=unseen_cards(state),
        variants=state.variants,
    )
    services.game_mark_assisted(game_id=game.pk, user=user, round_number=round_number)
    return turn


# -- post-game analysis ---------------------------------------------------------------------


def game_analyse(*, game_id: int) -> GameAnalysis | None:
    """Compute and store a finished game's analysis once; run by the ``game_analyse`` task.

    A second run finds it done and changes nothing. Human seats only.
    """
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return None
    analysis, _created = GameAnalysis.objects.get_or_create(game=game)
    if analysis.status == GameAnalysis.Status.DONE:
        return analysis
    seats = list(game.seats.select_related("user").order_by("position"))
    moves = game_moves(game)
    # The slow part (a few seconds), outside any transaction.
    try:
        results = {
            seat.pk: assess_seat(game, [m for m in moves if m.seat_id == seat.pk])
            for seat in seats
            if not seat.is_bot
        }
    except Exception:
        # The page stops waiting for it; the error goes on to the task's log.
        GameAnalysis.objects.filter(pk=analysis.pk).update(status=GameAnalysis.Status.FAILED)
        raise
    with transaction.atomic():
        analysis = GameAnalysis.objects.select_for_update().get(pk=analysis.pk)
        if analysis.status == GameAnalysis.Status.DONE:
            return analysis
        SeatAnalysis.objects.bulk_create(
            SeatAnalysis(analysis=analysis, seat_id=seat_id, rounds=rounds, accuracy=accuracy)
            for seat_id, (rounds, accuracy) in results.items()
        )
        analysis.status = GameAnalysis.Status.DONE
        analysis.completed_at = timezone.now()
        analysis.save(update_fields=["status", "completed_at"])
    return analysis


def analysis_request(*, game: Game) -> GameAnalysis:
    """Queue the analysis of a finished game that has none (games older than the feature)."""
    if not game.is_finished:
        raise ActionRefused(_("A game is analysed once it is over."), status=409)
    with transaction.atomic():
        analysis, created = GameAnalysis.objects.get_or_create(game=game)
        if created:
            game_id = game.pk
            transaction.on_commit(lambda: game_analyse_enqueue(game_id))
    return analysis


# -- the daily challenge's par ---------------------------------------------------------------


def daily_par_compute(*, day: datetime.date, ruleset: str = Ruleset.STANDARD) -> DailyPar:
    """Work out the day's par (seconds of search) and store it; once done, a no-op.

    Run by the ``daily_par_compute`` task or ``manage.py compute_daily_par``.
    """
    par, _created = DailyPar.objects.get_or_create(day=day, ruleset=ruleset)
    if par.is_done:
        return par
    variants = variants_of(ruleset)
    cards = services.daily_cards(day)
    try:
        bot_score = _bot_alone(cards, variants)
        best_score, _turns = rules.bot.hindsight_best(
            cards, variants=variants, budget=settings.LIMES_PAR_BUDGET
        )
    except Exception:
        # The page stops waiting for it; the error goes on to the task's log.
        DailyPar.objects.filter(pk=par.pk).update(status=DailyPar.Status.FAILED)
        raise
    with transaction.atomic():
        par = DailyPar.objects.select_for_update().get(pk=par.pk)
        if par.is_done:
            return par
        par.bot_score = bot_score
        # The search may miss the bot's own line; the par is the better of the two.
        par.best_score = max(best_score, bot_score)
        par.status = DailyPar.Status.DONE
        par.completed_at = timezone.now()
        par.save()
    return par


def _bot_alone(cards: list[rules.Card], variants: rules.Variants) -> int:
    # The strong bot plays the day as a person does: one card at a time, the rest unknown.
    the_deck = deck()
    board = rules.Board()
    for index, card in enumerate(cards):
        revealed = {c.number for c in cards[: index + 1]}
        unseen = [c for c in the_deck if c.number not in revealed]
        turn = rules.bot.bot_turn(board, card, unseen=unseen, variants=variants, level="strong")
        board = board.play(card, turn, variants)
    return board.landscape.score().total


# -- the queue: the tasks that run the work above, and their place in it --------------------

# Computers' turns: a person is waiting for them. Analyses and the par: nobody waits.
BOTS_PRIORITY = 50
ANALYSIS_PRIORITY = 0
# The most recent finished games of a player whose analyses push theirs back.
RECENT_GAMES = 40


@task(queue_name=COMPUTERS)
def bots_play_task(game_id: int, round_number: int) -> int:
    """The computer players' turns of one round (``bots_play``)."""
    return bots_play(game_id=game_id, round_number=round_number)


@task()
def game_analyse_task(game_id: int) -> str:
    """The post-game analysis of one finished game (``game_analyse``)."""
    analysis = game_analyse(game_id=game_id)
    return analysis.status if analysis is not None else "no such finished game"


@task()
def daily_par_task(day: str, ruleset: str) -> int | None:
    """The par of ``day`` (ISO date) in ``ruleset`` (``daily_par_compute``)."""
    par = daily_par_compute(day=datetime.date.fromisoformat(day), ruleset=ruleset)
    return par.bot_score


def bots_play_enqueue(game_id: int, round_number: int) -> None:
    """Queue the computers' turns of a round, behind the other tasks of the same player."""
    running = opened_by_the_same(Game.objects.filter(status=Game.Status.ACTIVE), game_id)
    priority = fair_priority(bots_play_task.module_path, BOTS_PRIORITY, running)
    bots_play_task.using(priority=priority).enqueue(game_id, round_number)


def game_analyse_enqueue(game_id: int) -> None:
    """Queue a finished game's analysis, behind the computers' turns and the player's backlog."""
    creator = Game.objects.filter(pk=game_id).values_list("created_by_id", flat=True).first()
    finished = Game.objects.filter(created_by_id=creator, status=Game.Status.FINISHED)
    recent = list(finished.order_by("-finished_at").values_list("pk", flat=True)[:RECENT_GAMES])
    path = game_analyse_task.module_path
    game_analyse_task.using(
        priority=fair_priority(path, ANALYSIS_PRIORITY, [game_id, *recent])
    ).enqueue(game_id)

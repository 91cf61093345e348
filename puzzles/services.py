"""Writes of puzzles: making them from games, answering one.

Making a puzzle reads a finished game that anyone may look at (never one in play, hidden,
sealed or of a daily deal still running), values its positions outside any transaction and
stores the clear ones in one. Answering grades the turn against the rules' own valuation;
a signed-in player's first answer to a puzzle is a rated game against it (Glicko-2). Every
write is one transaction; refusals raise ``ActionRefused`` or ``PermissionDenied`` and
leave everything as it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

import rules
import rules.bot
from accounts.models import User
from accounts.services import ensure_not_banned
from core.errors import ActionRefused
from games.models import Game, GameAnalysis, SoloResult
from games.policy import can_watch
from games.rebuild import deck, game_moves, move_to_turn, variants_of
from puzzles import glicko, tasks
from puzzles.models import Attempt, Puzzle, PuzzlePlayer
from puzzles.positions import Found, Grade, find, grade, positions_of
from puzzles.selectors import position_of

#: Below the analyses and the computers' turns: a puzzle can wait.
MAKE_PRIORITY = -50


def puzzle_make_from_game(*, game_id: int) -> int:
    """Make the puzzles of one finished game's human seats; the number of new puzzles.

    Nothing for a game in play, cancelled, hidden, sealed, of a daily deal still running
    (``games.policy``), with a hidden result, or for a banned player's seat. Safe to run
    twice: a position already a puzzle is not made again.
    """
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None or not can_watch(game, AnonymousUser(), None):
        return 0
    if SoloResult.objects.filter(game=game, hidden=True).exists():
        return 0
    the_deck = deck()
    variants = variants_of(game)
    moves = game_moves(game)
    found: list[tuple[Found, int | None]] = []
    for seat in game.seats.select_related("user"):
        if seat.user is None or seat.user.is_banned:
            continue
        turns = [move_to_turn(m) for m in moves if m.seat_id == seat.pk]
        cards = [the_deck.card(number) for number in game.cards[: len(turns)]]
        for position in positions_of(cards, turns, variants, the_deck):
            puzzle = find(position)
            if puzzle is not None:
                found.append((puzzle, seat.pk))
    return _store(found, Puzzle.Origin.GAME)


def puzzle_make_from_computer(*, games: int, seed: int = 0) -> int:
    """Play ``games`` seeded deals with the reference bot and make puzzles of them (a new
    site's first puzzles); the number of new ones. The same seed makes the same puzzles."""
    the_deck = deck()
    variants = rules.Variants()
    found: list[tuple[Found, int | None]] = []
    for number in range(games):
        rng = random.Random(f"limes-puzzles:{seed}:{number}")
        cards = [the_deck.card(n) for n in the_deck.deal(rng)]
        board = rules.Board()
        turns = []
        for index, card in enumerate(cards):
            shown = {c.number for c in cards[: index + 1]}
            unseen = [c for c in the_deck if c.number not in shown]
            turn = rules.bot.bot_turn(
                board, card, unseen=unseen, variants=variants, level="reference"
            )
            turns.append(turn)
            board = board.play(card, turn, variants)
        for position in positions_of(cards, turns, variants, the_deck):
            puzzle = find(position)
            if puzzle is not None:
                found.append((puzzle, None))
    return _store(found, Puzzle.Origin.COMPUTER)


@transaction.atomic
def _store(found: list[tuple[Found, int | None]], origin: str) -> int:
    rows: dict[str, Puzzle] = {}
    for puzzle, seat_id in found:
        position = puzzle.position
        rows.setdefault(
            position.key,
            Puzzle(
                key=position.key,
                origin=origin,
                seat_id=seat_id,
                round=position.round,
                diagonal=position.variants.diagonal,
                ferryman=position.variants.ferryman,
                cards=[p.card.number for p in position.board.cards] + [position.card.number],
                turns=[rules.turn_to_json(turn) for turn in position.before],
                best_turn=rules.turn_to_json(puzzle.best),
                best_value=round(puzzle.best_value, 3),
                runner_up=round(puzzle.runner_up, 3),
            ),
        )
    taken = set(Puzzle.objects.filter(key__in=rows).values_list("key", flat=True))
    new = [row for key, row in rows.items() if key not in taken]
    for row in new:
        row.full_clean(validate_unique=False, validate_constraints=False)
    # A run at the same moment may store the same position: the unique key keeps one.
    Puzzle.objects.bulk_create(new, ignore_conflicts=True)
    return len(new)


@dataclass(frozen=True)
class Answer:
    """A graded answer. ``attempt`` is None when it was not rated (signed out); ``repeated``
    when the player had answered before: the first answer stands and is what is shown;
    ``retry`` for another try at a puzzle answered before, graded and never rated
    (``attempt`` is then the first answer, the one that counts)."""

    puzzle: Puzzle
    turn: rules.Turn
    value: float
    best_value: float
    grade: Grade
    attempt: Attempt | None = None
    repeated: bool = False
    rating_before: float | None = None
    retry: bool = False

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.value)


def puzzle_answer(
    *,
    puzzle: Puzzle,
    user: User | AnonymousUser,
    turn: rules.Turn,
    solution_seen: bool = False,
) -> Answer:
    """Grade ``turn`` as the answer to ``puzzle``; a signed-in player's first answer moves
    their puzzle rating, the puzzle's and their streak. A second answer changes nothing.

    ``solution_seen``: the player was shown the computer's turn before (answering signed
    out in the same session): their answer is kept, unrated, and none after it is rated.

    Raises ``ActionRefused`` (400) for a turn the rules do not allow, ``PermissionDenied``
    for a banned player.
    """
    answer = _graded(puzzle, turn)
    if not user.is_authenticated:
        return answer
    ensure_not_banned(user)
    return _rate(puzzle, user, answer, solution_seen)


def puzzle_retry(*, puzzle: Puzzle, user: User, turn: rules.Turn) -> Answer:
    """Grade ``turn`` as another try at a puzzle ``user`` has answered: the grade is shown,
    nothing is stored and no rating moves (a puzzle is rated once, by the first answer).

    Raises ``ActionRefused`` (400) for a turn the rules do not allow or a puzzle the player
    has not answered yet (its first answer is the rated one, and a retry shows the
    computer's turn), ``PermissionDenied`` for a banned player.
    """
    answer = _graded(puzzle, turn)
    ensure_not_banned(user)
    first = Attempt.objects.filter(user=user, puzzle=puzzle).first()
    if first is None:
        raise ActionRefused(
            _("Answer this puzzle first: only a puzzle you have answered can be tried again.")
        )
    return replace(answer, attempt=first, retry=True, rating_before=first.rating_before)


def _graded(puzzle: Puzzle, turn: rules.Turn) -> Answer:
    position = position_of(puzzle)
    try:
        position.board.play(position.card, turn, position.variants)
    except rules.RulesError:
        raise ActionRefused(_("That turn is not allowed in this position.")) from None
    valued = position.valued()
    best_value = valued[0][0]
    value = next(v for v, other in valued if other == turn)
    return Answer(puzzle, turn, value, best_value, grade(best_value - value))


@transaction.atomic
def _rate(puzzle: Puzzle, user: User, answer: Answer, solution_seen: bool) -> Answer:
    PuzzlePlayer.objects.get_or_create(user=user)
    # The player's row lock serialises their answers: a double submit waits, then finds
    # the first one's attempt.
    player = PuzzlePlayer.objects.select_for_update().get(user=user)
    earlier = Attempt.objects.filter(user=user, puzzle=puzzle).first()
    if earlier is not None:
        turn = rules.turn_from_json(earlier.turn)
        return Answer(
            puzzle,
            turn,
            earlier.value,
            answer.best_value,
            Grade(earlier.result),
            earlier,
            repeated=True,
            rating_before=earlier.rating_before,
        )
    if solution_seen:
        unrated = Attempt(
            puzzle=puzzle,
            user=user,
            turn=rules.turn_to_json(answer.turn),
            value=round(answer.value, 3),
            result=answer.grade.value,
            rating_before=player.rating,
            rating_after=player.rating,
            rated=False,
        )
        unrated.full_clean(validate_unique=False, validate_constraints=False)
        unrated.save()
        return Answer(
            puzzle,
            answer.turn,
            answer.value,
            answer.best_value,
            answer.grade,
            unrated,
            rating_before=player.rating,
        )
    locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
    new_player, new_puzzle = glicko.play(player.glicko, locked.glicko, answer.grade.score)
    attempt = Attempt(
        puzzle=locked,
        user=user,
        turn=rules.turn_to_json(answer.turn),
        value=round(answer.value, 3),
        result=answer.grade.value,
        rating_before=player.rating,
        rating_after=new_player.rating,
    )
    attempt.full_clean(validate_unique=False, validate_constraints=False)
    attempt.save()
    before = player.rating
    player.rating, player.rd, player.volatility = (
        new_player.rating,
        new_player.rd,
        new_player.volatility,
    )
    player.attempts += 1
    player.streak = player.streak + 1 if answer.grade == Grade.SOLVED else 0
    player.best_streak = max(player.best_streak, player.streak)
    player.save()
    locked.rating, locked.rd, locked.volatility = (
        new_puzzle.rating,
        new_puzzle.rd,
        new_puzzle.volatility,
    )
    locked.attempts += 1
    locked.solves += answer.grade == Grade.SOLVED
    locked.save(update_fields=["rating", "rd", "volatility", "attempts", "solves"])
    return Answer(
        locked,
        answer.turn,
        answer.value,
        answer.best_value,
        answer.grade,
        attempt,
        rating_before=before,
    )


def analysis_saved(sender: type[GameAnalysis], instance: GameAnalysis, **kwargs: object) -> None:
    """Receives ``post_save`` of ``GameAnalysis``: once a game's analysis is done, queue the
    making of its puzzles after the commit (the analysis never waits for it nor fails by it).
    """
    if instance.status != GameAnalysis.Status.DONE:
        return
    game_id = instance.game_id
    transaction.on_commit(lambda: tasks.puzzles_make.using(priority=MAKE_PRIORITY).enqueue(game_id))

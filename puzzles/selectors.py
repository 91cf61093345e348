"""Reads of puzzles: a puzzle's position, the next puzzle near a rating, the daily puzzle."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Collection

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef
from django.utils import timezone

import rules
from accounts.models import User
from games.rebuild import deck
from puzzles import glicko
from puzzles.models import Attempt, Puzzle, PuzzlePlayer
from puzzles.positions import Position


def position_of(puzzle: Puzzle) -> Position:
    """The puzzle's position rebuilt as the rules package sees it."""
    the_deck = deck()
    cards = [the_deck.card(number) for number in puzzle.cards]
    turns = [rules.turn_from_json(turn) for turn in puzzle.turns]
    shown = {card.number for card in cards}
    return Position(
        rules.Board.from_turns(cards[:-1], turns),
        cards[-1],
        puzzle.round,
        rules.Variants(diagonal=puzzle.diagonal, ferryman=puzzle.ferryman),
        tuple(card for card in the_deck if card.number not in shown),
        tuple(turns),
    )


def player_of(user: User | AnonymousUser) -> PuzzlePlayer | None:
    """The user's puzzle rating and streak, if they have answered a puzzle."""
    if not user.is_authenticated:
        return None
    return PuzzlePlayer.objects.filter(user=user).first()


def next_puzzle(
    user: User | AnonymousUser, rating: float | None = None, *, exclude: Collection[int] = ()
) -> Puzzle | None:
    """The puzzle nearest ``rating`` (a newcomer's if None) that ``user`` has not answered,
    nor one of ``exclude`` (a visitor's answers this session). Two walks of the rating
    index from the rating, up and down, two queries."""
    if rating is None:
        rating = glicko.Rating().rating
    puzzles = Puzzle.objects.all()
    if user.is_authenticated:
        answered = Attempt.objects.filter(user=user, puzzle=OuterRef("pk"))
        puzzles = puzzles.filter(~Exists(answered))
    if exclude:
        puzzles = puzzles.exclude(pk__in=list(exclude))
    above = puzzles.filter(rating__gte=rating).order_by("rating", "id").first()
    below = puzzles.filter(rating__lt=rating).order_by("-rating", "-id").first()
    if above is None or below is None:
        return above or below
    return above if above.rating - rating <= rating - below.rating else below


def daily_puzzle(day: datetime.date) -> Puzzle | None:
    """The day's puzzle, the same for everyone all day: picked by the date among the
    puzzles made before the day began (puzzles made during the day change nothing)."""
    start = timezone.make_aware(datetime.datetime.combine(day, datetime.time()))
    puzzles = Puzzle.objects.filter(created_at__lt=start).order_by("pk")
    count = puzzles.count()
    if count == 0:
        # A site younger than the day: its first puzzle, which the day's new ones leave be.
        return Puzzle.objects.order_by("pk").first()
    digest = hashlib.sha256(f"limes-daily-puzzle:{day.isoformat()}".encode()).digest()
    return puzzles[int.from_bytes(digest[:8], "big") % count]


def attempt_of(user: User | AnonymousUser, puzzle: Puzzle) -> Attempt | None:
    """The user's rated answer to the puzzle, if any."""
    if not user.is_authenticated:
        return None
    return Attempt.objects.filter(user=user, puzzle=puzzle).first()

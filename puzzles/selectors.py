"""Reads of puzzles: a puzzle's position, the next puzzle near a rating, the daily puzzle,
a player's answers."""

from __future__ import annotations

import datetime
import hashlib
import random
from collections.abc import Collection

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

import rules
from accounts.models import User
from games.rebuild import deck, variants_of
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
        variants_of(puzzle),
        tuple(card for card in the_deck if card.number not in shown),
        tuple(turns),
    )


def player_of(user: User | AnonymousUser) -> PuzzlePlayer | None:
    """The user's puzzle rating and streak, if they have answered a puzzle."""
    if not user.is_authenticated:
        return None
    return PuzzlePlayer.objects.filter(user=user).first()


#: The next puzzle is drawn among the unanswered ones rated within this many points of the
#: player (the nearest alone when none is that near): a player at 1500 meets 1450s and
#: 1550s, not the same few puzzles every player at 1500 meets first.
SPREAD = 100.0
#: How many puzzles each walk of the rating index reads, above and below the rating.
NEAREST = 3


def next_puzzle(
    user: User | AnonymousUser,
    rating: float | None = None,
    *,
    exclude: Collection[int] = (),
    seed: object = 0,
) -> Puzzle | None:
    """A puzzle near ``rating`` (a newcomer's if None) that ``user`` has not answered, nor
    one of ``exclude`` (a visitor's answers this session, today's daily puzzle): drawn by
    ``seed`` among the few nearest within ``SPREAD`` points, else the nearest one. Two
    walks of the rating index from the rating, up and down, two queries."""
    if rating is None:
        rating = glicko.Rating().rating
    puzzles = Puzzle.objects.all()
    if user.is_authenticated:
        answered = Attempt.objects.filter(user=user, puzzle=OuterRef("pk"))
        puzzles = puzzles.filter(~Exists(answered))
    if exclude:
        puzzles = puzzles.exclude(pk__in=list(exclude))
    above = list(puzzles.filter(rating__gte=rating).order_by("rating", "id")[:NEAREST])
    below = list(puzzles.filter(rating__lt=rating).order_by("-rating", "-id")[:NEAREST])
    nearest = sorted(above + below, key=lambda p: (abs(p.rating - rating), p.pk))
    if not nearest:
        return None
    near = [p for p in nearest if abs(p.rating - rating) <= SPREAD] or nearest[:1]
    # Seeded by its text: a tuple is no seed, and its hash() differs between processes.
    return random.Random(repr(seed)).choice(near)


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


def daily_puzzle_id(day: datetime.date) -> int | None:
    """The number of the day's puzzle, from the cache once the day's first page has asked
    (the next puzzle leaves it out on every page, so it must cost no query there)."""
    key = f"puzzles:daily:{day.isoformat()}"
    number = cache.get(key)
    if number is None:
        puzzle = daily_puzzle(day)
        if puzzle is None:
            return None
        number = puzzle.pk
        cache.set(key, number, timeout=24 * 60 * 60)
    return int(number)


def attempt_of(user: User | AnonymousUser, puzzle: Puzzle) -> Attempt | None:
    """The user's rated answer to the puzzle, if any."""
    if not user.is_authenticated:
        return None
    return Attempt.objects.filter(user=user, puzzle=puzzle).first()


def attempts_of(user: User) -> QuerySet[Attempt]:
    """The user's answers to puzzles, the latest first (a retry is not one: none is kept)."""
    return Attempt.objects.filter(user=user).order_by("-created_at", "-pk")

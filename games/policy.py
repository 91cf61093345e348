"""Who may do or see what in a game: the viewer's seat, who may watch a game, which cards
its players have seen, why a hint is refused."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game, Move, Seat


def seat_of(seats: Iterable[Seat], user: User | AnonymousUser) -> Seat | None:
    """The user's seat among ``seats``, if any."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def can_watch(game: Game, user: User | AnonymousUser, seat: Seat | None) -> bool:
    """Whether ``user`` may see the game's page (players always may).

    A game in play or waiting for players is public only if it is listed in the lobby,
    and then only to signed-in players; a finished one is public unless a moderator hid
    it, except that a daily challenge of a day still running is shown only to those who
    have finished their own attempt of that day, and that nobody sees another game of a
    day while their own attempt of it is unfinished, whatever the day. A sealed game (a
    tournament's) is shown to nobody else before its seal lifts.
    """
    if seat is not None:
        return True
    if game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
        return game.listed and user.is_authenticated
    if game.status == Game.Status.CANCELLED:
        return False
    if game.hidden and not user.is_staff:
        return False
    if sealed_from(game, user):
        return False
    return daily_cards_visible(game, user)


def sealed_from(game: Game, user: User | AnonymousUser) -> bool:
    """Whether ``game`` is sealed (a tournament's) and its seal still hides it from ``user``.

    Until the seal lifts only its player sees it, staff included: a moderator may be an
    entrant too, and one look at another's deal would show its cards before they play it.
    Staff act on a sealed game's rows (hide it, disqualify its player) without its cards.
    """
    if not is_sealed(game):
        return False
    return not (user.is_authenticated and game.created_by_id == user.pk)


def is_sealed(game: Game) -> bool:
    """Whether ``game`` is sealed now (a tournament's, its seal not lifted yet): its result
    counts on no board, profile or deal's table until it lifts (``sealed``)."""
    return game.sealed_until is not None and timezone.now() < game.sealed_until


def cards_visible(game: Game, user: User | AnonymousUser) -> bool:
    """Whether ``user`` may see the cards of ``game`` (in the admin too): not while it is
    sealed from them, nor while its day is secret to them (``daily_cards_visible``)."""
    return not sealed_from(game, user) and daily_cards_visible(game, user)


def sealed(*, game: str = "") -> Q:
    """A filter of the rows (of ``game``, a lookup path to the game) whose game is sealed
    now: ``sealed_from`` everyone but its player. Every public list of games, results or
    landscapes excludes them (``.exclude(policy.sealed(game="game__"))``)."""
    return Q(**{f"{game}sealed_until__gt": timezone.now()})


def cards_secret(user: User | AnonymousUser, *, game: str = "") -> Q:
    """A filter of the rows (of ``game``, a lookup path to the game) whose cards ``user``
    may not see yet: ``cards_visible`` for a whole list."""
    secret = sealed(game=game)
    if user.is_authenticated:
        secret &= ~Q(**{f"{game}created_by": user.pk})
    return daily_days_secret(user, game=game) | secret


def daily_cards_visible(game: Game, user: User | AnonymousUser) -> bool:
    """Whether ``user`` may see the cards of ``game``'s day (True for any other game).

    A day's cards are everyone's once their own attempt of it is finished, or once the day
    is over and they have no attempt of it left unfinished; staff included.
    """
    if game.daily is None:
        return True
    own = daily_attempt_status(user, game.daily)
    # An attempt started before midnight may be played after it, when that day's
    # other games turn public: until it ends, its player sees none of them.
    if own is not None and own != Game.Status.FINISHED:
        return False
    if game.daily >= timezone.now().date():
        return own == Game.Status.FINISHED
    return True


def daily_days_secret(user: User | AnonymousUser, *, game: str = "") -> Q:
    """A filter of the rows (of ``game``, a lookup path to the game) whose day's cards
    ``user`` may not see yet: ``daily_cards_visible`` for a whole list."""
    own = Game.objects.none()
    if user.is_authenticated:
        own = Game.objects.filter(created_by=user, daily__isnull=False)
    finished = own.filter(status=Game.Status.FINISHED).values("daily")
    unfinished = own.exclude(status=Game.Status.FINISHED).values("daily")
    running = Q(**{f"{game}daily__gte": timezone.now().date()}) & ~Q(
        **{f"{game}daily__in": finished}
    )
    return running | Q(**{f"{game}daily__in": unfinished})


def daily_attempt_status(user: User | AnonymousUser, day: datetime.date) -> str | None:
    """The status of ``user``'s attempt at ``day``'s challenge, or None if they made none."""
    if not user.is_authenticated:
        return None
    return Game.objects.filter(daily=day, created_by=user).values_list("status", flat=True).first()


def revealed_cards(game: Game) -> list[int]:
    """The card numbers of the game that have been revealed to its players so far.

    All those of the rounds reached while it runs (the round in play included), those
    of the rounds played once it is over, none before it starts or if it was cancelled.
    """
    if game.status == Game.Status.ACTIVE:
        return list(game.cards[: game.round])
    if game.status == Game.Status.FINISHED:
        played = Move.objects.filter(seat__game=game).aggregate(last=Max("round"))["last"]
        return list(game.cards[: played or 0])
    return []


def dealt_cards(game: Game, seats: Iterable[Seat]) -> list[int]:
    """The card numbers of ``game`` dealt to its players so far: all that a rebuilt game
    (``rebuild.rules_game``), and so any record, page or answer drawn from it, may know.

    A game deals a card as its rules game reaches the card's round, so it may know them
    all, except a live table's (``Lockstep``), which the table deals: a player who has
    played the table's round waits for a card the table has not dealt yet. Such a game
    knows the cards up to the table's round while it runs, and the cards of the rounds
    played once it is over (its player may have left before the table dealt the next).
    No query.
    """
    if game.lockstep_id is None:
        return list(game.cards)
    played = max((seat.rounds_played for seat in seats), default=0)
    if game.status == Game.Status.ACTIVE:
        return list(game.cards[: max(game.round, played)])
    return list(game.cards[:played])


def hint_refusal(game: Game, seats: list[Seat], seat: Seat | None) -> tuple[str, int] | None:
    """Why the player of ``seat`` may not take a hint now (message, HTTP status), or ``None``.

    Hints are for solo games and games against computer players only, never the daily
    challenge, and for the round the player still has to play.
    """
    if seat is None:
        return _("You do not play in this game."), 403
    if not game.is_active:
        if game.is_open:
            return _("This game has not started yet."), 409
        if game.status == Game.Status.CANCELLED:
            return _("This game was cancelled."), 409
        return _("This game is over."), 409
    if game.daily is not None:
        return _("The daily challenge is played without hints."), 409
    if game.sealed_until is not None:
        return _("Tournament games are played without hints."), 409
    if any(not s.is_bot and s.pk != seat.pk for s in seats):
        # Against people, a hint would be the computer playing for one of them.
        return _("Hints are only for games without other people."), 409
    if seat.status != Seat.Status.PLAYING:
        return _("You have left this game."), 409
    if seat.rounds_played >= game.round:
        return _("You have already played this round."), 409
    return None


def can_share(game: Game, seats: Iterable[Seat]) -> bool:
    """Whether a finished game may be shown outside the site (its embed, its landscape
    image, the page's share box): as any visitor sees it, with nobody hidden at it."""
    return (
        game.is_finished
        and not game.hidden
        and can_watch(game, AnonymousUser(), None)
        and not any(seat.user is not None and seat.user.is_banned for seat in seats)
    )

"""Reads for moderation: who may moderate, reports, notifications, results that stand out.

The menu's badges are counted with the site chrome, in ``limes_site.chrome``."""

from __future__ import annotations

import datetime
import statistics
from functools import lru_cache

from django.conf import settings
from django.db.models import F, Q, QuerySet

import rules
from accounts.models import Notification, User
from games.models import SoloResult
from games.policy import seat_of
from games.rebuild import deck
from moderation.models import Report, ResultCheck
from social.models import ChatMessage
from social.selectors import can_read_chat

MODERATORS_GROUP = "Moderators"

#: Points between two ratings of the rulebook's solo table (28, 35, 42, 49).
BAND = 7
#: A result stands out this far above the median of the player's earlier results…
BANDS_ABOVE_MEDIAN = 2
#: …when the player has at least this many of them.
MIN_EARLIER_RESULTS = 5
#: Or this far above what the reference player scores on the same cards.
ABOVE_REFERENCE = 3 * BAND


def can_moderate(user: User | None, permission: str) -> bool:
    """Whether ``user`` may take a moderator action needing ``permission`` ("app.codename").

    Superusers may do everything; moderators are staff given the permission, normally by
    the Moderators group.
    """
    if user is None or not user.is_authenticated or not user.is_active or user.is_banned:
        return False
    return user.is_superuser or (user.is_staff and user.has_perm(permission))


def reports_per_hour() -> int:
    """How many reports one player may file in an hour."""
    return int(getattr(settings, "LIMES_REPORTS_PER_HOUR", 3))


def reports_made_since(*, reporter: User, since: datetime.datetime) -> int:
    return Report.objects.filter(reporter=reporter, created_at__gte=since).count()


def report_open_exists(*, reporter: User, target: User) -> bool:
    return Report.objects.filter(
        reporter=reporter, target=target, status=Report.Status.OPEN
    ).exists()


def chat_message_readable(message: ChatMessage, user: User) -> bool:
    """Whether ``user`` may read ``message`` where it was written, as that game's chat
    allows (``social.selectors.can_read_chat``), for a game of either kind."""
    if message.winter_game is not None:
        return can_read_chat(message.winter_game, user)
    game = message.game
    if game is None:
        return False
    return can_read_chat(game, user, seat_of(game.seats.all(), user))


def notifications_unread(*, user: User) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user, read_at__isnull=True)


def notification_list(*, user: User, limit: int = 100) -> list[Notification]:
    """The player's newest notifications, newest first."""
    return list(Notification.objects.filter(user=user).order_by("-created_at")[:limit])


# Results that stand out


def suspicious_results(results: QuerySet[SoloResult] | None = None) -> QuerySet[SoloResult]:
    """Checked solo results far above the player's usual band or the reference player.

    ``results`` narrows the search (the admin passes its proxy model's rows).
    """
    if results is None:
        results = SoloResult.objects.all()
    above_own_band = Q(
        moderation_check__earlier_results__gte=MIN_EARLIER_RESULTS,
        score__gte=F("moderation_check__earlier_median") + BANDS_ABOVE_MEDIAN * BAND,
    )
    above_reference = Q(score__gte=F("moderation_check__reference_score") + ABOVE_REFERENCE)
    return (
        results.filter(above_own_band | above_reference)
        .select_related("user", "game", "moderation_check")
        .order_by("-finished_at", "-pk")
    )


def results_unchecked() -> QuerySet[SoloResult]:
    """Solo results not yet compared with the player's earlier ones and the reference player."""
    return SoloResult.objects.filter(moderation_check__isnull=True)


def reference_score(*, cards: tuple[int, ...], diagonal: bool, ferryman: bool) -> int:
    """The reference player's total on this card sequence (deterministic, so cached)."""
    return _reference_score(tuple(cards), diagonal, ferryman, settings.LIMES_DECK)


@lru_cache(maxsize=512)
def _reference_score(
    cards: tuple[int, ...], diagonal: bool, ferryman: bool, deck_path: str | None
) -> int:
    game = rules.Game(
        ["reference"],
        cards,
        variants=rules.Variants(diagonal=diagonal, ferryman=ferryman),
        deck=deck(),
    )
    while not game.is_over:
        card = game.current_card
        assert card is not None
        game.play("reference", rules.reference_turn(game.boards["reference"], card, game.variants))
    return game.scores()["reference"].total


def result_check_compute(result: SoloResult) -> ResultCheck:
    """The comparison figures of one result (not saved)."""
    earlier = list(
        SoloResult.objects.filter(
            user_id=result.user_id, abandoned=False, finished_at__lt=result.finished_at
        ).values_list("score", flat=True)
    )
    game = result.game
    return ResultCheck(
        result=result,
        reference_score=reference_score(
            cards=tuple(game.cards), diagonal=game.diagonal, ferryman=game.ferryman
        ),
        earlier_results=len(earlier),
        earlier_median=statistics.median(earlier) if earlier else None,
    )

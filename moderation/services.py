"""Moderator actions and player reports. Keyword-only, one transaction each.

Every moderator action checks the moderator's permission itself (the admin is not the
only way in) and writes exactly one ``AuditEntry``.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

import games.services
import leaderboards.services
import tournaments.services
from accounts.adapter import AccountAdapter, ban_memo
from accounts.models import Notification, User
from accounts.notifications import Event
from accounts.services import user_sessions_end
from core.errors import ActionRefused
from floor.notify import notify
from games.framing import frame_of
from games.models import Game, SoloResult
from moderation.models import REASON_MAX_LENGTH, AuditEntry, Ban, Report, ResultCheck
from moderation.selectors import (
    can_moderate,
    chat_message_readable,
    report_open_exists,
    reports_made_since,
    reports_per_hour,
    result_check_compute,
    results_unchecked,
)
from social.models import ChatMessage, ChatMute
from social.selectors import chat_mute_in_force
from social.services import chat_message_changed
from tournaments.models import Entrant
from wintergames import services as winter_services
from wintergames.models import WinterGame
from wintergames.selectors import games_in_play_of

#: A game of either kind: Limes (``games``) or Carcassonne: Winter Edition (``wintergames``).
AnyGame = TypeVar("AnyGame", Game, WinterGame)

#: A permanent ban is a ban until the end of the calendar: ``User.is_banned`` stays simple.
PERMANENT = datetime.datetime(9999, 12, 31, tzinfo=datetime.UTC)
NEUTRAL_USERNAME_PREFIX = "player-"

PERM_USERS = "accounts.change_user"
PERM_GAMES = "games.change_game"
PERM_WINTER_GAMES = "wintergames.change_wintergame"
PERM_RESULTS = "games.change_soloresult"
PERM_REPORTS = "moderation.change_report"
PERM_CHAT = "social.change_chatmessage"


# Bans


@transaction.atomic
def user_ban(
    *, moderator: User, user: User, reason: str, until: datetime.datetime | None = None
) -> Ban:
    """Ban ``user`` until ``until`` (``None``: for good), resigning their running games
    (of Limes and of Winter).

    A ban replaces one already in force. Raises ``PermissionDenied`` if ``moderator`` may
    not ban this player and ``ActionRefused`` for a missing reason or a past end.
    """
    _require(moderator, PERM_USERS, target=user)
    reason = _reason(reason, required=True)
    now = timezone.now()
    if until is not None and until <= now:
        raise ActionRefused(_("The end of the ban must lie in the future."), code="past")
    user = User.objects.select_for_update().get(pk=user.pk)
    Ban.objects.filter(user=user, lifted_at__isnull=True).filter(_in_force(now)).update(
        lifted_at=now, lifted_by=moderator
    )
    ban = Ban(user=user, reason=reason, starts=now, ends=until, created_by=moderator)
    ban.full_clean()
    ban.save()
    user.banned_until = until or PERMANENT
    user.ban_reason = reason
    _clean(user, ["banned_until", "ban_reason"])
    user.save(update_fields=["banned_until", "ban_reason"])
    resigned = games.services.user_resign_everywhere(user=user)
    winter_resigned = _winter_resign_everywhere(user)
    # Signed out everywhere: no page, poll or stream of theirs goes on as theirs.
    user_sessions_end(user=user, farewell=ban_memo(user))
    # While banned, the player leaves the standings of the tournaments they entered.
    tournaments.services.player_standings_changed(user=user)
    _audit(
        moderator,
        AuditEntry.Action.BAN,
        target=user,
        reason=reason,
        details={
            "until": until.isoformat() if until else None,
            "games_resigned": resigned,
            "winter_games_resigned": winter_resigned,
        },
    )
    return ban


def _winter_resign_everywhere(user: User) -> int:
    # As games.services.user_resign_everywhere does for Limes: the computer plays the
    # player's seats on. Each resignation is its own savepoint: a game that ended
    # meanwhile is skipped, the others stand.
    # The games they opened or joined that still wait for players stay: wintergames has
    # no service to leave or call one off. The lobby lists none of them while the ban
    # lasts (wintergames.selectors.games_open).
    count = 0
    for game_id in games_in_play_of(user).values_list("pk", flat=True):
        try:
            winter_services.game_resign(game_id=game_id, user=user)
        except ActionRefused:
            continue
        count += 1
    return count


@transaction.atomic
def user_unban(*, moderator: User, user: User, reason: str = "") -> User:
    """Lift the ban in force on ``user``; their results return to the boards at once."""
    _require(moderator, PERM_USERS, target=user)
    reason = _reason(reason)
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_banned:
        raise ActionRefused(
            _("%(name)s is not banned.") % {"name": user.username}, code="not_banned", status=409
        )
    now = timezone.now()
    Ban.objects.filter(user=user, lifted_at__isnull=True).filter(_in_force(now)).update(
        lifted_at=now, lifted_by=moderator
    )
    user.banned_until = None
    user.ban_reason = ""
    user.save(update_fields=["banned_until", "ban_reason"])
    tournaments.services.player_standings_changed(user=user)
    _audit(moderator, AuditEntry.Action.UNBAN, target=user, reason=reason)
    return user


def _in_force(now: datetime.datetime) -> Q:
    return Q(ends__isnull=True) | Q(ends__gt=now)


# Hiding results and games


@transaction.atomic
def result_hide(*, moderator: User, result: SoloResult, reason: str) -> SoloResult:
    """Take a solo result off every board; nothing is deleted."""
    return _result_set_hidden(moderator=moderator, result=result, hidden=True, reason=reason)


def _notify(user: User, text: str, url: str) -> None:
    # A notice holds 300 characters: a long reason is cut, never refused.
    notify(user=user, event=Event.MODERATION, text=lambda: text, url=url)


@transaction.atomic
def result_unhide(*, moderator: User, result: SoloResult, reason: str = "") -> SoloResult:
    """Put a hidden solo result back on the boards."""
    return _result_set_hidden(moderator=moderator, result=result, hidden=False, reason=reason)


def _result_set_hidden(
    *, moderator: User, result: SoloResult, hidden: bool, reason: str
) -> SoloResult:
    _require(moderator, PERM_RESULTS)
    reason = _reason(reason, required=hidden, max_length=200 if hidden else REASON_MAX_LENGTH)
    result = SoloResult.objects.select_for_update().get(pk=result.pk)
    if result.hidden == hidden:
        if hidden:
            raise ActionRefused(_("This result is already hidden."), code="hidden", status=409)
        raise ActionRefused(_("This result is not hidden."), code="not_hidden", status=409)
    result.hidden, result.hidden_reason = hidden, reason if hidden else ""
    result.save(update_fields=["hidden", "hidden_reason"])
    _audit(
        moderator,
        AuditEntry.Action.HIDE_RESULT if hidden else AuditEntry.Action.UNHIDE_RESULT,
        target=result.user,
        game_id=result.game_id,
        reason=reason,
        details={"result": result.pk, "score": result.score},
    )
    leaderboards.services.player_stats_rebuild(user=result.user)
    tournaments.services.standings_changed(game_ids=[result.game_id])
    if hidden:
        # A tournament's deal is named as its page names it, another game by its number.
        frame = frame_of(result.game)
        if frame is not None:
            text = _(
                "A moderator hid your result of %(score)d points in “%(title)s”: %(reason)s"
            ) % {"score": result.score, "title": frame.title, "reason": reason}
        else:
            text = _(
                "A moderator hid your result of %(score)d points in game #%(game)d: %(reason)s"
            ) % {"score": result.score, "game": result.game_id, "reason": reason}
        _notify(result.user, text, reverse("games:detail", kwargs={"pk": result.game_id}))
    return result


@transaction.atomic
def game_hide(*, moderator: User, game: AnyGame, reason: str) -> AnyGame:
    """Take a whole game off the boards; nothing is deleted. Its players are told why.

    A Limes game's solo result goes with it (multiplayer ratings are not touched here:
    ``manage.py recompute_ratings`` replays the games that count); a Winter game counts
    for no rating any more, and the Winter ratings are recomputed without it at once.
    Raises ``PermissionDenied`` for a moderator who may not, ``ActionRefused`` for a
    missing reason or a game already hidden (409).
    """
    return _game_set_hidden(moderator=moderator, game=game, hidden=True, reason=reason)


@transaction.atomic
def game_unhide(*, moderator: User, game: AnyGame, reason: str = "") -> AnyGame:
    """Put a hidden game back on the boards (a Winter game: in the ratings again)."""
    return _game_set_hidden(moderator=moderator, game=game, hidden=False, reason=reason)


@dataclass(frozen=True)
class _GameKind:
    """What hiding a game of one kind takes; everything else is the same for both."""

    permission: str
    #: Writes the flag under the game's lock; refuses (409) a game already as asked.
    hidden_set: Callable[[int, bool, str], Any]
    players: Callable[[Any], list[User]]
    #: The audit entry's reference to the game, and what its details add.
    audit_ref: Callable[[Any], dict[str, Any]]
    details: Callable[[Any], dict[str, Any]]
    #: What counts the game's results: rebuilt once the flag is written.
    recount: Callable[[Any, list[User]], object]
    #: The players' notice when it is hidden, read in each player's language.
    notice: Callable[[Any, str], Callable[[], str]]
    url: Callable[[Any], str]


def _limes_players(game: Game) -> list[User]:
    players = list(User.objects.filter(seats__game=game).order_by("pk"))
    if not players and game.created_by_id is not None:
        players = [User.objects.get(pk=game.created_by_id)]
    return players


def _limes_recount(game: Game, players: list[User]) -> None:
    tournaments.services.standings_changed(game_ids=[game.pk])
    for player in players:
        leaderboards.services.player_stats_rebuild(user=player)


def _limes_notice(game: Game, reason: str) -> Callable[[], str]:
    # A tournament's deal is named as its page names it, another game by its number.
    frame = frame_of(game)

    def text() -> str:
        if frame is not None:
            named = {"title": frame.title, "reason": reason}
            return _("A moderator hid “%(title)s” from the boards: %(reason)s") % named
        numbered = {"game": game.pk, "reason": reason}
        return _("A moderator hid game #%(game)d from the boards: %(reason)s") % numbered

    return text


def _winter_notice(game: WinterGame, reason: str) -> Callable[[], str]:
    def text() -> str:
        return _(
            "A moderator hid your Carcassonne: Winter Edition game #%(game)d from the ratings: "
            "%(reason)s"
        ) % {"game": game.pk, "reason": reason}

    return text


_LIMES = _GameKind(
    permission=PERM_GAMES,
    hidden_set=lambda pk, hidden, reason: games.services.game_hidden_set(
        game_id=pk, hidden=hidden, reason=reason
    ),
    players=_limes_players,
    audit_ref=lambda game: {"game_id": game.pk},
    details=lambda game: {"mode": game.mode},
    recount=_limes_recount,
    notice=_limes_notice,
    url=lambda game: reverse("games:detail", kwargs={"pk": game.pk}),
)
_WINTER = _GameKind(
    permission=PERM_WINTER_GAMES,
    hidden_set=winter_services.game_hidden_set,
    players=lambda game: list(User.objects.filter(winter_seats__game=game).order_by("pk")),
    # The number stays in the details should a superuser delete the game.
    audit_ref=lambda game: {"winter_game_id": game.pk},
    details=lambda game: {"winter_game": game.pk},
    recount=lambda game, players: leaderboards.services.winter_ratings_recompute(),
    notice=_winter_notice,
    url=lambda game: reverse("winter:detail", kwargs={"pk": game.pk}),
)


def _game_set_hidden(*, moderator: User, game: AnyGame, hidden: bool, reason: str) -> AnyGame:
    kind = _WINTER if isinstance(game, WinterGame) else _LIMES
    _require(moderator, kind.permission)
    reason = _reason(reason, required=hidden, max_length=200)
    written: AnyGame = kind.hidden_set(game.pk, hidden, reason)
    players = kind.players(written)
    _audit(
        moderator,
        AuditEntry.Action.HIDE_GAME if hidden else AuditEntry.Action.UNHIDE_GAME,
        # A solo game has one player to name; a game of several names them in details.
        target=players[0] if len(players) == 1 else None,
        reason=reason,
        details={**kind.details(written), "players": [p.username for p in players]},
        **kind.audit_ref(written),
    )
    kind.recount(written, players)
    if hidden:
        text, url = kind.notice(written, reason), kind.url(written)
        for player in players:
            # A notice holds 300 characters: a long reason is cut, never refused.
            notify(user=player, event=Event.MODERATION, text=text, url=url)
    return written


# Tournaments


@transaction.atomic
def entrant_disqualify(*, moderator: User, entrant: Entrant, reason: str) -> Entrant:
    """Take an entrant out of a tournament's standings, and their games off every board.

    Their tournament games are hidden, so each deal's matchpoints are counted without them.
    """
    _require(moderator, PERM_GAMES)
    reason = _reason(reason, required=True, max_length=200)
    game_ids = tournaments.services.entrant_disqualify(entrant=entrant, reason=reason)
    games.services.games_hide(game_ids=game_ids, reason=reason)
    leaderboards.services.player_stats_rebuild(user=entrant.user)
    _audit(
        moderator,
        AuditEntry.Action.DISQUALIFY,
        target=entrant.user,
        reason=reason,
        details={"tournament": entrant.tournament_id, "games": game_ids},
    )
    _notify(
        entrant.user,
        _("A moderator disqualified you from the tournament “%(tournament)s”: %(reason)s")
        % {"tournament": entrant.tournament.title, "reason": reason},
        reverse("tournaments:detail", kwargs={"pk": entrant.tournament_id}),
    )
    entrant.refresh_from_db()
    return entrant


# Names and profiles


@transaction.atomic
def user_rename(*, moderator: User, user: User, reason: str) -> User:
    """Replace an offensive username by ``player-<id>``; the player must choose a new one."""
    _require(moderator, PERM_USERS, target=user)
    reason = _reason(reason, required=True)
    user = User.objects.select_for_update().get(pk=user.pk)
    old = user.username
    user.username = _free_username(f"{NEUTRAL_USERNAME_PREFIX}{user.pk}", user)
    user.must_rename = True
    _clean(user, ["username", "must_rename"])
    user.save(update_fields=["username", "must_rename"])
    _audit(
        moderator,
        AuditEntry.Action.RENAME,
        target=user,
        reason=reason,
        details={"old": old, "new": user.username},
    )
    return user


@transaction.atomic
def user_choose_username(*, user: User, username: str) -> User:
    """The player's own new name after a moderator reset theirs; checked as at sign-up."""
    username = username.strip()
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.must_rename:
        raise PermissionDenied(_("Change your username in your settings instead."))
    if len(username) < 3:
        raise ActionRefused(_("A username has at least 3 characters."), code="short")
    if username.lower().startswith(NEUTRAL_USERNAME_PREFIX):
        raise ActionRefused(_("Please choose a name of your own."), code="neutral")
    username = AccountAdapter().clean_username(username)
    user.username = username
    user.must_rename = False
    _clean(user, ["username", "must_rename"])
    user.save(update_fields=["username", "must_rename"])
    return user


@transaction.atomic
def profile_clear(*, moderator: User, user: User, reason: str) -> User:
    """Empty the player's public profile text; the audit entry keeps what it said."""
    _require(moderator, PERM_USERS, target=user)
    reason = _reason(reason, required=True)
    user = User.objects.select_for_update().get(pk=user.pk)
    old = user.bio
    user.bio = ""
    user.save(update_fields=["bio"])
    _audit(
        moderator,
        AuditEntry.Action.CLEAR_PROFILE,
        target=user,
        reason=reason,
        details={"bio": old},
    )
    return user


def _free_username(base: str, user: User) -> str:
    candidate, n = base, 1
    while User.objects.filter(username__iexact=candidate).exclude(pk=user.pk).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


# Reports


def report_create(
    *,
    reporter: User,
    target: User,
    category: str,
    text: str,
    game: Game | None = None,
    winter_game: WinterGame | None = None,
    chat_message: ChatMessage | None = None,
) -> Report:
    """File ``reporter``'s report about ``target``, about one game of theirs (Limes'
    ``game`` or a ``winter_game``), or about one of their chat messages if
    ``chat_message`` (then about its game).

    Raises ``ActionRefused`` when the player reports themselves, has filed too many
    reports this hour, or already has an open report about the same player (checked in
    that order). A game the target did not play in is dropped, without a word, and so
    are both games when both are given.
    """
    try:
        with transaction.atomic():
            return _report_create(
                reporter=reporter,
                target=target,
                category=category,
                text=text,
                game=game,
                winter_game=winter_game,
                chat_message=chat_message,
            )
    except IntegrityError:
        # Two submits at once: the partial unique index lets only one open report through.
        raise _already_reported(target) from None


def _report_create(
    *,
    reporter: User,
    target: User,
    category: str,
    text: str,
    game: Game | None,
    winter_game: WinterGame | None,
    chat_message: ChatMessage | None,
) -> Report:
    if not reporter.is_authenticated or reporter.is_banned:
        raise PermissionDenied(_("Sign in to report a player."))
    if reporter.pk == target.pk:
        raise ActionRefused(_("You cannot report yourself."), code="self")
    if target.is_deleted:
        raise ActionRefused(_("This account no longer exists."), code="deleted")
    # The reporter's row lock makes the hourly count exact when two reports race.
    User.objects.select_for_update().filter(pk=reporter.pk).first()
    limit = reports_per_hour()
    since = timezone.now() - datetime.timedelta(hours=1)
    if reports_made_since(reporter=reporter, since=since) >= limit:
        raise ActionRefused(
            _("You can send at most %(count)d reports an hour. Please try again later.")
            % {"count": limit},
            code="throttled",
            status=429,
        )
    if report_open_exists(reporter=reporter, target=target):
        raise _already_reported(target)
    if game is not None and winter_game is not None:
        game = winter_game = None  # a report is about one game at most
    # Not refused, and not said: the answer must not tell who played in a game. The
    # report stands, about the player alone.
    if game is not None and not game.seats.filter(user=target).exists():
        game = None
    if winter_game is not None and not winter_game.seats.filter(user=target).exists():
        winter_game = None
    if chat_message is not None:
        # Only a message of the target's that the reporter may read; any other is dropped,
        # as a game is, so that the answer tells nothing about it.
        readable = chat_message.author_id == target.pk and chat_message_readable(
            chat_message, reporter
        )
        if readable:
            game, winter_game = chat_message.game, chat_message.winter_game
        else:
            chat_message = None
    report = Report(
        reporter=reporter,
        target=target,
        category=category,
        text=text.strip(),
        game=game,
        winter_game=winter_game,
        chat_message=chat_message,
    )
    report.full_clean()
    report.save()
    return report


def _already_reported(target: User) -> ActionRefused:
    return ActionRefused(
        _(
            "You have already reported %(name)s and a moderator has not looked at it yet. "
            "You will get a notification when they have."
        )
        % {"name": target.username},
        code="duplicate",
        status=409,
    )


@transaction.atomic
def report_resolve(*, moderator: User, report: Report, note: str) -> Report:
    """Close a report as acted upon; the reporter is told it was handled."""
    return _report_close(
        moderator=moderator, report=report, note=note, status=Report.Status.RESOLVED
    )


@transaction.atomic
def report_dismiss(*, moderator: User, report: Report, note: str) -> Report:
    """Close a report as needing no action; the reporter is told it was looked at."""
    return _report_close(
        moderator=moderator, report=report, note=note, status=Report.Status.DISMISSED
    )


def _report_close(*, moderator: User, report: Report, note: str, status: str) -> Report:
    _require(moderator, PERM_REPORTS)
    note = _reason(note, required=True)
    report = (
        Report.objects.select_for_update().select_related("target", "reporter").get(pk=report.pk)
    )
    if report.status != Report.Status.OPEN:
        raise ActionRefused(
            _("Report #%(number)d was already handled.") % {"number": report.pk},
            code="handled",
            status=409,
        )
    report.status = status
    report.note = note
    report.handled_at = timezone.now()
    report.handled_by = moderator
    report.full_clean()
    report.save()
    # The reporter reads it in their own language, not the moderator's.
    with translation.override(report.reporter.language_for_messages):
        if status == Report.Status.RESOLVED:
            text = _(
                "Your report about %(name)s was reviewed by a moderator, who took action. "
                "Thank you for helping keep Limes Online friendly."
            )
        else:
            text = _(
                "Your report about %(name)s was reviewed by a moderator, who found no rule "
                "broken. Thank you for letting us know."
            )
        text %= {"name": report.target.display_name}
    _notify(report.reporter, text, reverse("moderation:notifications"))
    _audit(
        moderator,
        AuditEntry.Action.RESOLVE_REPORT
        if status == Report.Status.RESOLVED
        else AuditEntry.Action.DISMISS_REPORT,
        target=report.target,
        game_id=report.game_id,
        report=report,
        reason=note,
        details={"category": report.category},
    )
    return report


# Chat


@transaction.atomic
def chat_message_hide(
    *, moderator: User, message: ChatMessage, reason: str, report: Report | None = None
) -> ChatMessage:
    """Take a chat message out of its game's chat (Limes' or Winter's) for everyone;
    nothing is deleted.

    ``report``: the report the moderator acted from, named in the audit entry.
    """
    return _chat_message_set_hidden(
        moderator=moderator, message=message, hidden=True, reason=reason, report=report
    )


@transaction.atomic
def chat_message_unhide(*, moderator: User, message: ChatMessage, reason: str = "") -> ChatMessage:
    """Put a hidden chat message back."""
    return _chat_message_set_hidden(
        moderator=moderator, message=message, hidden=False, reason=reason
    )


def _chat_message_set_hidden(
    *,
    moderator: User,
    message: ChatMessage,
    hidden: bool,
    reason: str,
    report: Report | None = None,
) -> ChatMessage:
    _require(moderator, PERM_CHAT)
    reason = _reason(reason, required=hidden)
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.hidden == hidden:
        if hidden:
            raise ActionRefused(_("This message is already hidden."), code="hidden", status=409)
        raise ActionRefused(_("This message is not hidden."), code="not_hidden", status=409)
    message.hidden = hidden
    message.save(update_fields=["hidden"])
    chat_message_changed(message)
    _audit(
        moderator,
        AuditEntry.Action.HIDE_MESSAGE if hidden else AuditEntry.Action.UNHIDE_MESSAGE,
        target=message.author,
        game_id=message.game_id,
        winter_game_id=message.winter_game_id,
        report=report,
        reason=reason,
        details={"message": message.pk, "text": message.text or message.phrase},
    )
    return message


@transaction.atomic
def chat_mute(
    *,
    moderator: User,
    user: User,
    until: datetime.datetime,
    reason: str,
    report: Report | None = None,
) -> ChatMute:
    """Keep ``user`` out of every game's chat until ``until``; they are told why.

    A mute replaces one in force. Raises ``PermissionDenied`` if ``moderator`` may not
    mute this player and ``ActionRefused`` for a missing reason or a past end.
    ``report``: the report the moderator acted from, named in the audit entry.
    """
    _require(moderator, PERM_CHAT, target=user)
    reason = _reason(reason, required=True)
    now = timezone.now()
    if until <= now:
        raise ActionRefused(_("The end of the mute must lie in the future."), code="past")
    user = User.objects.select_for_update().get(pk=user.pk)
    ChatMute.objects.filter(user=user, lifted_at__isnull=True, ends__gt=now).update(lifted_at=now)
    mute = ChatMute(user=user, reason=reason, starts=now, ends=until, created_by=moderator)
    mute.full_clean()
    mute.save()
    with translation.override(user.language_for_messages):
        text = _("A moderator muted you in chat until %(until)s UTC: %(reason)s") % {
            "until": until.strftime("%Y-%m-%d %H:%M"),
            "reason": reason,
        }
    _notify(user, text, reverse("moderation:notifications"))
    _audit(
        moderator,
        AuditEntry.Action.MUTE,
        target=user,
        report=report,
        reason=reason,
        details={"until": until.isoformat()},
    )
    return mute


@transaction.atomic
def chat_unmute(*, moderator: User, user: User, reason: str = "") -> User:
    """Lift the mute in force on ``user``."""
    _require(moderator, PERM_CHAT, target=user)
    reason = _reason(reason)
    user = User.objects.select_for_update().get(pk=user.pk)
    if chat_mute_in_force(user) is None:
        raise ActionRefused(
            _("%(name)s is not muted.") % {"name": user.username}, code="not_muted", status=409
        )
    now = timezone.now()
    ChatMute.objects.filter(user=user, lifted_at__isnull=True, ends__gt=now).update(lifted_at=now)
    _audit(moderator, AuditEntry.Action.UNMUTE, target=user, reason=reason)
    return user


# Notifications


@transaction.atomic
def notifications_mark_read(*, user: User) -> int:
    """Mark every unread notification of ``user`` read; returns how many were unread."""
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )


# Result checks


def result_checks_fill(*, limit: int | None = None) -> int:
    """Compare unchecked solo results, newest first; returns how many were checked.

    Each check is saved on its own, so a long run can be stopped and resumed.
    """
    done = 0
    queryset = results_unchecked().select_related("game").order_by("-finished_at", "-pk")
    for result in queryset[:limit] if limit is not None else queryset.iterator():
        check = result_check_compute(result)
        with transaction.atomic():
            ResultCheck.objects.bulk_create([check], ignore_conflicts=True)
        done += 1
    return done


# Helpers


def _require(moderator: User, permission: str, *, target: User | None = None) -> None:
    if not can_moderate(moderator, permission):
        raise PermissionDenied(_("You are not allowed to do this."))
    if target is not None:
        if target.pk == moderator.pk:
            raise PermissionDenied(_("Moderators cannot take this action on themselves."))
        if (target.is_staff or target.is_superuser) and not moderator.is_superuser:
            raise PermissionDenied(_("Only an administrator can take this action on staff."))


def _clean(instance: models.Model, fields: list[str]) -> None:
    # Only the fields this service sets: an old row that fails a newer rule elsewhere must
    # not stop a moderator.
    others = [f.name for f in instance._meta.fields if f.name not in fields]
    instance.full_clean(exclude=others, validate_constraints=False)


def _reason(text: str, *, required: bool = False, max_length: int = REASON_MAX_LENGTH) -> str:
    text = (text or "").strip()
    if required and not text:
        raise ActionRefused(_("Please give a reason."), code="reason_required")
    if len(text) > max_length:
        raise ActionRefused(
            _("A reason has at most %(max)d characters.") % {"max": max_length},
            code="reason_too_long",
        )
    return text


def _audit(
    moderator: User,
    action: str,
    *,
    target: User | None = None,
    game_id: int | None = None,
    winter_game_id: int | None = None,
    report: Report | None = None,
    reason: str = "",
    details: dict[str, Any] | None = None,
) -> AuditEntry:
    entry = AuditEntry(
        moderator=moderator,
        action=action,
        target=target,
        game_id=game_id,
        winter_game_id=winter_game_id,
        report=report,
        reason=reason,
        details=details or {},
    )
    entry.full_clean()
    # Saving it also makes the front page forget its showcase once this commits (a
    # receiver of post_save, connected in moderation/apps.py): whatever a moderator did
    # (a ban, a hidden game, a new name) may concern the player whose landscape it shows.
    entry.save()
    return entry

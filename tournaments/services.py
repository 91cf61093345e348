"""Writes of tournaments: creating one, entering, playing a deal, disqualifying.

Refusals raise ``core.errors.ActionRefused`` (or ``PermissionDenied``) and leave
everything as it was; every function is one transaction. ``game_finished`` receives
``games.signals.game_finished`` and marks the standings of a tournament game as changed.
"""

from __future__ import annotations

import datetime
import functools
import secrets

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from accounts.models import User
from accounts.notifications import Event
from accounts.services import ensure_not_banned
from core.errors import ActionRefused
from floor import push
from floor.notify import notify
from games.models import Game, Lockstep, Ruleset, Seat, SoloResult
from games.services import (
    game_create_solo,
    games_unseal,
    lockstep_create,
    seat_resign,
)
from leaderboards.daily import week_start
from leaderboards.services import deal_register, results_unseal
from tournaments import selectors, tasks
from tournaments.models import (
    MAX_DEALS,
    MAX_ROUND_SECONDS,
    MIN_DEALS,
    MIN_ROUND_SECONDS,
    Entrant,
    Invitation,
    Play,
    Tournament,
    TournamentDeal,
)

WEEKLY_DEALS = 8
WEEK = datetime.timedelta(days=7)


@transaction.atomic
def tournament_create(
    *,
    name: str,
    ruleset: str,
    deal_count: int,
    starts_at: datetime.datetime,
    ends_at: datetime.datetime | None = None,
    format: str = Tournament.Format.ASYNC,
    round_seconds: int | None = None,
    entry: str = Tournament.Entry.OPEN,
    max_entrants: int | None = None,
    series: str = "",
    created_by: User | None = None,
    invited: list[User] | None = None,
) -> Tournament:
    """A new tournament with ``deal_count`` freshly dealt deals, each registered as a deal.

    A live one (``format``) needs ``round_seconds``; its window is as long as its deals can
    take (``live_length``), whatever ``ends_at`` says. Raises ``ActionRefused`` for a
    window already over, or out-of-range values.
    """
    live = format == Tournament.Format.LIVE
    if live:
        if round_seconds is None or not MIN_ROUND_SECONDS <= round_seconds <= MAX_ROUND_SECONDS:
            raise ActionRefused(
                _("A live tournament gives %(low)d to %(high)d seconds a round.")
                % {"low": MIN_ROUND_SECONDS, "high": MAX_ROUND_SECONDS}
            )
        if MIN_DEALS <= deal_count <= MAX_DEALS:
            ends_at = starts_at + live_length(deal_count, round_seconds)
    else:
        round_seconds = None
    if ends_at is None:
        raise ActionRefused(_("A tournament must end after it starts."))
    if not MIN_DEALS <= deal_count <= MAX_DEALS:
        raise ActionRefused(
            _("A tournament has %(low)d to %(high)d deals.")
            % {
                "low": MIN_DEALS,
                "high": MAX_DEALS,
            }
        )
    if ends_at <= starts_at:
        raise ActionRefused(_("A tournament must end after it starts."))
    if ends_at <= timezone.now():
        raise ActionRefused(_("That window is already over."))
    if max_entrants is not None and max_entrants < 2:
        raise ActionRefused(_("A tournament takes at least two entrants."))
    tournament = Tournament(
        name=name.strip(),
        ruleset=ruleset,
        entry=entry,
        deal_count=deal_count,
        starts_at=starts_at,
        ends_at=ends_at,
        format=format,
        round_seconds=round_seconds,
        max_entrants=max_entrants,
        series=series,
        created_by=created_by,
    )
    tournament.full_clean()
    tournament.save()
    TournamentDeal.objects.bulk_create(
        TournamentDeal(
            tournament=tournament,
            number=number,
            # A fresh secret seed each: nobody can have played these cards before.
            deal=deal_register(seed=secrets.randbits(62), ruleset=ruleset),
        )
        for number in range(1, deal_count + 1)
    )
    tournament_invite(tournament=tournament, users=invited or [])
    if live:
        _live_start_at(tournament)
    _remind_at(tournament)
    _unseal_at(tournament)
    return tournament


@transaction.atomic
def tournament_invite(*, tournament: Tournament, users: list[User]) -> list[Invitation]:
    """Invite ``users`` to ``tournament`` (those already invited are left as they are);
    each new invitee is notified, in their own language, with a link to its page."""
    already = set(tournament.invitations.values_list("user_id", flat=True))
    fresh = {user.pk: user for user in users if user.pk not in already and not user.is_deleted}
    made = Invitation.objects.bulk_create(
        Invitation(tournament=tournament, user=user) for user in fresh.values()
    )
    url = reverse("tournaments:detail", kwargs={"pk": tournament.pk})
    for user in fresh.values():
        notify(
            user=user,
            event=Event.TOURNAMENT,
            text=lambda: (
                _("You are invited to the tournament %(name)s.") % {"name": tournament.title}
            ),
            url=url,
        )
    return made


def _locked(tournament: Tournament) -> Tournament:
    # The tournament's row lock makes the count of entrants exact when two people enter
    # at once.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def tournament_join(*, tournament: Tournament, user: User) -> Entrant:
    """Enter ``user`` in ``tournament``; refused when closed, full, entered, or uninvited."""
    ensure_not_banned(user)
    tournament = _locked(tournament)
    if tournament.is_over:
        raise ActionRefused(_("This tournament is over: entries are closed."), status=409)
    if tournament.is_live and not tournament.is_upcoming:
        raise ActionRefused(
            _("This live tournament has started: entries closed when it began."), status=409
        )
    if (
        tournament.entry == Tournament.Entry.INVITATION
        and not Invitation.objects.filter(tournament=tournament, user=user).exists()
    ):
        raise PermissionDenied(_("This tournament is by invitation only."))
    if Entrant.objects.filter(tournament=tournament, user=user).exists():
        raise ActionRefused(_("You have already entered this tournament."), status=409)
    if (
        tournament.max_entrants is not None
        and tournament.entrants.count() >= tournament.max_entrants
    ):
        raise ActionRefused(_("This tournament is full."), status=409)
    entrant = Entrant(tournament=tournament, user=user)
    entrant.full_clean()
    entrant.save()
    _touch(tournament.pk)
    return entrant


@transaction.atomic
def deal_play(*, tournament: Tournament, user: User, number: int) -> Game:
    """Start ``user``'s one game of deal ``number`` (or return it while it is in play).

    Deals are played in order, within the window, once each, without hints. Refused for
    a player not entered or disqualified, outside the window, a deal out of turn, or a
    deal already played.
    """
    ensure_not_banned(user)
    entrant = (
        Entrant.objects.select_for_update()
        .select_related("tournament")
        .filter(tournament=tournament, user=user)
        .first()
    )
    if entrant is None:
        raise ActionRefused(_("Enter the tournament first."), status=409)
    tournament = entrant.tournament
    if entrant.disqualified:
        raise PermissionDenied(_("You were disqualified from this tournament."))
    if tournament.is_upcoming:
        raise ActionRefused(_("The tournament has not started yet."), status=409)
    if tournament.is_over:
        raise ActionRefused(_("This tournament is over: no deal can be played now."), status=409)
    deal = TournamentDeal.objects.filter(tournament=tournament, number=number).first()
    if deal is None:
        raise ActionRefused(_("This tournament has no such deal."), status=404)
    if tournament.is_live:
        # Dealt to everyone at once (``live_advance``): the entrant's game, if it is dealt.
        play = Play.objects.filter(entrant=entrant, deal=deal).select_related("game").first()
        if play is None:
            raise ActionRefused(
                _("Deal %(number)d is dealt to everyone at once, when its turn comes.")
                % {"number": number},
                status=409,
            )
        return play.game
    played = {
        play.deal.number: play.game
        for play in Play.objects.filter(entrant=entrant).select_related("deal", "game")
    }
    if number in played:
        if not played[number].is_finished:
            return played[number]
        raise ActionRefused(
            _("You have already played deal %(number)d: one attempt per deal.")
            % {"number": number},
            status=409,
        )
    if number > 1 and not (number - 1 in played and played[number - 1].is_finished):
        raise ActionRefused(
            _("Play the deals in order: finish deal %(number)d first.") % {"number": number - 1},
            status=409,
        )
    diagonal, ferryman = Ruleset(tournament.ruleset).flags
    game = game_create_solo(
        user=user,
        diagonal=diagonal,
        ferryman=ferryman,
        seed=deal.deal.seed,
        sealed_until=tournament.ends_at,
    )
    try:
        with transaction.atomic():
            Play.objects.create(tournament=tournament, entrant=entrant, deal=deal, game=game)
    except IntegrityError:
        # Unreachable under the entrant's row lock; the constraint is the last word.
        raise ActionRefused(_("You have already played this deal."), status=409) from None
    return game


def _unseal_at(tournament: Tournament) -> None:
    # The deals' results join the boards when the window closes, by a task where the task
    # backend can wait; ``tournaments_unseal_due`` (the daily scheduler) catches up.
    if not tasks.tournament_unseal.get_backend().supports_defer:
        return
    tournament_id, when = tournament.pk, tournament.ends_at
    transaction.on_commit(
        lambda: tasks.tournament_unseal.using(run_after=when).enqueue(tournament_id), robust=True
    )


def tournament_unseal(*, tournament: Tournament) -> int:
    """Count the tournament's results on the boards, profiles and deals once its seal has
    lifted (nothing before: ``leaderboards.services.results_unseal``). Safe to call twice;
    returns how many results it counted."""
    plays = Play.objects.filter(tournament=tournament).values_list("game_id", flat=True)
    return results_unseal(game_ids=list(plays))


LIVE_REMINDER = datetime.timedelta(minutes=5)
"""How long before a live tournament starts its entrants are told."""


def reminder_time(tournament: Tournament) -> datetime.datetime:
    """When ``tournament``'s entrants are told: as its deals open, or a live one's
    ``LIVE_REMINDER`` before it starts."""
    if tournament.is_live:
        return tournament.starts_at - LIVE_REMINDER
    return tournament.starts_at


def _remind_at(tournament: Tournament) -> None:
    # By a task where the task backend can wait; ``tournaments_remind_due`` catches up.
    if not tasks.tournament_remind.get_backend().supports_defer:
        return
    tournament_id, when = tournament.pk, reminder_time(tournament)
    transaction.on_commit(
        lambda: tasks.tournament_remind.using(run_after=when).enqueue(tournament_id), robust=True
    )


@transaction.atomic
def tournament_remind(*, tournament: Tournament) -> int:
    """Tell every entrant still in ``tournament`` that its deals are open, or that the live
    one starts in a few minutes (``floor.notify``: as each chose). Once per tournament, and
    only while it means something: an async one not over, a live one not started.
    Returns how many were told."""
    tournament = _locked(tournament)
    now = timezone.now()
    late = now >= tournament.starts_at if tournament.is_live else tournament.is_over
    if tournament.reminded_at is not None or now < reminder_time(tournament) or late:
        return 0
    tournament.reminded_at = now
    tournament.save(update_fields=["reminded_at"])
    url = reverse("tournaments:detail", kwargs={"pk": tournament.pk})
    entrants = (
        Entrant.objects.filter(
            tournament=tournament, disqualified=False, user__deleted_at__isnull=True
        )
        .select_related("user")
        .order_by("pk")
    )
    for entrant in entrants:
        notify(
            user=entrant.user,
            event=Event.TOURNAMENT,
            text=functools.partial(_reminder_text, tournament),
            url=url,
        )
    return len(entrants)


def _reminder_text(tournament: Tournament) -> str:
    if tournament.is_live:
        return _("The live tournament %(name)s starts at %(time)s UTC.") % {
            "name": tournament.title,
            "time": tournament.starts_at.strftime("%H:%M"),
        }
    return _("The deals of the tournament %(name)s are open until %(end)s UTC.") % {
        "name": tournament.title,
        "end": tournament.ends_at.strftime("%Y-%m-%d %H:%M"),
    }


def tournaments_remind_due() -> int:
    """Remind the entrants of every tournament whose reminder is due and whose task never
    ran (``tournament_remind``); returns how many tournaments."""
    now = timezone.now()
    due = Tournament.objects.filter(
        reminded_at__isnull=True, ends_at__gt=now, starts_at__lte=now + LIVE_REMINDER
    )
    reminded = 0
    for tournament in due:
        reminded += tournament_remind(tournament=tournament) > 0
    return reminded


def tournaments_unseal_due() -> int:
    """Count every result whose seal has lifted and is not counted yet, whatever its
    tournament: the catch-up for an end whose task never ran. Returns how many."""
    return results_unseal()


def _touch(tournament_id: int, finish: selectors.Finish | None = None) -> None:
    # Every change the standings show: a new version (their cache key), and the pages told
    # of it once it commits. The event says only the version, never a sealed deal's score.
    # A ``finish`` is the whole change: the new standings may be counted from the last.
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    if tournament.is_running:
        # Told of it, every open page asks for the new standings at once: count them here,
        # once, before telling (after-commit work runs in order), so that none of those
        # requests finds the cache cold and counts them again.
        warm = functools.partial(_standings_warm, tournament, finish)
        transaction.on_commit(warm, robust=True)
    push.standings_changed(tournament_id, version=tournament.version)


def _standings_warm(tournament: Tournament, finish: selectors.Finish | None) -> None:
    if finish is None:
        selectors.standings(tournament)
    else:
        # The UPDATE of the version waited for the previous change's commit: the version
        # before this one differs from it only by this finish.
        selectors.standings_after(tournament, finish)


# No savepoint of its own: it runs inside the transaction that finishes the game.
@transaction.atomic(savepoint=False)
def game_finished(
    *, game: Game, seats: list[Seat], state: rules.Game | None = None, **_signal: object
) -> None:
    """Count a tournament game's result in its standings, if ``game`` is one."""
    if game.sealed_until is None:
        return
    play = Play.objects.select_related("tournament").filter(game_id=game.pk).first()
    if play is None:
        return
    # The game as it finishes (its row is written after the signal); a result just
    # recorded is not hidden yet.
    play.game = game
    play_refresh(play, score=seats[0].score if seats else None, hidden=False)
    finish = selectors.Finish(
        entrant_id=play.entrant_id,
        deal_id=play.deal_id,
        score=play.score,
        finished_at=play.finished_at,
    )
    _touch(play.tournament_id, finish)


def standings_forget_on_delete(*, user: User, **_signal: object) -> None:
    """A deleted account leaves the standings it was in (``accounts.signals.user_deleting``)."""
    player_standings_changed(user=user)


@transaction.atomic
def player_standings_changed(*, user: User) -> None:
    """Recount the standings of every tournament ``user`` entered.

    Moderation calls it when it bans ``user`` (who leaves those standings while the ban is
    in force) or lifts the ban; a ban that simply runs out needs no call (the standings
    cached while it was in force say until when they hold: ``selectors.standings``).
    """
    tournament_ids = Entrant.objects.filter(user=user).values_list("tournament_id", flat=True)
    for tournament_id in sorted(tournament_ids):
        _touch(tournament_id)


def standings_changed(*, game_ids: list[int]) -> None:
    """Recount these games' results in their tournaments' standings, if they have any.

    Moderation calls it after hiding or unhiding a result.
    """
    plays = list(Play.objects.filter(game_id__in=game_ids).select_related("tournament", "game"))
    for play in plays:
        score = play.game.seats.values_list("score", flat=True).first()
        hidden = SoloResult.objects.filter(game_id=play.game_id, hidden=True).exists()
        play_refresh(play, score=score, hidden=hidden)
    for tournament_id in sorted({play.tournament_id for play in plays}):
        _touch(tournament_id)


def play_refresh(play: Play, *, score: int | None, hidden: bool) -> None:
    """Copy the game's result onto ``play`` if it counts: finished in the window, visible."""
    game = play.game
    counted = (
        game.is_finished
        and game.finished_at is not None
        and game.finished_at < play.tournament.ends_at
        and not game.hidden
        and not game.assisted
        and not hidden
    )
    play.score = score if counted else None
    play.finished_at = game.finished_at if play.score is not None else None
    play.save(update_fields=["score", "finished_at"])


# -- live duplicate: every entrant on the same card at once --------------------------------

LIVE_FIRST_GRACE = 60
"""Seconds more on the first card's clock of a live tournament: time to come to the table."""
LIVE_BREAK = 30
"""Seconds more on the first card's clock of each later deal: a look at the last result."""
LIVE_SLACK = datetime.timedelta(minutes=10)
"""A live window's margin for a clock that moves late (no worker, nobody looking)."""


def live_length(deal_count: int, round_seconds: int) -> datetime.timedelta:
    """The longest a live tournament can take: every round to the end of its clock."""
    seconds = LIVE_FIRST_GRACE + deal_count * (rules.ROUNDS * round_seconds + LIVE_BREAK)
    return datetime.timedelta(seconds=seconds) + LIVE_SLACK


def _live_start_at(tournament: Tournament) -> None:
    # The first deal is dealt when the window opens, by a task where the task backend
    # can wait; the tournament's page deals it too, for whoever looks first.
    if not tasks.live_advance.get_backend().supports_defer:
        return
    tournament_id, when = tournament.pk, tournament.starts_at
    transaction.on_commit(
        lambda: tasks.live_advance.using(run_after=when).enqueue(tournament_id), robust=True
    )


@transaction.atomic
def live_advance(*, tournament: Tournament) -> bool:
    """Deal a live tournament's next deal if it is time, or end the tournament after its last.

    The first deal once the window has opened, each next one once the table of the one
    before has finished (``games.signals.lockstep_finished``); every entrant then in the
    standings (not disqualified, deleted or banned) gets a game at the new table. After
    the last deal the window closes at once, and with it the seal on the deals' results.
    Safe to call at any time; returns whether it dealt or ended anything.
    """
    tournament = _locked(tournament)
    if not tournament.is_live or tournament.is_upcoming or tournament.is_over:
        return False
    deals = list(tournament.deals.select_related("lockstep", "deal").order_by("number"))
    dealt = [deal for deal in deals if deal.lockstep is not None]
    if dealt and dealt[-1].lockstep is not None and dealt[-1].lockstep.finished_at is None:
        return False  # a deal is in play
    if len(dealt) == len(deals):
        _live_end(tournament)
        return True
    deal = deals[len(dealt)]
    entrants = [
        entrant
        for entrant in Entrant.objects.filter(
            tournament=tournament, disqualified=False, user__deleted_at__isnull=True
        )
        .select_related("user")
        .order_by("pk")
        if not entrant.user.is_banned
    ]
    if not entrants:
        _live_end(tournament)
        return True
    diagonal, ferryman = Ruleset(tournament.ruleset).flags
    assert tournament.round_seconds is not None
    table, games = lockstep_create(
        users=[entrant.user for entrant in entrants],
        seed=deal.deal.seed,
        diagonal=diagonal,
        ferryman=ferryman,
        round_seconds=tournament.round_seconds,
        first_round_grace=LIVE_FIRST_GRACE if deal.number == 1 else LIVE_BREAK,
        sealed_until=tournament.ends_at,
        back_url=reverse("tournaments:detail", kwargs={"pk": tournament.pk}),
    )
    deal.lockstep = table
    deal.save(update_fields=["lockstep"])
    Play.objects.bulk_create(
        Play(tournament=tournament, entrant=entrant, deal=deal, game=game)
        for entrant, game in zip(entrants, games, strict=True)
    )
    _touch(tournament.pk)
    return True


def _live_end(tournament: Tournament) -> None:
    # (A window ends after it starts, if only just: nobody at all came at the start.)
    now = max(timezone.now(), tournament.starts_at + datetime.timedelta(microseconds=1))
    if tournament.ends_at > now:
        # Over when its last card is played: the results are everyone's to see from now.
        Tournament.objects.filter(pk=tournament.pk).update(ends_at=now)
        plays = Play.objects.filter(tournament=tournament).values_list("game_id", flat=True)
        games_unseal(game_ids=plays, at=now)
        # Their results join the boards by a task (a few statements each, too many for the
        # request that played the last card); the daily scheduler catches up if it fails.
        tournament_id = tournament.pk
        transaction.on_commit(lambda: tasks.tournament_unseal.enqueue(tournament_id), robust=True)
    _touch(tournament.pk)


def live_table_finished(*, lockstep: Lockstep, **_signal: object) -> None:
    """A live tournament's deal has been played to the end: deal the next one (receiver)."""
    deal = TournamentDeal.objects.filter(lockstep=lockstep).select_related("tournament").first()
    if deal is not None:
        live_advance(tournament=deal.tournament)


@transaction.atomic
def entrant_disqualify(*, entrant: Entrant, reason: str) -> list[int]:
    """Take ``entrant`` out of the standings; returns their tournament games' ids.

    The caller (moderation, which checks the permission and writes the audit entry) hides
    those games, so that their results leave the deals' comparisons too.
    """
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.disqualified:
        raise ActionRefused(_("This entrant is already disqualified."), status=409)
    entrant.disqualified = True
    entrant.disqualified_reason = reason
    entrant.full_clean()
    entrant.save(update_fields=["disqualified", "disqualified_reason"])
    for play in entrant.plays.select_related("game"):
        if play.game.is_active:
            # Out of a live table at once, rather than holding it up until the clock.
            seat_resign(game=play.game, user=entrant.user)
    _touch(entrant.tournament_id)
    return list(entrant.plays.values_list("game_id", flat=True))


@transaction.atomic
def weekly_tournaments_ensure(*, now: datetime.datetime | None = None) -> list[Tournament]:
    """This week's and next week's weekly tournament of each ruleset, made if missing.

    Monday 00:00 to the next Monday (UTC), ``WEEKLY_DEALS`` deals, open to all. Safe to run
    any number of times (the scheduler runs it daily). Returns the ones it made.
    """
    now = now or timezone.now()
    monday = week_start(now)
    made = []
    for start_day in (monday, monday + WEEK):
        starts_at = datetime.datetime.combine(start_day, datetime.time(), tzinfo=datetime.UTC)
        for ruleset in Ruleset:
            series = f"weekly-{ruleset.value}"
            if Tournament.objects.filter(series=series, starts_at=starts_at).exists():
                continue
            made.append(
                tournament_create(
                    # Stored for the admin; pages compose the title (Tournament.title).
                    name=f"Weekly {ruleset.value} {start_day.isoformat()}",
                    ruleset=ruleset.value,
                    deal_count=WEEKLY_DEALS,
                    starts_at=starts_at,
                    ends_at=starts_at + WEEK,
                    series=series,
                )
            )
    return made

"""One factory per model, and builders of whole situations (a started game, a finished
one, a player's solo results). Build test data with these, not by hand; test modules
import shared helpers from here and from ``tests/pages.py``, never from one another."""

from __future__ import annotations

import datetime
import importlib
import random
from typing import TYPE_CHECKING, Any, TypeVar

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, Permission
from django.db import models
from django.utils import timezone
from factory.django import DjangoModelFactory

import rules
from accounts.models import User
from games import rebuild, services
from games.models import Game, Ruleset, Seat, SoloResult
from games.rebuild import deck
from leaderboards.daily import week_start
from leaderboards.models import PlayerRating, PlayerResult, SoloStanding, WeeklyBest
from leaderboards.services import game_finished, player_stats_rebuild
from moderation.models import Ban, Report
from moderation.selectors import MODERATORS_GROUP
from rules import solo_rating
from tournaments import services as tournaments
from tournaments.models import Tournament
from wintergames import services as winter_services
from wintergames.models import WinterGame
from wintergames.rebuild import winter_game

PASSWORD = "pw-limes-123"

#: The task queue as the site runs it, stored in the database (for ``override_settings(
#: TASKS=...)``): the tests' own settings run each task at once.
DATABASE_QUEUE = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "computers"]}
}

M = TypeVar("M", bound=models.Model)


class ModelFactory(DjangoModelFactory[M]):
    """A factory whose call gives the model's object, as far as mypy knows too."""

    class Meta:
        abstract = True

    if TYPE_CHECKING:
        # factory_boy's metaclass builds the object; to mypy, the call makes the factory.
        def __new__(cls, *args: Any, **kwargs: Any) -> M: ...  # type: ignore[misc]


class UserFactory(ModelFactory[User]):
    """A player with a verified primary email address, whose password is ``PASSWORD``."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.Sequence(lambda n: f"player{n}@example.com")
    password = factory.LazyFunction(lambda: make_password(PASSWORD))

    email_address = factory.PostGeneration(
        lambda user, create, extracted, **kwargs: _email_address(user, create)
    )


def _email_address(user: User, create: bool) -> None:
    # allauth keeps its own record of addresses; a user signed up through it has one.
    if create and user.email:
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)


class GameFactory(ModelFactory[Game]):
    """A solo game in round 1 whose cards are dealt from ``seed`` as the service deals them."""

    class Meta:
        model = Game

    mode = Game.Mode.SOLO
    seed = factory.Sequence(lambda n: 1000 + n)
    cards = factory.LazyAttribute(lambda game: list(deck().deal(random.Random(game.seed))))
    deck_name = factory.LazyFunction(lambda: deck().name)
    created_by = factory.SubFactory(UserFactory)


class SeatFactory(ModelFactory[Seat]):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    user = factory.SelfAttribute("game.created_by")
    position = 1


class SoloResultFactory(ModelFactory[SoloResult]):
    class Meta:
        model = SoloResult

    game = factory.SubFactory(GameFactory, status=Game.Status.FINISHED, round=17)
    user = factory.SelfAttribute("game.created_by")
    ruleset = factory.SelfAttribute("game.ruleset")
    score = 38
    rating = factory.LazyAttribute(lambda result: solo_rating(result.score).value)
    finished_at = factory.LazyFunction(timezone.now)


class FinishedSoloFactory(ModelFactory[Seat]):
    """The seat of a finished solo game with its score, and the game's SoloResult.

    Pass ``solo_result__hidden=True`` for a result a moderator hid. The boards' own rows
    come from ``leaderboards.services.player_stats_rebuild`` (or a game finishing).
    """

    class Meta:
        model = Seat
        skip_postgeneration_save = True

    game = factory.SubFactory(
        GameFactory,
        status=Game.Status.FINISHED,
        round=17,
        finished_at=factory.LazyFunction(timezone.now),
    )
    user = factory.SelfAttribute("game.created_by")
    position = 1
    score = 38
    place = 1

    solo_result = factory.PostGeneration(
        lambda seat, create, extracted, **kwargs: _solo_result(seat, create, **kwargs)
    )


def _solo_result(seat: Seat, create: bool, **kwargs: Any) -> None:
    if create:
        assert seat.score is not None and seat.game.finished_at is not None
        SoloResult.objects.create(
            game=seat.game,
            user=seat_user(seat),
            ruleset=seat.game.ruleset,
            score=seat.score,
            rating=solo_rating(seat.score).value,
            finished_at=seat.game.finished_at,
            daily=seat.game.daily,
            hidden=kwargs.get("hidden", False),
        )


class PlayerRatingFactory(ModelFactory[PlayerRating]):
    """A multiplayer rating of 5 games, played just now: on the board unless changed."""

    class Meta:
        model = "leaderboards.PlayerRating"

    user = factory.SubFactory(UserFactory)
    ruleset = "standard"
    mu = 30.0
    sigma = 4.0
    ordinal = factory.LazyAttribute(lambda rating: rating.mu - 3 * rating.sigma)
    games = 5
    last_game_at = factory.LazyFunction(timezone.now)


class PlayerResultFactory(ModelFactory[PlayerResult]):
    """A player's row of a finished game on the boards (its seat made to match)."""

    class Meta:
        model = PlayerResult

    seat = factory.SubFactory(
        SeatFactory,
        game__status=Game.Status.FINISHED,
        game__round=17,
        game__finished_at=factory.LazyFunction(timezone.now),
        score=38,
        place=1,
    )
    game = factory.SelfAttribute("seat.game")
    user = factory.SelfAttribute("seat.user")
    mode = factory.SelfAttribute("game.mode")
    ruleset = factory.SelfAttribute("game.ruleset")
    score = factory.SelfAttribute("seat.score")
    place = factory.SelfAttribute("seat.place")
    finished_at = factory.SelfAttribute("game.finished_at")


class SoloStandingFactory(ModelFactory[SoloStanding]):
    """A player's standard solo standing: one game, best score 40 a day ago."""

    class Meta:
        model = SoloStanding

    user = factory.SubFactory(UserFactory)
    ruleset = Ruleset.STANDARD
    games = 1
    best_score = 40
    best_at = factory.LazyFunction(lambda: timezone.now() - datetime.timedelta(days=1))


class WeeklyBestFactory(ModelFactory[WeeklyBest]):
    """A player's best standard solo score of this week, achieved now."""

    class Meta:
        model = WeeklyBest

    user = factory.SubFactory(UserFactory)
    ruleset = Ruleset.STANDARD
    achieved_at = factory.LazyFunction(timezone.now)
    week = factory.LazyAttribute(lambda best: week_start(best.achieved_at))
    score = 40
    game = factory.SubFactory(GameFactory, status=Game.Status.FINISHED, round=17)


class BanFactory(ModelFactory[Ban]):
    """A ban of a month from now, by a staff member (the row only: services.user_ban also
    sets the player's ``banned_until`` and resigns their games)."""

    class Meta:
        model = Ban

    user = factory.SubFactory(UserFactory)
    reason = "Insulted other players."
    starts = factory.LazyFunction(timezone.now)
    ends = factory.LazyAttribute(lambda ban: ban.starts + datetime.timedelta(days=30))
    created_by = factory.SubFactory(UserFactory, is_staff=True)


class ReportFactory(ModelFactory[Report]):
    class Meta:
        model = Report

    reporter = factory.SubFactory(UserFactory)
    target = factory.SubFactory(UserFactory)
    category = Report.Category.OFFENSIVE_NAME
    text = "Their name insults other players."


# -- whole situations ---------------------------------------------------------------------


def moderators_group() -> Group:
    """The group the data migration made; a transactional test's flush may have removed it."""
    group, created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    if created:
        granted = [
            *importlib.import_module("moderation.migrations.0002_moderators_group").PERMISSIONS,
            *importlib.import_module(
                "moderation.migrations.0004_chat_reports_and_actions"
            ).PERMISSIONS,
            *importlib.import_module(
                "moderation.migrations.0005_moderators_run_tournaments"
            ).PERMISSIONS,
            *importlib.import_module("moderation.migrations.0008_winter_games").PERMISSIONS,
        ]
        group.permissions.set(
            [
                Permission.objects.get(content_type__app_label=app, codename=codename)
                for app, codename in granted
            ]
        )
    return group


def reference_turn_for(game: Game) -> tuple[int, rules.Turn]:
    """The round in play and the reference player's turn in it."""
    state = rebuild.rules_game(game)
    player = state.waiting_for()[0]
    card = state.current_card
    assert card is not None
    return state.round, rules.reference_turn(state.boards[player], card, state.variants)


def reference_turn_of(game: Game, user: User) -> tuple[int, rules.Turn]:
    """The round in play and the reference player's turn for ``user`` in it."""
    state = rebuild.rules_game(game)
    card = state.current_card
    assert card is not None
    board = state.boards[user.username]
    return state.round, rules.reference_turn(board, card, state.variants)


def play_turn(game: Game, user: User) -> Game:
    """Commit ``user``'s reference turn of the round in play, through the service."""
    game.refresh_from_db()
    round_number, turn = reference_turn_of(game, user)
    return services.move_submit(
        game_id=game.pk, user=user, round_number=round_number, turn=turn
    ).game


def winter_play_first(game_id: int, user: User) -> None:
    """Lay ``user``'s drawn Winter tile at its first legal place, no follower, through
    the service (``user`` is to move)."""
    game = WinterGame.objects.get(pk=game_id)
    state = winter_game(game, list(game.seats.select_related("user").order_by("position")))
    assert state.drawn is not None
    move = state.legal_moves(state.drawn)[0]
    winter_services.turn_play(
        game_id=game_id,
        user=user,
        at=move.at,
        rotation=move.rotation,
        follower=None,
        turn_number=len(state.turns),
    )


def started_game(players: list[User], **options: object) -> Game:
    """A multiplayer game created by the first player, joined by the others, started."""
    creator, *others = players
    defaults: dict[str, object] = {"seats_max": len(players), "pace": Game.Pace.LIVE}
    defaults.update(options)
    game = services.game_create_multi(user=creator, **defaults)  # type: ignore[arg-type]
    for player in others:
        services.game_join(game=game, user=player)
    game.refresh_from_db()
    if game.is_open:
        services.game_start(game=game, user=creator)
        game.refresh_from_db()
    return game


def finished_multi(players: list[User], places: list[int], *, ruleset: str = "standard") -> Game:
    """A finished multiplayer game with these places, recorded as games.services does."""
    game = GameFactory(
        mode=Game.Mode.MULTI,
        status=Game.Status.FINISHED,
        round=17,
        seats_max=len(players),
        ruleset=ruleset,
        created_by=players[0],
        finished_at=timezone.now(),
    )
    seats = [
        SeatFactory(
            game=game,
            user=user,
            position=i + 1,
            score=50 - place,
            place=place,
            shared_place=places.count(place) > 1,
            rounds_played=16,
        )
        for i, (user, place) in enumerate(zip(players, places, strict=True))
    ]
    game_finished(
        game=game, seats=[Seat.objects.select_related("user").get(pk=s.pk) for s in seats]
    )
    return game


def finished_on_deal(
    players: list[User],
    scores: list[int],
    *,
    seed: int,
    daily: datetime.date | None = None,
    ruleset: str = Ruleset.STANDARD,
    sealed: bool = False,
) -> Game:
    """A finished game dealt from ``seed`` with these scores, recorded as games.services
    does: a multiplayer game for several players, a solo one (``daily``'s challenge if
    given; a competition's, sealed for a day, if ``sealed``) for one."""
    mode = Game.Mode.MULTI if len(players) > 1 else Game.Mode.SOLO
    game = GameFactory(
        mode=mode,
        status=Game.Status.FINISHED,
        round=17,
        seats_max=len(players),
        ruleset=ruleset,
        seed=seed,
        daily=daily,
        sealed_until=timezone.now() + datetime.timedelta(days=1) if sealed else None,
        created_by=players[0],
        finished_at=timezone.now(),
    )
    ranked = sorted(scores, reverse=True)
    seats = [
        SeatFactory(
            game=game,
            user=user,
            position=i + 1,
            score=score,
            place=ranked.index(score) + 1,
            shared_place=scores.count(score) > 1,
        )
        for i, (user, score) in enumerate(zip(players, scores, strict=True))
    ]
    if mode == Game.Mode.SOLO:
        SoloResultFactory(game=game, user=players[0], score=scores[0], daily=daily)
    game_finished(
        game=game, seats=[Seat.objects.select_related("user").get(pk=s.pk) for s in seats]
    )
    return game


RULESET_FLAGS = {
    Ruleset.STANDARD: {"diagonal": False, "ferryman": False},
    Ruleset.DIAGONAL: {"diagonal": True, "ferryman": False},
    Ruleset.FERRYMAN: {"diagonal": False, "ferryman": True},
    Ruleset.BOTH: {"diagonal": True, "ferryman": True},
}


def solo_results(
    user: User,
    scores: list[int],
    *,
    ruleset: str = Ruleset.STANDARD,
    at: datetime.datetime | None = None,
    hidden: bool = False,
) -> list[Seat]:
    """Finished solo games of ``user`` with these scores, a second apart, oldest first;
    then the player's board rows rebuilt, as moderation and a finishing game do."""
    start = at or timezone.now() - datetime.timedelta(seconds=len(scores))
    seats = [
        FinishedSoloFactory(
            game__created_by=user,
            game__ruleset=ruleset,
            game__finished_at=start + datetime.timedelta(seconds=i),
            solo_result__hidden=hidden,
            score=score,
            **{f"game__{flag}": value for flag, value in RULESET_FLAGS[Ruleset(ruleset)].items()},
        )
        for i, score in enumerate(scores)
    ]
    player_stats_rebuild(user=user)
    return seats


def creator(game: Game) -> User:
    """The player who created ``game`` (every game a test builds has one)."""
    assert game.created_by is not None
    return game.created_by


def seat_user(seat: Seat) -> User:
    """The person in ``seat`` (not a computer player's seat)."""
    assert seat.user is not None
    return seat.user


def final_score(seat: Seat) -> int:
    """The score of a seat in a finished game."""
    assert seat.score is not None
    return seat.score


def tournament_open(
    name: str, *, deals: int = 2, ends_in: datetime.timedelta = datetime.timedelta(hours=1)
) -> Tournament:
    """An asynchronous standard tournament of ``deals`` deals, open since an hour ago."""
    now = timezone.now()
    return tournaments.tournament_create(
        name=name,
        ruleset="standard",
        deal_count=deals,
        starts_at=now - datetime.timedelta(hours=1),
        ends_at=now + ends_in,
    )

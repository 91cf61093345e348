"""One factory per model. Build test data with these, not by hand."""

from __future__ import annotations

import random
from typing import Any

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.utils import timezone
from factory.django import DjangoModelFactory

from accounts.models import User
from games.models import Game, Seat, SoloResult
from games.selectors import deck
from rules import solo_rating

PASSWORD = "pw-limes-123"


class UserFactory(DjangoModelFactory[User]):
    """A player with a verified primary email address, whose password is ``PASSWORD``."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.Sequence(lambda n: f"player{n}@example.com")
    password = factory.LazyFunction(lambda: make_password(PASSWORD))

    @factory.post_generation
    def email_address(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        # allauth keeps its own record of addresses; a user signed up through it has one.
        if create and self.email:
            EmailAddress.objects.create(user=self, email=self.email, primary=True, verified=True)


class GameFactory(DjangoModelFactory[Game]):
    """A solo game in round 1 whose cards are dealt from ``seed`` as the service deals them."""

    class Meta:
        model = Game

    mode = Game.Mode.SOLO
    seed = factory.Sequence(lambda n: 1000 + n)
    cards = factory.LazyAttribute(lambda game: list(deck().deal(random.Random(game.seed))))
    deck_name = factory.LazyFunction(lambda: deck().name)
    created_by = factory.SubFactory(UserFactory)


class SeatFactory(DjangoModelFactory[Seat]):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    user = factory.SelfAttribute("game.created_by")
    position = 1


class SoloResultFactory(DjangoModelFactory[SoloResult]):
    class Meta:
        model = SoloResult

    game = factory.SubFactory(GameFactory, status=Game.Status.FINISHED, round=17)
    user = factory.SelfAttribute("game.created_by")
    ruleset = factory.SelfAttribute("game.ruleset")
    score = 38
    rating = factory.LazyAttribute(lambda result: solo_rating(result.score).value)
    finished_at = factory.LazyFunction(timezone.now)


class FinishedSoloFactory(DjangoModelFactory[Seat]):
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

    @factory.post_generation
    def solo_result(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            SoloResult.objects.create(
                game=self.game,
                user=self.user,
                ruleset=self.game.ruleset,
                score=self.score,
                rating=solo_rating(self.score).value,
                finished_at=self.game.finished_at,
                daily=self.game.daily,
                hidden=kwargs.get("hidden", False),
            )


class PlayerRatingFactory(DjangoModelFactory["PlayerRating"]):
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

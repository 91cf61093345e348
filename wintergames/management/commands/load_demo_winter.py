"""Add Carcassonne: Winter Edition to the demo data: a finished game of the two demo
accounts, and a game waiting in the Winter lobby."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

import winter.bot
from accounts.demo import DEMO_USERNAME, RIVAL_USERNAME, demo_account
from accounts.models import User
from wintergames import services
from wintergames.models import WinterGame
from wintergames.rebuild import winter_game

DEMO_SEED = 2014
# How the demo accounts choose their tiles' places: quick, and not foolish.
DEMO_LEVEL = "normal"


class Command(BaseCommand):
    help = (
        "After load_demo: a finished Carcassonne: Winter Edition game of demo and demo-rival, "
        "and a Winter game of demo-rival's waiting in the lobby."
    )

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        user = demo_account(DEMO_USERNAME)
        rival = demo_account(RIVAL_USERNAME)
        if WinterGame.objects.filter(created_by=rival, seed=DEMO_SEED).exists():
            self.stdout.write("Winter demo data already loaded.")
            return
        duel = services.game_create(
            user=rival,
            players=2,
            computers=0,
            level="",
            farmers=True,
            pace=WinterGame.Pace.UNTIMED,
            seed=DEMO_SEED,
        )
        services.game_join(game_id=duel.pk, user=user)
        _play_out(duel)
        waiting = services.game_create(
            user=rival,
            players=3,
            computers=0,
            level="",
            farmers=True,
            pace=WinterGame.Pace.CORRESPONDENCE,
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Winter: finished game #{duel.pk} of {DEMO_USERNAME!r} and {RIVAL_USERNAME!r}, "
                f"game #{waiting.pk} waiting in the lobby."
            )
        )


def _play_out(game: WinterGame) -> None:
    """Each person's turn chosen by a computer player, played through the same service as
    a person's."""
    while True:
        game.refresh_from_db()
        if not game.is_running:
            return
        seats = list(game.seats.select_related("user").order_by("position"))
        state = winter_game(game, seats)
        assert state.drawn is not None
        user = seats[state.to_move].user
        assert isinstance(user, User)
        move = winter.bot.choose(DEMO_LEVEL, winter.bot.View.from_game(state))
        services.turn_play(
            game_id=game.pk,
            user=user,
            at=move.at,
            rotation=move.rotation,
            follower=move.follower,
            turn_number=len(state.turns),
        )

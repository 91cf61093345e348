"""Create the demo accounts, a finished solo and two-player game, and an open game, once."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

import rules
from accounts.demo import DEMO_PASSWORD, DEMO_USERNAME, RIVAL_USERNAME, demo_account
from accounts.models import User
from games import rebuild, services
from games.models import Game

DEMO_SEED = 2014


class Command(BaseCommand):
    help = (
        "Create the demo accounts (demo and demo-rival, password demo-limes) with a finished "
        "solo game, a finished two-player game, and a game waiting in the lobby."
    )

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        user = demo_account(DEMO_USERNAME)
        rival = demo_account(RIVAL_USERNAME)
        if Game.objects.filter(seats__user=user, seed=DEMO_SEED).exists():
            self.stdout.write("Demo data already loaded.")
            return
        game = services.game_create_solo(user=user, diagonal=True, ferryman=True, seed=DEMO_SEED)
        _play_out(game, [user])
        duel = services.game_create_multi(
            user=rival, seats_max=2, pace=Game.Pace.CORRESPONDENCE, ferryman=True, seed=DEMO_SEED
        )
        services.game_join(game=duel, user=user)
        _play_out(duel, [user, rival])
        waiting = services.game_create_multi(user=rival, seats_max=3, pace=Game.Pace.LIVE)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo accounts {DEMO_USERNAME!r} and {RIVAL_USERNAME!r} (password "
                f"{DEMO_PASSWORD!r}): finished solo game #{game.pk}, finished two-player "
                f"game #{duel.pk}, game #{waiting.pk} waiting in the lobby."
            )
        )


def _play_out(game: Game, players: list[User]) -> None:
    """The reference player plays every seat, through the same service as a person."""
    game.refresh_from_db()
    while not game.is_finished:
        state = rebuild.rules_game(game)
        card = state.current_card
        assert card is not None
        for player in players:
            turn = rules.reference_turn(state.boards[player.username], card, state.variants)
            services.move_submit(game_id=game.pk, user=player, round_number=state.round, turn=turn)
        game.refresh_from_db()

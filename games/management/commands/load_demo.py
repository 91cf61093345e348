"""Create the demo account and a finished demo game, once."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

import rules
from accounts.models import User
from games import selectors, services
from games.models import Game

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-limes"
DEMO_SEED = 2014


class Command(BaseCommand):
    help = "Create the demo account (demo / demo-limes) with a finished solo game."

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"email": "demo@example.org"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        if Game.objects.filter(seats__user=user, seed=DEMO_SEED).exists():
            self.stdout.write("Demo data already loaded.")
            return
        game = services.game_create_solo(user=user, diagonal=True, ferryman=True, seed=DEMO_SEED)
        # The reference player plays it, through the same service as a person.
        while not game.is_finished:
            state = selectors.rules_game(game)
            card = state.current_card
            assert card is not None
            turn = rules.reference_turn(state.boards[user.username], card, state.variants)
            game = services.move_submit(game=game, user=user, round_number=state.round, turn=turn)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo account {DEMO_USERNAME!r} (password {DEMO_PASSWORD!r}) "
                f"with finished game #{game.pk}."
            )
        )

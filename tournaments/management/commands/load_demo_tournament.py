"""Add a running tournament to the demo data, with the demo players' first deal played."""

from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.demo import DEMO_USERNAME, RIVAL_USERNAME
from accounts.models import User
from games.management.commands.load_demo import _play_out
from games.models import Ruleset
from tournaments import services
from tournaments.models import Tournament

DEMO_NAME = "Demo tournament"


class Command(BaseCommand):
    help = (
        "After load_demo: the weekly tournaments, and a running demo tournament that demo "
        "and demo-rival entered and whose first deal they played."
    )

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        services.weekly_tournaments_ensure()
        if Tournament.objects.filter(name=DEMO_NAME).exists():
            self.stdout.write("Demo tournament already loaded.")
            return
        players = list(User.objects.filter(username__in=[DEMO_USERNAME, RIVAL_USERNAME]))
        now = timezone.now()
        tournament = services.tournament_create(
            name=DEMO_NAME,
            ruleset=Ruleset.STANDARD,
            deal_count=4,
            starts_at=now - datetime.timedelta(hours=1),
            ends_at=now + datetime.timedelta(days=7),
        )
        for player in players:
            services.tournament_join(tournament=tournament, user=player)
            game = services.deal_play(tournament=tournament, user=player, number=1)
            _play_out(game, [player])
        self.stdout.write(f"Demo tournament #{tournament.pk} with {len(players)} entrants.")

"""One of the processes of ``test_sqlite_concurrency``: plays a solo game through the services.

Run as ``python -m tests.games.sqlite_writer NAME`` with ``DATABASE_URL`` naming a migrated
SQLite file. Prints one line per refused or failed write and exits 1 if there was any.
"""

from __future__ import annotations

import os
import sys


def main(name: str) -> int:
    """Sign up ``name``, start a solo game and play its 16 rounds, one transaction each."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.dev")
    import django

    django.setup()
    from django.db import OperationalError

    from accounts.models import User
    from games import selectors, services
    from tests.factories import reference_turn_for

    failures = 0
    user = User.objects.create_user(username=name, password=None)
    game = services.game_create_solo(user=user, diagonal=False, ferryman=False)
    for _ in range(16):
        game = selectors.game_with_seats(game.pk) or game
        round_number, turn = reference_turn_for(game)
        try:
            services.move_submit(game_id=game.pk, user=user, round_number=round_number, turn=turn)
        except OperationalError as error:
            failures += 1
            print(f"{name} round {round_number}: {error}", flush=True)
        # The game pages read between writes, as a player's browser would.
        list(selectors.games_of(user)[:20])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

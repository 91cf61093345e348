"""What a Limes game puts in a player's turn mail (``floor.mail``): each correspondence
game waiting for their move, its round and its deadline."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _

from accounts.models import User
from floor.mail import WaitingTurn
from games.models import Game
from games.selectors import seats_waiting


def _deadline(game: Game) -> str:
    return formats.date_format(game.deadline, "DATETIME_FORMAT") if game.deadline else "-"


def turns_waiting(user: User, origin: str) -> list[WaitingTurn]:
    """The correspondence games waiting for ``user``, in the active language."""
    seats = (
        seats_waiting(user)
        .filter(game__pace=Game.Pace.CORRESPONDENCE)
        .select_related("game")
        .order_by("game__deadline", "game_id")
    )
    turns = []
    for seat in seats:
        game = seat.game
        url = origin + reverse("games:detail", kwargs={"pk": game.pk})
        words = {"round": game.round, "game": game.pk, "url": url, "deadline": _deadline(game)}
        turns.append(
            WaitingTurn(
                deadline=game.deadline,
                line=_("Game #%(game)d, round %(round)d, until %(deadline)s UTC: %(url)s") % words,
                subject=_("Limes: round %(round)d of game #%(game)d waits for you") % words,
                text=_(
                    "Round %(round)d of your Limes game #%(game)d has started: %(url)s\n\n"
                    "You have until %(deadline)s UTC to play it.\n\n"
                    "You can turn these emails off in your settings."
                )
                % words,
            )
        )
    return turns

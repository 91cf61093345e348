"""What a Winter game puts in a player's turn mail (``floor.mail``): each correspondence
game waiting for their move, and its deadline."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _

from accounts.models import User
from floor.mail import WaitingTurn
from wintergames.models import WinterGame


def turns_waiting(user: User, origin: str) -> list[WaitingTurn]:
    """The running correspondence Winter games whose player to move is ``user``."""
    games = WinterGame.objects.filter(
        status=WinterGame.Status.RUNNING,
        pace=WinterGame.Pace.CORRESPONDENCE,
        waiting_for=user,
    ).order_by("deadline", "pk")
    turns = []
    for game in games:
        url = origin + reverse("winter:detail", kwargs={"pk": game.pk})
        deadline = formats.date_format(game.deadline, "DATETIME_FORMAT") if game.deadline else "-"
        words = {"game": game.pk, "url": url, "deadline": deadline}
        turns.append(
            WaitingTurn(
                deadline=game.deadline,
                line=_("Winter game #%(game)d, until %(deadline)s UTC: %(url)s") % words,
                subject=_("Carcassonne: Winter Edition: game #%(game)d waits for you") % words,
                text=_(
                    "It is your turn in your Carcassonne: Winter Edition game #%(game)d: "
                    "%(url)s\n\nYou have until %(deadline)s UTC to play it.\n\n"
                    "You can turn these emails off in your settings."
                )
                % words,
            )
        )
    return turns

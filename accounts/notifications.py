"""Every notification event and channel, named once (the typed events of the floor).

A player chooses, per event, the channels it reaches them by (``NotificationPreference``);
``floor.notify.notify`` is the one service that dispatches an event: a notice on the site,
an e-mail and a push to each subscribed device, as the player chose.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Channel(models.TextChoices):
    """How a notification reaches a player."""

    SITE = "site", _("On the site")
    EMAIL = "email", _("By e-mail")
    PUSH = "push", _("By push")


class Event(models.TextChoices):
    """What a player is notified of."""

    TURN = "turn", _("Your turn in a correspondence game")
    LIVE_TURN = "live_turn", _("Your turn in a live game while its tab is hidden")
    CHALLENGE = "challenge", _("A challenge to a game")
    FRIEND_REQUEST = "friend_request", _("A friend request, or yours accepted")
    REMATCH = "rematch", _("A rematch offer")
    TOURNAMENT = "tournament", _("A tournament deal open, or a live one starting soon")
    CHAT = "chat", _("A chat message while I am away from the game")
    # Not a choice: a moderator's answer always reaches the player, on the site.
    MODERATION = "moderation", _("A moderator's answer")


#: The channels each event can go by; a channel missing here is never used for it. (A
#: correspondence turn shows on the site as the menu's count of games waiting, a live turn
#: on its own page: neither needs a notice.)
CHANNELS: dict[Event, tuple[Channel, ...]] = {
    Event.TURN: (Channel.EMAIL, Channel.PUSH),
    Event.LIVE_TURN: (Channel.PUSH,),
    Event.CHALLENGE: (Channel.SITE, Channel.EMAIL, Channel.PUSH),
    Event.FRIEND_REQUEST: (Channel.SITE, Channel.EMAIL, Channel.PUSH),
    Event.REMATCH: (Channel.SITE, Channel.EMAIL, Channel.PUSH),
    Event.TOURNAMENT: (Channel.SITE, Channel.EMAIL, Channel.PUSH),
    Event.CHAT: (Channel.SITE, Channel.EMAIL, Channel.PUSH),
    Event.MODERATION: (Channel.SITE,),
}

#: Events a player may switch (the rows of the settings' table), in the table's order.
CHOOSABLE: tuple[Event, ...] = tuple(event for event in Event if event != Event.MODERATION)

#: The choice where the player has not made one: every channel the event can go by, but
#: a chat message (off by default everywhere but on the site).
OFF_BY_DEFAULT: frozenset[tuple[Event, Channel]] = frozenset(
    {(Event.CHAT, Channel.EMAIL), (Event.CHAT, Channel.PUSH)}
)


def can_go_by(event: Event, channel: Channel) -> bool:
    """Whether ``event`` can reach a player by ``channel`` at all."""
    return channel in CHANNELS[event]


def on_by_default(event: Event, channel: Channel) -> bool:
    """Whether ``event`` goes by ``channel`` until the player chooses."""
    return can_go_by(event, channel) and (event, channel) not in OFF_BY_DEFAULT

"""The social part of a player's data export (``games.export.export_sections``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.models import User
from social.models import Block, Challenge, ChatMessage, Follow, FriendRequest


def social_export(user: User) -> list[tuple[str, Any]]:
    """``social.json``: friends, follows, blocks, challenges; ``chat.json``: messages written."""
    requests = FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).select_related(
        "sender", "recipient"
    )
    social = {
        "friend_requests": [
            {
                "from": r.sender.username,
                "to": r.recipient.username,
                "sent_at": r.created_at.isoformat(),
                "accepted_at": r.accepted_at.isoformat() if r.accepted_at else None,
            }
            for r in requests
        ],
        "following": list(
            Follow.objects.filter(follower=user).values_list("followed__username", flat=True)
        ),
        "blocked": list(
            Block.objects.filter(blocker=user).values_list("blocked__username", flat=True)
        ),
        "challenges": [
            {
                "from": c.challenger.username,
                "to": c.challenged.username,
                "status": c.status,
                "kind": c.kind,
                "pace": c.pace,
                "round_seconds": c.round_seconds,
                "diagonal": c.diagonal,
                "ferryman": c.ferryman,
                "farmers": c.farmers,
                "aids": c.aids,
                "sent_at": c.created_at.isoformat(),
                "game": c.game_id,
                "winter_game": c.winter_game_id,
            }
            for c in Challenge.objects.filter(
                Q(challenger=user) | Q(challenged=user)
            ).select_related("challenger", "challenged")
        ],
    }
    chat = [
        {
            "game": m.game_id,
            "winter_game": m.winter_game_id,
            "sent_at": m.created_at.isoformat(),
            "text": m.text,
            "quick_phrase": m.phrase,
            "hidden_by_moderator": m.hidden,
        }
        for m in ChatMessage.objects.filter(author=user).order_by("pk")
    ]
    return [("social.json", social), ("chat.json", chat)]

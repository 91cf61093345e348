from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from social.selectors import Relation, relation

register = template.Library()


@register.simple_tag(takes_context=True)
def relation_to(context: dict[str, Any], other: User) -> Relation | None:
    """How the signed-in player stands to ``other``; None when signed out."""
    viewer = context["request"].user
    if not isinstance(viewer, User) or not viewer.is_authenticated:
        return None
    return relation(viewer, other)

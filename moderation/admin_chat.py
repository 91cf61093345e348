"""Chat messages and mutes in the admin, with the moderators' hide and mute actions."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from moderation import services as moderation
from moderation.admin_actions import ReasonAction, ReasonActionsMixin, game_link
from moderation.forms import MuteForm
from social.models import ChatMessage, ChatMute
from social.selectors import chat_mute_in_force


@admin.register(ChatMessage)
class ChatMessageAdmin(ReasonActionsMixin, admin.ModelAdmin[ChatMessage]):
    list_display = ("id", "created_at", "game_column", "author", "shown_message", "hidden")
    list_filter = ("hidden",)
    search_fields = ("author__username", "text")
    list_select_related = ("author",)
    readonly_fields = ("game_column", "author", "shown_message", "phrase", "created_at", "hidden")
    fields = readonly_fields
    reason_actions = (
        ReasonAction(
            name="hide_messages",
            label=_("Hide message"),
            apply=lambda moderator, message, data: moderation.chat_message_hide(
                moderator=moderator, message=message, reason=data["reason"]
            ),
            reason_help=_("Kept in the audit log. Nobody reads the message in the game any more."),
            shown_for=lambda message: not message.hidden,
        ),
        ReasonAction(
            name="unhide_messages",
            label=_("Show message again"),
            reason_required=False,
            apply=lambda moderator, message, data: moderation.chat_message_unhide(
                moderator=moderator, message=message, reason=data["reason"]
            ),
            shown_for=lambda message: message.hidden,
        ),
        ReasonAction(
            name="mute_authors",
            label=_("Mute the author in chat"),
            form_class=MuteForm,
            apply=lambda moderator, message, data: moderation.chat_mute(
                moderator=moderator, user=message.author, until=data["until"], reason=data["reason"]
            ),
            reason_help=_("The player is notified with this reason. Kept in the audit log."),
            shown_for=lambda message: message.author is not None,
        ),
        ReasonAction(
            name="unmute_authors",
            label=_("Lift the author's chat mute"),
            reason_required=False,
            apply=lambda moderator, message, data: moderation.chat_unmute(
                moderator=moderator, user=message.author, reason=data["reason"]
            ),
            shown_for=lambda message: (
                message.author is not None and chat_mute_in_force(message.author) is not None
            ),
        ),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("game"))
    def game_column(self, message: ChatMessage) -> str:
        # A Limes game's or a Winter game's: its admin page and its page on the site.
        return game_link(message.game_id, message.winter_game_id)

    @admin.display(description=_("message as players read it"))
    def shown_message(self, message: ChatMessage) -> str:
        # A quick phrase is stored as its key; each player reads it in their language.
        return message.shown_text


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin[ChatMute]):
    list_display = ("user", "starts", "ends", "lifted_at", "created_by", "reason")
    search_fields = ("user__username",)
    list_select_related = ("user", "created_by")
    readonly_fields = ("user", "reason", "starts", "ends", "created_by", "lifted_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # moderators mute from a message

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

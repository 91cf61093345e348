"""The players' admin pages: accounts, with the moderators' actions, bans and audit log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from moderation import services
from moderation.admin_actions import ReasonAction, ReasonActionsMixin
from moderation.forms import BanForm
from moderation.models import AuditEntry, Ban

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class BannedFilter(admin.SimpleListFilter):
    title = _("ban")
    parameter_name = "banned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, StrOrPromise]]:
        return [("yes", _("Banned now")), ("no", _("Not banned"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        # Bans end by themselves, so "now" decides, not a flag.
        if self.value() == "yes":
            return queryset.filter(banned_until__gt=timezone.now())
        if self.value() == "no":
            return queryset.exclude(banned_until__gt=timezone.now())
        return queryset


class BanInline(admin.TabularInline[Ban, User]):
    """The player's bans, on their admin page."""

    model = Ban
    fk_name = "user"
    extra = 0
    fields = ("starts", "ends", "reason", "created_by", "lifted_at", "lifted_by")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = _("bans")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Ban]:
        return super().get_queryset(request).select_related("created_by", "lifted_by")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AuditEntryInline(admin.TabularInline[AuditEntry, Any]):
    """What moderators did to the player, on their admin page."""

    model = AuditEntry
    fk_name = "target"
    extra = 0
    fields = ("at", "moderator", "action", "reason", "details")
    readonly_fields = fields
    can_delete = False
    ordering = ("-at",)
    verbose_name_plural = _("audit log")

    def get_queryset(self, request: HttpRequest) -> QuerySet[AuditEntry]:
        return super().get_queryset(request).select_related("moderator")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(User)
class UserAdmin(ReasonActionsMixin, BaseUserAdmin[User]):
    list_display = (
        "username",
        "email",
        "date_joined",
        "last_login",
        "is_active",
        "banned",
        "must_rename",
        "deleted_at",
    )
    list_filter = (
        BannedFilter,
        "must_rename",
        "is_active",
        "is_staff",
        "is_superuser",
        "groups",
        "date_joined",
        "deleted_at",
    )
    search_fields = ("username", "email")
    ordering = ("-date_joined",)
    # Bans and renames go through the moderation actions, so each has its audit entry.
    readonly_fields = ("deleted_at", "banned_until", "ban_reason", "must_rename", "reports")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Profile"), {"fields": ("bio", "deleted_at")}),
        (_("Moderation"), {"fields": ("banned_until", "ban_reason", "must_rename", "reports")}),
    )
    inlines = [BanInline, AuditEntryInline]
    reason_actions = (
        ReasonAction(
            name="ban_users",
            label=_("Ban"),
            form_class=BanForm,
            apply=lambda moderator, user, data: services.user_ban(
                moderator=moderator, user=user, reason=data["reason"], until=data.get("until")
            ),
            notes=(
                _(
                    "A banned player is signed out and cannot sign in, resigns every running "
                    "game, and leaves every leaderboard until the ban ends or is lifted."
                ),
            ),
            shown_for=lambda user: not user.is_banned,
        ),
        ReasonAction(
            name="unban_users",
            label=_("Lift ban"),
            reason_required=False,
            apply=lambda moderator, user, data: services.user_unban(
                moderator=moderator, user=user, reason=data["reason"]
            ),
            notes=(_("The player's results return to the leaderboards at once."),),
            shown_for=lambda user: user.is_banned,
        ),
        ReasonAction(
            name="rename_users",
            label=_("Reset username"),
            apply=lambda moderator, user, data: services.user_rename(
                moderator=moderator, user=user, reason=data["reason"]
            ),
            notes=(
                _(
                    "The name becomes player-<number>; on their next visit the player must "
                    "choose a new one."
                ),
            ),
        ),
        ReasonAction(
            name="clear_profiles",
            label=_("Clear profile text"),
            apply=lambda moderator, user, data: services.profile_clear(
                moderator=moderator, user=user, reason=data["reason"]
            ),
            notes=(_("The audit log keeps the text that was removed."),),
            shown_for=lambda user: bool(user.bio),
        ),
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Moderators act through the actions above; only superusers edit accounts by hand,
        # and only they touch permissions.
        if request.user.is_superuser:
            return self.readonly_fields
        return [
            *self.readonly_fields,
            *(f.name for f in User._meta.fields if f.name not in self.readonly_fields),
            "groups",
            "user_permissions",
        ]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or request.user.is_superuser:
            return fieldsets
        # A read-only password field would show the hash itself.
        return [
            (name, {**options, "fields": [f for f in options["fields"] if f != "password"]})
            for name, options in fieldsets
        ]

    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        if not request.user.is_superuser:
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)

    @admin.display(description=_("banned"), boolean=True)
    def banned(self, user: User) -> bool:
        return user.is_banned

    @admin.display(description=_("reports"))
    def reports(self, user: User) -> str:
        return format_html(
            '<a href="{}?target__id__exact={}">{}</a> · <a href="{}?reporter__id__exact={}">{}</a>',
            reverse("admin:moderation_report_changelist"),
            user.pk,
            _("reports about this player"),
            reverse("admin:moderation_report_changelist"),
            user.pk,
            _("reports by this player"),
        )

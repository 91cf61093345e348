"""The moderators' queue of reports, the ban history and the read-only audit log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.models import User

# Importing them registers the players' and games' pages, with the moderators' actions.
from moderation import (  # noqa: F401
    admin_chat,
    admin_games,
    admin_players,
    admin_tournaments,
    services,
)
from moderation.admin_actions import ReasonAction, ReasonActionsMixin
from moderation.forms import ReasonForm
from moderation.models import AuditEntry, Ban, Report


class NoteForm(ReasonForm):
    reason = forms.CharField(
        label=_("Note"),
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_(
            "What you found and did, for the other moderators; kept in the audit log. The "
            "reporter is only told that the report was handled."
        ),
    )


def user_link(user: User | None) -> str:
    """The player's admin page, and their public profile beside it."""
    if user is None:
        return "–"
    return format_html(
        '<a href="{}">{}</a> (<a href="{}">{}</a>)',
        reverse("admin:accounts_user_change", args=[user.pk]),
        user.username,
        reverse("accounts:profile", args=[user.username]),
        _("profile"),
    )


def game_link(game_id: int | None) -> str:
    if game_id is None:
        return "–"
    return format_html(
        '<a href="{}">#{}</a> (<a href="{}">{}</a>)',
        reverse("admin:games_game_change", args=[game_id]),
        game_id,
        reverse("games:detail", args=[game_id]),
        _("page"),
    )


def _count_of(model: type[Any], field: str) -> Coalesce:
    counted = (
        model.objects.filter(**{field: OuterRef("target")})
        .order_by()
        .values(field)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


@admin.register(Report)
class ReportAdmin(ReasonActionsMixin, admin.ModelAdmin[Report]):
    list_display = (
        "id",
        "created_at",
        "status",
        "category",
        "target_link",
        "game_column",
        "reporter_link",
        "reports_about_target",
        "bans_of_target",
        "handled_by",
    )
    list_display_links = ("id", "created_at")
    list_filter = ("status", "category")
    search_fields = ("target__username", "reporter__username", "text")
    ordering = ("created_at", "pk")
    list_select_related = ("target", "reporter", "handled_by")
    readonly_fields = (
        "target_link",
        "reporter_link",
        "game_column",
        "chat_message_column",
        "category",
        "text",
        "created_at",
        "status",
        "handled_at",
        "handled_by",
        "note",
        "reports_about_target",
        "bans_of_target",
    )
    fields = readonly_fields
    reason_actions = (
        ReasonAction(
            name="resolve_reports",
            label=_("Resolve: action was taken"),
            form_class=NoteForm,
            apply=lambda moderator, report, data: services.report_resolve(
                moderator=moderator, report=report, note=data["reason"]
            ),
            shown_for=lambda report: report.status == Report.Status.OPEN,
        ),
        ReasonAction(
            name="dismiss_reports",
            label=_("Dismiss: no rule was broken"),
            form_class=NoteForm,
            apply=lambda moderator, report, data: services.report_dismiss(
                moderator=moderator, report=report, note=data["reason"]
            ),
            shown_for=lambda report: report.status == Report.Status.OPEN,
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        reports: QuerySet[Report] = (
            super()
            .get_queryset(request)
            .annotate(
                target_reports=_count_of(Report, "target"),
                target_bans=_count_of(Ban, "user"),
            )
        )
        return reports

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # The queue opens on what is waiting; the status filter shows the rest.
        if request.method == "GET" and not request.GET:
            return redirect(f"{request.path}?status__exact={Report.Status.OPEN}")
        return super().changelist_view(request, extra_context)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players file reports from the site

    @admin.display(description=_("reported player"), ordering="target__username")
    def target_link(self, report: Report) -> str:
        return user_link(report.target)

    @admin.display(description=_("reported by"), ordering="reporter__username")
    def reporter_link(self, report: Report) -> str:
        return user_link(report.reporter)

    @admin.display(description=_("game"))
    def game_column(self, report: Report) -> str:
        return game_link(report.game_id)

    @admin.display(description=_("chat message"))
    def chat_message_column(self, report: Report) -> str:
        message = report.chat_message
        if message is None:
            return "–"
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:social_chatmessage_change", args=[message.pk]),
            message.shown_text,
        )

    @admin.display(description=_("reports about this player"))
    def reports_about_target(self, report: Report) -> str:
        url = reverse("admin:moderation_report_changelist")
        return format_html(
            '<a href="{}?target__id__exact={}">{}</a>',
            url,
            report.target_id,
            getattr(report, "target_reports", "…"),
        )

    @admin.display(description=_("bans"))
    def bans_of_target(self, report: Report) -> str:
        url = reverse("admin:moderation_ban_changelist")
        return format_html(
            '<a href="{}?user__id__exact={}">{}</a>',
            url,
            report.target_id,
            getattr(report, "target_bans", "…"),
        )


@admin.register(Ban)
class BanAdmin(admin.ModelAdmin[Ban]):
    """The history of bans. Bans are given and lifted with the actions on players."""

    list_display = ("user", "starts", "ends", "reason", "created_by", "lifted_at", "lifted_by")
    list_filter = ("starts", "lifted_at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by", "lifted_by")
    date_hierarchy = "starts"

    # Written only by the services, so that every ban has its audit entry.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Ban | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Ban | None = None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin[AuditEntry]):
    """The audit log: read-only for everyone, superusers included."""

    list_display = ("at", "moderator", "action", "target_column", "game_column", "reason")
    list_filter = (
        "action",
        ("moderator", admin.RelatedOnlyFieldListFilter),
        ("target", admin.RelatedOnlyFieldListFilter),
        "at",
    )
    search_fields = ("target__username", "moderator__username", "reason")
    list_select_related = ("moderator", "target")
    date_hierarchy = "at"
    fields = (
        "at",
        "moderator",
        "action",
        "target_column",
        "game_column",
        "report",
        "reason",
        "details",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AuditEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: AuditEntry | None = None) -> bool:
        return False

    @admin.display(description=_("player"), ordering="target__username")
    def target_column(self, entry: AuditEntry) -> str:
        return user_link(entry.target)

    @admin.display(description=_("game"))
    def game_column(self, entry: AuditEntry) -> str:
        return game_link(entry.game_id)

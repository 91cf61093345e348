"""The moderators' queue of reports, the ban history and the read-only audit log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User

# Importing them registers the players' and games' pages, with the moderators' actions.
from moderation import (  # noqa: F401
    admin_chat,
    admin_games,
    admin_players,
    admin_tournaments,
    services,
)
from moderation.admin_actions import ReasonAction, ReasonActionsMixin, describe_error, game_link
from moderation.forms import MuteForm, ReasonForm
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


def _hide_form(**kwargs: Any) -> ReasonForm:
    return ReasonForm(
        prefix="hide",
        help_text=_("Kept in the audit log. Nobody reads the message in the game any more."),
        **kwargs,
    )


def _mute_form(**kwargs: Any) -> MuteForm:
    return MuteForm(
        prefix="mute",
        help_text=_("The player is notified with this reason. Kept in the audit log."),
        **kwargs,
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

    # The page of a report about a chat message acts on the message and its author too.
    change_form_template = "moderation/admin/report_change_form.html"

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.chat_action_view)
        own = [
            path("<path:object_id>/chat/<str:action>/", view, name="moderation_report_chat"),
        ]
        return own + super().get_urls()

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra_context = dict(extra_context or {})
        report = self.get_object(request, object_id)
        message = report.chat_message if report is not None else None
        if report is not None and message is not None:
            initial = {"reason": report.get_category_display()}
            extra_context["chat_message"] = message
            extra_context["hide_form"] = _hide_form(initial=initial)
            extra_context["mute_form"] = _mute_form(initial=initial)
        return super().change_view(request, object_id, form_url, extra_context)

    def chat_action_view(
        self, request: AuthenticatedHttpRequest, object_id: str, action: str
    ) -> HttpResponse:
        """Hide the reported message, or mute its author, from the report's page (POST).

        The services check the moderator's permission and write the audit entry, which
        names the report.
        """
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        report = self.get_object(request, object_id)
        message = report.chat_message if report is not None else None
        if report is None or message is None or action not in ("hide", "mute"):
            raise Http404(_("No such object."))
        form = _hide_form(data=request.POST) if action == "hide" else _mute_form(data=request.POST)
        if not form.is_valid():
            errors = "; ".join(str(e) for field in form.errors.values() for e in field)
            self.message_user(request, errors, messages.ERROR)
        else:
            data = form.cleaned_data
            try:
                if action == "hide":
                    services.chat_message_hide(
                        moderator=request.user,
                        message=message,
                        reason=data["reason"],
                        report=report,
                    )
                    done = str(_("The message is hidden."))
                elif message.author is None:
                    raise Http404(_("No such object."))
                else:
                    services.chat_mute(
                        moderator=request.user,
                        user=message.author,
                        until=data["until"],
                        reason=data["reason"],
                        report=report,
                    )
                    done = _("%(name)s is muted in chat.") % {"name": message.author.username}
            except ValidationError as error:
                self.message_user(request, describe_error(error), messages.ERROR)
            else:
                self.message_user(request, done, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:moderation_report_change", args=[report.pk]))

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
        return game_link(report.game_id, report.winter_game_id)

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
        return game_link(entry.game_id, entry.winter_game_id)

"""The tournaments' admin pages: moderators create one-off tournaments (with invitations)
and disqualify entrants; nothing else there is edited by hand."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import ActionRefused
from moderation import services as moderation
from moderation.admin_actions import ReasonAction, ReasonActionsMixin
from tournaments import services
from tournaments.models import (
    MAX_ROUND_SECONDS,
    MIN_ROUND_SECONDS,
    Entrant,
    Invitation,
    Tournament,
)

DISQUALIFY = ReasonAction(
    name="disqualify_entrants",
    label=_("Disqualify from the tournament"),
    apply=lambda moderator, entrant, data: moderation.entrant_disqualify(
        moderator=moderator, entrant=entrant, reason=data["reason"]
    ),
    reason_help=_(
        "Kept in the audit log. The player is notified with this reason; their tournament "
        "games are hidden from every board."
    ),
    shown_for=lambda entrant: not entrant.disqualified,
)


class InvitationInline(admin.TabularInline[Invitation, Tournament]):
    model = Invitation
    # Invitees picked by name as one types (the players' admin searches usernames).
    autocomplete_fields = ("user",)
    extra = 1


class TournamentForm(forms.ModelForm[Tournament]):
    class Meta:
        model = Tournament
        fields = (
            "name",
            "ruleset",
            "format",
            "round_seconds",
            "deal_count",
            "starts_at",
            "ends_at",
            "entry",
            "max_entrants",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "ends_at" in self.fields:
            self.fields["ends_at"].required = False
            self.fields["ends_at"].help_text = _(
                "Live duplicate: left empty, it is worked out from the deals and the clock."
            )

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        if data.get("format") == Tournament.Format.LIVE:
            seconds, deals = data.get("round_seconds"), data.get("deal_count")
            if not seconds or not MIN_ROUND_SECONDS <= seconds <= MAX_ROUND_SECONDS:
                raise ValidationError(
                    _("A live tournament gives %(low)d to %(high)d seconds a round."),
                    params={"low": MIN_ROUND_SECONDS, "high": MAX_ROUND_SECONDS},
                )
            if data.get("starts_at") and deals:
                data["ends_at"] = data["starts_at"] + services.live_length(deals, seconds)
        else:
            data["round_seconds"] = None
        starts_at, ends_at = data.get("starts_at"), data.get("ends_at")
        if not ends_at:
            raise ValidationError(_("A tournament must end after it starts."))
        if starts_at and ends_at and ends_at <= starts_at:
            raise ValidationError(_("A tournament must end after it starts."))
        if ends_at and ends_at <= timezone.now():
            raise ValidationError(_("That window is already over."))
        return data


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    form = TournamentForm
    list_display = (
        "name",
        "ruleset",
        "format",
        "entry",
        "deal_count",
        "starts_at",
        "ends_at",
        "series",
    )
    list_filter = ("ruleset", "format", "entry")
    search_fields = ("name",)
    inlines = [InvitationInline]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A tournament's deals and window are fixed once made; only a superuser may edit.
        return bool(request.user.is_superuser) and super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        try:
            made = services.tournament_create(
                name=obj.name,
                ruleset=obj.ruleset,
                deal_count=obj.deal_count,
                starts_at=obj.starts_at,
                ends_at=obj.ends_at,
                format=obj.format,
                round_seconds=obj.round_seconds,
                entry=obj.entry,
                max_entrants=obj.max_entrants,
                created_by=request.user if request.user.is_authenticated else None,
            )
        except ActionRefused as error:
            raise ValidationError(error.messages) from error
        # The inlines (invitations) are saved against the tournament the service made.
        obj.pk = made.pk
        obj.created_at = made.created_at

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Invitation:
            super().save_formset(request, form, formset, change)
            return
        # New invitations go through the service, which notifies each invitee.
        invitations = formset.save(commit=False)
        for gone in formset.deleted_objects:
            gone.delete()
        for changed in (invitation for invitation in invitations if invitation.pk):
            changed.save()
        fresh = [invitation.user for invitation in invitations if not invitation.pk]
        services.tournament_invite(tournament=form.instance, users=fresh)


@admin.register(Entrant)
class EntrantAdmin(ReasonActionsMixin, admin.ModelAdmin[Entrant]):
    list_display = ("user", "tournament", "joined_at", "disqualified")
    list_filter = ("disqualified",)
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user", "tournament")
    readonly_fields = (
        "user",
        "tournament",
        "joined_at",
        "disqualified",
        "disqualified_reason",
    )
    reason_actions = (DISQUALIFY,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

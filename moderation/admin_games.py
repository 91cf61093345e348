"""The games' (Limes' and Winter's) and results' admin pages, with the moderators' hide
and unhide actions, and the list of suspicious results."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import rules
from games.admin import SeatInline
from games.models import SOLO_RATING_LABELS, Game, SoloResult
from games.policy import cards_visible, revealed_cards, sealed_from
from moderation import services as moderation
from moderation.admin_actions import ModelAdminBase, ReasonAction, ReasonActionsMixin
from moderation.models import SuspiciousResult
from moderation.selectors import (
    ABOVE_REFERENCE,
    BAND,
    BANDS_ABOVE_MEDIAN,
    MIN_EARLIER_RESULTS,
    results_unchecked,
    suspicious_results,
)
from wintergames.models import WinterGame, WinterSeat

RECOMPUTE_NOTE = _(
    "Multiplayer ratings are not changed by hiding or unhiding a game: run "
    "“python manage.py recompute_ratings” afterwards to recompute them without hidden games."
)
# Checking a result replays the reference player (a fraction of a second each), so one
# page view checks only this many; the check_results command does the rest.
CHECKS_PER_PAGE_VIEW = 10


def _is_multi(game: Game) -> bool:
    return game.mode == Game.Mode.MULTI


HIDE_GAME = ReasonAction(
    name="hide_games",
    label=_("Hide from leaderboards"),
    apply=lambda moderator, game, data: moderation.game_hide(
        moderator=moderator, game=game, reason=data["reason"]
    ),
    reason_help=_(
        "Kept in the audit log. The players are notified with this reason; the game stays "
        "on their pages, marked hidden."
    ),
    notes=(
        _("Nothing is deleted: the game and its results stay, but no board counts them."),
        RECOMPUTE_NOTE,
    ),
    shown_for=lambda game: not game.hidden,
    afterwards=(_is_multi, RECOMPUTE_NOTE),
)
UNHIDE_GAME = ReasonAction(
    name="unhide_games",
    label=_("Show on leaderboards again"),
    reason_required=False,
    apply=lambda moderator, game, data: moderation.game_unhide(
        moderator=moderator, game=game, reason=data["reason"]
    ),
    notes=(RECOMPUTE_NOTE,),
    shown_for=lambda game: game.hidden,
    afterwards=(_is_multi, RECOMPUTE_NOTE),
)
WINTER_RECOUNT_NOTE = _(
    "The Winter ratings are recomputed at once: without the game while it is hidden, with it "
    "again once it is shown."
)
HIDE_WINTER_GAME = replace(
    HIDE_GAME,
    label=_("Hide from the ratings and lists"),
    reason_help=_(
        "Kept in the audit log. The players are notified with this reason; the game stays "
        "in their own lists, and off everyone else's."
    ),
    notes=(
        _("Nothing is deleted: the game stays, but no rating counts it."),
        WINTER_RECOUNT_NOTE,
    ),
    afterwards=None,
)
UNHIDE_WINTER_GAME = replace(
    UNHIDE_GAME,
    label=_("Show in the ratings and lists again"),
    notes=(WINTER_RECOUNT_NOTE,),
    afterwards=None,
)
HIDE_RESULT = ReasonAction(
    name="hide_results",
    label=_("Hide result from leaderboards"),
    apply=lambda moderator, result, data: moderation.result_hide(
        moderator=moderator, result=result, reason=data["reason"]
    ),
    reason_help=_(
        "Kept in the audit log. The player is notified with this reason, and their game "
        "page marks the result hidden."
    ),
    notes=(_("Nothing is deleted: the result stays, but no board counts it."),),
    shown_for=lambda result: not result.hidden,
)
UNHIDE_RESULT = ReasonAction(
    name="unhide_results",
    label=_("Show result on leaderboards again"),
    reason_required=False,
    apply=lambda moderator, result, data: moderation.result_unhide(
        moderator=moderator, result=result, reason=data["reason"]
    ),
    shown_for=lambda result: result.hidden,
)


class ReadOnlyForModeratorsMixin(ModelAdminBase):
    """Moderators (staff who are not superusers) change these only through the actions."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_readonly_fields(request, obj))
        if request.user.is_superuser:
            return fields
        model = self.model
        hidden = {*fields, *(self.exclude or ())}
        return [*fields, *(f.name for f in model._meta.fields if f.name not in hidden)]


@admin.register(Game)
class GameAdmin(ReasonActionsMixin, ReadOnlyForModeratorsMixin, admin.ModelAdmin[Game]):
    list_display = (
        "id",
        "mode",
        "ruleset",
        "status",
        "round",
        "created_by",
        "created_at",
        "hidden",
    )
    list_filter = ("mode", "ruleset", "status", "hidden")
    search_fields = ("id", "seats__user__username")
    date_hierarchy = "created_at"
    raw_id_fields = ("created_by",)
    # The card sequence and seed decide the game; they are not edited by hand, and the
    # seed and the cards not yet revealed are shown to nobody, superusers included (a
    # moderator plays too, today's daily challenge among others). Hiding goes through the
    # actions so that it is logged and the boards follow.
    exclude = ("seed", "cards")
    readonly_fields = (
        "cards_revealed",
        "deck_name",
        "round",
        "created_at",
        "finished_at",
        "hidden",
        "hidden_reason",
    )
    inlines = [SeatInline]
    reason_actions = (HIDE_GAME, UNHIDE_GAME)

    @admin.display(description=_("cards revealed"))
    def cards_revealed(self, game: Game) -> str:
        return ", ".join(str(number) for number in revealed_cards(game)) or "–"

    @admin.display(description=_("cards revealed"))
    def cards_withheld(self, game: Game) -> str:
        return str(_("Hidden until your own attempt of this day is over, or the day is."))

    @admin.display(description=_("cards revealed"))
    def cards_sealed(self, game: Game) -> str:
        return str(_("Hidden until the tournament is over: only its player sees it until then."))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_readonly_fields(request, obj))
        # A daily challenge's cards are the day's, a tournament deal's the tournament's:
        # staff play them too.
        if obj is not None and not cards_visible(obj, request.user):
            hidden = "cards_sealed" if sealed_from(obj, request.user) else "cards_withheld"
            fields = [hidden if f == "cards_revealed" else f for f in fields]
        return fields


class WinterSeatInline(admin.TabularInline[WinterSeat, WinterGame]):
    model = WinterSeat
    fields = ("position", "user", "bot_level", "resigned", "score", "place")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WinterGame)
class WinterGameAdmin(ReasonActionsMixin, ReadOnlyForModeratorsMixin, admin.ModelAdmin[WinterGame]):
    """Carcassonne: Winter Edition games, with the moderators' hide and unhide actions."""

    list_display = ("id", "pace", "status", "created_by", "created_at", "finished_at", "hidden")
    list_filter = ("status", "pace", "hidden")
    search_fields = ("id", "seats__user__username")
    date_hierarchy = "created_at"
    raw_id_fields = ("created_by", "waiting_for", "rematch_of")
    # The seed deals the tiles: shown to nobody, as a Limes game's cards. Hiding goes
    # through the actions so that it is logged and the ratings follow.
    exclude = ("seed",)
    readonly_fields = ("version", "created_at", "finished_at", "hidden", "hidden_reason")
    inlines = [WinterSeatInline]
    reason_actions = (HIDE_WINTER_GAME, UNHIDE_WINTER_GAME)

    def view_on_site(self, obj: WinterGame) -> str:
        return reverse("winter:detail", args=[obj.pk])

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players open games on the site


class BandFilter(admin.SimpleListFilter):
    """The rulebook's solo bands, in words rather than stored slugs."""

    title = _("band")
    parameter_name = "rating"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(band.value, str(label)) for band, label in SOLO_RATING_LABELS.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(rating=self.value()) if self.value() else queryset


@admin.register(SoloResult)
class SoloResultAdmin(ReasonActionsMixin, ReadOnlyForModeratorsMixin, admin.ModelAdmin[SoloResult]):
    list_display = ("id", "user", "ruleset", "score", "band", "finished_at", "hidden")
    list_filter = ("ruleset", BandFilter, "hidden", "abandoned")
    search_fields = ("user__username",)
    raw_id_fields = ("game", "user")
    date_hierarchy = "finished_at"
    readonly_fields = ("hidden", "hidden_reason")
    reason_actions = (HIDE_RESULT, UNHIDE_RESULT)

    @admin.display(description=_("band"), ordering="rating")
    def band(self, result: SoloResult) -> str:
        return str(SOLO_RATING_LABELS[rules.SoloRating(result.rating)])


@admin.register(SuspiciousResult)
class SuspiciousResultAdmin(ReasonActionsMixin, admin.ModelAdmin[SuspiciousResult]):
    """Solo results that stand out, for a moderator to look at.

    The server computes every score, so a result here is not forged: it may be someone
    else playing on the account, a shared account, or a lucky game. Look before hiding.
    """

    list_display = (
        "id",
        "player",
        "ruleset",
        "score",
        "reference",
        "usual",
        "finished_at",
        "hidden",
        "replay",
    )
    list_display_links = None
    list_filter = ("ruleset", "hidden", "finished_at")
    search_fields = ("user__username",)
    reason_actions = (HIDE_RESULT, UNHIDE_RESULT)

    def get_queryset(self, request: HttpRequest) -> QuerySet[SoloResult]:
        return suspicious_results(SuspiciousResult.objects.all())

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method == "GET":
            moderation.result_checks_fill(limit=CHECKS_PER_PAGE_VIEW)
            waiting = results_unchecked().count()
            if waiting:
                self.message_user(
                    request,
                    ngettext(
                        "%(count)d result is not compared yet; reload, or run “python "
                        "manage.py check_results”.",
                        "%(count)d results are not compared yet; reload, or run “python "
                        "manage.py check_results”.",
                        waiting,
                    )
                    % {"count": waiting},
                    messages.WARNING,
                )
        extra_context = {
            **(extra_context or {}),
            "subtitle": _(
                "At least %(bands)d bands (%(points)d points) above the median of the "
                "player's earlier results (with %(min)d or more), or %(reference)d points "
                "above the reference player on the same cards."
            )
            % {
                "bands": BANDS_ABOVE_MEDIAN,
                "points": BANDS_ABOVE_MEDIAN * BAND,
                "min": MIN_EARLIER_RESULTS,
                "reference": ABOVE_REFERENCE,
            },
        }
        return super().changelist_view(request, extra_context)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("games.view_soloresult")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("games.change_soloresult")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)

    @admin.display(description=_("player"), ordering="user__username")
    def player(self, result: SoloResult) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:accounts_user_change", args=[result.user_id]),
            result.user.username,
        )

    @admin.display(description=_("reference player"))
    def reference(self, result: SoloResult) -> int:
        return result.moderation_check.reference_score

    @admin.display(description=_("player's usual (median of earlier)"))
    def usual(self, result: SoloResult) -> str:
        check = result.moderation_check
        if check.earlier_median is None:
            return "–"
        return f"{check.earlier_median:g} ({check.earlier_results})"

    @admin.display(description=_("game"))
    def replay(self, result: SoloResult) -> str:
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("admin:games_soloresult_change", args=[result.pk]),
            _("result"),
            reverse("games:replay", args=[result.game_id]),
            _("replay"),
        )

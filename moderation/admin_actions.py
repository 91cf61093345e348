"""Admin actions that ask for a reason first, then call a moderation service per object,
and the link to a game (of either kind) the moderators' pages show.

Used by the user, game, result and report admins: the same action serves the change list
(several objects) and a button on one object's page. Each object is its own transaction,
so one refusal (a player already banned, a result already hidden) does not undo the rest;
the moderator is told which ones failed and why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from moderation.forms import ReasonForm

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

Apply = Callable[[User, Any, dict[str, Any]], object]


@dataclass(frozen=True)
class ReasonAction:
    """One action: its label, its form, and the service call for one object."""

    name: str
    label: StrOrPromise
    apply: Apply
    form_class: type[forms.Form] = ReasonForm
    reason_required: bool = True
    #: What happens to the reason, under its field; the form's own text when empty.
    reason_help: StrOrPromise = ""
    #: Shown above the form, e.g. what else the moderator must do afterwards.
    notes: tuple[StrOrPromise, ...] = ()
    #: Shown on an object's page only when this says so (e.g. "Unban" for banned players).
    shown_for: Callable[[Any], bool] = field(default=lambda obj: True)
    #: Added to the success message when the predicate holds for any object acted upon.
    afterwards: tuple[Callable[[Any], bool], StrOrPromise] | None = None

    def as_admin_action(self) -> Callable[..., HttpResponse | None]:
        def action(
            modeladmin: admin.ModelAdmin[Any],
            request: AuthenticatedHttpRequest,
            queryset: QuerySet[Any],
        ) -> HttpResponse | None:
            return run(self, modeladmin, request, queryset)

        action.__name__ = self.name
        return admin.action(description=self.label, permissions=["change"])(action)


def run(
    spec: ReasonAction,
    modeladmin: admin.ModelAdmin[Any],
    request: AuthenticatedHttpRequest,
    queryset: QuerySet[Any],
) -> HttpResponse | None:
    """Show the reason form; once it is sent and valid, act on each object."""
    kwargs: dict[str, Any] = {}
    if issubclass(spec.form_class, ReasonForm):
        kwargs["required"] = spec.reason_required
        if spec.reason_help:
            kwargs["help_text"] = spec.reason_help
    objects = list(queryset)
    if "apply" in request.POST:
        form = spec.form_class(request.POST, **kwargs)
        if form.is_valid():
            _apply_all(spec, modeladmin, request, objects, form.cleaned_data)
            return None
    else:
        form = spec.form_class(**kwargs)
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": spec.label,
        "spec": spec,
        "objects": objects,
        "form": form,
        "opts": opts,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "changelist_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
    }
    return TemplateResponse(request, "moderation/admin/action_form.html", context)


def _apply_all(
    spec: ReasonAction,
    modeladmin: admin.ModelAdmin[Any],
    request: AuthenticatedHttpRequest,
    objects: Iterable[Model],
    data: dict[str, Any],
) -> None:
    done: list[Model] = []
    for obj in objects:
        try:
            spec.apply(request.user, obj, data)
        except (ValidationError, PermissionDenied) as error:
            modeladmin.message_user(request, f"{obj}: {describe_error(error)}", messages.ERROR)
        else:
            done.append(obj)
    if done:
        message = ngettext(
            "%(action)s: done for %(count)d item.",
            "%(action)s: done for %(count)d items.",
            len(done),
        ) % {"action": spec.label, "count": len(done)}
        if spec.afterwards and any(spec.afterwards[0](obj) for obj in done):
            message = f"{message} {spec.afterwards[1]}"
        modeladmin.message_user(request, message, messages.SUCCESS)


# Mixins over ModelAdmin: its methods to the type checker, a plain object at run time.
if TYPE_CHECKING:
    ModelAdminBase = admin.ModelAdmin[Any]
else:
    ModelAdminBase = object


class ReasonActionsMixin(ModelAdminBase):
    """Adds the ``reason_actions`` of a ModelAdmin to its actions and to its objects' pages."""

    reason_actions: tuple[ReasonAction, ...] = ()
    change_form_template = "moderation/admin/change_form.html"

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions: dict[str, Any] = super().get_actions(request)
        if self.has_change_permission(request):
            for spec in self.reason_actions:
                actions[spec.name] = (spec.as_admin_action(), spec.name, spec.label)
        return actions

    def get_urls(self) -> list[Any]:
        opts = self.model._meta
        view = self.admin_site.admin_view(self.reason_action_view)
        own = [
            path(
                "<path:object_id>/moderate/<str:action>/",
                view,
                name=f"{opts.app_label}_{opts.model_name}_moderate",
            )
        ]
        return own + super().get_urls()

    def reason_action_view(
        self, request: AuthenticatedHttpRequest, object_id: str, action: str
    ) -> HttpResponse:
        """One action on one object, from the button on its page."""
        spec = next((s for s in self.reason_actions if s.name == action), None)
        queryset = self.get_queryset(request)
        # The admin's own lookup: an id that is not one (letters, NUL) finds nothing.
        obj = self.get_object(request, object_id)
        if obj is None:
            raise Http404(_("No such object."))
        if spec is None or not self.has_change_permission(request, obj):
            raise PermissionDenied
        response = run(spec, self, request, queryset.filter(pk=obj.pk))
        if response is not None:
            return response
        opts = self.model._meta
        return HttpResponseRedirect(
            reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra_context = dict(extra_context or {})
        obj = self.get_object(request, object_id)
        if obj is not None and self.has_change_permission(request, obj):
            opts = self.model._meta
            extra_context["reason_buttons"] = [
                (
                    reverse(
                        f"admin:{opts.app_label}_{opts.model_name}_moderate",
                        args=[obj.pk, spec.name],
                    ),
                    spec.label,
                )
                for spec in self.reason_actions
                if spec.shown_for(obj)
            ]
        return super().change_view(request, object_id, form_url, extra_context)


def describe_error(error: ValidationError | PermissionDenied) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(error.messages)
    return str(error) or _("You are not allowed to do this.")


def game_link(game_id: int | None, winter_game_id: int | None = None) -> str:
    """The game's admin page, and its page on the site beside it: a Limes game, or a
    Winter game (named as such)."""
    if game_id is not None:
        admin_url, page_url = "admin:games_game_change", "games:detail"
        label = f"#{game_id}"
    elif winter_game_id is not None:
        game_id = winter_game_id
        admin_url, page_url = "admin:wintergames_wintergame_change", "winter:detail"
        label = _("Winter #%(number)d") % {"number": game_id}
    else:
        return "–"
    return format_html(
        '<a href="{}">{}</a> (<a href="{}">{}</a>)',
        reverse(admin_url, args=[game_id]),
        label,
        reverse(page_url, args=[game_id]),
        _("page"),
    )

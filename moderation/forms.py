from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from moderation.models import REASON_MAX_LENGTH, REPORT_TEXT_MAX_LENGTH, Report


class ReportForm(forms.Form):
    """A player's report about another player."""

    category = forms.ChoiceField(
        label=_("What is wrong?"), choices=Report.Category.choices, widget=forms.RadioSelect
    )
    text = forms.CharField(
        label=_("What happened"),
        help_text=format_lazy(
            _("Say what you saw, where and when: between 10 and {max} characters."),
            max=REPORT_TEXT_MAX_LENGTH,
        ),
        min_length=10,
        max_length=REPORT_TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 6}),
    )


class UsernameForm(forms.Form):
    """The new name of a player whose name a moderator reset."""

    username = forms.CharField(
        label=_("New username"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )


# The admin's intermediate pages


class ReasonForm(forms.Form):
    """Why a moderator takes an action; the audit log keeps it."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the audit log. Players see the reason of a ban."),
    )

    def __init__(
        self, *args: Any, required: bool = True, help_text: StrOrPromise = "", **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = required
        if help_text:
            self.fields["reason"].help_text = help_text


class BanForm(ReasonForm):
    """A ban's reason and end; no end means a permanent ban."""

    DURATIONS = [
        ("", _("Permanent, or until the date below")),
        ("1", _("1 day")),
        ("7", _("7 days")),
        ("30", _("30 days")),
        ("365", _("1 year")),
    ]

    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("The player sees it when they try to sign in. Kept in the audit log."),
    )
    duration = forms.ChoiceField(label=_("Length"), choices=DURATIONS, required=False)
    until = forms.DateTimeField(
        label=_("Or until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Server time (UTC). Leave both empty for a permanent ban."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        duration, until = data.get("duration"), data.get("until")
        if duration and until:
            raise forms.ValidationError(_("Choose a length or a date, not both."))
        if duration:
            data["until"] = timezone.now() + datetime.timedelta(days=int(duration))
        elif until is not None and until <= timezone.now():
            self.add_error("until", _("The end of the ban must lie in the future."))
        return data


class MuteForm(ReasonForm):
    """How long a player stays out of the chat, and why."""

    DURATIONS = [
        ("1", _("1 hour")),
        ("24", _("1 day")),
        ("168", _("7 days")),
        ("720", _("30 days")),
    ]

    hours = forms.TypedChoiceField(label=_("Length"), choices=DURATIONS, coerce=int, initial="24")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        if data.get("hours"):
            data["until"] = timezone.now() + datetime.timedelta(hours=data["hours"])
        return data

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import BIO_MAX_LENGTH, PUSH_ENDPOINT_MAX_LENGTH, User
from accounts.notifications import CHANNELS, CHOOSABLE, Channel


class ProfileForm(forms.Form):
    """The parts of a player's profile other players see."""

    bio = forms.CharField(
        label=_("About you"),
        help_text=format_lazy(
            _("Shown on your public profile. At most {max} characters."), max=BIO_MAX_LENGTH
        ),
        max_length=BIO_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
    )
    move_sound = forms.BooleanField(
        label=_("Play a sound when a game waits for my move"),
        required=False,
    )


class DeleteAccountForm(forms.Form):
    """Asks the player to type their username, so an account is never deleted by a slip."""

    confirm_username = forms.CharField(
        label=_("Type your username to confirm"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_confirm_username(self) -> str:
        typed: str = self.cleaned_data["confirm_username"].strip()
        if typed != self.user.username:
            raise forms.ValidationError(
                _("That is not your username. Your account was not deleted."),
                code="mismatch",
            )
        return typed


class VacationForm(forms.Form):
    """The last day of a vacation that starts now.

    Only ``YYYY-MM-DD`` in ASCII digits parses (what a date input sends); anything else,
    a year past 9999, a NUL or digits of another script, is "Enter a valid date".
    """

    until = forms.DateField(
        label=_("On vacation until (the end of this day, UTC)"),
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


def preference_field_name(event: str, channel: str) -> str:
    """The name of the checkbox of ``event`` by ``channel`` in the settings' table."""
    return f"{event}__{channel}"


class NotificationPreferencesForm(forms.Form):
    """The table of notifications: one checkbox per event and channel it can go by."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for event in CHOOSABLE:
            for channel in CHANNELS[event]:
                self.fields[preference_field_name(event.value, channel.value)] = forms.BooleanField(
                    label=format_lazy(
                        "{event}: {channel}", event=event.label, channel=channel.label
                    ),
                    required=False,
                )

    def choices(self) -> dict[tuple[str, str], bool]:
        """The cleaned choices, keyed by (event, channel)."""
        return {
            (event.value, channel.value): bool(
                self.cleaned_data[preference_field_name(event.value, channel.value)]
            )
            for event in CHOOSABLE
            for channel in CHANNELS[event]
        }

    def rows(self) -> list[tuple[str, list[forms.BoundField | None]]]:
        """The table's rows: each event's label and a cell per channel (None: not offered)."""
        return [
            (
                str(event.label),
                [
                    self[preference_field_name(event.value, channel.value)]
                    if channel in CHANNELS[event]
                    else None
                    for channel in Channel
                ],
            )
            for event in CHOOSABLE
        ]


class PushSubscriptionForm(forms.Form):
    """A device's push subscription as its browser gives it (``PushSubscription.toJSON``)."""

    endpoint = forms.CharField(max_length=PUSH_ENDPOINT_MAX_LENGTH)
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=50)
    label = forms.CharField(max_length=100, required=False)

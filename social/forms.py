"""Forms of the friends page: a challenge's game, rules and pace; a chat message."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import duration_label_lazy
from games.models import Game
from games.services import DEFAULT_ROUND_SECONDS, ROUND_SECONDS
from social.models import CHAT_MESSAGE_MAX_LENGTH, GameKind
from social.services import ChallengeTerms
from wintergames.models import WinterGame


def _pace_of(seconds: int) -> str:
    return next(pace for pace, offered in ROUND_SECONDS.items() if seconds in offered)


class ChallengeForm(forms.Form):
    """The game a friend is challenged to: Limes (time per round, which says the pace, and
    variants) or Carcassonne: Winter Edition (pace, farmers, table aids)."""

    # Without it (a form of before Winter's time): Limes.
    kind = forms.ChoiceField(
        label=_("Game"), choices=GameKind.choices, initial=GameKind.LIMES, required=False
    )
    round_seconds = forms.TypedChoiceField(
        label=_("Time per round"),
        choices=[
            (
                Game.Pace(pace).label,
                [(seconds, duration_label_lazy(seconds)) for seconds in offered],
            )
            for pace, offered in ROUND_SECONDS.items()
        ],
        coerce=int,
        initial=DEFAULT_ROUND_SECONDS[Game.Pace.LIVE],
        required=False,
    )
    diagonal = forms.BooleanField(label=_("Diagonal placement"), required=False)
    ferryman = forms.BooleanField(label=_("Fisherman as ferryman"), required=False)
    winter_pace = forms.ChoiceField(
        label=_("Pace"),
        choices=WinterGame.Pace.choices,
        initial=WinterGame.Pace.LIVE,
        required=False,
    )
    farmers = forms.BooleanField(label=_("With farmers"), required=False, initial=True)
    aids = forms.BooleanField(label=_("Table aids"), required=False, initial=True)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        kind = cleaned.get("kind") or GameKind.LIMES
        cleaned["kind"] = kind
        if kind == GameKind.LIMES and not cleaned.get("round_seconds"):
            raise forms.ValidationError(_("Choose the time per round from the list."))
        if kind == GameKind.WINTER and not cleaned.get("winter_pace"):
            raise forms.ValidationError(_("Choose the game's pace."))
        return cleaned

    def refusal(self) -> str:
        """What is wrong with the invalid form, in a sentence."""
        if self.non_field_errors():
            return str(self.non_field_errors()[0])
        if "round_seconds" in self.errors:
            return str(_("Choose the time per round from the list."))
        if "winter_pace" in self.errors:
            return str(_("Choose the game's pace."))
        return str(_("The form could not be read."))

    def terms(self) -> ChallengeTerms:
        """The game the valid form asks for."""
        data = self.cleaned_data
        if data["kind"] == GameKind.WINTER:
            return ChallengeTerms(
                kind=GameKind.WINTER,
                pace=data["winter_pace"],
                farmers=data["farmers"],
                aids=data["aids"],
            )
        return ChallengeTerms(
            pace=_pace_of(data["round_seconds"]),
            round_seconds=data["round_seconds"],
            diagonal=data["diagonal"],
            ferryman=data["ferryman"],
        )


class ChatForm(forms.Form):
    """A chat message: text, or one of the quick phrases (its button's value)."""

    text = forms.CharField(
        label=_("Message"), max_length=CHAT_MESSAGE_MAX_LENGTH, required=False, strip=False
    )
    phrase = forms.CharField(max_length=16, required=False)

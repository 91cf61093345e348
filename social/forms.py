"""Forms of the friends page: a challenge's rules and pace, the e-mail choices."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import duration_label_lazy
from games.models import Game
from games.services import DEFAULT_ROUND_SECONDS, ROUND_SECONDS
from social.models import CHAT_MESSAGE_MAX_LENGTH


def _pace_of(seconds: int) -> str:
    return next(pace for pace, offered in ROUND_SECONDS.items() if seconds in offered)


class ChallengeForm(forms.Form):
    """The game a friend is challenged to: time per round (which says the pace), variants."""

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
    )
    diagonal = forms.BooleanField(label=_("Diagonal placement"), required=False)
    ferryman = forms.BooleanField(label=_("Fisherman as ferryman"), required=False)

    @property
    def pace(self) -> str:
        return _pace_of(self.cleaned_data["round_seconds"])


class ChatForm(forms.Form):
    """A chat message: text, or one of the quick phrases (its button's value)."""

    text = forms.CharField(
        label=_("Message"), max_length=CHAT_MESSAGE_MAX_LENGTH, required=False, strip=False
    )
    phrase = forms.CharField(max_length=16, required=False)

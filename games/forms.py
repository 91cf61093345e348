from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, Game, Ruleset, duration_label
from games.selectors import GameFilter
from games.services import DEFAULT_ROUND_SECONDS, MAX_SEATS, ROUND_SECONDS

# The choices are built once, at import: their labels must wait for the reader's language.
duration_label_lazy = lazy(duration_label, str)


class NewGameForm(forms.Form):
    diagonal = forms.BooleanField(
        label=_("Diagonal placement"),
        required=False,
        help_text=_("A card may touch the landscape at a corner only."),
    )
    ferryman = forms.BooleanField(
        label=_("Fisherman as ferryman"),
        required=False,
        help_text=_("A worker may cross a water region that holds a fisherman."),
    )


class NewMultiGameForm(NewGameForm):
    """A game for several players: seats, pace, time per round, lobby or invitation."""

    seats_max = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(2, 9)],
        coerce=int,
        initial=2,
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=[
            (Game.Pace.LIVE, _("Live: a few minutes a round")),
            (Game.Pace.CORRESPONDENCE, _("Correspondence: days a round, with email reminders")),
        ],
        initial=Game.Pace.LIVE,
        widget=forms.RadioSelect,
    )
    live_seconds = forms.TypedChoiceField(
        label=_("Time per round (live)"),
        choices=[(s, duration_label_lazy(s)) for s in ROUND_SECONDS[Game.Pace.LIVE]],
        coerce=int,
        initial=DEFAULT_ROUND_SECONDS[Game.Pace.LIVE],
    )
    correspondence_seconds = forms.TypedChoiceField(
        label=_("Time per round (correspondence)"),
        choices=[(s, duration_label_lazy(s)) for s in ROUND_SECONDS[Game.Pace.CORRESPONDENCE]],
        coerce=int,
        initial=DEFAULT_ROUND_SECONDS[Game.Pace.CORRESPONDENCE],
    )
    listed = forms.BooleanField(
        label=_("Open in the lobby"),
        required=False,
        initial=True,
        help_text=_("Otherwise only players with the invitation link or code can join."),
    )

    bots = forms.TypedChoiceField(
        label=_("Computer players"),
        choices=[(n, str(n)) for n in range(MAX_SEATS)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=None,
        help_text=_("They play each round at once. A game with computer players is not rated."),
    )
    bot_level = forms.ChoiceField(
        label=_("Their level"),
        choices=BotLevel.choices_with_scores,
        initial=BotLevel.REFERENCE,
        required=False,
    )

    @property
    def bot_levels(self) -> list[str]:
        """The level of each computer seat to open the game with."""
        level = self.cleaned_data["bot_level"] or BotLevel.REFERENCE
        return [level] * int(self.cleaned_data["bots"] or 0)

    @property
    def round_seconds(self) -> int:
        """The time per round for the chosen pace."""
        if self.cleaned_data["pace"] == Game.Pace.LIVE:
            return int(self.cleaned_data["live_seconds"])
        return int(self.cleaned_data["correspondence_seconds"])


class JoinByCodeForm(forms.Form):
    code = forms.CharField(label=_("Invitation code"), max_length=16)

    def clean_code(self) -> str:
        code = str(self.cleaned_data["code"]).strip().upper().replace(" ", "")
        # Codes are made of ASCII letters and digits; anything else cannot be one (and
        # would not fit in the invitation's address).
        if not (code.isascii() and code.isalnum()):
            raise forms.ValidationError(_("An invitation code has only letters and digits."))
        return code


class AddBotForm(forms.Form):
    level = forms.ChoiceField(
        label=_("Level"), choices=BotLevel.choices_with_scores, initial=BotLevel.REFERENCE
    )


class MyGamesFilterForm(forms.Form):
    """My games' filters, read from the address (GET): every field may be left empty."""

    mode = forms.ChoiceField(
        label=_("Mode"),
        required=False,
        choices=[("", _("Any")), *Game.Mode.choices],
    )
    rules = forms.ChoiceField(
        label=_("Rules"),
        required=False,
        choices=[("", _("Any")), *Ruleset.choices],
    )
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)
    tournament = forms.ChoiceField(
        label=_("Tournament"),
        required=False,
        choices=[("", _("Any")), ("yes", _("Tournament games")), ("no", _("Other games"))],
    )

    def filters(self) -> GameFilter:
        """The filters of the fields that are valid; an invalid one filters nothing."""
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        tournament = data.get("tournament") or ""
        return GameFilter(
            mode=data.get("mode") or "",
            ruleset=data.get("rules") or "",
            opponent=data.get("opponent") or "",
            tournament={"yes": True, "no": False}.get(tournament),
        )

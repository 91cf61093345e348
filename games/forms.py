from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


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

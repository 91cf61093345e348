from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from api.models import TOKEN_NAME_MAX_LENGTH


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=TOKEN_NAME_MAX_LENGTH,
        help_text=_("What the token is for (a script, a website), so you can tell it apart."),
    )

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip()
        if not name.isprintable():
            raise forms.ValidationError(_("Use letters, digits and spaces."))
        return name

"""The game's things by name, in the site's languages: for the pages and the lessons alike.

Not a page module: what a page, a lesson or a mail says of a terrain comes from here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

import rules

TERRAIN_NAMES = {
    rules.Terrain.FIELD: gettext_lazy("field"),
    rules.Terrain.WATER: gettext_lazy("water"),
    rules.Terrain.FOREST: gettext_lazy("forest"),
    rules.Terrain.TOWER: gettext_lazy("tower"),
}

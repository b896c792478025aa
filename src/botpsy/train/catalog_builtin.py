"""Every built-in recipe of the tool catalog, gathered from the ``catalog_*`` modules.

A module of its own because those modules build their recipes with ``botpsy.train.catalog``:
gathering them there would make the catalog import the modules that import it.
"""

from __future__ import annotations

from botpsy.train.catalog import ToolRecipe
from botpsy.train.catalog_assistant import RECIPES as ASSISTANT
from botpsy.train.catalog_personal import RECIPES as PERSONAL
from botpsy.train.catalog_science import RECIPES as SCIENCE
from botpsy.train.catalog_services import RECIPES as SERVICES
from botpsy.train.catalog_software import RECIPES as SOFTWARE


def builtin_recipes() -> list[ToolRecipe]:
    """Every built-in recipe: the ten assistant domains (with the on-device assistant's own
    tools), the science calculators and the software domain's SDK methods."""
    return [factory() for factory in PERSONAL + ASSISTANT + SERVICES + SCIENCE + SOFTWARE]

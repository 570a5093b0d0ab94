"""Importing this package registers every declared data set: each module here is one family's.

The modules are found, not listed, so that a new family's declarations are one new file.
"""

import importlib
import pkgutil

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")

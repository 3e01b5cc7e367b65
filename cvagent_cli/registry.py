"""Folders of one module each (the export templates, the languages): a module defines one
object under a known name, and the folder's registry finds every module, so adding one is
adding a file."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def find_in_package(
    path: Iterable[str],
    package: str,
    attribute: str,
    kind: type[T],
    key: Callable[[T], str],
    first: str,
) -> dict[str, T]:
    """The ``attribute`` of every module of ``package`` (at ``path``), by ``key``: ``first``
    first and the rest in order; a module's name must be its object's key."""
    found: dict[str, T] = {}
    for module in pkgutil.iter_modules(path):
        value = getattr(importlib.import_module(f"{package}.{module.name}"), attribute)
        if not isinstance(value, kind) or key(value) != module.name:
            raise TypeError(
                f"{package}.{module.name}.{attribute} is not {kind.__name__}('{module.name}')"
            )
        found[key(value)] = value
    return {name: found[name] for name in sorted(found, key=lambda n: (n != first, n))}

"""``cached_property`` without the lock Python 3.11's takes on every first access.

``functools.cached_property`` in 3.8–3.11 holds a per-property ``RLock`` while it computes
(3.12 dropped it as a mistake): ~0.5 µs of a first access that costs ~0.2 µs without it.
The analyzer reads a few cached values of every bullet of every resume, and nothing here
is shared between threads while it is being computed, so the lock buys nothing.  Same
contract otherwise: computed on first access, stored in the instance ``__dict__`` (which
then shadows this non-data descriptor), so it works on frozen dataclasses too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class cached_property(Generic[T]):
    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.attrname = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.attrname = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached_property[T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.attrname] = value
        return value

"""One context-manager protocol for everything that holds a resource open (a database, a file,
model clients): ``with X(...) as x:`` calls ``x.close()`` on the way out, whatever happened."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self

__all__ = ["Closing"]


class Closing(ABC):
    """Base of the closeable classes: implement ``close``; ``with`` comes with it."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

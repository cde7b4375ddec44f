"""Status codes to exceptions, and the pending exceptions of Python callbacks.

Codes map to Python's own exceptions where they fit: AMBER_NOT_FOUND is a KeyError,
AMBER_TYPE_MISMATCH a TypeError, AMBER_INVALID_ARGUMENT a ValueError; each is also an AmberError
carrying the code and amber_error_last()'s message. The other codes are AmberError subclasses.

An exception raised inside a Python callback is caught by the trampoline that called it, kept
in a per-thread list, and reported to Amber as a non-zero code (``status_code``) with its type and
text as the message (``describe``). The caller of the C call that led to the callback then
re-raises it (the same object, with its traceback: see ``callbacks_raised``), or reports it where
C reports the code (a launch's report, a preservation's entry).
"""
from __future__ import annotations

import threading
from types import TracebackType
from typing import Any, Dict, List, Optional, Sequence, Tuple, Type

OK = 0
INVALID_ARGUMENT = 1
NOT_FOUND = 2
TYPE_MISMATCH = 3
RESERVED_KEY = 4
DUPLICATE = 5
IO = 6
CORRUPT = 7
KEY_UNAVAILABLE = 8
AUTHENTICATION_FAILED = 9
LIMIT_EXCEEDED = 10
MISUSE = 11
CALLBACK_FAILED = 12

#: The largest code a C int holds (amber_status travels as an int).
INT_MAX = 2**31 - 1


class AmberError(Exception):
    """A failure reported by libamber. ``code`` is the amber_status, ``status`` its name,
    ``message`` the text of amber_error_last()."""

    code: int = -1

    def __init__(self, message: str = "", code: Optional[int] = None, status: str = ""):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.status = status
        self.message = message

    def __str__(self) -> str:  # KeyError would repr() its argument; keep the message readable
        return f"{self.status}: {self.message}" if self.status else self.message


class InvalidArgumentError(AmberError, ValueError):
    """AMBER_INVALID_ARGUMENT: a bad argument (also a ValueError)."""
    code = INVALID_ARGUMENT


class NotFoundError(AmberError, KeyError):
    """AMBER_NOT_FOUND: no such key, class, object, archive or record (also a KeyError)."""
    code = NOT_FOUND


class TypeMismatchError(AmberError, TypeError):
    """AMBER_TYPE_MISMATCH: a value of another type than asked for (also a TypeError)."""
    code = TYPE_MISMATCH


class ReservedKeyError(AmberError):
    """AMBER_RESERVED_KEY: a key the engine keeps for itself (R7)."""
    code = RESERVED_KEY


class DuplicateError(AmberError):
    """AMBER_DUPLICATE: a name registered twice, a key written twice."""
    code = DUPLICATE


class AmberIOError(AmberError, OSError):
    """AMBER_IO: the file system refused (also an OSError)."""
    code = IO

    def __init__(self, message: str = "", code: Optional[int] = None, status: str = ""):
        AmberError.__init__(self, message, code, status)

    def __str__(self) -> str:
        return AmberError.__str__(self)


class CorruptError(AmberError):
    """AMBER_CORRUPT: a damaged archive, or not an Amber archive."""
    code = CORRUPT


class KeyUnavailableError(AmberError):
    """AMBER_KEY_UNAVAILABLE: the key provider cannot give the key now (device locked). A key
    provider raises it to say so."""
    code = KEY_UNAVAILABLE


class AuthenticationError(AmberError):
    """AMBER_AUTHENTICATION_FAILED: tampered, or the wrong key."""
    code = AUTHENTICATION_FAILED


class LimitExceededError(AmberError):
    """AMBER_LIMIT_EXCEEDED: a limit on size, count, length or nesting (R22)."""
    code = LIMIT_EXCEEDED


class MisuseError(AmberError):
    """AMBER_MISUSE: a call at the wrong moment (a closed handle, a coder kept past its callback,
    a transition that is not allowed)."""
    code = MISUSE


class CallbackFailedError(AmberError):
    """AMBER_CALLBACK_FAILED, or a code a callback returned that Amber passed up."""
    code = CALLBACK_FAILED


_BY_CODE: Dict[int, Type[AmberError]] = {cls.code: cls for cls in (
    InvalidArgumentError, NotFoundError, TypeMismatchError, ReservedKeyError, DuplicateError, AmberIOError,
    CorruptError, KeyUnavailableError, AuthenticationError, LimitExceededError, MisuseError,
    CallbackFailedError)}


def error_for(code: int, message: str, status: str) -> AmberError:
    """The exception for a status code."""
    cls = _BY_CODE.get(code, CallbackFailedError)
    return cls(message, code, status)


# ---- exceptions of callbacks ------------------------------------------------------------------

class _Pending(threading.local):
    def __init__(self) -> None:
        self.items: List[BaseException] = []
        # Beside each item, what failed, when the caller may report it rather than raise it: the
        # object whose encode callback raised (a preservation leaves it out and goes on, R28).
        self.sources: List[Any] = []


_pending = _Pending()


def status_code(code: object) -> int:
    """The code to give Amber for a failure a callback reports with ``code`` (a code it returned,
    or an AmberError's): ``code`` itself when it is an int from 1 to INT_MAX, else
    AMBER_CALLBACK_FAILED. ctypes would pass a larger int cut to its low 32 bits, so that 2**32
    would reach Amber as 0, success, and a half-done step would count as done; 0 and below are
    not failures' codes (an AmberError without a code of its own has -1)."""
    if isinstance(code, int) and not isinstance(code, bool) and 0 < code <= INT_MAX:
        return code
    return CALLBACK_FAILED


def describe(error: BaseException) -> str:
    """What Amber is told of an exception a callback raised: its type and its text
    ("LookupError: no title"), the type alone when it has no text."""
    try:
        text = error.message if isinstance(error, AmberError) else str(error)
    except Exception:  # a __str__ that fails: the type alone still says what was raised
        text = ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def callback_failed(error: BaseException, source: Any = None) -> int:
    """Called by a trampoline that caught ``error``: keeps it for the caller and returns the code
    to give Amber (an AmberError's own code, else AMBER_CALLBACK_FAILED: see ``status_code``).
    ``source``: the object whose encode callback raised it (see ``take_all``)."""
    _pending.items.append(error)
    _pending.sources.append(source)
    return status_code(error.code) if isinstance(error, AmberError) else CALLBACK_FAILED


def mark() -> int:
    """Where the pending list stands before a C call that may call back."""
    return len(_pending.items)


def take_all(since: int) -> List[Tuple[BaseException, Any]]:
    """Removes the exceptions raised in callbacks since ``since`` and returns them with their
    sources, in the order they were raised."""
    items = _pending.items
    if len(items) <= since:
        return []
    raised = list(zip(items[since:], _pending.sources[since:]))
    del items[since:]
    del _pending.sources[since:]
    return raised


def first(raised: Sequence[BaseException]) -> Optional[BaseException]:
    """The first of ``raised``, with a note naming the others (None if there are none)."""
    if not raised:
        return None
    first = raised[0]
    if len(raised) > 1 and hasattr(first, "add_note"):
        for other in raised[1:]:
            first.add_note(f"amber: another callback raised during the same call: {type(other).__name__}: {other}")
    return first


def take(since: int) -> Optional[BaseException]:
    """Removes the exceptions raised in callbacks since ``since`` and returns the first, with a
    note naming the others (None if there were none)."""
    return first([error for error, _ in take_all(since)])


class callbacks_raised:
    """Runs C calls that may call back into Python (``with callbacks_raised(): lib.amber_...()``):
    an exception a callback raised during them is re-raised when the block ends (the first one,
    the others noted on it), chained onto the status error that errcheck raised, if any."""
    __slots__ = ("since",)

    def __enter__(self) -> "callbacks_raised":
        self.since = mark()
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        error = take(self.since)
        if error is not None:
            if value is not None and error is not value:
                error.__context__ = value
            raise error

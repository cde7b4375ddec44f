"""The application around the engine: notifications and their user info (R24), application
directories and atomic data files (R27): the app section of the header (amber/app.h). The
lifecycle itself (R23) is Engine.transition and Engine.state."""
from __future__ import annotations

import enum
from ctypes import byref, c_char_p
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Union

from . import _errors as E
from . import _ffi
from ._ffi import load
from .values import c_text, fill_value, py_text, read_value, take_bytes, take_text


class Notifications:
    """The names of the engine's own notifications (R24)."""
    DID_FINISH_LAUNCHING = "AmberApplicationDidFinishLaunchingNotification"
    WILL_RESIGN_ACTIVE = "AmberApplicationWillResignActiveNotification"
    DID_BECOME_ACTIVE = "AmberApplicationDidBecomeActiveNotification"
    DID_ENTER_BACKGROUND = "AmberApplicationDidEnterBackgroundNotification"
    WILL_ENTER_FOREGROUND = "AmberApplicationWillEnterForegroundNotification"
    WILL_TERMINATE = "AmberApplicationWillTerminateNotification"
    DID_RECEIVE_MEMORY_WARNING = "AmberApplicationDidReceiveMemoryWarningNotification"


class Notification(NamedTuple):
    """A notification delivered to an observer (R24): its name, its sender (the Engine for the
    engine's own; the object given to post_notification; None) and its user info as a dict."""
    name: str
    sender: Any
    user_info: Dict[str, Any]


#: What a user info holds.
UserInfoValue = Union[bool, int, float, str, bytes]


def read_user_info(info: _ffi.UserInfoP) -> Dict[str, Any]:
    """A user info's values, all read in one call (amber_user_info_values, AMBER_VALUE_ANY)."""
    lib = load()
    result: Dict[str, Any] = {}
    count = int(lib.amber_user_info_count(info))
    if not count:
        return result
    values = (_ffi.KeyedValue * count)()
    key = c_char_p()
    for i, slot in enumerate(values):
        lib.amber_user_info_key_at(byref(key), info, i)
        slot.key = key.value
        slot.type = _ffi.VALUE_ANY
    lib.amber_user_info_values(values, count, info)
    for slot in values:
        if slot.found:  # always, but for a key gone since key_at
            result[slot.key.decode("utf-8", "surrogateescape")] = read_value(slot)
    return result


def make_user_info(values: Mapping[str, UserInfoValue]) -> _ffi.UserInfoP:
    """A new user info holding ``values``, set in one call (amber_user_info_set_values)."""
    lib = load()
    items = list(values.items())
    array = (_ffi.KeyedValue * len(items))()
    keep: List[Any] = []
    for slot, (key, value) in zip(array, items):
        slot.key = c_text(key)
        if not isinstance(value, (bool, int, float, str, bytes, bytearray, memoryview)):
            raise TypeError(f"a user info holds bool, int, float, str or bytes, not {type(value).__name__}")
        fill_value(slot, key, value, keep)
    info = _ffi.UserInfoP()
    lib.amber_user_info_new(byref(info))
    try:
        lib.amber_user_info_set_values(info, array, len(items))
    except BaseException:
        lib.amber_user_info_free(info)
        raise
    return info


class ObserverHolder(_ffi.Holder):
    """The context of an observer: its callback, and ``sender``, which gives the object a
    notification's sender pointer stands for (the engine knows which objects it gave as senders)."""
    __slots__ = ("fn", "sender", "token")

    def __init__(self, fn: Callable[[Notification], Optional[int]], sender: Callable[[Optional[int]], Any]):
        self.fn = fn
        self.sender = sender
        self.token = 0

    def c_notify(self, note_h: _ffi.NotificationP) -> int:
        lib = load()
        sender = self.sender(lib.amber_notification_sender(note_h))
        note = Notification(py_text(lib.amber_notification_name(note_h)) or "", sender,
                            read_user_info(lib.amber_notification_user_info(note_h)))
        result = self.fn(note)
        if not isinstance(result, int) or isinstance(result, bool) or result == 0:
            return 0
        return E.status_code(result)


# ---- directories and files (R27) ---------------------------------------------------------------

class Directory(enum.IntEnum):
    """An application directory (amber_directory, R27)."""
    DOCUMENTS = 0
    CACHES = 1
    PREFERENCES = 2
    TEMPORARY = 3


def app_directory(app_id: str, directory: Directory) -> str:
    """Resolves (and creates, mode 0700) one of an application's directories on the XDG
    conventions (R27)."""
    out = _ffi.Buf()
    load().amber_app_directory(byref(out), c_text(app_id), int(directory))
    return take_text(out)


def write_file_atomic(path: str, data: Union[bytes, bytearray, memoryview]) -> None:
    """Replaces a file with ``data`` atomically and durably (write, fsync, rename, directory
    fsync), mode 0600 (R27)."""
    data = bytes(data)
    load().amber_file_write_atomic(c_text(path), data, len(data))


def read_file(path: str) -> bytes:
    """Reads a whole file (up to 1 GiB); KeyError (NotFoundError) if there is none."""
    out = _ffi.Buf()
    load().amber_file_read(byref(out), c_text(path))
    return take_bytes(out)

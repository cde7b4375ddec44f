"""Where an engine keeps its archive and how it is protected (R19, R20): stores, key providers,
and the engine options that name them (amber_engine_options, amber_store)."""
from __future__ import annotations

import ctypes
from ctypes import POINTER, c_uint8
from typing import Any, Callable, List, Optional

from . import _ffi
from .values import c_text_or_none, invalid_argument


class Store:
    """An archive store (a plugin; R19): where the engine keeps the archive and the launch
    guard. Subclass it and implement the five methods; ``write`` must be atomic (the old archive
    or the new one, never a torn one)."""

    def read(self) -> Optional[bytes]:
        """The archive, or None when there is none."""
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        """Replaces the archive, atomically."""
        raise NotImplementedError

    def remove(self) -> None:
        """Removes the archive (none is not an error)."""
        raise NotImplementedError

    def read_guard(self) -> int:
        """The launch guard count (0 when none)."""
        raise NotImplementedError

    def write_guard(self, count: int) -> None:
        """Writes the launch guard count; 0 removes it."""
        raise NotImplementedError


class MemoryStore(Store):
    """A store in a Python object: survives engines (open a second engine on the same store to
    relaunch), not the process."""

    def __init__(self) -> None:
        self.data: Optional[bytes] = None
        self.guard = 0
        self.writes = 0

    def read(self) -> Optional[bytes]:
        return self.data

    def write(self, data: bytes) -> None:
        self.data = bytes(data)
        self.writes += 1

    def remove(self) -> None:
        self.data = None

    def read_guard(self) -> int:
        return self.guard

    def write_guard(self, count: int) -> None:
        self.guard = count


class Protection:
    """How archives are protected (R20). Use KeyFile, FixedKey, KeyProvider or NoEncryption."""
    code = 0


class KeyFile(Protection):
    """The default: a key file of 32 random bytes, mode 0600 (``path`` None: archive.key in the
    state directory)."""
    code = 0

    def __init__(self, path: Optional[str] = None):
        self.path = path


class FixedKey(Protection):
    """A fixed 32-byte master key."""
    code = 2

    def __init__(self, key: bytes):
        if len(key) != 32:
            raise ValueError("a fixed key is 32 bytes")
        self.key = bytes(key)


class KeyProvider(Protection):
    """The host's key callback: ``fn(for_saving: bool) -> bytes`` (32 bytes), or a subclass
    overriding ``key``. Raise KeyUnavailableError (or return None) when the key cannot be had
    now (device locked): restoration is deferred, a save fails. Any other exception fails a save
    with it; at launch it defers restoration too (the archive is kept, the launch fresh with
    FreshReason.KEY_UNAVAILABLE, and the report's message names the key provider)."""
    code = 1

    def __init__(self, fn: Optional[Callable[[bool], Optional[bytes]]] = None):
        self.fn = fn

    def key(self, for_saving: bool) -> Optional[bytes]:
        if self.fn is None:
            raise NotImplementedError("KeyProvider needs fn or an overridden key()")
        return self.fn(for_saving)


class NoEncryption(Protection):
    """No encryption, an explicit choice (the report says so)."""
    code = 3


class _StoreHolder(_ffi.Holder):
    """The context of a host store: the trampolines call its c_* methods."""
    __slots__ = ("store",)

    def __init__(self, store: Store):
        self.store = store

    def c_read(self) -> Optional[bytes]:
        data = self.store.read()
        return None if data is None else bytes(data)

    def c_write(self, data: bytes) -> None:
        self.store.write(data)

    def c_remove(self) -> None:
        self.store.remove()

    def c_read_guard(self) -> int:
        return int(self.store.read_guard())

    def c_write_guard(self, count: int) -> None:
        self.store.write_guard(count)


class _KeyHolder(_ffi.Holder):
    """The context of a key provider."""
    __slots__ = ("provider",)

    def __init__(self, provider: KeyProvider):
        self.provider = provider

    def c_key(self, for_saving: bool) -> Optional[bytes]:
        key = self.provider.key(for_saving)
        if key is None:
            return None
        key = bytes(key)
        if len(key) != 32:
            raise ValueError(f"a key provider must give 32 bytes, not {len(key)}")
        return key


def _budget(name: str, budget: Optional[int]) -> int:
    """A size budget (R31) as amber_engine_options takes it, a uint64_t: None and 0 are no
    budget, as in C. InvalidArgumentError for anything else that is not an int from 0 to 2**64-1:
    ctypes would keep the low 64 bits of a larger int (2**64 + 100 would be a budget of 100
    bytes)."""
    if budget is None:
        return 0
    if not isinstance(budget, int) or isinstance(budget, bool) or not 0 <= budget <= 0xFFFFFFFFFFFFFFFF:
        raise invalid_argument(f"{name} is {budget!r}; it is a number of bytes from 0 (no budget) to 2**64-1")
    return budget


class Options:
    """An amber_engine_options filled for Engine(), with what it points to kept alive until the
    engine is open. ``holders``: the contexts registered, to forget if opening fails."""

    def __init__(self, engine: _ffi.Owner, *, state_directory: Optional[str], memory_store: bool,
                 store: Optional[Store], protection: Optional[Protection], bundle_version: Optional[str],
                 interface_idiom: Optional[str], keep_restoration_report: bool = False,
                 keep_archive_after_restore: bool = False,
                 object_budget: Optional[int] = None, archive_budget: Optional[int] = None):
        opts = _ffi.EngineOptions(_ffi.ENGINE_OPTIONS_VERSION)  # zeroed (the defaults), the version set
        opts.bundle_version = c_text_or_none(bundle_version)
        opts.interface_idiom = c_text_or_none(interface_idiom)
        opts.state_directory = c_text_or_none(state_directory)
        opts.memory_store = 1 if memory_store else 0
        opts.keep_restoration_report = 1 if keep_restoration_report else 0
        opts.keep_archive_after_restore = 1 if keep_archive_after_restore else 0
        opts.object_budget = _budget("object_budget", object_budget)
        opts.archive_budget = _budget("archive_budget", archive_budget)
        self.holders: List[_ffi.Holder] = []
        self.keep: List[Any] = []
        if store is not None:
            box = _StoreHolder(store)
            opts.store_ctx = box.register(engine)
            self.holders.append(box)
            vtable = _ffi.Store(_ffi.STORE_VERSION)
            vtable.read, vtable.write, vtable.remove, vtable.read_guard, vtable.write_guard = _ffi.T_STORE
            self.keep.append(vtable)
            opts.store = ctypes.pointer(vtable)
            opts.store_ctx_free = _ffi.CTX_FREE
        protection = protection or KeyFile()
        opts.protection = protection.code
        if isinstance(protection, KeyFile):
            opts.key_file = c_text_or_none(protection.path)
        elif isinstance(protection, FixedKey):
            fixed = (c_uint8 * 32).from_buffer_copy(protection.key)
            self.keep.append(fixed)
            opts.fixed_key = ctypes.cast(fixed, POINTER(c_uint8))
        elif isinstance(protection, KeyProvider):
            key_box = _KeyHolder(protection)
            opts.key_ctx = key_box.register(engine)
            self.holders.append(key_box)
            opts.key_callback = _ffi.T_KEY
            opts.key_ctx_free = _ffi.CTX_FREE
        self.struct = opts

    def forget(self) -> None:
        """Forgets the contexts after a failed open (Amber calls no ctx_free then)."""
        for box in self.holders:
            box.unregister()

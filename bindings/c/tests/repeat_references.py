#!/usr/bin/env python3
"""Makes the hostile archive of test_memory.c's r22_memory_selection_repeated (issue 42): a copy
of an unencrypted restoration archive whose every view selection refers, COUNT times, to the
item it selects first. A save never writes one (a selection is a set, R17); another program
may, and each reference takes a byte or two, while a reader that made one value per reference
would take tens of bytes each.

Usage: repeat_selection.py IN OUT COUNT
"""
import plistlib
import struct
import sys

SELECTED_ITEMS = "amber.view.selectedItems"


def split_envelope(data):
    """The header of an unencrypted envelope (R20: magic, format, algorithm 0, the bundle
    version's length and bytes) and the archive after it."""
    if data[:8] != b"AMBERENV" or data[9] != 0:
        sys.exit("repeat_selection.py: not an unencrypted envelope")
    (length,) = struct.unpack(">H", data[10:12])
    return data[: 12 + length], data[12 + length :]


def repeat_selections(archive, count):
    """Every NSArray under SELECTED_ITEMS made COUNT references to its first item; how many."""
    objects = archive["$objects"]
    changed = 0
    for obj in objects:
        if isinstance(obj, dict) and SELECTED_ITEMS in obj:
            array = objects[obj[SELECTED_ITEMS].data]
            array["NS.objects"] = [array["NS.objects"][0]] * count
            changed += 1
    return changed


def main():
    source, target, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(source, "rb") as f:
        header, payload = split_envelope(f.read())
    archive = plistlib.loads(payload)
    if repeat_selections(archive, count) == 0:
        sys.exit("repeat_selection.py: no selection in " + source)
    with open(target, "wb") as f:
        f.write(header + plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))


if __name__ == "__main__":
    main()

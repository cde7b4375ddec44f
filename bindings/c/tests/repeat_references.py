#!/usr/bin/env python3
"""Makes the hostile archives of test_memory.c (issue 42): a copy of an unencrypted restoration
archive in which one list refers COUNT times to one of its items, as another program may write
it. A save never writes one; each reference takes a byte or two, while a reader that made
something per reference would take tens of bytes each.

  selection  every view selection refers COUNT times to the item it selects first (a selection
             is a set, R17: it restores as that one item);
  records    the record list refers COUNT times to its second record, after the first (a record
             listed twice is corrupt, R22: refused at its second listing).

Usage: repeat_references.py IN OUT selection|records COUNT
"""
import plistlib
import struct
import sys

SELECTED_ITEMS = "amber.view.selectedItems"


def split_envelope(data):
    """The header of an unencrypted envelope (R20: magic, format, algorithm 0, the bundle
    version's length and bytes) and the archive after it."""
    if data[:8] != b"AMBERENV" or data[9] != 0:
        sys.exit("repeat_references.py: not an unencrypted envelope")
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


def repeat_records(archive, count):
    """The record list made its first record, then COUNT references to its second; 1, or 0 if
    it has fewer than two records."""
    records = archive["$objects"][archive["$top"]["objects"].data]["NS.objects"]
    if len(records) < 2:
        return 0
    records[:] = [records[0]] + [records[1]] * count
    return 1


def main():
    source, target, what, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    repeat = {"selection": repeat_selections, "records": repeat_records}.get(what)
    if repeat is None:
        sys.exit("repeat_references.py: WHAT is selection or records, not " + what)
    with open(source, "rb") as f:
        header, payload = split_envelope(f.read())
    archive = plistlib.loads(payload)
    if repeat(archive, count) == 0:
        sys.exit("repeat_references.py: nothing to repeat in " + source)
    with open(target, "wb") as f:
        f.write(header + plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))


if __name__ == "__main__":
    main()

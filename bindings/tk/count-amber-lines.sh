#!/usr/bin/env bash
# Counts the Amber-specific lines of a demo: the lines whose comment begins "# amber" (Python)
# or "/* amber" / "// amber" (C). Prints the count. Usage: count-amber-lines.sh FILE...
set -uo pipefail
[ "$#" -gt 0 ] || { echo "usage: $0 FILE..." >&2; exit 2; }
cat "$@" | grep -cE '(#|/\*|//) amber\b'

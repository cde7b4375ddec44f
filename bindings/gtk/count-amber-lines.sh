#!/usr/bin/env bash
# Counts the Amber-specific lines of the GTK demo: the lines that end with the marker comment
# "/* amber */". Fails if a line that is not marked mentions Amber (amber_ or AMBER_ outside
# comments), so that the count cannot leave any out, or if there are more than the limit.
#
#   count-amber-lines.sh [FILE] [LIMIT]     (bindings/gtk/demo/notes.c, 15)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
file=${1:-$here/demo/notes.c}
limit=${2:-15}
marked=$(grep -c '/\* amber \*/[[:space:]]*$' "$file" || true)
# Lines that call or name Amber without the marker (the header comment aside).
unmarked=$(grep -n -E '(amber_|AMBER_|amber-gtk\.h)' "$file" | grep -v '/\* amber \*/[[:space:]]*$' |
           grep -v -E '^[0-9]+: \*' || true)
if [[ -n $unmarked ]]; then
    echo "count-amber-lines: lines about Amber without the marker in $file:" >&2
    echo "$unmarked" >&2
    exit 1
fi
echo "amber-specific lines in $(basename "$file"): $marked (limit $limit)"
if ((marked > limit)); then
    echo "count-amber-lines: $marked is over the limit of $limit" >&2
    exit 1
fi

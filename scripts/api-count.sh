#!/usr/bin/env bash
# Counts the functions of the C API from its headers: per header file, per family (the handle
# prefix a function's name starts with: amber_engine_*, amber_object_*, ...; the struct _init
# functions of 0.1 apart), and the total. A function is a top-level declaration in a header:
# a line at column 0 (not a typedef, a macro or a comment) naming amber_<name>(.
# Usage: scripts/api-count.sh              the headers of the working tree (include/amber.h and
#                                          include/amber/*.h)
#        scripts/api-count.sh --rev REV    the headers at a git revision (e.g. 6c04283, the 0.1
#                                          header, or main)
#        scripts/api-count.sh FILE...      these header files
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/amber-api-count-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

files=()
if [ "${1:-}" = "--rev" ]; then
    rev=${2:?--rev needs a revision}
    for f in $(git ls-tree -r --name-only "$rev" -- include | grep -E '\.h$'); do
        mkdir -p "$tmp/$(dirname "$f")"
        git show "$rev:$f" > "$tmp/$f"
        files+=("$tmp/$f")
    done
    strip="$tmp/"
elif [ $# -gt 0 ]; then
    files=("$@")
    strip=""
else
    files=(include/amber.h include/amber/*.h)
    strip=""
fi

# One line per declared function: "<file> <name>".
for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    perl -ne 'next if /^(typedef|struct|enum|extern|#)\b/ || !/^[A-Za-z_]/; print "$1\n" if /\b(amber_[a-z0-9_]+)\s*\(/' "$f" \
        | awk -v f="${f#$strip}" '{print f, $1}'
done | sort -u -k2,2 > "$tmp/decls"

# The family of a name: the longest handle prefix it starts with, else its first word.
handles="coding_registry user_info view_state notification preservation unarchiver archiver decoder coder report engine object view app file error version status buf string bytes set"
family() {
    local rest=${1#amber_}
    case "$rest" in *_init) echo "(struct _init)"; return ;; esac
    for h in $handles; do
        case "$rest" in "$h"_*|"$h") echo "amber_${h}_*"; return ;; esac
    done
    echo "amber_${rest%%_*}_*"
}

printf '%-34s %s\n' "header" "functions"
awk '{print $1}' "$tmp/decls" | sort | uniq -c | awk '{printf "%-34s %d\n", $2, $1}'
echo
printf '%-34s %s\n' "family" "functions"
while read -r _ name; do family "$name"; done < "$tmp/decls" | sort | uniq -c | sort -k1,1nr -k2 \
    | awk '{n=$1; $1=""; sub(/^ /, ""); printf "%-34s %d\n", $0, n}'
echo
printf '%-34s %d\n' "total" "$(wc -l < "$tmp/decls")"

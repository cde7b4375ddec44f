#!/usr/bin/env bash
# One tree against another, side by side (issue 41, item 7): each tree's own benchmark, built
# from that tree's sources, the two run in alternation for ROUNDS rounds, the order swapped
# every round, so that a slow spell of the (shared) machine slows both alike. Prints each round's
# figures, then per phase the medians of the rounds, the ratio of the medians (HEAD / BASE) and
# the median and range of the rounds' own ratios (each round's HEAD over the BASE run beside it).
#
# Usage: Benchmarks/ab.sh engine|codec BASE_TREE HEAD_TREE [ROUNDS] [-- BENCH_ARGS...]
#   engine  bindings/c/bench/bench_engine.c, compiled against the tree's headers and run against
#           the tree's release library (.build-lib/lib/libamber.so: run scripts/build-lib.sh
#           there first). Default BENCH_ARGS: --sizes 10000 --reps 5 --mem-sizes none (one size).
#           Phases: preserve, restore, and build (the host making its tree of engine objects,
#           no archive involved).
#   codec   amber-bench-archive, AmberArchive alone (.build/release/amber-bench-archive: run
#           `swift build -c release --product amber-bench-archive` there first). Default
#           BENCH_ARGS: --sizes 10000 --reps 1; give one size per run (with several, the bench
#           adds its growth table, three runs per size, to every round). Phases: encode and
#           decode at each size.
#   ROUNDS  default 20.
# Example: git worktree add --detach ../amber-0.1 2563541 && (cd ../amber-0.1 && scripts/build-lib.sh)
#          Benchmarks/ab.sh engine ../amber-0.1 . 20
# Environment: CC (default cc).
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
(($# >= 3)) || usage
mode=$1
base=$(cd "$2" && pwd) head=$(cd "$3" && pwd)
shift 3
rounds=20
if (($#)) && [ "$1" != -- ]; then rounds=$1; shift; fi
if (($#)) && [ "$1" = -- ]; then shift; fi
bench_args=("$@")
CC=${CC:-cc}

work=$(mktemp -d "${TMPDIR:-/tmp}/amber-ab-XXXXXX")
trap 'rm -rf "$work"' EXIT

case "$mode" in
    engine)
        ((${#bench_args[@]})) || bench_args=(--sizes 10000 --reps 5 --mem-sizes none)
        # Compiles TREE's bench against TREE's headers and library into $work/NAME.
        prepare() {
            local tree=$1 name=$2
            [ -e "$tree/.build-lib/lib/libamber.so" ] \
                || { echo "ab: no $tree/.build-lib/lib/libamber.so (run scripts/build-lib.sh there)" >&2; exit 1; }
            "$CC" -O2 -std=c11 -I"$tree/include" -o "$work/$name" "$tree/bindings/c/bench/bench_engine.c" \
                -L"$tree/.build-lib/lib" -lamber -Wl,-rpath,"$tree/.build-lib/lib"
        }
        # Prints `phase=seconds` for one run of NAME's bench.
        measure() {
            local tree=$1 name=$2
            LD_LIBRARY_PATH="$tree/.build-lib/lib" "$work/$name" "${bench_args[@]}" | grep '^engine ' \
                | tr ' ' '\n' | grep -E '^(preserve|restore|build)='
        }
        ;;
    codec)
        ((${#bench_args[@]})) || bench_args=(--sizes 10000 --reps 1)
        prepare() {
            local tree=$1
            [ -x "$tree/.build/release/amber-bench-archive" ] \
                || { echo "ab: no $tree/.build/release/amber-bench-archive (swift build -c release --product amber-bench-archive there)" >&2; exit 1; }
        }
        # The AmberArchive rows of the bench's first table, `| N | AmberArchive | encode | decode | …`,
        # as `encode_N=seconds decode_N=seconds`.
        measure() {
            local tree=$1
            (cd "$work" && "$tree/.build/release/amber-bench-archive" --amber-only "${bench_args[@]}" 2>/dev/null) \
                | awk -F'|' '
                    function seconds(t,   v) { v = t + 0
                        if (t ~ /µs/) return v / 1e6; if (t ~ /ms/) return v / 1e3; return v }
                    $3 ~ /^ *AmberArchive *$/ { n = $2 + 0
                        printf "encode_%d=%.9f\ndecode_%d=%.9f\n", n, seconds($4), n, seconds($5) }'
        }
        ;;
    *) usage ;;
esac

# Runs NAME's benchmark once and appends its figures, tagged with the round, to $work/lines.
run_one() {
    local name=$1 tree=$2 round=$3 figures
    figures=$(measure "$tree" "$name" | tr '\n' ' ')
    [ -n "$figures" ] || { echo "ab: $name gave no figures" >&2; exit 1; }
    echo "round=$round tree=$name $figures" | tee -a "$work/lines"
}

prepare "$base" base
prepare "$head" head
echo "base: $base ($(git -C "$base" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "head: $head ($(git -C "$head" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "$mode, bench args: ${bench_args[*]}; rounds: $rounds; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then
        run_one base "$base" "$r"; run_one head "$head" "$r"
    else
        run_one head "$head" "$r"; run_one base "$base" "$r"
    fi
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work/lines" <<'EOF'
import statistics, sys

rounds = {}
for line in open(sys.argv[1]):
    fields = dict(f.split("=", 1) for f in line.split())
    rounds.setdefault(fields.pop("round"), {})[fields.pop("tree")] = fields
pairs = [r for r in rounds.values() if "base" in r and "head" in r]
phases = list(pairs[0]["base"])

def fmt(seconds):
    return f"{seconds * 1e3:.2f} ms"

print(f"\n{'phase':<14} {'base median':>12} {'head median':>12} {'head/base':>10} {'paired median':>14} {'paired range':>14}")
for phase in phases:
    b = [float(r["base"][phase]) for r in pairs]
    h = [float(r["head"][phase]) for r in pairs]
    ratios = sorted(y / x for x, y in zip(b, h))
    mb, mh = statistics.median(b), statistics.median(h)
    print(f"{phase:<14} {fmt(mb):>12} {fmt(mh):>12} {mh / mb:>9.3f}× {statistics.median(ratios):>13.3f}× "
          f"{ratios[0]:>6.2f}–{ratios[-1]:.2f}×")
print(f"({len(pairs)} paired rounds)")
EOF

#!/usr/bin/env bash
# The end-to-end benchmark seen from C (issue 3, item 6), in one run: builds libamber.so, the C
# program bindings/c/bench/bench_engine.c and the Foundation peer (amber-bench-engine-foundation),
# runs them size by size (the C program, then the peer on the same tree), and prints the tables
# of BENCHMARKS.md: medians, the ratios, peak memory, and the targets with what holds.
#
# Usage: scripts/bench-engine.sh [--quick] [--sizes 100,1k,10k,100k,1M] [--reps 7] [--big-reps 3]
#            [--foundation-reps 3] [--foundation-max 10k] [--mem-sizes LIST|none] [--dir DIR]
#   --quick            sizes 100,1k,10k; 3 rounds; NSKeyedArchiver up to 1k; memory at 10k only.
#   --reps / --big-reps rounds of the C program below / from 100,000 nodes.
#   --foundation-reps  rounds of NSKeyedArchiver (at most 3 from 5,000 nodes; decoding at least 3).
#   --foundation-max   the largest N the peer runs (it is quadratic: ~48 s per encoding at 10k).
#   --mem-sizes        the sizes whose peak memory is measured (default: every size).
#   --dir              where the archives are written (default: a new directory under $TMPDIR
#                      or /tmp; it must be a real file system for fsync to mean anything).
# Environment: AMBER_SKIP_BUILD=1 uses the built library and peer as they are;
#   AMBER_BENCH_SCRATCH is the peer's SwiftPM scratch path (default .build-bench);
#   CC (default cc).
# Raw lines go to $scratch/bench-engine.log as well.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
CC=${CC:-cc}
scratch=${AMBER_BENCH_SCRATCH:-.build-bench}

sizes=100,1k,10k,100k,1M
reps=7
big_reps=3
f_reps=3
f_max=10k
mem_sizes=
dir=
while (($#)); do
    case "$1" in
        --quick) sizes=100,1k,10k; reps=3; big_reps=1; f_max=1k; mem_sizes=10k; shift ;;
        --sizes) sizes=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --big-reps) big_reps=$2; shift 2 ;;
        --foundation-reps) f_reps=$2; shift 2 ;;
        --foundation-max) f_max=$2; shift 2 ;;
        --mem-sizes) mem_sizes=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done

# 10k -> 10000, 1M -> 1000000.
expand() {
    local out=() s
    IFS=, read -ra items <<< "$1"
    for s in "${items[@]}"; do
        case "$s" in
            *k|*K) out+=($(( ${s%?} * 1000 ))) ;;
            *M|*m) out+=($(( ${s%?} * 1000000 ))) ;;
            none) ;;
            *) out+=("$s") ;;
        esac
    done
    echo "${out[*]}"
}
sizes=($(expand "$sizes"))
f_max=$(expand "$f_max")
if [ -z "$mem_sizes" ]; then mem_sizes=("${sizes[@]}"); else mem_sizes=($(expand "$mem_sizes")); fi

if [ "${AMBER_SKIP_BUILD:-0}" != 1 ]; then
    echo "building libamber.so, bench_engine and amber-bench-engine-foundation..." >&2
    scripts/build-lib.sh >/dev/null
    swift build -c release --product amber-bench-engine-foundation --scratch-path "$scratch" >/dev/null
fi
mkdir -p .build-lib/c-bench
$CC -std=c99 -O2 -Wall -Wextra -pedantic -Werror -Iinclude bindings/c/bench/bench_engine.c \
    -o .build-lib/c-bench/bench_engine -L.build-lib/lib -lamber -Wl,-rpath,"$root/.build-lib/lib"
peer="$scratch/release/amber-bench-engine-foundation"
[ -x "$peer" ] || { echo "bench-engine: $peer is missing (run without AMBER_SKIP_BUILD=1)" >&2; exit 1; }

if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/amber-bench-engine-XXXXXX")
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$scratch"
log="$scratch/bench-engine.log"
: > "$log"
{
    echo "machine cores=$(nproc) kernel=$(uname -r) swift=\"$(swift --version 2>&1 | head -n 1)\""
    echo "fs dir=$dir type=$(stat -f -c %T "$dir")"
} >> "$log"

# Size by size: the C program (memory children first, then the timed rounds), then the peer.
for n in "${sizes[@]}"; do
    mem=none
    for m in "${mem_sizes[@]}"; do [ "$m" = "$n" ] && mem=$n; done
    echo "N=$n: C (engine) ..." >&2
    .build-lib/c-bench/bench_engine --sizes "$n" --reps "$reps" --big-reps "$big_reps" --mem-sizes "$mem" \
        --dir "$dir/c" | tee -a "$log" >&2
    if [ "$n" -le "$f_max" ]; then
        echo "N=$n: Foundation ..." >&2
        "$peer" --sizes "$n" --reps "$f_reps" --max "$f_max" | tee -a "$log" >&2
    fi
done

python3 - "$log" "$reps" "$big_reps" <<'EOF'
import sys

log, reps, big_reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
engine, foundation, memory = {}, {}, {}
machine = fs = ""
for line in open(log):
    words = line.split()
    if not words:
        continue
    kind, fields = words[0], {}
    for w in words[1:]:
        if "=" in w:
            k, v = w.split("=", 1)
            fields[k] = v
    if kind == "engine":
        engine[int(fields["n"])] = fields
    elif kind == "foundation" and "skipped" not in fields:
        foundation[int(fields["n"])] = fields
    elif kind == "memory":
        memory[(int(fields["n"]), fields["phase"])] = fields
    elif kind == "machine":
        machine = line.strip()
    elif kind == "fs":
        fs = line.strip()

def t(s):
    s = float(s)
    if s < 1e-3: return "%.1f µs" % (s * 1e6)
    if s < 1: return "%.2f ms" % (s * 1e3)
    return "%.2f s" % s

def mb(b): return "%.1f MB" % (b / 1e6)

print("Preserve and restore of the synthetic UI tree through the C API, beside the durable-write floor of the same bytes and Foundation's NSKeyedArchiver/NSKeyedUnarchiver on the same tree; medians (rounds: %d below 100,000 nodes, %d from 100,000; NSKeyedArchiver: rounds as in the reps column)." % (reps, big_reps))
print()
print("| N | archive | preserve | floor | preserve / floor | NSKeyedArchiver encode | NSKeyedArchiver / preserve | restore | NSKeyedUnarchiver decode | NSKeyedUnarchiver / restore | rounds (C; NSKA enc/dec) |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n in sorted(engine):
    e = engine[n]
    p, r, f = float(e["preserve"]), float(e["restore"]), float(e["floor"])
    row = [str(n), e["bytes"], t(p), t(f), "%.1f×" % (p / f)]
    if n in foundation:
        F = foundation[n]
        fe, fd = float(F["encode"]), float(F["decode"])
        row += [t(fe), "%.0f×" % (fe / p), t(r), t(fd), "%.1f×" % (fd / r), "%s; %s/%s" % (e["reps"], F["encode_reps"], F["decode_reps"])]
    else:
        row += ["—", "—", t(r), "—", "—", e["reps"]]
    print("| " + " | ".join(row) + " |")

if memory:
    print()
    print("Peak memory, each phase in a child process: the resident set's high-water mark during the phase above the resident set before it (after the host's objects are built, for preserve; after the empty engine is opened, for restore, which makes the host's objects itself). Host objects: the growth of the resident set while the host builds its tree (its structs and the engine's objects).")
    print()
    print("| N | archive | host objects | preserve: peak extra | ÷ archive | restore: peak extra | minus host objects | ÷ archive |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sorted({k[0] for k in memory}):
        P, R = memory.get((n, "preserve")), memory.get((n, "restore"))
        if not P or not R:
            continue
        b = int(P["bytes"])
        host = int(P["host_kb"]) * 1024
        pe = int(P["extra_kb"]) * 1024
        re_ = int(R["extra_kb"]) * 1024
        print("| %d | %s | %s | %s | %.2f | %s | %s | %.2f |" % (n, mb(b), mb(host), mb(pe), pe / b, mb(re_), mb(re_ - host), (re_ - host) / b))

print()
print("Targets (issue 3):")
print()
print("| target | measured | holds |")
print("|---|---|---|")
def row(target, measured, ok):
    print("| %s | %s | %s |" % (target, measured, "yes" if ok else "**no**"))
n = 10000
if n in engine:
    e = engine[n]
    p, r, f = float(e["preserve"]), float(e["restore"]), float(e["floor"])
    row("N = 10k: preserve end-to-end ≤ 5× the durable-write floor of the same bytes", "%.1f× (%s against %s)" % (p / f, t(p), t(f)), p / f <= 5)
    if n in foundation:
        F = foundation[n]
        fe, fd = float(F["encode"]), float(F["decode"])
        row("N = 10k: preserve ≥ 30× faster than NSKeyedArchiver encoding", "%.0f× (%s against %s)" % (fe / p, t(p), t(fe)), fe / p >= 30)
        row("N = 10k: restore ≥ 15× faster than NSKeyedUnarchiver decoding", "%.1f× (%s against %s)" % (fd / r, t(r), t(fd)), fd / r >= 15)
    else:
        print("| N = 10k against Foundation | not run (--foundation-max below 10k) | — |")
else:
    print("| N = 10k | not run | — |")
n = 1000000
if (n, "preserve") in memory and (n, "restore") in memory:
    P, R = memory[(n, "preserve")], memory[(n, "restore")]
    b, host = int(P["bytes"]), int(P["host_kb"]) * 1024
    pe, re_ = int(P["extra_kb"]) * 1024, int(R["extra_kb"]) * 1024 - host
    row("N = 1M: preserve peak memory ≤ 3× the archive + the host's objects", "%.2f× the archive (%s above the host's %s; archive %s)" % (pe / b, mb(pe), mb(host), mb(b)), pe <= 3 * b)
    row("N = 1M: restore peak memory ≤ 3× the archive + the host's objects", "%.2f× the archive (%s above the host's %s)" % (re_ / b, mb(re_), mb(host)), re_ <= 3 * b)
else:
    print("| N = 1M peak memory | not run | — |")
print()
print("Machine: %s; %s." % (machine.replace("machine ", ""), fs.replace("fs ", "")))
EOF

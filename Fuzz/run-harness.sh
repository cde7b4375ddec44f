#!/usr/bin/env bash
# Fuzzes one harness of amber-fuzz (Fuzz/Harnesses: reader, envelope, restore, unarchiver) for SECONDS
# (default 60):
#   bash Fuzz/run-harness.sh reader 600
#   bash Fuzz/run-harness.sh envelope 120
#   bash Fuzz/run-harness.sh restore 600 [extra libFuzzer flags]
#   bash Fuzz/run-harness.sh unarchiver 600
#   bash Fuzz/run-harness.sh restore FILE...     replays inputs once (a finding's reproducer)
# Builds amber-fuzz with libFuzzer and AddressSanitizer (swift build -c release
# --sanitize=fuzzer --sanitize=address -DAMBER_FUZZ, -enable-testing for the reader harness) in its own scratch path .build-fuzz-spm/,
# copies the seed corpus Fuzz/corpus/NAME/ into the working corpus Fuzz/corpus-work/NAME/
# (gitignored, kept between runs) and fuzzes with the dictionary Fuzz/bplist.dict plus the
# envelope's magic. Crashes, timeouts, leaks and out-of-memory inputs are written to
# Fuzz/corpus-work/NAME-crash-* (-timeout-*, -leak-*, -oom-*); the log to
# Fuzz/corpus-work/NAME.log. Prints libFuzzer's last status line, its final statistics and
# the number of executions; exits non-zero on a finding.
set -uo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
name="${1:?usage: Fuzz/run-harness.sh reader|envelope|restore|unarchiver [SECONDS|FILE...]}"
shift
case "$name" in reader|envelope|restore|unarchiver) ;; *) echo "unknown harness '$name' (reader, envelope, restore, unarchiver)"; exit 2 ;; esac
bin=.build-fuzz-spm/release/amber-fuzz

# swiftc keeps only the last -sanitize= option it is given, and SwiftPM passes --sanitize=fuzzer
# and --sanitize=address as two: without -Xswiftc -sanitize=fuzzer,address the Swift code would
# have AddressSanitizer but no coverage (the C targets get both either way).
# lld: gold warns about every ASan helper symbol. SwiftPM rebuilds only what changed.
# AMBER_FUZZ_SKIP_BUILD=1 uses the binary as it is (scripts/test.sh, for the second harness:
# SwiftPM 6.3 was seen to rebuild everything on a second identical invocation in a fresh clone).
mkdir -p .build-fuzz-spm
if [[ "${AMBER_FUZZ_SKIP_BUILD:-0}" == 1 && -x "$bin" ]]; then
    :
elif ! swift build -c release --scratch-path .build-fuzz-spm --sanitize=fuzzer --sanitize=address \
        --product amber-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DAMBER_FUZZ -Xswiftc -enable-testing \
        -Xswiftc -use-ld=lld \
        >.build-fuzz-spm/build.log 2>&1; then
    tail -30 .build-fuzz-spm/build.log; echo "build failed (log: .build-fuzz-spm/build.log)"; exit 2
fi

if [[ $# -gt 0 && -f "$1" ]]; then  # replay files
    exec "$bin" "$name" -runs=1 "$@"
fi
secs="${1:-60}"
shift || true

work=Fuzz/corpus-work/$name
mkdir -p "$work"
cp -n Fuzz/corpus/"$name"/* "$work"/ 2>/dev/null || true
dict=Fuzz/corpus-work/harness.dict
{ cat Fuzz/bplist.dict; echo; echo 'kw_envelope_magic="AMBERENV"'; } >"$dict"
log=Fuzz/corpus-work/$name.log
marker=$(mktemp)  # findings are the artifacts newer than this

# While fuzzing, AddressSanitizer records no allocation stacks (unwinding them is much of the
# time of a harness that allocates); replaying a finding (FILE above) reports them in full.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0}"
echo "fuzzing '$name' for ${secs}s: $(ls "$work" | wc -l) inputs in $work, log $log"
"$bin" "$name" -max_total_time="$secs" -max_len=16384 -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -dict="$dict" -artifact_prefix="Fuzz/corpus-work/$name-" "$@" "$work" >"$log" 2>&1
rc=$?

grep -E '^#[0-9]+' "$log" | tail -1
grep -E '^stat::' "$log"
execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
echo "executions: ${execs:-?} (${rate:-?}/s)"

findings=$(find Fuzz/corpus-work -maxdepth 1 -name "$name-*" -newer "$marker" \
    \( -name '*crash-*' -o -name '*timeout-*' -o -name '*leak-*' -o -name '*oom-*' \))
rm -f "$marker"
if [[ $rc -ne 0 || -n "$findings" ]]; then
    echo "FINDING (libFuzzer exit code $rc):"
    grep -E -m1 -A30 'ERROR: libFuzzer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|Fatal error|deadly signal|CRASH' "$log" | head -40
    echo "inputs (replay: bash Fuzz/run-harness.sh $name FILE):"
    echo "$findings"
    exit $(( rc != 0 ? rc : 1 ))
fi

#!/usr/bin/env bash
# Runs the reader fuzzer for SECONDS (default 60), one fuzzing process:
#   bash Fuzz/run.sh 600
#   KEEP_GOING=1 bash Fuzz/run.sh 600   do not stop at the first finding (libFuzzer -fork=1
#                                       -ignore_crashes=1 ...: one worker process, restarted)
# Builds .build-fuzz/reader-fuzzer if it is missing or older than the sources (Fuzz/build.sh),
# copies the seed corpus Fuzz/corpus/reader/ into the working corpus Fuzz/corpus-work/reader/
# (gitignored, kept between runs) and fuzzes with the dictionary Fuzz/bplist.dict. Crashes,
# timeouts, leaks and out-of-memory inputs are written to Fuzz/crash-*, timeout-*, leak-*,
# oom-* (gitignored). The whole log goes to Fuzz/corpus-work/reader.log.
# Prints libFuzzer's last status line, its final statistics and the number of executions;
# exits non-zero on a finding. Extra arguments after SECONDS are passed to libFuzzer.
set -uo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
shift || true
bin=.build-fuzz/reader-fuzzer
src="${AMBER_SOURCES:-Sources/AmberArchive}"

if [[ ! -x "$bin" ]] || [[ -n "$(find "$src" Fuzz/ReaderFuzzer.swift Fuzz/build.sh -newer "$bin" \( -name '*.swift' -o -name '*.sh' \) 2>/dev/null | head -1)" ]]; then
    echo "building $bin"
    if ! bash Fuzz/build.sh; then echo "build failed"; exit 2; fi
fi

work=Fuzz/corpus-work/reader
mkdir -p "$work"
cp -n Fuzz/corpus/reader/* "$work"/ 2>/dev/null || true
log=Fuzz/corpus-work/reader.log
mode=()
if [[ "${KEEP_GOING:-0}" == 1 ]]; then
    mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
marker=$(mktemp)  # findings are the artifacts newer than this

echo "fuzzing for ${secs}s: $(ls "$work" | wc -l) inputs in $work, log $log"
SWIFT_BACKTRACE=enable=no "$bin" \
    -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -dict=Fuzz/bplist.dict -artifact_prefix=Fuzz/ \
    ${mode[@]+"${mode[@]}"} "$@" "$work" >"$log" 2>&1
rc=$?

# The last status line and the final statistics (fork mode prints no stat:: lines).
grep -E '^#[0-9]+' "$log" | tail -1
grep -E '^stat::' "$log"
execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
if [[ -z "$execs" ]]; then
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    execs=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
    t=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$last")
    [[ -n "$execs" && -n "$t" && "$t" -gt 0 ]] && rate=$((execs / t))
fi
echo "executions: ${execs:-?} (${rate:-?}/s)"

findings=$(find Fuzz -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' -o -name 'oom-*' \) -newer "$marker")
rm -f "$marker"
if [[ $rc -ne 0 || -n "$findings" ]]; then
    echo "FINDING (libFuzzer exit code $rc):"
    grep -E -m1 -A30 'ERROR: libFuzzer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|Fatal error|deadly signal|CRASH' "$log" | head -40
    echo "inputs:"
    echo "$findings"
    exit $(( rc != 0 ? rc : 1 ))
fi

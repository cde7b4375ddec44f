#!/usr/bin/env bash
# The Swift and C tests under a sanitizer (issue 5):
#   scripts/test-sanitizers.sh address    AddressSanitizer, scratch path .build-asan/
#   scripts/test-sanitizers.sh thread     ThreadSanitizer, scratch path .build-tsan/
# 1. swift build --build-tests --sanitize=S, then swift test --sanitize=S:
#    - address: the whole suite but RoundTripTests/reals() (every sample double through the
#      codec: safe Swift only, 65 s of the 73 s under ASan). Leak detection is off for the
#      Swift suites: tests build reference cycles on purpose (engines captured by their own
#      callbacks, cyclic object graphs) and the toolchain's XCTest and FoundationEssentials leak
#      a little; leaks are checked in the C tests below and by valgrind (scripts/valgrind-demo.sh).
#    - thread: AmberCoreTests (engines; Swift Testing runs the tests in parallel, and
#      ConcurrencyTests runs engines on several threads at once).
# 2. The C tests (test_smoke with its plugin, test_rules, test_values, test_threads) compiled with the
#    toolchain's clang -fsanitize=S against the libAmber.so of that build (the C ABI layer,
#    Sources/Amber, is the one place with unsafe code). test_kill is left out: it times SIGKILLs
#    against saves, which sanitizers slow down.
# Prints a header, the summary of each part and a pass/fail line; exits non-zero on a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
san="${1:?usage: scripts/test-sanitizers.sh address|thread}"
case "$san" in
    address) scratch=.build-asan; name=ASan; select=(--skip 'RoundTripTests/reals')
             export ASAN_OPTIONS=detect_leaks=0 ;;
    thread) scratch=.build-tsan; name=TSan; select=(--filter AmberCoreTests) ;;
    *) echo "unknown sanitizer '$san' (address, thread)"; exit 2 ;;
esac
status=0
mkdir -p "$scratch/c-tests"
if ! swift build --build-tests --sanitize="$san" --scratch-path "$scratch" \
        >"$scratch/build.log" 2>&1; then
    tail -30 "$scratch/build.log"; echo "$name build failed (log: $scratch/build.log)"; exit 1
fi

echo "-- Swift tests under $name (swift test --sanitize=$san ${select[*]})"
swift test --skip-build --sanitize="$san" --scratch-path "$scratch" "${select[@]}" >"$scratch/swift-test.log" 2>&1
rc=$?
grep -E '^(✘|✔ Test run|✘ Test run)' "$scratch/swift-test.log"
reports=$(grep -cE '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)' "$scratch/swift-test.log")
echo "$name reports: $reports (log: $scratch/swift-test.log)"
[[ $rc -eq 0 && $reports -eq 0 ]] || status=1

echo "-- C tests under $name (clang -fsanitize=$san, $scratch/debug/libAmber.so)"
unset ASAN_OPTIONS  # leaks are detected in the C tests
clang="$(dirname "$(readlink -f "$(command -v swift)")")/clang"
swiftlib="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux"
flags=(-std=c99 -Wall -Wextra -pedantic -Werror -g -fno-omit-frame-pointer -fsanitize="$san" -fuse-ld=lld -Iinclude)
link=(-L"$scratch/debug" -lAmber -Wl,-rpath,"$PWD/$scratch/debug" -lpthread)
# The toolchain's TSan runtime intercepts libdispatch: link it and the blocks runtime.
[[ $san == thread ]] && link+=(-L"$swiftlib" -ldispatch -lBlocksRuntime -Wl,-rpath,"$swiftlib")
out=$scratch/c-tests
passed=0; failed=0
"$clang" "${flags[@]}" -fPIC -shared bindings/c/tests/plugin_sample.c -o "$out/plugin_sample.so" "${link[@]}" || status=1
for t in test_smoke test_rules test_values test_threads; do
    # A suite split into files keeps them in a folder of its name (test_rules: rules/).
    sources=("bindings/c/tests/$t.c" bindings/c/tests/runner.c bindings/c/tests/mem_store.c)
    [[ -d bindings/c/tests/${t#test_} ]] && sources+=(bindings/c/tests/"${t#test_}"/*.c)
    if ! "$clang" "${flags[@]}" "${sources[@]}" -o "$out/$t" "${link[@]}" 2>"$out/$t.build.log"; then
        cat "$out/$t.build.log"; echo "FAIL  $t does not compile"; failed=$((failed + 1)); continue
    fi
    AMBER_TEST_PLUGIN="$PWD/$out/plugin_sample.so" "$out/$t" >"$out/$t.log" 2>&1
    rc=$?
    n=$(grep -cE '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (Address|Leak)Sanitizer)' "$out/$t.log")
    if [[ $rc -eq 0 && $n -eq 0 ]]; then
        echo "ok    $t: $(tail -1 "$out/$t.log"), no $name report"; passed=$((passed + 1))
    else
        grep -E -m1 -A25 'WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer|FAIL' "$out/$t.log"
        echo "FAIL  $t: exit $rc, $n $name report(s) (log: $out/$t.log)"; failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]] || status=1
exit $status

/*
 * runner.h — the small runner every C test program is built on, as libgit2's clar is: a suite
 * is a table of named test functions; the program runs them all, or only those whose name a
 * prefix given on its command line selects, so that one test runs alone:
 *
 *     test_rules            every test of the rules suite
 *     test_rules r10        r10 and the tests named r10_… (r10_record_info, …), not r100
 *     test_rules --list     the names
 *
 * run-tests.sh passes its arguments on: `bindings/c/run-tests.sh rules r10`.
 *
 * Each check prints one line ("ok    what" / "FAIL  what", check.h) and the program closes with
 * "N passed, N failed", the line the test scripts read; it exits non-zero when a check failed or
 * a prefix selected no test (a typo must not pass as an empty run).
 */
#ifndef AMBER_TEST_RUNNER_H
#define AMBER_TEST_RUNNER_H

#include <stddef.h>

/* One test: its name (lower case, words joined by '_', rule first: "r10_record_info") and the
 * function that makes its checks. */
typedef struct runner_test {
    const char *name;
    void (*run)(void);
} runner_test;

#define RUNNER_COUNT(table) (sizeof(table) / sizeof((table)[0]))

/* The checks counted so far by every check of check.h (and the threads suite's own check). */
extern int passed, failed;

/*
 * Runs the tests of `tests` that argv selects (see above) after pointing the XDG directories at
 * a scratch directory named after `suite` (scratch.h), then prints "N passed, N failed".
 * Returns main's exit status: 0 when every check passed, 1 when one failed, 2 for a prefix that
 * selects no test or an unknown option (with a message that says what to do).
 */
int runner_main(const char *suite, const runner_test *tests, size_t count, int argc, char **argv);

/* A directory of this run (under /tmp), made before the first test, removed with its contents
 * at exit; tests make their own sub-directories in it. */
const char *runner_tmp(void);

/* Writes "<runner_tmp()>/<name>" into `out` and makes that directory (mode 0700) if it is not
 * there: a test's own state directory. Returns `out`. */
const char *runner_dir(char *out, size_t size, const char *name);

/* argv[0]: for a test that runs its own program again in a child process. */
const char *runner_program(void);

#endif

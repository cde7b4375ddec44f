/*
 * check.h — the checks the C tests print: one line per check ("ok    what" or "FAIL  what" with
 * the last error), counted in `passed` and `failed` for the closing "N passed, N failed" line.
 * Included by one test program each (static: every program has its own counts).
 */
#ifndef AMBER_TEST_CHECK_H
#define AMBER_TEST_CHECK_H

#include "amber.h"

#include <stdarg.h>
#include <stdio.h>

static int passed, failed;

static inline void check(int ok, const char *what) {
    if (ok) {
        passed++;
        printf("ok    %s\n", what);
    } else {
        failed++;
        printf("FAIL  %s (last error: %s: %s)\n", what, amber_status_string(amber_error_last_code()),
               amber_error_last());
    }
    fflush(stdout); /* before any fork, so that no line is printed twice */
}

/* A check whose text is formatted (printf-style), for the values it names. */
static inline void checkf(int ok, const char *fmt, ...) {
    char line[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    check(ok, line);
}

/* A call's status is `want`. */
static inline void check_status(int got, int want, const char *what) {
    char line[512];
    snprintf(line, sizeof line, "%s -> %s", what, amber_status_string(want));
    if (got != want) {
        snprintf(line, sizeof line, "%s -> %s, expected %s", what, amber_status_string(got), amber_status_string(want));
    }
    check(got == want, line);
}

#endif

/*
 * runner.c — see runner.h. Built into every C test program by run-tests.sh.
 */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"
#include "scratch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int passed, failed;

static char run_dir[600];
static const char *program = "";

const char *runner_tmp(void) { return run_dir; }
const char *runner_program(void) { return program; }

const char *runner_dir(char *out, size_t size, const char *name) {
    snprintf(out, size, "%s/%s", run_dir, name);
    if (mkdir(out, 0700) != 0 && errno != EEXIST) printf("note: cannot make %s: %s\n", out, strerror(errno));
    return out;
}

/* The run's directory lies in the scratch directory, which scratch.h removes at exit. */
static int make_run_dir(void) {
    snprintf(run_dir, sizeof run_dir, "%s/run", scratch_xdg_root);
    if (mkdir(run_dir, 0700) != 0) {
        perror(run_dir);
        run_dir[0] = '\0';
        return 0;
    }
    return 1;
}

/* A prefix selects the test of that name and those whose name goes on with '_' after it, in
 * any case: "r10" selects r10 and r10_record_info, not r100; "R10" the same. */
static int selects(const char *prefix, const char *name) {
    size_t n = strlen(prefix);
    return strncasecmp(prefix, name, n) == 0 && (name[n] == '\0' || name[n] == '_' || (n > 0 && prefix[n - 1] == '_'));
}

static int selected(const char *name, int argc, char **argv) {
    int i;
    if (argc < 2) return 1;
    for (i = 1; i < argc; i++)
        if (selects(argv[i], name)) return 1;
    return 0;
}

/* Every prefix must select a test, every option be known: else say so and what to do. */
static int arguments_ok(const char *suite, const runner_test *tests, size_t count, int argc, char **argv) {
    int i, ok = 1;
    size_t t;
    for (i = 1; i < argc; i++) {
        int found = 0;
        if (argv[i][0] == '-') {
            fprintf(stderr, "test_%s: unknown option %s (usage: test_%s [--list] [PREFIX...])\n", suite, argv[i], suite);
            ok = 0;
            continue;
        }
        for (t = 0; t < count && !found; t++) found = selects(argv[i], tests[t].name);
        if (!found) {
            fprintf(stderr, "test_%s: no test is named %s or %s_...; test_%s --list names them\n", suite, argv[i], argv[i],
                    suite);
            ok = 0;
        }
    }
    return ok;
}

int runner_main(const char *suite, const runner_test *tests, size_t count, int argc, char **argv) {
    size_t t;
    program = argc > 0 ? argv[0] : "";
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (t = 0; t < count; t++) printf("%s\n", tests[t].name);
        return 0;
    }
    if (!arguments_ok(suite, tests, count, argc, argv)) return 2;
    /* Nothing of a test in the real home directory: engines opened without a state directory
     * keep their archive and key file under $XDG_STATE_HOME. */
    if (!scratch_xdg(suite) || !make_run_dir()) return 1;
    for (t = 0; t < count; t++) {
        if (!selected(tests[t].name, argc, argv)) continue;
        tests[t].run();
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

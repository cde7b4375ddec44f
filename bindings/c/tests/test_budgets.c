/*
 * R31 through the C ABI (issue 30, item 2): size budgets.
 *
 * - With object_budget, an object whose record is over it is left out with what is under it
 *   (AMBER_LEFT_OUT_OVER_BUDGET, its entry giving the bytes it took; AMBER_LEFT_OUT_UNDER_LEFT_OUT
 *   under it), the rest is saved (amber_engine_preserve() returns AMBER_OK), and a new engine on
 *   the same directory restores the rest and not the object over budget.
 * - The report lists the largest objects in the archive, the largest first, none left out, and
 *   amber_preservation_format() ends with them.
 * - With archive_budget, an archive over it is not written: AMBER_LIMIT_EXCEEDED,
 *   AMBER_NOT_SAVED_OVER_BUDGET, the largest objects still listed, and the previous archive kept.
 * - Options of version 2 (before the budgets) are still accepted, with no budget.
 *
 * The restore after the save is a relaunch in one call (amber_testing_relaunch(), R33); the
 * archive budget's checks open engines directly, each with its own options.
 *
 * Usage: test_budgets [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "check.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What each screen saves: a string of `length` bytes of `fill`, under "text". */
typedef struct screen {
    const char *identifier;
    size_t length;
    char fill;
    /* What its decode callback read back (0 bytes: not decoded). */
    size_t decoded;
} screen;

static screen screens[] = {
    {"Root", 10, 'r', 0},
    {"Small", 100, 's', 0},
    {"Big", 5000, 'b', 0},   /* over the budget of 1000 bytes */
    {"UnderBig", 20, 'u', 0}, /* a child of Big: left out with it */
    {"Medium", 600, 'm', 0},
};
enum { ROOT, SMALL, BIG, UNDER_BIG, MEDIUM, SCREENS };

static int yes_save(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int yes_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

static int encode(amber_object *o, amber_coder *c, void *ctx) {
    screen *s = ctx;
    char *text = malloc(s->length + 1);
    int status;
    (void)o;
    if (!text) return AMBER_CALLBACK_FAILED;
    memset(text, s->fill, s->length);
    text[s->length] = '\0';
    status = amber_coder_encode_string(c, "text", text);
    free(text);
    return status;
}

static int decode(amber_object *o, amber_decoder *d, void *ctx) {
    screen *s = ctx;
    const char *text = NULL;
    int status = amber_decoder_decode_string(&text, d, "text");
    (void)o;
    if (status == AMBER_OK) s->decoded = strlen(text);
    return status;
}

/* What the program does at start-up: the delegate, and the five screens (Root; under it Small,
 * Big, Medium; under Big UnderBig). The set-up of a relaunch (R33). */
static int set_up(amber_engine *e, void *ctx) {
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_object *o[SCREENS];
    size_t i;
    int status;
    (void)ctx;
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    if ((status = amber_engine_set_delegate(e, &d, NULL, NULL)) != AMBER_OK) return status;
    cb.encode = encode;
    cb.decode = decode;
    for (i = 0; i < SCREENS; i++) {
        screens[i].decoded = 0;
        status = amber_object_new(&o[i], e, AMBER_KIND_CONTROLLER, "Screen", screens[i].identifier, &cb, &screens[i], NULL);
        if (status != AMBER_OK) return status;
    }
    if ((status = amber_engine_add_root(e, o[ROOT])) != AMBER_OK) return status;
    if ((status = amber_object_add_child(o[ROOT], o[SMALL])) != AMBER_OK) return status;
    if ((status = amber_object_add_child(o[ROOT], o[BIG])) != AMBER_OK) return status;
    if ((status = amber_object_add_child(o[BIG], o[UNDER_BIG])) != AMBER_OK) return status;
    return amber_object_add_child(o[ROOT], o[MEDIUM]);
}

/* An engine with the program set up, or NULL. */
static amber_engine *host(const amber_engine_options *opts) {
    amber_engine *e = NULL;
    if (amber_engine_open(&e, "org.amber.test.budgets", opts) != AMBER_OK) return NULL;
    if (set_up(e, NULL) != AMBER_OK) {
        amber_engine_close(e);
        return NULL;
    }
    return e;
}

/* The entry whose path ends with `identifier`, or -1. */
static long find(const amber_preservation *p, const char *identifier, amber_preservation_entry *out) {
    size_t i, n = amber_preservation_count(p);
    for (i = 0; i < n; i++) {
        if (amber_preservation_entry_at(out, p, i) == AMBER_OK && out->path_length > 0 &&
            strcmp(out->path[out->path_length - 1], identifier) == 0)
            return (long)i;
    }
    return -1;
}

static void options(amber_engine_options *opts, const char *dir) {
    *opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts->state_directory = dir;
    opts->protection = AMBER_PROTECTION_NONE;
}

/* The first three points of the file's comment: each part goes on from the archive the one
 * before it left. */
static void test_r31_budgets(void) {
    char dir[700];
    amber_engine_options opts;
    amber_engine *e;
    amber_preservation *p = NULL;
    amber_preservation_entry entry, first, second;
    amber_report *report = NULL;
    amber_buf text = AMBER_BUF_INIT;
    int saved = 0, status;
    size_t i, n;
    runner_dir(dir, sizeof dir, "state");

    printf("== R31 an object over the budget per object: left out with its subtree, named with its size\n");
    options(&opts, dir);
    opts.object_budget = 1000;
    e = host(&opts);
    check(e != NULL, "an engine with object_budget 1000 (options version 3)");
    if (!e) return;
    status = amber_engine_preserve(&saved, e);
    check(status == AMBER_OK && saved == 1, "R31 preserve returns AMBER_OK and writes an archive");
    check(amber_engine_preservation(&p, e) == AMBER_OK, "the preservation report");
    checkf(amber_preservation_not_saved(p) == AMBER_NOT_SAVED_NONE && amber_preservation_size(p) < 5000,
           "R31 ... the archive was written, %llu bytes: without Big's 5000 (its values dropped)",
           (unsigned long long)amber_preservation_size(p));
    check(find(p, "Big", &entry) >= 0 && entry.left_out == AMBER_LEFT_OUT_OVER_BUDGET,
          "R31 Big is left out: AMBER_LEFT_OUT_OVER_BUDGET");
    checkf(entry.size > 5000 && entry.size < 6000 && strstr(entry.message, "1000") != NULL &&
               strstr(entry.message, "budget") != NULL,
           "R31 ... with its size (%llu bytes) and the budget in its message (\"%s\")", (unsigned long long)entry.size,
           entry.message);
    check(find(p, "UnderBig", &entry) >= 0 && entry.left_out == AMBER_LEFT_OUT_UNDER_LEFT_OUT &&
              strstr(entry.message, "Big") != NULL,
          "R31 UnderBig, under it, is left out with it, naming Big");
    check(find(p, "Small", &entry) >= 0 && entry.left_out == AMBER_LEFT_OUT_NONE && entry.size > 100,
          "R31 Small is preserved, with its size");
    check(find(p, "Medium", &entry) >= 0 && entry.left_out == AMBER_LEFT_OUT_NONE, "R31 Medium is preserved");

    printf("== R31 the largest objects\n");
    n = amber_preservation_largest_count(p);
    check(n == 3, "R31 three objects in the archive, three largest (Root, Small, Medium)");
    check(amber_preservation_largest_at(&first, p, 0) == AMBER_OK &&
              strcmp(first.path[first.path_length - 1], "Medium") == 0,
          "R31 ... Medium first");
    for (i = 0; i < n; i++) {
        if (amber_preservation_largest_at(&entry, p, i) != AMBER_OK || entry.left_out != AMBER_LEFT_OUT_NONE) break;
        if (i > 0 && entry.size > second.size) break;
        second = entry;
    }
    check(i == n, "R31 ... each not larger than the one before, every one preserved (Big, left out, is not among them)");
    check_status(amber_preservation_largest_at(&entry, p, n), AMBER_NOT_FOUND, "amber_preservation_largest_at past the last");
    check_status(amber_preservation_largest_at(NULL, p, 0), AMBER_INVALID_ARGUMENT, "amber_preservation_largest_at(NULL)");
    check(amber_preservation_largest_count(NULL) == 0, "amber_preservation_largest_count(NULL) is 0");
    check(amber_preservation_format(&text, p) == AMBER_OK && strstr((const char *)text.ptr, "largest:") != NULL &&
              strstr((const char *)text.ptr, "1. /Root/Medium") != NULL,
          "R31 amber_preservation_format() ends with the largest objects");
    amber_buf_dispose(&text);
    amber_preservation_free(p);
    p = NULL;

    printf("== R31 the rest is restored (a relaunch, R33)\n");
    {
        amber_relaunch relaunch = AMBER_RELAUNCH_INIT;
        relaunch.set_up = set_up;
        check_status(amber_testing_relaunch(&report, &e, &relaunch, NULL), AMBER_OK,
                     "amber_testing_relaunch: the program saved (Big left out again), killed and launched again");
    }
    if (!e || !report) return;
    check(amber_report_fresh_reason(report) == AMBER_FRESH_NONE, "R31 ... and it restores");
    check(screens[ROOT].decoded == 10 && screens[SMALL].decoded == 100 && screens[MEDIUM].decoded == 600,
          "R31 Root, Small and Medium get their state back");
    check(screens[BIG].decoded == 0 && screens[UNDER_BIG].decoded == 0, "R31 Big and UnderBig do not (left out)");
    n = amber_report_count(report);
    for (i = 0; i < n; i++) {
        amber_report_record r;
        if (amber_report_record_at(&r, report, i) == AMBER_OK && r.path_length == 2 && strcmp(r.path[1], "Big") == 0) {
            check(r.outcome == AMBER_OUTCOME_LEFT_OUT, "R31 the restoration report says Big was left out");
        }
    }
    amber_report_free(report);
    report = NULL;
    check(amber_engine_preserve(&saved, e) == AMBER_OK, "a save for the next part");
    amber_engine_close(e);

    printf("== R31 an archive over its budget: nothing written, the previous archive kept\n");
    options(&opts, dir);
    opts.archive_budget = 500;
    e = host(&opts);
    check(e != NULL, "an engine with archive_budget 500");
    if (!e) return;
    check_status(amber_engine_preserve(&saved, e), AMBER_LIMIT_EXCEEDED, "R31 preserve");
    check(amber_engine_preservation(&p, e) == AMBER_OK && amber_preservation_not_saved(p) == AMBER_NOT_SAVED_OVER_BUDGET,
          "R31 ... the report says AMBER_NOT_SAVED_OVER_BUDGET");
    checkf(strstr(amber_preservation_message(p), "500") != NULL, "R31 ... its message gives the budget (\"%s\")",
           amber_preservation_message(p));
    check(amber_preservation_largest_count(p) == SCREENS && amber_preservation_largest_at(&entry, p, 0) == AMBER_OK &&
              strcmp(entry.path[entry.path_length - 1], "Big") == 0 && entry.size > 5000,
          "R31 ... and still lists the largest objects: Big first, with its size");
    amber_preservation_free(p);
    p = NULL;
    amber_engine_close(e);
    options(&opts, dir);
    e = host(&opts);
    check(e != NULL && amber_engine_launch(&report, e, AMBER_APP_INACTIVE) == AMBER_OK &&
              amber_report_fresh_reason(report) == AMBER_FRESH_NONE && screens[SMALL].decoded == 100 &&
              screens[BIG].decoded == 0,
          "R31 the previous archive was kept: the next launch restores it (Big still left out)");
    amber_report_free(report);
    report = NULL;
    amber_engine_close(e);
}

static void test_r31_options_version_2(void) {
    char dir[700];
    amber_engine *e;
    amber_preservation *p = NULL;
    amber_preservation_entry entry;
    int saved = 0;
    runner_dir(dir, sizeof dir, "state");
    printf("== R31 options of version 2 are still accepted, without budgets\n");
    {
        amber_engine_options v2;
        options(&v2, dir);
        v2.version = 2;
        /* The bytes past version 2's end are not the host's: they must not be read. */
        v2.object_budget = 1;
        v2.archive_budget = 1;
        e = host(&v2);
        check(e != NULL && amber_engine_preserve(&saved, e) == AMBER_OK && saved == 1,
              "R31 version 2: no budget read, the whole archive saved");
        if (e && amber_engine_preservation(&p, e) == AMBER_OK) {
            check(find(p, "Big", &entry) >= 0 && entry.left_out == AMBER_LEFT_OUT_NONE, "R31 ... Big preserved");
            amber_preservation_free(p);
        }
        amber_engine_close(e);
        v2.version = 4;
        check(amber_engine_open(&e, "org.amber.test.budgets", &v2) == AMBER_INVALID_ARGUMENT,
              "an unknown version is AMBER_INVALID_ARGUMENT");
    }
}

static const runner_test tests[] = {
    {"r31_budgets", test_r31_budgets},
    {"r31_options_version_2", test_r31_options_version_2},
};

int main(int argc, char **argv) {
    return runner_main("budgets", tests, RUNNER_COUNT(tests), argc, argv);
}

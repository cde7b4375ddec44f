/*
 * Dirty marking and autosave through include/amber.h alone (R32): a save due after a change and
 * none without one, driven as an event loop would (amber_engine_autosave_timeout(), then
 * amber_engine_tick()); a save that calls only the dirty objects' encode callbacks and restores
 * every value; the option that keeps the archive after a restore.
 *
 * The engines share a store in this process's memory (a host store). A relaunch is the relaunch
 * test helper (R33, amber_testing_relaunch()); the launches that crash before a save (R14) open
 * engines directly, since the helper saves first.
 *
 * Usage: test_autosave [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "amber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "mem_store.h"

/* ---- the archive, in memory: its writes are counted ----------------------------------- */

static mem_store store;
/* The store's functions, for every engine of this test. */
static amber_store memory;

/* ---- the host: a root with three screens, each saving its number ------------------------- */

enum { SCREENS = 3 };
static int64_t values[SCREENS];
static int64_t decoded[SCREENS];
static int encodes;

static int yes_save(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int yes_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

static int screen_encode(amber_object *o, amber_coder *c, void *ctx) {
    (void)o;
    encodes++;
    return amber_coder_encode_int64(c, "value", values[(intptr_t)ctx]);
}

static int screen_decode(amber_object *o, amber_decoder *d, void *ctx) {
    (void)o;
    return amber_decoder_decode_int64(&decoded[(intptr_t)ctx], d, "value");
}

static amber_object *screens[SCREENS];

/* An engine on the memory store with the root and its screens, or NULL. `version`: the
 * options' version (0: the header's). */
static amber_engine *open_host_version(int keep_archive, unsigned version);

static amber_engine *open_host(int keep_archive) { return open_host_version(keep_archive, 0); }

/* The program's start-up: its delegate, its root and screens (the relaunch's set-up). */
static int set_up(amber_engine *e, void *ctx) {
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_object *root = NULL;
    intptr_t i;
    (void)ctx;
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "root", NULL, NULL, NULL);
    amber_engine_add_root(e, root);
    cb.encode = screen_encode;
    cb.decode = screen_decode;
    for (i = 0; i < SCREENS; i++) {
        char id[16];
        snprintf(id, sizeof id, "screen%d", (int)i);
        amber_object_new(&screens[i], e, AMBER_KIND_CONTROLLER, "Screen", id, &cb, (void *)i, NULL);
        amber_object_add_child(root, screens[i]);
    }
    return AMBER_OK;
}

static amber_engine *open_host_version(int keep_archive, unsigned version) {
    amber_engine_options o = AMBER_ENGINE_OPTIONS_INIT;
    amber_engine *e = NULL;
    memory = mem_store_functions();
    o.store = &memory;
    o.store_ctx = &store;
    o.protection = AMBER_PROTECTION_NONE;
    o.keep_archive_after_restore = keep_archive;
    if (version) o.version = version;
    if (amber_engine_open(&e, "org.amber.test-autosave", &o) != AMBER_OK) return NULL;
    set_up(e, NULL);
    return e;
}

/* R33: kills the program and launches it again; *out receives the launch's report. */
static int relaunch(amber_report **out, amber_engine **e) {
    amber_relaunch r = AMBER_RELAUNCH_INIT;
    r.set_up = set_up;
    return amber_testing_relaunch(out, e, &r, NULL);
}

static void sleep_ms(int ms) {
    struct timespec t;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (nanosleep(&t, &t) != 0) {}
}

static int timeout_of(amber_engine *e) {
    int ms = -2;
    if (amber_engine_autosave_timeout(&ms, e) != AMBER_OK) return -2;
    return ms;
}

/* R32: an event loop's turn: waits what the engine says (at most `limit` ms), then ticks. */
static int loop_turn(amber_engine *e, int limit) {
    int ms = timeout_of(e), saved = 0;
    if (ms < 0 || ms > limit) ms = limit;
    sleep_ms(ms);
    if (amber_engine_tick(&saved, e) != AMBER_OK) return -1;
    return saved;
}

/* ---- the tests ------------------------------------------------------------------------------ */

static void test_r32_autosave_fires_after_a_change_and_not_without(void) {
    amber_engine *e;
    amber_autosave policy = AMBER_AUTOSAVE_INIT;
    int saved = -1, ms;
    amber_report *report = NULL;
    mem_store_clear(&store);
    values[0] = 10, values[1] = 11, values[2] = 12;
    e = open_host(0);
    check(e != NULL, "R32: an engine on the memory store");
    if (!e) return;
    policy.quiet_ms = 40;
    policy.min_interval_ms = -1;
    check_status(amber_engine_set_autosave(e, &policy), AMBER_OK, "R32: amber_engine_set_autosave");

    /* No change: nothing to wait for, and ticks after the quiet time save nothing. */
    check(timeout_of(e) == -1, "R32: without a change the timeout is -1");
    check(loop_turn(e, 80) == 0 && loop_turn(e, 80) == 0, "R32: without a change, ticks save nothing");
    check(store.writes == 0, "R32: without a change, no archive is written");

    /* A change: due after the quiet time, not before. */
    check_status(amber_object_mark_dirty(screens[1]), AMBER_OK, "R32: amber_object_mark_dirty");
    ms = timeout_of(e);
    checkf(ms > 0 && ms <= 40, "R32: after a change the timeout is within the quiet time (%d ms)", ms);
    check_status(amber_engine_tick(&saved, e), AMBER_OK, "R32: a tick before the quiet time");
    check(saved == 0 && store.writes == 0, "R32: a tick before the quiet time saves nothing");
    check(loop_turn(e, 1000) == 1, "R32: the event loop's tick after the quiet time saves");
    check(store.writes == 1, "R32: one archive written");
    check(timeout_of(e) == -1, "R32: once saved, nothing to wait for");
    check(loop_turn(e, 80) == 0 && store.writes == 1, "R32: and no second save without a change");

    /* Only the dirty screen's callback is called again; every value restores. */
    values[1] = 111;
    encodes = 0;
    amber_object_mark_dirty(screens[1]);
    check(loop_turn(e, 1000) == 1, "R32: a second change, a second save");
    checkf(encodes == 1, "R32: the save called only the dirty screen's encode callback (%d calls)", encodes);

    /* The relaunch saves once more (nothing dirty: every state reused), then restores. */
    memset(decoded, 0, sizeof decoded);
    encodes = 0;
    check_status(relaunch(&report, &e), AMBER_OK, "R32 R33: amber_testing_relaunch");
    checkf(encodes == 0, "R32: the relaunch's save, nothing dirty, reused every state (%d encode calls)", encodes);
    if (!e) return;
    checkf(decoded[0] == 10 && decoded[1] == 111 && decoded[2] == 12,
           "R32: the clean screens' reused states and the dirty one's new state restore (%lld %lld %lld)",
           (long long)decoded[0], (long long)decoded[1], (long long)decoded[2]);
    amber_report_free(report);

    /* The new engine has no policy until it is given one; turned off, a change is due no more. */
    amber_object_mark_dirty(screens[0]);
    check(timeout_of(e) == -1, "R32: without a policy (the default), a change makes nothing due");
    amber_engine_set_autosave(e, &policy);
    check(timeout_of(e) >= 0, "R32: given a policy, the change is due");
    check_status(amber_engine_set_autosave(e, NULL), AMBER_OK, "R32: amber_engine_set_autosave(NULL) turns it off");
    check(timeout_of(e) == -1, "R32: with autosave off, nothing is due");
    amber_engine_close(e);
}

static void test_r32_misuse(void) {
    amber_engine *e = open_host(0);
    amber_autosave policy = AMBER_AUTOSAVE_INIT;
    amber_object *freed = NULL;
    int ms = 0;
    if (!e) return;
    policy.version = 99;
    check_status(amber_engine_set_autosave(e, &policy), AMBER_INVALID_ARGUMENT, "R32: an amber_autosave of unknown version");
    policy.version = AMBER_AUTOSAVE_VERSION;
    policy.quiet_ms = 86400001;
    check_status(amber_engine_set_autosave(e, &policy), AMBER_INVALID_ARGUMENT, "R32: a quiet time above a day");
    check_status(amber_engine_set_autosave(NULL, NULL), AMBER_INVALID_ARGUMENT, "R32: amber_engine_set_autosave(NULL engine)");
    check_status(amber_engine_autosave_timeout(NULL, e), AMBER_INVALID_ARGUMENT, "R32: amber_engine_autosave_timeout(NULL out)");
    check_status(amber_engine_autosave_timeout(&ms, NULL), AMBER_INVALID_ARGUMENT, "R32: amber_engine_autosave_timeout(NULL engine)");
    check_status(amber_engine_tick(NULL, NULL), AMBER_INVALID_ARGUMENT, "R32: amber_engine_tick(NULL engine)");
    check_status(amber_object_mark_dirty(NULL), AMBER_INVALID_ARGUMENT, "R32: amber_object_mark_dirty(NULL)");
    amber_object_new(&freed, e, AMBER_KIND_CONTROLLER, "Gone", "gone", NULL, NULL, NULL);
    amber_object_free(freed);
    check_status(amber_object_mark_dirty(freed), AMBER_MISUSE, "R32: amber_object_mark_dirty of a freed object");
    amber_engine_close(e);
}

static void test_r32_keep_archive_after_restore(void) {
    amber_engine *e;
    amber_report *report = NULL;
    int saved = 0;
    mem_store_clear(&store);
    e = open_host(1);
    if (!e) return;
    check_status(relaunch(&report, &e), AMBER_OK, "R32 R33: a relaunch with keep_archive_after_restore");
    check(amber_report_fresh_reason(report) == AMBER_FRESH_NONE, "R32: the relaunch restored");
    amber_report_free(report);
    if (!e) return;
    check(store.bytes != NULL, "R32: keep_archive_after_restore keeps the archive after a restore");
    check(store.guard == 0, "R32 R14: and no launch count: the restoration completed");
    amber_engine_preserve(&saved, e);
    check(store.bytes != NULL && store.guard == 0, "R32: the next save replaces it");
    amber_engine_close(e);

    /* Launches that complete, with no save between them, all restore it (issue 39, item 2). */
    for (int i = 1; i <= 3; i++) {
        e = open_host(1);
        amber_engine_launch(&report, e, AMBER_APP_INACTIVE);
        checkf(amber_report_fresh_reason(report) == AMBER_FRESH_NONE && store.bytes != NULL && store.guard == 0,
               "R32 R14: launch %d without a save restores the kept archive, not a crash loop (%d: %s)", i,
               (int)amber_report_fresh_reason(report), amber_report_message(report));
        amber_report_free(report);
        amber_engine_close(e);
    }

    /* Two launches that died while restoring (their count is left): the third discards (R14). */
    store.guard = 2;
    e = open_host(1);
    amber_engine_launch(&report, e, AMBER_APP_INACTIVE);
    check(amber_report_fresh_reason(report) == AMBER_FRESH_CRASH_LOOP && store.bytes == NULL,
          "R32 R14: after two launches that died while restoring, the kept archive is discarded");
    amber_report_free(report);
    amber_engine_close(e);

    /* The default is UIKit's: discarded once restored. */
    e = open_host(0);
    amber_engine_preserve(&saved, e);
    amber_engine_close(e);
    e = open_host(0);
    amber_engine_launch(&report, e, AMBER_APP_INACTIVE);
    amber_report_free(report);
    check(store.bytes == NULL, "R32 R14: without the option the archive is discarded once restored");
    amber_engine_close(e);

    /* Options of version 2 end before the member: what lies there is not read. */
    e = open_host(0);
    amber_engine_preserve(&saved, e);
    amber_engine_close(e);
    e = open_host_version(1, 2);
    check(e != NULL, "R32: amber_engine_options of version 2 are accepted");
    if (e) amber_engine_launch(&report, e, AMBER_APP_INACTIVE);
    amber_report_free(report);
    check(store.bytes == NULL, "R32: version 2 options do not read keep_archive_after_restore");
    amber_engine_close(e);
    mem_store_clear(&store);
}

static const runner_test tests[] = {
    {"r32_autosave_fires_after_a_change_and_not_without", test_r32_autosave_fires_after_a_change_and_not_without},
    {"r32_misuse", test_r32_misuse},
    {"r32_keep_archive_after_restore", test_r32_keep_archive_after_restore},
};

int main(int argc, char **argv) {
    return runner_main("autosave", tests, RUNNER_COUNT(tests), argc, argv);
}

/*
 * R33 through the C ABI: amber_testing_relaunch() (amber/testing.h), the kill and relaunch of a
 * program inside one test process. Each check names its rule.
 *
 * The program under test is one root controller ("root") with a child ("detail") that saves
 * the text in `program.value` and reads it back into `program.restored`.
 *
 * Nothing goes into the real home directory (scratch.h).
 *
 * Usage: test_relaunch. Prints one line per check and "N passed, N failed"; exits non-zero if
 * a check fails.
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "scratch.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the program under test -------------------------------------------------------------- */

static struct {
    char value[64];     /* what detail saves */
    char restored[64];  /* what detail read back at the last restore ("" if nothing) */
    int set_ups, tear_downs;
    int save;           /* what should_save answers */
    int will_encode_code;
    int tear_down_code, set_up_code;
    char order[64];     /* 'T' per tear-down, 'S' per set-up, 'R' per will-resign-active */
    amber_engine *torn_down;  /* the engine the tear-down was given */
    int nested_status;  /* amber_testing_relaunch() called from the tear-down, if asked */
    int nest;
} program;

static void note(char c) {
    size_t n = strlen(program.order);
    if (n + 1 < sizeof program.order) { program.order[n] = c; program.order[n + 1] = '\0'; }
}

static int should_save(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return program.save; }
static int should_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }
static int will_encode(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return program.will_encode_code; }

static int encode(amber_object *o, amber_coder *c, void *ctx) {
    (void)o; (void)ctx;
    return amber_coder_encode_string(c, "value", program.value);
}

static int decode(amber_object *o, amber_decoder *d, void *ctx) {
    const char *s = NULL;
    int status = amber_decoder_decode_string(&s, d, "value");
    (void)o; (void)ctx;
    if (status == AMBER_OK) snprintf(program.restored, sizeof program.restored, "%s", s);
    return status;
}

static int resigning(const amber_notification *n, void *ctx) { (void)n; (void)ctx; note('R'); return 0; }

/* The program's start-up: the delegate, the default interface, the roots. */
static int set_up(amber_engine *e, void *ctx) {
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_object *root = NULL, *detail = NULL;
    uint64_t token = 0;
    int status;
    (void)ctx;
    program.set_ups++;
    note('S');
    if (program.set_up_code) return program.set_up_code;
    d.should_save = should_save;
    d.should_restore = should_restore;
    d.will_encode = will_encode;
    if ((status = amber_engine_set_delegate(e, &d, NULL, NULL)) != AMBER_OK) return status;
    cb.encode = encode;
    cb.decode = decode;
    if ((status = amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "root", NULL, NULL, NULL)) != AMBER_OK) return status;
    if ((status = amber_object_new(&detail, e, AMBER_KIND_CONTROLLER, "Detail", "detail", &cb, NULL, NULL)) != AMBER_OK) return status;
    if ((status = amber_object_add_child(root, detail)) != AMBER_OK) return status;
    if ((status = amber_engine_add_observer(&token, e, AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE, NULL, resigning, NULL, NULL)) != AMBER_OK)
        return status;
    return amber_engine_add_root(e, root);
}

static int tear_down(amber_engine *e, void *ctx) {
    (void)ctx;
    program.tear_downs++;
    program.torn_down = e;
    note('T');
    if (program.nest) {
        amber_report *r = NULL;
        amber_engine *same = e;
        amber_relaunch again = AMBER_RELAUNCH_INIT;
        again.set_up = set_up;
        program.nested_status = amber_testing_relaunch(&r, &same, &again, NULL);
        amber_report_free(r);
    }
    return program.tear_down_code;
}

static void reset(const char *value) {
    memset(&program, 0, sizeof program);
    snprintf(program.value, sizeof program.value, "%s", value);
    program.save = 1;
}

/* A launched program on an engine opened with `opts`, or NULL. */
static amber_engine *launched(const amber_engine_options *opts) {
    amber_engine *e = NULL;
    amber_report *r = NULL;
    if (amber_engine_open(&e, "org.amber.tests.relaunch", opts) != AMBER_OK) return NULL;
    if (set_up(e, NULL) != AMBER_OK || amber_engine_launch(&r, e, AMBER_APP_INACTIVE) != AMBER_OK) {
        amber_engine_close(e);
        return NULL;
    }
    amber_report_free(r);
    return e;
}

static amber_relaunch callbacks(void) {
    amber_relaunch r = AMBER_RELAUNCH_INIT;
    r.set_up = set_up;
    r.tear_down = tear_down;
    return r;
}

/* ---- a host store that counts what it holds and its ctx_free --------------------------------- */

static struct {
    uint8_t *bytes;
    size_t size;
    int guard;
    int frees;
} store;

static int store_read(void *(*alloc)(size_t, void *), void *alloc_ctx, uint8_t **out, size_t *out_size, int *found, void *ctx) {
    (void)ctx;
    *found = store.bytes != NULL;
    *out_size = 0;
    if (!store.bytes) return 0;
    *out = alloc(store.size, alloc_ctx);
    if (!*out) return AMBER_LIMIT_EXCEEDED;
    memcpy(*out, store.bytes, store.size);
    *out_size = store.size;
    return 0;
}
static int store_write(const uint8_t *bytes, size_t size, void *ctx) {
    (void)ctx;
    free(store.bytes);
    store.bytes = malloc(size ? size : 1);
    memcpy(store.bytes, bytes, size);
    store.size = size;
    return 0;
}
static int store_remove(void *ctx) { (void)ctx; free(store.bytes); store.bytes = NULL; store.size = 0; return 0; }
static int store_read_guard(int *out, void *ctx) { (void)ctx; *out = store.guard; return 0; }
static int store_write_guard(int count, void *ctx) { (void)ctx; store.guard = count; return 0; }
static void store_free(void *ctx) { (void)ctx; store.frees++; }
static int key_frees;
static int key_callback(uint8_t key[32], int for_saving, void *ctx) { (void)for_saving; (void)ctx; memset(key, 0x5a, 32); return 0; }
static void key_free(void *ctx) { (void)ctx; key_frees++; }

/* ---- R33 --------------------------------------------------------------------------------- */

static void relaunch_restores(void) {
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_engine *e, *old;
    amber_report *r = NULL;
    amber_report_record rec;
    amber_relaunch cbs = callbacks();
    int status;
    reset("draft 7");
    opts.memory_store = 1;
    e = launched(&opts);
    check(e != NULL, "R33 a program on a memory store launches");
    if (!e) return;
    check_status(amber_engine_transition(NULL, e, AMBER_APP_ACTIVE), AMBER_OK, "R33 the program becomes active");
    old = e;
    program.order[0] = '\0';
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    check_status(status, AMBER_OK, "R33 amber_testing_relaunch");
    checkf(e != NULL && e != old, "R33 *engine is replaced by the new engine");
    checkf(program.torn_down == old, "R33 the tear-down is given the engine relaunched");
    checkf(strcmp(program.order, "RTS") == 0, "R33 will-resign-active, then the tear-down, then the set-up (%s)", program.order);
    checkf(strcmp(program.restored, "draft 7") == 0, "R33 the new engine's decode callback gets the value back (\"%s\")", program.restored);
    checkf(amber_report_fresh_reason(r) == AMBER_FRESH_NONE && amber_report_count(r) == 2, "R33 the report: restored, 2 records");
    checkf(amber_report_record_at(&rec, r, 1) == AMBER_OK && rec.outcome == AMBER_OUTCOME_RESTORED && strcmp(rec.class_name, "Detail") == 0,
           "R33 the report's second record is Detail, restored");
    check(amber_engine_app_state(e) == AMBER_APP_INACTIVE, "R33 the new engine is inactive");
    check(amber_engine_app_state(old) == AMBER_APP_INVALID && amber_error_last_code() == AMBER_MISUSE,
          "R33 the engine relaunched is closed (its handle is AMBER_MISUSE)");
    amber_report_free(r);
    r = NULL;

    /* A second relaunch, into the background, carries the new value. */
    snprintf(program.value, sizeof program.value, "draft 8");
    cbs.launch_state = AMBER_APP_BACKGROUND;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    check_status(status, AMBER_OK, "R33 a second relaunch, into the background");
    checkf(strcmp(program.restored, "draft 8") == 0, "R33 the second relaunch restores the second value (\"%s\")", program.restored);
    check(amber_engine_app_state(e) == AMBER_APP_BACKGROUND, "R33 the new engine launched into the background");
    amber_report_free(r);
    r = NULL;

    /* should_save declines: nothing saved, the launch is fresh, and that is not a failure. */
    program.save = 0;
    program.restored[0] = '\0';
    cbs.launch_state = AMBER_APP_INACTIVE;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    check_status(status, AMBER_OK, "R33 a relaunch where should_save declines");
    check(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE && program.restored[0] == '\0',
          "R33 ... is a fresh launch (no archive), nothing decoded");
    amber_report_free(r);
    amber_engine_close(e);
}

/* The contexts of the store and of the key pass to the new engine: released once, at its close. */
static void relaunch_keeps_the_store(void) {
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_store vt = AMBER_STORE_INIT;
    amber_engine *e;
    amber_report *r = NULL;
    amber_relaunch cbs = callbacks();
    int status;
    reset("on a host store");
    memset(&store, 0, sizeof store);
    key_frees = 0;
    vt.read = store_read;
    vt.write = store_write;
    vt.remove = store_remove;
    vt.read_guard = store_read_guard;
    vt.write_guard = store_write_guard;
    opts.store = &vt;
    opts.store_ctx_free = store_free;
    opts.protection = AMBER_PROTECTION_KEY_CALLBACK;
    opts.key_callback = key_callback;
    opts.key_ctx_free = key_free;
    e = launched(&opts);
    check(e != NULL, "R33 a program on a host store with a key callback launches");
    if (!e) return;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    check_status(status, AMBER_OK, "R33 relaunch on a host store");
    checkf(strcmp(program.restored, "on a host store") == 0, "R33 ... restores through the same store and key (\"%s\")", program.restored);
    checkf(store.frees == 0 && key_frees == 0, "R33 ... the store's and key's contexts are not released by the relaunch (%d, %d)",
           store.frees, key_frees);
    amber_report_free(r);
    amber_engine_close(e);
    checkf(store.frees == 1 && key_frees == 1, "R33 ... they are released once, when the new engine closes (%d, %d)", store.frees,
           key_frees);
    free(store.bytes);
    memset(&store, 0, sizeof store);
}

static void relaunch_failures(void) {
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_store vt = AMBER_STORE_INIT;
    amber_engine *e, *old, *none = NULL, *closed = NULL;
    amber_report *r = NULL;
    amber_relaunch cbs = callbacks(), bad;
    int status;
    reset("kept");
    opts.memory_store = 1;
    e = launched(&opts);
    check(e != NULL, "R33 a program launches (failures)");
    if (!e) return;

    check_status(amber_testing_relaunch(NULL, &e, &cbs, NULL), AMBER_INVALID_ARGUMENT, "R33 NULL out");
    check_status(amber_testing_relaunch(&r, NULL, &cbs, NULL), AMBER_INVALID_ARGUMENT, "R33 NULL engine");
    check_status(amber_testing_relaunch(&r, &none, &cbs, NULL), AMBER_INVALID_ARGUMENT, "R33 *engine NULL");
    check_status(amber_testing_relaunch(&r, &e, NULL, NULL), AMBER_INVALID_ARGUMENT, "R33 NULL relaunch");
    bad = cbs;
    bad.set_up = NULL;
    check_status(amber_testing_relaunch(&r, &e, &bad, NULL), AMBER_INVALID_ARGUMENT, "R33 NULL set_up");
    bad = cbs;
    bad.version = 99;
    check_status(amber_testing_relaunch(&r, &e, &bad, NULL), AMBER_INVALID_ARGUMENT, "R33 an unknown version");
    bad = cbs;
    bad.launch_state = AMBER_APP_ACTIVE;
    check_status(amber_testing_relaunch(&r, &e, &bad, NULL), AMBER_INVALID_ARGUMENT, "R33 a launch state other than inactive or background");
    amber_engine_open(&closed, "org.amber.tests.relaunch", &opts);
    old = closed;
    amber_engine_close(closed);
    check_status(amber_testing_relaunch(&r, &closed, &cbs, NULL), AMBER_MISUSE, "R33 a closed engine");
    checkf(closed == old && r == NULL, "R33 ... *engine untouched, *out NULL");
    checkf(program.set_ups == 1 && program.tear_downs == 0, "R33 ... no callback ran for a refused call");

    /* From inside one of the engine's callbacks: refused, nothing done. */
    program.nest = 1;
    program.tear_down_code = 0;
    old = e;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    check_status(program.nested_status, AMBER_MISUSE, "R33 amber_testing_relaunch from the tear-down of the same engine");
    check_status(status, AMBER_OK, "R33 ... the outer relaunch still succeeds");
    amber_report_free(r);
    r = NULL;
    program.nest = 0;

    /* The preservation fails: its code, nothing torn down, the engine kept. */
    program.will_encode_code = 79;
    program.tear_downs = program.set_ups = 0;
    old = e;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    checkf(status == 79 && amber_error_last_code() == 79 && strstr(amber_error_last(), "preserving failed") != NULL,
           "R33 will_encode fails with 79 -> 79, the message names the step (%s)", amber_error_last());
    checkf(e == old && r == NULL && program.tear_downs == 0 && program.set_ups == 0,
           "R33 ... nothing torn down, *engine is the engine given, *out NULL");
    check(amber_engine_app_state(e) == AMBER_APP_BACKGROUND, "R33 ... which is still open, in the background");
    program.will_encode_code = 0;

    /* The tear-down fails: its code, the engine kept and usable. */
    program.tear_down_code = 77;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    checkf(status == 77 && strstr(amber_error_last(), "the tear-down failed") != NULL, "R33 tear_down returns 77 -> 77 (%s)",
           amber_error_last());
    checkf(e == old && r == NULL && program.set_ups == 0, "R33 ... *engine is the engine given, no set-up");
    check_status(amber_engine_preserve(NULL, e), AMBER_OK, "R33 ... which still preserves");
    program.tear_down_code = 0;
    amber_engine_close(e);

    /* The set-up fails: its code, both engines closed, *engine NULL, the contexts released. */
    memset(&store, 0, sizeof store);
    vt.read = store_read;
    vt.write = store_write;
    vt.remove = store_remove;
    vt.read_guard = store_read_guard;
    vt.write_guard = store_write_guard;
    opts.memory_store = 0;
    opts.store = &vt;
    opts.store_ctx_free = store_free;
    e = launched(&opts);
    check(e != NULL, "R33 a program on a host store launches (set-up failure)");
    if (!e) return;
    program.set_up_code = 78;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    checkf(status == 78 && strstr(amber_error_last(), "the set-up failed") != NULL && strstr(amber_error_last(), "*engine is NULL") != NULL,
           "R33 set_up returns 78 -> 78, the message says *engine is NULL (%s)", amber_error_last());
    checkf(e == NULL && r == NULL, "R33 ... *engine and *out are NULL");
    checkf(store.frees == 1, "R33 ... the store's context is released once, nothing leaked (%d)", store.frees);
    free(store.bytes);
    memset(&store, 0, sizeof store);
}

int main(void) {
    if (!scratch_xdg("relaunch")) return 1;
    relaunch_restores();
    relaunch_keeps_the_store();
    relaunch_failures();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

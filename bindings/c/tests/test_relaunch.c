/*
 * R33 through the C ABI: amber_testing_relaunch() (amber/testing.h), the kill and relaunch of a
 * program inside one test process; and R34, sensitive values, checked with it: a run with
 * distinctive values, whose files, log lines and `amber inspect`/`amber dump` output are
 * scanned for the sensitive one. Each check names its rule.
 *
 * The program under test is one root controller ("root") with a child ("detail") that saves
 * the text in `program.value` and reads it back into `program.restored`.
 *
 * Nothing goes into the real home directory (runner.h, scratch.h).
 *
 * Usage: [AMBER_TEST_CLI=AMBER] test_relaunch [--list] [PREFIX...] (runner.h): AMBER is the
 * `amber` command (.build/debug/amber), for the scans of its output; without it they are not
 * run (a note says so). Prints one line per check and "N passed, N failed"; exits non-zero if a
 * check fails.
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "check.h"
#include "mem_store.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static mem_store store;
static int store_frees;
static void store_free(void *ctx) { (void)ctx; store_frees++; }
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
    mem_store_clear(&store);
    store_frees = 0;
    key_frees = 0;
    vt = mem_store_functions();
    opts.store = &vt;
    opts.store_ctx = &store;
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
    checkf(store_frees == 0 && key_frees == 0, "R33 ... the store's and key's contexts are not released by the relaunch (%d, %d)",
           store_frees, key_frees);
    amber_report_free(r);
    amber_engine_close(e);
    checkf(store_frees == 1 && key_frees == 1, "R33 ... they are released once, when the new engine closes (%d, %d)", store_frees,
           key_frees);
    mem_store_clear(&store);
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
    mem_store_clear(&store);
    store_frees = 0;
    vt = mem_store_functions();
    opts.memory_store = 0;
    opts.store = &vt;
    opts.store_ctx = &store;
    opts.store_ctx_free = store_free;
    e = launched(&opts);
    check(e != NULL, "R33 a program on a host store launches (set-up failure)");
    if (!e) return;
    program.set_up_code = 78;
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    checkf(status == 78 && strstr(amber_error_last(), "the set-up failed") != NULL && strstr(amber_error_last(), "*engine is NULL") != NULL,
           "R33 set_up returns 78 -> 78, the message says *engine is NULL (%s)", amber_error_last());
    checkf(e == NULL && r == NULL, "R33 ... *engine and *out are NULL");
    checkf(store_frees == 1, "R33 ... the store's context is released once, nothing leaked (%d)", store_frees);
    mem_store_clear(&store);
}


/* ---- R34: sensitive values --------------------------------------------------------------- */

#define SECRET "SECRET-7f3a9c"
#define CONTROL "CONTROL-51e2"

static struct {
    char dir[600];          /* the state directory */
    const char *amber;      /* the amber command, or NULL */
    int mark_status;        /* what amber_coder_mark_sensitive() returned */
    char restored[64];
    char log[65536];        /* every log line, one after the other */
    size_t log_used;
    int log_lines;
    int scanned_files;      /* files read by the last scan */
} sens;

static void log_line(amber_log_level level, const char *message, void *ctx) {
    size_t n = strlen(message);
    (void)level; (void)ctx;
    sens.log_lines++;
    if (sens.log_used + n + 1 < sizeof sens.log) {
        memcpy(sens.log + sens.log_used, message, n);
        sens.log_used += n;
        sens.log[sens.log_used++] = '\n';
        sens.log[sens.log_used] = '\0';
    }
}

static int has(const char *hay, size_t size, const char *needle) {
    size_t n = strlen(needle), i;
    for (i = 0; i + n <= size; i++)
        if (memcmp(hay + i, needle, n) == 0) return 1;
    return 0;
}

/* How many files of the state directory hold `needle` (the files read: sens.scanned_files). */
static int files_holding(const char *needle) {
    DIR *d = opendir(sens.dir);
    struct dirent *ent;
    int found = 0;
    sens.scanned_files = 0;
    if (!d) return 0;
    while ((ent = readdir(d)) != NULL) {
        char path[900];
        struct stat st;
        FILE *f;
        char *buf;
        size_t size;
        snprintf(path, sizeof path, "%s/%s", sens.dir, ent->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        f = fopen(path, "rb");
        if (!f) continue;
        buf = malloc((size_t)st.st_size + 1);
        size = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
        fclose(f);
        sens.scanned_files++;
        if (buf && has(buf, size, needle)) found++;
        free(buf);
    }
    closedir(d);
    return found;
}

/* The output (stdout and stderr) of `amber ARGS`, in `out`; its exit status, or -1. */
static int run_amber(const char *args, char *out, size_t cap) {
    char cmd[2048];
    FILE *p;
    size_t used = 0, n;
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", sens.amber, args);
    p = popen(cmd, "r");
    if (!p) return -1;
    while (used + 1 < cap && (n = fread(out + used, 1, cap - used - 1, p)) > 0) used += n;
    out[used] = '\0';
    return pclose(p);
}

static int login_encode(amber_object *o, amber_coder *c, void *ctx) {
    int status;
    (void)o; (void)ctx;
    if ((status = amber_coder_encode_string(c, "password", SECRET)) != AMBER_OK) return status;
    sens.mark_status = amber_coder_mark_sensitive(c, "password"); /* after the write: allowed */
    /* A host that goes on regardless: the value must still never be written unencrypted. */
    return amber_coder_encode_string(c, "title", CONTROL);
}

static int login_decode(amber_object *o, amber_decoder *d, void *ctx) {
    const char *s = NULL;
    int status = amber_decoder_decode_string(&s, d, "password");
    (void)o; (void)ctx;
    if (status == AMBER_OK) snprintf(sens.restored, sizeof sens.restored, "%s", s);
    return status;
}

static int login_set_up(amber_engine *e, void *ctx) {
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_object *login = NULL;
    int status;
    (void)ctx;
    d.should_save = should_save;
    d.should_restore = should_restore;
    if ((status = amber_engine_set_delegate(e, &d, NULL, NULL)) != AMBER_OK) return status;
    if ((status = amber_engine_set_log(e, AMBER_LOG_DEBUG, log_line, NULL, NULL)) != AMBER_OK) return status;
    cb.encode = login_encode;
    cb.decode = login_decode;
    if ((status = amber_object_new(&login, e, AMBER_KIND_CONTROLLER, "Login", "login", &cb, NULL, NULL)) != AMBER_OK) return status;
    return amber_engine_add_root(e, login);
}

/* Between the kill and the relaunch: the archive is on disk, scan it and what `amber` shows. */
static int login_tear_down(amber_engine *e, void *ctx) {
    static char out[65536];
    char args[1400];
    int st, holding;
    (void)e; (void)ctx;
    holding = files_holding(SECRET);
    checkf(holding == 0 && sens.scanned_files >= 2,
           "R34 no file of the state directory holds the sensitive value (%d files scanned)",
           sens.scanned_files);
    if (!sens.amber) {
        printf("note: no amber command given: the inspect and dump scans are not run\n");
        return 0;
    }
    snprintf(args, sizeof args, "inspect --key-file '%s/archive.key' '%s/state.archive'", sens.dir, sens.dir);
    st = run_amber(args, out, sizeof out);
    checkf(st == 0 && has(out, strlen(out), CONTROL), "R34 amber inspect shows the control value (exit %d)", st);
    check(!has(out, strlen(out), SECRET) && has(out, strlen(out), "<sensitive>"),
          "R34 amber inspect shows <sensitive>, never the sensitive value");
    snprintf(args, sizeof args, "dump --keyed --key-file '%s/archive.key' '%s/state.archive'", sens.dir, sens.dir);
    st = run_amber(args, out, sizeof out);
    checkf(st == 0 && has(out, strlen(out), CONTROL) && has(out, strlen(out), "<sensitive>") && !has(out, strlen(out), SECRET),
           "R34 amber dump --keyed: the control value, <sensitive>, never the sensitive value (exit %d)", st);
    snprintf(args, sizeof args, "dump --key-file '%s/archive.key' '%s/state.archive'", sens.dir, sens.dir);
    st = run_amber(args, out, sizeof out);
    checkf(st == 0 && has(out, strlen(out), CONTROL) && !has(out, strlen(out), SECRET),
           "R34 amber dump (plain): the control value, never the sensitive value (exit %d)", st);
    return 0;
}

/* AMBER_TEST_CLI: the amber command, whose `inspect` and `dump` output is scanned too (run-tests.sh
 * names .build/debug/amber when it is built). */
static void sensitive_values(void) {
    const char *root = runner_tmp(), *amber = getenv("AMBER_TEST_CLI");
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_relaunch cbs = AMBER_RELAUNCH_INIT;
    amber_engine *e = NULL;
    amber_report *r = NULL;
    int status;
    memset(&sens, 0, sizeof sens);
    sens.amber = amber;
    snprintf(sens.dir, sizeof sens.dir, "%s/r34-encrypted", root);
    reset("");
    opts.state_directory = sens.dir;
    cbs.set_up = login_set_up;
    cbs.tear_down = login_tear_down;
    if (amber_engine_open(&e, "org.amber.tests.sensitive", &opts) != AMBER_OK || login_set_up(e, NULL) != AMBER_OK) {
        check(0, "R34 a program with a sensitive value opens");
        amber_engine_close(e);
        return;
    }
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    check_status(status, AMBER_OK, "R34 a relaunch of a program with a sensitive value (encrypted, the default)");
    check_status(sens.mark_status, AMBER_OK, "R34 amber_coder_mark_sensitive after the write");
    checkf(strcmp(sens.restored, SECRET) == 0, "R34 the restore gives the sensitive value back to the decode callback (\"%s\")",
           sens.restored);
    checkf(sens.log_lines > 0 && !has(sens.log, sens.log_used, SECRET),
           "R34 no log line holds the sensitive value (%d lines at debug)", sens.log_lines);
    status = files_holding(SECRET);
    checkf(status == 0, "R34 after the relaunch, still no file holds it (%d files)", sens.scanned_files);
    amber_report_free(r);
    amber_engine_close(e);

    /* No encryption: the mark is refused and nothing is written. */
    memset(&opts, 0, sizeof opts);
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    snprintf(sens.dir, sizeof sens.dir, "%s/r34-none", root);
    opts.state_directory = sens.dir;
    opts.protection = AMBER_PROTECTION_NONE;
    cbs.tear_down = NULL;
    e = NULL;
    r = NULL;
    sens.log_used = 0;
    sens.log[0] = '\0';
    if (amber_engine_open(&e, "org.amber.tests.sensitive", &opts) != AMBER_OK || login_set_up(e, NULL) != AMBER_OK) {
        check(0, "R34 a program with a sensitive value opens (no encryption)");
        amber_engine_close(e);
        return;
    }
    status = amber_testing_relaunch(&r, &e, &cbs, NULL);
    check_status(sens.mark_status, AMBER_KEY_UNAVAILABLE, "R34 amber_coder_mark_sensitive with AMBER_PROTECTION_NONE");
    checkf(status == AMBER_KEY_UNAVAILABLE && strstr(amber_error_last(), "marked sensitive") != NULL,
           "R34 ... the preservation fails with AMBER_KEY_UNAVAILABLE, saying why (%s)", amber_error_last());
    status = files_holding(SECRET) + files_holding(CONTROL);
    checkf(status == 0, "R34 ... nothing was written: no file holds either value (%d files)", sens.scanned_files);
    check(!has(sens.log, sens.log_used, SECRET), "R34 ... and no log line holds the sensitive value");
    amber_report_free(r);
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r33_restores", relaunch_restores},
    {"r33_keeps_the_store", relaunch_keeps_the_store},
    {"r33_failures", relaunch_failures},
    {"r34_sensitive_values", sensitive_values},
};

int main(int argc, char **argv) {
    return runner_main("relaunch", tests, RUNNER_COUNT(tests), argc, argv);
}

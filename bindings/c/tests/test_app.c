/*
 * The application through include/amber.h alone: its states and transitions (R23), the
 * notification center (R24), its directories, atomic data files and the seeds' item store
 * archived into documents and read back at the next launch (R27, R25).
 *
 * Usage: test_app [--list] [PREFIX...] (runner.h). Prints one line per check and "N passed,
 * N failed". Works in a scratch directory of the runner's, where it points HOME and the XDG
 * variables itself.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "amber.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* ---- scratch files ------------------------------------------------------------------------ */

static char scratch[256];

static void path_in(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", scratch, name); }

static void remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        chmod(path, 0700);
        while (d && (e = readdir(d)) != NULL) {
            char child[1024];
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            remove_tree(child);
        }
        if (d) closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void remove_scratch(void) { remove_tree(scratch); }

/* Every test starts here: the test's scratch directory (in the runner's, made at the first call),
 * with HOME and XDG_STATE_HOME inside it, so that nothing of the test goes into the real home
 * directory. remove_tree removes it at exit, also what a test left without write permission. */
static void use_scratch(void) {
    char dir[300];
    if (scratch[0] == '\0') {
        runner_dir(scratch, sizeof scratch, "app");
        atexit(remove_scratch);
    }
    path_in(dir, sizeof dir, "home");
    setenv("HOME", dir, 1);
    path_in(dir, sizeof dir, "xdg-state");
    setenv("XDG_STATE_HOME", dir, 1);
}

static int file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static unsigned mode_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0xFFFFu;
}

/* Whether a directory holds a leftover temporary file ("*.tmp"). */
static int has_temporary(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".tmp") == 0) found = 1;
    }
    if (d) closedir(d);
    return found;
}

static int file_equals(const char *path, const char *text) {
    amber_buf bytes = AMBER_BUF_INIT;
    int same;
    if (amber_file_read(&bytes, path) != AMBER_OK) return 0;
    same = bytes.size == strlen(text) && memcmp(bytes.ptr, text, bytes.size) == 0;
    amber_buf_dispose(&bytes);
    return same;
}

/* ---- contexts: every ctx_free is counted -------------------------------------------------- */

static int ctx_freed;
static void count_free(void *ctx) {
    (void)ctx;
    ctx_freed++;
}

/* ======================================================================================== */
/* R23 Application states                                                                    */
/* ======================================================================================== */

typedef struct app {
    amber_engine *engine;
    char log[512];          /* the notifications and delegate steps, in order */
    int state_seen[8];      /* the state each lifecycle notification saw, by order of arrival */
    int seen;
    int sensitive_visible;  /* the host's "account number" on screen */
    int hidden_at_save;     /* what preservation saw */
    int save;               /* what should_save answers */
    int nested_status;      /* a transition asked from an observer */
    int observer_code;      /* what the lifecycle observer returns */
    int will_finish_state, restored_value;
} app;

static void log_step(app *a, const char *step) {
    strncat(a->log, step, sizeof a->log - strlen(a->log) - 1);
    strncat(a->log, ";", sizeof a->log - strlen(a->log) - 1);
}

static const char *short_name(const char *name) {
    if (strcmp(name, AMBER_NOTIFICATION_DID_FINISH_LAUNCHING) == 0) return "launched";
    if (strcmp(name, AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE) == 0) return "resign";
    if (strcmp(name, AMBER_NOTIFICATION_DID_BECOME_ACTIVE) == 0) return "active";
    if (strcmp(name, AMBER_NOTIFICATION_DID_ENTER_BACKGROUND) == 0) return "background";
    if (strcmp(name, AMBER_NOTIFICATION_WILL_ENTER_FOREGROUND) == 0) return "foreground";
    if (strcmp(name, AMBER_NOTIFICATION_WILL_TERMINATE) == 0) return "terminate";
    if (strcmp(name, AMBER_NOTIFICATION_DID_RECEIVE_MEMORY_WARNING) == 0) return "memory";
    return name;
}

/* Observes every notification of the engine: logs it with the state at that moment. */
static int lifecycle_observer(const amber_notification *note, void *ctx) {
    app *a = ctx;
    const char *name = amber_notification_name(note);
    if (amber_notification_sender(note) != a->engine) return AMBER_CALLBACK_FAILED;
    log_step(a, short_name(name));
    if (a->seen < 8) a->state_seen[a->seen++] = amber_engine_app_state(a->engine);
    /* Hide sensitive content before the snapshot (R24). */
    if (strcmp(name, AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE) == 0) a->sensitive_visible = 0;
    if (strcmp(name, AMBER_NOTIFICATION_DID_BECOME_ACTIVE) == 0) a->sensitive_visible = 1;
    if (strcmp(name, AMBER_NOTIFICATION_WILL_ENTER_FOREGROUND) == 0) {
        int saved = -1;
        a->nested_status = amber_engine_transition(&saved, a->engine, AMBER_APP_ACTIVE);
    }
    return a->observer_code;
}

static int encode_screen(amber_object *object, amber_coder *coder, void *ctx) {
    app *a = ctx;
    (void)object;
    a->hidden_at_save = !a->sensitive_visible;
    log_step(a, "encode");
    return amber_coder_encode_int64(coder, "value", 42);
}

static int decode_screen(amber_object *object, amber_decoder *decoder, void *ctx) {
    int64_t v = 0;
    int rc;
    app *a = ctx;
    (void)object;
    rc = amber_decoder_decode_int64(&v, decoder, "value");
    a->restored_value = (int)v;
    return rc;
}

static int should_save(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    app *a = ctx;
    (void)engine; (void)app_coder;
    log_step(a, a->save ? "should_save:yes" : "should_save:no");
    return a->save;
}

static int should_restore(amber_engine *engine, amber_decoder *app_decoder, void *ctx) {
    (void)engine; (void)app_decoder; (void)ctx;
    return 1;
}

static void will_finish(amber_engine *engine, void *ctx) {
    app *a = ctx;
    a->will_finish_state = amber_engine_app_state(engine);
    log_step(a, "will_finish");
}

static void did_finish(amber_engine *engine, void *ctx) {
    (void)engine;
    log_step(ctx, "did_finish");
}

/* Opens an engine on `dir` with a delegate, one preserved screen and an observer of everything. */
static amber_engine *open_app(app *a, const char *dir, amber_object **screen) {
    amber_engine_options options;
    amber_delegate delegate;
    amber_object_callbacks cb;
    uint64_t token = 0;
    memset(a, 0, sizeof *a);
    a->sensitive_visible = 1;
    a->nested_status = -1;
    options = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    options.state_directory = dir;
    if (amber_engine_open(&a->engine, "org.amber.test-app", &options) != AMBER_OK) return NULL;
    delegate = (amber_delegate)AMBER_DELEGATE_INIT;
    delegate.should_save = should_save;
    delegate.should_restore = should_restore;
    delegate.will_finish_launching = will_finish;
    delegate.did_finish_launching = did_finish;
    amber_engine_set_delegate(a->engine, &delegate, a, NULL);
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = encode_screen;
    cb.decode = decode_screen;
    amber_object_new(screen, a->engine, AMBER_KIND_CONTROLLER, "Screen", "Screen", &cb, a, NULL);
    amber_engine_add_root(a->engine, *screen);
    amber_engine_add_observer(&token, a->engine, NULL, a->engine, lifecycle_observer, a, NULL);
    return a->engine;
}

static void test_lifecycle(void) {
    use_scratch();
    app a, b;
    amber_object *screen = NULL, *screen2 = NULL;
    amber_report *report = NULL;
    amber_engine *e;
    char dir[300], archive[320], bad_dir[320];
    int saved = -1;

    printf("== R23 application states\n");
    path_in(dir, sizeof dir, "state");
    snprintf(archive, sizeof archive, "%s/state.archive", dir);
    e = open_app(&a, dir, &screen);
    check(e != NULL, "R23 an engine opens");
    if (e == NULL) return;

    check(amber_engine_app_state(e) == AMBER_APP_NOT_RUNNING, "R23 a new engine is not running");
    check(strcmp(amber_app_state_string(AMBER_APP_NOT_RUNNING), "not running") == 0 &&
              strcmp(amber_app_state_string(AMBER_APP_SUSPENDED), "suspended") == 0 &&
              strcmp(amber_app_state_string(99), "unknown") == 0,
          "R23 amber_app_state_string names the states");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_ACTIVE), AMBER_MISUSE, "R23 not running -> active");
    check(strstr(amber_error_last(), "not running") && strstr(amber_error_last(), "active"),
          "R23 the message of a refused transition names both states");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_INACTIVE), AMBER_MISUSE,
                 "R23 not running -> inactive is a launch, not a report");
    check(strstr(amber_error_last(), "launch") != NULL, "R23 ... and the message says to launch");
    check(amber_engine_app_state(e) == AMBER_APP_NOT_RUNNING, "R23 a refused transition changes nothing");
    check_status(amber_engine_transition(&saved, e, 99), AMBER_INVALID_ARGUMENT, "R23 an unknown state");
    check_status(amber_engine_transition(&saved, NULL, AMBER_APP_ACTIVE), AMBER_INVALID_ARGUMENT, "R23 a NULL engine");
    check(amber_engine_app_state(NULL) == -1, "R23 the state of a NULL engine is -1");

    /* The launch sequence: not running -> inactive, will finish, restore, did finish, notification. */
    check_status(amber_engine_launch(&report, e, AMBER_APP_INACTIVE), AMBER_OK, "R23 launch");
    amber_report_free(report);
    check(a.will_finish_state == AMBER_APP_INACTIVE, "R23 will_finish_launching runs in the inactive state");
    check(strcmp(a.log, "will_finish;did_finish;launched;") == 0,
          "R23 launch: will_finish_launching, did_finish_launching, then the did-finish-launching notification");
    check(amber_engine_app_state(e) == AMBER_APP_INACTIVE, "R23 after launch the application is inactive");

    /* inactive -> active, and the refusals from active. */
    a.log[0] = 0;
    a.seen = 0;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_ACTIVE), AMBER_OK, "R23 inactive -> active");
    check(strcmp(a.log, "active;") == 0 && a.state_seen[0] == AMBER_APP_ACTIVE,
          "R24 did-become-active is posted once the state is active");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_BACKGROUND), AMBER_MISUSE,
                 "R23 active -> background directly (UIKit passes through inactive)");
    check(strstr(amber_error_last(), "from active to background") != NULL, "R23 ... the message names both states");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_ACTIVE), AMBER_MISUSE, "R23 active -> active");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_SUSPENDED), AMBER_MISUSE, "R23 active -> suspended");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_NOT_RUNNING), AMBER_MISUSE, "R23 active -> not running");
    check(amber_engine_app_state(e) == AMBER_APP_ACTIVE, "R23 the refused transitions left it active");

    /* active -> inactive -> background with should_save declining: nothing is written. */
    a.log[0] = 0;
    a.seen = 0;
    a.save = 0;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_INACTIVE), AMBER_OK, "R23 active -> inactive");
    check(strcmp(a.log, "resign;") == 0 && a.state_seen[0] == AMBER_APP_ACTIVE,
          "R24 will-resign-active is posted while still active");
    saved = -1;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_BACKGROUND), AMBER_OK, "R23 inactive -> background");
    check(saved == 0 && !file_exists(archive), "R23 entering the background does not preserve when should_save declines");
    check(strcmp(a.log, "resign;background;should_save:no;") == 0 && a.state_seen[1] == AMBER_APP_BACKGROUND,
          "R23 did-enter-background is posted in the background state, then should_save is asked");

    /* background <-> suspended, and what suspended refuses. */
    a.log[0] = 0;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_SUSPENDED), AMBER_OK, "R23 background -> suspended");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_ACTIVE), AMBER_MISUSE, "R23 suspended -> active");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_INACTIVE), AMBER_MISUSE, "R23 suspended -> inactive");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_BACKGROUND), AMBER_OK, "R23 suspended -> background");
    check(a.log[0] == 0, "R23 suspending and waking post nothing");

    /* background -> inactive (will enter foreground); an observer asking a transition is refused. */
    a.seen = 0;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_INACTIVE), AMBER_OK, "R23 background -> inactive");
    check(strcmp(a.log, "foreground;") == 0 && a.state_seen[0] == AMBER_APP_BACKGROUND,
          "R24 will-enter-foreground is posted while still in the background");
    check(a.nested_status == AMBER_MISUSE, "R23 a transition asked from an observer of another is refused (AMBER_MISUSE)");
    check(amber_engine_app_state(e) == AMBER_APP_INACTIVE, "R23 ... and the state is the one reported");

    /* Back to active, then to the background with should_save agreeing: preserved, content hidden. */
    check_status(amber_engine_transition(&saved, e, AMBER_APP_ACTIVE), AMBER_OK, "R23 inactive -> active again");
    check(a.sensitive_visible, "R24 the host shows its sensitive content when active");
    a.save = 1;
    a.log[0] = 0;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_INACTIVE), AMBER_OK, "R23 active -> inactive again");
    saved = -1;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_BACKGROUND), AMBER_OK, "R23 inactive -> background, should_save agrees");
    check(saved == 1 && file_exists(archive), "R23 entering the background preserves when should_save agrees");
    check(strcmp(a.log, "resign;background;should_save:yes;encode;") == 0,
          "R23 order: will-resign-active, did-enter-background, should_save, encode");
    check(a.hidden_at_save, "R24 will-resign-active hid the sensitive content before preservation");
    check(mode_of(archive) == 0600, "R19 the archive written on entering the background is mode 0600");

    /* background -> not running: will terminate. */
    a.log[0] = 0;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_NOT_RUNNING), AMBER_OK, "R23 background -> not running");
    check(strcmp(a.log, "terminate;") == 0, "R24 will-terminate is posted on termination from the background");
    check(amber_engine_app_state(e) == AMBER_APP_NOT_RUNNING, "R23 terminated: not running");
    amber_engine_close(e);

    /* The next launch restores what entering the background preserved. */
    e = open_app(&b, dir, &screen2);
    check_status(amber_engine_launch(&report, e, AMBER_APP_INACTIVE), AMBER_OK, "R23 the next launch");
    check(report && amber_report_fresh_reason(report) == AMBER_FRESH_NONE && b.restored_value == 42,
          "R23 the next launch restores the state preserved on entering the background");
    amber_report_free(report);

    /* An observer that fails: the transition happens, its code comes back. */
    b.observer_code = AMBER_IO;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_ACTIVE), AMBER_IO,
                 "R24 an observer's code is returned by the transition");
    check(amber_engine_app_state(e) == AMBER_APP_ACTIVE, "R23 ... and the transition happened all the same");
    b.observer_code = 0;
    amber_engine_close(e);

    /* Suspended -> not running posts nothing (no code runs in a suspended application). */
    e = open_app(&b, dir, &screen2);
    check_status(amber_engine_launch(&report, e, AMBER_APP_BACKGROUND), AMBER_OK, "R23 launch into the background");
    amber_report_free(report);
    check(amber_engine_app_state(e) == AMBER_APP_BACKGROUND, "R23 not running -> background by a background launch");
    check_status(amber_engine_transition(&saved, e, AMBER_APP_SUSPENDED), AMBER_OK, "R23 background -> suspended");
    b.log[0] = 0;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_NOT_RUNNING), AMBER_OK, "R23 suspended -> not running");
    check(b.log[0] == 0, "R23 a suspended application is ended without will-terminate");
    amber_engine_close(e);

    /* Preservation that fails on entering the background: the error comes back, the state moved. */
    path_in(bad_dir, sizeof bad_dir, "a-file");
    amber_file_write_atomic(bad_dir, "x", 1);
    strncat(bad_dir, "/state", sizeof bad_dir - strlen(bad_dir) - 1);
    e = open_app(&b, bad_dir, &screen2);
    b.save = 1;
    amber_engine_launch(&report, e, AMBER_APP_INACTIVE);
    amber_report_free(report);
    saved = -1;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_BACKGROUND), AMBER_IO,
                 "R23 inactive -> background when the state directory cannot be made");
    check(saved == 0 && amber_engine_app_state(e) == AMBER_APP_BACKGROUND && strstr(amber_error_last(), "preservation"),
          "R23 ... the application is in the background and the message says preservation failed");
    amber_engine_close(e);
}

/* ======================================================================================== */
/* R24 Notifications                                                                         */
/* ======================================================================================== */

typedef struct center_test {
    amber_engine *engine;
    char log[256];
    uint64_t tokens[8];
    int remove_index;        /* which token observer A removes (-1: none) */
    int add_during;          /* observer A adds observer D during the delivery */
    int freed_inside;        /* ctx_freed seen right after a self-removal, inside the callback */
    int depth;
    int deepest_status;
    const amber_notification *escaped;
    /* what the user-info observer read */
    int flag, type_ok, mismatch, missing, readonly_set, order_ok;
    int64_t count;
    double ratio;
    char text[64];
    size_t bytes_size;
    int bytes_ok;
} center_test;

static center_test C;

static void note_call(const char *who) {
    strncat(C.log, who, sizeof C.log - strlen(C.log) - 1);
}

static int observer_d(const amber_notification *note, void *ctx) {
    (void)note; (void)ctx;
    note_call("D");
    return 0;
}

static int observer_a(const amber_notification *note, void *ctx) {
    (void)note; (void)ctx;
    note_call("A");
    if (C.remove_index >= 0) amber_engine_remove_observer(C.engine, C.tokens[C.remove_index]);
    if (C.add_during) {
        C.add_during = 0;
        amber_engine_add_observer(&C.tokens[3], C.engine, "N", NULL, observer_d, NULL, count_free);
    }
    return 0;
}

static int observer_b(const amber_notification *note, void *ctx) {
    (void)note; (void)ctx;
    note_call("B");
    return 0;
}

static int observer_c(const amber_notification *note, void *ctx) {
    (void)note; (void)ctx;
    note_call("C");
    return 0;
}

/* Removes itself, then uses its context: ctx_free must not have run yet. */
static int observer_self(const amber_notification *note, void *ctx) {
    int before = ctx_freed;
    (void)note;
    note_call("S");
    amber_engine_remove_observer(C.engine, C.tokens[4]);
    C.freed_inside = ctx_freed - before;
    note_call((const char *)ctx);
    return 0;
}

static int observer_failing(const amber_notification *note, void *ctx) {
    (void)note; (void)ctx;
    note_call("F");
    return AMBER_NOT_FOUND;
}

static int observer_recursive(const amber_notification *note, void *ctx) {
    int rc;
    (void)ctx;
    C.depth++;
    rc = amber_engine_post_notification(C.engine, amber_notification_name(note), NULL, NULL);
    if (rc != AMBER_OK && C.deepest_status == AMBER_OK) C.deepest_status = rc;
    return rc;
}

static int observer_user_info(const amber_notification *note, void *ctx) {
    const amber_user_info *info = amber_notification_user_info(note);
    const char *s = NULL, *key = NULL;
    const uint8_t *bytes = NULL;
    int type = 0, b = 0;
    int64_t n = 0;
    (void)ctx;
    C.escaped = note;
    user_info_get_bool(&C.flag, info, "flag");
    user_info_get_int64(&C.count, info, "count");
    user_info_get_double(&C.ratio, info, "ratio");
    if (user_info_get_string(&s, info, "text") == AMBER_OK) snprintf(C.text, sizeof C.text, "%s", s);
    C.bytes_ok = user_info_get_bytes(&bytes, &C.bytes_size, info, "bytes") == AMBER_OK && C.bytes_size == 3 &&
                 bytes[0] == 7 && bytes[2] == 9;
    C.type_ok = user_info_type(&type, info, "text") == AMBER_OK && type == AMBER_VALUE_STRING;
    C.mismatch = user_info_get_int64(&n, info, "text");
    C.missing = user_info_get_bool(&b, info, "absent");
    C.readonly_set = user_info_set_int64((amber_user_info *)info, "count", 1);
    amber_user_info_free((amber_user_info *)info); /* refused: not the caller's */
    C.order_ok = amber_user_info_count(info) == 5 && amber_user_info_key_at(&key, info, 0) == AMBER_OK &&
                 strcmp(key, "flag") == 0 && amber_user_info_key_at(&key, info, 4) == AMBER_OK &&
                 strcmp(key, "bytes") == 0 && amber_user_info_key_at(&key, info, 5) == AMBER_NOT_FOUND;
    return 0;
}

static int observer_close(const amber_notification *note, void *ctx) {
    (void)note; (void)ctx;
    amber_engine_close(C.engine); /* refused from inside a callback */
    C.deepest_status = amber_error_last_code();
    return 0;
}

static int sender_hits;
static int observer_sender(const amber_notification *note, void *ctx) {
    (void)ctx;
    if (amber_notification_sender(note) == &sender_hits) sender_hits++;
    else sender_hits += 100;
    return 0;
}

static int image_cache = 10;
static int observer_memory(const amber_notification *note, void *ctx) {
    (void)note; (void)ctx;
    image_cache = 0; /* the seeds' image store flushes its cache */
    return 0;
}

static void test_notifications(void) {
    use_scratch();
    amber_user_info *info = NULL;
    uint64_t t = 0, extra = 0, every = 0;
    int freed_before;
    static const uint8_t payload[3] = {7, 8, 9};
    const char *key = NULL;
    int v = 0;

    printf("== R24 notifications\n");
    memset(&C, 0, sizeof C);
    C.remove_index = -1;
    check_status(amber_engine_open(&C.engine, "org.amber.test-notes", NULL), AMBER_OK, "R24 an engine for notifications");
    if (C.engine == NULL) return;

    /* Registration order. */
    check_status(amber_engine_add_observer(&C.tokens[0], C.engine, "N", NULL, observer_a, NULL, count_free), AMBER_OK,
                 "R24 add observer A");
    amber_engine_add_observer(&C.tokens[1], C.engine, "N", NULL, observer_b, NULL, count_free);
    amber_engine_add_observer(&C.tokens[2], C.engine, "N", NULL, observer_c, NULL, count_free);
    check(C.tokens[0] != 0 && C.tokens[1] != C.tokens[0] && C.tokens[2] != C.tokens[1], "R24 each observer gets its own token");
    check_status(amber_engine_post_notification(C.engine, "N", NULL, NULL), AMBER_OK, "R24 post N");
    check(strcmp(C.log, "ABC") == 0, "R24 observers called in registration order");
    C.log[0] = 0;
    amber_engine_post_notification(C.engine, "Other", NULL, NULL);
    check(C.log[0] == 0, "R24 observers of another name are not called");

    /* An observer added during a delivery is not called in it, but in the next. */
    C.log[0] = 0;
    C.add_during = 1;
    amber_engine_post_notification(C.engine, "N", NULL, NULL);
    check(strcmp(C.log, "ABC") == 0, "R24 an observer added during a delivery is not called in that delivery");
    C.log[0] = 0;
    amber_engine_post_notification(C.engine, "N", NULL, NULL);
    check(strcmp(C.log, "ABCD") == 0, "R24 ... and is called in the next one, after the earlier observers");

    /* Removal during delivery: A removes B, not yet called: B is not called; ctx_free once. */
    C.log[0] = 0;
    C.remove_index = 1;
    freed_before = ctx_freed;
    amber_engine_post_notification(C.engine, "N", NULL, NULL);
    check(strcmp(C.log, "ACD") == 0, "R24 an observer removed during a delivery, before its turn, is not called");
    check(ctx_freed == freed_before + 1, "R24 the removed observer's ctx_free ran once");
    C.remove_index = -1;
    check_status(amber_engine_remove_observer(C.engine, C.tokens[1]), AMBER_NOT_FOUND, "R24 removing it again");
    check(ctx_freed == freed_before + 1, "R24 ... and its ctx_free does not run twice");
    check_status(amber_engine_remove_observer(C.engine, 987654), AMBER_NOT_FOUND, "R24 removing an unknown token");

    /* Removal by token outside a delivery: ctx_free at once. */
    freed_before = ctx_freed;
    check_status(amber_engine_remove_observer(C.engine, C.tokens[3]), AMBER_OK, "R24 remove D by its token");
    check(ctx_freed == freed_before + 1, "R24 removing an observer calls its ctx_free");
    C.log[0] = 0;
    amber_engine_post_notification(C.engine, "N", NULL, NULL);
    check(strcmp(C.log, "AC") == 0, "R24 a removed observer is not called again");

    /* An observer that removes itself keeps its context until it returns. */
    amber_engine_add_observer(&C.tokens[4], C.engine, "Self", NULL, observer_self, "ctx", count_free);
    C.log[0] = 0;
    freed_before = ctx_freed;
    amber_engine_post_notification(C.engine, "Self", NULL, NULL);
    check(strcmp(C.log, "Sctx") == 0 && C.freed_inside == 0,
          "R24 an observer removing itself: ctx_free waits until the delivery ends");
    check(ctx_freed == freed_before + 1, "R24 ... then runs exactly once");

    /* A failing observer: the others still run, its code comes back. */
    amber_engine_add_observer(&t, C.engine, "Fail", NULL, observer_failing, NULL, NULL);
    amber_engine_add_observer(&extra, C.engine, "Fail", NULL, observer_c, NULL, NULL);
    C.log[0] = 0;
    check_status(amber_engine_post_notification(C.engine, "Fail", NULL, NULL), AMBER_NOT_FOUND,
                 "R24 a post returns the code an observer returned");
    check(strcmp(C.log, "FC") == 0, "R24 ... after calling the observers after it");
    amber_engine_remove_observer(C.engine, t);
    amber_engine_remove_observer(C.engine, extra);

    /* Senders: an observer of one sender; an observer of every name. */
    amber_engine_add_observer(&t, C.engine, "S", &sender_hits, observer_sender, NULL, NULL);
    amber_engine_post_notification(C.engine, "S", &image_cache, NULL);
    amber_engine_post_notification(C.engine, "S", &sender_hits, NULL);
    amber_engine_post_notification(C.engine, "S", NULL, NULL);
    check(sender_hits == 1, "R24 an observer of one sender is called only for that sender");
    amber_engine_remove_observer(C.engine, t);
    C.log[0] = 0;
    amber_engine_add_observer(&every, C.engine, NULL, NULL, observer_b, NULL, NULL);
    amber_engine_post_notification(C.engine, "Anything", NULL, NULL);
    amber_engine_post_notification(C.engine, "N", NULL, NULL);
    check(strcmp(C.log, "BACB") == 0, "R24 an observer of NULL name gets every notification, in registration order");
    amber_engine_remove_observer(C.engine, every);

    /* User info: typed values, read in the observer. */
    check_status(amber_user_info_new(&info), AMBER_OK, "R24 a user info");
    user_info_set_bool(info, "flag", 1);
    user_info_set_int64(info, "count", 3);
    user_info_set_double(info, "ratio", 0.25);
    user_info_set_string(info, "text", "draft");
    check_status(user_info_set_bytes(info, "bytes", payload, sizeof payload), AMBER_OK, "R24 set bytes");
    check_status(user_info_set_int64(info, "count", 4), AMBER_OK, "R24 set a key again");
    check(amber_user_info_count(info) == 5 && amber_user_info_key_at(&key, info, 1) == AMBER_OK && strcmp(key, "count") == 0,
          "R24 a key set again keeps its place");
    check_status(user_info_set_string(info, "bad", "\xff\xfe"), AMBER_INVALID_ARGUMENT, "R24 invalid UTF-8 value");
    check_status(user_info_set_int64(info, "", 1), AMBER_INVALID_ARGUMENT, "R24 an empty key");
    check_status(user_info_get_bool(&v, info, "count"), AMBER_TYPE_MISMATCH, "R24 get_bool of an int64");
    amber_engine_add_observer(&t, C.engine, "Info", NULL, observer_user_info, NULL, NULL);
    check_status(amber_engine_post_notification(C.engine, "Info", NULL, info), AMBER_OK, "R24 post with a user info");
    amber_user_info_free(info);
    check(C.flag == 1 && C.count == 4 && C.ratio == 0.25 && strcmp(C.text, "draft") == 0 && C.bytes_ok,
          "R24 the observer reads bool, int64, double, string and bytes from the user info");
    check(C.type_ok, "R24 amber_user_info_type gives a value's type");
    check(C.mismatch == AMBER_TYPE_MISMATCH && C.missing == AMBER_NOT_FOUND,
          "R24 a value of another type is AMBER_TYPE_MISMATCH, a missing key AMBER_NOT_FOUND");
    check(C.readonly_set == AMBER_MISUSE, "R24 a notification's user info is read-only");
    check(C.order_ok, "R24 the user info keeps its keys in order; a notification's user info cannot be freed by the observer");
    check(amber_notification_name(C.escaped) == NULL && amber_error_last_code() == AMBER_MISUSE,
          "R24 a notification used after its callback is refused, not a crash");
    amber_engine_remove_observer(C.engine, t);

    /* Posts nested without end are stopped. */
    amber_engine_add_observer(&t, C.engine, "Loop", NULL, observer_recursive, NULL, NULL);
    C.deepest_status = AMBER_OK;
    check_status(amber_engine_post_notification(C.engine, "Loop", NULL, NULL), AMBER_LIMIT_EXCEEDED,
                 "R24 an observer that posts its own notification forever is stopped");
    check(C.depth == 64 && C.deepest_status == AMBER_LIMIT_EXCEEDED, "R24 ... at 64 nested deliveries");
    amber_engine_remove_observer(C.engine, t);

    /* The memory warning. */
    amber_engine_add_observer(&t, C.engine, AMBER_NOTIFICATION_DID_RECEIVE_MEMORY_WARNING, C.engine, observer_memory,
                              NULL, NULL);
    check_status(amber_engine_report_memory_warning(C.engine), AMBER_OK, "R24 report a memory warning");
    check(image_cache == 0, "R24 the memory-warning observer ran (the image cache is flushed)");

    /* Bad arguments. */
    check_status(amber_engine_add_observer(&t, C.engine, "N", NULL, NULL, NULL, count_free), AMBER_INVALID_ARGUMENT,
                 "R24 an observer without a callback");
    check_status(amber_engine_add_observer(NULL, C.engine, "N", NULL, observer_b, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R24 add_observer with a NULL out");
    check_status(amber_engine_post_notification(C.engine, "\xff", NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R24 a name that is not UTF-8");
    check_status(amber_engine_post_notification(C.engine, "", NULL, NULL), AMBER_INVALID_ARGUMENT, "R24 an empty name");
    check_status(amber_engine_post_notification(NULL, "N", NULL, NULL), AMBER_INVALID_ARGUMENT, "R24 a NULL engine");
    check_status(amber_engine_report_memory_warning(NULL), AMBER_INVALID_ARGUMENT, "R24 a memory warning for NULL");
    check_status(user_info_get_bool(&v, NULL, "x"), AMBER_INVALID_ARGUMENT, "R24 a NULL user info");

    /* Closing the engine from an observer is refused; closing it later frees what remains. */
    amber_engine_add_observer(&t, C.engine, "Close", NULL, observer_close, NULL, NULL);
    amber_engine_post_notification(C.engine, "Close", NULL, NULL);
    check(C.deepest_status == AMBER_MISUSE && amber_engine_app_state(C.engine) == AMBER_APP_NOT_RUNNING,
          "R24 closing the engine from an observer is refused; the engine lives on");
    freed_before = ctx_freed;
    amber_engine_close(C.engine); /* A and C, with ctx_free, are still registered */
    check(ctx_freed == freed_before + 2, "R24 closing the engine calls the ctx_free of each observer left, once");
}

/* ======================================================================================== */
/* R27 Directories and atomic files                                                          */
/* ======================================================================================== */

static void test_directories(void) {
    use_scratch();
    amber_buf path = AMBER_BUF_INIT;
    char want[512], home[300], data[300], cache[300], config[300], runtime[300], tmp[300], file[400];
    static const char *bad_ids[] = {"", ".", "..", "a/b", "../escape", "\xff\xfe"};
    struct rlimit old_limit, small;
    char big[4096];
    size_t i;
    int rc;

    printf("== R27 application directories\n");
    path_in(home, sizeof home, "home");
    path_in(data, sizeof data, "xdg-data");
    path_in(cache, sizeof cache, "xdg-cache");
    path_in(config, sizeof config, "xdg-config");
    path_in(runtime, sizeof runtime, "xdg-runtime");
    path_in(tmp, sizeof tmp, "tmpdir");
    mkdir(home, 0700);
    mkdir(runtime, 0700);
    mkdir(tmp, 0755);
    setenv("HOME", home, 1);
    setenv("XDG_DATA_HOME", data, 1);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("XDG_CONFIG_HOME", config, 1);
    unsetenv("XDG_RUNTIME_DIR");
    setenv("TMPDIR", tmp, 1);

    check_status(amber_app_directory(&path, "org.amber.items", AMBER_DIRECTORY_DOCUMENTS), AMBER_OK, "R27 documents");
    snprintf(want, sizeof want, "%s/org.amber.items", data);
    check(path.ptr && strcmp(path.ptr, want) == 0, "R27 documents is $XDG_DATA_HOME/<app-id>");
    check(path.ptr && mode_of(path.ptr) == 0700, "R27 documents is created owner-only (0700)");
    amber_buf_dispose(&path);
    amber_app_directory(&path, "org.amber.items", AMBER_DIRECTORY_CACHES);
    snprintf(want, sizeof want, "%s/org.amber.items", cache);
    check(path.ptr && strcmp(path.ptr, want) == 0 && mode_of(path.ptr) == 0700, "R27 caches is $XDG_CACHE_HOME/<app-id>, 0700");
    amber_buf_dispose(&path);
    amber_app_directory(&path, "org.amber.items", AMBER_DIRECTORY_PREFERENCES);
    snprintf(want, sizeof want, "%s/org.amber.items", config);
    check(path.ptr && strcmp(path.ptr, want) == 0 && mode_of(path.ptr) == 0700, "R27 preferences is $XDG_CONFIG_HOME/<app-id>, 0700");
    amber_buf_dispose(&path);
    amber_app_directory(&path, "org.amber.items", AMBER_DIRECTORY_TEMPORARY);
    snprintf(want, sizeof want, "%s/org.amber.items-%u", tmp, (unsigned)getuid());
    check(path.ptr && strcmp(path.ptr, want) == 0 && mode_of(path.ptr) == 0700,
          "R27 temporary without XDG_RUNTIME_DIR is $TMPDIR/<app-id>-<uid>, 0700");
    amber_buf_dispose(&path);
    setenv("XDG_RUNTIME_DIR", runtime, 1);
    amber_app_directory(&path, "org.amber.items", AMBER_DIRECTORY_TEMPORARY);
    snprintf(want, sizeof want, "%s/org.amber.items", runtime);
    check(path.ptr && strcmp(path.ptr, want) == 0 && mode_of(path.ptr) == 0700, "R27 temporary is $XDG_RUNTIME_DIR/<app-id>, 0700");
    amber_buf_dispose(&path);

    /* The fallbacks: a relative XDG variable is ignored, HOME is used. */
    setenv("XDG_DATA_HOME", "relative/data", 1);
    unsetenv("XDG_CACHE_HOME");
    amber_app_directory(&path, "org.amber.items", AMBER_DIRECTORY_DOCUMENTS);
    snprintf(want, sizeof want, "%s/.local/share/org.amber.items", home);
    check(path.ptr && strcmp(path.ptr, want) == 0, "R27 a relative XDG_DATA_HOME is ignored: $HOME/.local/share/<app-id>");
    amber_buf_dispose(&path);
    amber_app_directory(&path, "org.amber.items", AMBER_DIRECTORY_CACHES);
    snprintf(want, sizeof want, "%s/.cache/org.amber.items", home);
    check(path.ptr && strcmp(path.ptr, want) == 0 && mode_of(path.ptr) == 0700, "R27 without XDG_CACHE_HOME: $HOME/.cache/<app-id>");
    amber_buf_dispose(&path);
    setenv("XDG_DATA_HOME", data, 1);
    setenv("XDG_CACHE_HOME", cache, 1);

    /* Application ids that could escape, and bad arguments. */
    for (i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        char line[128];
        path.ptr = (char *)1;
        path.size = 1;
        rc = amber_app_directory(&path, bad_ids[i], AMBER_DIRECTORY_DOCUMENTS);
        snprintf(line, sizeof line, "R27 the application id \"%s\" is refused", bad_ids[i]);
        check_status(rc, AMBER_INVALID_ARGUMENT, line);
        check(path.ptr == NULL && path.size == 0, "R27 ... and *out is { NULL, 0 }");
    }
    check_status(amber_app_directory(&path, NULL, AMBER_DIRECTORY_DOCUMENTS), AMBER_INVALID_ARGUMENT, "R27 a NULL app id");
    check_status(amber_app_directory(&path, "org.amber.items", 7), AMBER_INVALID_ARGUMENT, "R27 an unknown directory");
    check_status(amber_app_directory(NULL, "org.amber.items", 0), AMBER_INVALID_ARGUMENT, "R27 a NULL out");

    /* A temporary directory in a shared place that is not the user's own private one. */
    unsetenv("XDG_RUNTIME_DIR");
    snprintf(want, sizeof want, "%s/org.amber.open-%u", tmp, (unsigned)getuid());
    mkdir(want, 0700);
    chmod(want, 0777);
    check_status(amber_app_directory(&path, "org.amber.open", AMBER_DIRECTORY_TEMPORARY), AMBER_IO,
                 "R27 a shared temporary directory others may write to is refused");
    snprintf(want, sizeof want, "%s/org.amber.link-%u", tmp, (unsigned)getuid());
    if (symlink(runtime, want) == 0) {
        check_status(amber_app_directory(&path, "org.amber.link", AMBER_DIRECTORY_TEMPORARY), AMBER_IO,
                     "R27 a shared temporary directory that is a symbolic link is refused");
    }
    if (geteuid() == 0) {
        snprintf(want, sizeof want, "%s/org.amber.theirs-%u", tmp, (unsigned)getuid());
        mkdir(want, 0700);
        if (chown(want, 4242, 4242) == 0) {
            check_status(amber_app_directory(&path, "org.amber.theirs", AMBER_DIRECTORY_TEMPORARY), AMBER_IO,
                         "R27 a shared temporary directory owned by another user is refused");
            check(strstr(amber_error_last(), "4242") != NULL, "R27 ... the message names its owner");
        }
    }
    setenv("XDG_RUNTIME_DIR", runtime, 1);

    printf("== R27 atomic data files\n");
    snprintf(file, sizeof file, "%s/org.amber.items/notes.txt", data);
    check_status(amber_file_write_atomic(file, "first", 5), AMBER_OK, "R27 write a data file atomically");
    check(file_equals(file, "first") && mode_of(file) == 0600, "R27 the file holds the bytes, mode 0600");
    check_status(amber_file_write_atomic(file, "second version", 14), AMBER_OK, "R27 replace it");
    check(file_equals(file, "second version"), "R27 the file holds the new bytes");
    snprintf(want, sizeof want, "%s/org.amber.items", data);
    check(!has_temporary(want), "R27 no temporary file is left behind");
    check_status(amber_file_write_atomic(file, NULL, 0), AMBER_OK, "R27 write an empty file");
    check(file_equals(file, ""), "R27 the file is empty");
    amber_file_write_atomic(file, "kept", 4);

    /* A write that fails half-way (the file size limit): the old file stays, no temporary. */
    memset(big, 'x', sizeof big);
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &old_limit);
    small = old_limit;
    small.rlim_cur = 100;
    if (setrlimit(RLIMIT_FSIZE, &small) == 0) {
        rc = amber_file_write_atomic(file, big, sizeof big);
        setrlimit(RLIMIT_FSIZE, &old_limit);
        check_status(rc, AMBER_IO, "R27 a write that fails half-way");
        check(strstr(amber_error_last(), "write") != NULL, "R27 ... the message names the call that failed");
        check(file_equals(file, "kept"), "R27 ... the old file is left as it was");
        check(!has_temporary(want), "R27 ... and the temporary file is removed");
    }
    /* A rename that fails (the target is a directory): nothing changes, no temporary. */
    snprintf(file, sizeof file, "%s/org.amber.items/adir", data);
    mkdir(file, 0700);
    check_status(amber_file_write_atomic(file, "x", 1), AMBER_IO, "R27 a file over a directory");
    check(!has_temporary(want), "R27 ... no temporary file is left behind");
    snprintf(file, sizeof file, "%s/missing-dir/file", data);
    check_status(amber_file_write_atomic(file, "x", 1), AMBER_IO, "R27 a file in a missing directory");
    snprintf(file, sizeof file, "%s/missing-dir", data);
    check(!file_exists(file), "R27 ... the directory is not made");
    check_status(amber_file_write_atomic("", "x", 1), AMBER_INVALID_ARGUMENT, "R27 an empty path");
    snprintf(file, sizeof file, "%s/", data);
    check_status(amber_file_write_atomic(file, "x", 1), AMBER_INVALID_ARGUMENT, "R27 a path naming a directory");
    check_status(amber_file_write_atomic(NULL, "x", 1), AMBER_INVALID_ARGUMENT, "R27 a NULL path");
    check_status(amber_file_write_atomic(file, NULL, 3), AMBER_INVALID_ARGUMENT, "R27 NULL bytes with a size");
    {
        amber_buf bytes;
        bytes.ptr = (char *)1;
        bytes.size = 9;
        snprintf(file, sizeof file, "%s/no-such-file", data);
        check_status(amber_file_read(&bytes, file), AMBER_NOT_FOUND, "R27 reading a missing file");
        check(bytes.ptr == NULL && bytes.size == 0, "R27 ... gives nothing");
    }
}

/* ======================================================================================== */
/* R27 + R25 The item store: archived into documents on entering the background, read back   */
/* ======================================================================================== */

typedef struct item {
    char name[64];
    char serial[16];
    int64_t value;
    double created;
    struct item *contained; /* Homepwner's containedItem */
    struct item *container; /* and its back reference: a cycle */
} item;

static item *made[16];
static int made_count;

/* archiveRootObject:toFile: and unarchiveObjectWithFile: as a host writes them with 0.2:
 * amber_archiver_finish() then amber_file_write_atomic(); amber_file_read() then
 * amber_unarchiver_new(). */
static int archiver_write_file(amber_archiver *a, const char *path) {
    amber_buf archive = AMBER_BUF_INIT;
    int rc = amber_archiver_finish(&archive, a);
    if (rc == AMBER_OK) rc = amber_file_write_atomic(path, archive.ptr, archive.size);
    amber_buf_dispose(&archive);
    return rc;
}

static int unarchiver_open_file(amber_unarchiver **out, const amber_coding_registry *registry, const char *path) {
    amber_buf file = AMBER_BUF_INIT;
    int rc = amber_file_read(&file, path);
    *out = NULL;
    if (rc == AMBER_OK) rc = amber_unarchiver_new(out, registry, file.ptr, file.size);
    amber_buf_dispose(&file);
    return rc;
}

static int encode_item(const void *object, amber_archiver *archiver, void *ctx) {
    const item *it = object;
    int rc;
    (void)ctx;
    if ((rc = archiver_encode_string(archiver, "itemName", it->name)) != AMBER_OK) return rc;
    if ((rc = archiver_encode_string(archiver, "serialNumber", it->serial)) != AMBER_OK) return rc;
    if ((rc = archiver_encode_int64(archiver, "valueInDollars", it->value)) != AMBER_OK) return rc;
    if ((rc = archiver_encode_date(archiver, "dateCreated", it->created)) != AMBER_OK) return rc;
    if ((rc = amber_archiver_encode_object(archiver, "containedItem", "BNRItem", it->contained)) != AMBER_OK) return rc;
    return amber_archiver_encode_object(archiver, "container", "BNRItem", it->container);
}

static int make_item(void **out, amber_unarchiver *u, void *ctx) {
    item *it;
    const char *s = NULL;
    int rc;
    (void)ctx;
    if (made_count >= 16) return AMBER_LIMIT_EXCEEDED;
    it = calloc(1, sizeof *it);
    if (it == NULL) return AMBER_LIMIT_EXCEEDED;
    made[made_count++] = it;
    if ((rc = unarchiver_decode_string(&s, u, "itemName")) != AMBER_OK) return rc;
    snprintf(it->name, sizeof it->name, "%s", s);
    if ((rc = unarchiver_decode_string(&s, u, "serialNumber")) != AMBER_OK) return rc;
    snprintf(it->serial, sizeof it->serial, "%s", s);
    if ((rc = unarchiver_decode_int64(&it->value, u, "valueInDollars")) != AMBER_OK) return rc;
    if ((rc = unarchiver_decode_date(&it->created, u, "dateCreated")) != AMBER_OK) return rc;
    *out = it;
    return AMBER_OK;
}

/* References are set in decode, once the object is registered: cycles resolve. */
static int decode_item(void *object, amber_unarchiver *u, void *ctx) {
    static const char *const allowed[] = {"BNRItem"};
    item *it = object;
    void *p = NULL;
    int rc;
    (void)ctx;
    if ((rc = amber_unarchiver_decode_object(&p, u, "containedItem", allowed, 1)) != AMBER_OK) return rc;
    it->contained = p;
    if ((rc = amber_unarchiver_decode_object(&p, u, "container", allowed, 1)) != AMBER_OK) return rc;
    it->container = p;
    return AMBER_OK;
}

static int failing_encode(const void *object, amber_archiver *archiver, void *ctx) {
    (void)object; (void)archiver; (void)ctx;
    return AMBER_IO;
}

typedef struct item_store {
    amber_coding_registry *registry;
    item *items[4];
    size_t count;
    char path[400];
    int save_status;
} item_store;

/* The seeds' applicationDidEnterBackground: saveChanges, archiveRootObject:toFile:. */
static int save_changes(const amber_notification *note, void *ctx) {
    item_store *store = ctx;
    amber_archiver *a = NULL;
    int rc;
    (void)note;
    if ((rc = amber_archiver_new(&a, store->registry)) != AMBER_OK) return rc;
    rc = amber_archiver_encode_object_array(a, "root", "BNRItem", (const void *const *)store->items, store->count);
    if (rc == AMBER_OK) rc = archiver_write_file(a, store->path);
    amber_archiver_free(a);
    store->save_status = rc;
    return rc;
}

static amber_coding_registry *item_registry(void) {
    amber_coding_registry *r = NULL;
    amber_coding_class cls;
    cls = (amber_coding_class)AMBER_CODING_CLASS_INIT;
    cls.encode = encode_item;
    cls.make = make_item;
    cls.decode = decode_item;
    if (amber_coding_registry_new(&r) != AMBER_OK) return NULL;
    if (amber_coding_registry_register(r, "BNRItem", NULL, &cls, NULL, count_free) != AMBER_OK) return NULL;
    return r;
}

static void test_item_store(void) {
    use_scratch();
    static item rusty = {"Rusty Bear", "A1B2C", 42, 700000000.5, NULL, NULL};
    static item shiny = {"Shiny Spork", "Z9Y8X", 7, 700000100.0, NULL, NULL};
    static item lamp = {"Lava Lamp", "L4M9P", 99, 700000200.0, NULL, NULL};
    static const char *const allowed[] = {"BNRItem"};
    static const char *const other[] = {"BNRImage"};
    item_store store;
    amber_engine *e = NULL;
    amber_report *report = NULL;
    amber_unarchiver *u = NULL;
    amber_archiver *a = NULL;
    amber_coding_registry *bad = NULL;
    amber_coding_class cls;
    amber_buf docs = AMBER_BUF_INIT;
    void *loaded[4] = {NULL, NULL, NULL, NULL};
    size_t n = 0;
    uint64_t token = 0;
    int saved = 0, freed_before, i, ok;
    amber_buf bytes = AMBER_BUF_INIT;
    void *p = NULL;
    const char *s = NULL;
    int64_t v = 0;

    printf("== R27 the item store in documents (R25 keyed archiver)\n");
    memset(&store, 0, sizeof store);
    rusty.contained = &shiny;
    shiny.container = &rusty;
    store.items[0] = &rusty;
    store.items[1] = &shiny;
    store.items[2] = &lamp;
    store.count = 3;
    store.registry = item_registry();
    check(store.registry != NULL, "R25 a coding registry with BNRItem");
    if (store.registry == NULL) return;
    check_status(amber_app_directory(&docs, "org.amber.homepwner", AMBER_DIRECTORY_DOCUMENTS), AMBER_OK,
                 "R27 the item store's documents directory");
    if (docs.ptr == NULL) return;
    snprintf(store.path, sizeof store.path, "%s/items.archive", docs.ptr);

    /* Run 1: the items are saved when the application enters the background. */
    check_status(amber_engine_open(&e, "org.amber.homepwner", NULL), AMBER_OK, "R27 run 1: open the engine");
    amber_engine_add_observer(&token, e, AMBER_NOTIFICATION_DID_ENTER_BACKGROUND, e, save_changes, &store, NULL);
    amber_engine_launch(&report, e, AMBER_APP_INACTIVE);
    amber_report_free(report);
    amber_engine_transition(&saved, e, AMBER_APP_ACTIVE);
    amber_engine_transition(&saved, e, AMBER_APP_INACTIVE);
    check_status(amber_engine_transition(&saved, e, AMBER_APP_BACKGROUND), AMBER_OK,
                 "R27 run 1: entering the background saves the item store (did-enter-background observer)");
    check(store.save_status == AMBER_OK && file_exists(store.path), "R27 items.archive is in documents");
    check(mode_of(store.path) == 0600 && !has_temporary(docs.ptr), "R27 items.archive is mode 0600, written atomically");
    amber_engine_transition(&saved, e, AMBER_APP_NOT_RUNNING);
    amber_engine_close(e);

    /* Run 2: at launch the store reads the archive back (unarchiveObjectWithFile:). */
    check_status(unarchiver_open_file(&u, store.registry, store.path), AMBER_OK, "R27 run 2: open items.archive");
    check_status(amber_unarchiver_decode_object_array(NULL, 0, &n, u, "root", allowed, 1), AMBER_OK,
                 "R25 the length of the root array");
    check(n == 3, "R25 three items were archived");
    check_status(amber_unarchiver_decode_object_array(loaded, 4, &n, u, "root", allowed, 1), AMBER_OK,
                 "R25 decode the root array of items");
    ok = n == 3 && made_count == 3;
    for (i = 0; ok && i < 3; i++) {
        const item *want = store.items[i], *got = loaded[i];
        ok = got != want && strcmp(got->name, want->name) == 0 && strcmp(got->serial, want->serial) == 0 &&
             got->value == want->value && got->created == want->created;
    }
    check(ok, "R27 the item store round-trips through documents: names, serial numbers, values, dates");
    check(n == 3 && ((item *)loaded[0])->contained == loaded[1] && ((item *)loaded[1])->container == loaded[0] &&
              ((item *)loaded[2])->contained == NULL,
          "R25 shared references and the containedItem/container cycle come back as the same objects");
    check(amber_unarchiver_decode_object_array(loaded, 4, &n, u, "root", allowed, 1) == AMBER_OK && made_count == 3,
          "R25 decoding again gives the same objects, made once");
    check_status(amber_unarchiver_decode_object_array(loaded, 4, &n, u, "root", other, 1), AMBER_TYPE_MISMATCH,
                 "R12 secure coding: a class not allowed is refused");
    check_status(unarchiver_decode_string(&s, u, "nothing"), AMBER_NOT_FOUND, "R25 a missing key");
    check_status(unarchiver_decode_int64(&v, u, "root"), AMBER_TYPE_MISMATCH, "R25 an int64 asked of an array");
    check(amber_unarchiver_contains(u, "root") == 1 && amber_unarchiver_contains(u, "nothing") == 0,
          "R25 amber_unarchiver_contains");
    amber_unarchiver_free(u);

    /* The archive is readable as plain bytes.ptr too, and a damaged one is refused. */
    check_status(amber_file_read(&bytes, store.path), AMBER_OK, "R27 read items.archive as bytes");
    check(bytes.size > 8 && memcmp(bytes.ptr, "bplist00", 8) == 0, "R26 items.archive is a binary property list");
    check_status(amber_unarchiver_new(&u, store.registry, bytes.ptr, bytes.size / 2), AMBER_CORRUPT, "R22 a truncated archive");
    check(u == NULL, "R22 ... gives no unarchiver");
    amber_buf_dispose(&bytes);
    snprintf(store.path, sizeof store.path, "%s/none.archive", docs.ptr);
    check_status(unarchiver_open_file(&u, store.registry, store.path), AMBER_NOT_FOUND, "R27 no archive file");

    /* The archiver's refusals. */
    amber_archiver_new(&a, store.registry);
    check_status(archiver_encode_int64(a, "k", 1), AMBER_OK, "R25 encode an int64");
    check_status(archiver_encode_int64(a, "k", 2), AMBER_DUPLICATE, "R25 a key written twice");
    check_status(amber_archiver_encode_object(a, "o", "NoSuchClass", &lamp), AMBER_TYPE_MISMATCH,
                 "R25 an object of a class not registered");
    check_status(amber_archiver_encode_object(a, "o2", "BNRItem", NULL), AMBER_OK, "R25 nil");
    check_status(archiver_encode_string(a, "s", "\xc3"), AMBER_INVALID_ARGUMENT, "R25 a string that is not UTF-8");
    check_status(amber_archiver_finish(&bytes, a), AMBER_OK, "R25 finish");
    {
        amber_buf again = AMBER_BUF_INIT;
        check_status(amber_archiver_finish(&again, a), AMBER_MISUSE, "R25 finish twice");
        check(again.ptr == NULL && again.size == 0, "R25 ... gives nothing");
    }
    check_status(archiver_encode_int64(a, "late", 1), AMBER_MISUSE, "R25 encode after finishing");
    amber_archiver_free(a);
    check_status(amber_unarchiver_new(&u, NULL, bytes.ptr, bytes.size), AMBER_OK, "R25 read it without a registry");
    check(unarchiver_decode_int64(&v, u, "k") == AMBER_OK && v == 1, "R25 the value read back");
    check(amber_unarchiver_decode_object(&p, u, "o2", NULL, 0) == AMBER_OK && p == NULL, "R25 nil read back");
    amber_unarchiver_free(u);
    amber_buf_dispose(&bytes);

    /* A failing encode callback: its code comes back, the archive is unusable. */
    cls = (amber_coding_class)AMBER_CODING_CLASS_INIT;
    cls.encode = failing_encode;
    amber_coding_registry_new(&bad);
    check_status(amber_coding_registry_register(bad, "Broken", NULL, &cls, NULL, count_free), AMBER_OK, "R25 register Broken");
    check_status(amber_coding_registry_register(bad, "Broken", NULL, &cls, NULL, NULL), AMBER_DUPLICATE,
                 "R25 a class registered twice");
    check_status(amber_coding_registry_register(bad, "NSString", NULL, &cls, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R25 one of Foundation's classes");
    amber_archiver_new(&a, bad);
    check_status(amber_archiver_encode_object(a, "x", "Broken", &lamp), AMBER_IO, "R25 an encode callback's code is passed up");
    {
        amber_buf none = AMBER_BUF_INIT;
        check_status(amber_archiver_finish(&none, a), AMBER_MISUSE,
                     "R25 an archive whose encoding failed cannot be finished");
    }
    freed_before = ctx_freed;
    amber_coding_registry_free(bad);
    check(ctx_freed == freed_before, "R25 a class's ctx_free waits for the archivers that use it");
    amber_archiver_free(a);
    check(ctx_freed == freed_before + 1, "R25 ... and runs once when the last is freed");
    freed_before = ctx_freed;
    amber_coding_registry_free(store.registry);
    check(ctx_freed == freed_before + 1, "R25 freeing the item registry calls BNRItem's ctx_free once");

    for (i = 0; i < made_count; i++) free(made[i]);
    amber_buf_dispose(&docs);
}

static const runner_test tests[] = {
    {"r23_lifecycle", test_lifecycle},
    {"r24_notifications", test_notifications},
    {"r27_directories", test_directories},
    {"r25_r27_item_store", test_item_store},
};

int main(int argc, char **argv) {
    return runner_main("app", tests, RUNNER_COUNT(tests), argc, argv);
}

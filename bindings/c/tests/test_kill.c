/*
 * R19, R20: the archive on disk is always a whole archive, whatever moment the process dies at.
 *
 * A child process saves in a loop (each save writes a counter into every object, then the
 * engine seals and writes the archive durably); the parent kills it with SIGKILL after a random
 * delay, then launches an engine of its own on the same directory: the archive must
 * authenticate and restore completely, every object holding the same counter value (one
 * save, old or new, never a mix or a torn file), or there must be no archive yet (only for the
 * one child in ten that is killed without waiting for its first save). Repeated
 * AMBER_KILLS times (default 1000; 0 checks nothing).
 *
 * Usage: [AMBER_KILLS=N] test_kill [--list] [PREFIX...] (runner.h). Prints the counts and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "check.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OBJECTS 64

static const uint8_t key[32] = "kill-test-key-0123456789abcdef!";

static int64_t counter;       /* what the child writes */
static int64_t seen[OBJECTS]; /* what the parent decodes */
static int decoded;

static int always(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int always_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

static int encode(amber_object *o, amber_coder *c, void *ctx) {
    (void)o; (void)ctx;
    int status = amber_coder_encode_int64(c, "counter", counter);
    if (status) return status;
    return amber_coder_encode_string(c, "padding", "a string that makes the archive long enough to be killed mid-write");
}

static int decode(amber_object *o, amber_decoder *d, void *ctx) {
    (void)o;
    int status = amber_decoder_decode_int64(&seen[(intptr_t)ctx], d, "counter");
    if (status == AMBER_OK) decoded++;
    return status;
}

static amber_engine *open_engine(const char *dir) {
    amber_engine_options opts;
    amber_engine *e = NULL;
    amber_delegate d;
    amber_object_callbacks cb;
    amber_object *root = NULL;
    intptr_t i;
    char id[32];
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    opts.protection = AMBER_PROTECTION_FIXED_KEY;
    opts.fixed_key = key;
    if (amber_engine_open(&e, "org.amber.kill", &opts) != AMBER_OK) return NULL;
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = always;
    d.should_restore = always_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = encode;
    cb.decode = decode;
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "Root", &cb, (void *)0, NULL);
    amber_engine_add_root(e, root);
    for (i = 1; i < OBJECTS; i++) {
        amber_object *child = NULL;
        snprintf(id, sizeof id, "Child-%ld", (long)i);
        amber_object_new(&child, e, AMBER_KIND_CONTROLLER, "Child", id, &cb, (void *)i, NULL);
        amber_object_add_child(root, child);
    }
    return e;
}

/* Saves in a loop; after the first save it writes one byte to `ready`, so that the parent's
 * kill lands while an archive exists and a later save is overwriting it, however slow the
 * machine is. */
static void child_loop(const char *dir, int ready) {
    amber_engine *e = open_engine(dir);
    if (!e) _exit(2);
    for (counter = 1;; counter++) {
        int saved = 0;
        if (amber_engine_preserve(&saved, e) != AMBER_OK || !saved) _exit(3);
        if (counter == 1) {
            char byte = 1;
            if (write(ready, &byte, 1) != 1) _exit(4);
            close(ready);
        }
    }
}

/* AMBER_KILLS kills (default 1000). None is a run that checks nothing, and says so: the test
 * command's quick run makes none. */
static void test_r19_kills(void) {
    const char *env = getenv("AMBER_KILLS");
    int kills = env && env[0] ? atoi(env) : 1000;
    char dir[600];
    int restored = 0, none = 0, bad = 0, early_exit = 0, stale = 0, k, i;
    if (kills <= 0) {
        printf("R19 0 kills: AMBER_KILLS=%s, nothing checked\n", env ? env : "");
        return;
    }
    runner_dir(dir, sizeof dir, "state");
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    for (k = 0; k < kills; k++) {
        int pipe_fds[2];
        pid_t pid;
        int status = 0;
        char byte;
        amber_engine *e;
        amber_report *report = NULL;
        int reason;
        if (pipe(pipe_fds) != 0) { check(0, "R19 a pipe to the child (pipe failed)"); return; }
        pid = fork();
        if (pid < 0) { close(pipe_fds[0]); close(pipe_fds[1]); check(0, "R19 a child process (fork failed)"); return; }
        if (pid == 0) { close(pipe_fds[0]); child_loop(dir, pipe_fds[1]); }
        close(pipe_fds[1]);
        /* The first save: a kill during it is a kill before any archive existed, the rest of
         * the time the kill lands in a later save that replaces the archive. The first save of
         * every 10th child is itself interrupted. */
        if (k % 10 != 0 && read(pipe_fds[0], &byte, 1) != 1) early_exit++;
        close(pipe_fds[0]);
        /* Then up to 10 ms: several saves, the kill landing anywhere in one. */
        {
            struct timespec ts = {0, (long)(rand() % 10000) * 1000L};
            nanosleep(&ts, NULL);
        }
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        if (!WIFSIGNALED(status)) early_exit++;

        e = open_engine(dir);
        if (!e) { bad++; printf("FAIL  kill %d: the engine did not open: %s\n", k, amber_error_last()); continue; }
        decoded = 0;
        memset(seen, 0, sizeof seen);
        if (amber_engine_launch(&report, e, AMBER_APP_INACTIVE) != AMBER_OK) {
            bad++;
            printf("FAIL  kill %d: launch failed: %s\n", k, amber_error_last());
            amber_engine_close(e);
            continue;
        }
        reason = amber_report_fresh_reason(report);
        if (strstr(amber_report_message(report), "temporary file")) stale++;
        if (reason == AMBER_FRESH_NO_ARCHIVE) {
            none++;
        } else if (reason == AMBER_FRESH_NONE && decoded == OBJECTS) {
            int same = 1;
            for (i = 1; i < OBJECTS; i++) same &= seen[i] == seen[0];
            if (same && seen[0] >= 1) restored++;
            else { bad++; printf("FAIL  kill %d: objects hold different saves (%lld, ...)\n", k, (long long)seen[0]); }
        } else {
            bad++;
            printf("FAIL  kill %d: fresh reason %d, %d of %d decoded: %s\n", k, reason, decoded, OBJECTS,
                   amber_report_message(report));
        }
        amber_report_free(report);
        amber_engine_close(e);
    }
    printf("R19 %d kills: %d restored a whole archive, %d found no archive yet, %d bad, %d children exited early; "
           "%d launches removed a temporary file of a save the kill interrupted\n",
           kills, restored, none, bad, early_exit, stale);
    check(bad == 0 && early_exit == 0, "R19 after every SIGKILL the archive is whole: it authenticates and restores");
    checkf(restored >= kills - kills / 10,
           "R19 every kill after a first save found a whole archive, %d restored of %d (the test exercises overwrites)",
           restored, kills);
}

static const runner_test tests[] = {
    {"r19_kills", test_r19_kills},
};

int main(int argc, char **argv) {
    return runner_main("kill", tests, RUNNER_COUNT(tests), argc, argv);
}

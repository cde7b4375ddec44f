/*
 * Threads (amber.h "Thread safety"): separate engines used from separate threads at once, each
 * preserving and restoring through its own file store (encrypted with a fixed key) and its own
 * memory store; meanwhile other threads call the functions that are safe from any thread
 * (amber_version_string/number, amber_status_string, the _init functions) and check that
 * amber_error_last() and amber_error_last_code() are per thread. Meant to run under
 * ThreadSanitizer and AddressSanitizer (scripts/test.sh builds it against a libamber built with
 * each), and plainly.
 *
 * Usage: [AMBER_THREAD_ROUNDS=N] test_threads [--list] [PREFIX...] (runner.h; 20 rounds by
 * default). Prints one line per check and "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "runner.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ENGINE_THREADS = 6, CALLER_THREADS = 3 };

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static void check(int ok, const char *what) {
    pthread_mutex_lock(&report_lock);
    if (ok) {
        passed++;
        printf("ok    %s\n", what);
    } else {
        failed++;
        printf("FAIL  %s\n", what);
    }
    pthread_mutex_unlock(&report_lock);
}

/* ---- one worker: its engines, its objects, its state ------------------------------------- */

typedef struct worker {
    int index;
    int rounds;
    char directory[256];
    int64_t saved_value;   /* what the root encodes */
    int64_t decoded_value; /* what the root decoded */
    char decoded_text[64];
    int good_rounds;
    int errors; /* checks that failed inside the thread */
    char first_error[256];
} worker;

static void note_error(worker *w, const char *what) {
    if (w->errors++ == 0) {
        snprintf(w->first_error, sizeof w->first_error, "%s: %s (%s)", what, amber_error_last(),
                 amber_status_string(amber_error_last_code()));
    }
}

static int encode_root(amber_object *object, amber_coder *coder, void *ctx) {
    (void)object;
    worker *w = ctx;
    char text[64];
    snprintf(text, sizeof text, "worker %d", w->index);
    int rc = amber_coder_encode_int64(coder, "value", w->saved_value);
    if (rc == AMBER_OK) rc = amber_coder_encode_string(coder, "text", text);
    return rc;
}

static int decode_root(amber_object *object, amber_decoder *decoder, void *ctx) {
    (void)object;
    worker *w = ctx;
    const char *text = NULL;
    int rc = amber_decoder_decode_int64(&w->decoded_value, decoder, "value");
    if (rc == AMBER_OK) rc = amber_decoder_decode_string(&text, decoder, "text");
    if (rc == AMBER_OK) snprintf(w->decoded_text, sizeof w->decoded_text, "%s", text);
    return rc;
}

static int yes_save(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    (void)engine; (void)app_coder; (void)ctx;
    return 1;
}

static int yes_restore(amber_engine *engine, amber_decoder *app_decoder, void *ctx) {
    (void)engine; (void)app_decoder; (void)ctx;
    return 1;
}

/* Opens an engine with its delegate and a root "Root" (with a view) whose callbacks use `w`. */
static amber_engine *open_engine(worker *w, int memory) {
    static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
    amber_engine_options options;
    options = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    options.bundle_version = "1.0";
    if (memory) {
        options.memory_store = 1;
    } else {
        options.state_directory = w->directory;
        options.protection = AMBER_PROTECTION_FIXED_KEY;
        options.fixed_key = key;
    }
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, "org.amber.threads", &options) != AMBER_OK) {
        note_error(w, "amber_engine_open");
        return NULL;
    }
    amber_delegate delegate;
    delegate = (amber_delegate)AMBER_DELEGATE_INIT;
    delegate.should_save = yes_save;
    delegate.should_restore = yes_restore;
    amber_object_callbacks callbacks;
    callbacks = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    callbacks.encode = encode_root;
    callbacks.decode = decode_root;
    amber_object *root = NULL, *view = NULL;
    if (amber_engine_set_delegate(engine, &delegate, NULL, NULL) != AMBER_OK ||
        amber_object_new(&root, engine, AMBER_KIND_CONTROLLER, "RootController", "Root", &callbacks, w, NULL) != AMBER_OK ||
        amber_object_new(&view, engine, AMBER_KIND_VIEW, "ScrollView", "Scroll", NULL, NULL, NULL) != AMBER_OK ||
        amber_object_add_view(root, view) != AMBER_OK || amber_engine_add_root(engine, root) != AMBER_OK) {
        note_error(w, "setting up the engine");
        amber_engine_close(engine);
        return NULL;
    }
    return engine;
}

/* A round: one engine preserves, a second (same store) restores what it saved. With the
 * memory store, one engine does both (its archive lives as long as the engine). */
static void round_trip(worker *w, int round, int memory) {
    w->saved_value = (int64_t)w->index * 1000 + round;
    w->decoded_value = -1;
    w->decoded_text[0] = 0;
    amber_engine *saver = open_engine(w, memory);
    if (!saver) return;
    int saved = 0;
    if (amber_engine_preserve(&saved, saver) != AMBER_OK || !saved) note_error(w, "amber_engine_preserve");
    amber_engine *restorer = saver;
    if (!memory) {
        amber_engine_close(saver);
        restorer = open_engine(w, memory);
        if (!restorer) return;
    }
    amber_report *report = NULL;
    if (amber_engine_launch(&report, restorer, AMBER_APP_INACTIVE) != AMBER_OK) {
        note_error(w, "amber_engine_launch");
    } else {
        char expected[64];
        snprintf(expected, sizeof expected, "worker %d", w->index);
        amber_report_record record;
        int restored = amber_report_fresh_reason(report) == AMBER_FRESH_NONE && amber_report_count(report) == 2 &&
                       amber_report_record_at(&record, report, 0) == AMBER_OK && record.outcome == AMBER_OUTCOME_RESTORED;
        if (restored && w->decoded_value == w->saved_value && strcmp(w->decoded_text, expected) == 0) {
            w->good_rounds++;
        } else {
            amber_buf text = AMBER_BUF_INIT;
            amber_report_format(&text, report);
            if (w->errors++ == 0) snprintf(w->first_error, sizeof w->first_error, "round %d: %s", round, text.ptr ? text.ptr : "?");
            amber_buf_dispose(&text);
        }
        amber_report_free(report);
    }
    amber_engine_close(restorer);
}

static void *engine_thread(void *arg) {
    worker *w = arg;
    for (int round = 0; round < w->rounds; round++) {
        round_trip(w, round, 0);
        round_trip(w, round, 1);
    }
    return NULL;
}

/* ---- callers of the functions that are safe from any thread -------------------------------- */

typedef struct caller {
    int index;
    int iterations;
    int errors;
} caller;

static void *caller_thread(void *arg) {
    caller *c = arg;
    for (int i = 0; i < c->iterations; i++) {
        if (amber_version_number() != AMBER_VERSION_NUMBER) c->errors++;
        const char *version = amber_version_string();
        if (!version || strlen(version) < 5) c->errors++;
        if (strcmp(amber_status_string(AMBER_NOT_FOUND), "AMBER_NOT_FOUND") != 0) c->errors++;
        amber_engine_options options;
        amber_delegate delegate;
        amber_buf empty = AMBER_BUF_INIT;
        options = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
        delegate = (amber_delegate)AMBER_DELEGATE_INIT;
        if (options.version != AMBER_ENGINE_OPTIONS_VERSION || delegate.version != AMBER_DELEGATE_VERSION) c->errors++;
        amber_buf_dispose(&empty); /* safe from any thread */
        if (empty.ptr != NULL || empty.size != 0) c->errors++;
        /* A failure of this thread's own: the last error is this one, whatever other threads do. */
        int want = (i + c->index) % 2 ? AMBER_INVALID_ARGUMENT : AMBER_MISUSE;
        if (want == AMBER_INVALID_ARGUMENT) {
            if (amber_engine_open(NULL, "org.amber.threads", NULL) != AMBER_INVALID_ARGUMENT) c->errors++;
        } else {
            /* A handle Amber never gave out: AMBER_MISUSE. */
            if (amber_engine_preserve(NULL, (amber_engine *)(uintptr_t)0x7ff00001) != AMBER_MISUSE) c->errors++;
        }
        sched_yield();
        if (amber_error_last_code() != want) c->errors++;
        const char *message = amber_error_last();
        if (!message || message[0] == 0) c->errors++;
        amber_error_clear();
        if (amber_error_last_code() != AMBER_OK || amber_error_last()[0] != 0) c->errors++;
    }
    return NULL;
}

/* AMBER_THREAD_ROUNDS rounds per engine thread (default 20). */
static void test_engines_on_threads(void) {
    const char *env = getenv("AMBER_THREAD_ROUNDS");
    int rounds = env && env[0] ? atoi(env) : 20;
    if (rounds < 1) rounds = 1;
    char base[200];
    runner_dir(base, sizeof base, "threads");
    worker workers[ENGINE_THREADS];
    caller callers[CALLER_THREADS];
    pthread_t threads[ENGINE_THREADS + CALLER_THREADS];
    memset(workers, 0, sizeof workers);
    for (int i = 0; i < ENGINE_THREADS; i++) {
        workers[i].index = i;
        workers[i].rounds = rounds;
        snprintf(workers[i].directory, sizeof workers[i].directory, "%s/worker%d", base, i);
    }
    for (int i = 0; i < CALLER_THREADS; i++) callers[i] = (caller){.index = i, .iterations = rounds * 20};
    int started = 1;
    for (int i = 0; i < ENGINE_THREADS; i++) started &= pthread_create(&threads[i], NULL, engine_thread, &workers[i]) == 0;
    for (int i = 0; i < CALLER_THREADS; i++)
        started &= pthread_create(&threads[ENGINE_THREADS + i], NULL, caller_thread, &callers[i]) == 0;
    check(started, "all threads started");
    for (int i = 0; i < ENGINE_THREADS + CALLER_THREADS; i++) pthread_join(threads[i], NULL);

    char line[512];
    for (int i = 0; i < ENGINE_THREADS; i++) {
        snprintf(line, sizeof line, "thread %d: %d of %d rounds saved and restored (file store, then memory store)%s%s",
                 i, workers[i].good_rounds, 2 * rounds, workers[i].errors ? "; first error: " : "",
                 workers[i].errors ? workers[i].first_error : "");
        check(workers[i].good_rounds == 2 * rounds && workers[i].errors == 0, line);
    }
    for (int i = 0; i < CALLER_THREADS; i++) {
        snprintf(line, sizeof line,
                 "caller %d: versions, status names, _init and a per-thread last error, %d times (%d wrong)", i,
                 callers[i].iterations, callers[i].errors);
        check(callers[i].errors == 0, line);
    }
}

static const runner_test tests[] = {
    {"engines_on_threads", test_engines_on_threads},
};

int main(int argc, char **argv) {
    return runner_main("threads", tests, RUNNER_COUNT(tests), argc, argv);
}

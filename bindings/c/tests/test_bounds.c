/*
 * test_bounds.c — what an independent probe broke (issue 26), through the C ABI: a chain of
 * controllers far deeper than restoration reads, a launch whose host has built such a chain
 * (issue 39), a value over the reader's per-value limit,
 * closing an engine of a million objects and freeing a hundred thousand children one by one.
 * Each check names its rule; times and memory are printed, never asserted.
 *
 * Usage: test_bounds [--list] [PREFIX...] (runner.h). Prints one line per check, then
 * "N passed, N failed".
 */
#define _GNU_SOURCE
#include "amber.h"
#include "check.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define APP_ID "org.example.bounds"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Resets the resident set's high-water mark to the resident set now (Linux: 5 to clear_refs). */
static void reset_peak(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return;
    fputs("5", f);
    fclose(f);
}

/* The resident set's high-water mark in KiB (VmHWM), or -1. */
static long peak_kib(void) {
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) kib = strtol(line + 6, NULL, 10);
    fclose(f);
    return kib;
}

/* The size of the archive in `dir`, or -1. */
static long long archive_size(const char *dir) {
    char path[700];
    FILE *f;
    long long size;
    snprintf(path, sizeof path, "%s/state.archive", dir);
    f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fclose(f);
    return size;
}

static int should(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int should_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

static int encode_value(amber_object *o, amber_coder *c, void *ctx) {
    (void)o;
    return amber_coder_encode_int64(c, "value", (int64_t)(intptr_t)ctx);
}

static int64_t decoded_sum;
static int decode_value(amber_object *o, amber_decoder *d, void *ctx) {
    int64_t v = 0;
    (void)o; (void)ctx;
    if (amber_decoder_decode_int64(&v, d, "value") == AMBER_OK) decoded_sum += v;
    return AMBER_OK;
}

static amber_engine *open_engine(const char *dir) {
    amber_engine *e = NULL;
    amber_engine_options opts;
    amber_delegate d;
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    if (amber_engine_open(&e, APP_ID, &opts) != AMBER_OK) {
        printf("FAIL  amber_engine_open: %s\n", amber_error_last());
        exit(1);
    }
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = should;
    d.should_restore = should_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    return e;
}

static amber_object *controller(amber_engine *e, const char *id, int64_t value) {
    amber_object *o = NULL;
    amber_object_callbacks cb;
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = encode_value;
    cb.decode = decode_value;
    if (amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "Chain", id, &cb, (void *)(intptr_t)value, NULL) != AMBER_OK) {
        printf("FAIL  amber_object_new: %s\n", amber_error_last());
        exit(1);
    }
    return o;
}

/* The delegate of the restoring engine: a controller for every path it is asked (the engine
 * places it where its record was). */
static int make_link(amber_object **out, amber_engine *e, const char *const *path, size_t n, amber_decoder *d, void *ctx) {
    (void)d; (void)ctx;
    *out = controller(e, path[n - 1], 0);
    return AMBER_OK;
}

/* R2 R22: a chain 100,000 controllers deep. Preserve records the 512 levels restoration reads
 * and leaves the rest out as one entry that counts it; restore, in a child process, restores
 * those 512 and prints its time and how much its peak resident set grew. */
static void test_deep_chain(void) {
    char dir[600];
    runner_dir(dir, sizeof dir, "chain");
    enum { DEPTH = 100000 };
    amber_engine *e = open_engine(dir);
    amber_object *top = controller(e, "link", 1), *next;
    amber_preservation *p = NULL;
    amber_preservation_entry entry;
    size_t i, count, left_out = 0;
    double t0;
    int saved = 0, ok = 1;
    pid_t pid;
    int st = 0;
    struct rusage usage;

    printf("-- R2 R22 a chain %d controllers deep\n", DEPTH);
    amber_engine_add_root(e, top);
    for (i = 1; i < DEPTH; i++) {
        next = controller(e, "link", 1);
        if (amber_object_present(top, next) != AMBER_OK) ok = 0;
        top = next;
    }
    check(ok, "R2 a chain of 100,000 presented controllers is built");
    t0 = now();
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R22 preserve of the chain");
    printf("  preserve: %.1f ms\n", (now() - t0) * 1000);
    check(amber_engine_preservation(&p, e) == AMBER_OK, "R28 the preservation report");
    count = amber_preservation_count(p);
    for (i = 0; i < count; i++) {
        if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK) break;
        if (entry.left_out != AMBER_LEFT_OUT_NONE) {
            left_out++;
            /* R22 */ checkf(entry.left_out == AMBER_LEFT_OUT_TOO_DEEP && entry.path_length == 513 &&
                                 strstr(entry.message, "99487 objects under it") != NULL,
                             "R22 the 513th level is left out as too deep, counting the 99,487 under it: %s", entry.message);
        }
    }
    /* R22 */ checkf(count == 513 && left_out == 1, "R22 512 levels preserved and one entry for the rest (%zu entries)", count);
    amber_preservation_free(p);
    t0 = now();
    amber_engine_close(e);
    printf("  close of the 100,000 objects: %.1f ms\n", (now() - t0) * 1000);

    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        amber_report *r = NULL;
        amber_report_record rec;
        amber_delegate d;
        long before;
        double t;
        size_t restored = 0, n;
        long long size = archive_size(dir);
        /* A first save and restore of one object pages in the library's code, which is not
           memory a restore takes; the mark is reset after it. */
        {
            char warm[700];
            int saved = 0;
            snprintf(warm, sizeof warm, "%s-warm", dir);
            e = open_engine(warm);
            amber_engine_add_root(e, controller(e, "link", 1));
            amber_engine_preserve(&saved, e);
            amber_engine_close(e);
            e = open_engine(warm);
            d = (amber_delegate)AMBER_DELEGATE_INIT;
            d.should_restore = should_restore;
            d.object_for_path = make_link;
            amber_engine_set_delegate(e, &d, NULL, NULL);
            amber_engine_launch(&r, e, AMBER_APP_INACTIVE);
            amber_report_free(r);
            amber_engine_close(e);
            r = NULL;
        }
        e = open_engine(dir);
        d = (amber_delegate)AMBER_DELEGATE_INIT;
        d.should_restore = should_restore;
        d.object_for_path = make_link;
        amber_engine_set_delegate(e, &d, NULL, NULL);
        reset_peak();
        before = peak_kib();
        t = now();
        decoded_sum = 0;
        amber_engine_launch(&r, e, AMBER_APP_INACTIVE);
        t = now() - t;
        for (n = 0; n < amber_report_count(r); n++)
            if (amber_report_record_at(&rec, r, n) == AMBER_OK && rec.outcome == AMBER_OUTCOME_RESTORED) restored++;
        printf("  restore: %.1f ms, %zu of %zu records restored with %lld decoded, peak grew %ld KiB (archive: %lld bytes)\n",
               t * 1000, restored, amber_report_count(r), (long long)decoded_sum, peak_kib() - before, size);
        fflush(stdout);
        _exit(restored == 512 && decoded_sum == 512 ? 0 : 3);
    }    check(pid > 0 && wait4(pid, &st, 0, &usage) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "R22 the archive of the chain restores its 512 records in a child process");
}

/* A chain of `depth` controllers "link" in `e`, each presenting the next, the first a root;
 * the first `keep` of them in `kept`. 0 if a relation was refused. */
static int build_chain(amber_engine *e, size_t depth, amber_object **kept, size_t keep) {
    amber_object *top = controller(e, "link", 1), *next;
    size_t n;
    if (amber_engine_add_root(e, top) != AMBER_OK) return 0;
    if (keep > 0) kept[0] = top;
    for (n = 1; n < depth; n++) {
        next = controller(e, "link", 1);
        if (amber_object_present(top, next) != AMBER_OK) return 0;
        if (n < keep) kept[n] = next;
        top = next;
    }
    return 1;
}

/* R1 R10 R22: the next launch's host builds the same 100,000-deep chain before launching, and
 * each of the archive's 512 records is found in it (implicit lookup); the engine then
 * preserves it again and closes. In a child process whose address space is bounded, so that a
 * launch that is not linear in the depth fails here rather than taking the machine's memory. */
static void test_deep_host_tree(void) {
    char dir[600];
    runner_dir(dir, sizeof dir, "host-tree");
    enum { DEPTH = 100000 };
    pid_t pid;
    int st = 0;

    printf("-- R1 R10 a launch over a host tree %d controllers deep\n", DEPTH);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        struct rlimit limit = {(rlim_t)4 << 30, (rlim_t)4 << 30};
        amber_engine *e;
        amber_object *chain[512];
        amber_report *r = NULL;
        amber_report_record rec;
        size_t n, found = 0, count;
        int saved = 0;
        double t;
        setrlimit(RLIMIT_AS, &limit);
        e = open_engine(dir);
        if (!build_chain(e, DEPTH, NULL, 0)) _exit(4);
        if (amber_engine_preserve(&saved, e) != AMBER_OK || !saved) _exit(5);
        amber_engine_close(e);

        e = open_engine(dir);
        if (!build_chain(e, DEPTH, chain, 512)) _exit(4);
        t = now();
        if (amber_engine_launch(&r, e, AMBER_APP_INACTIVE) != AMBER_OK) _exit(6);
        t = now() - t;
        count = amber_report_count(r);
        for (n = 0; n < count && n < 512; n++)
            if (amber_report_record_at(&rec, r, n) == AMBER_OK && rec.outcome == AMBER_OUTCOME_RESTORED &&
                rec.object == chain[n])
                found++;
        printf("  launch: %.1f ms, %zu of %zu records found in the host's tree\n", t * 1000, found, count);
        amber_report_free(r);
        if (amber_engine_preserve(&saved, e) != AMBER_OK || !saved) _exit(7);
        amber_engine_close(e);
        fflush(stdout);
        _exit(found == 512 && count == 512 ? 0 : 3);
    }
    check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "R10 each record is found in the host's 100,000-deep tree; it preserves again and closes");
}

static size_t big_size;
static int encode_big(amber_object *o, amber_coder *c, void *ctx) {
    int rc;
    uint8_t *bytes = calloc(1, big_size);
    (void)o; (void)ctx;
    if (!bytes) return AMBER_CALLBACK_FAILED;
    rc = amber_coder_encode_bytes(c, "blob", bytes, big_size);
    free(bytes);
    return rc; /* the coder's refusal, passed on as a host would */
}

/* R22 R28: a 65 MiB value is over the reader's per-value limit (64 MiB): the coder refuses it
 * with AMBER_LIMIT_EXCEEDED naming the key, the object is left out (reported), and the rest is
 * saved and restores. */
static void test_value_over_limit(void) {
    char dir[600];
    runner_dir(dir, sizeof dir, "value");
    amber_engine *e = open_engine(dir);
    amber_object *root = controller(e, "Root", 7), *big;
    amber_object_callbacks cb;
    amber_preservation *p = NULL;
    amber_preservation_entry entry;
    amber_report *r = NULL;
    size_t i;
    int saved = 0, found = 0;

    printf("-- R22 a value of 65 MiB\n");
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = encode_big;
    big_size = (size_t)65 << 20;
    amber_object_new(&big, e, AMBER_KIND_CONTROLLER, "Big", "Big", &cb, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, big);
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R22 R28 preserve with a 65 MiB value saves the rest");
    amber_engine_preservation(&p, e);
    for (i = 0; i < amber_preservation_count(p); i++) {
        if (amber_preservation_entry_at(&entry, p, i) == AMBER_OK && entry.left_out == AMBER_LEFT_OUT_ENCODE_FAILED) {
            found = 1;
            /* R22 */ checkf(strstr(entry.message, "'blob' is 68157440 bytes; the limit is 67108864") != NULL &&
                                 strstr(entry.message, "AMBER_LIMIT_EXCEEDED") != NULL,
                             "R22 the report names the object, the key and the limit: %s", entry.message);
        }
    }
    check(found, "R28 the object with the value is left out");
    amber_preservation_free(p);
    amber_engine_close(e);

    e = open_engine(dir);
    root = controller(e, "Root", 0);
    amber_engine_add_root(e, root);
    decoded_sum = 0;
    amber_engine_launch(&r, e, AMBER_APP_INACTIVE);
    checkf(amber_report_fresh_reason(r) == AMBER_FRESH_NONE && decoded_sum == 7,
           "R22 the archive restores what was saved (Root's value %lld)", (long long)decoded_sum);
    amber_report_free(r);
    amber_engine_close(e);
}

/* R1: an engine of a million objects closes, and 100,000 children freed one by one go, in time
 * linear in their number (both were quadratic). */
static void test_closing(void) {
    char dir[600];
    runner_dir(dir, sizeof dir, "closing");
    enum { MILLION = 1000000, HUNDRED_K = 100000 };
    amber_engine *e = open_engine(dir);
    amber_object *root = controller(e, "Root", 0), **kids;
    size_t i;
    double t0;
    int ok = 1;

    printf("-- R1 closing and freeing many objects\n");
    amber_engine_add_root(e, root);
    for (i = 0; i < MILLION; i++) {
        amber_object *c = controller(e, "c", 0);
        if (amber_object_add_child(root, c) != AMBER_OK) ok = 0;
    }
    check(ok, "R1 a root with a million children is built");
    t0 = now();
    amber_engine_close(e);
    printf("  close of 1,000,001 objects: %.1f ms\n", (now() - t0) * 1000);

    e = open_engine(dir);
    root = controller(e, "Root", 0);
    kids = malloc(sizeof *kids * HUNDRED_K);
    for (i = 0; i < HUNDRED_K; i++) {
        kids[i] = controller(e, "c", 0);
        amber_object_add_child(root, kids[i]);
    }
    t0 = now();
    for (i = 0; i < HUNDRED_K; i++) amber_object_free(kids[i]);
    printf("  100,000 children freed one by one, first to last: %.1f ms\n", (now() - t0) * 1000);
    {
        amber_preservation *p = NULL;
        int saved = 0;
        amber_engine_add_root(e, root);
        amber_engine_preserve(&saved, e);
        amber_engine_preservation(&p, e);
        checkf(saved && amber_preservation_count(p) == 1,
               "R1 the children freed one by one are gone from their parent (%zu objects preserved)", amber_preservation_count(p));
        amber_preservation_free(p);
    }
    free(kids);
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r22_deep_chain", test_deep_chain},
    {"r10_deep_host_tree", test_deep_host_tree},
    {"r22_value_over_limit", test_value_over_limit},
    {"r1_closing", test_closing},
};

int main(int argc, char **argv) {
    return runner_main("bounds", tests, RUNNER_COUNT(tests), argc, argv);
}

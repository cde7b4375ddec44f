/*
 * bench_engine.c — the end-to-end cost of Amber seen from a C host (issue 3, item 6).
 *
 * For each size N it builds the synthetic UI tree through include/amber.h (N restorable
 * controllers, 4 children per node filled breadth first, each with encode and decode callbacks
 * and a restoration class that makes it again at launch), then times, in rounds:
 *
 *   preserve  amber_engine_preserve(): should_save, the walk, every encode callback, the
 *             encoding of the archive and its durable write by the built-in file store
 *             (temporary file, write, fsync, rename, fsync of the directory);
 *   restore   amber_engine_launch(, AMBER_APP_INACTIVE) on a second engine with no objects: the read of the archive,
 *             the launch guard (written durably), decoding, a restoration class's make for every
 *             object (the host allocates its struct), every decode callback, the discard of the
 *             archive and the guard;
 *   floor     what any durable write of the same number of bytes costs in the same directory:
 *             open a new file, write, fsync, close, rename, fsync of the directory.
 *
 * Each round runs the three once in turn, so that a slow spell of the (shared) machine slows
 * all three alike; the lines give medians over the rounds. Peak memory is measured in a child
 * process per phase, forked before the parent builds anything: the resident set after the host
 * objects are built (preserve) or after the empty engine is opened (restore) is the baseline,
 * the high-water mark during the phase (reset through /proc/self/clear_refs, else VmHWM) the
 * peak.
 *
 * Usage: bench_engine [--sizes 100,1000,10000,100000,1000000] [--reps 7] [--big-reps 3]
 *                     [--mem-sizes LIST|none] [--dir DIR] [--values one|batch] [--dirty PERCENT]
 *                     [--depth LIST]
 *   --reps      rounds below 100,000 nodes; --big-reps: rounds from 100,000 nodes.
 *   --mem-sizes sizes whose peak memory is measured (default: the same as --sizes).
 *   --values    how the callbacks write and read a node's 5 values: one C call per value (one,
 *               the default) or one call per node (batch: amber_coder_encode_values() and
 *               amber_decoder_decode_values()).
 *   --dirty     instead of the phases above: per size, a save after PERCENT of the nodes changed,
 *               by an engine that saves in full against one with an autosave policy, which
 *               calls only the dirty nodes' encode callbacks (R32); two trees side by side,
 *               each round editing both alike and saving both, in turn first; both archives are
 *               then restored and checked. Line: dirty n=N percent=P ... full=S incremental=S.
 *   --depth     instead of the phases above: per size N, a host tree that is one chain of N
 *               controllers (each the child of the one before), REPS times, each in a child
 *               process: the chain built, preserved (the records down to the depth limit of
 *               R22, 512), the engine closed; then the same chain built by the next launch's
 *               host, and the launch, whose records are found in it by implicit lookup (R10),
 *               with its peak memory. Line: depth n=N build=S preserve=S close=S launch=S ...
 *   --dir       where the archives are written (default: a new directory under $TMPDIR or /tmp;
 *               it must be on a real file system for fsync to mean anything).
 *
 * Output: machine-readable lines, one per fact, `key=value` separated by spaces:
 *   engine n=N reps=R bytes=B build=S preserve=S restore=S floor=S preserve_min=S ...
 *   memory n=N phase=preserve|restore baseline_kb=K peak_kb=K extra_kb=K host_kb=K bytes=B method=M
 *   depth n=N records=R build=S preserve=S close=S launch=S launch_extra_kb=K preserve_extra_kb=K host_kb=K method=M
 * (seconds as decimals). scripts/bench-engine.sh turns them into the table of BENCHMARKS.md.
 */
#define _GNU_SOURCE
#include "amber.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define APP_ID "org.example.bench"
#define RESTORATION_CLASS "BenchScreens"

static void die(const char *what, int rc) {
    fprintf(stderr, "bench_engine: %s failed: %s: %s\n", what, amber_status_string(rc), amber_error_last());
    exit(1);
}

#define CHECK(call, what)                  \
    do {                                   \
        int rc_ = (call);                  \
        if (rc_ != AMBER_OK) die(what, rc_); \
    } while (0)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the synthetic tree: the same values as Benchmarks/ArchiveBench --------------------- */

static const char *const CLASS_NAMES[8] = {
    "ItemsViewController", "DetailViewController", "UINavigationController", "UITableView",
    "UIScrollView", "UITextField", "ImagePickerController", "SettingsViewController",
};

static const char *const TITLES[8] = {
    "Vintage bicycle bell", "Leather notebook set", "Ceramic coffee mug", "Wireless earbuds v2",
    "Mechanical keyboard", "Hiking boots, size 9", "Cast iron skillet 10", "Noise cancel headset",
};

/* The host's side of one screen: its state. */
typedef struct node {
    long index;
    int64_t selected_index;
    int is_editing;
    double content_offset_y;
    char item_key[23];
    char title[32];
} node;

/* A 22-character key, unique per node (like a base64 UUID); the same as ArchiveBench's. */
static void item_key(char out[23], long i) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    uint64_t x = ((uint64_t)i * 0x9E3779B97F4A7C15ull) ^ 0xD1B54A32D192ED03ull;
    int k;
    for (k = 0; k < 22; k++) {
        if (k == 11) x = (x * 0xBF58476D1CE4E5B9ull) ^ (uint64_t)i;
        out[k] = alphabet[x & 63];
        x = x >> 6 | x << 58;
    }
    out[22] = '\0';
}

/* The state node i has when the interface is built. */
static void fill_node(node *s, long i) {
    s->index = i;
    s->selected_index = i % 37;
    s->is_editing = i % 3 == 0;
    s->content_offset_y = (double)i * 44.5;
    item_key(s->item_key, i);
    snprintf(s->title, sizeof s->title, "%s", TITLES[i % 8]);
}

/* Whether a restored node holds what node i held. */
static int node_matches(const node *s, long i) {
    node want;
    memset(&want, 0, sizeof want);
    fill_node(&want, i);
    return s->index == i && s->selected_index == want.selected_index && s->is_editing == want.is_editing &&
           s->content_offset_y == want.content_offset_y && strcmp(s->item_key, want.item_key) == 0 &&
           strcmp(s->title, want.title) == 0;
}

/* ---- the callbacks ---------------------------------------------------------------------- */

static int encode_node(amber_object *object, amber_coder *coder, void *ctx) {
    const node *s = ctx;
    int rc;
    (void)object;
    if ((rc = amber_coder_encode_int64(coder, "selectedIndex", s->selected_index)) != AMBER_OK) return rc;
    if ((rc = amber_coder_encode_bool(coder, "isEditing", s->is_editing)) != AMBER_OK) return rc;
    if ((rc = amber_coder_encode_double(coder, "contentOffsetY", s->content_offset_y)) != AMBER_OK) return rc;
    if ((rc = amber_coder_encode_string(coder, "itemKey", s->item_key)) != AMBER_OK) return rc;
    return amber_coder_encode_string(coder, "title", s->title);
}

static int decode_node(amber_object *object, amber_decoder *decoder, void *ctx) {
    node *s = ctx;
    const char *text = NULL;
    int flag = 0, rc;
    (void)object;
    if ((rc = amber_decoder_decode_int64(&s->selected_index, decoder, "selectedIndex")) != AMBER_OK) return rc;
    if ((rc = amber_decoder_decode_bool(&flag, decoder, "isEditing")) != AMBER_OK) return rc;
    s->is_editing = flag;
    if ((rc = amber_decoder_decode_double(&s->content_offset_y, decoder, "contentOffsetY")) != AMBER_OK) return rc;
    if ((rc = amber_decoder_decode_string(&text, decoder, "itemKey")) != AMBER_OK) return rc;
    snprintf(s->item_key, sizeof s->item_key, "%s", text);
    if ((rc = amber_decoder_decode_string(&text, decoder, "title")) != AMBER_OK) return rc;
    snprintf(s->title, sizeof s->title, "%s", text);
    return AMBER_OK;
}

/* The same state in one call each way (--values batch): amber_coder_encode_values() and
 * amber_decoder_decode_values(). */
static int encode_node_batch(amber_object *object, amber_coder *coder, void *ctx) {
    const node *s = ctx;
    amber_keyed_value v[5];
    (void)object;
    memset(v, 0, sizeof v);
    v[0].key = "selectedIndex"; v[0].type = AMBER_VALUE_INT64; v[0].int64_value = s->selected_index;
    v[1].key = "isEditing"; v[1].type = AMBER_VALUE_BOOL; v[1].int64_value = s->is_editing;
    v[2].key = "contentOffsetY"; v[2].type = AMBER_VALUE_DOUBLE; v[2].double_value = s->content_offset_y;
    v[3].key = "itemKey"; v[3].type = AMBER_VALUE_STRING; v[3].string_value = s->item_key;
    v[4].key = "title"; v[4].type = AMBER_VALUE_STRING; v[4].string_value = s->title;
    return amber_coder_encode_values(coder, v, 5);
}

static int decode_node_batch(amber_object *object, amber_decoder *decoder, void *ctx) {
    node *s = ctx;
    amber_keyed_value v[5];
    int rc, k;
    (void)object;
    memset(v, 0, sizeof v);
    v[0].key = "selectedIndex"; v[0].type = AMBER_VALUE_INT64;
    v[1].key = "isEditing"; v[1].type = AMBER_VALUE_BOOL;
    v[2].key = "contentOffsetY"; v[2].type = AMBER_VALUE_DOUBLE;
    v[3].key = "itemKey"; v[3].type = AMBER_VALUE_STRING;
    v[4].key = "title"; v[4].type = AMBER_VALUE_STRING;
    if ((rc = amber_decoder_decode_values(v, 5, decoder)) != AMBER_OK) return rc;
    for (k = 0; k < 5; k++) if (!v[k].found) return AMBER_NOT_FOUND;
    s->selected_index = v[0].int64_value;
    s->is_editing = (int)v[1].int64_value;
    s->content_offset_y = v[2].double_value;
    snprintf(s->item_key, sizeof s->item_key, "%s", v[3].string_value);
    snprintf(s->title, sizeof s->title, "%s", v[4].string_value);
    return AMBER_OK;
}

/* --values one|batch: one call per value (the default) or one per object. */
static int batch_values;

static amber_object_callbacks node_callbacks(void) {
    amber_object_callbacks cb;
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = batch_values ? encode_node_batch : encode_node;
    cb.decode = batch_values ? decode_node_batch : decode_node;
    return cb;
}

/* The index in "ItemsViewController-<i>", or -1. */
static long index_of(const char *identifier) {
    const char *dash = strrchr(identifier, '-');
    char *end = NULL;
    long i;
    if (!dash) return -1;
    i = strtol(dash + 1, &end, 10);
    return end && *end == '\0' && i >= 0 ? i : -1;
}

/* The restoration class: makes the screen of an archived path, as UIKit's
 * viewControllerWithRestorationIdentifierPath:coder: would. The host allocates its struct;
 * Amber frees it with the object. */
static int make_node(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                     amber_decoder *decoder, void *ctx) {
    const char *identifier = path[path_length - 1];
    long i = index_of(identifier);
    amber_object_callbacks cb = node_callbacks();
    node *s;
    int rc;
    (void)decoder; (void)ctx;
    if (i < 0) return AMBER_NOT_FOUND;
    if ((s = calloc(1, sizeof *s)) == NULL) return AMBER_LIMIT_EXCEEDED;
    s->index = i;
    rc = amber_object_new(out, engine, AMBER_KIND_CONTROLLER, CLASS_NAMES[i % 8], identifier, &cb, s, free);
    if (rc != AMBER_OK) free(s);
    return rc;
}

static int should_save(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    (void)engine; (void)app_coder; (void)ctx;
    return 1;
}

static int should_restore(amber_engine *engine, amber_decoder *app_decoder, void *ctx) {
    (void)engine; (void)app_decoder; (void)ctx;
    return 1;
}

static amber_engine *open_engine(const char *dir, int restoring) {
    amber_engine_options options;
    amber_engine *engine = NULL;
    amber_delegate delegate;
    options = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    options.state_directory = dir;
    options.bundle_version = "1.0";
    CHECK(amber_engine_open(&engine, APP_ID, &options), "amber_engine_open");
    delegate = (amber_delegate)AMBER_DELEGATE_INIT;
    delegate.should_save = should_save;
    delegate.should_restore = should_restore;
    CHECK(amber_engine_set_delegate(engine, &delegate, NULL, NULL), "amber_engine_set_delegate");
    if (restoring) {
        amber_restoration_class cls;
        cls = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
        cls.make = make_node;
        CHECK(amber_engine_register_restoration_class(engine, RESTORATION_CLASS, &cls, NULL, NULL),
              "amber_engine_register_restoration_class");
    }
    return engine;
}

/* Builds the interface of n screens in an engine: node 0 is the root (a window), node i > 0
 * the child of node (i - 1) / 4. */
static void build_tree_keeping(amber_engine *engine, long n, amber_object **kept, node **states);

static void build_tree(amber_engine *engine, long n) { build_tree_keeping(engine, n, NULL, NULL); }

/* As build_tree; with `kept` and `states` (n each), also gives the objects and their states. */
static void build_tree_keeping(amber_engine *engine, long n, amber_object **kept, node **states) {
    amber_object **objects = malloc((size_t)n * sizeof *objects);
    amber_object_callbacks cb = node_callbacks();
    char identifier[64];
    long i;
    if (!objects) { fprintf(stderr, "bench_engine: out of memory\n"); exit(1); }
    for (i = 0; i < n; i++) {
        node *s = calloc(1, sizeof *s);
        if (!s) { fprintf(stderr, "bench_engine: out of memory\n"); exit(1); }
        fill_node(s, i);
        snprintf(identifier, sizeof identifier, "ItemsViewController-%ld", i);
        CHECK(amber_object_new(&objects[i], engine, AMBER_KIND_CONTROLLER, CLASS_NAMES[i % 8], identifier, &cb, s, free),
              "amber_object_new");
        CHECK(amber_object_set_restoration_class(objects[i], RESTORATION_CLASS), "amber_object_set_restoration_class");
        if (i == 0) CHECK(amber_engine_add_root(engine, objects[0]), "amber_engine_add_root");
        else CHECK(amber_object_add_child(objects[(i - 1) / 4], objects[i]), "amber_object_add_child");
        if (kept) kept[i] = objects[i];
        if (states) states[i] = s;
    }
    free(objects); /* the engine holds the tree; the host keeps its structs as contexts */
}

/* ---- the phases --------------------------------------------------------------------------- */

static long archive_bytes(const char *dir) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/state.archive", dir);
    if (stat(path, &st) != 0) {
        fprintf(stderr, "bench_engine: no archive at %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return (long)st.st_size;
}

static double time_preserve(amber_engine *engine) {
    int saved = 0;
    double t0 = now(), t;
    CHECK(amber_engine_preserve(&saved, engine), "amber_engine_preserve");
    t = now() - t0;
    if (!saved) { fprintf(stderr, "bench_engine: nothing was preserved\n"); exit(1); }
    return t;
}

/* Checks that a restore brought back all n objects with their state. */
static void verify(amber_report *report, long n) {
    amber_report_record rec;
    size_t count = amber_report_count(report), i;
    if (amber_report_fresh_reason(report) != AMBER_FRESH_NONE) {
        fprintf(stderr, "bench_engine: fresh launch: %s\n", amber_report_message(report));
        exit(1);
    }
    if (count != (size_t)n) {
        fprintf(stderr, "bench_engine: %zu records restored, expected %ld\n", count, n);
        exit(1);
    }
    for (i = 0; i < count; i++) {
        const node *s;
        CHECK(amber_report_record_at(&rec, report, i), "amber_report_record_at");
        s = amber_object_context(rec.object);
        if (rec.outcome != AMBER_OUTCOME_RESTORED || !s || !node_matches(s, s->index) ||
            strcmp(amber_object_class_name(rec.object), CLASS_NAMES[s->index % 8]) != 0) {
            fprintf(stderr, "bench_engine: record %zu was not restored as it was preserved: %s\n", i, rec.message);
            exit(1);
        }
    }
}

/* Checks that the archive in `dir` restores the n nodes with the states `states` hold. */
static void verify_dirty(const char *dir, long n, node **states) {
    amber_engine *engine = open_engine(dir, 1);
    amber_report *report = NULL;
    amber_report_record rec;
    size_t i;
    CHECK(amber_engine_launch(&report, engine, AMBER_APP_INACTIVE), "amber_engine_launch");
    if (amber_report_count(report) != (size_t)n) {
        fprintf(stderr, "bench_engine: %s restored %zu records, expected %ld\n", dir, amber_report_count(report), n);
        exit(1);
    }
    for (i = 0; i < (size_t)n; i++) {
        const node *s, *want;
        CHECK(amber_report_record_at(&rec, report, i), "amber_report_record_at");
        s = amber_object_context(rec.object);
        want = s ? states[s->index] : NULL;
        if (rec.outcome != AMBER_OUTCOME_RESTORED || !s || s->selected_index != want->selected_index ||
            strcmp(s->title, want->title) != 0 || strcmp(s->item_key, want->item_key) != 0) {
            fprintf(stderr, "bench_engine: %s: record %zu did not restore the state last saved\n", dir, i);
            exit(1);
        }
    }
    amber_report_free(report);
    amber_engine_close(engine);
}

/* One restore of the archive in `dir` by a new engine; returns the seconds of the launch. */
static double time_restore(const char *dir, long n) {
    amber_engine *engine = open_engine(dir, 1);
    amber_report *report = NULL;
    double t0 = now(), t;
    CHECK(amber_engine_launch(&report, engine, AMBER_APP_INACTIVE), "amber_engine_launch");
    t = now() - t0;
    verify(report, n);
    amber_report_free(report);
    amber_engine_close(engine);
    return t;
}

static void fail_io(const char *what, const char *path) {
    fprintf(stderr, "bench_engine: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

/* The floor: a durable, atomic write of `size` bytes in `dir`, the way any careful program
 * replaces a file. Returns its seconds. */
static double time_floor(const char *dir, const unsigned char *bytes, size_t size) {
    char temporary[4096], target[4096];
    double t0, t;
    size_t done = 0;
    int fd, dfd;
    snprintf(temporary, sizeof temporary, "%s/floor.tmp", dir);
    snprintf(target, sizeof target, "%s/floor.bin", dir);
    t0 = now();
    if ((fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0) fail_io("open", temporary);
    while (done < size) {
        ssize_t w = write(fd, bytes + done, size - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            fail_io("write", temporary);
        }
        done += (size_t)w;
    }
    if (fsync(fd) != 0) fail_io("fsync", temporary);
    if (close(fd) != 0) fail_io("close", temporary);
    if (rename(temporary, target) != 0) fail_io("rename", target);
    if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) fail_io("open", dir);
    if (fsync(dfd) != 0) fail_io("fsync", dir);
    close(dfd);
    t = now() - t0;
    unlink(target); /* as the archive, which restore discards: the next rename has no target */
    return t;
}

/* ---- memory ------------------------------------------------------------------------------ */

/* A field of /proc/self/status in kB, or -1. */
static long status_kb(const char *field) {
    char line[256];
    size_t len = strlen(field);
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            kb = strtol(line + len + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb;
}

/* Resets the high-water mark to the current resident set (Linux >= 4.0); 1 if it could. */
static int reset_peak(void) {
    int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC), ok;
    if (fd < 0) return 0;
    ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok;
}

/* The peak resident set so far, in kB: VmHWM, else getrusage's ru_maxrss. */
static long peak_kb(void) {
    struct rusage ru;
    long kb = status_kb("VmHWM");
    if (kb >= 0) return kb;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static long resident_kb(void) {
    return status_kb("VmRSS");
}

/* Runs `body` in a child process and waits for it. */
static void in_child(void (*body)(const char *dir, long n), const char *dir, long n) {
    pid_t pid;
    int status = 0;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) { perror("bench_engine: fork"); exit(1); }
    if (pid == 0) {
        body(dir, n);
        fflush(stdout);
        _exit(0);
    }
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_engine: the memory child for N=%ld failed\n", n);
        exit(1);
    }
}


static void memory_preserve(const char *dir, long n) {
    amber_engine *engine;
    long before, built, baseline, peak;
    int reset;
    before = resident_kb();
    engine = open_engine(dir, 0);
    build_tree(engine, n);
    built = resident_kb();
    reset = reset_peak();
    baseline = resident_kb();
    if (!reset) baseline = peak_kb(); /* without a reset the peak includes the build: compare to it */
    time_preserve(engine);
    peak = peak_kb();
    printf("memory n=%ld phase=preserve baseline_kb=%ld peak_kb=%ld extra_kb=%ld host_kb=%ld bytes=%ld method=%s\n", n,
           baseline, peak, peak - baseline, built - before, archive_bytes(dir), reset ? "clear_refs" : "VmHWM");
    amber_engine_close(engine);
}

static void memory_restore(const char *dir, long n) {
    amber_engine *engine = open_engine(dir, 1);
    amber_report *report = NULL;
    long baseline, peak, after, bytes = archive_bytes(dir);
    int reset;
    reset = reset_peak();
    baseline = reset ? resident_kb() : peak_kb();
    CHECK(amber_engine_launch(&report, engine, AMBER_APP_INACTIVE), "amber_engine_launch");
    peak = peak_kb();
    after = resident_kb();
    verify(report, n);
    printf("memory n=%ld phase=restore baseline_kb=%ld peak_kb=%ld extra_kb=%ld after_kb=%ld bytes=%ld method=%s\n", n,
           baseline, peak, peak - baseline, after - baseline, bytes, reset ? "clear_refs" : "VmHWM");
    amber_report_free(report);
    amber_engine_close(engine);
}

/* ---- main ---------------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *xs, int n) {
    qsort(xs, (size_t)n, sizeof *xs, cmp_double);
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

static double minimum(const double *xs, int n) {
    double m = xs[0];
    int i;
    for (i = 1; i < n; i++) if (xs[i] < m) m = xs[i];
    return m;
}

static int parse_sizes(const char *text, long *out, int max) {
    int count = 0;
    const char *p = text;
    if (strcmp(text, "none") == 0) return 0;
    while (*p && count < max) {
        char *end = NULL;
        long v = strtol(p, &end, 10);
        if (end == p || v <= 0) { fprintf(stderr, "bench_engine: bad size list '%s'\n", text); exit(2); }
        if (*end == 'k' || *end == 'K') { v *= 1000; end++; }
        else if (*end == 'M' || *end == 'm') { v *= 1000000; end++; }
        out[count++] = v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') { fprintf(stderr, "bench_engine: bad size list '%s'\n", text); exit(2); }
    }
    return count;
}

static void make_dir(const char *path) {
    if (mkdir(path, 0700) != 0 && errno != EEXIST) fail_io("mkdir", path);
}

/* ---- --dirty: a save of the changes against a full save (R32) ----------------------------- */

/* Changes `count` nodes of a tree, from node `first` on (wrapping), marking them dirty if
 * `mark`: a new selected index and title, as an edit would. */
static void edit_nodes(amber_object **objects, node **states, long n, long first, long count, long round, int mark) {
    long k;
    for (k = 0; k < count; k++) {
        long i = (first + k * 97) % n;
        states[i]->selected_index = round * 1000 + k;
        snprintf(states[i]->title, sizeof states[i]->title, "%s %ld", TITLES[(i + round) % 8], round);
        if (mark) CHECK(amber_object_mark_dirty(objects[i]), "amber_object_mark_dirty");
    }
}

/* Two engines, each with its own tree of n nodes and its own directory: one saves in full (no
 * policy), the other with an autosave policy, so that a save calls only the dirty nodes' encode
 * callbacks. Each round edits the same `percent` of the nodes of both trees, then preserves
 * both, in turn first, and checks that both archives restore every node as edited. */
static void bench_dirty(const char *dir, long n, double percent, int rounds) {
    char full_dir[4300], part_dir[4300];
    amber_engine *full, *part;
    amber_object **full_objects = malloc((size_t)n * sizeof *full_objects), **part_objects = malloc((size_t)n * sizeof *part_objects);
    node **full_states = malloc((size_t)n * sizeof *full_states), **part_states = malloc((size_t)n * sizeof *part_states);
    double *tf = calloc((size_t)rounds, sizeof(double)), *tp = calloc((size_t)rounds, sizeof(double));
    long count = (long)((double)n * percent / 100.0 + 0.5), bytes;
    amber_autosave policy = AMBER_AUTOSAVE_INIT;
    int r;
    if (!full_objects || !part_objects || !full_states || !part_states || !tf || !tp) {
        fprintf(stderr, "bench_engine: out of memory\n");
        exit(1);
    }
    if (count < 1) count = 1;
    snprintf(full_dir, sizeof full_dir, "%s/full", dir);
    snprintf(part_dir, sizeof part_dir, "%s/dirty", dir);
    make_dir(full_dir);
    make_dir(part_dir);
    full = open_engine(full_dir, 0);
    part = open_engine(part_dir, 0);
    CHECK(amber_engine_set_autosave(part, &policy), "amber_engine_set_autosave");
    build_tree_keeping(full, n, full_objects, full_states);
    build_tree_keeping(part, n, part_objects, part_states);
    /* The first save of each encodes everything. */
    time_preserve(full);
    time_preserve(part);
    for (r = 0; r < rounds; r++) {
        long first = (long)r * 7919 % n;
        edit_nodes(full_objects, full_states, n, first, count, r + 1, 0);
        edit_nodes(part_objects, part_states, n, first, count, r + 1, 1);
        if (r % 2 == 0) {
            tf[r] = time_preserve(full);
            tp[r] = time_preserve(part);
        } else {
            tp[r] = time_preserve(part);
            tf[r] = time_preserve(full);
        }
    }
    bytes = archive_bytes(part_dir);
    if (archive_bytes(full_dir) != bytes) {
        fprintf(stderr, "bench_engine: the two archives differ in size (%ld, %ld)\n", archive_bytes(full_dir), bytes);
        exit(1);
    }
    printf("dirty n=%ld percent=%g changed=%ld reps=%d bytes=%ld full=%.9f incremental=%.9f ratio=%.3f "
           "full_min=%.9f incremental_min=%.9f\n",
           n, percent, count, rounds, bytes, median(tf, rounds), median(tp, rounds), median(tf, rounds) / median(tp, rounds),
           minimum(tf, rounds), minimum(tp, rounds));
    fflush(stdout);
    verify_dirty(full_dir, n, full_states);
    verify_dirty(part_dir, n, full_states);
    amber_engine_close(full);
    amber_engine_close(part);
    free(full_objects);
    free(part_objects);
    free(full_states);
    free(part_states);
    free(tf);
    free(tp);
    rmdir(full_dir);
    rmdir(part_dir);
}

/* ---- --depth: a host tree as deep as it has objects (R1, R10, R22) ---------------------------- */

/* Builds a chain of n controllers in `engine`: the first a root, each next one the child of the
 * one before, their identifiers repeating every 8 levels as the screens of an app do. */
static void build_chain(amber_engine *engine, long n) {
    amber_object *top = NULL, *o = NULL;
    char identifier[32];
    long i;
    for (i = 0; i < n; i++) {
        snprintf(identifier, sizeof identifier, "screen-%ld", i % 8);
        CHECK(amber_object_new(&o, engine, AMBER_KIND_CONTROLLER, "Screen", identifier, NULL, NULL, NULL),
              "amber_object_new");
        if (top) CHECK(amber_object_add_child(top, o), "amber_object_add_child");
        else CHECK(amber_engine_add_root(engine, o), "amber_engine_add_root");
        top = o;
    }
}

/* The high-water mark reset (or read, without a reset) before a phase: its baseline in kB. */
static long phase_baseline(int *reset) {
    *reset = reset_peak();
    return *reset ? resident_kb() : peak_kb();
}

/* One round of --depth for a chain of n (in a child process, so that each round's peak memory
 * is its own). */
static void depth_round(const char *dir, long n) {
    amber_engine *engine;
    amber_report *report = NULL;
    amber_report_record rec;
    long before, host, preserve_base, preserve_peak, launch_base, launch_peak, expected = n < 512 ? n : 512;
    double t0, build, preserve, close_s, launch;
    size_t i;
    int reset;

    before = resident_kb();
    engine = open_engine(dir, 0);
    t0 = now();
    build_chain(engine, n);
    build = now() - t0;
    host = resident_kb() - before;
    preserve_base = phase_baseline(&reset);
    preserve = time_preserve(engine);
    preserve_peak = peak_kb();
    t0 = now();
    amber_engine_close(engine);
    close_s = now() - t0;

    /* The next launch: the host builds its default interface, the same chain, then launches. */
    engine = open_engine(dir, 0);
    build_chain(engine, n);
    launch_base = phase_baseline(&reset);
    t0 = now();
    CHECK(amber_engine_launch(&report, engine, AMBER_APP_INACTIVE), "amber_engine_launch");
    launch = now() - t0;
    launch_peak = peak_kb();
    if (amber_report_count(report) != (size_t)expected) {
        fprintf(stderr, "bench_engine: the launch over a chain of %ld has %zu records, expected %ld: %s\n", n,
                amber_report_count(report), expected, amber_report_message(report));
        exit(1);
    }
    for (i = 0; i < (size_t)expected; i++) {
        CHECK(amber_report_record_at(&rec, report, i), "amber_report_record_at");
        if (rec.outcome != AMBER_OUTCOME_RESTORED || !rec.object) {
            fprintf(stderr, "bench_engine: record %zu of the chain of %ld was not found in the host's tree\n", i, n);
            exit(1);
        }
    }
    amber_report_free(report);
    amber_engine_close(engine);
    printf("depth n=%ld records=%ld build=%.9f preserve=%.9f close=%.9f launch=%.9f launch_extra_kb=%ld "
           "preserve_extra_kb=%ld host_kb=%ld method=%s\n",
           n, expected, build, preserve, close_s, launch, launch_peak - launch_base, preserve_peak - preserve_base, host,
           reset ? "clear_refs" : "VmHWM");
}

int main(int argc, char **argv) {
    long sizes[16] = {100, 1000, 10000, 100000, 1000000}, mem_sizes[16];
    int size_count = 5, mem_count = -1, reps = 7, big_reps = 3, a, k;
    double dirty = -1;
    int depth = 0;
    char dir[4096] = "", sub[4200];
    const char *tmp = getenv("TMPDIR");

    for (a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(argv[a], "--sizes") == 0 && v) { size_count = parse_sizes(v, sizes, 16); a++; }
        else if (strcmp(argv[a], "--mem-sizes") == 0 && v) { mem_count = parse_sizes(v, mem_sizes, 16); a++; }
        else if (strcmp(argv[a], "--reps") == 0 && v) { reps = atoi(v); a++; }
        else if (strcmp(argv[a], "--big-reps") == 0 && v) { big_reps = atoi(v); a++; }
        else if (strcmp(argv[a], "--dir") == 0 && v) { snprintf(dir, sizeof dir, "%s", v); a++; }
        else if (strcmp(argv[a], "--dirty") == 0 && v) { dirty = atof(v); a++; }
        else if (strcmp(argv[a], "--depth") == 0 && v) { size_count = parse_sizes(v, sizes, 16); depth = 1; a++; }
        else if (strcmp(argv[a], "--values") == 0 && v && (strcmp(v, "one") == 0 || strcmp(v, "batch") == 0)) {
            batch_values = strcmp(v, "batch") == 0;
            a++;
        }
        else {
            fprintf(stderr, "usage: bench_engine [--sizes 100,1k,10k,100k,1M] [--reps 7] [--big-reps 3] "
                            "[--mem-sizes LIST|none] [--dir DIR] [--values one|batch] [--dirty PERCENT] "
                            "[--depth LIST]\n");
            return 2;
        }
    }
    if (reps < 1 || big_reps < 1) { fprintf(stderr, "bench_engine: --reps and --big-reps must be >= 1\n"); return 2; }
    if (mem_count < 0) {
        memcpy(mem_sizes, sizes, sizeof sizes);
        mem_count = size_count;
    }
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/amber-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) fail_io("mkdtemp", dir);
    } else {
        make_dir(dir);
    }
    printf("bench_engine amber=%s dir=%s\n", amber_version_string(), dir);

    if (dirty >= 0) {
        if (dirty <= 0 || dirty > 100) { fprintf(stderr, "bench_engine: --dirty takes a percentage above 0, at most 100\n"); return 2; }
        for (k = 0; k < size_count; k++) {
            snprintf(sub, sizeof sub, "%s/dirty-%ld", dir, sizes[k]);
            make_dir(sub);
            bench_dirty(sub, sizes[k], dirty, sizes[k] >= 100000 ? big_reps : reps);
            rmdir(sub);
        }
        if (!getenv("AMBER_BENCH_KEEP")) rmdir(dir);
        return 0;
    }

    if (depth) {
        for (k = 0; k < size_count; k++) {
            int r;
            snprintf(sub, sizeof sub, "%s/depth-%ld", dir, sizes[k]);
            make_dir(sub);
            for (r = 0; r < reps; r++) in_child(depth_round, sub, sizes[k]);
            rmdir(sub);
        }
        if (!getenv("AMBER_BENCH_KEEP")) rmdir(dir);
        return 0;
    }

    /* Memory first, each phase in a child forked while this process is still small. */
    for (k = 0; k < mem_count; k++) {
        snprintf(sub, sizeof sub, "%s/mem-%ld", dir, mem_sizes[k]);
        make_dir(sub);
        in_child(memory_preserve, sub, mem_sizes[k]);
        in_child(memory_restore, sub, mem_sizes[k]);
        rmdir(sub);
    }

    for (k = 0; k < size_count; k++) {
        long n = sizes[k], bytes;
        int rounds = n >= 100000 ? big_reps : reps, r;
        double *pres = calloc((size_t)rounds, sizeof(double)), *rest = calloc((size_t)rounds, sizeof(double)),
               *flo = calloc((size_t)rounds, sizeof(double));
        double t0, build;
        unsigned char *filler;
        amber_engine *engine;
        size_t j;
        uint64_t x = 0x243F6A8885A308D3ull;

        snprintf(sub, sizeof sub, "%s/n-%ld", dir, n);
        make_dir(sub);
        engine = open_engine(sub, 0);
        t0 = now();
        build_tree(engine, n);
        build = now() - t0;

        /* Warm-up: one of each; it also gives the archive's size. */
        time_preserve(engine);
        bytes = archive_bytes(sub);
        filler = malloc((size_t)bytes);
        if (!pres || !rest || !flo || !filler) { fprintf(stderr, "bench_engine: out of memory\n"); return 1; }
        for (j = 0; j < (size_t)bytes; j++) { /* incompressible, like an encrypted archive */
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            filler[j] = (unsigned char)x;
        }
        time_restore(sub, n);
        time_floor(sub, filler, (size_t)bytes);

        for (r = 0; r < rounds; r++) {
            flo[r] = time_floor(sub, filler, (size_t)bytes);
            pres[r] = time_preserve(engine);
            if (archive_bytes(sub) != bytes) { fprintf(stderr, "bench_engine: the archive changed size\n"); return 1; }
            rest[r] = time_restore(sub, n);
        }
        printf("engine n=%ld reps=%d bytes=%ld build=%.9f preserve=%.9f restore=%.9f floor=%.9f "
               "preserve_min=%.9f restore_min=%.9f floor_min=%.9f\n",
               n, rounds, bytes, build, median(pres, rounds), median(rest, rounds), median(flo, rounds),
               minimum(pres, rounds), minimum(rest, rounds), minimum(flo, rounds));
        fflush(stdout);
        amber_engine_close(engine);
        free(filler);
        free(pres);
        free(rest);
        free(flo);
        rmdir(sub);
    }
    if (!getenv("AMBER_BENCH_KEEP")) rmdir(dir); /* empty by now unless --dir held other files */
    return 0;
}

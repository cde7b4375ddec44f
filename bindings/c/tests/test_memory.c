/*
 * test_memory.c — memory bounded by the input (R22, issue 42 item 3): every restore stays within
 * max(1 MiB, 10 × the archive's size) of extra memory.
 *
 * Each archive is restored in a fresh child process (this program run again with --child), so
 * that nothing of the parent's (the archive it generated, the objects it saved) counts. The child
 * builds its interface, makes a warm-up save and restore in memory (paging in the library's code,
 * which is not memory a restore takes), resets its resident set's high-water mark, notes its
 * resident set (/proc/self/statm), launches, and reports its high-water mark (VmHWM: see peak_bytes) minus that.
 *
 * Whose memory: the host's objects are built before the launch, as a program builds its default
 * interface (R2), and the lookup chain's object_for_path declines every other path. So the
 * objects a host would create for restored records are not counted: what is measured is the
 * engine's part, reading, checking, matching and decoding the archive, and the report.
 *
 * The archives: every file of the fuzzers' corpora (Fuzz/corpus/restore, envelope, reader: valid,
 * damaged and hostile archives, each put in the store as its harness would), and those generated
 * here, too large to keep in the repository: 100,000 sibling controllers (saving a value each,
 * saving nothing, made by the host at restoration); a table view whose selection is 2^20 items
 * (the most R17 keeps) as index paths, as 2^20 model identifiers and as one; the same selection
 * rewritten as 2^20 references to one identifier (repeat_references.py: a byte a reference); a
 * record list naming one record 2^20 times (the same); a web view whose back/forward list visits
 * one page 2^16 times.
 *
 * The C API's unarchiver of application data (amber/archive.h) is held to the same bound: every
 * file of Fuzz/corpus/unarchiver, Fuzz/corpus/reader and the Python binding's fuzzer's corpus
 * (bindings/python/fuzz/corpus) is opened with amber_unarchiver_new and read as a host reads it,
 * one file after the other in one child, which resets its high-water mark and gives its freed
 * memory back (malloc_trim) before each.
 *
 * Usage: test_memory [--list] [PREFIX...] (runner.h); AMBER_TEST_CORPUS names Fuzz/corpus and
 * AMBER_TEST_PYTHON_CORPUS bindings/python/fuzz/corpus (run-tests.sh sets both). Prints one line
 * per archive (size, bound, measured), then "N passed, N failed".
 */
#define _GNU_SOURCE
#include "amber.h"
#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define APP_ID "org.example.memory"
/* What the fuzz harnesses' engine is (Fuzz/Harnesses/FuzzInterface.swift, EnvelopeHarness.swift). */
#define FUZZ_APP_ID "org.amber.fuzz"
#define FUZZ_BUNDLE "fuzz 1"
#define SIBLINGS 100000
#define SELECTED (1 << 20)
#define PAGES (1 << 16)
#define URL_BYTES 1024

/* ---- the child: one restore, measured ------------------------------------------------------- */

/* What the child builds before its launch, and what its restore must show. */
typedef enum interface_kind {
    INTERFACE_NONE,
    INTERFACE_SIBLINGS,       /* a root and SIBLINGS controllers under it, each saving a value */
    INTERFACE_BARE_SIBLINGS,  /* the same, saving nothing: the smallest record an object has */
    INTERFACE_TABLE,          /* a root and a table, SELECTED rows selected */
    INTERFACE_TABLE_BY_MODEL, /* the same, every row showing one model object (R18) */
    INTERFACE_TABLE_BY_MODELS, /* the same, each row its own model object, of the shortest names */
    INTERFACE_ROOT_MAKING,    /* a root alone; object_for_path makes each sibling it is asked */
    INTERFACE_WEB             /* a root and a web view of PAGES pages, all of one URL */
} interface_kind;

/* What the child does: restore (the launch measured), or only build the interface (in an engine
 * in memory, the building measured: what a host's objects take). */
#define ACTION_LAUNCH "launch"
#define ACTION_BUILD "build"
#define ACTION_UNARCHIVE "unarchive"

static long decoded;          /* controllers whose decode callback read their value */
static int make_at_restore;   /* object_for_path makes a sibling instead of declining */
static size_t applied_items;  /* the selection the table's apply accessor was given */

static int should(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int should_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

static amber_object *new_object(amber_engine *e, amber_kind kind, const char *cls, const char *id, int64_t value);

/* The host declines every path it did not build (the objects it would make are its memory),
 * unless its interface makes them at restoration (INTERFACE_ROOT_MAKING): then a sibling for a
 * path under the root (the root itself is the one it built, which the lookup then finds). */
static int object_for_path(amber_object **out, amber_engine *e, const char *const *path, size_t n, amber_decoder *d,
                           void *ctx) {
    (void)d; (void)ctx;
    *out = make_at_restore && n == 2 ? new_object(e, AMBER_KIND_CONTROLLER, "Sibling", path[n - 1], 0) : NULL;
    return AMBER_OK;
}

static int encode_value(amber_object *o, amber_coder *c, void *ctx) {
    (void)o;
    return amber_coder_encode_int64(c, "value", (int64_t)(intptr_t)ctx);
}

static int decode_value(amber_object *o, amber_decoder *d, void *ctx) {
    int64_t v = 0;
    (void)o; (void)ctx;
    if (amber_decoder_decode_int64(&v, d, "value") == AMBER_OK) decoded++;
    return AMBER_OK;
}

/* The table's selection at preservation: rows 0 ..< SELECTED, each a path of one index. */
static int64_t *rows;
static amber_index_path *selection;

static int read_table(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view; (void)ctx;
    if (!selection) return AMBER_INVALID_ARGUMENT; /* not saved here: the restoring child */
    state->selected_items = selection;
    state->selected_count = SELECTED;
    state->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS;
    return AMBER_OK;
}

/* The web view's back/forward list at preservation: PAGES visits of one page, whose URL is
 * URL_BYTES long. */
static amber_web_page *pages;
static size_t applied_pages;  /* the pages the web view's apply accessor was given */

static int read_web(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view; (void)ctx;
    if (!pages) return AMBER_INVALID_ARGUMENT; /* not saved here: the restoring child */
    state->pages = pages;
    state->page_count = PAGES;
    state->current_page = PAGES - 1;
    state->fields |= AMBER_VIEW_FIELD_PAGES | AMBER_VIEW_FIELD_CURRENT_PAGE;
    return AMBER_OK;
}

static int apply_web(amber_object *view, const amber_view_state *state, void *ctx) {
    (void)view; (void)ctx;
    if (state->fields & AMBER_VIEW_FIELD_PAGES) applied_pages = state->page_count;
    return AMBER_OK;
}

static int apply_table(amber_object *view, const amber_view_state *state, void *ctx) {
    (void)view; (void)ctx;
    if (state->fields & AMBER_VIEW_FIELD_SELECTED_ITEMS) applied_items = state->selected_count;
    return AMBER_OK;
}

/* The data source of INTERFACE_TABLE_BY_MODEL: one model object, "item", shown at row 0 and
 * said to be at every row, so the archive holds one string and SELECTED references to it. */
static int identifier_for_row(const char **out, amber_object *view, const int64_t *indexes, size_t length, void *ctx) {
    (void)view; (void)indexes; (void)length; (void)ctx;
    *out = "item";
    return AMBER_OK;
}

/* INTERFACE_TABLE_BY_MODELS: row i shows the model object named by i in base 62, the shortest
 * identifiers there are (one to four characters), so each item takes as few bytes as it can. */
static const char digits62[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int identifier_of_row(const char **out, amber_object *view, const int64_t *indexes, size_t length, void *ctx) {
    static char name[16];
    char reversed[16];
    int64_t row = length == 1 ? indexes[0] : 0;
    size_t n = 0, i;
    (void)view; (void)ctx;
    do {
        reversed[n++] = digits62[row % 62];
        row /= 62;
    } while (row > 0);
    for (i = 0; i < n; i++) name[i] = reversed[n - 1 - i];
    name[n] = '\0';
    *out = name;
    return AMBER_OK;
}

static int row_of_identifier(int64_t *out, size_t capacity, size_t *out_length, amber_object *view,
                             const char *identifier, void *ctx) {
    int64_t row = 0;
    (void)view; (void)ctx;
    for (; *identifier; identifier++) row = row * 62 + (int64_t)(strchr(digits62, *identifier) - digits62);
    *out_length = 1;
    if (capacity >= 1) out[0] = row;
    return AMBER_OK;
}

static int row_for_identifier(int64_t *out, size_t capacity, size_t *out_length, amber_object *view,
                              const char *identifier, void *ctx) {
    (void)view; (void)identifier; (void)ctx;
    *out_length = 1;
    if (capacity >= 1) out[0] = 0;
    return AMBER_OK;
}

static int fail(const char *what) {
    printf("FAIL  %s: %s: %s\n", what, amber_status_string(amber_error_last_code()), amber_error_last());
    exit(1);
}

/* An object; with `coded`, its callbacks save `value` and count its decoding. */
static amber_object *new_coded(amber_engine *e, amber_kind kind, const char *cls, const char *id, int64_t value,
                               int coded) {
    amber_object *o = NULL;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    if (coded) {
        cb.encode = encode_value;
        cb.decode = decode_value;
    }
    if (amber_object_new(&o, e, kind, cls, id, &cb, (void *)(intptr_t)value, NULL) != AMBER_OK) fail("amber_object_new");
    return o;
}

static amber_object *new_object(amber_engine *e, amber_kind kind, const char *cls, const char *id, int64_t value) {
    return new_coded(e, kind, cls, id, value, 1);
}

/* The interface of `kind` in `e`, the same at the save and at the launch. */
static void build_interface(amber_engine *e, interface_kind kind) {
    amber_object *root;
    char id[32];
    long i;
    if (kind == INTERFACE_NONE) return;
    root = new_object(e, AMBER_KIND_CONTROLLER, "Root", "root", 0);
    if (amber_engine_add_root(e, root) != AMBER_OK) fail("amber_engine_add_root");
    make_at_restore = kind == INTERFACE_ROOT_MAKING;
    if (make_at_restore) return;
    if (kind == INTERFACE_SIBLINGS || kind == INTERFACE_BARE_SIBLINGS) {
        for (i = 0; i < SIBLINGS; i++) {
            snprintf(id, sizeof id, "s%ld", i);
            if (amber_object_add_child(root, new_coded(e, AMBER_KIND_CONTROLLER, "Sibling", id, i,
                                                       kind == INTERFACE_SIBLINGS)) != AMBER_OK)
                fail("amber_object_add_child");
        }
    } else if (kind == INTERFACE_WEB) {
        amber_view_accessors acc = AMBER_VIEW_ACCESSORS_INIT;
        amber_object *web = new_object(e, AMBER_KIND_VIEW, "Web", "web", 0);
        acc.read = read_web;
        acc.apply = apply_web;
        if (amber_object_add_view(root, web) != AMBER_OK) fail("amber_object_add_view");
        if (amber_object_set_view_accessors(web, AMBER_VIEW_WEB, &acc, NULL, NULL) != AMBER_OK)
            fail("amber_object_set_view_accessors");
    } else {
        amber_view_accessors acc = AMBER_VIEW_ACCESSORS_INIT;
        amber_object *table = new_object(e, AMBER_KIND_VIEW, "Table", "table", 0);
        acc.read = read_table;
        acc.apply = apply_table;
        if (amber_object_add_view(root, table) != AMBER_OK) fail("amber_object_add_view");
        if (amber_object_set_view_accessors(table, AMBER_VIEW_TABLE, &acc, NULL, NULL) != AMBER_OK)
            fail("amber_object_set_view_accessors");
        if (kind == INTERFACE_TABLE_BY_MODEL || kind == INTERFACE_TABLE_BY_MODELS) {
            amber_model_association assoc = AMBER_MODEL_ASSOCIATION_INIT;
            int one = kind == INTERFACE_TABLE_BY_MODEL;
            assoc.identifier_for_index_path = one ? identifier_for_row : identifier_of_row;
            assoc.index_path_for_identifier = one ? row_for_identifier : row_of_identifier;
            if (amber_object_set_model_association(table, &assoc, NULL, NULL) != AMBER_OK)
                fail("amber_object_set_model_association");
        }
    }
}

static const uint8_t fuzz_key[32] = {1, 8, 15, 22, 29, 36, 43, 50, 57, 64, 71, 78, 85, 92, 99, 106,
                                     113, 120, 127, 134, 141, 148, 155, 162, 169, 176, 183, 190, 197, 204, 211, 218};

static amber_engine *open_engine(const char *dir, const char *app_id, int sealed, int in_memory) {
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate d = AMBER_DELEGATE_INIT;
    opts.state_directory = dir;
    opts.memory_store = in_memory;
    opts.bundle_version = FUZZ_BUNDLE;
    opts.protection = sealed ? AMBER_PROTECTION_FIXED_KEY : AMBER_PROTECTION_NONE;
    opts.fixed_key = sealed ? fuzz_key : NULL;
    if (amber_engine_open(&e, app_id, &opts) != AMBER_OK) fail("amber_engine_open");
    d.should_save = should;
    d.should_restore = should_restore;
    d.object_for_path = object_for_path;
    if (amber_engine_set_delegate(e, &d, NULL, NULL) != AMBER_OK) fail("amber_engine_set_delegate");
    return e;
}

/* A save and a restore of one object in memory, sealed as the measured archive is or not: the
 * code a restore runs (the cipher's included) is paged in before the measure. */
static void warm_up(int sealed) {
    amber_engine *e = open_engine(NULL, APP_ID, sealed, 1);
    amber_report *r = NULL;
    int saved = 0;
    amber_engine_add_root(e, new_object(e, AMBER_KIND_CONTROLLER, "Root", "root", 0));
    amber_engine_preserve(&saved, e);
    amber_engine_launch(&r, e, AMBER_APP_INACTIVE);
    amber_report_free(r);
    amber_engine_close(e);
    decoded = 0;
}

/* Resets the resident set's high-water mark (ru_maxrss, VmHWM) to the resident set now. */
static void reset_peak(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return;
    fputs("5", f);
    fclose(f);
}

/* The resident set's high-water mark in bytes (VmHWM), or -1. This is the counter ru_maxrss
 * reads for a live process, without the maximum ru_maxrss also keeps of the image before exec:
 * after fork and exec that is the parent's size at the fork, not the child's. */
static long long peak_bytes(void) {
    char line[256];
    long long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) kib = strtoll(line + 6, NULL, 10);
    fclose(f);
    return kib < 0 ? -1 : kib * 1024;
}

/* The resident set now, in bytes, or -1. */
static long long resident_bytes(void) {
    long long size = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%lld %lld", &size, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

/* Builds INTERFACE in an engine in memory, measured. */
static int child_build(interface_kind kind) {
    amber_engine *e;
    long long before, peak;
    warm_up(0);
    e = open_engine(NULL, APP_ID, 0, 1);
    reset_peak();
    before = resident_bytes();
    build_interface(e, kind);
    peak = peak_bytes();
    if (before < 0 || peak < 0) {
        printf("measure failed: no /proc/self/statm or VmHWM\n");
        return 1;
    }
    printf("extra=%lld records=0 restored=0 decoded=0 applied=0 fresh=0\n", peak - before);
    return 0;
}

/* ---- the child: the unarchiver of application data, every file of a corpus ------------------ */

/* A host object the unarchiver made (the classes Node and Leaf, as the unarchiver harness
 * registers them): what it read, so that the reads are not optimised away. */
typedef struct node {
    int64_t value;
    size_t name_length, data_length, children;
} node;

static node **made;  /* every node made from the current file, freed after it */
static size_t made_count, made_capacity;

static const char *const node_class[] = {"Node"};

/* Reads the values a host would under the harness's keys into `n` (NULL: the top level). */
static void read_node_values(node *n, amber_unarchiver *u) {
    static const char *const keys[3] = {"name", "value", "data"};
    static const amber_value_type types[3] = {AMBER_VALUE_STRING, AMBER_VALUE_INT64, AMBER_VALUE_BYTES};
    amber_keyed_value v[3];
    size_t i;
    memset(v, 0, sizeof v);
    for (i = 0; i < 3; i++) {
        v[i].key = keys[i];
        v[i].type = types[i];
    }
    for (i = 0; i < 3; i++) /* one at a time: a value of another type stops only its own read */
        if (amber_unarchiver_decode_values(&v[i], 1, u) == AMBER_OK && v[i].found && n) {
            if (i == 0) n->name_length = strlen(v[i].string_value);
            if (i == 1) n->value = v[i].int64_value;
            if (i == 2) n->data_length = v[i].bytes_size;
        }
}

static int node_make(void **out, amber_unarchiver *u, void *ctx) {
    node *n;
    void *next = NULL;
    (void)ctx;
    if (made_count == made_capacity) {
        size_t capacity = made_capacity ? 2 * made_capacity : 64;
        node **grown = realloc(made, capacity * sizeof *grown);
        if (!grown) return AMBER_CALLBACK_FAILED;
        made = grown;
        made_capacity = capacity;
    }
    if (!(n = calloc(1, sizeof *n))) return AMBER_CALLBACK_FAILED;
    made[made_count++] = n;
    read_node_values(n, u);
    (void)amber_unarchiver_decode_object(&next, u, "next", node_class, 1);
    *out = n;
    return AMBER_OK;
}

/* Once made: its children (any registered class), the array read as a host reads it, its
 * length first. */
static int node_decode(void *object, amber_unarchiver *u, void *ctx) {
    node *n = object;
    size_t length = 0;
    void **children;
    (void)ctx;
    if (amber_unarchiver_decode_object_array(NULL, 0, &length, u, "children", NULL, 0) != AMBER_OK || length == 0)
        return AMBER_OK;
    if (!(children = malloc(length * sizeof *children))) return AMBER_CALLBACK_FAILED;
    if (amber_unarchiver_decode_object_array(children, length, &length, u, "children", NULL, 0) == AMBER_OK)
        n->children = length;
    free(children);
    return AMBER_OK;
}

static amber_coding_registry *unarchiver_registry(void) {
    amber_coding_registry *registry = NULL;
    amber_coding_class cls = AMBER_CODING_CLASS_INIT;
    cls.make = node_make;
    cls.decode = node_decode;
    if (amber_coding_registry_new(&registry) != AMBER_OK ||
        amber_coding_registry_register(registry, "Node", NULL, &cls, NULL, NULL) != AMBER_OK ||
        amber_coding_registry_register(registry, "Leaf", "Node", &cls, NULL, NULL) != AMBER_OK)
        fail("the coding registry");
    return registry;
}

/* Opens `bytes` with amber_unarchiver_new and reads it as a host does: the top level's values,
 * the object "root" and the array "items"; then frees it and what it made. */
static void unarchive(amber_coding_registry *registry, const uint8_t *bytes, size_t size) {
    amber_unarchiver *u = NULL;
    void *root = NULL;
    size_t length = 0, i;
    if (amber_unarchiver_new(&u, registry, bytes, size) == AMBER_OK) {
        read_node_values(NULL, u);
        (void)amber_unarchiver_decode_object(&root, u, "root", NULL, 0);
        (void)amber_unarchiver_decode_object_array(NULL, 0, &length, u, "items", node_class, 1);
        amber_unarchiver_free(u);
    }
    for (i = 0; i < made_count; i++) free(made[i]);
    made_count = 0;
}

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    long n;
    uint8_t *bytes;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    bytes = malloc(n > 0 ? (size_t)n : 1);
    if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

/* argv: --child CORPUS_DIR - 0 0 unarchive. Prints "NAME SIZE EXTRA" for each file of the
 * directory, then "done", and exits 0. */
static int child_unarchive(const char *corpus) {
    amber_coding_registry *registry = unarchiver_registry();
    struct dirent **names = NULL;
    char path[900];
    int n = scandir(corpus, &names, NULL, alphasort), i;
    if (n < 0) {
        printf("cannot read %s\n", corpus);
        return 1;
    }
    for (i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *bytes;
        long long before, peak;
        if (names[i]->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", corpus, names[i]->d_name);
        if (!(bytes = read_file(path, &size))) {
            printf("%s unreadable\n", names[i]->d_name);
            continue;
        }
        unarchive(registry, bytes, size); /* a warm-up: the code this file's reading runs is paged in */
        malloc_trim(0);
        reset_peak();
        before = resident_bytes();
        unarchive(registry, bytes, size);
        peak = peak_bytes();
        free(bytes);
        printf("%s %zu %lld\n", names[i]->d_name, size, before < 0 || peak < 0 ? -1LL : peak - before);
    }
    for (i = 0; i < n; i++) free(names[i]);
    free(names);
    free(made);
    amber_coding_registry_free(registry);
    printf("done\n");
    return 0;
}

/* argv: --child DIR APP_ID SEALED INTERFACE ACTION. Prints "extra=B records=N restored=N
 * decoded=N applied=N fresh=R" and exits 0. */
static int child_main(char **argv) {
    const char *dir = argv[2], *app_id = argv[3];
    int sealed = atoi(argv[4]);
    interface_kind kind = (interface_kind)atoi(argv[5]);
    amber_engine *e;
    amber_report *r = NULL;
    amber_report_record rec;
    long long before, peak;
    size_t i, restored = 0;

    if (strcmp(argv[6], ACTION_BUILD) == 0) return child_build(kind);
    if (strcmp(argv[6], ACTION_UNARCHIVE) == 0) return child_unarchive(dir);
    warm_up(sealed);
    e = open_engine(dir, app_id, sealed, 0);
    build_interface(e, kind);
    reset_peak();
    before = resident_bytes();
    amber_engine_launch(&r, e, AMBER_APP_INACTIVE);
    peak = peak_bytes();
    if (before < 0 || peak < 0) {
        printf("measure failed: no /proc/self/statm or VmHWM\n");
        return 1;
    }
    for (i = 0; i < amber_report_count(r); i++)
        if (amber_report_record_at(&rec, r, i) == AMBER_OK && rec.outcome == AMBER_OUTCOME_RESTORED) restored++;
    printf("extra=%lld records=%zu restored=%zu decoded=%ld applied=%zu fresh=%d\n",
           peak - before, amber_report_count(r), restored, decoded, applied_items + applied_pages,
           (int)amber_report_fresh_reason(r));
    return 0;
}

/* ---- the parent: the archives, each restored by a child ------------------------------------- */

/* What one child reported: `applied` the selected items or the pages the apply accessor got. */
typedef struct measure {
    long long extra;
    size_t records, restored, applied;
    long decoded;
    int fresh;
} measure;

/* Starts this program again as a child (--child DIR APP_ID SEALED KIND ACTION), its standard
 * output to the pipe returned (NULL if it could not be opened; *pid is then < 0 or the child's,
 * to wait for). */
static FILE *start_child(pid_t *pid, const char *dir, const char *app_id, const char *sealed, const char *kind,
                         const char *action) {
    int fds[2];
    FILE *from;
    fflush(stdout);
    *pid = -1;
    if (pipe(fds) != 0) return NULL;
    *pid = fork();
    if (*pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl(runner_program(), runner_program(), "--child", dir, app_id, sealed, kind, action, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    if (!(from = fdopen(fds[0], "r"))) close(fds[0]);
    return from;
}

/* Whether child `pid` ended with status 0. */
static int child_succeeded(pid_t pid) {
    int st = 0;
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Runs the child (ACTION on the archive in `dir`); 1 and *out filled if it reported. */
static int run_child(measure *out, const char *action, const char *dir, const char *app_id, int sealed,
                     interface_kind kind) {
    char sealed_arg[8], kind_arg[8], line[256] = "";
    pid_t pid;
    FILE *from;
    snprintf(sealed_arg, sizeof sealed_arg, "%d", sealed);
    snprintf(kind_arg, sizeof kind_arg, "%d", (int)kind);
    if ((from = start_child(&pid, dir, app_id, sealed_arg, kind_arg, action))) {
        if (!fgets(line, sizeof line, from)) line[0] = '\0';
        fclose(from);
    }
    if (!child_succeeded(pid)) {
        printf("  child for %s: %s", dir, line[0] ? line : "no report\n");
        return 0;
    }
    return sscanf(line, "extra=%lld records=%zu restored=%zu decoded=%ld applied=%zu fresh=%d", &out->extra,
                  &out->records, &out->restored, &out->decoded, &out->applied, &out->fresh) == 6;
}

static long long bound_for(long long size) {
    long long ten = 10 * size;
    return ten > (1 << 20) ? ten : (1 << 20);
}

/* Restores the archive in `dir` (`size` bytes as stored) in a child and checks its extra memory
 * against the bound. 1 if it restored within it; *m what the child measured. */
static int check_bounded(measure *m, const char *name, const char *dir, long long size, const char *app_id,
                         int sealed, interface_kind kind) {
    long long bound = bound_for(size);
    int ok = run_child(m, ACTION_LAUNCH, dir, app_id, sealed, kind);
    printf("  %-48s %10lld bytes  bound %10lld  measured %10lld\n", name, size, bound, ok ? m->extra : -1LL);
    if (!ok) return 0;
    return m->extra <= bound;
}

static long long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Writes `head` (`hn` bytes) then `body` (`bn` bytes) as the archive of state directory `dir`. */
static int write_archive(const char *dir, const uint8_t *head, size_t hn, const uint8_t *body, size_t bn) {
    char path[700];
    FILE *f;
    int ok;
    snprintf(path, sizeof path, "%s/state.archive", dir);
    f = fopen(path, "wb");
    if (!f) return 0;
    ok = fwrite(head, 1, hn, f) == hn && fwrite(body, 1, bn, f) == bn;
    return fclose(f) == 0 && ok;
}

/* The header of an unencrypted envelope (R20, Sources/AmberCore/Envelope/SealedEnvelope.swift):
 * "AMBERENV", format 2, algorithm 0, the bundle version's length (big-endian) and bytes. */
static size_t unencrypted_header(uint8_t *out) {
    size_t n = strlen(FUZZ_BUNDLE);
    memcpy(out, "AMBERENV", 8);
    out[8] = 2;
    out[9] = 0;
    out[10] = (uint8_t)(n >> 8);
    out[11] = (uint8_t)n;
    memcpy(out + 12, FUZZ_BUNDLE, n);
    return 12 + n;
}


/* How a harness takes its input (Fuzz/Harnesses): an archive the harness seals, or the stored
 * bytes as they are, sealed with the fixed key or not encrypted. */
typedef enum corpus_input { INPUT_ARCHIVE, INPUT_SEALED, INPUT_UNENCRYPTED } corpus_input;

static corpus_input input_of(const char *harness, const uint8_t *bytes, size_t size) {
    if (strcmp(harness, "reader") == 0 || size == 0) return INPUT_ARCHIVE;
    if (strcmp(harness, "restore") == 0) return bytes[0] % 2 == 0 ? INPUT_ARCHIVE : INPUT_SEALED;
    return bytes[0] % 3 == 0 ? INPUT_SEALED : bytes[0] % 3 == 1 ? INPUT_ARCHIVE : INPUT_UNENCRYPTED;
}

/* Every file of Fuzz/corpus/HARNESS, stored as its harness would store it (an archive in an
 * unencrypted envelope, the harness's first byte dropped), restored in a child. */
static void check_corpus(const char *harness) {
    const char *root = getenv("AMBER_TEST_CORPUS");
    char dir_path[600], file[900], state[700], name[400];
    struct dirent **names = NULL;
    uint8_t head[64];
    int n, i, within = 0, measured = 0;
    long long worst = 0;
    if (!root) root = "Fuzz/corpus";
    snprintf(dir_path, sizeof dir_path, "%s/%s", root, harness);
    n = scandir(dir_path, &names, NULL, alphasort);
    checkf(n > 2, "R22 the %s corpus is found (%s)", harness, dir_path);
    for (i = 0; i < n; i++) {
        size_t size = 0, skip, hn = 0;
        uint8_t *bytes;
        corpus_input input;
        measure m;
        if (names[i]->d_name[0] == '.') continue;
        snprintf(file, sizeof file, "%s/%s", dir_path, names[i]->d_name);
        snprintf(name, sizeof name, "%s/%s", harness, names[i]->d_name);
        snprintf(state, sizeof state, "%s/%s-%d", runner_tmp(), harness, i);
        runner_dir(state, sizeof state, strrchr(state, '/') + 1);
        bytes = read_file(file, &size);
        if (!bytes) {
            checkf(0, "R22 %s is read", file);
            continue;
        }
        input = input_of(harness, bytes, size);
        skip = strcmp(harness, "reader") == 0 || size == 0 ? 0 : 1;
        if (input != INPUT_SEALED && input != INPUT_UNENCRYPTED) hn = unencrypted_header(head);
        if (write_archive(state, head, hn, bytes + skip, size - skip)) {
            long long stored = (long long)(hn + size - skip);
            measured++;
            if (check_bounded(&m, name, state, stored, FUZZ_APP_ID, input == INPUT_SEALED, INTERFACE_NONE)) within++;
            else printf("  ^ over its bound\n");
            if (m.extra > worst) worst = m.extra;
        }
        free(bytes);
    }
    for (i = 0; i < n; i++) free(names[i]);
    free(names);
    checkf(measured > 0 && within == measured,
           "R22 each of the %d archives of the %s corpus restores within max(1 MiB, 10x its size) (%d within; the most: %lld bytes)",
           measured, harness, within, worst);
}

static void test_corpus_restore(void) { check_corpus("restore"); }
static void test_corpus_envelope(void) { check_corpus("envelope"); }
static void test_corpus_reader(void) { check_corpus("reader"); }

/* R22 R25: every file of the corpus in `dir_path` (named `harness` in the lines) through the C
 * API's unarchiver of application data, in one child, each file's extra memory within
 * max(1 MiB, 10x its size). */
static void check_unarchiver_files(const char *dir_path, const char *harness) {
    char line[512], name[300];
    int measured = 0, within = 0, done = 0;
    long long worst = 0;
    pid_t pid;
    FILE *from;
    if ((from = start_child(&pid, dir_path, "-", "0", "0", ACTION_UNARCHIVE))) {
        while (fgets(line, sizeof line, from)) {
            long long size, extra;
            if (strcmp(line, "done\n") == 0) {
                done = 1;
                continue;
            }
            if (sscanf(line, "%299s %lld %lld", name, &size, &extra) != 3) {
                printf("  child: %s", line);
                continue;
            }
            measured++;
            if (extra >= 0 && extra <= bound_for(size)) within++;
            else printf("  unarchiver %s/%-37s %10lld bytes  bound %10lld  measured %10lld: over its bound\n",
                        harness, name, size, bound_for(size), extra);
            if (extra > worst) worst = extra;
        }
        fclose(from);
    }
    checkf(child_succeeded(pid) && done,
           "R22 the child read the %s corpus through amber_unarchiver to its end", harness);
    checkf(measured > 2 && within == measured,
           "R22 each of the %d files of the %s corpus, read through amber_unarchiver, within max(1 MiB, 10x its size) (%d within; the most: %lld bytes)",
           measured, harness, within, worst);
}

/* The same for Fuzz/corpus/HARNESS. */
static void check_unarchiver_corpus(const char *harness) {
    const char *root = getenv("AMBER_TEST_CORPUS");
    char dir_path[600];
    snprintf(dir_path, sizeof dir_path, "%s/%s", root ? root : "Fuzz/corpus", harness);
    check_unarchiver_files(dir_path, harness);
}

static void test_unarchiver_corpus_unarchiver(void) { check_unarchiver_corpus("unarchiver"); }
static void test_unarchiver_corpus_reader(void) { check_unarchiver_corpus("reader"); }

static void test_unarchiver_corpus_python(void) {
    const char *dir_path = getenv("AMBER_TEST_PYTHON_CORPUS");
    check_unarchiver_files(dir_path ? dir_path : "bindings/python/fuzz/corpus", "python");
}

/* Saves `kind`'s interface into state directory `dir` (not encrypted); the archive's size. */
static long long save_interface(const char *dir, interface_kind kind) {
    char path[700];
    amber_engine *e = open_engine(dir, APP_ID, 0, 0);
    int saved = 0;
    build_interface(e, kind);
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R22 the archive is saved");
    amber_engine_close(e);
    snprintf(path, sizeof path, "%s/state.archive", dir);
    return file_size(path);
}

/* R22: 100,000 sibling controllers, saving a value each or nothing (`kind`). */
static void check_siblings(interface_kind kind, const char *name) {
    char dir[600];
    measure m = {0};
    long long size;
    long coded = kind == INTERFACE_SIBLINGS ? SIBLINGS + 1 : 1;
    int within;
    runner_dir(dir, sizeof dir, kind == INTERFACE_SIBLINGS ? "siblings" : "bare-siblings");
    size = save_interface(dir, kind);
    within = check_bounded(&m, name, dir, size, APP_ID, 0, kind);
    checkf(m.restored == SIBLINGS + 1 && m.decoded == coded,
           "R22 %s and their root are restored (%zu of %zu records, %ld decoded)", name, m.restored, m.records, m.decoded);
    checkf(within, "R22 %s (%lld bytes) restore within max(1 MiB, 10x) = %lld bytes of extra memory (measured %lld)",
           name, size, bound_for(size), m.extra);
}

static void test_siblings(void) { check_siblings(INTERFACE_SIBLINGS, "100,000 siblings"); }

/* R22: 100,000 siblings that the host makes at restoration (object_for_path), as a program
 * that builds only its root does. The host's objects are its memory: what building the same
 * interface takes (in another child) is subtracted. */
static void test_siblings_made_at_restore(void) {
    char dir[600];
    measure launch = {0}, host = {0};
    long long size, engine_part;
    int launched, built;
    runner_dir(dir, sizeof dir, "siblings-made");
    size = save_interface(dir, INTERFACE_SIBLINGS);
    launched = run_child(&launch, ACTION_LAUNCH, dir, APP_ID, 0, INTERFACE_ROOT_MAKING);
    built = run_child(&host, ACTION_BUILD, dir, APP_ID, 0, INTERFACE_SIBLINGS);
    engine_part = launch.extra - host.extra;
    printf("  %-48s %10lld bytes  bound %10lld  measured %10lld (%lld, less %lld for the host's objects)\n",
           "100,000 siblings made at restoration", size, bound_for(size), engine_part, launch.extra, host.extra);
    checkf(launched && built && launch.restored == SIBLINGS + 1 && launch.decoded == SIBLINGS + 1,
           "R10 the host makes the 100,000 siblings at restoration (%zu of %zu records restored, %ld decoded)",
           launch.restored, launch.records, launch.decoded);
    checkf(launched && built && engine_part <= bound_for(size),
           "R22 100,000 siblings made at restoration (%lld bytes) restore within max(1 MiB, 10x) = %lld bytes beyond the host's objects (measured %lld)",
           size, bound_for(size), engine_part);
}
static void test_bare_siblings(void) { check_siblings(INTERFACE_BARE_SIBLINGS, "100,000 siblings saving nothing"); }

/* Saves the table of `kind` with rows 0 ..< SELECTED selected into `dir`; the archive's size,
 * or -1. */
static long long save_selection(const char *dir, interface_kind kind) {
    long long size;
    size_t i;
    rows = malloc(SELECTED * sizeof *rows);
    selection = malloc(SELECTED * sizeof *selection);
    if (!rows || !selection) {
        free(rows);
        free(selection);
        check(0, "R22 memory for the selection");
        return -1;
    }
    for (i = 0; i < SELECTED; i++) {
        rows[i] = (int64_t)i;
        selection[i].indexes = &rows[i];
        selection[i].length = 1;
    }
    size = save_interface(dir, kind);
    free(selection);
    free(rows);
    selection = NULL;
    rows = NULL;
    return size;
}

/* R17 R22: a table whose selection is 2^20 rows, as index paths or as model identifiers
 * (`kind`); `restored` items come back (a selection holds each item once). */
static void check_selection(interface_kind kind, const char *name, size_t restored) {
    char dir[600];
    measure m = {0};
    long long size;
    int within;
    runner_dir(dir, sizeof dir, kind == INTERFACE_TABLE ? "selection" : kind == INTERFACE_TABLE_BY_MODEL ? "selection-by-model" : "selection-by-models");
    if ((size = save_selection(dir, kind)) < 0) return;
    within = check_bounded(&m, name, dir, size, APP_ID, 0, kind);
    checkf(m.applied == restored, "R17 %s is applied, a set: %zu items expected, %zu applied", name, restored, m.applied);
    checkf(within, "R22 %s (%lld bytes) restores within max(1 MiB, 10x) = %lld bytes of extra memory (measured %lld)",
           name, size, bound_for(size), m.extra);
}

static void test_selection(void) { check_selection(INTERFACE_TABLE, "a selection of 2^20 rows", SELECTED); }
static void test_selection_by_model(void) {
    check_selection(INTERFACE_TABLE_BY_MODEL, "a selection of 2^20 rows of one model object", 1);
}
/* Runs `python3 repeat_references.py IN OUT WHAT COUNT`; 1 if it succeeded. */
static int repeat_references(const char *in, const char *out, const char *what, long count) {
    const char *script = getenv("AMBER_TEST_REPEAT_REFERENCES");
    char count_arg[32];
    int st = 0;
    pid_t pid;
    if (!script) script = "bindings/c/tests/repeat_references.py";
    snprintf(count_arg, sizeof count_arg, "%ld", count);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        execlp("python3", "python3", script, in, out, what, count_arg, (char *)NULL);
        _exit(127);
    }
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* R17 R22: the hostile form of the selection of one model object, as another program may write
 * it: 2^20 references to one identifier, a byte each (repeat_references.py rewrites a saved
 * archive so). It restores as one item. */
static void test_selection_repeated(void) {
    char dir[600], saved[700], hostile[700];
    measure m = {0};
    long long size;
    int within;
    runner_dir(dir, sizeof dir, "selection-repeated");
    if (save_selection(dir, INTERFACE_TABLE_BY_MODEL) < 0) return;
    snprintf(saved, sizeof saved, "%s/saved.archive", dir);
    snprintf(hostile, sizeof hostile, "%s/state.archive", dir);
    if (rename(hostile, saved) != 0) {
        checkf(0, "R22 the saved archive is moved aside: %s", strerror(errno));
        return;
    }
    if (!repeat_references(saved, hostile, "selection", SELECTED)) {
        check(0, "R22 repeat_references.py writes the archive of 2^20 references to one identifier");
        return;
    }
    size = file_size(hostile);
    within = check_bounded(&m, "2^20 references to one selected identifier", dir, size, APP_ID, 0, INTERFACE_TABLE_BY_MODEL);
    checkf(m.applied == 1, "R17 2^20 references to one selected identifier are applied as 1 item (%zu)", m.applied);
    checkf(within, "R22 2^20 references to one selected identifier (%lld bytes) restore within max(1 MiB, 10x) = %lld bytes of extra memory (measured %lld)",
           size, bound_for(size), m.extra);
}

/* R22: a record list that names one record 2^20 times, a byte each (repeat_references.py): a
 * record listed twice is corrupt, refused at its second listing. */
static void test_records_repeated(void) {
    char dir[600], saved[700], hostile[700];
    measure m = {0};
    long long size;
    int within;
    runner_dir(dir, sizeof dir, "records-repeated");
    /* The smallest archive of two records: a root, and its table selecting one model object. */
    if (save_selection(dir, INTERFACE_TABLE_BY_MODEL) < 0) return;
    snprintf(saved, sizeof saved, "%s/saved.archive", dir);
    snprintf(hostile, sizeof hostile, "%s/state.archive", dir);
    if (rename(hostile, saved) != 0) {
        checkf(0, "R22 the saved archive is moved aside: %s", strerror(errno));
        return;
    }
    if (!repeat_references(saved, hostile, "records", SELECTED)) {
        check(0, "R22 repeat_references.py writes the archive naming one record 2^20 times");
        return;
    }
    size = file_size(hostile);
    within = check_bounded(&m, "one record listed 2^20 times", dir, size, APP_ID, 0, INTERFACE_NONE);
    checkf(m.fresh == AMBER_FRESH_CORRUPT && m.records == 0,
           "R22 one record listed 2^20 times is a corrupt archive (fresh reason %d, %zu records)", m.fresh, m.records);
    checkf(within, "R22 one record listed 2^20 times (%lld bytes) is refused within max(1 MiB, 10x) = %lld bytes of extra memory (measured %lld)",
           size, bound_for(size), m.extra);
}

static void test_selection_by_models(void) {
    check_selection(INTERFACE_TABLE_BY_MODELS, "a selection of 2^20 model objects", SELECTED);
}

/* R17 R22: a web view whose back/forward list visits one page 2^16 times: the archive holds
 * its URL once (and each visit's small record), and so must what restoring it takes. */
static void test_pages(void) {
    static char url[URL_BYTES + 1];
    char dir[600];
    measure m = {0};
    long long size;
    int within;
    size_t i;
    memcpy(url, "https://example.org/", 20);
    memset(url + 20, 'a', URL_BYTES - 20);
    url[URL_BYTES] = '\0';
    if (!(pages = calloc(PAGES, sizeof *pages))) {
        check(0, "R22 memory for the pages");
        return;
    }
    for (i = 0; i < PAGES; i++) pages[i].url = url;
    runner_dir(dir, sizeof dir, "pages");
    size = save_interface(dir, INTERFACE_WEB);
    free(pages);
    pages = NULL;
    within = check_bounded(&m, "2^16 visits of one page (a 1 KiB URL)", dir, size, APP_ID, 0, INTERFACE_WEB);
    checkf(m.applied == PAGES, "R17 the 2^16 pages are applied (%zu)", m.applied);
    checkf(within, "R22 2^16 visits of one page (%lld bytes) restore within max(1 MiB, 10x) = %lld bytes of extra memory (measured %lld)",
           size, bound_for(size), m.extra);
}

static const runner_test tests[] = {
    {"r22_memory_corpus_restore", test_corpus_restore},
    {"r22_memory_corpus_envelope", test_corpus_envelope},
    {"r22_memory_corpus_reader", test_corpus_reader},
    {"r22_memory_unarchiver_corpus_unarchiver", test_unarchiver_corpus_unarchiver},
    {"r22_memory_unarchiver_corpus_reader", test_unarchiver_corpus_reader},
    {"r22_memory_unarchiver_corpus_python", test_unarchiver_corpus_python},
    {"r22_memory_siblings", test_siblings},
    {"r22_memory_siblings_bare", test_bare_siblings},
    {"r22_memory_siblings_made_at_restore", test_siblings_made_at_restore},
    {"r22_memory_selection", test_selection},
    {"r22_memory_selection_by_model", test_selection_by_model},
    {"r22_memory_selection_by_models", test_selection_by_models},
    {"r22_memory_selection_repeated", test_selection_repeated},
    {"r22_memory_records_repeated", test_records_repeated},
    {"r22_memory_pages", test_pages},
};

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "--child") == 0) return child_main(argv);
    return runner_main("memory", tests, RUNNER_COUNT(tests), argc, argv);
}

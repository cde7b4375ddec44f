/*
 * The rules of SPEC R1-R16, R28 and R29 through the C ABI alone (include/amber.h, linked with
 * -lamber), one section per rule, and the bad arguments of R22 that issue 3 asks for.
 *
 * Each preserve runs in one engine and each restore in another one on the same store, as two
 * launches of a program would; the crash-loop test (R14) runs its launches in child processes
 * that are killed with SIGKILL while restoring.
 *
 * The log test (R29) runs this program again in a child process with AMBER_LOG=debug
 * ("test_rules --r29-log-child") and reads its standard error.
 *
 * Nothing goes into the real home directory: the runner points the XDG directories at a scratch
 * directory first (runner.h, scratch.h).
 *
 * Usage: test_rules [--list] [PREFIX...] (runner.h): "test_rules r10" runs the R10 tests. Prints
 * one line per check, each naming its rule, and "N passed, N failed"; exits non-zero if a check
 * fails.
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "scratch.h"
#include "check.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- checks ------------------------------------------------------------------------------ */

/* A failure: the code, and a message on this thread with the same code (R22: never silent). */
static void check_error(int got, int want, const char *what) {
    const char *msg = amber_error_last();
    int ok = got == want && amber_error_last_code() == want && msg != NULL && msg[0] != '\0';
    checkf(ok, "%s -> %s%s%s%s", what, amber_status_string(got), ok ? "" : ", expected ", ok ? "" : amber_status_string(want),
           ok ? " with a message" : "");
}

/* ---- the event log: the order in which Amber called the host -------------------------------- */

#define MAX_EVENTS 512
static char events[MAX_EVENTS][128];
static int n_events;

static void ev(const char *fmt, ...) {
    va_list ap;
    if (n_events >= MAX_EVENTS) return;
    va_start(ap, fmt);
    vsnprintf(events[n_events++], sizeof events[0], fmt, ap);
    va_end(ap);
}

/* The index of the first event equal to `name`, or -1. */
static int ev_first(const char *name) {
    int i;
    for (i = 0; i < n_events; i++)
        if (strcmp(events[i], name) == 0) return i;
    return -1;
}

static int ev_count(const char *name) {
    int i, n = 0;
    for (i = 0; i < n_events; i++)
        if (strcmp(events[i], name) == 0) n++;
    return n;
}

/* The index of the last / first event starting with `prefix`, or -1. */
static int ev_last_prefix(const char *prefix) {
    int i;
    for (i = n_events - 1; i >= 0; i--)
        if (strncmp(events[i], prefix, strlen(prefix)) == 0) return i;
    return -1;
}

static int ev_first_prefix(const char *prefix) {
    int i;
    for (i = 0; i < n_events; i++)
        if (strncmp(events[i], prefix, strlen(prefix)) == 0) return i;
    return -1;
}

static void join_path(char *buf, size_t size, const char *const *path, size_t n) {
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < n && used < size; i++) used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "/" : "", path[i]);
}

/* ---- a host store in memory: the "disk" that survives from one engine (launch) to the next --- */

typedef struct mem_store {
    uint8_t *bytes;
    size_t size;
    int guard, writes, reads, fail_read;
} mem_store;

static int ms_read(void *(*alloc)(size_t, void *), void *alloc_ctx, uint8_t **out, size_t *out_size, int *out_found,
                   void *ctx) {
    mem_store *s = ctx;
    s->reads++;
    if (s->fail_read) return AMBER_IO;
    *out_found = s->bytes != NULL;
    if (!s->bytes) return 0;
    *out = alloc(s->size, alloc_ctx);
    if (!*out) return AMBER_LIMIT_EXCEEDED;
    memcpy(*out, s->bytes, s->size);
    *out_size = s->size;
    return 0;
}
static int ms_write(const uint8_t *bytes, size_t size, void *ctx) {
    mem_store *s = ctx;
    free(s->bytes);
    s->bytes = malloc(size ? size : 1);
    memcpy(s->bytes, bytes, size);
    s->size = size;
    s->writes++;
    return 0;
}
static int ms_remove(void *ctx) {
    mem_store *s = ctx;
    free(s->bytes);
    s->bytes = NULL;
    s->size = 0;
    return 0;
}
static int ms_read_guard(int *out, void *ctx) {
    *out = ((mem_store *)ctx)->guard;
    return 0;
}
static int ms_write_guard(int count, void *ctx) {
    ((mem_store *)ctx)->guard = count;
    return 0;
}
static void ms_clear(mem_store *s) {
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

/* ---- host objects: every object's context is a node ------------------------------------------ */

#define MAX_REFS 4
typedef struct node {
    char name[48];
    int64_t value;            /* encoded under "value" */
    amber_object *self;       /* the handle: callbacks must receive it */
    int callbacks_ok;         /* every callback received self and this context */
    int encoded, decoded, finished;
    int encode_status;        /* of encoding "value" */
    int64_t got;              /* decoded "value" */
    int got_status;
    /* references (R4) */
    const char *ref_keys[MAX_REFS];
    amber_object *refs[MAX_REFS];
    int n_refs;
    int ref_status[MAX_REFS];
    amber_object *got_refs[MAX_REFS];
    int got_ref_status[MAX_REFS];
    int fail_decode;          /* the decode callback returns this code */
    int fail_encode;          /* the encode callback returns this code (R28) */
    /* what amber_decoder_record gave the decode callback (R3, R10) */
    int record_status, record_kind;
    size_t record_position;
    char record_class[48];
    int extend;               /* the decode callback extends restoration (R15) */
    int kill;                 /* the decode callback raises SIGKILL (R14) */
    void (*decode_hook)(struct node *n, amber_decoder *d);
    void (*encode_hook)(struct node *n, amber_coder *c);
} node;

#define MAX_NODES 64
static node pool[MAX_NODES];
static int n_nodes;
static amber_engine *cur_engine; /* the engine restoring, for R15's extend */
static uint64_t tokens[8];
static int n_tokens;

static node *nn(const char *name, int64_t value) {
    node *n = &pool[n_nodes++ % MAX_NODES];
    memset(n, 0, sizeof *n);
    snprintf(n->name, sizeof n->name, "%s", name);
    n->value = value;
    n->callbacks_ok = 1;
    n->got = -1;
    return n;
}

static void reset(void) {
    n_nodes = 0;
    n_events = 0;
    n_tokens = 0;
    cur_engine = NULL;
    memset(pool, 0, sizeof pool);
}

static void node_add_ref(node *n, const char *key, amber_object *target) {
    n->ref_keys[n->n_refs] = key;
    n->refs[n->n_refs] = target;
    n->n_refs++;
}

static int node_encode(amber_object *object, amber_coder *coder, void *ctx) {
    node *n = ctx;
    int i;
    n->encoded++;
    if (object != n->self) n->callbacks_ok = 0;
    ev("encode:%s", n->name);
    n->encode_status = amber_coder_encode_int64(coder, "value", n->value);
    for (i = 0; i < n->n_refs; i++) n->ref_status[i] = amber_coder_encode_object(coder, n->ref_keys[i], n->refs[i]);
    if (n->encode_hook) n->encode_hook(n, coder);
    return n->fail_encode;
}

static int node_decode(amber_object *object, amber_decoder *decoder, void *ctx) {
    node *n = ctx;
    amber_record_info info;
    int i;
    n->decoded++;
    memset(&info, 0, sizeof info);
    n->record_status = amber_decoder_record(&info, decoder);
    n->record_kind = info.kind;
    n->record_position = info.position;
    snprintf(n->record_class, sizeof n->record_class, "%s", info.class_name ? info.class_name : "");
    if (object != n->self) n->callbacks_ok = 0;
    ev("decode:%s", n->name);
    if (n->kill) raise(SIGKILL);
    n->got_status = amber_decoder_decode_int64(&n->got, decoder, "value");
    for (i = 0; i < n->n_refs; i++) {
        n->got_refs[i] = (amber_object *)n; /* a value the call must overwrite */
        n->got_ref_status[i] = amber_decoder_decode_object(&n->got_refs[i], decoder, n->ref_keys[i], NULL, 0);
    }
    if (n->decode_hook) n->decode_hook(n, decoder);
    if (n->extend && n_tokens < 8) {
        if (amber_engine_extend_restoration(&tokens[n_tokens], cur_engine) == AMBER_OK) n_tokens++;
    }
    return n->fail_decode;
}

static void node_finished(amber_object *object, void *ctx) {
    node *n = ctx;
    n->finished++;
    if (object != n->self) n->callbacks_ok = 0;
    ev("finished:%s", n->name);
}

/* An object whose context is `n`, with all three callbacks. */
static amber_object *mk(amber_engine *e, int kind, const char *cls, const char *id, node *n) {
    amber_object_callbacks cb;
    amber_object *o = NULL;
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = node_encode;
    cb.decode = node_decode;
    cb.finished_restoring = node_finished;
    if (amber_object_new(&o, e, kind, cls, id, &cb, n, NULL) != AMBER_OK) {
        printf("note: amber_object_new(%s) failed: %s\n", cls, amber_error_last());
        return NULL;
    }
    n->self = o;
    return o;
}

static amber_object *ctl(amber_engine *e, const char *cls, const char *id, node *n) {
    return mk(e, AMBER_KIND_CONTROLLER, cls, id, n);
}

/* Whether an object's restoration path is `want` (NULL: it has none). */
static int path_is(amber_object *o, const char *want) {
    amber_buf p = AMBER_BUF_INIT;
    int rc = amber_object_path(&p, o), ok;
    if (want == NULL) return rc == AMBER_NOT_FOUND;
    ok = rc == AMBER_OK && p.ptr && strcmp(p.ptr, want) == 0;
    amber_buf_dispose(&p);
    return ok;
}

/* ---- lookup tables: what the delegate, a restoration class or a factory gives ---------------- */

#define MAX_ENTRIES 16
typedef struct table {
    const char *tag; /* in the event log: "<tag>:<path>" */
    int64_t read_value; /* what the last make read under "value" from the object's coder */
    const char *paths[MAX_ENTRIES];
    amber_object *objects[MAX_ENTRIES];
    int n;
} table;

static void table_put(table *t, const char *path, amber_object *o) {
    t->paths[t->n] = path;
    t->objects[t->n] = o;
    t->n++;
}

static amber_object *table_get(const table *t, const char *path) {
    int i;
    for (i = 0; i < t->n; i++)
        if (strcmp(t->paths[i], path) == 0) return t->objects[i];
    return NULL;
}

static int table_make(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                      amber_decoder *decoder, void *ctx) {
    table *t = ctx;
    char p[256];
    (void)engine;
    join_path(p, sizeof p, path, path_length);
    ev("%s:%s", t->tag, p);
    t->read_value = -1;
    amber_decoder_decode_int64(&t->read_value, decoder, "value");
    *out = table_get(t, p);
    return AMBER_OK;
}

static char factory_blueprint[128];

static int table_factory(amber_object **out, amber_engine *engine, const char *blueprint_id, const char *const *path,
                         size_t path_length, amber_decoder *decoder, void *ctx) {
    table *t = ctx;
    char p[256];
    (void)engine;
    (void)decoder;
    join_path(p, sizeof p, path, path_length);
    ev("%s:%s", t->tag, p);
    ev("blueprint:%s", blueprint_id);
    snprintf(factory_blueprint, sizeof factory_blueprint, "%s", blueprint_id);
    *out = table_get(t, p);
    return AMBER_OK;
}

static void add_class(amber_engine *e, const char *name, table *t) {
    amber_restoration_class rc;
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = table_make;
    if (amber_engine_register_restoration_class(e, name, &rc, t, NULL) != AMBER_OK)
        printf("note: register_restoration_class(%s) failed: %s\n", name, amber_error_last());
}

static void add_factory(amber_engine *e, const char *name, table *t) {
    amber_blueprint_factory bf;
    bf = (amber_blueprint_factory)AMBER_BLUEPRINT_FACTORY_INIT;
    bf.make = table_factory;
    if (amber_engine_register_blueprint_factory(e, name, &bf, t, NULL) != AMBER_OK)
        printf("note: register_blueprint_factory(%s) failed: %s\n", name, amber_error_last());
}

/* ---- the delegate ---------------------------------------------------------------------------- */

typedef struct app {
    int save, restore;           /* should_save / should_restore answers */
    const char *app_version;     /* written by will_encode under "appVersion" if set */
    table ofp;                   /* object_for_path answers */
    void (*on_will_finish)(amber_engine *e);
    /* read back */
    int should_restore_calls, did_decode_calls;
    char bundle_version[64], idiom[64], system_version[256], app_version_read[64], did_decode_app_version[64];
    double timestamp;
    int timestamp_status, app_ref_status, app_secure_status;
    void (*should_save_hook)(amber_coder *c);
    void (*will_encode_hook)(amber_coder *c);
    /* R8: the metadata under UIKit's names */
    char uikit_bundle_version[64], uikit_idiom[64], uikit_system_version[256];
    double uikit_timestamp;
    int uikit_timestamp_status;
    void (*should_restore_hook)(amber_decoder *d);
    void (*did_decode_hook)(amber_decoder *d);
    /* object_for_path: this instead of the table when set */
    int (*ofp_hook)(amber_object **out, amber_engine *e, const char *path, amber_decoder *d);
} app;

static app A;

static int d_should_save(amber_engine *e, amber_coder *c, void *ctx) {
    (void)e;
    (void)ctx;
    ev("should_save");
    if (A.should_save_hook) A.should_save_hook(c);
    return A.save;
}

static int d_will_encode(amber_engine *e, amber_coder *c, void *ctx) {
    (void)e;
    (void)ctx;
    ev("will_encode");
    if (A.will_encode_hook) A.will_encode_hook(c);
    if (A.app_version) return amber_coder_encode_string(c, "appVersion", A.app_version);
    return AMBER_OK;
}

static void copy_string(char *buf, size_t size, amber_decoder *d, const char *key) {
    const char *s = NULL;
    buf[0] = '\0';
    if (amber_decoder_decode_string(&s, d, key) == AMBER_OK) snprintf(buf, size, "%s", s);
}

static int d_should_restore(amber_engine *e, amber_decoder *d, void *ctx) {
    amber_object *o = NULL;
    const char *allowed[1] = {"X"};
    (void)e;
    (void)ctx;
    ev("should_restore");
    A.should_restore_calls++;
    copy_string(A.bundle_version, sizeof A.bundle_version, d, "bundleVersion");
    copy_string(A.idiom, sizeof A.idiom, d, "interfaceIdiom");
    copy_string(A.system_version, sizeof A.system_version, d, "systemVersion");
    copy_string(A.app_version_read, sizeof A.app_version_read, d, "appVersion");
    A.timestamp_status = decoder_decode_date(&A.timestamp, d, "timestamp");
    copy_string(A.uikit_bundle_version, sizeof A.uikit_bundle_version, d, "UIApplicationStateRestorationBundleVersionKey");
    copy_string(A.uikit_idiom, sizeof A.uikit_idiom, d, "UIApplicationStateRestorationUserInterfaceIdiomKey");
    copy_string(A.uikit_system_version, sizeof A.uikit_system_version, d, "UIApplicationStateRestorationSystemVersionKey");
    A.uikit_timestamp_status = decoder_decode_date(&A.uikit_timestamp, d, "UIApplicationStateRestorationTimestampKey");
    if (A.should_restore_hook) A.should_restore_hook(d);
    A.app_ref_status = amber_decoder_decode_object(&o, d, "appVersion", NULL, 0);
    A.app_secure_status = amber_decoder_decode_object(&o, d, "appVersion", allowed, 1);
    return A.restore;
}

static int d_did_decode(amber_engine *e, amber_decoder *d, void *ctx) {
    (void)e;
    (void)ctx;
    ev("did_decode");
    A.did_decode_calls++;
    copy_string(A.did_decode_app_version, sizeof A.did_decode_app_version, d, "appVersion");
    if (A.did_decode_hook) A.did_decode_hook(d);
    return AMBER_OK;
}

static int d_object_for_path(amber_object **out, amber_engine *e, const char *const *path, size_t n,
                             amber_decoder *d, void *ctx) {
    char p[256];
    (void)ctx;
    join_path(p, sizeof p, path, n);
    ev("ofp:%s", p);
    if (A.ofp_hook) return A.ofp_hook(out, e, p, d);
    *out = table_get(&A.ofp, p);
    return AMBER_OK;
}

static void d_will_finish(amber_engine *e, void *ctx) {
    (void)ctx;
    ev("will_finish");
    if (A.on_will_finish) A.on_will_finish(e);
}

static void d_did_finish(amber_engine *e, void *ctx) {
    (void)e;
    (void)ctx;
    ev("did_finish");
}

static void reset_app(void) {
    memset(&A, 0, sizeof A);
    A.ofp.tag = "ofp";
    A.save = 1;
    A.restore = 1;
}

static void use_delegate(amber_engine *e) {
    amber_delegate d;
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = d_should_save;
    d.will_encode = d_will_encode;
    d.should_restore = d_should_restore;
    d.did_decode = d_did_decode;
    d.object_for_path = d_object_for_path;
    d.will_finish_launching = d_will_finish;
    d.did_finish_launching = d_did_finish;
    if (amber_engine_set_delegate(e, &d, NULL, NULL) != AMBER_OK) printf("note: set_delegate failed: %s\n", amber_error_last());
}

static amber_store mem_vtable;

/* An engine of application `app_id` on the memory store `ms`; `key_file`: NULL for the default. */
static amber_engine *open_mem_app(mem_store *ms, const char *app_id, const char *key_file, const char *bundle_version,
                                  const char *idiom) {
    amber_engine_options opts;
    amber_engine *e = NULL;
    mem_vtable = (amber_store)AMBER_STORE_INIT;
    mem_vtable.read = ms_read;
    mem_vtable.write = ms_write;
    mem_vtable.remove = ms_remove;
    mem_vtable.read_guard = ms_read_guard;
    mem_vtable.write_guard = ms_write_guard;
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.store = &mem_vtable;
    opts.store_ctx = ms;
    opts.bundle_version = bundle_version;
    opts.interface_idiom = idiom;
    opts.key_file = key_file;
    if (amber_engine_open(&e, app_id, &opts) != AMBER_OK) {
        printf("note: amber_engine_open failed: %s\n", amber_error_last());
        return NULL;
    }
    use_delegate(e);
    return e;
}

static amber_engine *open_mem(mem_store *ms, const char *bundle_version, const char *idiom) {
    return open_mem_app(ms, "org.example.rules", NULL, bundle_version, idiom);
}

static int preserve(amber_engine *e) {
    int saved = -1, rc = amber_engine_preserve(&saved, e);
    if (rc != AMBER_OK) printf("note: preserve failed: %s\n", amber_error_last());
    return rc == AMBER_OK ? saved : -1;
}

static amber_report *launch(amber_engine *e) {
    amber_report *r = NULL;
    cur_engine = e;
    if (amber_engine_launch(&r, e, AMBER_APP_INACTIVE) != AMBER_OK) printf("note: launch failed: %s\n", amber_error_last());
    return r;
}

/* The record of a path ("A/B") in a report; outcome -1 if there is none. */
static amber_report_record find(const amber_report *r, const char *path) {
    amber_report_record rec;
    size_t i;
    char p[256];
    for (i = 0; i < amber_report_count(r); i++) {
        if (amber_report_record_at(&rec, r, i) != AMBER_OK) continue;
        join_path(p, sizeof p, rec.path, rec.path_length);
        if (strcmp(p, path) == 0) return rec;
    }
    memset(&rec, 0, sizeof rec);
    rec.outcome = -1;
    rec.message = rec.class_name = "";
    return rec;
}

static int outcome_of(const amber_report *r, const char *path) { return find(r, path).outcome; }

/* The record of a path at a stack position (R3); outcome -1 if there is none. */
static amber_report_record find_at(const amber_report *r, const char *path, size_t position) {
    amber_report_record rec;
    size_t i;
    char p[256];
    for (i = 0; i < amber_report_count(r); i++) {
        if (amber_report_record_at(&rec, r, i) != AMBER_OK) continue;
        join_path(p, sizeof p, rec.path, rec.path_length);
        if (strcmp(p, path) == 0 && rec.position == position) return rec;
    }
    memset(&rec, 0, sizeof rec);
    rec.outcome = -1;
    rec.message = rec.class_name = "";
    return rec;
}

static const char *outcome_name(int o) {
    switch (o) {
    case AMBER_OUTCOME_RESTORED: return "restored";
    case AMBER_OUTCOME_DECLINED_BY_CLASS: return "declined by class";
    case AMBER_OUTCOME_NOT_FOUND: return "not found";
    case AMBER_OUTCOME_CLASS_MISMATCH: return "class mismatch";
    case AMBER_OUTCOME_LEFT_OUT: return "left out";
    case AMBER_OUTCOME_DECODE_ERROR: return "decode error";
    case AMBER_OUTCOME_DUPLICATE: return "duplicate";
    default: return "no record";
    }
}

/* A controller of class C named `id`, added as the last child of `parent`. */
static amber_object *child_of(amber_engine *e, amber_object *parent, const char *id, int64_t value) {
    amber_object *o = ctl(e, "C", id, nn(id, value));
    amber_object_add_child(parent, o);
    return o;
}

static int fresh_message_ok(const amber_report *r) {
    const char *m = amber_report_message(r);
    return m != NULL && m[0] != '\0';
}

/* ============================================================================================ */
/* R1 Restorable objects: kinds, callbacks, context                                              */
/* ============================================================================================ */

static void test_r1(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n, *child_n, *view_n, *plain_n, *modal_n, *n2[5];
    amber_object *root, *child, *view, *plain, *modal, *o2[5];
    int i, all;

    printf("-- R1 restorable objects\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 1);
    child_n = nn("Child", 2);
    view_n = nn("Scroll", 3);
    plain_n = nn("Source", 4);
    modal_n = nn("Modal", 5);
    root = ctl(e, "RootController", "Root", root_n);
    child = ctl(e, "ChildController", "Child", child_n);
    view = mk(e, AMBER_KIND_VIEW, "ScrollView", "Scroll", view_n);
    plain = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", plain_n);
    modal = ctl(e, "ModalController", "Modal", modal_n);
    /* R1 */ check(amber_object_kind(root) == AMBER_KIND_CONTROLLER && amber_object_kind(view) == AMBER_KIND_VIEW &&
                       amber_object_kind(plain) == AMBER_KIND_OBJECT,
                   "R1 three kinds: controller, view, plain object");
    /* R1 */ check(amber_object_context(root) == root_n && amber_object_context(view) == view_n &&
                       amber_object_context(plain) == plain_n,
                   "R1 each object keeps the host's context pointer");
    /* R1 */ check(strcmp(amber_object_class_name(plain), "DataSource") == 0 && strcmp(amber_object_identifier(view), "Scroll") == 0,
                   "R1 class name and restoration identifier read back");
    amber_engine_add_root(e, root);
    /* R1 */ check_status(amber_object_add_child(root, child), AMBER_OK, "R1 a child controller (containment)");
    /* R1 */ check_status(amber_object_present(child, modal), AMBER_OK, "R1 a presented controller (modal)");
    /* R1 */ check_status(amber_object_add_view(root, view), AMBER_OK, "R1 a view belongs to a controller");
    /* R1 */ check_status(amber_object_set_restoration_parent(plain, root), AMBER_OK, "R1 a plain object names a restoration parent");
    /* R1 */ check_status(amber_object_set_restoration_parent(view, root), AMBER_INVALID_ARGUMENT,
                          "R1 a view cannot name a restoration parent");
    /* R1 */ check_status(amber_object_add_child(root, view), AMBER_INVALID_ARGUMENT, "R1 a view is not a child controller");
    /* R1 */ check(path_is(child, "Root/Child") && path_is(modal, "Root/Child/Modal") && path_is(view, "Root/Scroll") &&
                       path_is(plain, "Root/Source"),
                   "R1 paths: child Root/Child, presented Root/Child/Modal, view Root/Scroll, plain Root/Source");
    node_add_ref(root_n, "source", plain); /* R4: a plain object is preserved when referenced */
    check(preserve(e) == 1, "R1 preserve");
    all = 1;
    for (i = 0; i < 5; i++) all = all && pool[i].encoded == 1 && pool[i].callbacks_ok;
    /* R1 */ check(all, "R1 encode ran once on each of the 5 objects, with its handle and its context");
    amber_engine_close(e);

    /* The next launch: the host builds the same objects; they are found implicitly. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n2[0] = nn("Root", 0), n2[1] = nn("Child", 0), n2[2] = nn("Scroll", 0), n2[3] = nn("Source", 0), n2[4] = nn("Modal", 0);
    o2[0] = ctl(e, "RootController", "Root", n2[0]);
    o2[1] = ctl(e, "ChildController", "Child", n2[1]);
    o2[2] = mk(e, AMBER_KIND_VIEW, "ScrollView", "Scroll", n2[2]);
    o2[3] = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", n2[3]);
    o2[4] = ctl(e, "ModalController", "Modal", n2[4]);
    amber_engine_add_root(e, o2[0]);
    amber_object_add_child(o2[0], o2[1]);
    amber_object_present(o2[1], o2[4]);
    amber_object_add_view(o2[0], o2[2]);
    amber_object_set_restoration_parent(o2[3], o2[0]);
    r = launch(e);
    all = 1;
    for (i = 0; i < 5; i++) all = all && n2[i]->decoded == 1 && n2[i]->finished == 1 && n2[i]->callbacks_ok && n2[i]->got == i + 1;
    /* R1 */ check(all, "R1 decode and finished_restoring ran on each object with its handle and context; values 1..5 back");
    /* R1 */ check(find(r, "Root/Scroll").kind == AMBER_KIND_VIEW && find(r, "Root/Source").kind == AMBER_KIND_OBJECT &&
                       find(r, "Root/Child/Modal").kind == AMBER_KIND_CONTROLLER,
                   "R1 the report gives each record's kind");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R2 Who is preserved                                                                          */
/* ============================================================================================ */

static void test_r2(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *main_n, *list_n, *login_n, *form_n, *field_n, *help_n, *aux_n, *panel_n, *anon_n, *inanon_n;
    amber_object *main_o, *list, *login, *form, *field, *help, *aux, *panel, *anon, *inanon;

    printf("-- R2 who is preserved\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    main_n = nn("Main", 1), list_n = nn("List", 2), login_n = nn("Login", 3), form_n = nn("Form", 4);
    field_n = nn("Field", 5), help_n = nn("Help", 6), aux_n = nn("Aux", 7), panel_n = nn("Panel", 8);
    anon_n = nn("Anon", 9), inanon_n = nn("InAnon", 10);
    main_o = ctl(e, "Window", "Main", main_n);
    list = ctl(e, "ListController", "List", list_n);
    login = ctl(e, "LoginController", NULL, login_n); /* no identifier: left out with all under it */
    form = ctl(e, "FormController", "Form", form_n);
    field = mk(e, AMBER_KIND_VIEW, "TextField", "Field", field_n);
    help = ctl(e, "HelpController", "Help", help_n);
    aux = ctl(e, "Window", "Aux", aux_n); /* a second root */
    panel = ctl(e, "PanelController", "Panel", panel_n);
    anon = ctl(e, "Window", NULL, anon_n); /* a third root, without identifier */
    inanon = ctl(e, "InnerController", "InAnon", inanon_n);
    amber_engine_add_root(e, main_o);
    amber_object_add_child(main_o, list);
    amber_object_add_child(main_o, login);
    amber_object_add_child(login, form);
    amber_object_add_view(login, field);
    amber_object_present(login, help);
    check_status(amber_engine_add_root(e, aux), AMBER_OK, "R2 a second root");
    check_status(amber_engine_add_root(e, anon), AMBER_OK, "R2 a third root, without identifier");
    amber_object_add_child(anon, inanon);
    check(preserve(e) == 1, "R2 preserve");
    /* R2 */ check(main_n->encoded == 1 && list_n->encoded == 1 && aux_n->encoded == 1 && panel_n->encoded == 0,
                   "R2 Main, Main/List and Aux encoded (Panel not yet added)");
    /* R2 */ check(login_n->encoded == 0, "R2 Login (no identifier) is not encoded");
    /* R2 */ check(form_n->encoded == 0 && field_n->encoded == 0 && help_n->encoded == 0,
                   "R2 what hangs under Login is left out: its child, its view, what it presents");
    /* R2 */ check(anon_n->encoded == 0 && inanon_n->encoded == 0, "R2 a root without identifier is left out with its children");
    amber_object_add_child(aux, panel);
    main_n->encoded = 0;
    check(preserve(e) == 1 && panel_n->encoded == 1 && main_n->encoded == 1, "R2 preserve again: each root is walked, Aux/Panel now too");
    amber_engine_close(e);

    /* The next launch: the default set-up builds everything again, Login included. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    main_n = nn("Main", 0), list_n = nn("List", 0), login_n = nn("Login", 0), form_n = nn("Form", 0);
    aux_n = nn("Aux", 0), panel_n = nn("Panel", 0);
    main_o = ctl(e, "Window", "Main", main_n);
    list = ctl(e, "ListController", "List", list_n);
    login = ctl(e, "LoginController", NULL, login_n);
    form = ctl(e, "FormController", "Form", form_n);
    aux = ctl(e, "Window", "Aux", aux_n);
    panel = ctl(e, "PanelController", "Panel", panel_n);
    amber_engine_add_root(e, main_o);
    amber_object_add_child(main_o, list);
    amber_object_add_child(main_o, login);
    amber_object_add_child(login, form);
    amber_engine_add_root(e, aux);
    amber_object_add_child(aux, panel);
    r = launch(e);
    /* R2 */ checkf(amber_report_count(r) == 4, "R2 the archive holds exactly 4 objects (got %zu): Main, Main/List, Aux, Aux/Panel",
                    amber_report_count(r));
    /* R2 */ check(outcome_of(r, "Main") == AMBER_OUTCOME_RESTORED && outcome_of(r, "Main/List") == AMBER_OUTCOME_RESTORED &&
                       outcome_of(r, "Aux") == AMBER_OUTCOME_RESTORED && outcome_of(r, "Aux/Panel") == AMBER_OUTCOME_RESTORED,
                   "R2 several roots: both windows and their children restored");
    /* R2 */ check(main_n->got == 1 && list_n->got == 2 && aux_n->got == 7 && panel_n->got == 8, "R2 each decoded its own value");
    /* R2 */ check(outcome_of(r, "Main/Form") == -1 && outcome_of(r, "Form") == -1 && outcome_of(r, "InAnon") == -1,
                   "R2 no record for Form or InAnon");
    /* R2 */ check(login_n->decoded == 0 && form_n->decoded == 0 && amber_object_kind(form) == AMBER_KIND_CONTROLLER &&
                       path_is(form, NULL),
                   "R2 Login and Form, made by the default set-up, are still there and untouched (not decoded)");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R3 Restoration paths: unique, duplicates reported, stacks by position                        */
/* ============================================================================================ */

/* Whether `line` is one of the '\n'-separated lines of `text`. */
static int has_line(const char *text, const char *line) {
    size_t n = strlen(line);
    const char *p = text;
    while (p && *p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, line, n) == 0) return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static void test_r3(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *dup_a, *dup_b, *under_b, *items[3], *twin_n, *twin_child;
    amber_object *root, *a, *b, *under, *nav, *it[3], *twin, *twin_kid, *other;
    const char *dups;
    int i;

    printf("-- R3 restoration paths\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    dup_a = nn("DupA", 10);
    dup_b = nn("DupB", 20);
    under_b = nn("UnderB", 21);
    a = ctl(e, "C", "Dup", dup_a);
    b = ctl(e, "C", "Dup", dup_b);
    under = ctl(e, "C", "Under", under_b);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(root, b);
    amber_object_add_child(b, under);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", 0));
    check_status(amber_object_set_stack(nav, 1), AMBER_OK, "R3 declare Nav a stack");
    amber_engine_add_root(e, nav);
    for (i = 0; i < 3; i++) {
        items[i] = nn(i == 0 ? "Item0" : i == 1 ? "Item1" : "Item2", 100 + i);
        it[i] = ctl(e, "ItemController", "Item", items[i]);
        amber_object_add_child(nav, it[i]);
    }
    other = ctl(e, "OtherController", "Other", nn("Other", 0));
    amber_object_add_child(nav, other);
    twin_n = nn("Twin", 30);
    twin_child = nn("TwinKid", 31);
    twin = ctl(e, "Window", "Root", twin_n); /* a second root with the first one's identifier */
    twin_kid = ctl(e, "C", "Kid", twin_child);
    amber_object_add_child(twin, twin_kid);
    amber_engine_add_root(e, twin);
    /* R3 */ check(path_is(it[0], "Nav/Item") && path_is(it[1], "Nav/Item[1]") && path_is(it[2], "Nav/Item[2]") &&
                       path_is(other, "Nav/Other"),
                   "R3 an identifier is never rewritten: the three stacked Items are Nav/Item, Nav/Item[1], Nav/Item[2] "
                   "(the position beside the identifier, no Item#1)");
    check(preserve(e) == 1, "R3 preserve with duplicates succeeds");
    dups = last_duplicates(e);
    {
        char shown[256];
        size_t k;
        snprintf(shown, sizeof shown, "%s", dups);
        for (k = 0; shown[k]; k++)
            if (shown[k] == '\n') shown[k] = ',';
        /* R3 */ checkf(has_line(dups, "Root/Dup"), "R3 the duplicate Root/Dup is reported (amber_engine_last_duplicates: %s)", shown);
    }
    /* R3 */ check(has_line(dups, "Root"), "R3 the duplicate root Root is reported");
    /* R3 */ check(!has_line(dups, "Nav/Item") && !has_line(dups, "Nav/Item#1"), "R3 stack children are not duplicates");
    /* R3 */ check(dup_a->encoded == 1 && dup_b->encoded == 0 && under_b->encoded == 0,
                   "R3 the first Root/Dup is preserved; the second, and what is under it, are not");
    /* R3 */ check(twin_n->encoded == 0 && twin_child->encoded == 0, "R3 the second root named Root is not preserved, nor its child");
    /* R3 */ check(items[0]->encoded == 1 && items[1]->encoded == 1 && items[2]->encoded == 1, "R3 the three stacked Items are preserved");
    amber_engine_close(e);

    /* The next launch: a stack of three fresh Items is found by position. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    dup_a = nn("Dup", -1);
    a = ctl(e, "C", "Dup", dup_a);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", 0));
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, nav);
    for (i = 0; i < 3; i++) {
        items[i] = nn("Item", -1);
        it[i] = ctl(e, "ItemController", "Item", items[i]);
        amber_object_add_child(nav, it[i]);
    }
    r = launch(e);
    /* R3 */ check(items[0]->got == 100 && items[1]->got == 101 && items[2]->got == 102,
                   "R3 at restore each stacked Item gets the state of its position (100, 101, 102)");
    /* R3 */ check(find_at(r, "Nav/Item", 0).object == it[0] && find_at(r, "Nav/Item", 1).object == it[1] &&
                       find_at(r, "Nav/Item", 2).object == it[2] && find_at(r, "Nav/Item", 2).outcome == AMBER_OUTCOME_RESTORED &&
                       outcome_of(r, "Nav/Item#1") == -1 && outcome_of(r, "Nav/Item#2") == -1,
                   "R3 the report keeps the stack position beside the path: Nav/Item at positions 0, 1, 2 (no Nav/Item#1)");
    /* R3 */ check(dup_a->got == 10, "R3 Root/Dup holds the first one's state (10)");
    /* R3 */ checkf(amber_report_count(r) == 7 && outcome_of(r, "Root/Dup/Under") == -1 && outcome_of(r, "Root/Kid") == -1,
                    "R3 7 records (got %zu): no record under the duplicates", amber_report_count(r));
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R4 Manual references                                                                         */
/* ============================================================================================ */

static void test_r4(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n, *list_n, *source_n, *cursor_n, *off_n, *gone_n;
    amber_object *root, *list, *source, *cursor, *offscreen, *gone, *nameless, *nameless_parent, *under_nameless;

    printf("-- R4 manual references\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 1), list_n = nn("List", 2), source_n = nn("Source", 3), cursor_n = nn("Cursor", 4);
    off_n = nn("Offscreen", 5), gone_n = nn("Gone", 6);
    root = ctl(e, "RootController", "Root", root_n);
    list = ctl(e, "ListController", "List", list_n);
    source = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", source_n);
    cursor = mk(e, AMBER_KIND_OBJECT, "Cursor", "Cursor", cursor_n); /* registered, referenced by nothing */
    offscreen = ctl(e, "OffscreenController", "Offscreen", off_n);    /* in no tree: the walk leaves it out */
    gone = ctl(e, "GoneController", "Gone", gone_n);                  /* in no tree; nothing provides it later */
    nameless = mk(e, AMBER_KIND_OBJECT, "Nameless", NULL, nn("Nameless", 0));
    nameless_parent = ctl(e, "C", NULL, nn("NamelessParent", 0));
    under_nameless = ctl(e, "C", "UnderNameless", nn("UnderNameless", 9));
    amber_object_add_child(nameless_parent, under_nameless);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, list);
    amber_object_set_restoration_parent(source, list);
    amber_object_set_restoration_parent(cursor, list);
    node_add_ref(list_n, "source", source);
    node_add_ref(list_n, "offscreen", offscreen);
    node_add_ref(list_n, "none", NULL);
    node_add_ref(list_n, "gone", gone);
    node_add_ref(root_n, "nameless", nameless);
    node_add_ref(root_n, "underNameless", under_nameless);
    check(preserve(e) == 1, "R4 preserve");
    /* R4 */ check(list_n->ref_status[0] == AMBER_OK && list_n->ref_status[1] == AMBER_OK && list_n->ref_status[2] == AMBER_OK &&
                       list_n->ref_status[3] == AMBER_OK,
                   "R4 references to a plain object, to an object outside every tree, and NULL encode");
    /* R4 */ check(source_n->encoded == 1 && off_n->encoded == 1 && gone_n->encoded == 1,
                   "R4 the referenced objects are preserved with their state (encode ran), the walk's outcasts too");
    /* R4 */ check(cursor_n->encoded == 0, "R4 a plain object nothing references is not preserved");
    /* R4 */ checkf(root_n->ref_status[0] == AMBER_INVALID_ARGUMENT,
                    "R4 a reference to an object without a restoration identifier is AMBER_INVALID_ARGUMENT (got %s)",
                    amber_status_string(root_n->ref_status[0]));
    /* R4 */ checkf(root_n->ref_status[1] == AMBER_OK && ((node *)amber_object_context(under_nameless))->encoded == 1,
                    "R4 a reference to an identified object under an ancestor without one encodes (got %s) and preserves it",
                    amber_status_string(root_n->ref_status[1]));
    amber_engine_close(e);

    /* The next launch. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 0), list_n = nn("List", 0), source_n = nn("Source", 0), cursor_n = nn("Cursor", 0);
    off_n = nn("Offscreen", 0);
    root = ctl(e, "RootController", "Root", root_n);
    list = ctl(e, "ListController", "List", list_n);
    source = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", source_n);
    cursor = mk(e, AMBER_KIND_OBJECT, "Cursor", "Cursor", cursor_n);
    offscreen = ctl(e, "OffscreenController", "Offscreen", off_n);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, list);
    amber_object_set_restoration_parent(source, list);
    amber_object_set_restoration_parent(cursor, list);
    table_put(&A.ofp, "Offscreen", offscreen);
    node_add_ref(list_n, "source", NULL);
    node_add_ref(list_n, "offscreen", NULL);
    node_add_ref(list_n, "none", NULL);
    node_add_ref(list_n, "gone", NULL);
    under_nameless = ctl(e, "C", NULL, nn("UnderNameless", -1));
    table_put(&A.ofp, "UnderNameless", under_nameless);
    r = launch(e);
    /* R4 */ check(list_n->got_ref_status[0] == AMBER_OK && list_n->got_refs[0] == source,
                   "R4 the reference to the plain object decodes to the restored Source");
    /* R4 */ check(list_n->got_ref_status[1] == AMBER_OK && list_n->got_refs[1] == offscreen,
                   "R4 the reference to the object the walk left out decodes to the restored Offscreen");
    /* R4 */ check(list_n->got_ref_status[2] == AMBER_OK && list_n->got_refs[2] == NULL, "R4 a NULL reference decodes to NULL");
    /* R4 */ check(list_n->got_ref_status[3] == AMBER_OK && list_n->got_refs[3] == NULL && outcome_of(r, "Gone") == AMBER_OUTCOME_NOT_FOUND,
                   "R4 a reference to an object that was not restored decodes to NULL (AMBER_OK)");
    /* R4 */ check(source_n->got == 3 && off_n->got == 5, "R4 Source and Offscreen decoded their own state (3, 5)");
    /* R4 */ check(find(r, "Root/List/Source").kind == AMBER_KIND_OBJECT && outcome_of(r, "Offscreen") == AMBER_OUTCOME_RESTORED,
                   "R4 records for Root/List/Source (a plain object) and Offscreen");
    /* R4 */ check(outcome_of(r, "Root/List/Cursor") == -1 && cursor_n->decoded == 0, "R4 no record for the unreferenced Cursor");
    /* R4 */ check(outcome_of(r, "UnderNameless") == AMBER_OUTCOME_RESTORED && find(r, "UnderNameless").object == under_nameless &&
                       ((node *)amber_object_context(under_nameless))->got == 9,
                   "R4 its path skips the ancestor without identifier: UnderNameless, restored with its state (9)");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R5 Opt-in                                                                                    */
/* ============================================================================================ */

static void test_r5(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n;
    int saved = -1;

    printf("-- R5 opt-in\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    amber_engine_set_delegate(e, NULL, NULL, NULL); /* no delegate at all */
    root_n = nn("Root", 1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", root_n));
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R5 preserve without a delegate");
    /* R5 */ check(saved == 0 && ms.writes == 0 && ms.bytes == NULL && root_n->encoded == 0,
                   "R5 without should_save nothing is saved (no write, no encode)");

    use_delegate(e);
    A.save = 0;
    saved = -1;
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R5 preserve with should_save returning 0");
    /* R5 */ check(saved == 0 && ms.writes == 0 && root_n->encoded == 0 && ev_count("should_save") == 1,
                   "R5 should_save was asked and said no: nothing saved, no encode");
    /* R5 */ check(ev_count("will_encode") == 0, "R5 will_encode is not called when should_save says no");

    A.save = 1;
    A.app_version = "2024.5";
    saved = -1;
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R5 preserve with should_save returning 1");
    /* R5 */ check(saved == 1 && ms.writes == 1 && ms.bytes != NULL && root_n->encoded == 1, "R5 saved once should_save agrees");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R5 */ check(strcmp(A.app_version_read, "2024.5") == 0, "R5 what the app coder received at save is read back at launch");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R6 What is recorded                                                                          */
/* ============================================================================================ */

static void test_r6(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *a_n, *b_n, *v_n;
    amber_object *root, *a, *b, *v;
    table classes = {"make:AClass", 0, {0}, {0}, 0}, boards = {"factory:Board", 0, {0}, {0}, 0};
    amber_report_record rec;

    printf("-- R6 what is recorded\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    a_n = nn("A", 111);
    b_n = nn("B", 222);
    v_n = nn("V", 333);
    a = ctl(e, "AController", "A", a_n);
    b = ctl(e, "BController", "B", b_n);
    v = mk(e, AMBER_KIND_VIEW, "VView", "V", v_n);
    check_status(amber_object_set_restoration_class(a, "AClass"), AMBER_OK, "R6 A names restoration class AClass");
    check_status(amber_object_set_blueprint(b, "Board/B"), AMBER_OK, "R6 B was made from blueprint Board/B");
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(root, b);
    amber_object_add_view(b, v);
    check(preserve(e) == 1, "R6 preserve");
    /* R6 */ check(a_n->encode_status == AMBER_OK && b_n->encode_status == AMBER_OK && v_n->encode_status == AMBER_OK,
                   "R6 each object its own coder: A, B and V all wrote key \"value\" without AMBER_DUPLICATE");
    amber_engine_close(e);

    /* The next launch builds nothing: A from its restoration class, B from its blueprint. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    amber_engine_add_root(e, root);
    a_n = nn("A", 0);
    b_n = nn("B", 0);
    v_n = nn("V", 0);
    a = ctl(e, "AController", NULL, a_n);
    b = ctl(e, "BController", NULL, b_n);
    /* The factory's B comes with its view V, as a storyboard makes a controller with its views
     * (R10: the view is found among its restored controller's views, not asked of the delegate). */
    v = mk(e, AMBER_KIND_VIEW, "VView", "V", v_n);
    amber_object_add_view(b, v);
    table_put(&classes, "Root/A", a);
    table_put(&boards, "Root/B", b);
    add_class(e, "AClass", &classes);
    add_factory(e, "Board", &boards);
    r = launch(e);
    /* R6 */ check(ev_count("make:AClass:Root/A") == 1 && ev_count("make:AClass:Root") == 0 && ev_count("make:AClass:Root/B") == 0,
                   "R6 the restoration class was recorded: AClass's make was asked for Root/A, and only for it");
    /* R6 */ checkf(strcmp(factory_blueprint, "Board/B") == 0 && ev_count("factory:Board:Root/B") == 1,
                    "R6 the blueprint was recorded: factory Board was asked for Root/B with \"%s\"", factory_blueprint);
    /* R6 */ check(a_n->got == 111 && b_n->got == 222 && v_n->got == 333, "R6 each object decodes its own \"value\": 111, 222, 333");
    rec = find(r, "Root/A");
    /* R6 */ check(rec.outcome == AMBER_OUTCOME_RESTORED && strcmp(rec.class_name, "AController") == 0 && rec.kind == AMBER_KIND_CONTROLLER,
                   "R6 the record of Root/A: class AController, kind controller");
    rec = find(r, "Root/B/V");
    /* R6 */ check(rec.outcome == AMBER_OUTCOME_RESTORED && strcmp(rec.class_name, "VView") == 0 && rec.kind == AMBER_KIND_VIEW &&
                       rec.path_length == 3,
                   "R6 the record of Root/B/V: path of 3, class VView, kind view");
    /* R6 */ check(amber_object_identifier(a) && strcmp(amber_object_identifier(a), "A") == 0 && amber_object_identifier(b) &&
                       strcmp(amber_object_identifier(b), "B") == 0 && path_is(a, "Root/A") && path_is(b, "Root/B") &&
                       path_is(v, "Root/B/V"),
                   "R6 objects made without identifier take the archived one and their place (Root/A, Root/B; B's view Root/B/V)");
    /* R6 */ check(ev_count("ofp:Root/B/V") == 0 && find(r, "Root/B/V").object == v,
                   "R6 R10 the view V is the one its restored controller B holds (the delegate is not asked for a view)");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R7 Reserved keys                                                                             */
/* ============================================================================================ */

static const char *reserved_keys[] = {
    "bundleVersion", "interfaceIdiom", "timestamp", "systemVersion", "blueprint", "restorationClass",
    "restorationPath", "className", "kind", "amber.anything", "UIApplicationStateRestorationBundleVersion",
    "UIStateRestorationViewControllerStoryboardKey",
};
#define N_RESERVED (sizeof reserved_keys / sizeof reserved_keys[0])
static int reserved_app[N_RESERVED], reserved_obj[N_RESERVED];
static int reserved_msg_app, reserved_msg_obj, unreserved_app, unreserved_obj;

/* Writes every reserved key with one of the typed encoders in turn. */
static void write_reserved(amber_coder *c, int *statuses, int *msg_ok) {
    size_t i;
    static const int64_t ip[2] = {0, 1};
    static const uint8_t bytes[2] = {1, 2};
    *msg_ok = 1;
    for (i = 0; i < N_RESERVED; i++) {
        const char *k = reserved_keys[i];
        switch (i % 7) {
        case 0: statuses[i] = amber_coder_encode_string(c, k, "forged"); break;
        case 1: statuses[i] = amber_coder_encode_int64(c, k, 9); break;
        case 2: statuses[i] = coder_encode_date(c, k, 1.0); break;
        case 3: statuses[i] = amber_coder_encode_bool(c, k, 1); break;
        case 4: statuses[i] = amber_coder_encode_double(c, k, 2.5); break;
        case 5: statuses[i] = amber_coder_encode_bytes(c, k, bytes, 2); break;
        default: statuses[i] = coder_encode_index_path(c, k, ip, 2); break;
        }
        if (strstr(amber_error_last(), k) == NULL) *msg_ok = 0;
    }
}

static void app_reserved_hook(amber_coder *c) {
    write_reserved(c, reserved_app, &reserved_msg_app);
    unreserved_app = amber_coder_encode_string(c, "bundleVersionOfMyPlugin", "ok");
}

static void obj_reserved_hook(node *n, amber_coder *c) {
    (void)n;
    write_reserved(c, reserved_obj, &reserved_msg_obj);
    unreserved_obj = amber_coder_encode_string(c, "amberColour", "ok");
}

static void test_r7(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n;
    amber_object *root;
    table boards = {"factory:Real", 0, {0}, {0}, 0};
    size_t i;

    printf("-- R7 reserved keys\n");
    reset();
    reset_app();
    e = open_mem(&ms, "7.0", NULL);
    A.will_encode_hook = app_reserved_hook;
    root_n = nn("Root", 1);
    root_n->encode_hook = obj_reserved_hook;
    root = ctl(e, "RootController", "Root", root_n);
    amber_object_set_blueprint(root, "Real/Root");
    amber_engine_add_root(e, root);
    check(preserve(e) == 1, "R7 preserve (refused keys do not fail the preservation)");
    for (i = 0; i < N_RESERVED; i++) {
        char what[160];
        snprintf(what, sizeof what, "R7 application coder: %s", reserved_keys[i]);
        /* R7 */ check_status(reserved_app[i], AMBER_RESERVED_KEY, what);
    }
    for (i = 0; i < N_RESERVED; i++) {
        char what[160];
        snprintf(what, sizeof what, "R7 object coder: %s", reserved_keys[i]);
        /* R7 */ check_status(reserved_obj[i], AMBER_RESERVED_KEY, what);
    }
    /* R7 */ check(reserved_msg_app && reserved_msg_obj, "R7 each refusal's message names the key");
    /* R7 */ check(unreserved_app == AMBER_OK && unreserved_obj == AMBER_OK,
                   "R7 keys that merely resemble reserved ones (bundleVersionOfMyPlugin, amberColour) are accepted");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 0);
    root = ctl(e, "RootController", NULL, root_n);
    table_put(&boards, "Root", root);
    add_factory(e, "Real", &boards);
    r = launch(e);
    /* R7 */ checkf(strcmp(A.bundle_version, "7.0") == 0, "R7 bundleVersion is the engine's (\"%s\"), not the forged one", A.bundle_version);
    /* R7 */ checkf(strcmp(factory_blueprint, "Real/Root") == 0, "R7 the blueprint is the recorded one (\"%s\"), not overwritten",
                    factory_blueprint);
    /* R7 */ check(root_n->got == 1 && outcome_of(r, "Root") == AMBER_OUTCOME_RESTORED, "R7 the object's own state is intact");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R8 Application state                                                                         */
/* ============================================================================================ */

#define SECONDS_1970_TO_2001 978307200.0

/* Seconds since 2001-01-01, read as the engine stamps an archive (FileSystem.now()): the precise
   real-time clock with its fraction, in the same arithmetic. time() reads the coarse clock, which
   lags by up to a tick, so a save bracketed by it can look later than "after". */
static double now_since_2001(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return 0;
    return (double)ts.tv_sec - SECONDS_1970_TO_2001 + (double)ts.tv_nsec / 1000000000.0;
}

static void test_r8(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    double before, after;
    struct utsname u;

    printf("-- R8 application state\n");
    reset();
    reset_app();
    e = open_mem(&ms, "3.1", "tablet");
    A.app_version = "5.5";
    amber_engine_add_root(e, ctl(e, "RootController", "Root", nn("Root", 1)));
    before = now_since_2001();
    check(preserve(e) == 1, "R8 preserve");
    after = now_since_2001();
    /* R8 */ check(ev_count("will_encode") == 1 && ev_first("should_save") < ev_first("will_encode") &&
                       ev_first("will_encode") < ev_first("encode:Root"),
                   "R8 will_encode runs once, at the beginning of preservation (after should_save, before any object)");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R8 */ checkf(strcmp(A.bundle_version, "3.1") == 0, "R8 should_restore reads bundleVersion \"%s\"", A.bundle_version);
    /* R8 */ checkf(strcmp(A.idiom, "tablet") == 0, "R8 should_restore reads interfaceIdiom \"%s\"", A.idiom);
    /* R8 */ checkf(A.timestamp_status == AMBER_OK && A.timestamp >= before && A.timestamp <= after,
                    "R8 should_restore reads timestamp, the date of the save (%.6f in [%.6f, %.6f])", A.timestamp, before, after);
    uname(&u);
    /* R8 */ checkf(A.system_version[0] != '\0' && strcmp(A.system_version, u.release) == 0,
                    "R8 should_restore reads systemVersion \"%s\" (uname -r)", A.system_version);
    /* R8 */ checkf(strcmp(A.app_version_read, "5.5") == 0, "R8 should_restore reads what will_encode wrote (appVersion \"%s\")",
                    A.app_version_read);
    /* R8 */ checkf(strcmp(A.uikit_bundle_version, "3.1") == 0 && strcmp(A.uikit_bundle_version, A.bundle_version) == 0,
                    "R8 should_restore reads UIApplicationStateRestorationBundleVersionKey \"%s\", the same as bundleVersion",
                    A.uikit_bundle_version);
    /* R8 */ checkf(strcmp(A.uikit_idiom, "tablet") == 0 && strcmp(A.uikit_idiom, A.idiom) == 0,
                    "R8 should_restore reads UIApplicationStateRestorationUserInterfaceIdiomKey \"%s\", the same as interfaceIdiom",
                    A.uikit_idiom);
    /* R8 */ checkf(A.uikit_timestamp_status == AMBER_OK && A.uikit_timestamp == A.timestamp,
                    "R8 should_restore reads UIApplicationStateRestorationTimestampKey, the same date as timestamp (%.6f)",
                    A.uikit_timestamp);
    /* R8 */ checkf(A.uikit_system_version[0] != '\0' && strcmp(A.uikit_system_version, A.system_version) == 0,
                    "R8 should_restore reads UIApplicationStateRestorationSystemVersionKey \"%s\", the same as systemVersion",
                    A.uikit_system_version);
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R9 When                                                                                      */
/* ============================================================================================ */

static node *r9_root_n;
/* The host builds its default interface in will_finish_launching: found by implicit lookup. */
static void build_in_will_finish(amber_engine *e) {
    r9_root_n = nn("Root", 0);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", r9_root_n));
}

static void save_root(mem_store *ms, int64_t value) {
    amber_engine *e;
    reset_app();
    e = open_mem(ms, NULL, NULL);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", nn("Root", value)));
    preserve(e);
    amber_engine_close(e);
    n_events = 0;
}

static void test_r9(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_delegate d;

    printf("-- R9 when\n");
    reset();
    /* No archive. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE && fresh_message_ok(r),
                   "R9/R16 no archive: a fresh launch, reason AMBER_FRESH_NO_ARCHIVE, with a message");
    /* R9 */ check(A.should_restore_calls == 0 && ev_count("will_finish") == 1 && ev_count("did_finish") == 1,
                   "R9 no archive: should_restore not asked; will/did finish launching still run");
    amber_report_free(r);
    amber_engine_close(e);

    /* Restoration between the two launch steps. */
    save_root(&ms, 42);
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    A.on_will_finish = build_in_will_finish;
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NONE && r9_root_n && r9_root_n->got == 42,
                   "R9 restored: the Root built in will_finish_launching got its state (42)");
    /* R9 */ check(ev_first("will_finish") == 0 && ev_first("will_finish") < ev_first("should_restore") &&
                       ev_first("should_restore") < ev_first("decode:Root") && ev_first("decode:Root") < ev_first("did_decode") &&
                       ev_first("did_decode") < ev_first("did_finish") && ev_first("did_finish") == n_events - 1,
                   "R9 order: will_finish, should_restore, decode, did_decode, did_finish");
    amber_report_free(r);
    amber_engine_close(e);

    /* should_restore says no. */
    save_root(&ms, 43);
    reset_app();
    A.restore = 0;
    e = open_mem(&ms, NULL, NULL);
    A.on_will_finish = build_in_will_finish;
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_DECLINED && fresh_message_ok(r),
                   "R9/R16 should_restore 0: fresh, reason AMBER_FRESH_DECLINED, with a message");
    /* R9 */ check(A.should_restore_calls == 1 && r9_root_n->decoded == 0 && ev_first_prefix("ofp:") == -1 && amber_report_count(r) == 0,
                   "R9 declined: no object looked up or decoded, no records");
    /* R9 */ check(ev_count("did_finish") == 1, "R9 declined: did_finish_launching still runs");
    /* R14 */ check(ms.bytes == NULL, "R14 the declined archive is discarded");
    amber_report_free(r);
    amber_engine_close(e);

    /* No should_restore at all. */
    save_root(&ms, 44);
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_DECLINED, "R9 without should_restore: fresh (AMBER_FRESH_DECLINED)");
    amber_report_free(r);
    amber_engine_close(e);

    /* An archive that cannot be read. */
    ms_clear(&ms);
    ms.bytes = malloc(32);
    memset(ms.bytes, 'x', 32);
    ms.size = 32;
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_CORRUPT && fresh_message_ok(r) && A.should_restore_calls == 0,
                   "R9/R16 a damaged archive: fresh, AMBER_FRESH_CORRUPT with a message; should_restore not asked");
    /* R16: the message says why, once: a host that prints "fresh launch: %s" says so once. */
    check(strncmp(amber_report_message(r), "corrupt archive: ", 17) == 0 && strstr(amber_report_message(r), "fresh launch") == NULL,
          "R16 a damaged archive's message starts with its reason, without a second \"fresh launch:\"");
    /* R14 */ check(ms.bytes == NULL, "R14 the damaged archive is discarded");
    amber_report_free(r);
    amber_engine_close(e);

    /* Another application's archive (issue 39, item 9): refused by the engine, whatever the
       host's should_restore would say, with one reason naming both ids; discarded. */
    save_root(&ms, 46);
    reset_app();
    {
        /* The key file of org.example.rules, as if copied with the archive. */
        char key[1024];
        snprintf(key, sizeof key, "%s/org.example.rules/archive.key", getenv("XDG_STATE_HOME"));
        e = open_mem_app(&ms, "org.example.other", key, NULL, NULL);
    }
    r = launch(e);
    {
        const char *m = amber_report_message(r);
        /* R9 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_OTHER_APPLICATION && m != NULL &&
                            strstr(m, "'org.example.rules'") != NULL && strstr(m, "'org.example.other'") != NULL &&
                            A.should_restore_calls == 0,
                        "R9/R16 another app id's archive: fresh, AMBER_FRESH_OTHER_APPLICATION naming both ids, "
                        "should_restore not asked (%d: %s)", (int)amber_report_fresh_reason(r), m ? m : "(null)");
    }
    /* R14 */ check(ms.bytes == NULL, "R14 another application's archive is discarded");
    amber_report_free(r);
    amber_engine_close(e);

    /* A store that cannot read: fresh, and the archive stays. */
    save_root(&ms, 45);
    ms.fail_read = 1;
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_STORE_ERROR && fresh_message_ok(r) && ms.bytes != NULL,
                   "R9/R16 a store read error: fresh, AMBER_FRESH_STORE_ERROR with a message; the archive is kept");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R10 Finding each object                                                                      */
/* ============================================================================================ */

static void test_r10(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *o, *nowhere, *declined, *under;
    table make_class = {"make:MakeClass", 0, {0}, {0}, 0}, kid_class = {"make:KidClass", 0, {0}, {0}, 0};
    table decline_class = {"make:DeclineClass", 0, {0}, {0}, 0}, under_class = {"make:UnderClass", 0, {0}, {0}, 0};
    table boards = {"factory", 0, {0}, {0}, 0};
    amber_object *by_class, *by_delegate, *by_implicit, *by_blueprint, *kid, *kid2, *unreg, *impl_class, *impl_delegate,
        *impl_declined, *impl_under, *impl_deeper, *ofp_deeper, *class_under, *f_class, *f_delegate, *f_implicit;
    node *n_class, *n_delegate, *n_implicit, *n_blueprint, *n_kid, *n_kid2, *n_unreg, *n_impl_class, *n_impl_delegate,
        *n_impl_declined, *n_impl_under, *n_impl_deeper, *n_ofp_deeper, *n_class_under, *n_f_implicit;
    amber_buf text = AMBER_BUF_INIT;

    printf("-- R10 the lookup chain\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "C", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    o = child_of(e, root, "ByClass", 10);
    amber_object_set_restoration_class(o, "MakeClass");
    amber_object_set_blueprint(o, "Board/ByClass");
    o = child_of(e, root, "ByDelegate", 11);
    amber_object_set_blueprint(o, "Board/ByDelegate");
    o = child_of(e, root, "ByImplicit", 12);
    amber_object_set_blueprint(o, "Board/ByImplicit");
    o = child_of(e, root, "ByBlueprint", 13);
    amber_object_set_blueprint(o, "Board/ByBlueprint");
    nowhere = child_of(e, root, "Nowhere", 14);
    o = child_of(e, nowhere, "Kid", 15);
    amber_object_set_restoration_class(o, "KidClass");
    child_of(e, nowhere, "Kid2", 16);
    declined = child_of(e, root, "Declined", 17);
    amber_object_set_restoration_class(declined, "DeclineClass");
    amber_object_set_blueprint(declined, "Board/Declined");
    under = child_of(e, declined, "Under", 18);
    amber_object_set_restoration_class(under, "UnderClass");
    child_of(e, under, "Deeper", 19);
    o = child_of(e, root, "Unregistered", 20);
    amber_object_set_restoration_class(o, "NoSuchClass");
    check(preserve(e) == 1, "R10 preserve");
    amber_engine_close(e);

    /* The next launch. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
#define OBJ(var, nvar, id, parent)                                  \
    do {                                                            \
        nvar = nn(id, -1);                                          \
        var = ctl(e, "C", parent ? id : NULL, nvar);                \
        if (parent) amber_object_add_child((amber_object *)parent, var); \
    } while (0)
    root = ctl(e, "C", "Root", nn("Root", -1));
    amber_engine_add_root(e, root);
    /* Objects of the default set-up (implicit lookup candidates). */
    OBJ(impl_class, n_impl_class, "ByClass", root);
    OBJ(impl_delegate, n_impl_delegate, "ByDelegate", root);
    OBJ(by_implicit, n_implicit, "ByImplicit", root);
    OBJ(impl_declined, n_impl_declined, "Declined", root);
    OBJ(impl_under, n_impl_under, "Under", impl_declined);
    OBJ(impl_deeper, n_impl_deeper, "Deeper", impl_under);
    /* Objects the steps would give, made without a place. */
    OBJ(by_class, n_class, "ByClass", NULL);
    OBJ(by_delegate, n_delegate, "ByDelegate", NULL);
    OBJ(by_blueprint, n_blueprint, "ByBlueprint", NULL);
    OBJ(kid, n_kid, "Kid", NULL);
    OBJ(kid2, n_kid2, "Kid2", NULL);
    OBJ(unreg, n_unreg, "Unregistered", NULL);
    OBJ(ofp_deeper, n_ofp_deeper, "Deeper", NULL);
    OBJ(class_under, n_class_under, "Under", NULL);
    OBJ(f_implicit, n_f_implicit, "ByImplicit", NULL);
#undef OBJ
    f_class = ctl(e, "C", NULL, nn("FactoryByClass", -1));
    f_delegate = ctl(e, "C", NULL, nn("FactoryByDelegate", -1));
    table_put(&make_class, "Root/ByClass", by_class);
    table_put(&kid_class, "Root/Nowhere/Kid", kid);
    /* DeclineClass gives nothing for Root/Declined. */
    table_put(&under_class, "Root/Declined/Under", class_under);
    table_put(&A.ofp, "Root/ByClass", impl_class); /* must never be asked */
    table_put(&A.ofp, "Root/ByDelegate", by_delegate);
    table_put(&A.ofp, "Root/Nowhere/Kid2", kid2);
    table_put(&A.ofp, "Root/Declined", impl_declined);
    table_put(&A.ofp, "Root/Declined/Under/Deeper", ofp_deeper);
    table_put(&A.ofp, "Root/Unregistered", unreg);
    table_put(&boards, "Root/ByClass", f_class);
    table_put(&boards, "Root/ByDelegate", f_delegate);
    table_put(&boards, "Root/ByImplicit", f_implicit);
    table_put(&boards, "Root/ByBlueprint", by_blueprint);
    table_put(&boards, "Root/Declined", impl_declined);
    add_class(e, "MakeClass", &make_class);
    add_class(e, "KidClass", &kid_class);
    add_class(e, "DeclineClass", &decline_class);
    add_class(e, "UnderClass", &under_class);
    add_factory(e, "Board", &boards);
    r = launch(e);

    /* Step 1 first. */
    /* R10 */ check(find(r, "Root/ByClass").object == by_class && n_class->got == 10,
                    "R10 step 1: ByClass is the object its restoration class made (decoded 10)");
    /* R10 */ check(ev_count("ofp:Root/ByClass") == 0 && ev_count("factory:Root/ByClass") == 0 && n_impl_class->decoded == 0,
                    "R10 step 1 first: the delegate, the implicit object and the factory were not used for ByClass");
    /* R10 */ check(ev_count("make:MakeClass:Root/ByClass") == 1 && make_class.read_value == 10,
                    "R10 step 1's make gets the path (Root/ByClass) and the object's coder (it read 10)");
    /* Step 2. */
    /* R10 */ check(find(r, "Root/ByDelegate").object == by_delegate && n_delegate->got == 11,
                    "R10 step 2: ByDelegate is the object object_for_path gave (decoded 11)");
    /* R10 */ check(n_impl_delegate->decoded == 0 && ev_count("factory:Root/ByDelegate") == 0,
                    "R10 step 2 before 3 and 4: the implicit ByDelegate and the factory were not used");
    /* Step 3. */
    /* R10 */ check(find(r, "Root/ByImplicit").object == by_implicit && n_implicit->got == 12,
                    "R10 step 3: ByImplicit is the host's existing object (decoded 12)");
    /* R10 */ check(ev_first("ofp:Root/ByImplicit") >= 0 && ev_count("factory:Root/ByImplicit") == 0 && n_f_implicit->decoded == 0,
                    "R10 step 3 after 2, before 4: the delegate was asked first (none), the factory not at all");
    /* Step 4. */
    /* R10 */ check(find(r, "Root/ByBlueprint").object == by_blueprint && n_blueprint->got == 13,
                    "R10 step 4: ByBlueprint is the factory's object (decoded 13)");
    /* R10 */ check(ev_first("ofp:Root/ByBlueprint") >= 0 && ev_first("ofp:Root/ByBlueprint") < ev_first("factory:Root/ByBlueprint") &&
                        ev_count("blueprint:Board/ByBlueprint") == 1,
                    "R10 step 4 last: the delegate was asked before the factory, which got Board/ByBlueprint");
    /* Nothing provides Nowhere: its children are looked up on their own. */
    /* R10 */ checkf(outcome_of(r, "Root/Nowhere") == AMBER_OUTCOME_NOT_FOUND && strstr(find(r, "Root/Nowhere").message, "object-for-path") &&
                         strstr(find(r, "Root/Nowhere").message, "no object had this path") &&
                         strstr(find(r, "Root/Nowhere").message, "no blueprint"),
                     "R10/R16 nothing provides Nowhere: AMBER_OUTCOME_NOT_FOUND, the message names each step tried: %s",
                     find(r, "Root/Nowhere").message);
    /* R10 */ check(outcome_of(r, "Root/Nowhere/Kid") == AMBER_OUTCOME_RESTORED && n_kid->got == 15 &&
                        ev_count("make:KidClass:Root/Nowhere/Kid") == 1,
                    "R10 under a not-found object, Kid is still looked up: its restoration class made it");
    /* R10 */ check(outcome_of(r, "Root/Nowhere/Kid2") == AMBER_OUTCOME_RESTORED && n_kid2->got == 16,
                    "R10 under a not-found object, Kid2 is still looked up: the delegate gave it");
    /* A class that says none. */
    /* R10 */ check(outcome_of(r, "Root/Declined") == AMBER_OUTCOME_DECLINED_BY_CLASS && ev_count("make:DeclineClass:Root/Declined") == 1,
                    "R10 DeclineClass's make gave none: Declined is AMBER_OUTCOME_DECLINED_BY_CLASS");
    /* R10 */ check(ev_count("ofp:Root/Declined") == 0 && ev_count("factory:Root/Declined") == 0 && n_impl_declined->decoded == 0,
                    "R10 none means stop looking: no delegate, implicit object or factory for Declined");
    /* R10 */ check(outcome_of(r, "Root/Declined/Under") == AMBER_OUTCOME_LEFT_OUT &&
                        outcome_of(r, "Root/Declined/Under/Deeper") == AMBER_OUTCOME_LEFT_OUT,
                    "R10 nor anything under it: Under and Under/Deeper are AMBER_OUTCOME_LEFT_OUT");
    /* R10 */ check(ev_count("make:UnderClass:Root/Declined/Under") == 0 && ev_count("ofp:Root/Declined/Under/Deeper") == 0 &&
                        n_impl_under->decoded == 0 && n_impl_deeper->decoded == 0 && n_class_under->decoded == 0 && n_ofp_deeper->decoded == 0,
                    "R10 under a declined object nothing is asked: not Under's own class, not the delegate, not the implicit objects");
    /* An unregistered restoration class does not stop the chain. */
    /* R10 */ check(outcome_of(r, "Root/Unregistered") == AMBER_OUTCOME_RESTORED && find(r, "Root/Unregistered").object == unreg &&
                        n_unreg->got == 20,
                    "R10 a restoration class that is not registered: the lookup goes on to the delegate");
    amber_report_format(&text, r);
    /* R10 */ check(text.ptr && strstr(text.ptr, "NoSuchClass") != NULL, "R10 the report's text names the unregistered class NoSuchClass");
    amber_buf_dispose(&text);
    /* Parents first. */
    /* R10 */ check(ev_first("ofp:Root") >= 0 && ev_first("ofp:Root") < ev_first("make:MakeClass:Root/ByClass") &&
                        ev_first("ofp:Root/ByDelegate") < ev_first("make:KidClass:Root/Nowhere/Kid"),
                    "R10 parents are looked up before their children");
    (void)f_class;
    (void)f_delegate;
    (void)n_f_implicit;
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R11 Class check                                                                              */
/* ============================================================================================ */

static void test_r11(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *exact, *sub, *subsub, *wrong, *wrong_child, *wrong_kind, *unrelated;
    node *n_exact, *n_sub, *n_subsub, *n_wrong, *n_wrong_child, *n_wrong_kind, *n_unrelated;
    amber_report_record rec;
    amber_buf text = AMBER_BUF_INIT;

    printf("-- R11 the class check\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    amber_engine_add_root(e, root);
    {
        const char *ids[] = {"Exact", "Sub", "SubSub", "Wrong", "WrongKind", "Unrelated"};
        int i;
        for (i = 0; i < 6; i++) {
            amber_object *o = ctl(e, "ListController", ids[i], nn(ids[i], 50 + i));
            amber_object_add_child(root, o);
            if (i == 3) amber_object_add_child(o, ctl(e, "ChildController", "Child", nn("WrongChild", 60)));
        }
    }
    check(preserve(e) == 1, "R11 preserve");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    check_status(amber_engine_register_subclass(e, "FancyListController", "ListController"), AMBER_OK,
                 "R11 register FancyListController as a subclass of ListController");
    check_status(amber_engine_register_subclass(e, "SuperFancyListController", "FancyListController"), AMBER_OK,
                 "R11 register SuperFancyListController as a subclass of FancyListController");
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    amber_engine_add_root(e, root);
    n_exact = nn("Exact", -1), n_sub = nn("Sub", -1), n_subsub = nn("SubSub", -1), n_wrong = nn("Wrong", -1);
    n_wrong_child = nn("WrongChild", -1), n_wrong_kind = nn("WrongKind", -1), n_unrelated = nn("Unrelated", -1);
    exact = ctl(e, "ListController", "Exact", n_exact);
    sub = ctl(e, "FancyListController", "Sub", n_sub);
    subsub = ctl(e, "SuperFancyListController", "SubSub", n_subsub);
    wrong = ctl(e, "SettingsController", "Wrong", n_wrong);
    wrong_child = ctl(e, "ChildController", "Child", n_wrong_child);
    wrong_kind = mk(e, AMBER_KIND_VIEW, "ListController", NULL, n_wrong_kind);
    unrelated = ctl(e, "ListControllerX", "Unrelated", n_unrelated);
    amber_object_add_child(root, exact);
    amber_object_add_child(root, sub);
    amber_object_add_child(root, subsub);
    amber_object_add_child(root, wrong);
    amber_object_add_child(wrong, wrong_child);
    amber_object_add_child(root, unrelated);
    table_put(&A.ofp, "Root/WrongKind", wrong_kind);
    r = launch(e);
    /* R11 */ check(outcome_of(r, "Root/Exact") == AMBER_OUTCOME_RESTORED && n_exact->got == 50, "R11 the archived class: restored, decoded");
    /* R11 */ check(outcome_of(r, "Root/Sub") == AMBER_OUTCOME_RESTORED && n_sub->got == 51,
                    "R11 a registered subclass is accepted: restored, decoded");
    /* R11 */ check(outcome_of(r, "Root/SubSub") == AMBER_OUTCOME_RESTORED && n_subsub->got == 52,
                    "R11 a subclass of a subclass is accepted");
    rec = find(r, "Root/Wrong");
    /* R11 */ check(rec.outcome == AMBER_OUTCOME_CLASS_MISMATCH && rec.message && strstr(rec.message, "SettingsController") != NULL,
                    "R11 another class: AMBER_OUTCOME_CLASS_MISMATCH, the message names SettingsController");
    /* R11 */ check(n_wrong->decoded == 0 && n_wrong->finished == 0, "R11 its state is not decoded (no decode, no finished_restoring)");
    /* R11 */ check(rec.object == wrong && amber_object_kind(wrong) == AMBER_KIND_CONTROLLER && path_is(wrong, "Root/Wrong"),
                    "R11 the object is kept: the record names it, it is alive and in place");
    /* R11 */ check(outcome_of(r, "Root/Wrong/Child") == AMBER_OUTCOME_RESTORED && n_wrong_child->got == 60,
                    "R11 a child of the mismatched object is restored");
    /* R11 */ check(outcome_of(r, "Root/WrongKind") == AMBER_OUTCOME_CLASS_MISMATCH && n_wrong_kind->decoded == 0 &&
                        find(r, "Root/WrongKind").message[0] != '\0',
                    "R11 the right class name but another kind (a view): class mismatch, not decoded");
    /* R11 */ check(outcome_of(r, "Root/Unrelated") == AMBER_OUTCOME_CLASS_MISMATCH && n_unrelated->decoded == 0,
                    "R11 a class not registered as a subclass (ListControllerX): class mismatch");
    amber_report_format(&text, r);
    /* R11 */ check(text.ptr && strstr(text.ptr, "class mismatch") != NULL, "R11 the report's text says class mismatch");
    amber_buf_dispose(&text);
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R12 Decoding                                                                                 */
/* ============================================================================================ */

typedef struct typed_result {
    const char *what;
    int status;
    int want;
    char message[256];
} typed_result;

static typed_result typed[48];
static int n_typed;
static amber_object *secure_refs[4];

static void note(const char *what, int status, int want) {
    typed_result *t = &typed[n_typed++ % 48];
    t->what = what;
    t->status = status;
    t->want = want;
    snprintf(t->message, sizeof t->message, "%s", status == AMBER_OK ? "" : amber_error_last());
}

static void typed_encode(node *n, amber_coder *c) {
    static const int64_t ip[3] = {1, 2, 3};
    static const uint8_t bytes[3] = {7, 8, 9};
    (void)n;
    amber_coder_encode_string(c, "s", "five");
    amber_coder_encode_bool(c, "b", 1);
    amber_coder_encode_double(c, "d", 2.5);
    coder_encode_date(c, "t", 1000.0);
    amber_coder_encode_bytes(c, "y", bytes, 3);
    coder_encode_index_path(c, "p", ip, 3);
}

static void typed_decode(node *n, amber_decoder *d) {
    int b;
    int64_t i, ip[4];
    double x;
    const char *s;
    const uint8_t *y;
    size_t len;
    amber_object *o;
    const char *allowed_list[1] = {"ListController"}, *allowed_base[1] = {"BaseController"};
    const char *allowed_other[2] = {"SettingsController", "RootController"}, *allowed_unknown[1] = {"NoSuchClass"};
    const char *allowed_bad[1] = {"\xff\xfe"}, *allowed_null[1] = {NULL};
    (void)n;
    n_typed = 0;
    /* Type mismatches. */
    note("decode_int64 of a string", amber_decoder_decode_int64(&i, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_string of an integer", amber_decoder_decode_string(&s, d, "value"), AMBER_TYPE_MISMATCH);
    note("decode_bool of a string", amber_decoder_decode_bool(&b, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_double of a string", amber_decoder_decode_double(&x, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_bytes of an integer", amber_decoder_decode_bytes(&y, &len, d, "value"), AMBER_TYPE_MISMATCH);
    note("decode_date of a string", decoder_decode_date(&x, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_index_path of a string", decoder_decode_index_path(ip, 4, &len, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_object_ref of a string", amber_decoder_decode_object(&o, d, "s", NULL, 0), AMBER_TYPE_MISMATCH);
    note("decode_string of an index path", amber_decoder_decode_string(&s, d, "p"), AMBER_TYPE_MISMATCH);
    /* Missing keys. */
    note("decode_int64 of a missing key", amber_decoder_decode_int64(&i, d, "nope"), AMBER_NOT_FOUND);
    note("decode_string of a missing key", amber_decoder_decode_string(&s, d, "nope"), AMBER_NOT_FOUND);
    note("decode_bool of a missing key", amber_decoder_decode_bool(&b, d, "nope"), AMBER_NOT_FOUND);
    note("decode_bytes of a missing key", amber_decoder_decode_bytes(&y, &len, d, "nope"), AMBER_NOT_FOUND);
    note("decode_object_ref of a missing key", amber_decoder_decode_object(&o, d, "nope", NULL, 0), AMBER_NOT_FOUND);
    /* The right types. */
    x = 0;
    note("decode_double of an integer (converted)", amber_decoder_decode_double(&x, d, "value"), AMBER_OK);
    if (x != 7.0) typed[n_typed - 1].status = -100;
    note("decode_index_path", decoder_decode_index_path(ip, 4, &len, d, "p"), AMBER_OK);
    if (len != 3 || ip[2] != 3) typed[n_typed - 1].status = -100;
    /* Secure decoding (the allowed classes). */
    secure_refs[0] = secure_refs[1] = secure_refs[2] = (amber_object *)n;
    note("secure: list of allowed ListController", amber_decoder_decode_object(&secure_refs[0], d, "list", allowed_list, 1), AMBER_OK);
    note("secure: list of allowed BaseController (a registered superclass)",
         amber_decoder_decode_object(&secure_refs[1], d, "list", allowed_base, 1), AMBER_OK);
    note("secure: list where only SettingsController, RootController are allowed",
         amber_decoder_decode_object(&o, d, "list", allowed_other, 2), AMBER_TYPE_MISMATCH);
    note("secure: list where only an unknown class name is allowed",
         amber_decoder_decode_object(&o, d, "list", allowed_unknown, 1), AMBER_TYPE_MISMATCH);
    note("secure: a NULL reference", amber_decoder_decode_object(&secure_refs[2], d, "none", allowed_list, 1), AMBER_OK);
    note("secure: a string is not a reference", amber_decoder_decode_object(&o, d, "s", allowed_list, 1), AMBER_TYPE_MISMATCH);
    note("secure: a missing key", amber_decoder_decode_object(&o, d, "nope", allowed_list, 1), AMBER_NOT_FOUND);
    note("secure: no classes (NULL)", amber_decoder_decode_object(&o, d, "list", NULL, 1), AMBER_INVALID_ARGUMENT);
    note("secure: no classes (count 0) allows any class", amber_decoder_decode_object(&o, d, "list", allowed_list, 0), AMBER_OK);
    note("secure: a class name of invalid UTF-8", amber_decoder_decode_object(&o, d, "list", allowed_bad, 1), AMBER_INVALID_ARGUMENT);
    note("secure: a NULL class name", amber_decoder_decode_object(&o, d, "list", allowed_null, 1), AMBER_INVALID_ARGUMENT);
}

static void test_r12(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *a, *a1, *b, *c, *list;
    node *n_root, *n_a, *n_a1, *n_b, *n_c, *n_list;
    int i, distinct;

    printf("-- R12 decoding\n");
    reset();
    reset_app();
    A.app_version = "12.0"; /* a string in the application coder: should_restore decodes it as a reference */
    e = open_mem(&ms, NULL, NULL);
    n_root = nn("Root", 7);
    n_root->encode_hook = typed_encode;
    root = ctl(e, "RootController", "Root", n_root);
    a = ctl(e, "C", "A", nn("A", 1));
    a1 = ctl(e, "C", "A1", nn("A1", 2));
    b = ctl(e, "C", "B", nn("B", 3));
    c = ctl(e, "C", "Broken", nn("Broken", 4));
    list = ctl(e, "ListController", "List", nn("List", 5));
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(a, a1);
    amber_object_add_child(root, b);
    amber_object_add_child(root, c);
    amber_object_add_child(root, list);
    node_add_ref(n_root, "list", list);
    node_add_ref(n_root, "none", NULL);
    check(preserve(e) == 1, "R12 preserve");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    amber_engine_register_subclass(e, "ListController", "BaseController");
    n_root = nn("Root", -1), n_a = nn("A", -1), n_a1 = nn("A1", -1), n_b = nn("B", -1), n_c = nn("Broken", -1);
    n_list = nn("List", -1);
    n_root->decode_hook = typed_decode;
    n_c->fail_decode = 77;
    /* Made by the delegate, children before parents, so that creation order is not decode order. */
    a1 = ctl(e, "C", NULL, n_a1);
    b = ctl(e, "C", NULL, n_b);
    a = ctl(e, "C", NULL, n_a);
    c = ctl(e, "C", NULL, n_c);
    list = ctl(e, "ListController", NULL, n_list);
    root = ctl(e, "RootController", NULL, n_root);
    table_put(&A.ofp, "Root", root);
    table_put(&A.ofp, "Root/A", a);
    table_put(&A.ofp, "Root/A/A1", a1);
    table_put(&A.ofp, "Root/B", b);
    table_put(&A.ofp, "Root/Broken", c);
    table_put(&A.ofp, "Root/List", list);
    r = launch(e);
    /* R12 */ check(ev_first_prefix("decode:") > ev_last_prefix("ofp:"), "R12 decoding starts after every object exists (after the last lookup)");
    /* R12 */ check(ev_first("decode:Root") < ev_first("decode:A") && ev_first("decode:A") < ev_first("decode:A1") &&
                        ev_first("decode:Root") < ev_first("decode:B"),
                    "R12 parents decode before children: Root, then A before A1, and B");
    /* R12 */ check(n_root->got == 7 && n_a->got == 1 && n_a1->got == 2 && n_b->got == 3, "R12 each decoded its own value");
    for (i = 0; i < n_typed; i++) {
        char what[256];
        snprintf(what, sizeof what, "R12 %s", typed[i].what);
        /* R12 */ if (typed[i].want == AMBER_OK)
            check_status(typed[i].status, AMBER_OK, what);
        else
            checkf(typed[i].status == typed[i].want && typed[i].message[0] != '\0', "%s -> %s with a message%s%s", what,
                   amber_status_string(typed[i].status), typed[i].status == typed[i].want ? "" : ", expected ",
                   typed[i].status == typed[i].want ? "" : amber_status_string(typed[i].want));
    }
    distinct = AMBER_TYPE_MISMATCH != AMBER_NOT_FOUND && n_typed > 9 && strcmp(typed[0].message, typed[9].message) != 0;
    /* R12 */ check(distinct, "R12 a type mismatch and a missing key are distinct errors with distinct messages");
    /* R12 */ checkf(strstr(typed[18].message, "ListController") != NULL, "R12 secure decoding's refusal names the archived class: %s",
                     typed[18].message);
    /* R12 */ check(secure_refs[0] == list && secure_refs[1] == list && secure_refs[2] == NULL,
                    "R12 secure decoding gives the restored List when its class is allowed, NULL for a NULL reference");
    /* R12 */ checkf(A.app_ref_status == AMBER_TYPE_MISMATCH && A.app_secure_status == AMBER_TYPE_MISMATCH,
                     "R4 R12 the application decoder decodes references too, type-checked: a string (appVersion) is not one "
                     "-> AMBER_TYPE_MISMATCH (got %s, secure %s)",
                     amber_status_string(A.app_ref_status), amber_status_string(A.app_secure_status));
    /* R12 */ check(outcome_of(r, "Root/Broken") == AMBER_OUTCOME_DECODE_ERROR && strstr(find(r, "Root/Broken").message, "77") != NULL,
                    "R12 a decode callback's code 77: AMBER_OUTCOME_DECODE_ERROR, the message names 77");
    /* R12 */ check(outcome_of(r, "Root/List") == AMBER_OUTCOME_RESTORED && n_list->got == 5 && n_c->finished == 0,
                    "R12 restoration goes on after a decode error (List restored); the failed object is not finished");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R13 Finishing                                                                                */
/* ============================================================================================ */

static void nodecode_finished(amber_object *object, void *ctx) {
    (void)object;
    (void)ctx;
    ev("finished:NoDecode");
}

static void test_r13(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *a, *m, *nd;
    node *n_root, *n_a, *n_m;
    amber_object_callbacks cb;

    printf("-- R13 finishing\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    A.app_version = "9.9";
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    amber_object_add_child(root, ctl(e, "C", "A", nn("A", 2)));
    amber_object_add_child(root, ctl(e, "C", "Missing", nn("Missing", 3)));
    amber_object_add_child(root, ctl(e, "C", "Mismatch", nn("Mismatch", 4)));
    amber_object_add_child(root, ctl(e, "C", "NoDecode", nn("NoDecode", 5)));
    check(preserve(e) == 1, "R13 preserve");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n_root = nn("Root", -1), n_a = nn("A", -1), n_m = nn("Mismatch", -1);
    root = ctl(e, "RootController", "Root", n_root);
    a = ctl(e, "C", "A", n_a);
    m = ctl(e, "OtherClass", "Mismatch", n_m);
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.finished_restoring = nodecode_finished; /* no decode callback */
    amber_object_new(&nd, e, AMBER_KIND_CONTROLLER, "C", "NoDecode", &cb, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(root, m);
    amber_object_add_child(root, nd);
    r = launch(e);
    /* R13 */ check(n_root->finished == 1 && n_a->finished == 1 && ev_count("finished:NoDecode") == 1,
                    "R13 finished_restoring once on every restored object (one without a decode callback too)");
    /* R13 */ check(n_m->finished == 0 && outcome_of(r, "Root/Missing") == AMBER_OUTCOME_NOT_FOUND,
                    "R13 not on objects that were not restored (class mismatch, not found)");
    /* R13 */ check(ev_first_prefix("finished:") > ev_last_prefix("decode:"), "R13 finished_restoring runs after every decode callback");
    /* R13 */ check(A.did_decode_calls == 1 && ev_first("did_decode") > ev_last_prefix("finished:") &&
                        ev_first("did_decode") < ev_first("did_finish"),
                    "R13 did_decode last: once, after every finished_restoring (and before did_finish_launching)");
    /* R13 */ checkf(strcmp(A.did_decode_app_version, "9.9") == 0, "R13 did_decode receives the application decoder (appVersion \"%s\")",
                     A.did_decode_app_version);
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R14 Discarding, and the crash loop                                                           */
/* ============================================================================================ */

static int file_exists(const char *dir, const char *name) {
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

static amber_engine *open_dir(const char *dir) {
    amber_engine_options opts;
    amber_engine *e = NULL;
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    if (amber_engine_open(&e, "org.example.rules", &opts) != AMBER_OK) return NULL;
    use_delegate(e);
    return e;
}

static void save_root_dir(const char *dir, int64_t value) {
    amber_engine *e;
    reset_app();
    e = open_dir(dir);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", nn("Root", value)));
    preserve(e);
    amber_engine_close(e);
}

/* How a launch in a child process dies: killed from Root's decode callback, or by SIGKILL once
 * the launch has returned with Root's restoration extended. */
typedef enum { DIES_WHILE_DECODING, DIES_WHILE_EXTENDED } child_death;

/* One launch in a child process on `dir` that dies as `how` says. Returns the signal that ended
 * it, or -exit status (3 or 4 when it did not die where it should). */
static int launch_and_die(const char *dir, child_death how) {
    pid_t pid;
    int st = 0;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        amber_engine *e;
        amber_report *r = NULL;
        node *n;
        reset_app();
        n_tokens = 0;
        e = open_dir(dir);
        n = nn("Root", -1);
        if (how == DIES_WHILE_DECODING) n->kill = 1; else n->extend = 1;
        amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
        cur_engine = e;
        amber_engine_launch(&r, e, AMBER_APP_INACTIVE);
        if (how == DIES_WHILE_EXTENDED && n_tokens == 1 && n->got == 12) raise(SIGKILL);
        _exit(n->decoded ? 3 : 4); /* not reached when it died where it should */
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid) return 0;
    return WIFSIGNALED(st) ? WTERMSIG(st) : -WEXITSTATUS(st);
}

static void test_r14(void) {
    const char *tmp = runner_tmp();
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *n;
    char dir[512], dir2[512];
    int sig1, sig2;

    printf("-- R14 discarding\n");
    reset();
    /* After a restore that succeeded. */
    save_root(&ms, 1);
    check(ms.bytes != NULL, "R14 an archive is saved");
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n = nn("Root", -1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R14 */ check(n->got == 1 && ms.bytes == NULL && ms.guard == 0, "R14 after a successful restore the archive (and launch guard) are gone");
    amber_report_free(r);
    r = launch(e);
    /* R14 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE, "R14 the next launch is fresh: AMBER_FRESH_NO_ARCHIVE");
    amber_report_free(r);
    amber_engine_close(e);

    /* After a restore that failed (every object a decode error). */
    save_root(&ms, 2);
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n = nn("Root", -1);
    n->fail_decode = 5;
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R14 */ check(outcome_of(r, "Root") == AMBER_OUTCOME_DECODE_ERROR && ms.bytes == NULL,
                    "R14 after a failed restore (decode error) the archive is gone too");
    amber_report_free(r);
    amber_engine_close(e);

    /* The host discards on purpose. */
    save_root(&ms, 3);
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    check_status(amber_engine_discard(e), AMBER_OK, "R14 amber_engine_discard");
    /* R14 */ check(ms.bytes == NULL, "R14 the host's discard removed the archive");
    r = launch(e);
    /* R14 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_DISCARDED_BY_HOST && fresh_message_ok(r) && A.should_restore_calls == 0,
                    "R14/R16 the next launch is fresh: AMBER_FRESH_DISCARDED_BY_HOST, with a message");
    amber_report_free(r);
    check_status(amber_engine_discard(e), AMBER_OK, "R14 discarding when there is no archive is not an error");
    amber_engine_close(e);
    ms_clear(&ms);

    /* The crash loop: two launches in a row die while restoring; the third is fresh. */
    snprintf(dir, sizeof dir, "%s/crash", tmp);
    snprintf(dir2, sizeof dir2, "%s/crash-once", tmp);
    save_root_dir(dir, 42);
    check(file_exists(dir, "state.archive"), "R14 crash loop: an archive on disk");
    sig1 = launch_and_die(dir, DIES_WHILE_DECODING);
    /* R14 */ checkf(sig1 == SIGKILL, "R14 launch 1: killed by SIGKILL inside its decode callback (got %d)", sig1);
    /* R14 */ check(file_exists(dir, "state.archive"), "R14 after launch 1 died, the archive is still there");
    sig2 = launch_and_die(dir, DIES_WHILE_DECODING);
    /* R14 */ checkf(sig2 == SIGKILL, "R14 launch 2: restoration tried again and was killed again (got %d)", sig2);
    /* R14 */ check(file_exists(dir, "state.archive"), "R14 after launch 2 died, the archive is still there");
    reset_app();
    e = open_dir(dir);
    n = nn("Root", -1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R14 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_CRASH_LOOP && fresh_message_ok(r),
                    "R14/R16 launch 3 is fresh: AMBER_FRESH_CRASH_LOOP, with a message");
    /* R14 */ check(n->decoded == 0 && A.should_restore_calls == 0, "R14 launch 3 made no third try (nothing asked or decoded)");
    /* R14 */ check(!file_exists(dir, "state.archive"), "R14 launch 3 discarded the archive");
    amber_report_free(r);
    r = launch(e);
    /* R14 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE, "R14 and the launch after is simply fresh (no archive)");
    amber_report_free(r);
    amber_engine_close(e);

    /* One death is not a loop: the next launch restores. */
    save_root_dir(dir2, 43);
    sig1 = launch_and_die(dir2, DIES_WHILE_DECODING);
    reset_app();
    e = open_dir(dir2);
    n = nn("Root", -1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R14 */ check(sig1 == SIGKILL && amber_report_fresh_reason(r) == AMBER_FRESH_NONE && n->got == 43,
                    "R14 after one launch died while restoring, the next one restores (43)");
    /* R14 */ check(!file_exists(dir2, "state.archive") && !file_exists(dir2, "restore.guard"),
                    "R14 and then the archive and the launch guard are gone");
    amber_report_free(r);
    amber_engine_close(e);
}

/* ============================================================================================ */
/* R15 Waiting for data                                                                         */
/* ============================================================================================ */

static void test_r15(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *n_a, *n_b;
    uint64_t t;
    amber_object *root;

    printf("-- R15 waiting for data\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    check_status(amber_engine_extend_restoration(&t, e), AMBER_MISUSE, "R15 extending outside a restoration");
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    amber_object_add_child(root, ctl(e, "C", "A", nn("A", 2)));
    amber_object_add_child(root, ctl(e, "C", "B", nn("B", 3)));
    preserve(e);
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n_a = nn("A", -1);
    n_b = nn("B", -1);
    n_a->extend = 1;
    n_b->extend = 1;
    root = ctl(e, "RootController", "Root", nn("Root", -1));
    amber_engine_add_root(e, root);
    amber_object_add_child(root, ctl(e, "C", "A", n_a));
    amber_object_add_child(root, ctl(e, "C", "B", n_b));
    r = launch(e);
    /* R15 */ check(n_tokens == 2 && amber_report_fresh_reason(r) == AMBER_FRESH_NONE && n_a->got == 2 && n_b->got == 3,
                    "R15 two decode callbacks extend restoration; the objects are restored");
    /* R15 */ check(ms.bytes != NULL, "R15 while extended, the archive is kept");
    /* R15 */ check(fresh_message_ok(r), "R15 the report's message says restoration is extended");
    amber_report_free(r);
    r = launch(e);
    /* R15 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_IN_PROGRESS && fresh_message_ok(r) && ms.bytes != NULL,
                    "R15/R16 a launch while waiting: AMBER_FRESH_IN_PROGRESS, the archive still kept");
    amber_report_free(r);
    check_status(amber_engine_complete_restoration(e, tokens[0]), AMBER_OK, "R15 complete the first extension");
    /* R15 */ check(ms.bytes != NULL, "R15 one extension still pending: the archive is kept");
    check_status(amber_engine_complete_restoration(e, tokens[1]), AMBER_OK, "R15 complete the last extension");
    /* R15 */ check(ms.bytes == NULL && ms.guard == 0, "R15 after the last completion the archive (and launch guard) are gone");
    check_status(amber_engine_complete_restoration(e, tokens[1]), AMBER_NOT_FOUND, "R15 completing a token twice");
    r = launch(e);
    /* R15 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE, "R15 the next launch is fresh: no archive");
    amber_report_free(r);
    amber_engine_close(e);

    /* A new archive saved while waiting is not removed by the completion. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 5));
    amber_engine_add_root(e, root);
    preserve(e);
    amber_engine_close(e);
    reset_app();
    n_tokens = 0;
    e = open_mem(&ms, NULL, NULL);
    n_a = nn("Root", -1);
    n_a->extend = 1;
    n_a->value = 6;
    root = ctl(e, "RootController", "Root", n_a);
    amber_engine_add_root(e, root);
    r = launch(e);
    amber_report_free(r);
    check(n_tokens == 1 && n_a->got == 5 && ms.bytes != NULL, "R15 restored with one extension pending");
    preserve(e); /* the user went on; the state is saved again before the data arrived */
    check_status(amber_engine_complete_restoration(e, tokens[0]), AMBER_OK, "R15 complete it after a new save");
    /* R15 */ check(ms.bytes != NULL, "R15 the archive saved while waiting is kept by the completion");
    amber_engine_close(e);
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n_b = nn("Root", -1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n_b));
    r = launch(e);
    /* R15 */ check(n_b->got == 6, "R15 and the next launch restores the newer state (6)");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R16 The report                                                                               */
/* ============================================================================================ */

static void test_r16(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *o;
    node *n_root, *n_broken, *n_mismatch;
    table decline = {"make:DeclineClass", 0, {0}, {0}, 0};
    amber_report_record rec;
    size_t i, count;
    int seen[7] = {0}, records_ok = 1, messages_ok = 1;
    amber_buf text = AMBER_BUF_INIT;
    static const char *expect_paths[] = {"Root", "Root/Declined", "Root/Declined/Under", "Root/Missing", "Root/Mismatch", "Root/Broken"};
    static const int expect_outcomes[] = {AMBER_OUTCOME_RESTORED, AMBER_OUTCOME_DECLINED_BY_CLASS, AMBER_OUTCOME_LEFT_OUT,
                                          AMBER_OUTCOME_NOT_FOUND, AMBER_OUTCOME_CLASS_MISMATCH, AMBER_OUTCOME_DECODE_ERROR};

    printf("-- R16 the report\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    o = ctl(e, "DeclinedController", "Declined", nn("Declined", 2));
    amber_object_set_restoration_class(o, "DeclineClass");
    amber_object_add_child(root, o);
    amber_object_add_view(o, mk(e, AMBER_KIND_VIEW, "UnderView", "Under", nn("Under", 3)));
    amber_object_add_child(root, ctl(e, "MissingController", "Missing", nn("Missing", 4)));
    amber_object_add_child(root, ctl(e, "MismatchController", "Mismatch", nn("Mismatch", 5)));
    amber_object_add_child(root, ctl(e, "BrokenController", "Broken", nn("Broken", 6)));
    check(preserve(e) == 1, "R16 preserve");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    add_class(e, "DeclineClass", &decline);
    n_root = nn("Root", -1);
    n_mismatch = nn("Mismatch", -1);
    n_broken = nn("Broken", -1);
    n_broken->fail_decode = 55;
    root = ctl(e, "RootController", "Root", n_root);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, ctl(e, "SomethingElse", "Mismatch", n_mismatch));
    amber_object_add_child(root, ctl(e, "BrokenController", "Broken", n_broken));
    r = launch(e);
    count = amber_report_count(r);
    /* R16 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_NONE && count == 6,
                     "R16 restoration ran; one record per archived object: 6 (got %zu)", count);
    for (i = 0; i < count; i++) {
        size_t k;
        char p[256];
        if (amber_report_record_at(&rec, r, i) != AMBER_OK) {
            records_ok = 0;
            continue;
        }
        join_path(p, sizeof p, rec.path, rec.path_length);
        for (k = 0; k < 6; k++) {
            if (strcmp(p, expect_paths[k]) != 0) continue;
            /* R16 */ checkf((int)rec.outcome == expect_outcomes[k], "R16 record %zu /%s (%s): %s%s%s", i, p, rec.class_name,
                             outcome_name(rec.outcome), rec.message[0] ? " — " : "", rec.message);
            if ((int)rec.outcome >= 0 && (int)rec.outcome < 7) seen[rec.outcome] = 1;
        }
        if (rec.outcome == AMBER_OUTCOME_RESTORED ? rec.message[0] != '\0' : rec.message[0] == '\0') messages_ok = 0;
        if (rec.outcome == AMBER_OUTCOME_RESTORED && rec.object == NULL) records_ok = 0;
        if ((rec.outcome == AMBER_OUTCOME_NOT_FOUND || rec.outcome == AMBER_OUTCOME_LEFT_OUT) && rec.object != NULL) records_ok = 0;
    }
    /* R16 */ check(seen[AMBER_OUTCOME_RESTORED] && seen[AMBER_OUTCOME_DECLINED_BY_CLASS] && seen[AMBER_OUTCOME_NOT_FOUND] &&
                        seen[AMBER_OUTCOME_CLASS_MISMATCH] && seen[AMBER_OUTCOME_LEFT_OUT] && seen[AMBER_OUTCOME_DECODE_ERROR],
                    "R16 all six outcomes met: restored, declined by class, not found, class mismatch, left out, decode error");
    /* R16 */ check(messages_ok, "R16 every outcome other than restored has a message; restored has \"\"");
    /* R16 */ check(records_ok, "R16 restored records name their object; not-found and left-out ones none");
    rec = find(r, "Root/Declined/Under");
    /* R16 */ check(rec.kind == AMBER_KIND_VIEW && strcmp(rec.class_name, "UnderView") == 0,
                    "R16 a record gives the archived class and kind (Under: UnderView, view)");
    /* R16 */ check(find(r, "Root/Mismatch").object != NULL && strstr(find(r, "Root/Broken").message, "55") != NULL,
                    "R16 the mismatch names the object kept; the decode error names the callback's code 55");
    /* R16 */ check(strstr(find(r, "Root/Declined").message, "DeclineClass") != NULL &&
                        strstr(find(r, "Root/Missing").message, "nothing provided it") != NULL,
                    "R16 the declined record names its restoration class; the not-found one says nothing provided it");
    check_status(amber_report_record_at(&rec, r, count), AMBER_NOT_FOUND, "R16 record_at past the end");
    check_status(amber_report_record_at(NULL, r, 0), AMBER_INVALID_ARGUMENT, "R16 record_at with out NULL");
    check_status(amber_report_format(&text, r), AMBER_OK, "R16 report_format");
    /* R16 */ check(text.ptr && strstr(text.ptr, "restored") && strstr(text.ptr, "declined by class") && strstr(text.ptr, "not found") &&
                        strstr(text.ptr, "class mismatch") && strstr(text.ptr, "left out") && strstr(text.ptr, "decode error") &&
                        strstr(text.ptr, "/Root/Declined/Under"),
                    "R16 the text has one line per record naming each outcome and path");
    amber_buf_dispose(&text);
    amber_report_free(r);
    /* R16 */ check(amber_report_count(NULL) == 0 && amber_report_fresh_reason(NULL) == -1, "R16 a NULL report: count 0, reason -1");
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R22 Bad arguments at the C ABI (the part issue 3 asks for)                                   */
/* ============================================================================================ */

static int bad_key_status[6], bad_value_status[3];

static void bad_encode_hook(node *n, amber_coder *c) {
    (void)n;
    bad_key_status[0] = amber_coder_encode_int64(c, NULL, 1);
    bad_key_status[1] = amber_coder_encode_int64(c, "\xc3\x28", 1);
    bad_key_status[2] = amber_coder_encode_int64(c, "", 1);
    bad_value_status[0] = amber_coder_encode_string(c, "k1", NULL);
    bad_value_status[1] = amber_coder_encode_string(c, "k2", "\xe2\x82");
    bad_value_status[2] = amber_coder_encode_bytes(c, "k3", NULL, 4);
    bad_key_status[3] = amber_coder_encode_int64(NULL, "k4", 1);
}

static void bad_decode_hook(node *n, amber_decoder *d) {
    int64_t v;
    (void)n;
    bad_key_status[4] = amber_decoder_decode_int64(&v, d, "\xff");
    bad_key_status[5] = amber_decoder_decode_int64(NULL, d, "value");
}

static void test_bad_arguments(void) {
    mem_store ms = {0};
    amber_engine *e, *freed = NULL;
    amber_engine_options opts;
    amber_object *o = NULL, *root;
    amber_report *r = NULL;
    amber_restoration_class rc;
    amber_blueprint_factory bf;
    amber_buf s = AMBER_BUF_INIT;
    uint64_t t;
    node *n;

    printf("-- R22 bad arguments at the C ABI\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    bf = (amber_blueprint_factory)AMBER_BLUEPRINT_FACTORY_INIT;

    /* NULL handles. */
    check_error(amber_engine_preserve(NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 preserve(NULL engine)");
    check_error(amber_engine_launch(&r, NULL, AMBER_APP_INACTIVE), AMBER_INVALID_ARGUMENT, "R22 launch(NULL engine)");
    check_error(amber_engine_discard(NULL), AMBER_INVALID_ARGUMENT, "R22 discard(NULL engine)");
    check_error(amber_engine_extend_restoration(&t, NULL), AMBER_INVALID_ARGUMENT, "R22 extend_restoration(NULL engine)");
    check_error(amber_engine_complete_restoration(NULL, 1), AMBER_INVALID_ARGUMENT, "R22 complete_restoration(NULL engine)");
    check_error(amber_engine_add_root(NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 add_root(NULL engine)");
    check_error(amber_engine_add_root(e, NULL), AMBER_INVALID_ARGUMENT, "R22 add_root(NULL root)");
    check_error(amber_engine_set_delegate(NULL, NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 set_delegate(NULL engine)");
    check_error(amber_engine_register_restoration_class(NULL, "X", &rc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(NULL engine)");
    check_error(amber_engine_register_restoration_class(e, "X", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(NULL class)");
    check_error(amber_engine_register_blueprint_factory(e, "F", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(NULL factory)");
    check_error(amber_engine_register_subclass(NULL, "A", "B"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(NULL engine)");
    check(last_duplicates(NULL) != NULL && last_duplicates(NULL)[0] == '\0' &&
              amber_error_last_code() == AMBER_INVALID_ARGUMENT,
          "R22 last_duplicates(NULL) is \"\" and records AMBER_INVALID_ARGUMENT");
    check_error(amber_object_new(&o, NULL, AMBER_KIND_CONTROLLER, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(NULL engine)");
    check_error(amber_object_set_identifier(NULL, "x"), AMBER_INVALID_ARGUMENT, "R22 set_identifier(NULL object)");
    check_error(amber_object_set_restoration_class(NULL, "x"), AMBER_INVALID_ARGUMENT, "R22 set_restoration_class(NULL object)");
    check_error(amber_object_set_blueprint(NULL, "x"), AMBER_INVALID_ARGUMENT, "R22 set_blueprint(NULL object)");
    check_error(amber_object_set_stack(NULL, 1), AMBER_INVALID_ARGUMENT, "R22 set_stack(NULL object)");
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    check_error(amber_object_add_child(NULL, root), AMBER_INVALID_ARGUMENT, "R22 add_child(NULL parent)");
    check_error(amber_object_add_child(root, NULL), AMBER_INVALID_ARGUMENT, "R22 add_child(NULL child)");
    check_error(amber_object_add_view(root, NULL), AMBER_INVALID_ARGUMENT, "R22 add_view(NULL view)");
    check_error(amber_object_present(NULL, root), AMBER_INVALID_ARGUMENT, "R22 present(NULL presenter)");
    check_error(amber_object_set_restoration_parent(NULL, root), AMBER_INVALID_ARGUMENT, "R22 set_restoration_parent(NULL object)");
    check_error(amber_object_path(&s, NULL), AMBER_INVALID_ARGUMENT, "R22 object_path(NULL object)");
    check(amber_object_identifier(NULL) == NULL && amber_object_context(NULL) == NULL && amber_object_kind(NULL) == -1,
          "R22 getters on a NULL object: NULL, NULL, -1");
    check_error(amber_report_format(&s, NULL), AMBER_INVALID_ARGUMENT, "R22 report_format(NULL report)");
    check_error(amber_engine_load_plugin(NULL, "x.so"), AMBER_INVALID_ARGUMENT, "R22 load_plugin(NULL engine)");

    /* NULL out parameters. */
    check_error(amber_engine_launch(NULL, e, AMBER_APP_INACTIVE), AMBER_INVALID_ARGUMENT, "R22 launch(out NULL)");
    check_error(amber_object_new(NULL, e, AMBER_KIND_CONTROLLER, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(out NULL)");
    check_error(amber_object_path(NULL, root), AMBER_INVALID_ARGUMENT, "R22 object_path(out NULL)");
    check_error(amber_engine_extend_restoration(NULL, e), AMBER_INVALID_ARGUMENT, "R22 extend_restoration(out NULL)");

    /* NULL strings. */
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, NULL, "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(class_name NULL)");
    check_error(amber_engine_register_restoration_class(e, NULL, &rc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(name NULL)");
    check_error(amber_engine_register_blueprint_factory(e, NULL, &bf, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(name NULL)");
    check_error(amber_engine_register_subclass(e, NULL, "B"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(name NULL)");
    check_error(amber_engine_register_subclass(e, "A", NULL), AMBER_INVALID_ARGUMENT, "R22 register_subclass(superclass NULL)");
    check_error(amber_engine_load_plugin(e, NULL), AMBER_INVALID_ARGUMENT, "R22 load_plugin(path NULL)");
    check_error(amber_engine_open(&freed, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 engine_open(app_id NULL)");

    /* Invalid UTF-8. */
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "Bad\xff", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(class_name invalid UTF-8)");
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "C", "\xc0\xaf", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(restoration_id overlong UTF-8)");
    check_error(amber_object_set_identifier(root, "\xed\xa0\x80"), AMBER_INVALID_ARGUMENT, "R22 set_identifier(a UTF-16 surrogate)");
    check_error(amber_object_set_restoration_class(root, "\xfe"), AMBER_INVALID_ARGUMENT, "R22 set_restoration_class(invalid UTF-8)");
    check_error(amber_object_set_blueprint(root, "Main/\x80"), AMBER_INVALID_ARGUMENT, "R22 set_blueprint(invalid UTF-8)");
    check_error(amber_engine_register_restoration_class(e, "\xff", &rc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(name invalid UTF-8)");
    check_error(amber_engine_register_subclass(e, "A", "\xc3"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(truncated UTF-8)");
    check_error(amber_engine_register_blueprint_factory(e, "\xff", &bf, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(name invalid UTF-8)");
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.memory_store = 1;
    opts.bundle_version = "1.\xff";
    check_error(amber_engine_open(&freed, "app", &opts), AMBER_INVALID_ARGUMENT, "R22 engine_open(bundle_version invalid UTF-8)");
    opts.bundle_version = NULL;
    opts.memory_store = 0;
    opts.state_directory = "/tmp/\xff";
    check_error(amber_engine_open(&freed, "app", &opts), AMBER_INVALID_ARGUMENT, "R22 engine_open(state_directory invalid UTF-8)");
    check(amber_object_identifier(root) && strcmp(amber_object_identifier(root), "Root") == 0,
          "R22 a refused set_identifier leaves the identifier as it was");

    /* Unknown class names and kinds. */
    check_error(amber_object_new(&o, e, 3, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 object_new(an unknown kind 3)");
    check_error(amber_object_new(&o, e, -1, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 object_new(kind -1)");
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(an empty class name)");
    check_error(amber_engine_register_subclass(e, "", "B"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(an empty class name)");
    check_error(amber_engine_register_subclass(e, "Same", "Same"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(a class of itself)");
    check_error(amber_engine_register_blueprint_factory(e, "A/B", &bf, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(a name with '/')");
    check_error(amber_engine_load_plugin(e, "/nonexistent/libnothing.so"), AMBER_NOT_FOUND, "R22 load_plugin(a library that does not exist)");
    /* (An unregistered restoration class name at restore: R10; an unknown class in secure decoding: R12.) */

    /* Coders and decoders given bad arguments inside their callbacks. */
    n = (node *)amber_object_context(root);
    n->encode_hook = bad_encode_hook;
    amber_engine_add_root(e, root);
    check(preserve(e) == 1, "R22 preserve (bad coder calls fail one by one, the preservation does not)");
    check_status(bad_key_status[0], AMBER_INVALID_ARGUMENT, "R22 encode with key NULL");
    check_status(bad_key_status[1], AMBER_INVALID_ARGUMENT, "R22 encode with a key of invalid UTF-8");
    check_status(bad_key_status[2], AMBER_INVALID_ARGUMENT, "R22 encode with an empty key");
    check_status(bad_key_status[3], AMBER_INVALID_ARGUMENT, "R22 encode into a NULL coder");
    check_status(bad_value_status[0], AMBER_INVALID_ARGUMENT, "R22 encode_string with value NULL");
    check_status(bad_value_status[1], AMBER_INVALID_ARGUMENT, "R22 encode_string with a value of truncated UTF-8");
    check_status(bad_value_status[2], AMBER_INVALID_ARGUMENT, "R22 encode_bytes with bytes NULL and size 4");
    n->decode_hook = bad_decode_hook;
    r = launch(e);
    check_status(bad_key_status[4], AMBER_INVALID_ARGUMENT, "R22 decode with a key of invalid UTF-8");
    check_status(bad_key_status[5], AMBER_INVALID_ARGUMENT, "R22 decode with out NULL");
    check(n->got == 1 && outcome_of(r, "Root") == AMBER_OUTCOME_RESTORED, "R22 the object still restored (1)");
    amber_report_free(r);

    /* A freed engine handle used again. */
    amber_engine_close(e);
    check_error(amber_engine_preserve(NULL, e), AMBER_MISUSE, "R22 preserve on a closed engine");
    check_error(amber_engine_launch(&r, e, AMBER_APP_INACTIVE), AMBER_MISUSE, "R22 launch on a closed engine");
    check_error(amber_engine_discard(e), AMBER_MISUSE, "R22 discard on a closed engine");
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "C", "x", NULL, NULL, NULL), AMBER_MISUSE,
                "R22 object_new on a closed engine");
    check(amber_error_last() != NULL, "R22 amber_error_last() never returns NULL");
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R1 Presenting: a controller that presents one must dismiss it first                           */
/* ============================================================================================ */

static void test_present(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_object *root, *first, *second;
    const char *msg;
    int rc;

    printf("-- R1 presenting refuses a replacement\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    first = ctl(e, "FirstModalController", "FirstModal", nn("FirstModal", 2));
    second = ctl(e, "SecondModalController", "SecondModal", nn("SecondModal", 3));
    amber_engine_add_root(e, root);
    check_status(amber_object_present(root, first), AMBER_OK, "R1 Root presents FirstModal");
    amber_error_clear();
    rc = amber_object_present(root, second);
    msg = amber_error_last();
    /* R1 */ check_error(rc, AMBER_MISUSE, "R1 presenting SecondModal from Root, which presents FirstModal already");
    /* R1 */ checkf(strstr(msg, "Root") != NULL && strstr(msg, "FirstModal") != NULL,
                    "R1 the refusal's message names both the presenter and the controller it presents: %s", msg);
    /* R1 */ check(path_is(first, "Root/FirstModal") && path_is(second, "SecondModal"),
                   "R1 nothing changes: FirstModal is still presented (Root/FirstModal), SecondModal is not (SecondModal)");
    check(preserve(e) == 1, "R1 preserve");
    /* R1 */ check(pool[1].encoded == 1 && pool[2].encoded == 0, "R1 the preservation sees FirstModal presented, not SecondModal");
    /* R1 */ check_status(amber_object_present(root, first), AMBER_OK, "R1 presenting the same controller again does nothing");
    /* R1 */ check(path_is(first, "Root/FirstModal"), "R1 ... and FirstModal is still presented");
    check_status(amber_object_present(root, NULL), AMBER_OK, "R1 dismiss (present NULL)");
    /* R1 */ check_status(amber_object_present(root, second), AMBER_OK, "R1 once dismissed, Root presents SecondModal");
    /* R1 */ check(path_is(second, "Root/SecondModal") && path_is(first, "FirstModal"),
                   "R1 SecondModal is presented (Root/SecondModal), FirstModal no longer (FirstModal)");
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R3 Identifiers as set: A, A and A#1 in one stack                                              */
/* ============================================================================================ */

#define R3_ITEMS 3
static struct {
    char id[16];
    size_t position;
    int kind, record_status;
    char class_name[48];
    amber_object *made;
} r3_made[8];
static int r3_n_made;

/* The restoration class ItemClass: the object's identifier is the path's last component, its
 * class the archived one (read with amber_decoder_record). */
static int r3_item_make(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                        amber_decoder *decoder, void *ctx) {
    amber_record_info info;
    char p[256];
    (void)ctx;
    *out = NULL;
    join_path(p, sizeof p, path, path_length);
    ev("make:ItemClass:%s", p);
    if (r3_n_made >= 8 || path_length == 0) return AMBER_OK;
    memset(&info, 0, sizeof info);
    r3_made[r3_n_made].record_status = amber_decoder_record(&info, decoder);
    snprintf(r3_made[r3_n_made].id, sizeof r3_made[0].id, "%s", path[path_length - 1]);
    snprintf(r3_made[r3_n_made].class_name, sizeof r3_made[0].class_name, "%s", info.class_name ? info.class_name : "");
    r3_made[r3_n_made].position = info.position;
    r3_made[r3_n_made].kind = info.kind;
    *out = ctl(engine, info.class_name ? info.class_name : "ItemController", path[path_length - 1], nn(path[path_length - 1], -1));
    r3_made[r3_n_made].made = *out;
    r3_n_made++;
    return AMBER_OK;
}

/* The entry of a path at a stack position in a preservation report (R28), or left_out -1. */
static amber_preservation_entry entry_at_path(const amber_preservation *p, const char *path, size_t position) {
    amber_preservation_entry entry;
    size_t i;
    char joined[256];
    for (i = 0; i < amber_preservation_count(p); i++) {
        if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK) continue;
        join_path(joined, sizeof joined, entry.path, entry.path_length);
        if (strcmp(joined, path) == 0 && entry.position == position) return entry;
    }
    memset(&entry, 0, sizeof entry);
    entry.left_out = -1;
    entry.message = entry.class_name = "";
    return entry;
}

/* The index of the entry of class `class_name` in a preservation report, or -1. */
static long entry_of_class(const amber_preservation *p, const char *class_name, amber_preservation_entry *out) {
    size_t i;
    for (i = 0; i < amber_preservation_count(p); i++) {
        if (amber_preservation_entry_at(out, p, i) != AMBER_OK) continue;
        if (strcmp(out->class_name, class_name) == 0) return (long)i;
    }
    memset(out, 0, sizeof *out);
    out->left_out = -1;
    out->message = out->class_name = "";
    return -1;
}

static void test_r3_identifiers(void) {
    static const char *const ids[R3_ITEMS] = {"A", "A", "A#1"};
    static const size_t positions[R3_ITEMS] = {0, 1, 0};
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_preservation *p = NULL;
    amber_restoration_class rc;
    amber_object *nav, *items[R3_ITEMS];
    node *nodes[R3_ITEMS];
    int i, ok;

    printf("-- R3 identifiers as set: A, A and A#1 in one stack\n");
    reset();
    reset_app();
    r3_n_made = 0;
    memset(r3_made, 0, sizeof r3_made);
    e = open_mem(&ms, NULL, NULL);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", 0));
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, nav);
    for (i = 0; i < R3_ITEMS; i++) {
        nodes[i] = nn(ids[i], i + 1);
        items[i] = ctl(e, "ItemController", ids[i], nodes[i]);
        amber_object_set_restoration_class(items[i], "ItemClass");
        amber_object_add_child(nav, items[i]);
    }
    /* R3 */ check(path_is(items[0], "Nav/A") && path_is(items[1], "Nav/A[1]") && path_is(items[2], "Nav/A#1"),
                   "R3 the paths are the identifiers as set, with their positions: Nav/A, Nav/A[1], Nav/A#1");
    check(preserve(e) == 1, "R3 preserve A, A, A#1");
    /* R3 */ check(nodes[0]->encoded == 1 && nodes[1]->encoded == 1 && nodes[2]->encoded == 1 &&
                       last_duplicates(e)[0] == '\0',
                   "R3 all three are preserved, none is a duplicate (A#1 does not collide with the second A)");
    amber_engine_preservation(&p, e);
    ok = amber_preservation_count(p) == 4;
    for (i = 0; i < R3_ITEMS; i++) {
        amber_preservation_entry en = entry_at_path(p, i == 2 ? "Nav/A#1" : "Nav/A", positions[i]);
        ok = ok && en.left_out == AMBER_LEFT_OUT_NONE && en.size > 0;
    }
    /* R3 */ check(ok, "R3 R28 the preservation report: Nav/A at 0, Nav/A at 1, Nav/A#1 at 0, each preserved");
    amber_preservation_free(p);
    amber_engine_close(e);

    /* The next launch: the host makes the stack; ItemClass makes each item from its path. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", -1));
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, nav);
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = r3_item_make;
    amber_engine_register_restoration_class(e, "ItemClass", &rc, NULL, NULL);
    r = launch(e);
    /* R3 */ checkf(r3_n_made == 3 && strcmp(r3_made[0].id, "A") == 0 && strcmp(r3_made[1].id, "A") == 0 &&
                        strcmp(r3_made[2].id, "A#1") == 0,
                    "R3 the restoration class is asked for Nav/A, Nav/A, Nav/A#1, in order (%d asks)", r3_n_made);
    /* R3 */ checkf(r3_made[0].record_status == AMBER_OK && r3_made[0].position == 0 && r3_made[1].position == 1 &&
                        r3_made[2].position == 0 && r3_made[2].kind == AMBER_KIND_CONTROLLER &&
                        strcmp(r3_made[2].class_name, "ItemController") == 0,
                    "R3 R10 its make reads the positions with amber_decoder_record: 0, 1, 0 (got %zu, %zu, %zu)",
                    r3_made[0].position, r3_made[1].position, r3_made[2].position);
    ok = r3_n_made == 3;
    for (i = 0; ok && i < R3_ITEMS; i++) {
        node *n = amber_object_context(r3_made[i].made);
        const char *id = amber_object_identifier(r3_made[i].made);
        ok = n && id && strcmp(id, ids[i]) == 0 && n->got == i + 1 && n->record_status == AMBER_OK &&
             n->record_position == positions[i] && path_is(r3_made[i].made, i == 2 ? "Nav/A#1" : i == 1 ? "Nav/A[1]" : "Nav/A");
    }
    /* R3 */ check(ok, "R3 all three restore, each with its own identifier (A, A, A#1), its own state (1, 2, 3) and its place in Nav");
    /* R3 */ check(find_at(r, "Nav/A", 0).object == r3_made[0].made && find_at(r, "Nav/A", 1).object == r3_made[1].made &&
                       find_at(r, "Nav/A#1", 0).object == r3_made[2].made && find_at(r, "Nav/A", 1).outcome == AMBER_OUTCOME_RESTORED &&
                       find_at(r, "Nav/A#1", 0).outcome == AMBER_OUTCOME_RESTORED && amber_report_count(r) == 4,
                   "R3 R16 the report's records: Nav/A at position 0 and 1, Nav/A#1 at position 0, all restored");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R4 The seeds' case: the children of an excluded navigation controller, by reference           */
/* ============================================================================================ */

#define SEEDS 3
static const char *const seed_ids[SEEDS] = {"list", "detail", "edit"};
static amber_object *seed_targets[SEEDS], *seed_nav;
static int seed_ref_status[SEEDS];
static amber_object *seed_got[SEEDS];
static int seed_got_status[SEEDS], seed_push_status[SEEDS], seed_decoded_before_push[SEEDS];

/* will_encode: the app delegate encodes references to the three children of the navigation
 * controller that has no identifier. */
static void seeds_will_encode(amber_coder *c) {
    int i;
    for (i = 0; i < SEEDS; i++) seed_ref_status[i] = amber_coder_encode_object(c, seed_ids[i], seed_targets[i]);
}

/* did_decode: it decodes them from the application decoder and pushes them back, in order. */
static void seeds_did_decode(amber_decoder *d) {
    int i;
    for (i = 0; i < SEEDS; i++) {
        seed_got[i] = NULL;
        seed_got_status[i] = amber_decoder_decode_object(&seed_got[i], d, seed_ids[i], NULL, 0);
        seed_push_status[i] = -1;
        if (seed_got_status[i] == AMBER_OK && seed_got[i]) {
            node *n = amber_object_context(seed_got[i]);
            seed_decoded_before_push[i] = n && n->decoded == 1;
            seed_push_status[i] = amber_object_add_child(seed_nav, seed_got[i]);
        }
    }
}

static void test_r4_seeds(void) {
    static const char *const classes[SEEDS] = {"ListController", "DetailController", "EditController"};
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_preservation *p = NULL;
    amber_preservation_entry en;
    amber_object *window, *nav, *made[SEEDS];
    node *nodes[SEEDS], *nav_n;
    long order[SEEDS];
    int i, ok;
    char path[64];

    printf("-- R4 the seeds' case: references to the children of an excluded navigation controller\n");
    reset();
    reset_app();
    memset(seed_targets, 0, sizeof seed_targets);
    e = open_mem(&ms, NULL, NULL);
    window = ctl(e, "Window", "Window", nn("Window", 1));
    nav_n = nn("Nav", 0);
    nav = ctl(e, "UINavigationController", NULL, nav_n); /* no identifier: the walk leaves it out */
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, window);
    amber_object_add_child(window, nav);
    for (i = 0; i < SEEDS; i++) {
        nodes[i] = nn(seed_ids[i], 10 * (i + 1));
        seed_targets[i] = ctl(e, classes[i], seed_ids[i], nodes[i]);
        amber_object_add_child(nav, seed_targets[i]);
    }
    A.will_encode_hook = seeds_will_encode;
    check(preserve(e) == 1, "R4 preserve, will_encode encoding references to list, detail and edit");
    /* R4 */ check(seed_ref_status[0] == AMBER_OK && seed_ref_status[1] == AMBER_OK && seed_ref_status[2] == AMBER_OK,
                   "R4 the application coder (will_encode) encodes the three references");
    /* R4 */ check(nodes[0]->encoded == 1 && nodes[1]->encoded == 1 && nodes[2]->encoded == 1 && nav_n->encoded == 0,
                   "R4 list, detail and edit are preserved with their state; the navigation controller is not");
    amber_engine_preservation(&p, e);
    ok = 1;
    for (i = 0; i < SEEDS; i++) {
        snprintf(path, sizeof path, "Window/%s", seed_ids[i]);
        en = entry_at_path(p, path, 0);
        ok = ok && en.left_out == AMBER_LEFT_OUT_NONE && en.size > 0 && strcmp(en.class_name, classes[i]) == 0;
    }
    /* R4 */ check(ok, "R4 R28 their paths skip the ancestor without identifier: Window/list, Window/detail, Window/edit preserved");
    /* R4 */ check(entry_of_class(p, "UINavigationController", &en) >= 0 && en.left_out == AMBER_LEFT_OUT_NO_IDENTIFIER,
                   "R4 R28 the navigation controller is reported left out: no restoration identifier");
    amber_preservation_free(p);
    amber_engine_close(e);

    /* The next launch: the default set-up makes the window and the navigation controller; the
     * delegate makes the three screens; did_decode pushes them back. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    window = ctl(e, "Window", "Window", nn("Window", -1));
    seed_nav = ctl(e, "UINavigationController", NULL, nn("Nav", -1));
    amber_object_set_stack(seed_nav, 1);
    amber_engine_add_root(e, window);
    amber_object_add_child(window, seed_nav);
    for (i = 0; i < SEEDS; i++) {
        nodes[i] = nn(seed_ids[i], -1);
        made[i] = ctl(e, classes[i], NULL, nodes[i]);
    }
    table_put(&A.ofp, "Window/list", made[0]);
    table_put(&A.ofp, "Window/detail", made[1]);
    table_put(&A.ofp, "Window/edit", made[2]);
    A.did_decode_hook = seeds_did_decode;
    r = launch(e);
    /* R4 */ check(ev_count("ofp:Window/list") == 1 && ev_count("ofp:Window/detail") == 1 && ev_count("ofp:Window/edit") == 1 &&
                       outcome_of(r, "Window/list") == AMBER_OUTCOME_RESTORED && outcome_of(r, "Window/detail") == AMBER_OUTCOME_RESTORED &&
                       outcome_of(r, "Window/edit") == AMBER_OUTCOME_RESTORED,
                   "R4 R10 the next launch restores Window/list, Window/detail, Window/edit through object_for_path");
    /* R4 */ checkf(seed_got_status[0] == AMBER_OK && seed_got_status[1] == AMBER_OK && seed_got_status[2] == AMBER_OK &&
                        seed_got[0] == made[0] && seed_got[1] == made[1] && seed_got[2] == made[2],
                    "R4 R13 did_decode decodes the three references from the application decoder: the restored objects (%s, %s, %s)",
                    amber_status_string(seed_got_status[0]), amber_status_string(seed_got_status[1]),
                    amber_status_string(seed_got_status[2]));
    /* R4 */ check(seed_push_status[0] == AMBER_OK && seed_push_status[1] == AMBER_OK && seed_push_status[2] == AMBER_OK,
                   "R4 did_decode pushes them back onto the navigation controller (amber_object_add_child)");
    /* R4 */ check(nodes[0]->got == 10 && nodes[1]->got == 20 && nodes[2]->got == 30 && seed_decoded_before_push[0] &&
                       seed_decoded_before_push[1] && seed_decoded_before_push[2],
                   "R4 R12 each decoded its own state (10, 20, 30) before did_decode");
    amber_report_free(r);
    /* In order: give the navigation controller an identifier, and the next walk meets them in it. */
    amber_object_set_identifier(seed_nav, "Nav");
    A.did_decode_hook = NULL;
    check(preserve(e) == 1, "R4 preserve the restored interface, the navigation controller now named Nav");
    amber_engine_preservation(&p, e);
    for (i = 0; i < SEEDS; i++) {
        size_t k;
        order[i] = -1;
        snprintf(path, sizeof path, "Window/Nav/%s", seed_ids[i]);
        for (k = 0; k < amber_preservation_count(p); k++) {
            char joined[256];
            if (amber_preservation_entry_at(&en, p, k) != AMBER_OK) continue;
            join_path(joined, sizeof joined, en.path, en.path_length);
            if (strcmp(joined, path) == 0 && en.left_out == AMBER_LEFT_OUT_NONE) order[i] = (long)k;
        }
    }
    /* R4 */ checkf(order[0] >= 0 && order[0] < order[1] && order[1] < order[2],
                    "R4 they were pushed in order: the walk meets Window/Nav/list, /detail, /edit (entries %ld, %ld, %ld)",
                    order[0], order[1], order[2]);
    amber_preservation_free(p);
    amber_engine_close(e);
    ms_clear(&ms);

    /* A referenced object whose path (its ancestors without identifier skipped) is taken. */
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    {
        node *root_n = nn("Root", 1), *x_n = nn("X", 2), *inner_n = nn("InnerX", 3);
        amber_object *root = ctl(e, "RootController", "Root", root_n), *box = ctl(e, "BoxController", NULL, nn("Box", 0));
        amber_object *inner = ctl(e, "InnerXController", "X", inner_n);
        amber_engine_add_root(e, root);
        amber_object_add_child(root, ctl(e, "XController", "X", x_n));
        amber_object_add_child(root, box);
        amber_object_add_child(box, inner);
        node_add_ref(root_n, "inner", inner);
        check(preserve(e) == 1, "R4 preserve Root/X, and a reference to Root/(Box)/X");
        /* R4 */ checkf(root_n->ref_status[0] == AMBER_DUPLICATE && x_n->encoded == 1 && inner_n->encoded == 0,
                        "R3 R4 the reference to an object whose path (Root/X) another preserved object has is AMBER_DUPLICATE "
                        "(got %s); it is not preserved",
                        amber_status_string(root_n->ref_status[0]));
        amber_engine_preservation(&p, e);
        entry_of_class(p, "InnerXController", &en);
        /* R4 */ checkf(en.left_out == AMBER_LEFT_OUT_DUPLICATE_PATH && en.message && strstr(en.message, "/Root/X (XController)") != NULL,
                        "R3 R28 the report: the referenced one left out as a duplicate, naming the one kept: %s", en.message);
        amber_preservation_free(p);
    }
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R10 The delegate is asked for controllers only; lookup callbacks read the record              */
/* ============================================================================================ */

typedef struct seen_record {
    char path[96];
    int status, kind;
    char class_name[48], blueprint[48];
    size_t position;
} seen_record;

static seen_record r10_ofp_seen[16], r10_class_seen[4], r10_factory_seen[8];
static int r10_n_ofp, r10_n_class, r10_n_factory;
static amber_object *r10_field, *r10_photo;
static amber_decoder *r10_escaped;
static int r10_app_record_status, r10_null_record_status;

static void note_record(seen_record *s, const char *path, amber_decoder *d) {
    amber_record_info info;
    memset(&info, 0, sizeof info);
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->status = amber_decoder_record(&info, d);
    s->kind = info.kind;
    s->position = info.position;
    snprintf(s->class_name, sizeof s->class_name, "%s", info.class_name ? info.class_name : "(null)");
    snprintf(s->blueprint, sizeof s->blueprint, "%s", info.blueprint ? info.blueprint : "(null)");
}

static const seen_record *seen_for(const seen_record *seen, int n, const char *path) {
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(seen[i].path, path) == 0) return &seen[i];
    return NULL;
}

/* A delegate that makes a controller for every path it is asked, of the archived class (read
 * with amber_decoder_record), unless the record names a blueprint (then the factory makes it).
 * Detail makes its view Field while it is made, as loadView would. */
static int every_path_ofp(amber_object **out, amber_engine *e, const char *path, amber_decoder *d) {
    seen_record *s;
    const char *last = strrchr(path, '/');
    *out = NULL;
    if (r10_n_ofp >= 16) return AMBER_OK;
    s = &r10_ofp_seen[r10_n_ofp++];
    note_record(s, path, d);
    r10_escaped = d;
    if (s->status != AMBER_OK || strcmp(s->blueprint, "(null)") != 0) return AMBER_OK;
    last = last ? last + 1 : path;
    *out = ctl(e, s->class_name, NULL, nn(last, -1));
    if (strcmp(last, "Detail") == 0 && *out) {
        r10_field = mk(e, AMBER_KIND_VIEW, "FieldView", "Field", nn("Field", -1));
        amber_object_add_view(*out, r10_field);
    }
    return AMBER_OK;
}

static int r10_classy_make(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                           amber_decoder *decoder, void *ctx) {
    char p[256];
    (void)ctx;
    join_path(p, sizeof p, path, path_length);
    ev("make:ClassyClass:%s", p);
    if (r10_n_class < 4) note_record(&r10_class_seen[r10_n_class++], p, decoder);
    *out = ctl(engine, "ClassyController", NULL, nn("Classy", -1));
    return AMBER_OK;
}

static int r10_board_make(amber_object **out, amber_engine *engine, const char *blueprint_id, const char *const *path,
                          size_t path_length, amber_decoder *decoder, void *ctx) {
    char p[256];
    seen_record *s;
    (void)ctx;
    (void)blueprint_id;
    *out = NULL;
    join_path(p, sizeof p, path, path_length);
    ev("factory:%s", p);
    if (r10_n_factory >= 8) return AMBER_OK;
    s = &r10_factory_seen[r10_n_factory++];
    note_record(s, p, decoder);
    if (s->status != AMBER_OK) return AMBER_OK;
    *out = mk(engine, s->kind, s->class_name, NULL, nn(path[path_length - 1], -1));
    if (s->kind == AMBER_KIND_VIEW) r10_photo = *out;
    return AMBER_OK;
}

static void r10_should_restore(amber_decoder *d) {
    amber_record_info info;
    r10_app_record_status = amber_decoder_record(&info, d);
    r10_null_record_status = amber_decoder_record(NULL, d);
}

static void test_r10_record_info(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *detail, *o;
    amber_restoration_class rc;
    amber_blueprint_factory bf;
    amber_record_info info;
    const seen_record *s;
    node *n;
    int i, all_controllers;

    printf("-- R10 the delegate is asked for controllers only; lookup callbacks read the record\n");
    reset();
    reset_app();
    r10_n_ofp = r10_n_class = r10_n_factory = 0;
    r10_field = r10_photo = NULL;
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    detail = ctl(e, "DetailController", "Detail", nn("Detail", 2));
    amber_object_add_child(root, detail);
    amber_object_add_view(detail, mk(e, AMBER_KIND_VIEW, "FieldView", "Field", nn("Field", 3)));
    o = mk(e, AMBER_KIND_VIEW, "PhotoView", "Photo", nn("Photo", 4));
    amber_object_set_blueprint(o, "Board/Photo");
    amber_object_add_view(detail, o);
    o = ctl(e, "ClassyController", "Classy", nn("Classy", 5));
    amber_object_set_restoration_class(o, "ClassyClass");
    amber_object_set_blueprint(o, "Board/Classy");
    amber_object_add_child(root, o);
    o = ctl(e, "BoardedController", "Boarded", nn("Boarded", 6));
    amber_object_set_blueprint(o, "Board/Boarded");
    amber_object_add_child(root, o);
    amber_object_add_view(root, mk(e, AMBER_KIND_VIEW, "BannerView", "Banner", nn("Banner", 7)));
    check(preserve(e) == 1, "R10 preserve Root, Detail with views Field and Photo, Classy, Boarded, Root's view Banner");
    amber_engine_close(e);

    /* The next launch builds nothing: the delegate makes a controller for every path it is asked. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    A.ofp_hook = every_path_ofp;
    A.should_restore_hook = r10_should_restore;
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = r10_classy_make;
    amber_engine_register_restoration_class(e, "ClassyClass", &rc, NULL, NULL);
    bf = (amber_blueprint_factory)AMBER_BLUEPRINT_FACTORY_INIT;
    bf.make = r10_board_make;
    amber_engine_register_blueprint_factory(e, "Board", &bf, NULL, NULL);
    r = launch(e);
    all_controllers = r10_n_ofp > 0;
    for (i = 0; i < r10_n_ofp; i++) all_controllers = all_controllers && r10_ofp_seen[i].status == AMBER_OK &&
                                                      r10_ofp_seen[i].kind == AMBER_KIND_CONTROLLER;
    /* R10 */ checkf(r10_n_ofp == 3 && ev_count("ofp:Root") == 1 && ev_count("ofp:Root/Detail") == 1 && ev_count("ofp:Root/Boarded") == 1,
                     "R10 object_for_path is asked for the controllers without restoration class: Root, Root/Detail, Root/Boarded (%d asks)",
                     r10_n_ofp);
    /* R10 */ check(ev_count("ofp:Root/Detail/Field") == 0 && ev_count("ofp:Root/Detail/Photo") == 0 && ev_count("ofp:Root/Banner") == 0 &&
                        all_controllers,
                    "R10 a delegate that makes a controller for every path never sees a view's path (amber_decoder_record: controller each time)");
    s = seen_for(r10_ofp_seen, r10_n_ofp, "Root/Detail");
    /* R10 */ check(s && strcmp(s->class_name, "DetailController") == 0 && strcmp(s->blueprint, "(null)") == 0 && s->position == 0,
                    "R10 object_for_path reads the record of Root/Detail: controller, class DetailController, no blueprint");
    s = seen_for(r10_ofp_seen, r10_n_ofp, "Root/Boarded");
    /* R10 */ check(s && strcmp(s->class_name, "BoardedController") == 0 && strcmp(s->blueprint, "Board/Boarded") == 0,
                    "R10 object_for_path reads the record of Root/Boarded: class BoardedController, blueprint Board/Boarded (so it leaves it to the factory)");
    /* R10 */ check(find(r, "Root/Detail/Field").outcome == AMBER_OUTCOME_RESTORED && r10_field &&
                        find(r, "Root/Detail/Field").object == r10_field && path_is(r10_field, "Root/Detail/Field") &&
                        ((node *)amber_object_context(r10_field))->got == 3,
                    "R10 the view Field is restored: Detail made it while being made, and it is found among Detail's views (decoded 3)");
    n = r10_field ? amber_object_context(r10_field) : NULL;
    /* R10 */ check(n && n->record_status == AMBER_OK && n->record_kind == AMBER_KIND_VIEW && strcmp(n->record_class, "FieldView") == 0,
                    "R10 a decode callback reads its record too: view, FieldView");
    s = seen_for(r10_factory_seen, r10_n_factory, "Root/Detail/Photo");
    /* R10 */ check(s && s->status == AMBER_OK && s->kind == AMBER_KIND_VIEW && strcmp(s->class_name, "PhotoView") == 0 &&
                        strcmp(s->blueprint, "Board/Photo") == 0,
                    "R10 the blueprint factory reads the record of Root/Detail/Photo: view, class PhotoView, blueprint Board/Photo");
    /* R10 */ check(find(r, "Root/Detail/Photo").outcome == AMBER_OUTCOME_RESTORED && r10_photo &&
                        find(r, "Root/Detail/Photo").object == r10_photo && ((node *)amber_object_context(r10_photo))->got == 4 &&
                        path_is(r10_photo, "Root/Detail/Photo"),
                    "R10 the factory's view is restored and placed in Detail (decoded 4)");
    s = seen_for(r10_factory_seen, r10_n_factory, "Root/Boarded");
    /* R10 */ check(s && s->kind == AMBER_KIND_CONTROLLER && strcmp(s->class_name, "BoardedController") == 0 &&
                        strcmp(s->blueprint, "Board/Boarded") == 0 && outcome_of(r, "Root/Boarded") == AMBER_OUTCOME_RESTORED,
                    "R10 the blueprint factory reads the record of Root/Boarded: controller, BoardedController, Board/Boarded; restored");
    s = seen_for(r10_class_seen, r10_n_class, "Root/Classy");
    /* R10 */ check(s && s->status == AMBER_OK && s->kind == AMBER_KIND_CONTROLLER && strcmp(s->class_name, "ClassyController") == 0 &&
                        strcmp(s->blueprint, "Board/Classy") == 0 && ev_count("ofp:Root/Classy") == 0 &&
                        outcome_of(r, "Root/Classy") == AMBER_OUTCOME_RESTORED,
                    "R10 the restoration class reads the record of Root/Classy: controller, ClassyController, Board/Classy");
    /* R10 */ checkf(outcome_of(r, "Root/Banner") == AMBER_OUTCOME_NOT_FOUND && strstr(find(r, "Root/Banner").message, "Banner") != NULL,
                     "R10 R16 a view nothing made is not found, and the delegate was not asked for it: %s", find(r, "Root/Banner").message);
    /* R10 */ check(r10_app_record_status == AMBER_INVALID_ARGUMENT && r10_null_record_status == AMBER_INVALID_ARGUMENT,
                    "R10 amber_decoder_record on the application decoder, or with out NULL: AMBER_INVALID_ARGUMENT");
    /* R10 */ check_status(amber_decoder_record(&info, r10_escaped), AMBER_MISUSE, "R10 amber_decoder_record outside its callback");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R10 Nothing under a declined object is looked up, also by reference through a duplicate      */
/* ============================================================================================ */

static void test_r10_declined_by_reference(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_preservation *p = NULL;
    amber_preservation_entry en;
    amber_object *root, *tab1, *tab2, *hidden;
    node *tab1_n, *tab2_n, *hidden_n, *h_root, *h_tab, *h_hidden;
    table decline = {"make:DeclineRoot", 0, {0}, {0}, 0}, boards = {"factory", 0, {0}, {0}, 0};

    printf("-- R10 nothing under a declined object is looked up, also by reference through a duplicate\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_object_set_restoration_class(root, "DeclineRoot");
    amber_engine_add_root(e, root);
    tab1_n = nn("tab1", 2);
    tab2_n = nn("tab2", 3);
    hidden_n = nn("hidden", 4);
    tab1 = ctl(e, "TabController", "tab", tab1_n);
    tab2 = ctl(e, "TabController", "tab", tab2_n); /* Root is no stack: a duplicate of Root/tab */
    hidden = ctl(e, "HiddenController", "hidden", hidden_n);
    amber_object_set_blueprint(hidden, "Board/Hidden");
    amber_object_add_child(root, tab1);
    amber_object_add_child(root, tab2);
    amber_object_add_child(tab2, hidden);
    node_add_ref(tab1_n, "hidden", hidden); /* the first tab references the duplicate's child */
    check(preserve(e) == 1, "R10 preserve");
    /* R10 */ check(tab1_n->ref_status[0] == AMBER_OK && hidden_n->encoded == 1 && tab2_n->encoded == 0,
                    "R3 R4 the second tab is a duplicate (not preserved); its child, referenced by the first tab, is preserved");
    amber_engine_preservation(&p, e);
    en = entry_at_path(p, "Root/tab/hidden", 0);
    /* R10 */ check(en.left_out == AMBER_LEFT_OUT_NONE && en.size > 0, "R4 R28 the report: Root/tab/hidden preserved (by reference)");
    /* R10 */ check(entry_at_path(p, "Root/tab", 0).left_out == AMBER_LEFT_OUT_NONE, "R3 R28 the report: the first Root/tab preserved");
    {
        size_t i;
        int dup = 0;
        for (i = 0; i < amber_preservation_count(p); i++) {
            if (amber_preservation_entry_at(&en, p, i) != AMBER_OK) continue;
            if (en.left_out == AMBER_LEFT_OUT_DUPLICATE_PATH && strcmp(en.class_name, "TabController") == 0 &&
                strstr(en.message, "/Root/tab") != NULL)
                dup = 1;
        }
        /* R10 */ check(dup, "R3 R28 the report: the second Root/tab left out as a duplicate, naming the one kept (/Root/tab)");
    }
    amber_preservation_free(p);
    amber_engine_close(e);

    /* The next launch: DeclineRoot gives none for Root. The default set-up has a Root/tab and a
     * Root/tab/hidden, the delegate and a factory could give them: none may be asked or used. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    h_root = nn("Root", -1);
    h_tab = nn("tab", -1);
    h_hidden = nn("hidden", -1);
    root = ctl(e, "RootController", "Root", h_root);
    tab1 = ctl(e, "TabController", "tab", h_tab);
    hidden = ctl(e, "HiddenController", "hidden", h_hidden);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, tab1);
    amber_object_add_child(tab1, hidden);
    table_put(&A.ofp, "Root/tab", tab1);
    table_put(&A.ofp, "Root/tab/hidden", hidden);
    table_put(&boards, "Root/tab/hidden", hidden);
    add_class(e, "DeclineRoot", &decline);
    add_factory(e, "Board", &boards);
    r = launch(e);
    /* R10 */ checkf(ev_count("make:DeclineRoot:Root") == 1 && ev_first_prefix("make:") == ev_last_prefix("make:") &&
                         ev_first_prefix("ofp:") == -1 && ev_first_prefix("factory:") == -1,
                     "R10 only the root is looked up: DeclineRoot's make once, no object_for_path, no factory (%d events)", n_events);
    /* R10 */ checkf(amber_report_count(r) == 3 && outcome_of(r, "Root") == AMBER_OUTCOME_DECLINED_BY_CLASS &&
                         outcome_of(r, "Root/tab") == AMBER_OUTCOME_LEFT_OUT,
                     "R10 Root is declined by its class, Root/tab left out (%zu records)", amber_report_count(r));
    /* R10 */ checkf(outcome_of(r, "Root/tab/hidden") == AMBER_OUTCOME_LEFT_OUT && find(r, "Root/tab/hidden").object == NULL,
                     "R10 Root/tab/hidden, recorded by reference under the duplicate, is left out too (%s: %s)",
                     outcome_name(outcome_of(r, "Root/tab/hidden")), find(r, "Root/tab/hidden").message);
    /* R10 */ check(h_root->decoded == 0 && h_tab->decoded == 0 && h_hidden->decoded == 0,
                    "R10 none of the default set-up's objects is decoded");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R28 The preservation report                                                                  */
/* ============================================================================================ */

/* Whether every preserved entry comes before every entry left out (R28: "preserved objects
 * first, in archive order"). */
/* The entries in order, for a check's text: "Root+ Root/A-4 ..." (+ preserved, -N left out). */
static void describe_entries(char *buf, size_t size, const amber_preservation *p) {
    amber_preservation_entry en;
    size_t i, used = 0;
    char joined[128];
    buf[0] = '\0';
    for (i = 0; i < amber_preservation_count(p) && used < size; i++) {
        if (amber_preservation_entry_at(&en, p, i) != AMBER_OK) break;
        join_path(joined, sizeof joined, en.path, en.path_length);
        if (en.left_out == AMBER_LEFT_OUT_NONE)
            used += (size_t)snprintf(buf + used, size - used, "%s%s+", i ? " " : "", joined[0] ? joined : "(none)");
        else
            used += (size_t)snprintf(buf + used, size - used, "%s%s-%d", i ? " " : "", joined[0] ? joined : "(none)", en.left_out);
    }
}

static void test_r28(void) {
    mem_store ms = {0}, ms2 = {0}, ms3 = {0};
    amber_engine *e;
    amber_report *r;
    amber_preservation *p = NULL, *p2 = NULL;
    amber_preservation_entry en;
    amber_delegate d;
    amber_object *window, *container, *root, *a, *a1, *av, *b;
    node *n_root, *n_a, *n_a1, *n_av, *n_b;
    amber_buf text = AMBER_BUF_INIT;
    char shown[512];
    int saved = -1;
    long i_list, i_detail, i_container, i_badge;

    printf("-- R28 the preservation report\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    /* R28 */ check_error(amber_engine_preservation(&p, e), AMBER_NOT_FOUND, "R28 amber_engine_preservation before the first preservation");

    /* Identified screens under a container without identifier. */
    window = ctl(e, "Window", "Window", nn("Window", 1));
    container = ctl(e, "ContainerController", NULL, nn("Container", 0));
    amber_engine_add_root(e, window);
    amber_object_add_child(window, container);
    amber_object_add_child(container, ctl(e, "ListController", "list", nn("list", 2)));
    amber_object_add_child(container, ctl(e, "DetailController", "detail", nn("detail", 3)));
    amber_object_add_view(window, mk(e, AMBER_KIND_VIEW, "BadgeView", NULL, nn("Badge", 4)));
    check(preserve(e) == 1, "R28 preserve Window, whose screens list and detail sit under a container without identifier");
    check_status(amber_engine_preservation(&p, e), AMBER_OK, "R28 amber_engine_preservation");
    /* R28 */ checkf(amber_preservation_not_saved(p) == AMBER_NOT_SAVED_NONE && strcmp(amber_preservation_message(p), "") == 0 &&
                         amber_preservation_size(p) > 0 && amber_preservation_size(p) == (uint64_t)ms.size,
                     "R28 an archive was written: AMBER_NOT_SAVED_NONE, no message, its size the bytes the store got (%llu)",
                     (unsigned long long)amber_preservation_size(p));
    describe_entries(shown, sizeof shown, p);
    /* R28 */ checkf(amber_preservation_count(p) == 5, "R28 five entries: Window preserved; container, list, detail, badge left out (%s)",
                     shown);
    amber_preservation_entry_at(&en, p, 0);
    /* R28 */ check(en.path_length == 1 && strcmp(en.path[0], "Window") == 0 && en.left_out == AMBER_LEFT_OUT_NONE && en.size > 0 &&
                        strcmp(en.message, "") == 0 && strcmp(en.class_name, "Window") == 0 && en.kind == AMBER_KIND_CONTROLLER,
                    "R28 entry 0: Window preserved, with its size, no message");
    i_container = entry_of_class(p, "ContainerController", &en);
    /* R28 */ check(i_container > 0 && en.left_out == AMBER_LEFT_OUT_NO_IDENTIFIER && en.path_length == 1 &&
                        strcmp(en.path[0], "Window") == 0 && en.size == 0 && en.message[0] != '\0',
                    "R28 the container: AMBER_LEFT_OUT_NO_IDENTIFIER, its path as far as it has one (Window)");
    i_list = entry_of_class(p, "ListController", &en);
    /* R28 */ checkf(i_list > 0 && en.left_out == AMBER_LEFT_OUT_ANCESTOR_WITHOUT_IDENTIFIER && en.path_length == 2 &&
                         strcmp(en.path[1], "list") == 0 && strstr(en.message, "ContainerController") != NULL && en.size == 0,
                     "R28 list: AMBER_LEFT_OUT_ANCESTOR_WITHOUT_IDENTIFIER at Window/list, the message names the container: %s",
                     en.message);
    i_detail = entry_of_class(p, "DetailController", &en);
    /* R28 */ check(i_detail > 0 && en.left_out == AMBER_LEFT_OUT_ANCESTOR_WITHOUT_IDENTIFIER && en.path_length == 2 &&
                        strcmp(en.path[1], "detail") == 0 && strstr(en.message, "ContainerController") != NULL,
                    "R28 detail: AMBER_LEFT_OUT_ANCESTOR_WITHOUT_IDENTIFIER at Window/detail, naming the container");
    i_badge = entry_of_class(p, "BadgeView", &en);
    /* R28 */ check(i_badge > 0 && en.left_out == AMBER_LEFT_OUT_NO_IDENTIFIER && en.kind == AMBER_KIND_VIEW,
                    "R28 the view without identifier: AMBER_LEFT_OUT_NO_IDENTIFIER, kind view");
    check_status(amber_preservation_format(&text, p), AMBER_OK, "R28 amber_preservation_format");
    {
        int ok = text.ptr && strncmp(text.ptr, "saved 1 objects in ", 19) == 0 &&
                 has_line(text.ptr, "  left out /Window/list (ListController): an ancestor has no restoration identifier "
                                "(/Window/(ContainerController))") &&
                 has_line(text.ptr, "  left out /Window/detail (DetailController): an ancestor has no restoration identifier "
                                "(/Window/(ContainerController))") &&
                 has_line(text.ptr, "  left out /Window/(ContainerController): no restoration identifier") &&
                 strstr(text.ptr, "\n  preserved /Window (Window): ") != NULL;
        /* R28 */ checkf(ok, "R28 the text: \"saved 1 objects in B bytes\", then a line per object left out with why "
                             "(\"left out /Window/list (ListController): an ancestor has no restoration identifier "
                             "(/Window/(ContainerController))\") and per object preserved%s%s",
                      ok ? "" : ":\n", ok ? "" : (text.ptr ? text.ptr : "(null)"));
    }
    amber_buf_dispose(&text);
    check_status(amber_preservation_entry_at(&en, p, 5), AMBER_NOT_FOUND, "R28 entry_at past the end");
    check_status(amber_preservation_entry_at(NULL, p, 0), AMBER_INVALID_ARGUMENT, "R28 entry_at with out NULL");
    check_status(amber_preservation_format(NULL, p), AMBER_INVALID_ARGUMENT, "R28 format with out NULL");
    check_status(amber_engine_preservation(NULL, e), AMBER_INVALID_ARGUMENT, "R28 amber_engine_preservation with out NULL");
    check_status(amber_engine_preservation(&p2, NULL), AMBER_INVALID_ARGUMENT, "R28 amber_engine_preservation of a NULL engine");
    /* R28 */ check(amber_preservation_count(NULL) == 0 && amber_preservation_not_saved(NULL) == -1 &&
                        amber_preservation_message(NULL) == NULL && amber_preservation_size(NULL) == 0,
                    "R28 a NULL report: count 0, not_saved -1, message NULL, size 0");
    amber_preservation_free(p);
    /* R28 */ check(amber_preservation_not_saved(p) == -1 && amber_preservation_count(p) == 0 &&
                        amber_error_last_code() == AMBER_MISUSE,
                    "R28 a freed report: not_saved -1, count 0, AMBER_MISUSE recorded");
    amber_preservation_free(NULL);
    amber_engine_close(e);

    /* An encode callback that fails leaves its object and what is under it out; the rest is saved. */
    reset();
    reset_app();
    e = open_mem(&ms2, NULL, NULL);
    n_root = nn("Root", 1), n_a = nn("A", 2), n_a1 = nn("A1", 3), n_av = nn("AV", 5), n_b = nn("B", 4);
    n_a->fail_encode = 4711;
    root = ctl(e, "RootController", "Root", n_root);
    a = ctl(e, "AController", "A", n_a);
    a1 = ctl(e, "A1Controller", "A1", n_a1);
    av = mk(e, AMBER_KIND_VIEW, "AView", "V", n_av);
    b = ctl(e, "BController", "B", n_b);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(a, a1);
    amber_object_add_view(a, av);
    amber_object_add_child(root, b);
    saved = -1;
    /* R28 */ check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R28 preserve, A's encode callback returning 4711");
    /* R28 */ check(saved == 1 && ms2.writes == 1, "R28 an archive is written all the same");
    /* R28 */ check(n_a->encoded == 1 && n_a1->encoded == 0 && n_av->encoded == 0 && n_root->encoded == 1 && n_b->encoded == 1,
                    "R28 the encode callbacks under the failed one are not called; Root's and B's are");
    amber_engine_preservation(&p, e);
    describe_entries(shown, sizeof shown, p);
    en = entry_at_path(p, "Root/A", 0);
    /* R28 */ checkf(en.left_out == AMBER_LEFT_OUT_ENCODE_FAILED && strstr(en.message, "4711") != NULL && en.size == 0,
                     "R28 Root/A: AMBER_LEFT_OUT_ENCODE_FAILED, the message names the callback's code 4711: %s", en.message);
    en = entry_at_path(p, "Root/A/A1", 0);
    /* R28 */ checkf(en.left_out == AMBER_LEFT_OUT_UNDER_LEFT_OUT && strstr(en.message, "/Root/A") != NULL,
                     "R28 Root/A/A1: AMBER_LEFT_OUT_UNDER_LEFT_OUT, naming /Root/A: %s", en.message);
    /* R28 */ check(entry_at_path(p, "Root/A/V", 0).left_out == AMBER_LEFT_OUT_UNDER_LEFT_OUT,
                    "R28 A's view Root/A/V: AMBER_LEFT_OUT_UNDER_LEFT_OUT");
    /* R28 */ check(entry_at_path(p, "Root", 0).left_out == AMBER_LEFT_OUT_NONE && entry_at_path(p, "Root/B", 0).left_out == AMBER_LEFT_OUT_NONE &&
                        entry_at_path(p, "Root/B", 0).size > 0 && amber_preservation_count(p) == 5,
                    "R28 Root and Root/B preserved, with their sizes; 5 entries");
    /* R28 */ checkf(strcmp(shown, "Root+ Root/A-4 Root/A/V-5 Root/A/A1-5 Root/B+") == 0,
                     "R28 the archive's records in archive order, each preserved (+) or left out (-reason) (entries: %s)", shown);
    amber_preservation_free(p);
    amber_engine_close(e);
    reset_app();
    e = open_mem(&ms2, NULL, NULL);
    n_root = nn("Root", -1), n_a = nn("A", -1), n_a1 = nn("A1", -1), n_av = nn("AV", -1), n_b = nn("B", -1);
    root = ctl(e, "RootController", "Root", n_root);
    a = ctl(e, "AController", "A", n_a);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(a, ctl(e, "A1Controller", "A1", n_a1));
    amber_object_add_view(a, mk(e, AMBER_KIND_VIEW, "AView", "V", n_av));
    amber_object_add_child(root, ctl(e, "BController", "B", n_b));
    r = launch(e);
    /* R28 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_NONE && outcome_of(r, "Root") == AMBER_OUTCOME_RESTORED &&
                         outcome_of(r, "Root/B") == AMBER_OUTCOME_RESTORED && n_root->got == 1 && n_b->got == 4,
                     "R28 the archive holds every other object: Root and Root/B restore with their state (1, 4) (%zu records)",
                     amber_report_count(r));
    /* R28 */ check(outcome_of(r, "Root/A") == AMBER_OUTCOME_LEFT_OUT && outcome_of(r, "Root/A/A1") == AMBER_OUTCOME_LEFT_OUT &&
                        outcome_of(r, "Root/A/V") == AMBER_OUTCOME_LEFT_OUT && find(r, "Root/A").message[0] != '\0' &&
                        n_a->decoded == 0 && n_a1->decoded == 0 && n_av->decoded == 0,
                    "R28 R16 Root/A and what is under it come back AMBER_OUTCOME_LEFT_OUT, with a message, not decoded");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms2);

    /* Nothing saved: should_save declines; no should_save at all. */
    reset();
    reset_app();
    A.save = 0;
    e = open_mem(&ms3, NULL, NULL);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", nn("Root", 1)));
    saved = -1;
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R28 preserve, should_save returning 0");
    amber_engine_preservation(&p, e);
    /* R28 */ checkf(saved == 0 && ms3.writes == 0 && amber_preservation_not_saved(p) == AMBER_NOT_SAVED_DECLINED &&
                         amber_preservation_message(p)[0] != '\0' && amber_preservation_count(p) == 0 && amber_preservation_size(p) == 0,
                     "R28 should_save declined: AMBER_NOT_SAVED_DECLINED, saying so (%s), no entries, size 0",
                     amber_preservation_message(p));
    amber_preservation_format(&text, p);
    /* R28 */ checkf(text.ptr && strncmp(text.ptr, "nothing saved", 13) == 0, "R28 its text says nothing was saved: %s", text.ptr ? text.ptr : "(null)");
    amber_buf_dispose(&text);
    amber_preservation_free(p);
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R28 preserve without should_save");
    amber_engine_preservation(&p, e);
    /* R28 */ checkf(saved == 0 && ms3.writes == 0 && amber_preservation_not_saved(p) == AMBER_NOT_SAVED_NO_SHOULD_SAVE &&
                         amber_preservation_message(p)[0] != '\0',
                     "R28 no should_save: AMBER_NOT_SAVED_NO_SHOULD_SAVE, saying so (%s)", amber_preservation_message(p));
    amber_preservation_free(p);
    amber_engine_close(e);

    /* The transition to the background preserves, and leaves its report too. */
    reset_app();
    e = open_mem(&ms3, NULL, NULL);
    amber_engine_add_root(e, ctl(e, "RootController", "Background", nn("Background", 1)));
    r = launch(e);
    amber_report_free(r);
    /* R28 */ check_error(amber_engine_preservation(&p, e), AMBER_NOT_FOUND, "R28 no report before this engine's first preservation");
    saved = -1;
    check_status(amber_engine_transition(&saved, e, AMBER_APP_BACKGROUND), AMBER_OK, "R23 enter the background");
    amber_engine_preservation(&p, e);
    /* R28 */ check(saved == 1 && p && amber_preservation_not_saved(p) == AMBER_NOT_SAVED_NONE &&
                        entry_at_path(p, "Background", 0).left_out == AMBER_LEFT_OUT_NONE,
                    "R23 R28 the transition to the background preserved, and amber_engine_preservation gives its report");
    amber_preservation_free(p);
    amber_engine_close(e);
    ms_clear(&ms3);
    ms_clear(&ms);
}

/* ============================================================================================ */
/* R29 The log                                                                                  */
/* ============================================================================================ */

#define LOG_LINES 256
typedef struct log_lines {
    char line[LOG_LINES][512];
    int level[LOG_LINES];
    int n, bad_level;
} log_lines;

static log_lines engine_log, process_log;

static void collect_log(amber_log_level level, const char *message, void *ctx) {
    log_lines *l = ctx;
    if ((int)level < AMBER_LOG_DEBUG || (int)level > AMBER_LOG_WARN) l->bad_level++;
    if (l->n >= LOG_LINES) return;
    snprintf(l->line[l->n], sizeof l->line[0], "%s", message ? message : "(null)");
    l->level[l->n] = (int)level;
    l->n++;
}

/* Whether a line at `level` equals `line` (exact) or, with `prefix_only`, begins with it and
 * contains `also` (if set). */
static int log_has(const log_lines *l, int level, const char *line, int prefix_only, const char *also) {
    int i;
    for (i = 0; i < l->n; i++) {
        if (l->level[i] != level) continue;
        if (prefix_only ? strncmp(l->line[i], line, strlen(line)) != 0 : strcmp(l->line[i], line) != 0) continue;
        if (also && strstr(l->line[i], also) == NULL) continue;
        return 1;
    }
    return 0;
}

static int log_count_level(const log_lines *l, int level) {
    int i, n = 0;
    for (i = 0; i < l->n; i++) n += l->level[i] == level;
    return n;
}

/* What the host archives: values and key names no log line may show. */
static const char *const r29_secrets[] = {"hunter2", "4242424242", "zqxSecretKeyName", "qzxAnotherSecretKey", "qqAppSecretKey",
                                          "appVersion"};
#define N_SECRETS (sizeof r29_secrets / sizeof r29_secrets[0])

/* The first secret found in `text`, or NULL. */
static const char *secret_in(const char *text) {
    size_t i;
    for (i = 0; i < N_SECRETS; i++)
        if (strstr(text, r29_secrets[i])) return r29_secrets[i];
    return NULL;
}

static const char *log_secret(const log_lines *l) {
    int i;
    for (i = 0; i < l->n; i++)
        if (secret_in(l->line[i])) return l->line[i];
    return NULL;
}

#define R29_LEFT_OUT                                                                                                  \
    "preserve: left out /window/list (ViewController, controller): an ancestor has no restoration identifier "        \
    "(/window/(UINavigationController))"

static char r29_got_secret[64];
static int64_t r29_got_int;

static void r29_encode(node *n, amber_coder *c) {
    (void)n;
    amber_coder_encode_string(c, "zqxSecretKeyName", "hunter2-secret");
    amber_coder_encode_int64(c, "qzxAnotherSecretKey", 4242424242LL);
}

static void r29_decode(node *n, amber_decoder *d) {
    const char *s = NULL;
    (void)n;
    r29_got_secret[0] = '\0';
    if (amber_decoder_decode_string(&s, d, "zqxSecretKeyName") == AMBER_OK) snprintf(r29_got_secret, sizeof r29_got_secret, "%s", s);
    amber_decoder_decode_int64(&r29_got_int, d, "qzxAnotherSecretKey");
}

static void r29_will_encode(amber_coder *c) { amber_coder_encode_string(c, "qqAppSecretKey", "hunter2-app-secret"); }

/* The seeds' window: an identified window, a navigation controller without identifier, an
 * identified screen in it (left out: an ancestor has no identifier). The window archives
 * distinctive values under distinctive keys. */
static node *r29_build(amber_engine *e) {
    node *w = nn("window", 1);
    amber_object *window = ctl(e, "Window", "window", w), *nav = ctl(e, "UINavigationController", NULL, nn("nav", 0));
    w->encode_hook = r29_encode;
    w->decode_hook = r29_decode;
    amber_engine_add_root(e, window);
    amber_object_add_child(window, nav);
    amber_object_add_child(nav, ctl(e, "ViewController", "list", nn("list", 2)));
    return w;
}

/* The child process of the AMBER_LOG test: one save of the seeds' window, nothing on stdout. */
static int r29_log_child(void) {
    mem_store ms = {0};
    amber_engine *e;
    int saved;
    reset();
    reset_app();
    A.app_version = "hunter2-version";
    A.will_encode_hook = r29_will_encode;
    e = open_mem(&ms, NULL, NULL);
    if (!e) return 2;
    r29_build(e);
    saved = preserve(e);
    amber_engine_close(e);
    ms_clear(&ms);
    return saved == 1 ? 0 : 1;
}

/* Runs this program again as the AMBER_LOG child, its standard error into `file`. Returns its
 * exit status, or -1. */
static int run_log_child(const char *self, const char *file) {
    pid_t pid;
    int st = 0;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        FILE *f = freopen(file, "w", stderr);
        if (!f) _exit(126);
        setenv("AMBER_LOG", "debug", 1);
        execl("/proc/self/exe", self, "--r29-log-child", (char *)NULL);
        execl(self, self, "--r29-log-child", (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_r29(void) {
    const char *tmp = runner_tmp(), *self = runner_program();
    mem_store ms = {0}, ms2 = {0};
    amber_engine *e, *own;
    amber_report *r;
    node *w;
    int before;
    const char *leak;

    printf("-- R29 the log\n");
    reset();
    reset_app();
    A.app_version = "hunter2-version";
    A.will_encode_hook = r29_will_encode;
    memset(&engine_log, 0, sizeof engine_log);
    e = open_mem(&ms, NULL, NULL);
    check_status(amber_engine_set_log(e, AMBER_LOG_DEBUG, collect_log, &engine_log), AMBER_OK, "R29 amber_engine_set_log at debug");
    r29_build(e);
    check(preserve(e) == 1, "R29 preserve the seeds' window (distinctive values under distinctive keys)");
    /* R29 */ check(log_has(&engine_log, AMBER_LOG_DEBUG, R29_LEFT_OUT, 0, NULL),
                    "R29 debug: \"" R29_LEFT_OUT "\"");
    /* R29 */ check(log_has(&engine_log, AMBER_LOG_DEBUG,
                            "preserve: left out /window/(UINavigationController) (UINavigationController, controller): "
                            "no restoration identifier", 0, NULL),
                    "R29 debug: \"preserve: left out /window/(UINavigationController) (UINavigationController, controller): "
                    "no restoration identifier\"");
    /* R29 */ check(log_has(&engine_log, AMBER_LOG_DEBUG, "preserve: preserved /window (Window, controller): ", 1, " bytes"),
                    "R29 debug: \"preserve: preserved /window (Window, controller): N bytes\"");
    /* R29 */ check(log_has(&engine_log, AMBER_LOG_INFO, "preserve: saved 1 objects in ", 1, " bytes (2 left out) in ") &&
                        log_has(&engine_log, AMBER_LOG_INFO, "preserve: saved 1 objects in ", 1, " ms"),
                    "R29 info: \"preserve: saved 1 objects in B bytes (2 left out) in T ms\"");
    leak = log_secret(&engine_log);
    /* R29 */ checkf(leak == NULL && engine_log.bad_level == 0 && engine_log.n > 0,
                     "R29 no line shows a state value (hunter2-secret, 4242424242) or a key name (%d lines%s%s)", engine_log.n,
                     leak ? "; leaked: " : "", leak ? leak : "");
    amber_engine_close(e);

    /* The restore, in the next engine, with its own log. */
    reset_app();
    memset(&engine_log, 0, sizeof engine_log);
    e = open_mem(&ms, NULL, NULL);
    amber_engine_set_log(e, AMBER_LOG_DEBUG, collect_log, &engine_log);
    w = nn("window", -1);
    w->decode_hook = r29_decode;
    amber_engine_add_root(e, ctl(e, "Window", "window", w));
    r = launch(e);
    /* R29 */ check(strcmp(r29_got_secret, "hunter2-secret") == 0 && r29_got_int == 4242424242LL && outcome_of(r, "window") == AMBER_OUTCOME_RESTORED,
                    "R29 the values were archived and restored (hunter2-secret, 4242424242)");
    /* R29 */ check(log_has(&engine_log, AMBER_LOG_DEBUG, "restore: /window (Window, controller): restored \xe2\x80\x94 found in the existing trees", 0, NULL),
                    "R29 debug: \"restore: /window (Window, controller): restored \xe2\x80\x94 found in the existing trees\"");
    /* R29 */ check(log_has(&engine_log, AMBER_LOG_INFO, "restore: restored 1 of 1 archived objects in ", 1, " ms"),
                    "R29 info: \"restore: restored 1 of 1 archived objects in T ms\"");
    leak = log_secret(&engine_log);
    /* R29 */ checkf(leak == NULL && engine_log.n > 0, "R29 the restore logs no state value and no key name either (%d lines%s%s)",
                     engine_log.n, leak ? "; leaked: " : "", leak ? leak : "");
    amber_report_free(r);
    amber_engine_close(e);
    ms_clear(&ms);

    /* Levels. */
    reset();
    reset_app();
    memset(&engine_log, 0, sizeof engine_log);
    e = open_mem(&ms, NULL, NULL);
    check_status(amber_engine_set_log(e, AMBER_LOG_INFO, collect_log, &engine_log), AMBER_OK, "R29 amber_engine_set_log at info");
    r29_build(e);
    preserve(e);
    /* R29 */ check(log_count_level(&engine_log, AMBER_LOG_DEBUG) == 0 && log_has(&engine_log, AMBER_LOG_INFO, "preserve: saved 1 objects", 1, NULL),
                    "R29 at info: the line per preservation, no debug line");
    /* R29 */ check_status(amber_engine_set_log(e, (amber_log_level)7, collect_log, &engine_log), AMBER_INVALID_ARGUMENT,
                           "R29 amber_engine_set_log with level 7");
    /* R29 */ check_status(amber_set_log((amber_log_level)-1, collect_log, &process_log), AMBER_INVALID_ARGUMENT,
                           "R29 amber_set_log with level -1");
    /* R29 */ check_status(amber_engine_set_log(NULL, AMBER_LOG_DEBUG, collect_log, &engine_log), AMBER_INVALID_ARGUMENT,
                           "R29 amber_engine_set_log of a NULL engine");

    /* The process-wide function takes the lines of engines without their own. */
    check_status(amber_engine_set_log(e, AMBER_LOG_DEBUG, NULL, NULL), AMBER_OK, "R29 remove the engine's log function");
    memset(&process_log, 0, sizeof process_log);
    memset(&engine_log, 0, sizeof engine_log);
    check_status(amber_set_log(AMBER_LOG_DEBUG, collect_log, &process_log), AMBER_OK, "R29 amber_set_log at debug");
    own = open_mem(&ms2, NULL, NULL);
    amber_engine_set_log(own, AMBER_LOG_DEBUG, collect_log, &engine_log);
    amber_engine_add_root(own, ctl(own, "OwnWindow", "own", nn("own", 1)));
    preserve(e);
    /* R29 */ check(log_has(&process_log, AMBER_LOG_DEBUG, R29_LEFT_OUT, 0, NULL) &&
                        log_has(&process_log, AMBER_LOG_INFO, "preserve: saved 1 objects", 1, NULL) && engine_log.n == 0,
                    "R29 the process-wide function gets the lines of an engine without its own");
    before = process_log.n;
    preserve(own);
    /* R29 */ check(process_log.n == before && log_has(&engine_log, AMBER_LOG_DEBUG, "preserve: preserved /own (OwnWindow, controller): ", 1, NULL),
                    "R29 an engine with its own function: its lines go there, not to the process-wide one");
    amber_engine_set_log(own, AMBER_LOG_DEBUG, NULL, NULL);
    preserve(own);
    /* R29 */ check(process_log.n > before && log_has(&process_log, AMBER_LOG_DEBUG, "preserve: preserved /own (OwnWindow, controller): ", 1, NULL),
                    "R29 once it removes its own, the process-wide function takes its lines");
    check_status(amber_set_log(AMBER_LOG_DEBUG, NULL, NULL), AMBER_OK, "R29 remove the process-wide function");
    before = process_log.n;
    preserve(e);
    /* R29 */ check(process_log.n == before, "R29 removed: it gets no more lines");
    leak = log_secret(&process_log);
    /* R29 */ checkf(leak == NULL, "R29 the process-wide lines show no state value or key name%s%s", leak ? ": " : "", leak ? leak : "");
    amber_engine_close(own);
    amber_engine_close(e);
    ms_clear(&ms2);
    ms_clear(&ms);

    /* AMBER_LOG=debug prints the same lines to standard error, without code. */
    {
        char file[600], line[1024];
        FILE *f;
        int status, left_out = 0, saved_line = 0, leaked = 0, lines = 0;
        snprintf(file, sizeof file, "%s/r29-stderr.txt", tmp);
        status = run_log_child(self, file);
        /* R29 */ checkf(status == 0, "R29 a child process (this program again) saves with AMBER_LOG=debug (exit %d)", status);
        f = fopen(file, "r");
        while (f && fgets(line, sizeof line, f)) {
            size_t len = strlen(line);
            if (len && line[len - 1] == '\n') line[--len] = '\0';
            lines++;
            if (strcmp(line, "amber: debug: " R29_LEFT_OUT) == 0) left_out = 1;
            if (strncmp(line, "amber: info: preserve: saved 1 objects in ", 42) == 0) saved_line = 1;
            if (secret_in(line)) leaked++;
        }
        if (f) fclose(f);
        /* R29 */ checkf(left_out, "R29 its standard error has \"amber: debug: " R29_LEFT_OUT "\" (%d lines)", lines);
        /* R29 */ check(saved_line, "R29 ... and \"amber: info: preserve: saved 1 objects in ...\"");
        /* R29 */ checkf(leaked == 0, "R29 ... and no state value or key name (%d lines leak)", leaked);
        unlink(file);
    }
}

/* ============================================================================================ */
/* R14 R16 A discard is reported by the next process; R15 a death while extended                */
/* ============================================================================================ */

static void test_r14_discard_next_process(void) {
    const char *tmp = runner_tmp();
    char dir[512];
    amber_engine *e;
    amber_report *r;
    node *n;

    printf("-- R14 R16 a discard is reported by the next process\n");
    reset();
    snprintf(dir, sizeof dir, "%s/discarded", tmp);
    save_root_dir(dir, 7);
    check(file_exists(dir, "state.archive"), "R14 an archive on disk");
    reset_app();
    e = open_dir(dir);
    check_status(amber_engine_discard(e), AMBER_OK, "R14 amber_engine_discard");
    amber_engine_close(e);
    /* R14 */ check(!file_exists(dir, "state.archive"), "R14 the archive file is gone");
    reset_app();
    e = open_dir(dir); /* a fresh engine on the same directory: the next process */
    n = nn("Root", -1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R14 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_DISCARDED_BY_HOST && fresh_message_ok(r) &&
                         A.should_restore_calls == 0 && n->decoded == 0,
                     "R14 R16 a fresh engine on the same store launches fresh: AMBER_FRESH_DISCARDED_BY_HOST, with a message (%d: %s)",
                     amber_report_fresh_reason(r), amber_report_message(r));
    amber_report_free(r);
    amber_engine_close(e);
    reset_app();
    e = open_dir(dir);
    r = launch(e);
    /* R14 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE,
                     "R14 R16 reported once: the engine after that finds no archive (AMBER_FRESH_NO_ARCHIVE, got %d)",
                     amber_report_fresh_reason(r));
    amber_report_free(r);
    amber_engine_close(e);

    /* An archive saved after a discard restores as usual. */
    save_root_dir(dir, 8);
    reset_app();
    e = open_dir(dir);
    amber_engine_discard(e);
    amber_engine_close(e);
    save_root_dir(dir, 9);
    reset_app();
    e = open_dir(dir);
    n = nn("Root", -1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R14 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_NONE && n->got == 9,
                     "R14 an archive saved after a discard restores as usual (got %lld)", (long long)n->got);
    /* R14 */ check(!file_exists(dir, "state.archive") && !file_exists(dir, "restore.guard"),
                    "R14 and then the archive and the launch guard are gone");
    amber_report_free(r);
    amber_engine_close(e);
}

static void test_r15_unfinished(void) {
    const char *tmp = runner_tmp();
    char dir[512], dir2[512];
    amber_engine *e;
    amber_report *r;
    node *n;
    int sig;

    printf("-- R15 the process ends while restoration is extended\n");
    reset();
    snprintf(dir, sizeof dir, "%s/extended", tmp);
    save_root_dir(dir, 11);
    reset_app();
    n_tokens = 0;
    e = open_dir(dir);
    n = nn("Root", -1);
    n->extend = 1;
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R15 */ check(n_tokens == 1 && amber_report_fresh_reason(r) == AMBER_FRESH_NONE && n->got == 11 && file_exists(dir, "state.archive"),
                    "R15 restoration extended once, the object restored (11), the archive kept");
    amber_report_free(r);
    amber_engine_close(e); /* closed without completing: as if the process died */
    reset_app();
    e = open_dir(dir);
    n = nn("Root", -1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", n));
    r = launch(e);
    /* R15 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_EXTENSION_UNFINISHED && fresh_message_ok(r),
                     "R15 R16 the next engine launches fresh: AMBER_FRESH_EXTENSION_UNFINISHED, with a message (%d: %s)",
                     amber_report_fresh_reason(r), amber_report_message(r));
    /* R15 */ check(!file_exists(dir, "state.archive") && A.should_restore_calls == 0 && n->decoded == 0,
                    "R14 R15 one death is enough, not two: the archive is gone, nothing was asked or decoded");
    amber_report_free(r);
    r = launch(e);
    /* R15 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE, "R15 and the launch after is simply fresh (no archive)");
    amber_report_free(r);
    amber_engine_close(e);

    /* The same when the process is killed while extended. */
    snprintf(dir2, sizeof dir2, "%s/extended-killed", tmp);
    save_root_dir(dir2, 12);
    sig = launch_and_die(dir2, DIES_WHILE_EXTENDED);
    /* R15 */ checkf(sig == SIGKILL && file_exists(dir2, "state.archive"),
                     "R15 a child process restores, extends, and is killed (SIGKILL) before completing (got %d); the archive is kept", sig);
    reset_app();
    e = open_dir(dir2);
    r = launch(e);
    /* R15 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_EXTENSION_UNFINISHED && !file_exists(dir2, "state.archive") &&
                        A.should_restore_calls == 0,
                    "R15 R16 the next launch: AMBER_FRESH_EXTENSION_UNFINISHED, the archive discarded");
    amber_report_free(r);
    amber_engine_close(e);
}

/* In the order of the rules: a newcomer reads them top down. */
static const runner_test tests[] = {
    {"r1", test_r1},
    {"r1_present", test_present},
    {"r2", test_r2},
    {"r3", test_r3},
    {"r3_identifiers", test_r3_identifiers},
    {"r4", test_r4},
    {"r4_seeds", test_r4_seeds},
    {"r5", test_r5},
    {"r6", test_r6},
    {"r7", test_r7},
    {"r8", test_r8},
    {"r9", test_r9},
    {"r10", test_r10},
    {"r10_record_info", test_r10_record_info},
    {"r10_declined_by_reference", test_r10_declined_by_reference},
    {"r11", test_r11},
    {"r12", test_r12},
    {"r13", test_r13},
    {"r14", test_r14},
    {"r14_discard_next_process", test_r14_discard_next_process},
    {"r15", test_r15},
    {"r15_unfinished", test_r15_unfinished},
    {"r16", test_r16},
    {"r28", test_r28},
    {"r29", test_r29},
    {"r22_bad_arguments", test_bad_arguments},
};

int main(int argc, char **argv) {
    /* The child process of the AMBER_LOG test (R29): see run_log_child(). */
    if (argc > 1 && strcmp(argv[1], "--r29-log-child") == 0) return r29_log_child();
    return runner_main("rules", tests, RUNNER_COUNT(tests), argc, argv);
}

/*
 * fixture.c — the shared part of test_rules (fixture.h says what is here).
 */
#include "fixture.h"

void check_error(int got, int want, const char *what) {
    const char *msg = amber_error_last();
    int ok = got == want && amber_error_last_code() == want && msg != NULL && msg[0] != '\0';
    checkf(ok, "%s -> %s%s%s%s", what, amber_status_string(got), ok ? "" : ", expected ", ok ? "" : amber_status_string(want),
           ok ? " with a message" : "");
}

char events[MAX_EVENTS][128];

int n_events;

void ev(const char *fmt, ...) {
    va_list ap;
    if (n_events >= MAX_EVENTS) return;
    va_start(ap, fmt);
    vsnprintf(events[n_events++], sizeof events[0], fmt, ap);
    va_end(ap);
}

int ev_first(const char *name) {
    int i;
    for (i = 0; i < n_events; i++)
        if (strcmp(events[i], name) == 0) return i;
    return -1;
}

int ev_count(const char *name) {
    int i, n = 0;
    for (i = 0; i < n_events; i++)
        if (strcmp(events[i], name) == 0) n++;
    return n;
}

int ev_last_prefix(const char *prefix) {
    int i;
    for (i = n_events - 1; i >= 0; i--)
        if (strncmp(events[i], prefix, strlen(prefix)) == 0) return i;
    return -1;
}

int ev_first_prefix(const char *prefix) {
    int i;
    for (i = 0; i < n_events; i++)
        if (strncmp(events[i], prefix, strlen(prefix)) == 0) return i;
    return -1;
}

void join_path(char *buf, size_t size, const char *const *path, size_t n) {
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < n && used < size; i++) used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "/" : "", path[i]);
}

node pool[MAX_NODES];

static int n_nodes;

amber_engine *cur_engine; /* the engine restoring, for R15's extend */

uint64_t tokens[8];

int n_tokens;

node *nn(const char *name, int64_t value) {
    node *n = &pool[n_nodes++ % MAX_NODES];
    memset(n, 0, sizeof *n);
    snprintf(n->name, sizeof n->name, "%s", name);
    n->value = value;
    n->callbacks_ok = 1;
    n->got = -1;
    return n;
}

void reset(void) {
    n_nodes = 0;
    n_events = 0;
    n_tokens = 0;
    cur_engine = NULL;
    memset(pool, 0, sizeof pool);
}

void node_add_ref(node *n, const char *key, amber_object *target) {
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

amber_object *mk(amber_engine *e, int kind, const char *cls, const char *id, node *n) {
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

amber_object *ctl(amber_engine *e, const char *cls, const char *id, node *n) {
    return mk(e, AMBER_KIND_CONTROLLER, cls, id, n);
}

int path_is(amber_object *o, const char *want) {
    amber_buf p = AMBER_BUF_INIT;
    int rc = amber_object_path(&p, o), ok;
    if (want == NULL) return rc == AMBER_NOT_FOUND;
    ok = rc == AMBER_OK && p.ptr && strcmp(p.ptr, want) == 0;
    amber_buf_dispose(&p);
    return ok;
}

void table_put(table *t, const char *path, amber_object *o) {
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

char factory_blueprint[128];

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

void add_class(amber_engine *e, const char *name, table *t) {
    amber_restoration_class rc;
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = table_make;
    if (amber_engine_register_restoration_class(e, name, &rc, t, NULL) != AMBER_OK)
        printf("note: register_restoration_class(%s) failed: %s\n", name, amber_error_last());
}

void add_factory(amber_engine *e, const char *name, table *t) {
    amber_blueprint_factory bf;
    bf = (amber_blueprint_factory)AMBER_BLUEPRINT_FACTORY_INIT;
    bf.make = table_factory;
    if (amber_engine_register_blueprint_factory(e, name, &bf, t, NULL) != AMBER_OK)
        printf("note: register_blueprint_factory(%s) failed: %s\n", name, amber_error_last());
}

app A;

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

void reset_app(void) {
    memset(&A, 0, sizeof A);
    A.ofp.tag = "ofp";
    A.save = 1;
    A.restore = 1;
}

void use_delegate(amber_engine *e) {
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

/* The store's functions, for every engine the tests open on a memory store. */
static amber_store mem_functions;

amber_engine *open_mem_app(mem_store *ms, const char *app_id, const char *key_file, const char *bundle_version,
                           const char *idiom) {
    amber_engine_options opts;
    amber_engine *e = NULL;
    mem_functions = mem_store_functions();
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.store = &mem_functions;
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

amber_engine *open_mem(mem_store *ms, const char *bundle_version, const char *idiom) {
    return open_mem_app(ms, "org.example.rules", NULL, bundle_version, idiom);
}

int preserve(amber_engine *e) {
    int saved = -1, rc = amber_engine_preserve(&saved, e);
    if (rc != AMBER_OK) printf("note: preserve failed: %s\n", amber_error_last());
    return rc == AMBER_OK ? saved : -1;
}

amber_report *launch(amber_engine *e) {
    amber_report *r = NULL;
    cur_engine = e;
    if (amber_engine_launch(&r, e, AMBER_APP_INACTIVE) != AMBER_OK) printf("note: launch failed: %s\n", amber_error_last());
    return r;
}

/* The first record of `path` at `position`, or at any position when `any_position` is set. */
static amber_report_record find_record(const amber_report *r, const char *path, size_t position, int any_position) {
    amber_report_record rec;
    size_t i;
    char p[256];
    for (i = 0; i < amber_report_count(r); i++) {
        if (amber_report_record_at(&rec, r, i) != AMBER_OK) continue;
        join_path(p, sizeof p, rec.path, rec.path_length);
        if (strcmp(p, path) == 0 && (any_position || rec.position == position)) return rec;
    }
    memset(&rec, 0, sizeof rec);
    rec.outcome = -1;
    rec.message = rec.class_name = "";
    return rec;
}

amber_report_record find(const amber_report *r, const char *path) { return find_record(r, path, 0, 1); }

int outcome_of(const amber_report *r, const char *path) { return find(r, path).outcome; }

amber_report_record find_at(const amber_report *r, const char *path, size_t position) {
    return find_record(r, path, position, 0);
}

const char *outcome_name(int o) {
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

amber_object *child_of(amber_engine *e, amber_object *parent, const char *id, int64_t value) {
    amber_object *o = ctl(e, "C", id, nn(id, value));
    amber_object_add_child(parent, o);
    return o;
}

int fresh_message_ok(const amber_report *r) {
    const char *m = amber_report_message(r);
    return m != NULL && m[0] != '\0';
}

int has_line(const char *text, const char *line) {
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

void save_root(mem_store *ms, int64_t value) {
    amber_engine *e;
    reset_app();
    e = open_mem(ms, NULL, NULL);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", nn("Root", value)));
    preserve(e);
    amber_engine_close(e);
    n_events = 0;
}

amber_preservation_entry entry_at_path(const amber_preservation *p, const char *path, size_t position) {
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

long entry_of_class(const amber_preservation *p, const char *class_name, amber_preservation_entry *out) {
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

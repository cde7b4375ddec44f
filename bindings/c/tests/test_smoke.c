/*
 * A first test of libamber.so through include/amber.h alone: versions, errors on bad arguments
 * (R22), an interface preserved by one engine and restored by a second one sharing the same
 * state directory (R2-R16), a host store, host callback codes, plugins.
 *
 * Usage: AMBER_TEST_PLUGIN=path/to/plugin_sample.so test_smoke [--list] [PREFIX...] (runner.h;
 * without the plugin its checks are skipped, and said so). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mem_store.h"

/* ---- contexts: every ctx_free is counted ------------------------------------------------ */

static int ctx_freed;
static void count_free(void *ctx) {
    (void)ctx;
    ctx_freed++;
}

/* ---- the first launch: the interface that is preserved ------------------------------------ */

typedef struct host_view {
    const char *name;
    int64_t selected_row;
    const char *item_name;
    amber_object *items; /* Detail's reference to Items (R4) */
} host_view;

static amber_coder *escaped_coder; /* kept past its callback on purpose */
static int reserved_status = -1, duplicate_status = -1, utf8_status = -1;

static int encode_items(amber_object *object, amber_coder *coder, void *ctx) {
    host_view *v = ctx;
    int64_t path[2] = {0, 0};
    int rc;
    (void)object;
    path[1] = v->selected_row;
    if ((rc = amber_coder_encode_int64(coder, "selectedRow", v->selected_row)) != AMBER_OK) return rc;
    if ((rc = coder_encode_index_path(coder, "scroll", path, 2)) != AMBER_OK) return rc;
    if ((rc = amber_coder_encode_double(coder, "zoom", 1.5)) != AMBER_OK) return rc;
    reserved_status = amber_coder_encode_int64(coder, "amber.secret", 1);
    duplicate_status = amber_coder_encode_int64(coder, "selectedRow", 4);
    utf8_status = amber_coder_encode_string(coder, "bad", "\xff\xfe");
    escaped_coder = coder;
    return AMBER_OK;
}

static int encode_detail(amber_object *object, amber_coder *coder, void *ctx) {
    host_view *v = ctx;
    int rc;
    static const unsigned char blob[3] = {1, 2, 3};
    (void)object;
    if ((rc = amber_coder_encode_string(coder, "itemName", v->item_name)) != AMBER_OK) return rc;
    if ((rc = amber_coder_encode_bool(coder, "editing", 1)) != AMBER_OK) return rc;
    if ((rc = amber_coder_encode_bytes(coder, "blob", blob, sizeof blob)) != AMBER_OK) return rc;
    if ((rc = coder_encode_date(coder, "when", 700000000.5)) != AMBER_OK) return rc;
    return amber_coder_encode_object(coder, "items", v->items);
}

static int app_reserved_status = -1;

static int should_save(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    (void)engine; (void)ctx;
    app_reserved_status = amber_coder_encode_string(app_coder, "bundleVersion", "9");
    return 1;
}

static int will_encode(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    (void)engine; (void)ctx;
    return amber_coder_encode_string(app_coder, "appVersion", "2024.1");
}

/* ---- the second launch: the objects are made again --------------------------------------- */

typedef struct restored {
    amber_engine *engine;
    amber_object *nav, *items, *detail, *settings;
    host_view items_view, detail_view;
    int64_t selected_row, scroll[4];
    size_t scroll_length;
    double zoom, when;
    char item_name[64];
    int editing, finished, did_decode, will_finish, did_finish, order_ok;
    size_t blob_size;
    int blob_ok;
    int mismatch_status, missing_status, ref_ok;
    amber_decoder *escaped_decoder;
    char bundle_version[32], app_version[32];
    int should_restore_calls;
    char nav_path[64];
} restored;

static restored R;

static int decode_items(amber_object *object, amber_decoder *decoder, void *ctx) {
    int rc;
    (void)object; (void)ctx;
    if ((rc = amber_decoder_decode_int64(&R.selected_row, decoder, "selectedRow")) != AMBER_OK) return rc;
    if ((rc = decoder_decode_index_path(R.scroll, 4, &R.scroll_length, decoder, "scroll")) != AMBER_OK) return rc;
    return amber_decoder_decode_double(&R.zoom, decoder, "zoom");
}

static int decode_detail(amber_object *object, amber_decoder *decoder, void *ctx) {
    const char *name = NULL;
    const uint8_t *blob = NULL;
    amber_object *ref = NULL;
    int64_t n;
    int rc;
    (void)object; (void)ctx;
    if ((rc = amber_decoder_decode_string(&name, decoder, "itemName")) != AMBER_OK) return rc;
    snprintf(R.item_name, sizeof R.item_name, "%s", name);
    if ((rc = amber_decoder_decode_bool(&R.editing, decoder, "editing")) != AMBER_OK) return rc;
    if ((rc = amber_decoder_decode_bytes(&blob, &R.blob_size, decoder, "blob")) != AMBER_OK) return rc;
    R.blob_ok = R.blob_size == 3 && blob[0] == 1 && blob[1] == 2 && blob[2] == 3;
    if ((rc = decoder_decode_date(&R.when, decoder, "when")) != AMBER_OK) return rc;
    if ((rc = amber_decoder_decode_object(&ref, decoder, "items", NULL, 0)) != AMBER_OK) return rc;
    R.ref_ok = ref == R.items && amber_decoder_contains(decoder, "items") && !amber_decoder_contains(decoder, "nope");
    R.mismatch_status = amber_decoder_decode_int64(&n, decoder, "itemName");
    R.missing_status = amber_decoder_decode_int64(&n, decoder, "nope");
    R.escaped_decoder = decoder;
    return AMBER_OK;
}

static void finished(amber_object *object, void *ctx) {
    (void)object; (void)ctx;
    R.finished++;
}

static amber_object *new_object(int kind, const char *cls, const char *id, host_view *view,
                                int (*decode)(amber_object *, amber_decoder *, void *)) {
    amber_object_callbacks cb;
    amber_object *o = NULL;
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.decode = decode;
    cb.finished_restoring = finished;
    if (amber_object_new(&o, R.engine, kind, cls, id, &cb, view, count_free) != AMBER_OK) return NULL;
    return o;
}

/* R10 step 1: the restoration class makes Nav. */
static int make_nav(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                    amber_decoder *decoder, void *ctx) {
    (void)decoder; (void)ctx;
    if (engine != R.engine || path_length != 1 || strcmp(path[0], "Nav") != 0) return AMBER_CALLBACK_FAILED;
    R.nav = new_object(AMBER_KIND_CONTROLLER, "NavigationController", NULL, NULL, NULL);
    *out = R.nav;
    return AMBER_OK;
}

/* R10 step 2: the delegate finds Items (of a registered subclass) and Settings (of a wrong class). */
static int object_for_path(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                           amber_decoder *decoder, void *ctx) {
    (void)engine; (void)decoder; (void)ctx;
    *out = NULL;
    if (path_length == 2 && strcmp(path[1], "Items") == 0) {
        R.items = new_object(AMBER_KIND_CONTROLLER, "FancyItemsViewController", NULL, &R.items_view, decode_items);
        *out = R.items;
    } else if (path_length == 2 && strcmp(path[1], "Settings") == 0) {
        R.settings = new_object(AMBER_KIND_CONTROLLER, "SomethingElse", NULL, NULL, NULL);
        *out = R.settings;
    }
    return AMBER_OK;
}

/* R10 step 4: the blueprint factory makes Detail. */
static int make_from_blueprint(amber_object **out, amber_engine *engine, const char *blueprint_id,
                               const char *const *path, size_t path_length, amber_decoder *decoder, void *ctx) {
    (void)engine; (void)path; (void)path_length; (void)decoder; (void)ctx;
    *out = NULL;
    if (strcmp(blueprint_id, "Main/Detail") == 0) {
        R.detail = new_object(AMBER_KIND_CONTROLLER, "DetailViewController", NULL, &R.detail_view, decode_detail);
        *out = R.detail;
    }
    return AMBER_OK;
}

static int should_restore(amber_engine *engine, amber_decoder *app, void *ctx) {
    const char *s = NULL;
    (void)engine; (void)ctx;
    R.should_restore_calls++;
    if (amber_decoder_decode_string(&s, app, "bundleVersion") == AMBER_OK) snprintf(R.bundle_version, 32, "%s", s);
    if (amber_decoder_decode_string(&s, app, "appVersion") == AMBER_OK) snprintf(R.app_version, 32, "%s", s);
    return 1;
}

static int did_decode(amber_engine *engine, amber_decoder *app, void *ctx) {
    (void)engine; (void)app; (void)ctx;
    R.did_decode = R.finished > 0 ? 1 : -1; /* R13: last */
    return AMBER_OK;
}

static void will_finish(amber_engine *engine, void *ctx) {
    (void)engine; (void)ctx;
    R.will_finish++;
    R.order_ok = R.should_restore_calls == 0;
}

static void did_finish(amber_engine *engine, void *ctx) {
    (void)engine; (void)ctx;
    R.did_finish++;
    R.order_ok = R.order_ok && R.did_decode == 1;
}

/* Whether `text` appears in the bytes (an archive must not show its contents in clear). */
static int contains(const uint8_t *bytes, size_t size, const char *text) {
    size_t n = strlen(text), i;
    for (i = 0; i + n <= size; i++)
        if (memcmp(bytes + i, text, n) == 0) return 1;
    return 0;
}

static int always_save(amber_engine *e, amber_coder *c, void *ctx) {
    (void)e; (void)c; (void)ctx;
    return 1;
}
static int always_restore(amber_engine *e, amber_decoder *d, void *ctx) {
    (void)e; (void)d; (void)ctx;
    return 1;
}
static int fail_encode(amber_object *o, amber_coder *c, void *ctx) {
    (void)o; (void)c; (void)ctx;
    return 42;
}
static int fail_will_encode(amber_engine *e, amber_coder *c, void *ctx) {
    (void)e; (void)c; (void)ctx;
    return 42;
}

/* ------------------------------------------------------------------------------------------ */

static void test_versions_and_errors(void) {
    amber_engine *e = NULL;
    amber_engine_options opts;
    amber_object *o = NULL;
    int fresh_freed;

    check(amber_version_number() == AMBER_VERSION_NUMBER, "amber_version_number matches the header");
    check(strcmp(amber_version_string(), AMBER_VERSION_STRING) == 0 && strcmp(AMBER_VERSION_STRING, "0.3.0") == 0, "amber_version_string is 0.3.0");
    check(strcmp(amber_status_string(AMBER_NOT_FOUND), "AMBER_NOT_FOUND") == 0, "amber_status_string names a code");
    check(strcmp(amber_status_string(999), "AMBER_UNKNOWN_STATUS") == 0, "amber_status_string of an unknown code");
    amber_error_clear();
    check(strcmp(amber_error_last(), "") == 0 && amber_error_last_code() == AMBER_OK, "no error: \"\" and AMBER_OK");
    /* amber_error_set: a host callback's own failure, recorded as a failing call records one. */
    check(amber_error_set(AMBER_CALLBACK_FAILED, "row 7 is gone") == AMBER_CALLBACK_FAILED
              && amber_error_last_code() == AMBER_CALLBACK_FAILED && strcmp(amber_error_last(), "row 7 is gone") == 0,
          "amber_error_set records a code and a message, and returns the code");
    check(amber_error_set(-40, NULL) == -40 && amber_error_last_code() == -40 && strcmp(amber_error_last(), "") == 0,
          "amber_error_set takes any code, and NULL as \"\"");
    check(amber_error_set(42, "bad \xc3\x28 byte") == 42 && strcmp(amber_error_last(), "bad \xef\xbf\xbd( byte") == 0,
          "amber_error_set repairs invalid UTF-8 (U+FFFD)");
    check(amber_error_set(AMBER_OK, "ignored") == AMBER_OK && amber_error_last_code() == AMBER_OK
              && strcmp(amber_error_last(), "") == 0,
          "amber_error_set(AMBER_OK, ...) forgets the failure, as amber_error_clear does");

    /* R22: bad arguments are codes, never crashes. */
    check_status(amber_engine_open(NULL, "app", NULL), AMBER_INVALID_ARGUMENT, "R22 open with out NULL");
    check(amber_error_last()[0] != '\0' && amber_error_last_code() == AMBER_INVALID_ARGUMENT, "R22 the failure has a message");
    check_status(amber_engine_open(&e, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 open with app_id NULL");
    check_status(amber_engine_open(&e, "\xc3\x28", NULL), AMBER_INVALID_ARGUMENT, "R22 open with invalid UTF-8");
    check_status(amber_engine_open(&e, "a/b", NULL), AMBER_INVALID_ARGUMENT, "R22 open with a '/' in app_id");
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    check(opts.version == AMBER_ENGINE_OPTIONS_VERSION && opts.protection == AMBER_PROTECTION_KEY_FILE &&
              opts.memory_store == 0 && opts.store == NULL && opts.bundle_version == NULL && opts.key_callback == NULL,
          "AMBER_ENGINE_OPTIONS_INIT: the version set, every member at its default (encrypted, R20)");
    memset(&opts, 0, sizeof opts); /* version 0 */
    check_status(amber_engine_open(&e, "app", &opts), AMBER_INVALID_ARGUMENT, "open with options of version 0");
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.version = 7;
    check_status(amber_engine_open(&e, "app", &opts), AMBER_INVALID_ARGUMENT, "open with options of an unknown version");
    check(amber_object_kind(NULL) == AMBER_KIND_INVALID && amber_object_class_name(NULL) == NULL &&
              amber_error_last_code() == AMBER_INVALID_ARGUMENT,
          "object getters on NULL: the zero of their type (AMBER_KIND_INVALID, NULL), the error set");
    check_status(amber_object_set_identifier(NULL, "x"), AMBER_INVALID_ARGUMENT, "R22 NULL object");
    amber_engine_close(NULL);
    amber_object_free(NULL);
    amber_report_free(NULL);
    amber_buf_dispose(NULL);
    check(1, "NULL to close/free functions does nothing");

    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.memory_store = 1;
    check_status(amber_engine_open(&e, "org.example.smoke", &opts), AMBER_OK, "open an engine with memory_store");
    check_status(amber_object_new(&o, e, 7, "X", NULL, NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "object_new with an unknown kind");
    check_status(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "", NULL, NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "object_new with an empty class");
    {
        amber_object_callbacks cb;
        cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
        cb.version = 0;
        check_status(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "X", NULL, &cb, NULL, count_free),
                     AMBER_INVALID_ARGUMENT, "object_new with callbacks of version 0");
    }
    check_status(amber_object_new(&o, (amber_engine *)o, AMBER_KIND_CONTROLLER, "X", NULL, NULL, NULL, NULL),
                 AMBER_INVALID_ARGUMENT, "object_new with a NULL engine");
    fresh_freed = ctx_freed;
    check_status(amber_object_new(&o, e, AMBER_KIND_VIEW, "ScrollView", "Scroll", NULL, NULL, count_free), AMBER_OK, "object_new");
    check(strcmp(amber_object_class_name(o), "ScrollView") == 0 && strcmp(amber_object_identifier(o), "Scroll") == 0,
          "class name and identifier read back");
    check_status(amber_object_set_stack(o, 1), AMBER_INVALID_ARGUMENT, "set_stack on a view");
    check_status(amber_object_add_child(o, o), AMBER_INVALID_ARGUMENT, "add_child of a view");
    check_status(amber_engine_add_root(e, o), AMBER_INVALID_ARGUMENT, "a view as a root");
    check_status(amber_object_set_identifier(o, "\xff"), AMBER_INVALID_ARGUMENT, "R22 identifier with invalid UTF-8");
    check_status(amber_object_set_identifier((amber_object *)e, "x"), AMBER_MISUSE, "R22 an engine handle given as an object");
    amber_object_free(o);
    check(ctx_freed == fresh_freed + 1, "object_free calls ctx_free once");
    check_status(amber_object_set_identifier(o, "x"), AMBER_MISUSE, "R22 a freed object");
    check(amber_object_kind(o) == -1, "the kind of a freed object is -1");
    {
        /* The freed object's slot is reused at once; the stale handle must still be refused. */
        amber_object *reused = NULL;
        int local = 0;
        check_status(amber_object_new(&reused, e, AMBER_KIND_VIEW, "ImageView", "Image", NULL, NULL, NULL), AMBER_OK,
                     "object_new after a free");
        check_status(amber_object_set_identifier(o, "x"), AMBER_MISUSE, "R22 a freed object whose slot was reused");
        check(strcmp(amber_object_identifier(reused), "Image") == 0, "the stale handle did not touch the new object");
        check_status(amber_object_set_identifier((amber_object *)&local, "x"), AMBER_MISUSE,
                     "R22 a pointer Amber never gave out");
        amber_object_free(reused);
    }
    {
        /* Class names are kept by the address of the C string that held them: a buffer the host
         * reuses gives each object the text it holds at the call, and a reused buffer with
         * invalid UTF-8 is still refused. */
        amber_object *first = NULL, *second = NULL, *third = NULL;
        char buffer[32];
        strcpy(buffer, "ListController");
        check_status(amber_object_new(&first, e, AMBER_KIND_CONTROLLER, buffer, NULL, NULL, NULL, NULL), AMBER_OK,
                     "object_new with a class name in a buffer");
        strcpy(buffer, "ListControllex");
        check_status(amber_object_new(&second, e, AMBER_KIND_CONTROLLER, buffer, NULL, NULL, NULL, NULL), AMBER_OK,
                     "object_new with the buffer rewritten");
        check(strcmp(amber_object_class_name(first), "ListController") == 0 &&
                  strcmp(amber_object_class_name(second), "ListControllex") == 0,
              "each object has the class name its buffer held at the call");
        check_status(amber_object_set_restoration_class(second, buffer), AMBER_OK, "set_restoration_class from the buffer");
        strcpy(buffer, "\xff");
        check_status(amber_object_new(&third, e, AMBER_KIND_CONTROLLER, buffer, NULL, NULL, NULL, NULL),
                     AMBER_INVALID_ARGUMENT, "R22 the buffer rewritten with invalid UTF-8");
        check_status(amber_object_set_restoration_class(second, buffer), AMBER_INVALID_ARGUMENT,
                     "R22 set_restoration_class from the buffer rewritten with invalid UTF-8");
        amber_object_free(first);
        amber_object_free(second);
    }
    {
        int saved = -1;
        check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R5 preserve without a delegate");
        check(saved == 0, "R5 nothing is saved without should_save");
    }
    amber_engine_close(e);
    check_status(amber_engine_preserve(NULL, e), AMBER_MISUSE, "R22 a closed engine");
    amber_engine_close(e); /* a second close is refused, not a crash */
    check(amber_error_last_code() == AMBER_MISUSE, "closing twice is AMBER_MISUSE");
}

static void test_preserve_and_restore(void) {
    char dir[600];
    runner_dir(dir, sizeof dir, "state");
    amber_engine *e = NULL;
    amber_engine_options opts;
    amber_delegate d;
    amber_object_callbacks cb;
    amber_object *nav = NULL, *items = NULL, *detail = NULL, *settings = NULL, *hidden = NULL;
    host_view items_view = {"Items", 3, NULL, NULL}, detail_view = {"Detail", 0, "Blue Lamp", NULL};
    amber_buf path = AMBER_BUF_INIT;
    int saved = -1, before;
    amber_report *report = NULL;
    amber_restoration_class rc;
    amber_blueprint_factory bf;
    size_t i;
    int outcomes_ok;

    /* ---- the first launch ---- */
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    opts.bundle_version = "1.2";
    check_status(amber_engine_open(&e, "org.example.smoke", &opts), AMBER_OK, "open engine A on a state directory");
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = should_save;
    d.will_encode = will_encode;
    check_status(amber_engine_set_delegate(e, &d, NULL, count_free), AMBER_OK, "set A's delegate");

    amber_object_new(&nav, e, AMBER_KIND_CONTROLLER, "NavigationController", "Nav", NULL, NULL, count_free);
    amber_object_set_stack(nav, 1);
    check_status(amber_object_set_restoration_class(nav, "NavClass"), AMBER_OK, "set Nav's restoration class");
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = encode_items;
    amber_object_new(&items, e, AMBER_KIND_CONTROLLER, "ItemsViewController", "Items", &cb, &items_view, count_free);
    cb.encode = encode_detail;
    amber_object_new(&detail, e, AMBER_KIND_CONTROLLER, "DetailViewController", "Detail", &cb, &detail_view, count_free);
    amber_object_set_blueprint(detail, "Main/Detail");
    detail_view.items = items;
    amber_object_new(&settings, e, AMBER_KIND_CONTROLLER, "SettingsViewController", "Settings", NULL, NULL, count_free);
    amber_object_new(&hidden, e, AMBER_KIND_CONTROLLER, "HiddenController", NULL, NULL, NULL, count_free);
    check_status(amber_engine_add_root(e, nav), AMBER_OK, "add Nav as a root");
    check_status(amber_engine_add_root(e, nav), AMBER_DUPLICATE, "add Nav as a root twice");
    check_status(amber_object_add_child(nav, items), AMBER_OK, "push Items");
    check_status(amber_object_add_child(nav, detail), AMBER_OK, "push Detail");
    check_status(amber_object_add_child(nav, settings), AMBER_OK, "push Settings");
    check_status(amber_object_add_child(nav, hidden), AMBER_OK, "push a controller without identifier");
    check_status(amber_object_add_child(items, nav), AMBER_INVALID_ARGUMENT, "a tree that would contain itself");
    check(amber_object_context(items) == &items_view, "object_context gives the ctx back");
    check_status(amber_object_path(&path, detail), AMBER_OK, "R3 object_path");
    check(path.ptr && strcmp(path.ptr, "Nav/Detail") == 0, "R3 Detail's path is Nav/Detail");
    amber_buf_dispose(&path);
    check_status(amber_object_path(&path, hidden), AMBER_NOT_FOUND, "R3 no path without an identifier");

    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R2 preserve");
    check(saved == 1, "R5 saved when should_save agrees");
    check(strcmp(last_duplicates(e), "") == 0, "R3 no duplicate paths");
    check(reserved_status == AMBER_RESERVED_KEY, "R7 a key beginning with amber. is AMBER_RESERVED_KEY");
    check(app_reserved_status == AMBER_RESERVED_KEY, "R7 bundleVersion in the app coder is AMBER_RESERVED_KEY");
    check(duplicate_status == AMBER_DUPLICATE, "a key written twice is AMBER_DUPLICATE");
    check(utf8_status == AMBER_INVALID_ARGUMENT, "R22 a string value of invalid UTF-8");
    check_status(amber_coder_encode_int64(escaped_coder, "late", 1), AMBER_MISUSE, "a coder used after its callback");
    {
        char name[700];
        snprintf(name, sizeof name, "%s/state.archive", dir);
        check(access(name, F_OK) == 0, "R19 the archive is in the state directory");
    }
    before = ctx_freed;
    amber_engine_close(e);
    check(ctx_freed == before + 6, "closing A frees 5 objects' and the delegate's contexts");

    /* ---- the second launch: another engine, the same directory ---- */
    memset(&R, 0, sizeof R);
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    check_status(amber_engine_open(&R.engine, "org.example.smoke", &opts), AMBER_OK, "open engine B on the same directory");
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = make_nav;
    check_status(amber_engine_register_restoration_class(R.engine, "NavClass", &rc, NULL, count_free), AMBER_OK,
                 "register restoration class NavClass");
    check_status(amber_engine_register_restoration_class(R.engine, "NavClass", &rc, NULL, count_free), AMBER_DUPLICATE,
                 "register NavClass twice");
    rc.version = 99;
    check_status(amber_engine_register_restoration_class(R.engine, "Other", &rc, NULL, count_free), AMBER_INVALID_ARGUMENT,
                 "a restoration class of an unknown version");
    bf = (amber_blueprint_factory)AMBER_BLUEPRINT_FACTORY_INIT;
    bf.make = make_from_blueprint;
    check_status(amber_engine_register_blueprint_factory(R.engine, "Main", &bf, NULL, count_free), AMBER_OK,
                 "register blueprint factory Main");
    check_status(amber_engine_register_subclass(R.engine, "FancyItemsViewController", "ItemsViewController"), AMBER_OK,
                 "R11 register a subclass");
    check_status(amber_engine_register_subclass(R.engine, "FancyItemsViewController", "Other"), AMBER_DUPLICATE,
                 "R11 a second superclass");
    check_status(amber_engine_register_subclass(R.engine, "ItemsViewController", "FancyItemsViewController"),
                 AMBER_INVALID_ARGUMENT, "R11 a cycle of subclasses");
    /* A delegate replaced: its ctx_free runs. */
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    before = ctx_freed;
    amber_engine_set_delegate(R.engine, &d, NULL, count_free);
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_restore = should_restore;
    d.did_decode = did_decode;
    d.object_for_path = object_for_path;
    d.will_finish_launching = will_finish;
    d.did_finish_launching = did_finish;
    check_status(amber_engine_set_delegate(R.engine, &d, NULL, count_free), AMBER_OK, "set B's delegate");
    check(ctx_freed == before + 1, "replacing a delegate calls the old ctx_free");

    check_status(amber_engine_launch(&report, R.engine, AMBER_APP_INACTIVE), AMBER_OK, "R9 launch B");
    check(report != NULL && amber_report_fresh_reason(report) == AMBER_FRESH_NONE, "R9 restoration ran (not fresh)");
    check(R.will_finish == 1 && R.did_finish == 1 && R.order_ok, "R9 will/did finish launching around restoration");
    check(strcmp(R.bundle_version, "1.2") == 0, "R8 should_restore reads bundleVersion");
    check(strcmp(R.app_version, "2024.1") == 0, "R8 should_restore reads what will_encode wrote");
    check(amber_report_count(report) == 4, "R16 four records (the controller without identifier left out, R2)");
    outcomes_ok = 1;
    for (i = 0; i < amber_report_count(report); i++) {
        amber_report_record rec;
        char line[256];
        amber_outcome want;
        if (amber_report_record_at(&rec, report, i) != AMBER_OK) {
            outcomes_ok = 0;
            continue;
        }
        want = strcmp(rec.path[rec.path_length - 1], "Settings") == 0 ? AMBER_OUTCOME_CLASS_MISMATCH : AMBER_OUTCOME_RESTORED;
        snprintf(line, sizeof line, "R16 record /%s%s%s (%s): outcome %d%s%s", rec.path[0], rec.path_length > 1 ? "/" : "",
                 rec.path_length > 1 ? rec.path[1] : "", rec.class_name, rec.outcome, rec.message[0] ? " — " : "", rec.message);
        check(rec.outcome == want && rec.kind == AMBER_KIND_CONTROLLER && rec.object != NULL, line);
        if (rec.outcome != want) outcomes_ok = 0;
        if (i == 0) check(rec.object == R.nav && rec.path_length == 1, "R10 step 1: Nav made by its restoration class");
    }
    check(outcomes_ok, "R10/R11 every outcome as expected");
    {
        amber_report_record rec;
        check_status(amber_report_record_at(&rec, report, 4), AMBER_NOT_FOUND, "record_at past the end");
    }
    check(R.selected_row == 3 && R.scroll_length == 2 && R.scroll[0] == 0 && R.scroll[1] == 3 && R.zoom == 1.5,
          "R12 Items decoded its int, index path and double");
    check(strcmp(R.item_name, "Blue Lamp") == 0 && R.editing == 1 && R.blob_ok && R.when == 700000000.5,
          "R12 Detail decoded its string, bool, bytes and date");
    check(R.ref_ok, "R4 the reference decodes to the restored Items");
    check(R.mismatch_status == AMBER_TYPE_MISMATCH, "R12 a string read as an integer is AMBER_TYPE_MISMATCH");
    check(R.missing_status == AMBER_NOT_FOUND, "R12 a missing key is AMBER_NOT_FOUND");
    check(R.finished == 3, "R13 finished_restoring on the 3 restored objects");
    check(R.did_decode == 1, "R13 did_decode last");
    {
        int v;
        check_status(amber_decoder_decode_bool(&v, R.escaped_decoder, "editing"), AMBER_MISUSE, "a decoder used after its callback");
    }
    check(R.nav && amber_object_identifier(R.nav) && strcmp(amber_object_identifier(R.nav), "Nav") == 0,
          "a restored object takes the archived identifier");
    check_status(amber_object_path(&path, R.detail), AMBER_OK, "the restored Detail has a path");
    check(path.ptr && strcmp(path.ptr, "Nav/Detail") == 0, "R10 Detail placed under Nav: Nav/Detail");
    amber_buf_dispose(&path);
    {
        amber_buf text = AMBER_BUF_INIT;
        check_status(amber_report_format(&text, report), AMBER_OK, "report_format");
        check(text.ptr && strstr(text.ptr, "class mismatch") != NULL, "the text names the class mismatch");
        amber_buf_dispose(&text);
    }
    amber_report_free(report);
    check(amber_report_count(report) == 0 && amber_error_last_code() == AMBER_MISUSE, "a freed report is AMBER_MISUSE");

    check_status(amber_engine_launch(&report, R.engine, AMBER_APP_INACTIVE), AMBER_OK, "launch again");
    check(amber_report_fresh_reason(report) == AMBER_FRESH_NO_ARCHIVE, "R14 the archive was discarded after restoring");
    amber_report_free(report);
    {
        uint64_t token;
        check_status(amber_engine_extend_restoration(&token, R.engine), AMBER_MISUSE, "R15 extend outside a restoration");
        check_status(amber_engine_complete_restoration(R.engine, 12345), AMBER_NOT_FOUND, "R15 complete an unknown token");
    }
    check_status(amber_engine_discard(R.engine), AMBER_OK, "R14 discard");

    before = ctx_freed;
    amber_engine_close(R.engine);
    /* 4 objects made at launch + class + factory + delegate. */
    check(ctx_freed == before + 7, "closing B calls every remaining ctx_free once");
}

/* AMBER_TEST_PLUGIN: the sample plugin (plugin_sample.so), which run-tests.sh builds and names. */
static void test_host_store_and_codes(void) {
    const char *plugin = getenv("AMBER_TEST_PLUGIN");
    amber_engine *e = NULL;
    amber_engine_options opts;
    amber_store store;
    mem_store ms;
    amber_delegate d;
    amber_object_callbacks cb;
    amber_object *root = NULL;
    amber_report *report = NULL;
    int saved = 0, before;

    memset(&ms, 0, sizeof ms);
    memset(&store, 0, sizeof store); /* version 0 */
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.store = &store;
    check_status(amber_engine_open(&e, "org.example.store", &opts), AMBER_INVALID_ARGUMENT,
                 "open with a store of version 0");
    store = (amber_store)AMBER_STORE_INIT;
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.store = &store;
    opts.store_ctx = &ms;
    opts.store_ctx_free = count_free;
    opts.protection = AMBER_PROTECTION_FIXED_KEY;
    opts.fixed_key = (const uint8_t *)"0123456789abcdef0123456789abcdef";
    check_status(amber_engine_open(&e, "org.example.store", &opts), AMBER_INVALID_ARGUMENT, "a store without its functions");
    store = mem_store_functions();
    check_status(amber_engine_open(&e, "org.example.store", &opts), AMBER_OK, "open an engine on a host store");
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = always_save;
    d.should_restore = always_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "Root", NULL, NULL, NULL);
    amber_engine_add_root(e, root);
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "preserve into the host store");
    check(saved == 1 && ms.writes == 1 && ms.bytes != NULL, "R19 the host store's write received the archive");
    check(ms.bytes && ms.size > 8 && memcmp(ms.bytes, "AMBERENV", 8) == 0, "R20 the archive is in an envelope");
    check(ms.bytes && !contains(ms.bytes, ms.size, "NSKeyedArchiver") && !contains(ms.bytes, ms.size, "Root"),
          "R20 the stored bytes show neither the archiver's name nor an identifier (encrypted)");
    check_status(amber_engine_launch(&report, e, AMBER_APP_INACTIVE), AMBER_OK, "launch from the host store");
    check(strstr(amber_report_protection(report), "AES-256-GCM") != NULL, "R20 the report names the protection");
    check(amber_report_fresh_reason(report) == AMBER_FRESH_NONE && amber_report_count(report) == 1 && ms.reads == 1,
          "the host store's read gave the archive back");
    amber_report_free(report);
    check(ms.bytes == NULL && ms.guard == 0, "R14 archive and guard removed through the host store");

    /* An encode callback's code leaves its object out, and the rest is saved (R28). */
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = fail_encode;
    {
        amber_object *child = NULL;
        amber_preservation *p = NULL;
        amber_preservation_entry entry;
        size_t i;
        int failing = -1, kept = -1;
        amber_object_new(&child, e, AMBER_KIND_CONTROLLER, "Failing", "Failing", &cb, NULL, NULL);
        amber_object_add_child(root, child);
        saved = -1;
        check_status(amber_engine_preserve(&saved, e), AMBER_OK,
                     "R28 an encode callback that returns 42 does not fail the preservation");
        check(saved == 1 && ms.writes == 2 && ms.bytes != NULL, "R28 the rest is saved: a new archive is written");
        check_status(amber_engine_preservation(&p, e), AMBER_OK, "R28 amber_engine_preservation");
        for (i = 0; i < amber_preservation_count(p); i++) {
            if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK) continue;
            if (entry.path_length == 2 && strcmp(entry.path[1], "Failing") == 0) failing = (int)i;
            if (entry.path_length == 1 && strcmp(entry.path[0], "Root") == 0 && entry.left_out == AMBER_LEFT_OUT_NONE &&
                entry.size > 0)
                kept = (int)i;
        }
        check(amber_preservation_not_saved(p) == AMBER_NOT_SAVED_NONE && amber_preservation_count(p) == 2 && kept == 0,
              "R28 the report: Root preserved (with its size), and one more entry");
        check(failing >= 0 && amber_preservation_entry_at(&entry, p, (size_t)failing) == AMBER_OK &&
                  entry.left_out == AMBER_LEFT_OUT_ENCODE_FAILED && entry.size == 0 && strstr(entry.message, "42") != NULL,
              "R28 Root/Failing is left out, AMBER_LEFT_OUT_ENCODE_FAILED, and the message names the callback's code 42");
        check(failing >= 0 && strstr(entry.message, "host code 42") != NULL && strstr(entry.message, "AMBER_UNKNOWN_STATUS") == NULL,
              "R28 the host's own code prints as \"host code 42\", not AMBER_UNKNOWN_STATUS");
        amber_preservation_free(p);
    }

    /* should_save's and will_encode's own codes still fail the save, unchanged. */
    d.will_encode = fail_will_encode;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    {
        amber_preservation *p = NULL;
        check_status(amber_engine_preserve(&saved, e), 42, "a will_encode callback's code 42 comes back unchanged");
        check(strstr(amber_error_last(), "42") != NULL, "the message names the callback's code");
        check(strstr(amber_error_last(), "host code 42") != NULL && strstr(amber_error_last(), "AMBER_UNKNOWN_STATUS") == NULL,
              "the callback's own code prints as \"host code 42\", not AMBER_UNKNOWN_STATUS");
        check(ms.writes == 2 && ms.bytes != NULL, "on failure the previous archive is kept (nothing written)");
        check(amber_engine_preservation(&p, e) == AMBER_OK && amber_preservation_not_saved(p) == AMBER_NOT_SAVED_FAILED &&
                  strstr(amber_preservation_message(p), "42") != NULL,
              "R28 the report of a failed save: AMBER_NOT_SAVED_FAILED, the message names the code 42");
        amber_preservation_free(p);
    }
    d.will_encode = NULL;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    check_status(amber_engine_launch(&report, e, AMBER_APP_INACTIVE), AMBER_OK, "launch the archive saved without Root/Failing");
    {
        amber_report_record rec;
        int root_ok = 0, failing_left_out = 0;
        size_t i;
        for (i = 0; i < amber_report_count(report); i++) {
            if (amber_report_record_at(&rec, report, i) != AMBER_OK) continue;
            if (rec.path_length == 1 && rec.outcome == AMBER_OUTCOME_RESTORED && rec.object == root) root_ok = 1;
            if (rec.path_length == 2 && strcmp(rec.path[1], "Failing") == 0 && rec.outcome == AMBER_OUTCOME_LEFT_OUT &&
                rec.object == NULL && rec.message[0] != '\0')
                failing_left_out = 1;
        }
        check(amber_report_fresh_reason(report) == AMBER_FRESH_NONE && amber_report_count(report) == 2 && root_ok,
              "R28 the other objects are in the new archive: Root restored");
        check(failing_left_out, "R28 R16 Root/Failing comes back as AMBER_OUTCOME_LEFT_OUT, with a message");
    }
    amber_report_free(report);

    /* Plugins. */
    check_status(amber_engine_load_plugin(e, "/nonexistent/plugin.so"), AMBER_NOT_FOUND, "load a plugin that does not exist");
    check(strstr(amber_error_last(), "nonexistent") != NULL, "the message has dlerror's text");
    if (plugin) {
        amber_restoration_class rc;
        check_status(amber_engine_load_plugin(e, plugin), AMBER_OK, "load the sample plugin");
        rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
        check_status(amber_engine_register_restoration_class(e, "PluginClass", &rc, NULL, NULL), AMBER_DUPLICATE,
                     "the plugin registered PluginClass");
    }
    before = ctx_freed;
    amber_engine_close(e);
    check(ctx_freed == before + 1, "closing calls store_ctx_free once");
}

static const runner_test tests[] = {
    {"versions_and_errors", test_versions_and_errors},
    {"preserve_and_restore", test_preserve_and_restore},
    {"host_store_and_codes", test_host_store_and_codes},
};

int main(int argc, char **argv) {
    return runner_main("smoke", tests, RUNNER_COUNT(tests), argc, argv);
}

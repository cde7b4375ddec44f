/*
 * The rules 0.2 enforced only in the C layer, now the engine's (issue 41, item 1), checked
 * through include/amber.h against the table the Swift and Python tests read too
 * (Tests/rules/abi-rules.table, or $AMBER_RULE_TABLE): each case runs on a fresh engine and its
 * status must be the table's. A case of the table that this file does not implement fails.
 *
 * Usage: test_rule_table [--list] [PREFIX...] (runner.h). Prints one line per case and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mem_store.h"

static int yes_save(amber_engine *engine, amber_coder *coder, void *ctx) {
    (void)engine, (void)coder, (void)ctx;
    return 1;
}

static int yes_restore(amber_engine *engine, amber_decoder *decoder, void *ctx) {
    (void)engine, (void)decoder, (void)ctx;
    return 1;
}

/* An engine that saves and restores, on `functions` over `store` (NULL: a memory store of its own). */
static amber_engine *open_engine_on(const amber_store *functions, mem_store *store) {
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate d = AMBER_DELEGATE_INIT;
    opts.memory_store = functions == NULL;
    opts.store = functions;
    opts.store_ctx = store;
    if (amber_engine_open(&e, "org.example.rule-table", &opts) != AMBER_OK) return NULL;
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    return e;
}

static amber_engine *open_engine(void) {
    return open_engine_on(NULL, NULL);
}

static int register_class(amber_engine *e, const char *name) {
    amber_restoration_class cls = AMBER_RESTORATION_CLASS_INIT;
    return amber_engine_register_restoration_class(e, name, &cls, NULL, NULL);
}

static int register_factory(amber_engine *e, const char *name) {
    amber_blueprint_factory factory = AMBER_BLUEPRINT_FACTORY_INIT;
    return amber_engine_register_blueprint_factory(e, name, &factory, NULL, NULL);
}

static amber_object *new_object(amber_engine *e, amber_kind kind) {
    amber_object *o = NULL;
    amber_object_new(&o, e, kind, "Root", "root", NULL, NULL, NULL);
    return o;
}

/* The status of `relate` on two new objects of kinds `a` and `b`. */
static int on_pair(amber_engine *e, amber_kind a, amber_kind b, int (*relate)(amber_object *, amber_object *)) {
    return relate(new_object(e, a), new_object(e, b));
}

/* An int64 value for a batch. */
static amber_keyed_value int_value(const char *key, int64_t value) {
    amber_keyed_value v;
    memset(&v, 0, sizeof v);
    v.key = key;
    v.type = AMBER_VALUE_INT64;
    v.int64_value = value;
    return v;
}

/* The coder cases, run by the encode callback of a root: the status of the case's last call.
   `anonymous` is an object without an identifier, which a reference to is refused. */
static int batch_case(const char *name, amber_coder *c, amber_object *anonymous) {
    amber_keyed_value with_reserved[2], written_before[2], with_empty[2];
    with_reserved[0] = int_value("a", 1), with_reserved[1] = int_value("kind", 2);
    written_before[0] = int_value("b", 2), written_before[1] = int_value("a", 3);
    with_empty[0] = int_value("a", 1), with_empty[1] = int_value("", 2);
    if (!strcmp(name, "batch_reserved_key")) return amber_coder_encode_values(c, with_reserved, 2);
    if (!strcmp(name, "batch_empty_key")) return amber_coder_encode_values(c, with_empty, 2);
    if (!strcmp(name, "coder_empty_key")) return amber_coder_encode_int64(c, "", 1);
    if (!strcmp(name, "reference_refused_key_free")) {
        amber_coder_encode_object(c, "a", anonymous);
        return amber_coder_encode_int64(c, "a", 1);
    }
    if (!strcmp(name, "batch_key_written_before")) {
        int status = amber_coder_encode_int64(c, "a", 1);
        return status != AMBER_OK ? status : amber_coder_encode_values(c, written_before, 2);
    }
    /* batch_all_or_nothing: the refused batch must not have written "a" */
    amber_coder_encode_values(c, with_reserved, 2);
    return amber_coder_encode_int64(c, "a", 1);
}

/* A batch case's name and, once the encode callback ran, its status (-1 before). */
typedef struct {
    const char *name;
    int status;
    amber_object *anonymous;
} batch_run;

static int encode_batch_case(amber_object *o, amber_coder *c, void *ctx) {
    batch_run *run = ctx;
    (void)o;
    run->status = batch_case(run->name, c, run->anonymous);
    return AMBER_OK;
}

/* Runs a batch case in the encode callback of a root during a preservation: its status. */
static int in_coder(amber_engine *e, const char *name) {
    batch_run run = {name, -1, NULL};
    amber_object *root = NULL;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    int saved = 0, status;
    cb.encode = encode_batch_case;
    status = amber_object_new(&run.anonymous, e, AMBER_KIND_CONTROLLER, "Anonymous", NULL, NULL, NULL, NULL);
    if (status == AMBER_OK) status = amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "root", &cb, &run, NULL);
    if (status == AMBER_OK) status = amber_engine_add_root(e, root);
    if (status == AMBER_OK) status = amber_engine_preserve(&saved, e);
    if (status != AMBER_OK) return status;
    return run.status < 0 ? AMBER_MISUSE : run.status; /* MISUSE: the callback never ran */
}

/* Accessors and a model association that do nothing (never called: the cases are refused). */
static int no_read(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view, (void)state, (void)ctx;
    return AMBER_OK;
}

static int no_apply(amber_object *view, const amber_view_state *state, void *ctx) {
    (void)view, (void)state, (void)ctx;
    return AMBER_OK;
}

static int no_identifier(const char **out, amber_object *view, const int64_t *indexes, size_t length, void *ctx) {
    (void)view, (void)indexes, (void)length, (void)ctx;
    *out = NULL;
    return AMBER_OK;
}

static int no_index_path(int64_t *out, size_t capacity, size_t *out_length, amber_object *view, const char *identifier,
                         void *ctx) {
    (void)out, (void)capacity, (void)view, (void)identifier, (void)ctx;
    *out_length = 0;
    return AMBER_OK;
}

/* The status of giving an object of `kind` accessors of `view_kind`, read and apply only. */
static int set_accessors(amber_engine *e, amber_kind kind, amber_view_kind view_kind) {
    amber_view_accessors acc = AMBER_VIEW_ACCESSORS_INIT;
    acc.read = no_read;
    acc.apply = no_apply;
    return amber_object_set_view_accessors(new_object(e, kind), view_kind, &acc, NULL, NULL);
}

/* The status of giving a controller a model association. */
static int set_association_on_a_controller(amber_engine *e) {
    amber_model_association a = AMBER_MODEL_ASSOCIATION_INIT;
    a.identifier_for_index_path = no_identifier;
    a.index_path_for_identifier = no_index_path;
    return amber_object_set_model_association(new_object(e, AMBER_KIND_CONTROLLER), &a, NULL, NULL);
}

/* association_empty_identifier: a table's read accessor gives a first visible item, and its
 * association names it "" (not NULL, which means no identifier). */
static const int64_t first_visible[] = {0, 1};

static int read_first_visible(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view, (void)ctx;
    state->first_visible_item.indexes = first_visible;
    state->first_visible_item.length = 2;
    state->fields |= AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM;
    return AMBER_OK;
}

static int empty_identifier(const char **out, amber_object *view, const int64_t *indexes, size_t length, void *ctx) {
    (void)view, (void)indexes, (void)length, (void)ctx;
    *out = "";
    return AMBER_OK;
}

/* AMBER_CALLBACK_FAILED if the report of the last preservation left the table out because its
 * encoding failed (a preservation saves the rest, R28), else AMBER_OK. */
static int table_encode_failed(amber_engine *e) {
    amber_preservation *report = NULL;
    amber_preservation_entry entry;
    size_t i;
    int status = amber_engine_preservation(&report, e);
    if (status != AMBER_OK) return status;
    for (i = 0; i < amber_preservation_count(report); i++) {
        if (amber_preservation_entry_at(&entry, report, i) == AMBER_OK && !strcmp(entry.class_name, "TableView") &&
            entry.left_out == AMBER_LEFT_OUT_ENCODE_FAILED) {
            status = AMBER_CALLBACK_FAILED;
        }
    }
    amber_preservation_free(report);
    return status;
}

/* Preserves a root holding that table: as table_encode_failed. */
static int association_empty_identifier(amber_engine *e) {
    amber_view_accessors acc = AMBER_VIEW_ACCESSORS_INIT;
    amber_model_association a = AMBER_MODEL_ASSOCIATION_INIT;
    amber_object *root = new_object(e, AMBER_KIND_CONTROLLER), *table = NULL;
    int saved = 0;
    int status = amber_object_new(&table, e, AMBER_KIND_VIEW, "TableView", "table", NULL, NULL, NULL);
    acc.read = read_first_visible;
    acc.apply = no_apply;
    a.identifier_for_index_path = empty_identifier;
    a.index_path_for_identifier = no_index_path;
    if (status == AMBER_OK) status = amber_object_set_view_accessors(table, AMBER_VIEW_TABLE, &acc, NULL, NULL);
    if (status == AMBER_OK) status = amber_object_set_model_association(table, &a, NULL, NULL);
    if (status == AMBER_OK) status = amber_object_add_view(root, table);
    if (status == AMBER_OK) status = amber_engine_add_root(e, root);
    if (status == AMBER_OK) status = amber_engine_preserve(&saved, e);
    if (status == AMBER_OK) status = table_encode_failed(e);
    return status;
}

/* The decode callback of decoder_empty_key: reads under an empty key, its status in *ctx. */
static int decode_empty_key(amber_object *o, amber_decoder *d, void *ctx) {
    int64_t v = 0;
    (void)o;
    *(int *)ctx = amber_decoder_decode_int64(&v, d, "");
    return AMBER_OK;
}

/* decoder_empty_key: a root saved by one engine and restored by the next, on one mem_store,
 * whose decode callback reads under an empty key: the status of that read. */
static int decoder_case(void) {
    mem_store store = {0};
    amber_store functions = mem_store_functions();
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_engine *first = open_engine_on(&functions, &store), *next = NULL;
    amber_object *root = NULL;
    amber_report *report = NULL;
    int saved = 0, read = -1, status = first ? AMBER_OK : AMBER_MISUSE;
    if (status == AMBER_OK) status = amber_engine_add_root(first, new_object(first, AMBER_KIND_CONTROLLER));
    if (status == AMBER_OK) status = amber_engine_preserve(&saved, first);
    if (first) amber_engine_close(first);
    if (status == AMBER_OK && !(next = open_engine_on(&functions, &store))) status = AMBER_MISUSE;
    cb.decode = decode_empty_key;
    if (status == AMBER_OK) status = amber_object_new(&root, next, AMBER_KIND_CONTROLLER, "Root", "root", &cb, &read, NULL);
    if (status == AMBER_OK) status = amber_engine_add_root(next, root);
    if (status == AMBER_OK) status = amber_engine_launch(&report, next, AMBER_APP_INACTIVE);
    amber_report_free(report);
    if (next) amber_engine_close(next);
    mem_store_clear(&store);
    if (status != AMBER_OK) return status;
    return read < 0 ? AMBER_MISUSE : read; /* MISUSE: the decode callback never ran */
}

/* Writes the int64 `value` under `key` into the archiver. */
static int archive_int(amber_archiver *a, const char *key, int64_t value) {
    amber_keyed_value v = int_value(key, value);
    return amber_archiver_encode_values(a, &v, 1);
}

/* Finishes the archiver, disposing of the bytes. */
static int archive_finish(amber_archiver *a) {
    amber_buf bytes = AMBER_BUF_INIT;
    int status = amber_archiver_finish(&bytes, a);
    amber_buf_dispose(&bytes);
    return status;
}

/* The archiver cases: the status of the case's last call. */
static int archiver_case(const char *name) {
    amber_archiver *a = NULL;
    int status = amber_archiver_new(&a, NULL);
    if (status != AMBER_OK) return status;
    if (!strcmp(name, "archiver_key_twice")) {
        status = archive_int(a, "k", 1);
        if (status == AMBER_OK) status = archive_int(a, "k", 2);
    } else if (!strcmp(name, "archiver_empty_key")) {
        status = archive_int(a, "", 1);
    } else {
        status = archive_finish(a);
        if (status == AMBER_OK) status = archive_finish(a);
    }
    amber_archiver_free(a);
    return status;
}

/* Posts a notification whose user info has a value under an empty key: the status of the
 * first call refused (C can fill a user info only through amber_user_info_set_values). */
static int user_info_empty_key(amber_engine *e) {
    amber_user_info *info = NULL;
    amber_keyed_value v = int_value("", 1);
    int status = amber_user_info_new(&info);
    if (status == AMBER_OK) status = amber_user_info_set_values(info, &v, 1);
    if (status == AMBER_OK) status = amber_engine_post_notification(e, "n", NULL, info);
    amber_user_info_free(info);
    return status;
}

/* The coding registry cases: the status of the case's last registration. */
static int coding_class_case(const char *name) {
    amber_coding_registry *r = NULL;
    amber_coding_class cls = AMBER_CODING_CLASS_INIT;
    int status = amber_coding_registry_new(&r);
    if (status != AMBER_OK) return status;
    if (!strcmp(name, "coding_class_twice")) {
        status = amber_coding_registry_register(r, "Item", NULL, &cls, NULL, NULL);
        if (status == AMBER_OK) status = amber_coding_registry_register(r, "Item", NULL, &cls, NULL, NULL);
    } else {
        status = amber_coding_registry_register(r, "Item", "Item", &cls, NULL, NULL);
    }
    amber_coding_registry_free(r);
    return status;
}

/* Runs the steps of a case, stopping at the first that fails: its status, or AMBER_OK. */
#define STEP(call)                          \
    do {                                    \
        int status_ = (call);               \
        if (status_ != AMBER_OK) return status_; \
    } while (0)

/* Runs case `name` on `e`: its status. Sets *known to 0 for a case this file does not know. */
static int run_case(amber_engine *e, const char *name, int *known) {
    *known = 1;
    if (!strcmp(name, "restoration_class_twice")) {
        STEP(register_class(e, "Detail"));
        return register_class(e, "Detail");
    }
    if (!strcmp(name, "restoration_class_empty_name")) return register_class(e, "");
    if (!strcmp(name, "blueprint_factory_twice")) {
        STEP(register_factory(e, "Main"));
        return register_factory(e, "Main");
    }
    if (!strcmp(name, "blueprint_factory_slash")) return register_factory(e, "Main/Detail");
    if (!strcmp(name, "subclass_twice")) {
        STEP(amber_engine_register_subclass(e, "FancyList", "List"));
        return amber_engine_register_subclass(e, "FancyList", "Table");
    }
    if (!strcmp(name, "subclass_same_again")) {
        STEP(amber_engine_register_subclass(e, "FancyList", "List"));
        return amber_engine_register_subclass(e, "FancyList", "List");
    }
    if (!strcmp(name, "subclass_cycle")) {
        STEP(amber_engine_register_subclass(e, "B", "A"));
        STEP(amber_engine_register_subclass(e, "C", "B"));
        return amber_engine_register_subclass(e, "A", "C");
    }
    if (!strcmp(name, "subclass_of_itself")) return amber_engine_register_subclass(e, "A", "A");
    if (!strcmp(name, "subclass_empty_name")) return amber_engine_register_subclass(e, "", "List");
    if (!strcmp(name, "subclass_ok")) {
        STEP(amber_engine_register_subclass(e, "B", "A"));
        return amber_engine_register_subclass(e, "C", "B");
    }
    if (!strcmp(name, "root_twice")) {
        amber_object *root = new_object(e, AMBER_KIND_CONTROLLER);
        STEP(amber_engine_add_root(e, root));
        return amber_engine_add_root(e, root);
    }
    if (!strcmp(name, "root_not_a_controller")) return amber_engine_add_root(e, new_object(e, AMBER_KIND_VIEW));
    if (!strcmp(name, "remove_root_not_a_root")) return amber_engine_remove_root(e, new_object(e, AMBER_KIND_CONTROLLER));
    if (!strcmp(name, "batch_reserved_key") || !strcmp(name, "batch_key_written_before") ||
        !strcmp(name, "batch_all_or_nothing") || !strcmp(name, "batch_empty_key") ||
        !strcmp(name, "coder_empty_key") || !strcmp(name, "reference_refused_key_free")) {
        return in_coder(e, name);
    }
    if (!strcmp(name, "archiver_key_twice") || !strcmp(name, "archiver_finish_twice") || !strcmp(name, "archiver_empty_key")) {
        return archiver_case(name);
    }
    if (!strcmp(name, "user_info_empty_key")) return user_info_empty_key(e);
    if (!strcmp(name, "remove_child_not_a_child")) {
        return on_pair(e, AMBER_KIND_CONTROLLER, AMBER_KIND_CONTROLLER, amber_object_remove_child);
    }
    if (!strcmp(name, "restoration_parent_a_view")) {
        return on_pair(e, AMBER_KIND_OBJECT, AMBER_KIND_VIEW, amber_object_set_restoration_parent);
    }
    if (!strcmp(name, "object_empty_class_name")) {
        amber_object *o = NULL;
        return amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "", "root", NULL, NULL, NULL);
    }
    if (!strcmp(name, "stack_not_a_controller")) return amber_object_set_stack(new_object(e, AMBER_KIND_VIEW), 1);
    if (!strcmp(name, "dismiss_from_a_view")) return amber_object_present(new_object(e, AMBER_KIND_VIEW), NULL);
    if (!strcmp(name, "view_accessors_on_a_controller")) return set_accessors(e, AMBER_KIND_CONTROLLER, AMBER_VIEW_SCROLL);
    if (!strcmp(name, "text_view_without_text_length")) return set_accessors(e, AMBER_KIND_VIEW, AMBER_VIEW_TEXT_VIEW);
    if (!strcmp(name, "association_on_a_controller")) return set_association_on_a_controller(e);
    if (!strcmp(name, "association_empty_identifier")) return association_empty_identifier(e);
    if (!strcmp(name, "decoder_empty_key")) return decoder_case();
    if (!strcmp(name, "notification_empty_name")) return amber_engine_post_notification(e, "", NULL, NULL);
    if (!strcmp(name, "coding_class_twice") || !strcmp(name, "coding_class_own_superclass")) return coding_class_case(name);
    *known = 0;
    return AMBER_OK;
}

/* The status whose name is `name` ("AMBER_DUPLICATE"), or -1. */
static int status_named(const char *name) {
    int status;
    for (status = AMBER_OK; status <= AMBER_CALLBACK_FAILED; status++) {
        if (!strcmp(amber_status_string(status), name)) return status;
    }
    return -1;
}

static void test_table(void) {
    const char *path = getenv("AMBER_RULE_TABLE") ? getenv("AMBER_RULE_TABLE") : "Tests/rules/abi-rules.table";
    char line[512], name[128], status[64], rule[16];
    int rows = 0;
    FILE *f = fopen(path, "r");
    checkf(f != NULL, "the table %s opens", path);
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        amber_engine *e;
        int known, want, got;
        if (line[0] == '#' || sscanf(line, "%127s %63s %15s", name, status, rule) != 3) continue;
        rows++;
        want = status_named(status);
        e = open_engine();
        got = run_case(e, name, &known);
        if (!known) {
            checkf(0, "%s %s: case of the table implemented in test_rule_table.c", rule, name);
        } else if (want < 0) {
            checkf(0, "%s %s: the table's status %s is a status name", rule, name, status);
        } else {
            char what[256];
            snprintf(what, sizeof what, "%s %s", rule, name);
            check_status(got, want, what);
        }
        amber_engine_close(e);
    }
    fclose(f);
    checkf(rows >= 10, "the table has its rows (%d)", rows);
}

int main(int argc, char **argv) {
    static const runner_test tests[] = {{"table", test_table}};
    return runner_main("rule_table", tests, RUNNER_COUNT(tests), argc, argv);
}

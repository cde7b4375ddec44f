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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static amber_engine *open_engine(void) {
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    opts.memory_store = 1;
    return amber_engine_open(&e, "org.example.rule-table", &opts) == AMBER_OK ? e : NULL;
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

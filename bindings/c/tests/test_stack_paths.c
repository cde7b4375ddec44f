/*
 * Every stack position in a path (SPEC R3) through include/amber.h alone: a navigation stack
 * "nav" holds two children "A", each with a child "X". The two X are told apart in
 * amber_object_path(), in the preservation report (amber_preservation_entry_positions), in what
 * the restoration class and the delegate are given (amber_decoder_path_positions, R10) and in
 * the restoration report (amber_report_record_positions, R16), on an engine relaunched by the
 * test helper (R33).
 *
 * Usage: test_stack_paths [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The positions of a path of up to 4 components, as "0.1.0" (for messages and comparisons). */
static void spell(char *out, size_t capacity, const size_t *positions, size_t length) {
    size_t i, used = 0;
    out[0] = '\0';
    for (i = 0; i < length && i < 4 && used < capacity; i++)
        used += (size_t)snprintf(out + used, capacity - used, i ? ".%zu" : "%zu", positions[i]);
}

static int yes_save(amber_engine *engine, amber_coder *coder, void *ctx) {
    (void)engine, (void)coder, (void)ctx;
    return 1;
}

static int yes_restore(amber_engine *engine, amber_decoder *decoder, void *ctx) {
    (void)engine, (void)decoder, (void)ctx;
    return 1;
}

/* What the lookup callbacks of the relaunched engine were given, in order. */
typedef struct asked {
    char lines[8][96]; /* "delegate nav/A 0.1", "class nav/A/X 0.1.0" */
    int count;
} asked;

static void note(asked *a, const char *who, const char *const *path, size_t length, amber_decoder *d) {
    const size_t *positions = NULL;
    size_t n = 0, i;
    char spelled[32], joined[32] = "";
    if (a->count >= 8) return;
    if (amber_decoder_path_positions(&positions, &n, d) != AMBER_OK || n != length) {
        snprintf(a->lines[a->count++], sizeof a->lines[0], "%s: no positions", who);
        return;
    }
    for (i = 0; i < length; i++) {
        if (i) strncat(joined, "/", sizeof joined - strlen(joined) - 1);
        strncat(joined, path[i], sizeof joined - strlen(joined) - 1);
    }
    spell(spelled, sizeof spelled, positions, n);
    snprintf(a->lines[a->count++], sizeof a->lines[0], "%s %s %s", who, joined, spelled);
}

static int make_panel(amber_object **out, amber_engine *engine, const char *const *path, size_t length,
                      amber_decoder *d, void *ctx) {
    note(ctx, "class", path, length, d);
    return amber_object_new(out, engine, AMBER_KIND_CONTROLLER, "Panel", path[length - 1], NULL, NULL, NULL);
}

static int find_screen(amber_object **out, amber_engine *engine, const char *const *path, size_t length,
                       amber_decoder *d, void *ctx) {
    if (length < 2) return AMBER_OK; /* the stack is found where it is */
    note(ctx, "delegate", path, length, d);
    return amber_object_new(out, engine, AMBER_KIND_CONTROLLER, "Screen", path[length - 1], NULL, NULL, NULL);
}

static int encode_title(amber_object *o, amber_coder *c, void *ctx) {
    (void)o;
    return amber_coder_encode_string(c, "title", ctx);
}

/* nav (a stack) -> A -> X, A -> X in `e`; the X in xs[0] and xs[1]. */
static amber_object *build(amber_engine *e, amber_object *xs[2]) {
    amber_object *nav = NULL;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    static const char *titles[2] = {"first", "second"};
    int i;
    cb.encode = encode_title;
    amber_object_new(&nav, e, AMBER_KIND_CONTROLLER, "Stack", "nav", NULL, NULL, NULL);
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, nav);
    for (i = 0; i < 2; i++) {
        amber_object *a = NULL;
        amber_object_new(&a, e, AMBER_KIND_CONTROLLER, "Screen", "A", NULL, NULL, NULL);
        amber_object_new(&xs[i], e, AMBER_KIND_CONTROLLER, "Panel", "X", &cb, (void *)titles[i], NULL);
        amber_object_set_restoration_class(xs[i], "Panels");
        amber_object_add_child(nav, a);
        amber_object_add_child(a, xs[i]);
    }
    return nav;
}

static int set_up(amber_engine *e, void *ctx) {
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_restoration_class cls = AMBER_RESTORATION_CLASS_INIT;
    amber_object *nav = NULL;
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    d.object_for_path = find_screen;
    amber_engine_set_delegate(e, &d, ctx, NULL);
    cls.make = make_panel;
    amber_engine_register_restoration_class(e, "Panels", &cls, ctx, NULL);
    amber_object_new(&nav, e, AMBER_KIND_CONTROLLER, "Stack", "nav", NULL, NULL, NULL);
    amber_object_set_stack(nav, 1);
    return amber_engine_add_root(e, nav);
}

/* The positions of every entry of class "Panel" in `p`, spelled and separated by spaces. */
static void panel_entries(char *out, size_t capacity, amber_preservation *p) {
    size_t i, n = amber_preservation_count(p);
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        amber_preservation_entry entry;
        const size_t *positions = NULL;
        char spelled[32];
        if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK || strcmp(entry.class_name, "Panel") != 0) continue;
        if (amber_preservation_entry_positions(&positions, p, i) != AMBER_OK) return;
        spell(spelled, sizeof spelled, positions, entry.path_length);
        if (out[0]) strncat(out, " ", capacity - strlen(out) - 1);
        strncat(out, spelled, capacity - strlen(out) - 1);
    }
}

/* The same for the records of class "Panel" of a restoration report. */
static void panel_records(char *out, size_t capacity, amber_report *r) {
    size_t i, n = amber_report_count(r);
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        amber_report_record rec;
        const size_t *positions = NULL;
        char spelled[32];
        if (amber_report_record_at(&rec, r, i) != AMBER_OK || strcmp(rec.class_name, "Panel") != 0) continue;
        if (amber_report_record_positions(&positions, r, i) != AMBER_OK) return;
        spell(spelled, sizeof spelled, positions, rec.path_length);
        if (out[0]) strncat(out, " ", capacity - strlen(out) - 1);
        strncat(out, spelled, capacity - strlen(out) - 1);
    }
}

static void test_r3_each_component_has_its_position(void) {
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_object *xs[2] = {NULL, NULL};
    amber_buf first = AMBER_BUF_INIT, second = AMBER_BUF_INIT, text = AMBER_BUF_INIT;
    amber_preservation *p = NULL;
    amber_relaunch relaunch = AMBER_RELAUNCH_INIT;
    amber_report *report = NULL;
    const size_t *positions = NULL;
    char spelled[96];
    asked a;
    int saved = 0, i;
    memset(&a, 0, sizeof a);
    opts.memory_store = 1;
    if (amber_engine_open(&e, "org.example.stack-paths", &opts) != AMBER_OK) {
        check(0, "R3 open an engine");
        return;
    }
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    build(e, xs);

    /* R3: amber_object_path() shows every position. */
    check(amber_object_path(&first, xs[0]) == AMBER_OK && amber_object_path(&second, xs[1]) == AMBER_OK,
          "R3 amber_object_path of both X");
    checkf(first.ptr && second.ptr && strcmp((const char *)first.ptr, "nav/A/X") == 0
               && strcmp((const char *)second.ptr, "nav/A[1]/X") == 0,
           "R3 amber_object_path tells the two X apart ('%s', '%s')", first.ptr ? (const char *)first.ptr : "",
           second.ptr ? (const char *)second.ptr : "");
    amber_buf_dispose(&first);
    amber_buf_dispose(&second);

    /* R28: the preservation report gives each component's position. */
    check(amber_engine_preserve(&saved, e) == AMBER_OK && saved, "R28 preserve");
    check(amber_engine_preservation(&p, e) == AMBER_OK, "R28 amber_engine_preservation");
    panel_entries(spelled, sizeof spelled, p);
    checkf(strcmp(spelled, "0.0.0 0.1.0") == 0, "R28 the entries of the two X have positions 0.0.0 and 0.1.0 ('%s')",
           spelled);
    check_status(amber_preservation_entry_positions(&positions, p, amber_preservation_count(p)), AMBER_NOT_FOUND,
                 "R28 amber_preservation_entry_positions past the end is AMBER_NOT_FOUND");
    check_status(amber_preservation_entry_positions(NULL, p, 0), AMBER_INVALID_ARGUMENT,
                 "R28 amber_preservation_entry_positions with out NULL is AMBER_INVALID_ARGUMENT");
    for (i = 0; i < (int)amber_preservation_largest_count(p); i++) {
        amber_preservation_entry entry;
        if (amber_preservation_largest_at(&entry, p, (size_t)i) != AMBER_OK) break;
        if (strcmp(entry.class_name, "Panel") == 0 && amber_preservation_largest_positions(&positions, p, (size_t)i) == AMBER_OK
            && positions[1] == 1)
            break;
    }
    check(i < (int)amber_preservation_largest_count(p), "R31 amber_preservation_largest_positions gives the second X's 0.1.0");
    amber_preservation_free(p);

    /* R10, R16: the relaunched engine's lookups and report. */
    relaunch.set_up = set_up;
    check(amber_testing_relaunch(&report, &e, &relaunch, &a) == AMBER_OK, "R33 relaunch");
    if (!report) {
        amber_engine_close(e);
        return;
    }
    checkf(a.count == 4 && strcmp(a.lines[0], "delegate nav/A 0.0") == 0 && strcmp(a.lines[1], "class nav/A/X 0.0.0") == 0
               && strcmp(a.lines[2], "delegate nav/A 0.1") == 0 && strcmp(a.lines[3], "class nav/A/X 0.1.0") == 0,
           "R10 the delegate and the restoration class read each component's position ('%s', '%s', '%s', '%s')",
           a.lines[0], a.lines[1], a.lines[2], a.lines[3]);
    panel_records(spelled, sizeof spelled, report);
    checkf(strcmp(spelled, "0.0.0 0.1.0") == 0, "R16 the records of the two X have positions 0.0.0 and 0.1.0 ('%s')",
           spelled);
    check_status(amber_report_record_positions(&positions, report, amber_report_count(report)), AMBER_NOT_FOUND,
                 "R16 amber_report_record_positions past the end is AMBER_NOT_FOUND");
    check(amber_report_format(&text, report) == AMBER_OK && text.ptr && strstr((const char *)text.ptr, "/nav/A[1]/X"),
          "R16 amber_report_format shows /nav/A[1]/X");
    amber_buf_dispose(&text);
    amber_report_free(report);
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r3_each_component_has_its_position", test_r3_each_component_has_its_position},
};

int main(int argc, char **argv) {
    return runner_main("stack_paths", tests, RUNNER_COUNT(tests), argc, argv);
}

/*
 * install_check.c — a C host of an installed Amber, built the way a user builds one:
 *
 *   cc install_check.c $(pkg-config --cflags --libs amber) -o install_check
 *
 *   install_check STATE_DIR   first run: no archive there yet, so the launch is fresh; builds a
 *                             two-screen app (a navigation stack "Nav" holding "List", with
 *                             "Detail" pushed on top, each with state of its own), preserves it
 *                             into STATE_DIR (the built-in file store, encrypted under a key file
 *                             beside the archive) and prints "preserved".
 *                             Second run: the launch finds the archive; the restoration class
 *                             "Screens" remakes each screen by its identifier, each decodes its
 *                             state, and it prints what was restored and "restored 3 of 3".
 *
 * Exits 0 on success, 1 if a call fails or something was not restored (scripts/test-install.sh).
 */
#include "amber.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP_ID "org.example.installcheck"

static void check(int rc, const char *what) {
    if (rc != AMBER_OK) {
        fprintf(stderr, "install_check: %s: %s: %s\n", what, amber_status_string(rc), amber_error_last());
        exit(1);
    }
}

/* The host's side of a screen: its identifier and the state it keeps. */
typedef struct screen {
    char id[16];
    int64_t selected_row; /* List */
    char text[64];        /* Detail: a half-typed name */
} screen;

static int encode_screen(amber_object *o, amber_coder *c, void *ctx) {
    screen *s = ctx;
    (void)o;
    if (strcmp(s->id, "List") == 0) return amber_coder_encode_int64(c, "selectedRow", s->selected_row);
    if (strcmp(s->id, "Detail") == 0) return amber_coder_encode_string(c, "text", s->text);
    return AMBER_OK;
}

static int decode_screen(amber_object *o, amber_decoder *d, void *ctx) {
    screen *s = ctx;
    const char *text = NULL; /* borrowed until the callback returns: copy it */
    int rc = AMBER_OK;
    (void)o;
    if (strcmp(s->id, "List") == 0) rc = amber_decoder_decode_int64(&s->selected_row, d, "selectedRow");
    if (strcmp(s->id, "Detail") == 0 && (rc = amber_decoder_decode_string(&text, d, "text")) == AMBER_OK)
        snprintf(s->text, sizeof s->text, "%s", text);
    return rc;
}

/* A screen's restorable object; its context, a fresh `screen`, is freed by Amber with it. */
static int new_screen(amber_object **out, amber_engine *e, const char *id) {
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    screen *s = calloc(1, sizeof *s);
    int rc;
    if (!s) return AMBER_LIMIT_EXCEEDED;
    snprintf(s->id, sizeof s->id, "%s", id);
    cb.encode = encode_screen;
    cb.decode = decode_screen;
    if ((rc = amber_object_new(out, e, AMBER_KIND_CONTROLLER, strcmp(id, "Nav") == 0 ? "NavigationController" : "Screen",
                               id, &cb, s, free)) != AMBER_OK) {
        free(s); /* on failure Amber does not call free */
        return rc;
    }
    if (strcmp(id, "Nav") == 0 && (rc = amber_object_set_stack(*out, 1)) != AMBER_OK) return rc;
    return amber_object_set_restoration_class(*out, "Screens");
}

/* The restoration class: makes a screen from the last identifier of its path. */
static int make_screen(amber_object **out, amber_engine *e, const char *const *path, size_t n, amber_decoder *d,
                       void *ctx) {
    (void)d; (void)ctx;
    return new_screen(out, e, path[n - 1]);
}

static int yes_save(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int yes_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

int main(int argc, char **argv) {
    amber_engine_options options = AMBER_ENGINE_OPTIONS_INIT;
    amber_restoration_class cls = AMBER_RESTORATION_CLASS_INIT;
    amber_delegate delegate = AMBER_DELEGATE_INIT;
    amber_engine *engine = NULL;
    amber_report *report = NULL;
    amber_report_record rec;
    size_t i, count, restored = 0;
    int saved = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: install_check STATE_DIR\n");
        return 2;
    }
    printf("Amber %s (header %s)\n", amber_version_string(), AMBER_VERSION_STRING);
    options.state_directory = argv[1];
    check(amber_engine_open(&engine, APP_ID, &options), "amber_engine_open");
    cls.make = make_screen;
    check(amber_engine_register_restoration_class(engine, "Screens", &cls, NULL, NULL), "register Screens");
    delegate.should_save = yes_save;
    delegate.should_restore = yes_restore;
    check(amber_engine_set_delegate(engine, &delegate, NULL, NULL), "amber_engine_set_delegate");

    check(amber_engine_launch(&report, engine, AMBER_APP_INACTIVE), "amber_engine_launch");
    if (amber_report_fresh_reason(report) == AMBER_FRESH_NONE) {
        /* Second run: print what came back. */
        count = amber_report_count(report);
        for (i = 0; i < count; i++) {
            screen *s;
            check(amber_report_record_at(&rec, report, i), "amber_report_record_at");
            if (rec.outcome != AMBER_OUTCOME_RESTORED) continue;
            restored++;
            s = amber_object_context(rec.object);
            printf("restored %s", s->id);
            if (strcmp(s->id, "List") == 0) printf(": selectedRow = %lld", (long long)s->selected_row);
            if (strcmp(s->id, "Detail") == 0) printf(": text = \"%s\"", s->text);
            printf("\n");
        }
        printf("restored %zu of %zu\n", restored, count);
        amber_report_free(report);
        amber_engine_close(engine);
        return restored == 3 && count == 3 ? 0 : 1;
    }
    printf("fresh launch (%s)\n", amber_report_message(report));
    amber_report_free(report);

    /* First run: build the app and preserve it. */
    {
        amber_object *nav = NULL, *list = NULL, *detail = NULL;
        check(new_screen(&nav, engine, "Nav"), "Nav");
        check(new_screen(&list, engine, "List"), "List");
        check(new_screen(&detail, engine, "Detail"), "Detail");
        check(amber_engine_add_root(engine, nav), "add Nav as a root");
        check(amber_object_add_child(nav, list), "push List");
        check(amber_object_add_child(nav, detail), "push Detail");
        ((screen *)amber_object_context(list))->selected_row = 4;
        snprintf(((screen *)amber_object_context(detail))->text, sizeof(((screen *)0)->text), "%s", "Shiny Sp");
    }
    check(amber_engine_preserve(&saved, engine), "amber_engine_preserve");
    amber_engine_close(engine);
    if (!saved) {
        fprintf(stderr, "install_check: nothing was preserved\n");
        return 1;
    }
    printf("preserved Nav/List, Nav/Detail into %s\n", argv[1]);
    return 0;
}

/*
 * State versions and migration (SPEC R30) through include/amber.h alone: an engine on a memory
 * store holds a tree root -> tab -> field, the tab's class at some state version; the relaunch
 * test helper (R33, amber_testing_relaunch) preserves it, closes the engine, and sets up a new
 * one that declares the tab's class at version 2 with a migrate callback, then launches it.
 *
 * Usage: test_versions [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int yes_save(amber_engine *engine, amber_coder *coder, void *ctx) {
    (void)engine, (void)coder, (void)ctx;
    return 1;
}

static int yes_restore(amber_engine *engine, amber_decoder *decoder, void *ctx) {
    (void)engine, (void)decoder, (void)ctx;
    return 1;
}

static amber_engine *open_engine(void) {
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate d = AMBER_DELEGATE_INIT;
    opts.memory_store = 1;
    if (amber_engine_open(&e, "org.example.versions", &opts) != AMBER_OK) return NULL;
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    return e;
}

/* ---- run 1: the tree, its tab writing "title" (version 1) ------------------------------ */

static int encode_title(amber_object *o, amber_coder *c, void *ctx) {
    (void)o, (void)ctx;
    return amber_coder_encode_string(c, "title", "Inbox");
}

static int encode_text(amber_object *o, amber_coder *c, void *ctx) {
    (void)o, (void)ctx;
    return amber_coder_encode_string(c, "text", "typed");
}

/* Builds root -> tab -> field in `e`, the tab's class "Tab" declared at `tab_version` (0: none). */
static void build_run1(amber_engine *e, unsigned tab_version) {
    amber_object *root = NULL, *tab = NULL, *field = NULL;
    amber_object_callbacks tab_cb = AMBER_OBJECT_CALLBACKS_INIT, field_cb = AMBER_OBJECT_CALLBACKS_INIT;
    if (tab_version) amber_engine_register_state_version(e, "Tab", tab_version, NULL, NULL, NULL);
    tab_cb.encode = encode_title;
    field_cb.encode = encode_text;
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "root", NULL, NULL, NULL);
    amber_object_new(&tab, e, AMBER_KIND_CONTROLLER, "Tab", "tab", &tab_cb, NULL, NULL);
    amber_object_new(&field, e, AMBER_KIND_CONTROLLER, "Field", "field", &field_cb, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, tab);
    amber_object_add_child(tab, field);
}

/* ---- run 2: version 2 of the tab's state is "caption" ---------------------------------- */

typedef struct restored {
    char caption[64];
    char text[64];
    int migrations;
    unsigned from, to;
    int decline;
    int bogus_answer; /* sets *out to neither AMBER_MIGRATION_DONE nor AMBER_MIGRATION_DECLINED */
    int own_failure;  /* fails for a reason of its own, said with amber_error_set() */
    int ctx_freed;
} restored;

static int migrate_tab(amber_migration *out, amber_coder *new_state, amber_decoder *old_state, unsigned from_version,
                       unsigned to_version, void *ctx) {
    restored *r = ctx;
    const char *title = NULL;
    char caption[80];
    int status;
    r->migrations++;
    r->from = from_version;
    r->to = to_version;
    if (r->bogus_answer) {
        *out = (amber_migration)42;
        return AMBER_OK;
    }
    if (r->decline) {
        *out = AMBER_MIGRATION_DECLINED;
        return AMBER_OK;
    }
    if (r->own_failure) return amber_error_set(AMBER_CALLBACK_FAILED, "no title in this state");
    status = amber_decoder_decode_string(&title, old_state, "title");
    if (status != AMBER_OK) return status;
    snprintf(caption, sizeof caption, "[%s]", title);
    return amber_coder_encode_string(new_state, "caption", caption);
}

static void free_restored(void *ctx) { ((restored *)ctx)->ctx_freed++; }

static int decode_caption(amber_object *o, amber_decoder *d, void *ctx) {
    restored *r = ctx;
    (void)o;
    return decoder_copy_string(r->caption, sizeof r->caption, d, "caption");
}

static int decode_text(amber_object *o, amber_decoder *d, void *ctx) {
    restored *r = ctx;
    (void)o;
    return decoder_copy_string(r->text, sizeof r->text, d, "text");
}

/* The relaunch's set-up: the delegate, "Tab" at version 2 with migrate_tab, the tree. */
static int set_up_run2(amber_engine *e, void *ctx) {
    restored *r = ctx;
    amber_object *root = NULL, *tab = NULL, *field = NULL;
    amber_object_callbacks tab_cb = AMBER_OBJECT_CALLBACKS_INIT, field_cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_delegate d = AMBER_DELEGATE_INIT;
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    check_status(amber_engine_register_state_version(e, "Tab", 2, migrate_tab, r, free_restored), AMBER_OK,
                 "R30 register Tab at state version 2 with a migrate callback");
    tab_cb.decode = decode_caption;
    field_cb.decode = decode_text;
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "root", NULL, NULL, NULL);
    amber_object_new(&tab, e, AMBER_KIND_CONTROLLER, "Tab", "tab", &tab_cb, r, NULL);
    amber_object_new(&field, e, AMBER_KIND_CONTROLLER, "Field", "field", &field_cb, r, NULL);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, tab);
    return amber_object_add_child(tab, field);
}

/* Builds run 1 with "Tab" at `tab_version` (0: none), then relaunches (R33) into run 2; returns
 * the report, the new engine in *out_engine. */
static amber_report *relaunch_tabs(unsigned tab_version, restored *r, amber_engine **out_engine) {
    amber_engine *e = open_engine();
    amber_report *report = NULL;
    amber_relaunch relaunch = AMBER_RELAUNCH_INIT;
    *out_engine = NULL;
    if (!e) return NULL;
    build_run1(e, tab_version);
    relaunch.set_up = set_up_run2;
    if (amber_testing_relaunch(&report, &e, &relaunch, r) != AMBER_OK) {
        amber_engine_close(e);
        return NULL;
    }
    *out_engine = e;
    return report;
}

/* R30: a v1 record migrated to v2. */
static void test_r30_migrates_v1_to_v2(void) {
    restored r;
    amber_engine *e = NULL;
    amber_report *report;
    amber_report_record rec;
    amber_buf text = AMBER_BUF_INIT;
    memset(&r, 0, sizeof r);
    report = relaunch_tabs(0, &r, &e);
    check(report != NULL, "R30 R33 relaunch from Tab without a declared version (version 1) to Tab at version 2");
    if (!report) return;
    checkf(r.migrations == 1 && r.from == 1 && r.to == 2, "R30 the migrate callback ran once, from 1 to 2 (ran %d, %u to %u)",
           r.migrations, r.from, r.to);
    checkf(strcmp(r.caption, "[Inbox]") == 0, "R30 the tab's decode read the migrated caption (got '%s')", r.caption);
    checkf(strcmp(r.text, "typed") == 0, "R30 the field under it restored as archived (got '%s')", r.text);
    check(report_record_ending_with(report, "tab", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_MIGRATED,
          "R30 the tab's outcome is AMBER_OUTCOME_MIGRATED");
    checkf(strcmp(rec.message, "migrated from version 1 to version 2") == 0, "R30 its message names the versions ('%s')",
           rec.message);
    check(report_record_ending_with(report, "field", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_RESTORED, "R30 the field is restored");
    check(amber_report_format(&text, report) == AMBER_OK && text.ptr
              && strstr((const char *)text.ptr, "migrated (from 1 to 2)  /root/tab") != NULL,
          "R30 amber_report_format prints 'migrated (from 1 to 2)'");
    amber_buf_dispose(&text);
    amber_report_free(report);
    amber_engine_close(e);
    check(r.ctx_freed == 1, "R30 the migrate callback's ctx_free ran once at close");
}

/* R30: a v3 record declined (the class is at version 2), with its subtree. */
static void test_r30_declines_v3(void) {
    restored r;
    amber_engine *e = NULL;
    amber_report *report;
    amber_report_record rec;
    amber_buf text = AMBER_BUF_INIT;
    memset(&r, 0, sizeof r);
    report = relaunch_tabs(3, &r, &e);
    check(report != NULL, "R30 R33 relaunch from Tab at version 3 to Tab at version 2");
    if (!report) return;
    check(r.migrations == 0 && r.caption[0] == '\0' && r.text[0] == '\0', "R30 nothing migrated or decoded");
    check(report_record_ending_with(report, "tab", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_DECLINED_VERSION,
          "R30 the v3 tab is AMBER_OUTCOME_DECLINED_VERSION");
    checkf(strstr(rec.message, "archived at state version 3; class Tab is at version 2") != NULL,
           "R30 its message names the versions ('%s')", rec.message);
    check(report_record_ending_with(report, "field", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_LEFT_OUT,
          "R30 the field under it is left out, as under a declining restoration class (R10)");
    check(amber_report_format(&text, report) == AMBER_OK && text.ptr
              && strstr((const char *)text.ptr, "declined: version  /root/tab") != NULL,
          "R30 amber_report_format prints 'declined: version'");
    amber_buf_dispose(&text);
    amber_report_free(report);
    amber_engine_close(e);
}

/* R30: a migrate callback that declines; a bad registration. */
static void test_r30_decline_and_arguments(void) {
    restored r;
    amber_engine *e = NULL;
    amber_report *report;
    amber_report_record rec;
    memset(&r, 0, sizeof r);
    r.decline = 1;
    report = relaunch_tabs(0, &r, &e);
    if (!report) {
        check(0, "R30 R33 relaunch");
        return;
    }
    check(r.migrations == 1 && report_record_ending_with(report, "tab", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_DECLINED_VERSION,
          "R30 a migrate callback that sets AMBER_MIGRATION_DECLINED declines the record");
    check(report_record_ending_with(report, "field", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_LEFT_OUT, "R30 and its subtree");
    check_status(amber_engine_register_state_version(e, "Tab", 3, NULL, NULL, NULL), AMBER_DUPLICATE,
                 "R30 a second version for Tab");
    check_status(amber_engine_register_state_version(e, "Other", 0, NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R30 version 0");
    check_status(amber_engine_register_state_version(e, NULL, 2, NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R30 class name NULL");
    check_status(amber_engine_register_state_version(NULL, "Other", 2, NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R30 engine NULL");
    amber_report_free(report);
    amber_engine_close(e);
}

/* R30: a migrate callback's answer that is neither DONE nor DECLINED is a callback failure. */
static void test_r30_bad_answer(void) {
    restored r;
    amber_engine *e = NULL;
    amber_report *report;
    amber_report_record rec;
    memset(&r, 0, sizeof r);
    r.bogus_answer = 1;
    report = relaunch_tabs(0, &r, &e);
    if (!report) {
        check(0, "R30 R33 relaunch");
        return;
    }
    check(report_record_ending_with(report, "tab", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_DECODE_ERROR,
          "R30 the tab whose migrate callback answered 42 is AMBER_OUTCOME_DECODE_ERROR");
    checkf(strstr(rec.message, "set *out to 42, which is neither AMBER_MIGRATION_DONE nor AMBER_MIGRATION_DECLINED") != NULL,
           "R30 ... its message says what the callback answered ('%s')", rec.message);
    check(r.caption[0] == '\0', "R30 ... the tab decoded nothing");
    check(report_record_ending_with(report, "field", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_RESTORED,
          "R30 ... the field under it is restored");
    amber_report_free(report);
    amber_engine_close(e);
}

/* R30: a migrate callback that fails with a message of its own (amber_error_set): the record's
 * message gives it after the code. */
static void test_r30_failure_with_its_message(void) {
    restored r;
    amber_engine *e = NULL;
    amber_report *report;
    amber_report_record rec;
    memset(&r, 0, sizeof r);
    r.own_failure = 1;
    report = relaunch_tabs(0, &r, &e);
    if (!report) {
        check(0, "R30 R33 relaunch");
        return;
    }
    check(report_record_ending_with(report, "tab", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_DECODE_ERROR,
          "R30 the tab whose migrate callback failed is AMBER_OUTCOME_DECODE_ERROR");
    checkf(strcmp(rec.message, "the migrate callback of class Tab returned 12 (AMBER_CALLBACK_FAILED): "
                               "no title in this state") == 0,
           "R30 ... its message gives the code and the message the callback set with amber_error_set ('%s')",
           rec.message);
    check(report_record_ending_with(report, "field", &rec) >= 0 && rec.outcome == AMBER_OUTCOME_RESTORED,
          "R30 ... the field under it is restored");
    amber_report_free(report);
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r30_migrates_v1_to_v2", test_r30_migrates_v1_to_v2},
    {"r30_declines_v3", test_r30_declines_v3},
    {"r30_decline_and_arguments", test_r30_decline_and_arguments},
    {"r30_bad_answer", test_r30_bad_answer},
    {"r30_failure_with_its_message", test_r30_failure_with_its_message},
};

int main(int argc, char **argv) {
    return runner_main("versions", tests, RUNNER_COUNT(tests), argc, argv);
}

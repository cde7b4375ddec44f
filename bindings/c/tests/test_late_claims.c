/*
 * State claimed late (SPEC R35) through include/amber.h alone: an engine on a memory store holds
 * root -> tab -> field; the relaunch test helper (R33) preserves it and sets up a new engine
 * that keeps the records that find no object and makes only the root. A tab created after
 * launch claims its state and its field's; with a short keep time, a claim after the deadline
 * gets nothing and the report says why.
 *
 * Usage: test_late_claims [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static int yes(amber_engine *engine, void *coder, void *ctx) {
    (void)engine, (void)coder, (void)ctx;
    return 1;
}
static int yes_save(amber_engine *e, amber_coder *c, void *ctx) { return yes(e, c, ctx); }
static int yes_restore(amber_engine *e, amber_decoder *d, void *ctx) { return yes(e, d, ctx); }

static void set_delegate(amber_engine *e) {
    amber_delegate d = AMBER_DELEGATE_INIT;
    d.should_save = yes_save;
    d.should_restore = yes_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
}

static void sleep_ms(long ms) {
    struct timespec t;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&t, NULL);
}

/* ---- the tab and its field ------------------------------------------------------------------ */

typedef struct decoded {
    char title[64], text[64];
    int finished;
} decoded;

static int encode_title(amber_object *o, amber_coder *c, void *ctx) {
    (void)o, (void)ctx;
    return amber_coder_encode_string(c, "title", "Inbox");
}
static int encode_text(amber_object *o, amber_coder *c, void *ctx) {
    (void)o, (void)ctx;
    return amber_coder_encode_string(c, "text", "typed");
}
static int decode_title(amber_object *o, amber_decoder *d, void *ctx) {
    decoded *r = ctx;
    (void)o;
    return decoder_copy_string(r->title, sizeof r->title, d, "title");
}
static int decode_text(amber_object *o, amber_decoder *d, void *ctx) {
    decoded *r = ctx;
    (void)o;
    return decoder_copy_string(r->text, sizeof r->text, d, "text");
}
static void finished(amber_object *o, void *ctx) {
    (void)o;
    ((decoded *)ctx)->finished++;
}

/* tab -> field, with encode and decode callbacks; returns the tab. */
static amber_object *make_tab(amber_engine *e, decoded *r) {
    amber_object *tab = NULL, *field = NULL;
    amber_object_callbacks tab_cb = AMBER_OBJECT_CALLBACKS_INIT, field_cb = AMBER_OBJECT_CALLBACKS_INIT;
    tab_cb.encode = encode_title;
    tab_cb.decode = decode_title;
    tab_cb.finished_restoring = finished;
    field_cb.encode = encode_text;
    field_cb.decode = decode_text;
    amber_object_new(&tab, e, AMBER_KIND_CONTROLLER, "Tab", "tab", &tab_cb, r, NULL);
    amber_object_new(&field, e, AMBER_KIND_CONTROLLER, "Field", "field", &field_cb, r, NULL);
    amber_object_add_child(tab, field);
    return tab;
}

/* ---- the relaunch --------------------------------------------------------------------------- */

typedef struct run2 {
    unsigned long keep_ms;
    amber_object *root;
} run2;

/* Run 2's set-up: keep unclaimed records, make the root only (the tab is opened later). */
static int set_up(amber_engine *e, void *ctx) {
    run2 *r = ctx;
    set_delegate(e);
    check_status(amber_engine_keep_unclaimed(e, r->keep_ms), AMBER_OK, "R35 amber_engine_keep_unclaimed before launch");
    amber_object_new(&r->root, e, AMBER_KIND_CONTROLLER, "Root", "root", NULL, NULL, NULL);
    return amber_engine_add_root(e, r->root);
}

/* Run 1 (root -> tab -> field) relaunched into run 2; the new engine, or NULL. */
static amber_engine *relaunch_without_the_tab(run2 *r, amber_report **out_report) {
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_object *root = NULL;
    amber_relaunch relaunch = AMBER_RELAUNCH_INIT;
    decoded unused;
    opts.memory_store = 1;
    *out_report = NULL;
    if (amber_engine_open(&e, "org.example.late", &opts) != AMBER_OK) return NULL;
    set_delegate(e);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "root", NULL, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, make_tab(e, &unused));
    relaunch.set_up = set_up;
    if (amber_testing_relaunch(out_report, &e, &relaunch, r) != AMBER_OK) {
        amber_engine_close(e);
        return NULL;
    }
    return e;
}

/* The outcome and message of the record whose path ends with `id` in the engine's current report. */
static int current_outcome(amber_engine *e, const char *id, char *message, size_t size) {
    amber_report *report = NULL;
    amber_report_record rec;
    int outcome = -1;
    if (amber_engine_restoration_report(&report, e) != AMBER_OK) return -1;
    if (report_record_ending_with(report, id, &rec) >= 0) {
        outcome = (int)rec.outcome;
        if (message) snprintf(message, size, "%s", rec.message);
    }
    if (message && outcome >= 0) {
        size_t used = strlen(message);
        snprintf(message + used, size - used, " | %s", amber_report_message(report));
    }
    amber_report_free(report);
    return outcome;
}

/* R35: a tab created after launch (within the 10 s the records are kept) gets its state, and its
 * field's. */
static void test_r35_tab_created_later(void) {
    run2 r = {10000, NULL};
    decoded d;
    amber_report *launch_report = NULL;
    amber_engine *e = relaunch_without_the_tab(&r, &launch_report);
    amber_object *tab;
    char message[1024];
    memset(&d, 0, sizeof d);
    check(e != NULL, "R35 R33 relaunch into an interface without the tab");
    if (!e) return;
    check(current_outcome(e, "tab", NULL, 0) == AMBER_OUTCOME_NOT_FOUND, "R35 at launch the tab's record found no object");
    checkf(strstr(amber_report_message(launch_report), "kept for 10000 ms") != NULL,
           "R35 the launch report says the records are kept ('%s')", amber_report_message(launch_report));
    /* The tab is opened later than launch; how much later does not matter while the records are
     * kept, so the test waits only a little. */
    sleep_ms(200);
    tab = make_tab(e, &d);
    amber_object_add_child(r.root, tab);
    check_status(amber_object_restore_pending(tab), AMBER_OK, "R35 amber_object_restore_pending on the tab 200 ms after launch");
    checkf(strcmp(d.title, "Inbox") == 0 && strcmp(d.text, "typed") == 0 && d.finished == 1,
           "R35 the tab and its field decoded their state, the tab finished restoring (title '%s', text '%s')", d.title,
           d.text);
    check(current_outcome(e, "tab", message, sizeof message) == AMBER_OUTCOME_RESTORED,
          "R35 amber_engine_restoration_report: the tab is now restored");
    checkf(strstr(message, "/root/tab claimed 2 kept record(s) after launch") != NULL,
           "R35 ... and the report's message says it was claimed after launch ('%s')", message);
    check(current_outcome(e, "field", NULL, 0) == AMBER_OUTCOME_RESTORED, "R35 and its field with it");
    check_status(amber_object_restore_pending(tab), AMBER_NOT_FOUND, "R35 a second claim");
    amber_report_free(launch_report);
    amber_engine_close(e);
}

/* R35: a claim after the deadline gets nothing, and the report says why. */
static void test_r35_after_the_deadline(void) {
    run2 r = {100, NULL};
    decoded d;
    amber_report *launch_report = NULL;
    amber_engine *e = relaunch_without_the_tab(&r, &launch_report);
    amber_object *tab;
    char message[2048];
    memset(&d, 0, sizeof d);
    check(e != NULL, "R35 R33 relaunch keeping unclaimed records for 100 ms");
    if (!e) return;
    sleep_ms(200); /* past the deadline, however loaded the machine: a sleep never ends early */
    tab = make_tab(e, &d);
    amber_object_add_child(r.root, tab);
    check_status(amber_object_restore_pending(tab), AMBER_NOT_FOUND, "R35 amber_object_restore_pending after the deadline");
    checkf(strstr(amber_error_last(), "dropped at their deadline, 100 ms after launch") != NULL,
           "R35 ... its message says why ('%s')", amber_error_last());
    check(d.title[0] == '\0' && d.text[0] == '\0', "R35 nothing was decoded");
    check(current_outcome(e, "tab", message, sizeof message) == AMBER_OUTCOME_NOT_FOUND,
          "R35 the report: the tab's record is still not found");
    checkf(strstr(message, "none claimed it: dropped at their deadline") != NULL
               && strstr(message, "were dropped at their deadline") != NULL,
           "R35 ... and the record and the report's message say it was dropped at the deadline ('%s')", message);
    amber_report_free(launch_report);
    amber_engine_close(e);
}

/* R35: the host ends restoration; arguments. */
static void test_r35_end_restoration(void) {
    run2 r = {10000, NULL};
    decoded d;
    amber_report *launch_report = NULL, *report = NULL;
    amber_engine *e = relaunch_without_the_tab(&r, &launch_report);
    amber_object *tab;
    memset(&d, 0, sizeof d);
    if (!e) {
        check(0, "R35 relaunch");
        return;
    }
    check_status(amber_engine_end_restoration(e), AMBER_OK, "R35 amber_engine_end_restoration");
    tab = make_tab(e, &d);
    amber_object_add_child(r.root, tab);
    check_status(amber_object_restore_pending(tab), AMBER_NOT_FOUND, "R35 a claim after the host ended restoration");
    check(amber_engine_restoration_report(&report, e) == AMBER_OK
              && strstr(amber_report_message(report), "when the host ended restoration") != NULL,
          "R35 the report says the host ended it");
    amber_report_free(report);
    check_status(amber_object_restore_pending(NULL), AMBER_INVALID_ARGUMENT, "R35 restore_pending(NULL)");
    check_status(amber_engine_restoration_report(NULL, e), AMBER_INVALID_ARGUMENT, "R35 restoration_report(NULL, e)");
    check_status(amber_engine_keep_unclaimed(NULL, 5), AMBER_INVALID_ARGUMENT, "R35 keep_unclaimed(NULL)");
    amber_report_free(launch_report);
    amber_engine_close(e);
}

/* R35: an engine that has not restored has no report; a time to keep out of range is refused. */
static void test_r35_before_restoration(void) {
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_report *report = NULL;
    opts.memory_store = 1;
    if (amber_engine_open(&e, "org.example.late.fresh", &opts) != AMBER_OK) {
        check(0, "R35 open an engine");
        return;
    }
    check_status(amber_engine_restoration_report(&report, e), AMBER_NOT_FOUND,
                 "R35 amber_engine_restoration_report before the first restoration");
    check(report == NULL, "R35 ... and gives no report");
    check_status(amber_engine_keep_unclaimed(e, UINT64_MAX), AMBER_INVALID_ARGUMENT,
                 "R35 amber_engine_keep_unclaimed(UINT64_MAX)");
    check_status(amber_engine_keep_unclaimed(e, 1000), AMBER_OK, "R35 ... the engine still takes a time in range");
    amber_engine_close(e);
}

/* R35 R28: a save made while records are kept carries them, AMBER_LEFT_OUT_CARRIED in its report. */
static void test_r35_save_carries_the_kept_records(void) {
    run2 r = {10000, NULL};
    amber_report *launch_report = NULL;
    amber_engine *e = relaunch_without_the_tab(&r, &launch_report);
    amber_preservation *p = NULL;
    amber_preservation_entry entry;
    size_t i, carried = 0, carried_with_size = 0;
    int saved = 0;
    check(e != NULL, "R35 R33 relaunch into an interface without the tab");
    if (!e) return;
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R35 a save while the tab's records are kept");
    check_status(amber_engine_preservation(&p, e), AMBER_OK, "R28 amber_engine_preservation");
    for (i = 0; p != NULL && i < amber_preservation_count(p); i++) {
        if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK || entry.left_out != AMBER_LEFT_OUT_CARRIED) continue;
        carried++;
        if (entry.size > 0 && strcmp(entry.path[entry.path_length - 1], carried == 1 ? "tab" : "field") == 0) carried_with_size++;
    }
    checkf(carried == 2 && carried_with_size == 2,
           "R35 R28 the tab's and the field's kept records are AMBER_LEFT_OUT_CARRIED, with their sizes (%zu carried)", carried);
    amber_preservation_free(p);
    amber_report_free(launch_report);
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r35_tab_created_later", test_r35_tab_created_later},
    {"r35_after_the_deadline", test_r35_after_the_deadline},
    {"r35_end_restoration", test_r35_end_restoration},
    {"r35_before_restoration", test_r35_before_restoration},
    {"r35_save_carries_the_kept_records", test_r35_save_carries_the_kept_records},
};

int main(int argc, char **argv) {
    return runner_main("late_claims", tests, RUNNER_COUNT(tests), argc, argv);
}

/*
 * test_rules, R14-R16: what one launch leaves to the next: discards, crash loops, extensions, reports.
 *
 * R14 the archive discarded after a restore, a decline, a damaged archive and a crash loop
 * (child processes killed with SIGKILL while restoring); R15 extended restoration; R16 the
 * restoration report's outcomes and messages.
 */
#include "fixture.h"

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

void test_r14(void) {
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
    mem_store_clear(&ms);

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

void test_r15(void) {
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
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R16 The report                                                                               */
/* ============================================================================================ */

void test_r16(void) {
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
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R14 R16 A discard is reported by the next process; R15 a death while extended                */
/* ============================================================================================ */

void test_r14_discard_next_process(void) {
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

void test_r15_unfinished(void) {
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

/*
 * test_rules, R28, R29: the preservation report and the log.
 *
 * R28 the preservation report (what was saved, what was left out and why); R29 the log: the
 * host's log callback and AMBER_LOG, run in a child process of this program, and no state
 * value in any line.
 */
#include "fixture.h"

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

void test_r28(void) {
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
    mem_store_clear(&ms2);

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
    mem_store_clear(&ms3);
    mem_store_clear(&ms);
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
int r29_log_child(void) {
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
    mem_store_clear(&ms);
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

/* The contexts of the log functions: ctx_free is called once, when the function is replaced or
 * removed, or when its engine closes; never while it may still be called. */
static int log_contexts_freed;
static void count_log_context(void *ctx) { (void)ctx; log_contexts_freed++; }
static void ignore_line(amber_log_level level, const char *message, void *ctx) { (void)level; (void)message; (void)ctx; }

void test_r29_ctx_free(void) {
    mem_store ms = {0};
    amber_engine *e = open_mem(&ms, NULL, NULL);
    int ctx_a = 0, ctx_b = 0;

    log_contexts_freed = 0;
    check_status(amber_engine_set_log(e, AMBER_LOG_DEBUG, ignore_line, &ctx_a, count_log_context), AMBER_OK,
                 "R29 amber_engine_set_log with a ctx_free");
    check(log_contexts_freed == 0, "R29 the engine's log context is kept while its function is set");
    amber_engine_set_log(e, AMBER_LOG_DEBUG, ignore_line, &ctx_b, count_log_context);
    check(log_contexts_freed == 1, "R29 replacing the engine's log function frees the context of the one before, once");
    amber_engine_close(e);
    check(log_contexts_freed == 2, "R29 closing the engine frees its log function's context");
    mem_store_clear(&ms);

    log_contexts_freed = 0;
    check_status(amber_set_log(AMBER_LOG_WARN, ignore_line, &ctx_a, count_log_context), AMBER_OK,
                 "R29 amber_set_log with a ctx_free");
    check_status(amber_set_log(AMBER_LOG_WARN, NULL, NULL, NULL), AMBER_OK, "R29 remove the process-wide function");
    check(log_contexts_freed == 1, "R29 removing the process-wide function frees its context, once");
    check_status(amber_set_log((amber_log_level)9, ignore_line, &ctx_b, count_log_context), AMBER_INVALID_ARGUMENT,
                 "R29 amber_set_log with a bad level");
    check(log_contexts_freed == 1, "R29 a refused function's context stays the caller's: not freed");
}

void test_r29(void) {
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
    check_status(amber_engine_set_log(e, AMBER_LOG_DEBUG, collect_log, &engine_log, NULL), AMBER_OK, "R29 amber_engine_set_log at debug");
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
    amber_engine_set_log(e, AMBER_LOG_DEBUG, collect_log, &engine_log, NULL);
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
    mem_store_clear(&ms);

    /* Levels. */
    reset();
    reset_app();
    memset(&engine_log, 0, sizeof engine_log);
    e = open_mem(&ms, NULL, NULL);
    check_status(amber_engine_set_log(e, AMBER_LOG_INFO, collect_log, &engine_log, NULL), AMBER_OK, "R29 amber_engine_set_log at info");
    r29_build(e);
    preserve(e);
    /* R29 */ check(log_count_level(&engine_log, AMBER_LOG_DEBUG) == 0 && log_has(&engine_log, AMBER_LOG_INFO, "preserve: saved 1 objects", 1, NULL),
                    "R29 at info: the line per preservation, no debug line");
    /* R29 */ check_status(amber_engine_set_log(e, (amber_log_level)7, collect_log, &engine_log, NULL), AMBER_INVALID_ARGUMENT,
                           "R29 amber_engine_set_log with level 7");
    /* R29 */ check_status(amber_set_log((amber_log_level)-1, collect_log, &process_log, NULL), AMBER_INVALID_ARGUMENT,
                           "R29 amber_set_log with level -1");
    /* R29 */ check_status(amber_engine_set_log(NULL, AMBER_LOG_DEBUG, collect_log, &engine_log, NULL), AMBER_INVALID_ARGUMENT,
                           "R29 amber_engine_set_log of a NULL engine");

    /* The process-wide function takes the lines of engines without their own. */
    check_status(amber_engine_set_log(e, AMBER_LOG_DEBUG, NULL, NULL, NULL), AMBER_OK, "R29 remove the engine's log function");
    memset(&process_log, 0, sizeof process_log);
    memset(&engine_log, 0, sizeof engine_log);
    check_status(amber_set_log(AMBER_LOG_DEBUG, collect_log, &process_log, NULL), AMBER_OK, "R29 amber_set_log at debug");
    own = open_mem(&ms2, NULL, NULL);
    amber_engine_set_log(own, AMBER_LOG_DEBUG, collect_log, &engine_log, NULL);
    amber_engine_add_root(own, ctl(own, "OwnWindow", "own", nn("own", 1)));
    preserve(e);
    /* R29 */ check(log_has(&process_log, AMBER_LOG_DEBUG, R29_LEFT_OUT, 0, NULL) &&
                        log_has(&process_log, AMBER_LOG_INFO, "preserve: saved 1 objects", 1, NULL) && engine_log.n == 0,
                    "R29 the process-wide function gets the lines of an engine without its own");
    before = process_log.n;
    preserve(own);
    /* R29 */ check(process_log.n == before && log_has(&engine_log, AMBER_LOG_DEBUG, "preserve: preserved /own (OwnWindow, controller): ", 1, NULL),
                    "R29 an engine with its own function: its lines go there, not to the process-wide one");
    amber_engine_set_log(own, AMBER_LOG_DEBUG, NULL, NULL, NULL);
    preserve(own);
    /* R29 */ check(process_log.n > before && log_has(&process_log, AMBER_LOG_DEBUG, "preserve: preserved /own (OwnWindow, controller): ", 1, NULL),
                    "R29 once it removes its own, the process-wide function takes its lines");
    check_status(amber_set_log(AMBER_LOG_DEBUG, NULL, NULL, NULL), AMBER_OK, "R29 remove the process-wide function");
    before = process_log.n;
    preserve(e);
    /* R29 */ check(process_log.n == before, "R29 removed: it gets no more lines");
    leak = log_secret(&process_log);
    /* R29 */ checkf(leak == NULL, "R29 the process-wide lines show no state value or key name%s%s", leak ? ": " : "", leak ? leak : "");
    amber_engine_close(own);
    amber_engine_close(e);
    mem_store_clear(&ms2);
    mem_store_clear(&ms);

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

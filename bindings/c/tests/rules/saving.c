/*
 * test_rules, R5-R8: saving and what is saved with the application.
 *
 * R5 should_save and the application coder; R6 the value types an object encodes; R7 the
 * keys Amber reserves; R8 the metadata saved under UIKit's names.
 */
#include "fixture.h"

/* ============================================================================================ */
/* R5 Opt-in                                                                                    */
/* ============================================================================================ */

void test_r5(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n;
    int saved = -1;

    printf("-- R5 opt-in\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    amber_engine_set_delegate(e, NULL, NULL, NULL); /* no delegate at all */
    root_n = nn("Root", 1);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", root_n));
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R5 preserve without a delegate");
    /* R5 */ check(saved == 0 && ms.writes == 0 && ms.bytes == NULL && root_n->encoded == 0,
                   "R5 without should_save nothing is saved (no write, no encode)");

    use_delegate(e);
    A.save = 0;
    saved = -1;
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R5 preserve with should_save returning 0");
    /* R5 */ check(saved == 0 && ms.writes == 0 && root_n->encoded == 0 && ev_count("should_save") == 1,
                   "R5 should_save was asked and said no: nothing saved, no encode");
    /* R5 */ check(ev_count("will_encode") == 0, "R5 will_encode is not called when should_save says no");

    A.save = 1;
    A.app_version = "2024.5";
    saved = -1;
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R5 preserve with should_save returning 1");
    /* R5 */ check(saved == 1 && ms.writes == 1 && ms.bytes != NULL && root_n->encoded == 1, "R5 saved once should_save agrees");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R5 */ check(strcmp(A.app_version_read, "2024.5") == 0, "R5 what the app coder received at save is read back at launch");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R6 What is recorded                                                                          */
/* ============================================================================================ */

void test_r6(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *a_n, *b_n, *v_n;
    amber_object *root, *a, *b, *v;
    table classes = {"make:AClass", 0, {0}, {0}, 0}, boards = {"factory:Board", 0, {0}, {0}, 0};
    amber_report_record rec;

    printf("-- R6 what is recorded\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    a_n = nn("A", 111);
    b_n = nn("B", 222);
    v_n = nn("V", 333);
    a = ctl(e, "AController", "A", a_n);
    b = ctl(e, "BController", "B", b_n);
    v = mk(e, AMBER_KIND_VIEW, "VView", "V", v_n);
    check_status(amber_object_set_restoration_class(a, "AClass"), AMBER_OK, "R6 A names restoration class AClass");
    check_status(amber_object_set_blueprint(b, "Board/B"), AMBER_OK, "R6 B was made from blueprint Board/B");
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(root, b);
    amber_object_add_view(b, v);
    check(preserve(e) == 1, "R6 preserve");
    /* R6 */ check(a_n->encode_status == AMBER_OK && b_n->encode_status == AMBER_OK && v_n->encode_status == AMBER_OK,
                   "R6 each object its own coder: A, B and V all wrote key \"value\" without AMBER_DUPLICATE");
    amber_engine_close(e);

    /* The next launch builds nothing: A from its restoration class, B from its blueprint. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    amber_engine_add_root(e, root);
    a_n = nn("A", 0);
    b_n = nn("B", 0);
    v_n = nn("V", 0);
    a = ctl(e, "AController", NULL, a_n);
    b = ctl(e, "BController", NULL, b_n);
    /* The factory's B comes with its view V, as a storyboard makes a controller with its views
     * (R10: the view is found among its restored controller's views, not asked of the delegate). */
    v = mk(e, AMBER_KIND_VIEW, "VView", "V", v_n);
    amber_object_add_view(b, v);
    table_put(&classes, "Root/A", a);
    table_put(&boards, "Root/B", b);
    add_class(e, "AClass", &classes);
    add_factory(e, "Board", &boards);
    r = launch(e);
    /* R6 */ check(ev_count("make:AClass:Root/A") == 1 && ev_count("make:AClass:Root") == 0 && ev_count("make:AClass:Root/B") == 0,
                   "R6 the restoration class was recorded: AClass's make was asked for Root/A, and only for it");
    /* R6 */ checkf(strcmp(factory_blueprint, "Board/B") == 0 && ev_count("factory:Board:Root/B") == 1,
                    "R6 the blueprint was recorded: factory Board was asked for Root/B with \"%s\"", factory_blueprint);
    /* R6 */ check(a_n->got == 111 && b_n->got == 222 && v_n->got == 333, "R6 each object decodes its own \"value\": 111, 222, 333");
    rec = find(r, "Root/A");
    /* R6 */ check(rec.outcome == AMBER_OUTCOME_RESTORED && strcmp(rec.class_name, "AController") == 0 && rec.kind == AMBER_KIND_CONTROLLER,
                   "R6 the record of Root/A: class AController, kind controller");
    rec = find(r, "Root/B/V");
    /* R6 */ check(rec.outcome == AMBER_OUTCOME_RESTORED && strcmp(rec.class_name, "VView") == 0 && rec.kind == AMBER_KIND_VIEW &&
                       rec.path_length == 3,
                   "R6 the record of Root/B/V: path of 3, class VView, kind view");
    /* R6 */ check(amber_object_identifier(a) && strcmp(amber_object_identifier(a), "A") == 0 && amber_object_identifier(b) &&
                       strcmp(amber_object_identifier(b), "B") == 0 && path_is(a, "Root/A") && path_is(b, "Root/B") &&
                       path_is(v, "Root/B/V"),
                   "R6 objects made without identifier take the archived one and their place (Root/A, Root/B; B's view Root/B/V)");
    /* R6 */ check(ev_count("ofp:Root/B/V") == 0 && find(r, "Root/B/V").object == v,
                   "R6 R10 the view V is the one its restored controller B holds (the delegate is not asked for a view)");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R7 Reserved keys                                                                             */
/* ============================================================================================ */

static const char *reserved_keys[] = {
    "bundleVersion", "interfaceIdiom", "timestamp", "systemVersion", "blueprint", "restorationClass",
    "restorationPath", "className", "kind", "amber.anything", "UIApplicationStateRestorationBundleVersion",
    "UIStateRestorationViewControllerStoryboardKey",
};
#define N_RESERVED (sizeof reserved_keys / sizeof reserved_keys[0])
static int reserved_app[N_RESERVED], reserved_obj[N_RESERVED];
static int reserved_msg_app, reserved_msg_obj, unreserved_app, unreserved_obj;

/* Writes every reserved key with one of the typed encoders in turn. */
static void write_reserved(amber_coder *c, int *statuses, int *msg_ok) {
    size_t i;
    static const int64_t ip[2] = {0, 1};
    static const uint8_t bytes[2] = {1, 2};
    *msg_ok = 1;
    for (i = 0; i < N_RESERVED; i++) {
        const char *k = reserved_keys[i];
        switch (i % 7) {
        case 0: statuses[i] = amber_coder_encode_string(c, k, "forged"); break;
        case 1: statuses[i] = amber_coder_encode_int64(c, k, 9); break;
        case 2: statuses[i] = coder_encode_date(c, k, 1.0); break;
        case 3: statuses[i] = amber_coder_encode_bool(c, k, 1); break;
        case 4: statuses[i] = amber_coder_encode_double(c, k, 2.5); break;
        case 5: statuses[i] = amber_coder_encode_bytes(c, k, bytes, 2); break;
        default: statuses[i] = coder_encode_index_path(c, k, ip, 2); break;
        }
        if (strstr(amber_error_last(), k) == NULL) *msg_ok = 0;
    }
}

static void app_reserved_hook(amber_coder *c) {
    write_reserved(c, reserved_app, &reserved_msg_app);
    unreserved_app = amber_coder_encode_string(c, "bundleVersionOfMyPlugin", "ok");
}

static void obj_reserved_hook(node *n, amber_coder *c) {
    (void)n;
    write_reserved(c, reserved_obj, &reserved_msg_obj);
    unreserved_obj = amber_coder_encode_string(c, "amberColour", "ok");
}

void test_r7(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n;
    amber_object *root;
    table boards = {"factory:Real", 0, {0}, {0}, 0};
    size_t i;

    printf("-- R7 reserved keys\n");
    reset();
    reset_app();
    e = open_mem(&ms, "7.0", NULL);
    A.will_encode_hook = app_reserved_hook;
    root_n = nn("Root", 1);
    root_n->encode_hook = obj_reserved_hook;
    root = ctl(e, "RootController", "Root", root_n);
    amber_object_set_blueprint(root, "Real/Root");
    amber_engine_add_root(e, root);
    check(preserve(e) == 1, "R7 preserve (refused keys do not fail the preservation)");
    for (i = 0; i < N_RESERVED; i++) {
        char what[160];
        snprintf(what, sizeof what, "R7 application coder: %s", reserved_keys[i]);
        /* R7 */ check_status(reserved_app[i], AMBER_RESERVED_KEY, what);
    }
    for (i = 0; i < N_RESERVED; i++) {
        char what[160];
        snprintf(what, sizeof what, "R7 object coder: %s", reserved_keys[i]);
        /* R7 */ check_status(reserved_obj[i], AMBER_RESERVED_KEY, what);
    }
    /* R7 */ check(reserved_msg_app && reserved_msg_obj, "R7 each refusal's message names the key");
    /* R7 */ check(unreserved_app == AMBER_OK && unreserved_obj == AMBER_OK,
                   "R7 keys that merely resemble reserved ones (bundleVersionOfMyPlugin, amberColour) are accepted");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 0);
    root = ctl(e, "RootController", NULL, root_n);
    table_put(&boards, "Root", root);
    add_factory(e, "Real", &boards);
    r = launch(e);
    /* R7 */ checkf(strcmp(A.bundle_version, "7.0") == 0, "R7 bundleVersion is the engine's (\"%s\"), not the forged one", A.bundle_version);
    /* R7 */ checkf(strcmp(factory_blueprint, "Real/Root") == 0, "R7 the blueprint is the recorded one (\"%s\"), not overwritten",
                    factory_blueprint);
    /* R7 */ check(root_n->got == 1 && outcome_of(r, "Root") == AMBER_OUTCOME_RESTORED, "R7 the object's own state is intact");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R8 Application state                                                                         */
/* ============================================================================================ */

#define SECONDS_1970_TO_2001 978307200.0

/* Seconds since 2001-01-01, read as the engine stamps an archive (FileSystem.now()): the precise
   real-time clock with its fraction, in the same arithmetic. time() reads the coarse clock, which
   lags by up to a tick, so a save bracketed by it can look later than "after". */
static double now_since_2001(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return 0;
    return (double)ts.tv_sec - SECONDS_1970_TO_2001 + (double)ts.tv_nsec / 1000000000.0;
}

void test_r8(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    double before, after;
    struct utsname u;

    printf("-- R8 application state\n");
    reset();
    reset_app();
    e = open_mem(&ms, "3.1", "tablet");
    A.app_version = "5.5";
    amber_engine_add_root(e, ctl(e, "RootController", "Root", nn("Root", 1)));
    before = now_since_2001();
    check(preserve(e) == 1, "R8 preserve");
    after = now_since_2001();
    /* R8 */ check(ev_count("will_encode") == 1 && ev_first("should_save") < ev_first("will_encode") &&
                       ev_first("will_encode") < ev_first("encode:Root"),
                   "R8 will_encode runs once, at the beginning of preservation (after should_save, before any object)");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R8 */ checkf(strcmp(A.bundle_version, "3.1") == 0, "R8 should_restore reads bundleVersion \"%s\"", A.bundle_version);
    /* R8 */ checkf(strcmp(A.idiom, "tablet") == 0, "R8 should_restore reads interfaceIdiom \"%s\"", A.idiom);
    /* R8 */ checkf(A.timestamp_status == AMBER_OK && A.timestamp >= before && A.timestamp <= after,
                    "R8 should_restore reads timestamp, the date of the save (%.6f in [%.6f, %.6f])", A.timestamp, before, after);
    uname(&u);
    /* R8 */ checkf(A.system_version[0] != '\0' && strcmp(A.system_version, u.release) == 0,
                    "R8 should_restore reads systemVersion \"%s\" (uname -r)", A.system_version);
    /* R8 */ checkf(strcmp(A.app_version_read, "5.5") == 0, "R8 should_restore reads what will_encode wrote (appVersion \"%s\")",
                    A.app_version_read);
    /* R8 */ checkf(strcmp(A.uikit_bundle_version, "3.1") == 0 && strcmp(A.uikit_bundle_version, A.bundle_version) == 0,
                    "R8 should_restore reads UIApplicationStateRestorationBundleVersionKey \"%s\", the same as bundleVersion",
                    A.uikit_bundle_version);
    /* R8 */ checkf(strcmp(A.uikit_idiom, "tablet") == 0 && strcmp(A.uikit_idiom, A.idiom) == 0,
                    "R8 should_restore reads UIApplicationStateRestorationUserInterfaceIdiomKey \"%s\", the same as interfaceIdiom",
                    A.uikit_idiom);
    /* R8 */ checkf(A.uikit_timestamp_status == AMBER_OK && A.uikit_timestamp == A.timestamp,
                    "R8 should_restore reads UIApplicationStateRestorationTimestampKey, the same date as timestamp (%.6f)",
                    A.uikit_timestamp);
    /* R8 */ checkf(A.uikit_system_version[0] != '\0' && strcmp(A.uikit_system_version, A.system_version) == 0,
                    "R8 should_restore reads UIApplicationStateRestorationSystemVersionKey \"%s\", the same as systemVersion",
                    A.uikit_system_version);
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

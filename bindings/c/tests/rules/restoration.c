/*
 * test_rules, R9-R13: restoring: the launch, finding objects, decoding.
 *
 * R9 the two launch steps and when restoration runs; R10 the lookup order (restoration class,
 * delegate, implicit, blueprint factory) and what a lookup is told; R11 class checks; R12 the
 * decoding order, typed and secure decoding; R13 finished_restoring and did_decode.
 */
#include "fixture.h"

/* ============================================================================================ */
/* R9 When                                                                                      */
/* ============================================================================================ */

static node *r9_root_n;
/* The host builds its default interface in will_finish_launching: found by implicit lookup. */
static void build_in_will_finish(amber_engine *e) {
    r9_root_n = nn("Root", 0);
    amber_engine_add_root(e, ctl(e, "RootController", "Root", r9_root_n));
}

void test_r9(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_delegate d;

    printf("-- R9 when\n");
    reset();
    /* No archive. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NO_ARCHIVE && fresh_message_ok(r),
                   "R9/R16 no archive: a fresh launch, reason AMBER_FRESH_NO_ARCHIVE, with a message");
    /* R9 */ check(A.should_restore_calls == 0 && ev_count("will_finish") == 1 && ev_count("did_finish") == 1,
                   "R9 no archive: should_restore not asked; will/did finish launching still run");
    amber_report_free(r);
    amber_engine_close(e);

    /* Restoration between the two launch steps. */
    save_root(&ms, 42);
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    A.on_will_finish = build_in_will_finish;
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_NONE && r9_root_n && r9_root_n->got == 42,
                   "R9 restored: the Root built in will_finish_launching got its state (42)");
    /* R9 */ check(ev_first("will_finish") == 0 && ev_first("will_finish") < ev_first("should_restore") &&
                       ev_first("should_restore") < ev_first("decode:Root") && ev_first("decode:Root") < ev_first("did_decode") &&
                       ev_first("did_decode") < ev_first("did_finish") && ev_first("did_finish") == n_events - 1,
                   "R9 order: will_finish, should_restore, decode, did_decode, did_finish");
    amber_report_free(r);
    amber_engine_close(e);

    /* should_restore says no. */
    save_root(&ms, 43);
    reset_app();
    A.restore = 0;
    e = open_mem(&ms, NULL, NULL);
    A.on_will_finish = build_in_will_finish;
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_DECLINED && fresh_message_ok(r),
                   "R9/R16 should_restore 0: fresh, reason AMBER_FRESH_DECLINED, with a message");
    /* R9 */ check(A.should_restore_calls == 1 && r9_root_n->decoded == 0 && ev_first_prefix("ofp:") == -1 && amber_report_count(r) == 0,
                   "R9 declined: no object looked up or decoded, no records");
    /* R9 */ check(ev_count("did_finish") == 1, "R9 declined: did_finish_launching still runs");
    /* R14 */ check(ms.bytes == NULL, "R14 the declined archive is discarded");
    amber_report_free(r);
    amber_engine_close(e);

    /* No should_restore at all. */
    save_root(&ms, 44);
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_DECLINED, "R9 without should_restore: fresh (AMBER_FRESH_DECLINED)");
    amber_report_free(r);
    amber_engine_close(e);

    /* An archive that cannot be read. */
    mem_store_clear(&ms);
    ms.bytes = malloc(32);
    memset(ms.bytes, 'x', 32);
    ms.size = 32;
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_CORRUPT && fresh_message_ok(r) && A.should_restore_calls == 0,
                   "R9/R16 a damaged archive: fresh, AMBER_FRESH_CORRUPT with a message; should_restore not asked");
    /* R16: the message says why, once: a host that prints "fresh launch: %s" says so once. */
    check(strncmp(amber_report_message(r), "corrupt archive: ", 17) == 0 && strstr(amber_report_message(r), "fresh launch") == NULL,
          "R16 a damaged archive's message starts with its reason, without a second \"fresh launch:\"");
    /* R14 */ check(ms.bytes == NULL, "R14 the damaged archive is discarded");
    amber_report_free(r);
    amber_engine_close(e);

    /* Another application's archive (issue 39, item 9): refused by the engine, whatever the
       host's should_restore would say, with one reason naming both ids; discarded. */
    save_root(&ms, 46);
    reset_app();
    {
        /* The key file of org.example.rules, as if copied with the archive. */
        char key[1024];
        snprintf(key, sizeof key, "%s/org.example.rules/archive.key", getenv("XDG_STATE_HOME"));
        e = open_mem_app(&ms, "org.example.other", key, NULL, NULL);
    }
    r = launch(e);
    {
        const char *m = amber_report_message(r);
        /* R9 */ checkf(amber_report_fresh_reason(r) == AMBER_FRESH_OTHER_APPLICATION && m != NULL &&
                            strstr(m, "'org.example.rules'") != NULL && strstr(m, "'org.example.other'") != NULL &&
                            A.should_restore_calls == 0,
                        "R9/R16 another app id's archive: fresh, AMBER_FRESH_OTHER_APPLICATION naming both ids, "
                        "should_restore not asked (%d: %s)", (int)amber_report_fresh_reason(r), m ? m : "(null)");
    }
    /* R14 */ check(ms.bytes == NULL, "R14 another application's archive is discarded");
    amber_report_free(r);
    amber_engine_close(e);

    /* A store that cannot read: fresh, and the archive stays. */
    save_root(&ms, 45);
    ms.fail_read = 1;
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    r = launch(e);
    /* R9 */ check(amber_report_fresh_reason(r) == AMBER_FRESH_STORE_ERROR && fresh_message_ok(r) && ms.bytes != NULL,
                   "R9/R16 a store read error: fresh, AMBER_FRESH_STORE_ERROR with a message; the archive is kept");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R10 Finding each object                                                                      */
/* ============================================================================================ */

void test_r10(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *o, *nowhere, *declined, *under;
    table make_class = {"make:MakeClass", 0, {0}, {0}, 0}, kid_class = {"make:KidClass", 0, {0}, {0}, 0};
    table decline_class = {"make:DeclineClass", 0, {0}, {0}, 0}, under_class = {"make:UnderClass", 0, {0}, {0}, 0};
    table boards = {"factory", 0, {0}, {0}, 0};
    amber_object *by_class, *by_delegate, *by_implicit, *by_blueprint, *kid, *kid2, *unreg, *impl_class, *impl_delegate,
        *impl_declined, *impl_under, *impl_deeper, *ofp_deeper, *class_under, *f_class, *f_delegate, *f_implicit;
    node *n_class, *n_delegate, *n_implicit, *n_blueprint, *n_kid, *n_kid2, *n_unreg, *n_impl_class, *n_impl_delegate,
        *n_impl_declined, *n_impl_under, *n_impl_deeper, *n_ofp_deeper, *n_class_under, *n_f_implicit;
    amber_buf text = AMBER_BUF_INIT;

    printf("-- R10 the lookup chain\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "C", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    o = child_of(e, root, "ByClass", 10);
    amber_object_set_restoration_class(o, "MakeClass");
    amber_object_set_blueprint(o, "Board/ByClass");
    o = child_of(e, root, "ByDelegate", 11);
    amber_object_set_blueprint(o, "Board/ByDelegate");
    o = child_of(e, root, "ByImplicit", 12);
    amber_object_set_blueprint(o, "Board/ByImplicit");
    o = child_of(e, root, "ByBlueprint", 13);
    amber_object_set_blueprint(o, "Board/ByBlueprint");
    nowhere = child_of(e, root, "Nowhere", 14);
    o = child_of(e, nowhere, "Kid", 15);
    amber_object_set_restoration_class(o, "KidClass");
    child_of(e, nowhere, "Kid2", 16);
    declined = child_of(e, root, "Declined", 17);
    amber_object_set_restoration_class(declined, "DeclineClass");
    amber_object_set_blueprint(declined, "Board/Declined");
    under = child_of(e, declined, "Under", 18);
    amber_object_set_restoration_class(under, "UnderClass");
    child_of(e, under, "Deeper", 19);
    o = child_of(e, root, "Unregistered", 20);
    amber_object_set_restoration_class(o, "NoSuchClass");
    check(preserve(e) == 1, "R10 preserve");
    amber_engine_close(e);

    /* The next launch. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
#define OBJ(var, nvar, id, parent)                                  \
    do {                                                            \
        nvar = nn(id, -1);                                          \
        var = ctl(e, "C", parent ? id : NULL, nvar);                \
        if (parent) amber_object_add_child((amber_object *)parent, var); \
    } while (0)
    root = ctl(e, "C", "Root", nn("Root", -1));
    amber_engine_add_root(e, root);
    /* Objects of the default set-up (implicit lookup candidates). */
    OBJ(impl_class, n_impl_class, "ByClass", root);
    OBJ(impl_delegate, n_impl_delegate, "ByDelegate", root);
    OBJ(by_implicit, n_implicit, "ByImplicit", root);
    OBJ(impl_declined, n_impl_declined, "Declined", root);
    OBJ(impl_under, n_impl_under, "Under", impl_declined);
    OBJ(impl_deeper, n_impl_deeper, "Deeper", impl_under);
    /* Objects the steps would give, made without a place. */
    OBJ(by_class, n_class, "ByClass", NULL);
    OBJ(by_delegate, n_delegate, "ByDelegate", NULL);
    OBJ(by_blueprint, n_blueprint, "ByBlueprint", NULL);
    OBJ(kid, n_kid, "Kid", NULL);
    OBJ(kid2, n_kid2, "Kid2", NULL);
    OBJ(unreg, n_unreg, "Unregistered", NULL);
    OBJ(ofp_deeper, n_ofp_deeper, "Deeper", NULL);
    OBJ(class_under, n_class_under, "Under", NULL);
    OBJ(f_implicit, n_f_implicit, "ByImplicit", NULL);
#undef OBJ
    f_class = ctl(e, "C", NULL, nn("FactoryByClass", -1));
    f_delegate = ctl(e, "C", NULL, nn("FactoryByDelegate", -1));
    table_put(&make_class, "Root/ByClass", by_class);
    table_put(&kid_class, "Root/Nowhere/Kid", kid);
    /* DeclineClass gives nothing for Root/Declined. */
    table_put(&under_class, "Root/Declined/Under", class_under);
    table_put(&A.ofp, "Root/ByClass", impl_class); /* must never be asked */
    table_put(&A.ofp, "Root/ByDelegate", by_delegate);
    table_put(&A.ofp, "Root/Nowhere/Kid2", kid2);
    table_put(&A.ofp, "Root/Declined", impl_declined);
    table_put(&A.ofp, "Root/Declined/Under/Deeper", ofp_deeper);
    table_put(&A.ofp, "Root/Unregistered", unreg);
    table_put(&boards, "Root/ByClass", f_class);
    table_put(&boards, "Root/ByDelegate", f_delegate);
    table_put(&boards, "Root/ByImplicit", f_implicit);
    table_put(&boards, "Root/ByBlueprint", by_blueprint);
    table_put(&boards, "Root/Declined", impl_declined);
    add_class(e, "MakeClass", &make_class);
    add_class(e, "KidClass", &kid_class);
    add_class(e, "DeclineClass", &decline_class);
    add_class(e, "UnderClass", &under_class);
    add_factory(e, "Board", &boards);
    r = launch(e);

    /* Step 1 first. */
    /* R10 */ check(find(r, "Root/ByClass").object == by_class && n_class->got == 10,
                    "R10 step 1: ByClass is the object its restoration class made (decoded 10)");
    /* R10 */ check(ev_count("ofp:Root/ByClass") == 0 && ev_count("factory:Root/ByClass") == 0 && n_impl_class->decoded == 0,
                    "R10 step 1 first: the delegate, the implicit object and the factory were not used for ByClass");
    /* R10 */ check(ev_count("make:MakeClass:Root/ByClass") == 1 && make_class.read_value == 10,
                    "R10 step 1's make gets the path (Root/ByClass) and the object's coder (it read 10)");
    /* Step 2. */
    /* R10 */ check(find(r, "Root/ByDelegate").object == by_delegate && n_delegate->got == 11,
                    "R10 step 2: ByDelegate is the object object_for_path gave (decoded 11)");
    /* R10 */ check(n_impl_delegate->decoded == 0 && ev_count("factory:Root/ByDelegate") == 0,
                    "R10 step 2 before 3 and 4: the implicit ByDelegate and the factory were not used");
    /* Step 3. */
    /* R10 */ check(find(r, "Root/ByImplicit").object == by_implicit && n_implicit->got == 12,
                    "R10 step 3: ByImplicit is the host's existing object (decoded 12)");
    /* R10 */ check(ev_first("ofp:Root/ByImplicit") >= 0 && ev_count("factory:Root/ByImplicit") == 0 && n_f_implicit->decoded == 0,
                    "R10 step 3 after 2, before 4: the delegate was asked first (none), the factory not at all");
    /* Step 4. */
    /* R10 */ check(find(r, "Root/ByBlueprint").object == by_blueprint && n_blueprint->got == 13,
                    "R10 step 4: ByBlueprint is the factory's object (decoded 13)");
    /* R10 */ check(ev_first("ofp:Root/ByBlueprint") >= 0 && ev_first("ofp:Root/ByBlueprint") < ev_first("factory:Root/ByBlueprint") &&
                        ev_count("blueprint:Board/ByBlueprint") == 1,
                    "R10 step 4 last: the delegate was asked before the factory, which got Board/ByBlueprint");
    /* Nothing provides Nowhere: its children are looked up on their own. */
    /* R10 */ checkf(outcome_of(r, "Root/Nowhere") == AMBER_OUTCOME_NOT_FOUND && strstr(find(r, "Root/Nowhere").message, "object-for-path") &&
                         strstr(find(r, "Root/Nowhere").message, "no object had this path") &&
                         strstr(find(r, "Root/Nowhere").message, "no blueprint"),
                     "R10/R16 nothing provides Nowhere: AMBER_OUTCOME_NOT_FOUND, the message names each step tried: %s",
                     find(r, "Root/Nowhere").message);
    /* R10 */ check(outcome_of(r, "Root/Nowhere/Kid") == AMBER_OUTCOME_RESTORED && n_kid->got == 15 &&
                        ev_count("make:KidClass:Root/Nowhere/Kid") == 1,
                    "R10 under a not-found object, Kid is still looked up: its restoration class made it");
    /* R10 */ check(outcome_of(r, "Root/Nowhere/Kid2") == AMBER_OUTCOME_RESTORED && n_kid2->got == 16,
                    "R10 under a not-found object, Kid2 is still looked up: the delegate gave it");
    /* A class that says none. */
    /* R10 */ check(outcome_of(r, "Root/Declined") == AMBER_OUTCOME_DECLINED_BY_CLASS && ev_count("make:DeclineClass:Root/Declined") == 1,
                    "R10 DeclineClass's make gave none: Declined is AMBER_OUTCOME_DECLINED_BY_CLASS");
    /* R10 */ check(ev_count("ofp:Root/Declined") == 0 && ev_count("factory:Root/Declined") == 0 && n_impl_declined->decoded == 0,
                    "R10 none means stop looking: no delegate, implicit object or factory for Declined");
    /* R10 */ check(outcome_of(r, "Root/Declined/Under") == AMBER_OUTCOME_LEFT_OUT &&
                        outcome_of(r, "Root/Declined/Under/Deeper") == AMBER_OUTCOME_LEFT_OUT,
                    "R10 nor anything under it: Under and Under/Deeper are AMBER_OUTCOME_LEFT_OUT");
    /* R10 */ check(ev_count("make:UnderClass:Root/Declined/Under") == 0 && ev_count("ofp:Root/Declined/Under/Deeper") == 0 &&
                        n_impl_under->decoded == 0 && n_impl_deeper->decoded == 0 && n_class_under->decoded == 0 && n_ofp_deeper->decoded == 0,
                    "R10 under a declined object nothing is asked: not Under's own class, not the delegate, not the implicit objects");
    /* An unregistered restoration class does not stop the chain. */
    /* R10 */ check(outcome_of(r, "Root/Unregistered") == AMBER_OUTCOME_RESTORED && find(r, "Root/Unregistered").object == unreg &&
                        n_unreg->got == 20,
                    "R10 a restoration class that is not registered: the lookup goes on to the delegate");
    amber_report_format(&text, r);
    /* R10 */ check(text.ptr && strstr(text.ptr, "NoSuchClass") != NULL, "R10 the report's text names the unregistered class NoSuchClass");
    amber_buf_dispose(&text);
    /* Parents first. */
    /* R10 */ check(ev_first("ofp:Root") >= 0 && ev_first("ofp:Root") < ev_first("make:MakeClass:Root/ByClass") &&
                        ev_first("ofp:Root/ByDelegate") < ev_first("make:KidClass:Root/Nowhere/Kid"),
                    "R10 parents are looked up before their children");
    (void)f_class;
    (void)f_delegate;
    (void)n_f_implicit;
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R11 Class check                                                                              */
/* ============================================================================================ */

void test_r11(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *exact, *sub, *subsub, *wrong, *wrong_child, *wrong_kind, *unrelated;
    node *n_exact, *n_sub, *n_subsub, *n_wrong, *n_wrong_child, *n_wrong_kind, *n_unrelated;
    amber_report_record rec;
    amber_buf text = AMBER_BUF_INIT;

    printf("-- R11 the class check\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    amber_engine_add_root(e, root);
    {
        const char *ids[] = {"Exact", "Sub", "SubSub", "Wrong", "WrongKind", "Unrelated"};
        int i;
        for (i = 0; i < 6; i++) {
            amber_object *o = ctl(e, "ListController", ids[i], nn(ids[i], 50 + i));
            amber_object_add_child(root, o);
            if (i == 3) amber_object_add_child(o, ctl(e, "ChildController", "Child", nn("WrongChild", 60)));
        }
    }
    check(preserve(e) == 1, "R11 preserve");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    check_status(amber_engine_register_subclass(e, "FancyListController", "ListController"), AMBER_OK,
                 "R11 register FancyListController as a subclass of ListController");
    check_status(amber_engine_register_subclass(e, "SuperFancyListController", "FancyListController"), AMBER_OK,
                 "R11 register SuperFancyListController as a subclass of FancyListController");
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    amber_engine_add_root(e, root);
    n_exact = nn("Exact", -1), n_sub = nn("Sub", -1), n_subsub = nn("SubSub", -1), n_wrong = nn("Wrong", -1);
    n_wrong_child = nn("WrongChild", -1), n_wrong_kind = nn("WrongKind", -1), n_unrelated = nn("Unrelated", -1);
    exact = ctl(e, "ListController", "Exact", n_exact);
    sub = ctl(e, "FancyListController", "Sub", n_sub);
    subsub = ctl(e, "SuperFancyListController", "SubSub", n_subsub);
    wrong = ctl(e, "SettingsController", "Wrong", n_wrong);
    wrong_child = ctl(e, "ChildController", "Child", n_wrong_child);
    wrong_kind = mk(e, AMBER_KIND_VIEW, "ListController", NULL, n_wrong_kind);
    unrelated = ctl(e, "ListControllerX", "Unrelated", n_unrelated);
    amber_object_add_child(root, exact);
    amber_object_add_child(root, sub);
    amber_object_add_child(root, subsub);
    amber_object_add_child(root, wrong);
    amber_object_add_child(wrong, wrong_child);
    amber_object_add_child(root, unrelated);
    table_put(&A.ofp, "Root/WrongKind", wrong_kind);
    r = launch(e);
    /* R11 */ check(outcome_of(r, "Root/Exact") == AMBER_OUTCOME_RESTORED && n_exact->got == 50, "R11 the archived class: restored, decoded");
    /* R11 */ check(outcome_of(r, "Root/Sub") == AMBER_OUTCOME_RESTORED && n_sub->got == 51,
                    "R11 a registered subclass is accepted: restored, decoded");
    /* R11 */ check(outcome_of(r, "Root/SubSub") == AMBER_OUTCOME_RESTORED && n_subsub->got == 52,
                    "R11 a subclass of a subclass is accepted");
    rec = find(r, "Root/Wrong");
    /* R11 */ check(rec.outcome == AMBER_OUTCOME_CLASS_MISMATCH && rec.message && strstr(rec.message, "SettingsController") != NULL,
                    "R11 another class: AMBER_OUTCOME_CLASS_MISMATCH, the message names SettingsController");
    /* R11 */ check(n_wrong->decoded == 0 && n_wrong->finished == 0, "R11 its state is not decoded (no decode, no finished_restoring)");
    /* R11 */ check(rec.object == wrong && amber_object_kind(wrong) == AMBER_KIND_CONTROLLER && path_is(wrong, "Root/Wrong"),
                    "R11 the object is kept: the record names it, it is alive and in place");
    /* R11 */ check(outcome_of(r, "Root/Wrong/Child") == AMBER_OUTCOME_RESTORED && n_wrong_child->got == 60,
                    "R11 a child of the mismatched object is restored");
    /* R11 */ check(outcome_of(r, "Root/WrongKind") == AMBER_OUTCOME_CLASS_MISMATCH && n_wrong_kind->decoded == 0 &&
                        find(r, "Root/WrongKind").message[0] != '\0',
                    "R11 the right class name but another kind (a view): class mismatch, not decoded");
    /* R11 */ check(outcome_of(r, "Root/Unrelated") == AMBER_OUTCOME_CLASS_MISMATCH && n_unrelated->decoded == 0,
                    "R11 a class not registered as a subclass (ListControllerX): class mismatch");
    amber_report_format(&text, r);
    /* R11 */ check(text.ptr && strstr(text.ptr, "class mismatch") != NULL, "R11 the report's text says class mismatch");
    amber_buf_dispose(&text);
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R12 Decoding                                                                                 */
/* ============================================================================================ */

typedef struct typed_result {
    const char *what;
    int status;
    int want;
    char message[256];
} typed_result;

static typed_result typed[48];
static int n_typed;
static amber_object *secure_refs[4];

static void note(const char *what, int status, int want) {
    typed_result *t = &typed[n_typed++ % 48];
    t->what = what;
    t->status = status;
    t->want = want;
    snprintf(t->message, sizeof t->message, "%s", status == AMBER_OK ? "" : amber_error_last());
}

static void typed_encode(node *n, amber_coder *c) {
    static const int64_t ip[3] = {1, 2, 3};
    static const uint8_t bytes[3] = {7, 8, 9};
    (void)n;
    amber_coder_encode_string(c, "s", "five");
    amber_coder_encode_bool(c, "b", 1);
    amber_coder_encode_double(c, "d", 2.5);
    coder_encode_date(c, "t", 1000.0);
    amber_coder_encode_bytes(c, "y", bytes, 3);
    coder_encode_index_path(c, "p", ip, 3);
}

static void typed_decode(node *n, amber_decoder *d) {
    int b;
    int64_t i, ip[4];
    double x;
    const char *s;
    const uint8_t *y;
    size_t len;
    amber_object *o;
    const char *allowed_list[1] = {"ListController"}, *allowed_base[1] = {"BaseController"};
    const char *allowed_other[2] = {"SettingsController", "RootController"}, *allowed_unknown[1] = {"NoSuchClass"};
    const char *allowed_bad[1] = {"\xff\xfe"}, *allowed_null[1] = {NULL};
    (void)n;
    n_typed = 0;
    /* Type mismatches. */
    note("decode_int64 of a string", amber_decoder_decode_int64(&i, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_string of an integer", amber_decoder_decode_string(&s, d, "value"), AMBER_TYPE_MISMATCH);
    note("decode_bool of a string", amber_decoder_decode_bool(&b, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_double of a string", amber_decoder_decode_double(&x, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_bytes of an integer", amber_decoder_decode_bytes(&y, &len, d, "value"), AMBER_TYPE_MISMATCH);
    note("decode_date of a string", decoder_decode_date(&x, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_index_path of a string", decoder_decode_index_path(ip, 4, &len, d, "s"), AMBER_TYPE_MISMATCH);
    note("decode_object_ref of a string", amber_decoder_decode_object(&o, d, "s", NULL, 0), AMBER_TYPE_MISMATCH);
    note("decode_string of an index path", amber_decoder_decode_string(&s, d, "p"), AMBER_TYPE_MISMATCH);
    /* Missing keys. */
    note("decode_int64 of a missing key", amber_decoder_decode_int64(&i, d, "nope"), AMBER_NOT_FOUND);
    note("decode_string of a missing key", amber_decoder_decode_string(&s, d, "nope"), AMBER_NOT_FOUND);
    note("decode_bool of a missing key", amber_decoder_decode_bool(&b, d, "nope"), AMBER_NOT_FOUND);
    note("decode_bytes of a missing key", amber_decoder_decode_bytes(&y, &len, d, "nope"), AMBER_NOT_FOUND);
    note("decode_object_ref of a missing key", amber_decoder_decode_object(&o, d, "nope", NULL, 0), AMBER_NOT_FOUND);
    /* The right types. */
    x = 0;
    note("decode_double of an integer (converted)", amber_decoder_decode_double(&x, d, "value"), AMBER_OK);
    if (x != 7.0) typed[n_typed - 1].status = -100;
    note("decode_index_path", decoder_decode_index_path(ip, 4, &len, d, "p"), AMBER_OK);
    if (len != 3 || ip[2] != 3) typed[n_typed - 1].status = -100;
    /* Secure decoding (the allowed classes). */
    secure_refs[0] = secure_refs[1] = secure_refs[2] = (amber_object *)n;
    note("secure: list of allowed ListController", amber_decoder_decode_object(&secure_refs[0], d, "list", allowed_list, 1), AMBER_OK);
    note("secure: list of allowed BaseController (a registered superclass)",
         amber_decoder_decode_object(&secure_refs[1], d, "list", allowed_base, 1), AMBER_OK);
    note("secure: list where only SettingsController, RootController are allowed",
         amber_decoder_decode_object(&o, d, "list", allowed_other, 2), AMBER_TYPE_MISMATCH);
    note("secure: list where only an unknown class name is allowed",
         amber_decoder_decode_object(&o, d, "list", allowed_unknown, 1), AMBER_TYPE_MISMATCH);
    note("secure: a NULL reference", amber_decoder_decode_object(&secure_refs[2], d, "none", allowed_list, 1), AMBER_OK);
    note("secure: a string is not a reference", amber_decoder_decode_object(&o, d, "s", allowed_list, 1), AMBER_TYPE_MISMATCH);
    note("secure: a missing key", amber_decoder_decode_object(&o, d, "nope", allowed_list, 1), AMBER_NOT_FOUND);
    note("secure: no classes (NULL)", amber_decoder_decode_object(&o, d, "list", NULL, 1), AMBER_INVALID_ARGUMENT);
    note("secure: no classes (count 0) allows any class", amber_decoder_decode_object(&o, d, "list", allowed_list, 0), AMBER_OK);
    note("secure: a class name of invalid UTF-8", amber_decoder_decode_object(&o, d, "list", allowed_bad, 1), AMBER_INVALID_ARGUMENT);
    note("secure: a NULL class name", amber_decoder_decode_object(&o, d, "list", allowed_null, 1), AMBER_INVALID_ARGUMENT);
}

void test_r12(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *a, *a1, *b, *c, *list;
    node *n_root, *n_a, *n_a1, *n_b, *n_c, *n_list;
    int i, distinct;

    printf("-- R12 decoding\n");
    reset();
    reset_app();
    A.app_version = "12.0"; /* a string in the application coder: should_restore decodes it as a reference */
    e = open_mem(&ms, NULL, NULL);
    n_root = nn("Root", 7);
    n_root->encode_hook = typed_encode;
    root = ctl(e, "RootController", "Root", n_root);
    a = ctl(e, "C", "A", nn("A", 1));
    a1 = ctl(e, "C", "A1", nn("A1", 2));
    b = ctl(e, "C", "B", nn("B", 3));
    c = ctl(e, "C", "Broken", nn("Broken", 4));
    list = ctl(e, "ListController", "List", nn("List", 5));
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(a, a1);
    amber_object_add_child(root, b);
    amber_object_add_child(root, c);
    amber_object_add_child(root, list);
    node_add_ref(n_root, "list", list);
    node_add_ref(n_root, "none", NULL);
    check(preserve(e) == 1, "R12 preserve");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    amber_engine_register_subclass(e, "ListController", "BaseController");
    n_root = nn("Root", -1), n_a = nn("A", -1), n_a1 = nn("A1", -1), n_b = nn("B", -1), n_c = nn("Broken", -1);
    n_list = nn("List", -1);
    n_root->decode_hook = typed_decode;
    n_c->fail_decode = 77;
    /* Made by the delegate, children before parents, so that creation order is not decode order. */
    a1 = ctl(e, "C", NULL, n_a1);
    b = ctl(e, "C", NULL, n_b);
    a = ctl(e, "C", NULL, n_a);
    c = ctl(e, "C", NULL, n_c);
    list = ctl(e, "ListController", NULL, n_list);
    root = ctl(e, "RootController", NULL, n_root);
    table_put(&A.ofp, "Root", root);
    table_put(&A.ofp, "Root/A", a);
    table_put(&A.ofp, "Root/A/A1", a1);
    table_put(&A.ofp, "Root/B", b);
    table_put(&A.ofp, "Root/Broken", c);
    table_put(&A.ofp, "Root/List", list);
    r = launch(e);
    /* R12 */ check(ev_first_prefix("decode:") > ev_last_prefix("ofp:"), "R12 decoding starts after every object exists (after the last lookup)");
    /* R12 */ check(ev_first("decode:Root") < ev_first("decode:A") && ev_first("decode:A") < ev_first("decode:A1") &&
                        ev_first("decode:Root") < ev_first("decode:B"),
                    "R12 parents decode before children: Root, then A before A1, and B");
    /* R12 */ check(n_root->got == 7 && n_a->got == 1 && n_a1->got == 2 && n_b->got == 3, "R12 each decoded its own value");
    for (i = 0; i < n_typed; i++) {
        char what[256];
        snprintf(what, sizeof what, "R12 %s", typed[i].what);
        /* R12 */ if (typed[i].want == AMBER_OK)
            check_status(typed[i].status, AMBER_OK, what);
        else
            checkf(typed[i].status == typed[i].want && typed[i].message[0] != '\0', "%s -> %s with a message%s%s", what,
                   amber_status_string(typed[i].status), typed[i].status == typed[i].want ? "" : ", expected ",
                   typed[i].status == typed[i].want ? "" : amber_status_string(typed[i].want));
    }
    distinct = AMBER_TYPE_MISMATCH != AMBER_NOT_FOUND && n_typed > 9 && strcmp(typed[0].message, typed[9].message) != 0;
    /* R12 */ check(distinct, "R12 a type mismatch and a missing key are distinct errors with distinct messages");
    /* R12 */ checkf(strstr(typed[18].message, "ListController") != NULL, "R12 secure decoding's refusal names the archived class: %s",
                     typed[18].message);
    /* R12 */ check(secure_refs[0] == list && secure_refs[1] == list && secure_refs[2] == NULL,
                    "R12 secure decoding gives the restored List when its class is allowed, NULL for a NULL reference");
    /* R12 */ checkf(A.app_ref_status == AMBER_TYPE_MISMATCH && A.app_secure_status == AMBER_TYPE_MISMATCH,
                     "R4 R12 the application decoder decodes references too, type-checked: a string (appVersion) is not one "
                     "-> AMBER_TYPE_MISMATCH (got %s, secure %s)",
                     amber_status_string(A.app_ref_status), amber_status_string(A.app_secure_status));
    /* R12 */ check(outcome_of(r, "Root/Broken") == AMBER_OUTCOME_DECODE_ERROR && strstr(find(r, "Root/Broken").message, "77") != NULL,
                    "R12 a decode callback's code 77: AMBER_OUTCOME_DECODE_ERROR, the message names 77");
    /* R12 */ check(outcome_of(r, "Root/List") == AMBER_OUTCOME_RESTORED && n_list->got == 5 && n_c->finished == 0,
                    "R12 restoration goes on after a decode error (List restored); the failed object is not finished");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R13 Finishing                                                                                */
/* ============================================================================================ */

static void nodecode_finished(amber_object *object, void *ctx) {
    (void)object;
    (void)ctx;
    ev("finished:NoDecode");
}

void test_r13(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *a, *m, *nd;
    node *n_root, *n_a, *n_m;
    amber_object_callbacks cb;

    printf("-- R13 finishing\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    A.app_version = "9.9";
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    amber_object_add_child(root, ctl(e, "C", "A", nn("A", 2)));
    amber_object_add_child(root, ctl(e, "C", "Missing", nn("Missing", 3)));
    amber_object_add_child(root, ctl(e, "C", "Mismatch", nn("Mismatch", 4)));
    amber_object_add_child(root, ctl(e, "C", "NoDecode", nn("NoDecode", 5)));
    check(preserve(e) == 1, "R13 preserve");
    amber_engine_close(e);

    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n_root = nn("Root", -1), n_a = nn("A", -1), n_m = nn("Mismatch", -1);
    root = ctl(e, "RootController", "Root", n_root);
    a = ctl(e, "C", "A", n_a);
    m = ctl(e, "OtherClass", "Mismatch", n_m);
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.finished_restoring = nodecode_finished; /* no decode callback */
    amber_object_new(&nd, e, AMBER_KIND_CONTROLLER, "C", "NoDecode", &cb, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(root, m);
    amber_object_add_child(root, nd);
    r = launch(e);
    /* R13 */ check(n_root->finished == 1 && n_a->finished == 1 && ev_count("finished:NoDecode") == 1,
                    "R13 finished_restoring once on every restored object (one without a decode callback too)");
    /* R13 */ check(n_m->finished == 0 && outcome_of(r, "Root/Missing") == AMBER_OUTCOME_NOT_FOUND,
                    "R13 not on objects that were not restored (class mismatch, not found)");
    /* R13 */ check(ev_first_prefix("finished:") > ev_last_prefix("decode:"), "R13 finished_restoring runs after every decode callback");
    /* R13 */ check(A.did_decode_calls == 1 && ev_first("did_decode") > ev_last_prefix("finished:") &&
                        ev_first("did_decode") < ev_first("did_finish"),
                    "R13 did_decode last: once, after every finished_restoring (and before did_finish_launching)");
    /* R13 */ checkf(strcmp(A.did_decode_app_version, "9.9") == 0, "R13 did_decode receives the application decoder (appVersion \"%s\")",
                     A.did_decode_app_version);
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R10 The delegate is asked for controllers only; lookup callbacks read the record              */
/* ============================================================================================ */

typedef struct seen_record {
    char path[96];
    int status, kind;
    char class_name[48], blueprint[48];
    size_t position;
} seen_record;

static seen_record r10_ofp_seen[16], r10_class_seen[4], r10_factory_seen[8];
static int r10_n_ofp, r10_n_class, r10_n_factory;
static amber_object *r10_field, *r10_photo;
static amber_decoder *r10_escaped;
static int r10_app_record_status, r10_null_record_status;

static void note_record(seen_record *s, const char *path, amber_decoder *d) {
    amber_record_info info;
    memset(&info, 0, sizeof info);
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->status = amber_decoder_record(&info, d);
    s->kind = info.kind;
    s->position = info.position;
    snprintf(s->class_name, sizeof s->class_name, "%s", info.class_name ? info.class_name : "(null)");
    snprintf(s->blueprint, sizeof s->blueprint, "%s", info.blueprint ? info.blueprint : "(null)");
}

static const seen_record *seen_for(const seen_record *seen, int n, const char *path) {
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(seen[i].path, path) == 0) return &seen[i];
    return NULL;
}

/* A delegate that makes a controller for every path it is asked, of the archived class (read
 * with amber_decoder_record), unless the record names a blueprint (then the factory makes it).
 * Detail makes its view Field while it is made, as loadView would. */
static int every_path_ofp(amber_object **out, amber_engine *e, const char *path, amber_decoder *d) {
    seen_record *s;
    const char *last = strrchr(path, '/');
    *out = NULL;
    if (r10_n_ofp >= 16) return AMBER_OK;
    s = &r10_ofp_seen[r10_n_ofp++];
    note_record(s, path, d);
    r10_escaped = d;
    if (s->status != AMBER_OK || strcmp(s->blueprint, "(null)") != 0) return AMBER_OK;
    last = last ? last + 1 : path;
    *out = ctl(e, s->class_name, NULL, nn(last, -1));
    if (strcmp(last, "Detail") == 0 && *out) {
        r10_field = mk(e, AMBER_KIND_VIEW, "FieldView", "Field", nn("Field", -1));
        amber_object_add_view(*out, r10_field);
    }
    return AMBER_OK;
}

static int r10_classy_make(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                           amber_decoder *decoder, void *ctx) {
    char p[256];
    (void)ctx;
    join_path(p, sizeof p, path, path_length);
    ev("make:ClassyClass:%s", p);
    if (r10_n_class < 4) note_record(&r10_class_seen[r10_n_class++], p, decoder);
    *out = ctl(engine, "ClassyController", NULL, nn("Classy", -1));
    return AMBER_OK;
}

static int r10_board_make(amber_object **out, amber_engine *engine, const char *blueprint_id, const char *const *path,
                          size_t path_length, amber_decoder *decoder, void *ctx) {
    char p[256];
    seen_record *s;
    (void)ctx;
    (void)blueprint_id;
    *out = NULL;
    join_path(p, sizeof p, path, path_length);
    ev("factory:%s", p);
    if (r10_n_factory >= 8) return AMBER_OK;
    s = &r10_factory_seen[r10_n_factory++];
    note_record(s, p, decoder);
    if (s->status != AMBER_OK) return AMBER_OK;
    *out = mk(engine, s->kind, s->class_name, NULL, nn(path[path_length - 1], -1));
    if (s->kind == AMBER_KIND_VIEW) r10_photo = *out;
    return AMBER_OK;
}

static void r10_should_restore(amber_decoder *d) {
    amber_record_info info;
    r10_app_record_status = amber_decoder_record(&info, d);
    r10_null_record_status = amber_decoder_record(NULL, d);
}

void test_r10_record_info(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_object *root, *detail, *o;
    amber_restoration_class rc;
    amber_blueprint_factory bf;
    amber_record_info info;
    const seen_record *s;
    node *n;
    int i, all_controllers;

    printf("-- R10 the delegate is asked for controllers only; lookup callbacks read the record\n");
    reset();
    reset_app();
    r10_n_ofp = r10_n_class = r10_n_factory = 0;
    r10_field = r10_photo = NULL;
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_engine_add_root(e, root);
    detail = ctl(e, "DetailController", "Detail", nn("Detail", 2));
    amber_object_add_child(root, detail);
    amber_object_add_view(detail, mk(e, AMBER_KIND_VIEW, "FieldView", "Field", nn("Field", 3)));
    o = mk(e, AMBER_KIND_VIEW, "PhotoView", "Photo", nn("Photo", 4));
    amber_object_set_blueprint(o, "Board/Photo");
    amber_object_add_view(detail, o);
    o = ctl(e, "ClassyController", "Classy", nn("Classy", 5));
    amber_object_set_restoration_class(o, "ClassyClass");
    amber_object_set_blueprint(o, "Board/Classy");
    amber_object_add_child(root, o);
    o = ctl(e, "BoardedController", "Boarded", nn("Boarded", 6));
    amber_object_set_blueprint(o, "Board/Boarded");
    amber_object_add_child(root, o);
    amber_object_add_view(root, mk(e, AMBER_KIND_VIEW, "BannerView", "Banner", nn("Banner", 7)));
    check(preserve(e) == 1, "R10 preserve Root, Detail with views Field and Photo, Classy, Boarded, Root's view Banner");
    amber_engine_close(e);

    /* The next launch builds nothing: the delegate makes a controller for every path it is asked. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    A.ofp_hook = every_path_ofp;
    A.should_restore_hook = r10_should_restore;
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = r10_classy_make;
    amber_engine_register_restoration_class(e, "ClassyClass", &rc, NULL, NULL);
    bf = (amber_blueprint_factory)AMBER_BLUEPRINT_FACTORY_INIT;
    bf.make = r10_board_make;
    amber_engine_register_blueprint_factory(e, "Board", &bf, NULL, NULL);
    r = launch(e);
    all_controllers = r10_n_ofp > 0;
    for (i = 0; i < r10_n_ofp; i++) all_controllers = all_controllers && r10_ofp_seen[i].status == AMBER_OK &&
                                                      r10_ofp_seen[i].kind == AMBER_KIND_CONTROLLER;
    /* R10 */ checkf(r10_n_ofp == 3 && ev_count("ofp:Root") == 1 && ev_count("ofp:Root/Detail") == 1 && ev_count("ofp:Root/Boarded") == 1,
                     "R10 object_for_path is asked for the controllers without restoration class: Root, Root/Detail, Root/Boarded (%d asks)",
                     r10_n_ofp);
    /* R10 */ check(ev_count("ofp:Root/Detail/Field") == 0 && ev_count("ofp:Root/Detail/Photo") == 0 && ev_count("ofp:Root/Banner") == 0 &&
                        all_controllers,
                    "R10 a delegate that makes a controller for every path never sees a view's path (amber_decoder_record: controller each time)");
    s = seen_for(r10_ofp_seen, r10_n_ofp, "Root/Detail");
    /* R10 */ check(s && strcmp(s->class_name, "DetailController") == 0 && strcmp(s->blueprint, "(null)") == 0 && s->position == 0,
                    "R10 object_for_path reads the record of Root/Detail: controller, class DetailController, no blueprint");
    s = seen_for(r10_ofp_seen, r10_n_ofp, "Root/Boarded");
    /* R10 */ check(s && strcmp(s->class_name, "BoardedController") == 0 && strcmp(s->blueprint, "Board/Boarded") == 0,
                    "R10 object_for_path reads the record of Root/Boarded: class BoardedController, blueprint Board/Boarded (so it leaves it to the factory)");
    /* R10 */ check(find(r, "Root/Detail/Field").outcome == AMBER_OUTCOME_RESTORED && r10_field &&
                        find(r, "Root/Detail/Field").object == r10_field && path_is(r10_field, "Root/Detail/Field") &&
                        ((node *)amber_object_context(r10_field))->got == 3,
                    "R10 the view Field is restored: Detail made it while being made, and it is found among Detail's views (decoded 3)");
    n = r10_field ? amber_object_context(r10_field) : NULL;
    /* R10 */ check(n && n->record_status == AMBER_OK && n->record_kind == AMBER_KIND_VIEW && strcmp(n->record_class, "FieldView") == 0,
                    "R10 a decode callback reads its record too: view, FieldView");
    s = seen_for(r10_factory_seen, r10_n_factory, "Root/Detail/Photo");
    /* R10 */ check(s && s->status == AMBER_OK && s->kind == AMBER_KIND_VIEW && strcmp(s->class_name, "PhotoView") == 0 &&
                        strcmp(s->blueprint, "Board/Photo") == 0,
                    "R10 the blueprint factory reads the record of Root/Detail/Photo: view, class PhotoView, blueprint Board/Photo");
    /* R10 */ check(find(r, "Root/Detail/Photo").outcome == AMBER_OUTCOME_RESTORED && r10_photo &&
                        find(r, "Root/Detail/Photo").object == r10_photo && ((node *)amber_object_context(r10_photo))->got == 4 &&
                        path_is(r10_photo, "Root/Detail/Photo"),
                    "R10 the factory's view is restored and placed in Detail (decoded 4)");
    s = seen_for(r10_factory_seen, r10_n_factory, "Root/Boarded");
    /* R10 */ check(s && s->kind == AMBER_KIND_CONTROLLER && strcmp(s->class_name, "BoardedController") == 0 &&
                        strcmp(s->blueprint, "Board/Boarded") == 0 && outcome_of(r, "Root/Boarded") == AMBER_OUTCOME_RESTORED,
                    "R10 the blueprint factory reads the record of Root/Boarded: controller, BoardedController, Board/Boarded; restored");
    s = seen_for(r10_class_seen, r10_n_class, "Root/Classy");
    /* R10 */ check(s && s->status == AMBER_OK && s->kind == AMBER_KIND_CONTROLLER && strcmp(s->class_name, "ClassyController") == 0 &&
                        strcmp(s->blueprint, "Board/Classy") == 0 && ev_count("ofp:Root/Classy") == 0 &&
                        outcome_of(r, "Root/Classy") == AMBER_OUTCOME_RESTORED,
                    "R10 the restoration class reads the record of Root/Classy: controller, ClassyController, Board/Classy");
    /* R10 */ checkf(outcome_of(r, "Root/Banner") == AMBER_OUTCOME_NOT_FOUND && strstr(find(r, "Root/Banner").message, "Banner") != NULL,
                     "R10 R16 a view nothing made is not found, and the delegate was not asked for it: %s", find(r, "Root/Banner").message);
    /* R10 */ check(r10_app_record_status == AMBER_INVALID_ARGUMENT && r10_null_record_status == AMBER_INVALID_ARGUMENT,
                    "R10 amber_decoder_record on the application decoder, or with out NULL: AMBER_INVALID_ARGUMENT");
    /* R10 */ check_status(amber_decoder_record(&info, r10_escaped), AMBER_MISUSE, "R10 amber_decoder_record outside its callback");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R10 Nothing under a declined object is looked up, also by reference through a duplicate      */
/* ============================================================================================ */

void test_r10_declined_by_reference(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_preservation *p = NULL;
    amber_preservation_entry en;
    amber_object *root, *tab1, *tab2, *hidden;
    node *tab1_n, *tab2_n, *hidden_n, *h_root, *h_tab, *h_hidden;
    table decline = {"make:DeclineRoot", 0, {0}, {0}, 0}, boards = {"factory", 0, {0}, {0}, 0};

    printf("-- R10 nothing under a declined object is looked up, also by reference through a duplicate\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    amber_object_set_restoration_class(root, "DeclineRoot");
    amber_engine_add_root(e, root);
    tab1_n = nn("tab1", 2);
    tab2_n = nn("tab2", 3);
    hidden_n = nn("hidden", 4);
    tab1 = ctl(e, "TabController", "tab", tab1_n);
    tab2 = ctl(e, "TabController", "tab", tab2_n); /* Root is no stack: a duplicate of Root/tab */
    hidden = ctl(e, "HiddenController", "hidden", hidden_n);
    amber_object_set_blueprint(hidden, "Board/Hidden");
    amber_object_add_child(root, tab1);
    amber_object_add_child(root, tab2);
    amber_object_add_child(tab2, hidden);
    node_add_ref(tab1_n, "hidden", hidden); /* the first tab references the duplicate's child */
    check(preserve(e) == 1, "R10 preserve");
    /* R10 */ check(tab1_n->ref_status[0] == AMBER_OK && hidden_n->encoded == 1 && tab2_n->encoded == 0,
                    "R3 R4 the second tab is a duplicate (not preserved); its child, referenced by the first tab, is preserved");
    amber_engine_preservation(&p, e);
    en = entry_at_path(p, "Root/tab/hidden", 0);
    /* R10 */ check(en.left_out == AMBER_LEFT_OUT_NONE && en.size > 0, "R4 R28 the report: Root/tab/hidden preserved (by reference)");
    /* R10 */ check(entry_at_path(p, "Root/tab", 0).left_out == AMBER_LEFT_OUT_NONE, "R3 R28 the report: the first Root/tab preserved");
    {
        size_t i;
        int dup = 0;
        for (i = 0; i < amber_preservation_count(p); i++) {
            if (amber_preservation_entry_at(&en, p, i) != AMBER_OK) continue;
            if (en.left_out == AMBER_LEFT_OUT_DUPLICATE_PATH && strcmp(en.class_name, "TabController") == 0 &&
                strstr(en.message, "/Root/tab") != NULL)
                dup = 1;
        }
        /* R10 */ check(dup, "R3 R28 the report: the second Root/tab left out as a duplicate, naming the one kept (/Root/tab)");
    }
    amber_preservation_free(p);
    amber_engine_close(e);

    /* The next launch: DeclineRoot gives none for Root. The default set-up has a Root/tab and a
     * Root/tab/hidden, the delegate and a factory could give them: none may be asked or used. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    h_root = nn("Root", -1);
    h_tab = nn("tab", -1);
    h_hidden = nn("hidden", -1);
    root = ctl(e, "RootController", "Root", h_root);
    tab1 = ctl(e, "TabController", "tab", h_tab);
    hidden = ctl(e, "HiddenController", "hidden", h_hidden);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, tab1);
    amber_object_add_child(tab1, hidden);
    table_put(&A.ofp, "Root/tab", tab1);
    table_put(&A.ofp, "Root/tab/hidden", hidden);
    table_put(&boards, "Root/tab/hidden", hidden);
    add_class(e, "DeclineRoot", &decline);
    add_factory(e, "Board", &boards);
    r = launch(e);
    /* R10 */ checkf(ev_count("make:DeclineRoot:Root") == 1 && ev_first_prefix("make:") == ev_last_prefix("make:") &&
                         ev_first_prefix("ofp:") == -1 && ev_first_prefix("factory:") == -1,
                     "R10 only the root is looked up: DeclineRoot's make once, no object_for_path, no factory (%d events)", n_events);
    /* R10 */ checkf(amber_report_count(r) == 3 && outcome_of(r, "Root") == AMBER_OUTCOME_DECLINED_BY_CLASS &&
                         outcome_of(r, "Root/tab") == AMBER_OUTCOME_LEFT_OUT,
                     "R10 Root is declined by its class, Root/tab left out (%zu records)", amber_report_count(r));
    /* R10 */ checkf(outcome_of(r, "Root/tab/hidden") == AMBER_OUTCOME_LEFT_OUT && find(r, "Root/tab/hidden").object == NULL,
                     "R10 Root/tab/hidden, recorded by reference under the duplicate, is left out too (%s: %s)",
                     outcome_name(outcome_of(r, "Root/tab/hidden")), find(r, "Root/tab/hidden").message);
    /* R10 */ check(h_root->decoded == 0 && h_tab->decoded == 0 && h_hidden->decoded == 0,
                    "R10 none of the default set-up's objects is decoded");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

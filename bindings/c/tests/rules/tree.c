/*
 * test_rules, R1-R4: the tree of restorable objects, restoration paths, references.
 *
 * R1 the kinds of objects, their callbacks and contexts, presenting; R2 which objects are saved
 * (identifiers, roots); R3 paths, stack positions and duplicates; R4 references to objects
 * outside the tree and the seeds of a navigation stack.
 */
#include "fixture.h"

/* ============================================================================================ */
/* R1 Restorable objects: kinds, callbacks, context                                              */
/* ============================================================================================ */

void test_r1(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n, *child_n, *view_n, *plain_n, *modal_n, *n2[5];
    amber_object *root, *child, *view, *plain, *modal, *o2[5];
    int i, all;

    printf("-- R1 restorable objects\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 1);
    child_n = nn("Child", 2);
    view_n = nn("Scroll", 3);
    plain_n = nn("Source", 4);
    modal_n = nn("Modal", 5);
    root = ctl(e, "RootController", "Root", root_n);
    child = ctl(e, "ChildController", "Child", child_n);
    view = mk(e, AMBER_KIND_VIEW, "ScrollView", "Scroll", view_n);
    plain = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", plain_n);
    modal = ctl(e, "ModalController", "Modal", modal_n);
    /* R1 */ check(amber_object_kind(root) == AMBER_KIND_CONTROLLER && amber_object_kind(view) == AMBER_KIND_VIEW &&
                       amber_object_kind(plain) == AMBER_KIND_OBJECT,
                   "R1 three kinds: controller, view, plain object");
    /* R1 */ check(amber_object_context(root) == root_n && amber_object_context(view) == view_n &&
                       amber_object_context(plain) == plain_n,
                   "R1 each object keeps the host's context pointer");
    /* R1 */ check(strcmp(amber_object_class_name(plain), "DataSource") == 0 && strcmp(amber_object_identifier(view), "Scroll") == 0,
                   "R1 class name and restoration identifier read back");
    amber_engine_add_root(e, root);
    /* R1 */ check_status(amber_object_add_child(root, child), AMBER_OK, "R1 a child controller (containment)");
    /* R1 */ check_status(amber_object_present(child, modal), AMBER_OK, "R1 a presented controller (modal)");
    /* R1 */ check_status(amber_object_add_view(root, view), AMBER_OK, "R1 a view belongs to a controller");
    /* R1 */ check_status(amber_object_set_restoration_parent(plain, root), AMBER_OK, "R1 a plain object names a restoration parent");
    /* R1 */ check_status(amber_object_set_restoration_parent(view, root), AMBER_INVALID_ARGUMENT,
                          "R1 a view cannot name a restoration parent");
    /* R1 */ check_status(amber_object_add_child(root, view), AMBER_INVALID_ARGUMENT, "R1 a view is not a child controller");
    /* R1 */ check(path_is(child, "Root/Child") && path_is(modal, "Root/Child/Modal") && path_is(view, "Root/Scroll") &&
                       path_is(plain, "Root/Source"),
                   "R1 paths: child Root/Child, presented Root/Child/Modal, view Root/Scroll, plain Root/Source");
    node_add_ref(root_n, "source", plain); /* R4: a plain object is preserved when referenced */
    check(preserve(e) == 1, "R1 preserve");
    all = 1;
    for (i = 0; i < 5; i++) all = all && pool[i].encoded == 1 && pool[i].callbacks_ok;
    /* R1 */ check(all, "R1 encode ran once on each of the 5 objects, with its handle and its context");
    amber_engine_close(e);

    /* The next launch: the host builds the same objects; they are found implicitly. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    n2[0] = nn("Root", 0), n2[1] = nn("Child", 0), n2[2] = nn("Scroll", 0), n2[3] = nn("Source", 0), n2[4] = nn("Modal", 0);
    o2[0] = ctl(e, "RootController", "Root", n2[0]);
    o2[1] = ctl(e, "ChildController", "Child", n2[1]);
    o2[2] = mk(e, AMBER_KIND_VIEW, "ScrollView", "Scroll", n2[2]);
    o2[3] = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", n2[3]);
    o2[4] = ctl(e, "ModalController", "Modal", n2[4]);
    amber_engine_add_root(e, o2[0]);
    amber_object_add_child(o2[0], o2[1]);
    amber_object_present(o2[1], o2[4]);
    amber_object_add_view(o2[0], o2[2]);
    amber_object_set_restoration_parent(o2[3], o2[0]);
    r = launch(e);
    all = 1;
    for (i = 0; i < 5; i++) all = all && n2[i]->decoded == 1 && n2[i]->finished == 1 && n2[i]->callbacks_ok && n2[i]->got == i + 1;
    /* R1 */ check(all, "R1 decode and finished_restoring ran on each object with its handle and context; values 1..5 back");
    /* R1 */ check(find(r, "Root/Scroll").kind == AMBER_KIND_VIEW && find(r, "Root/Source").kind == AMBER_KIND_OBJECT &&
                       find(r, "Root/Child/Modal").kind == AMBER_KIND_CONTROLLER,
                   "R1 the report gives each record's kind");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R2 Who is preserved                                                                          */
/* ============================================================================================ */

void test_r2(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *main_n, *list_n, *login_n, *form_n, *field_n, *help_n, *aux_n, *panel_n, *anon_n, *inanon_n;
    amber_object *main_o, *list, *login, *form, *field, *help, *aux, *panel, *anon, *inanon;

    printf("-- R2 who is preserved\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    main_n = nn("Main", 1), list_n = nn("List", 2), login_n = nn("Login", 3), form_n = nn("Form", 4);
    field_n = nn("Field", 5), help_n = nn("Help", 6), aux_n = nn("Aux", 7), panel_n = nn("Panel", 8);
    anon_n = nn("Anon", 9), inanon_n = nn("InAnon", 10);
    main_o = ctl(e, "Window", "Main", main_n);
    list = ctl(e, "ListController", "List", list_n);
    login = ctl(e, "LoginController", NULL, login_n); /* no identifier: left out with all under it */
    form = ctl(e, "FormController", "Form", form_n);
    field = mk(e, AMBER_KIND_VIEW, "TextField", "Field", field_n);
    help = ctl(e, "HelpController", "Help", help_n);
    aux = ctl(e, "Window", "Aux", aux_n); /* a second root */
    panel = ctl(e, "PanelController", "Panel", panel_n);
    anon = ctl(e, "Window", NULL, anon_n); /* a third root, without identifier */
    inanon = ctl(e, "InnerController", "InAnon", inanon_n);
    amber_engine_add_root(e, main_o);
    amber_object_add_child(main_o, list);
    amber_object_add_child(main_o, login);
    amber_object_add_child(login, form);
    amber_object_add_view(login, field);
    amber_object_present(login, help);
    check_status(amber_engine_add_root(e, aux), AMBER_OK, "R2 a second root");
    check_status(amber_engine_add_root(e, anon), AMBER_OK, "R2 a third root, without identifier");
    amber_object_add_child(anon, inanon);
    check(preserve(e) == 1, "R2 preserve");
    /* R2 */ check(main_n->encoded == 1 && list_n->encoded == 1 && aux_n->encoded == 1 && panel_n->encoded == 0,
                   "R2 Main, Main/List and Aux encoded (Panel not yet added)");
    /* R2 */ check(login_n->encoded == 0, "R2 Login (no identifier) is not encoded");
    /* R2 */ check(form_n->encoded == 0 && field_n->encoded == 0 && help_n->encoded == 0,
                   "R2 what hangs under Login is left out: its child, its view, what it presents");
    /* R2 */ check(anon_n->encoded == 0 && inanon_n->encoded == 0, "R2 a root without identifier is left out with its children");
    amber_object_add_child(aux, panel);
    main_n->encoded = 0;
    check(preserve(e) == 1 && panel_n->encoded == 1 && main_n->encoded == 1, "R2 preserve again: each root is walked, Aux/Panel now too");
    amber_engine_close(e);

    /* The next launch: the default set-up builds everything again, Login included. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    main_n = nn("Main", 0), list_n = nn("List", 0), login_n = nn("Login", 0), form_n = nn("Form", 0);
    aux_n = nn("Aux", 0), panel_n = nn("Panel", 0);
    main_o = ctl(e, "Window", "Main", main_n);
    list = ctl(e, "ListController", "List", list_n);
    login = ctl(e, "LoginController", NULL, login_n);
    form = ctl(e, "FormController", "Form", form_n);
    aux = ctl(e, "Window", "Aux", aux_n);
    panel = ctl(e, "PanelController", "Panel", panel_n);
    amber_engine_add_root(e, main_o);
    amber_object_add_child(main_o, list);
    amber_object_add_child(main_o, login);
    amber_object_add_child(login, form);
    amber_engine_add_root(e, aux);
    amber_object_add_child(aux, panel);
    r = launch(e);
    /* R2 */ checkf(amber_report_count(r) == 4, "R2 the archive holds exactly 4 objects (got %zu): Main, Main/List, Aux, Aux/Panel",
                    amber_report_count(r));
    /* R2 */ check(outcome_of(r, "Main") == AMBER_OUTCOME_RESTORED && outcome_of(r, "Main/List") == AMBER_OUTCOME_RESTORED &&
                       outcome_of(r, "Aux") == AMBER_OUTCOME_RESTORED && outcome_of(r, "Aux/Panel") == AMBER_OUTCOME_RESTORED,
                   "R2 several roots: both windows and their children restored");
    /* R2 */ check(main_n->got == 1 && list_n->got == 2 && aux_n->got == 7 && panel_n->got == 8, "R2 each decoded its own value");
    /* R2 */ check(outcome_of(r, "Main/Form") == -1 && outcome_of(r, "Form") == -1 && outcome_of(r, "InAnon") == -1,
                   "R2 no record for Form or InAnon");
    /* R2 */ check(login_n->decoded == 0 && form_n->decoded == 0 && amber_object_kind(form) == AMBER_KIND_CONTROLLER &&
                       path_is(form, NULL),
                   "R2 Login and Form, made by the default set-up, are still there and untouched (not decoded)");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R3 Restoration paths: unique, duplicates reported, stacks by position                        */
/* ============================================================================================ */

void test_r3(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *dup_a, *dup_b, *under_b, *items[3], *twin_n, *twin_child;
    amber_object *root, *a, *b, *under, *nav, *it[3], *twin, *twin_kid, *other;
    const char *dups;
    int i;

    printf("-- R3 restoration paths\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    dup_a = nn("DupA", 10);
    dup_b = nn("DupB", 20);
    under_b = nn("UnderB", 21);
    a = ctl(e, "C", "Dup", dup_a);
    b = ctl(e, "C", "Dup", dup_b);
    under = ctl(e, "C", "Under", under_b);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    amber_object_add_child(root, b);
    amber_object_add_child(b, under);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", 0));
    check_status(amber_object_set_stack(nav, 1), AMBER_OK, "R3 declare Nav a stack");
    amber_engine_add_root(e, nav);
    for (i = 0; i < 3; i++) {
        items[i] = nn(i == 0 ? "Item0" : i == 1 ? "Item1" : "Item2", 100 + i);
        it[i] = ctl(e, "ItemController", "Item", items[i]);
        amber_object_add_child(nav, it[i]);
    }
    other = ctl(e, "OtherController", "Other", nn("Other", 0));
    amber_object_add_child(nav, other);
    twin_n = nn("Twin", 30);
    twin_child = nn("TwinKid", 31);
    twin = ctl(e, "Window", "Root", twin_n); /* a second root with the first one's identifier */
    twin_kid = ctl(e, "C", "Kid", twin_child);
    amber_object_add_child(twin, twin_kid);
    amber_engine_add_root(e, twin);
    /* R3 */ check(path_is(it[0], "Nav/Item") && path_is(it[1], "Nav/Item[1]") && path_is(it[2], "Nav/Item[2]") &&
                       path_is(other, "Nav/Other"),
                   "R3 an identifier is never rewritten: the three stacked Items are Nav/Item, Nav/Item[1], Nav/Item[2] "
                   "(the position beside the identifier, no Item#1)");
    check(preserve(e) == 1, "R3 preserve with duplicates succeeds");
    dups = last_duplicates(e);
    {
        char shown[256];
        size_t k;
        snprintf(shown, sizeof shown, "%s", dups);
        for (k = 0; shown[k]; k++)
            if (shown[k] == '\n') shown[k] = ',';
        /* R3 */ checkf(has_line(dups, "Root/Dup"), "R3 the duplicate Root/Dup is reported (amber_engine_last_duplicates: %s)", shown);
    }
    /* R3 */ check(has_line(dups, "Root"), "R3 the duplicate root Root is reported");
    /* R3 */ check(!has_line(dups, "Nav/Item") && !has_line(dups, "Nav/Item#1"), "R3 stack children are not duplicates");
    /* R3 */ check(dup_a->encoded == 1 && dup_b->encoded == 0 && under_b->encoded == 0,
                   "R3 the first Root/Dup is preserved; the second, and what is under it, are not");
    /* R3 */ check(twin_n->encoded == 0 && twin_child->encoded == 0, "R3 the second root named Root is not preserved, nor its child");
    /* R3 */ check(items[0]->encoded == 1 && items[1]->encoded == 1 && items[2]->encoded == 1, "R3 the three stacked Items are preserved");
    amber_engine_close(e);

    /* The next launch: a stack of three fresh Items is found by position. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 0));
    dup_a = nn("Dup", -1);
    a = ctl(e, "C", "Dup", dup_a);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, a);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", 0));
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, nav);
    for (i = 0; i < 3; i++) {
        items[i] = nn("Item", -1);
        it[i] = ctl(e, "ItemController", "Item", items[i]);
        amber_object_add_child(nav, it[i]);
    }
    r = launch(e);
    /* R3 */ check(items[0]->got == 100 && items[1]->got == 101 && items[2]->got == 102,
                   "R3 at restore each stacked Item gets the state of its position (100, 101, 102)");
    /* R3 */ check(find_at(r, "Nav/Item", 0).object == it[0] && find_at(r, "Nav/Item", 1).object == it[1] &&
                       find_at(r, "Nav/Item", 2).object == it[2] && find_at(r, "Nav/Item", 2).outcome == AMBER_OUTCOME_RESTORED &&
                       outcome_of(r, "Nav/Item#1") == -1 && outcome_of(r, "Nav/Item#2") == -1,
                   "R3 the report keeps the stack position beside the path: Nav/Item at positions 0, 1, 2 (no Nav/Item#1)");
    /* R3 */ check(dup_a->got == 10, "R3 Root/Dup holds the first one's state (10)");
    /* R3 */ checkf(amber_report_count(r) == 7 && outcome_of(r, "Root/Dup/Under") == -1 && outcome_of(r, "Root/Kid") == -1,
                    "R3 7 records (got %zu): no record under the duplicates", amber_report_count(r));
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R4 Manual references                                                                         */
/* ============================================================================================ */

void test_r4(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    node *root_n, *list_n, *source_n, *cursor_n, *off_n, *gone_n;
    amber_object *root, *list, *source, *cursor, *offscreen, *gone, *nameless, *nameless_parent, *under_nameless;

    printf("-- R4 manual references\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 1), list_n = nn("List", 2), source_n = nn("Source", 3), cursor_n = nn("Cursor", 4);
    off_n = nn("Offscreen", 5), gone_n = nn("Gone", 6);
    root = ctl(e, "RootController", "Root", root_n);
    list = ctl(e, "ListController", "List", list_n);
    source = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", source_n);
    cursor = mk(e, AMBER_KIND_OBJECT, "Cursor", "Cursor", cursor_n); /* registered, referenced by nothing */
    offscreen = ctl(e, "OffscreenController", "Offscreen", off_n);    /* in no tree: the walk leaves it out */
    gone = ctl(e, "GoneController", "Gone", gone_n);                  /* in no tree; nothing provides it later */
    nameless = mk(e, AMBER_KIND_OBJECT, "Nameless", NULL, nn("Nameless", 0));
    nameless_parent = ctl(e, "C", NULL, nn("NamelessParent", 0));
    under_nameless = ctl(e, "C", "UnderNameless", nn("UnderNameless", 9));
    amber_object_add_child(nameless_parent, under_nameless);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, list);
    amber_object_set_restoration_parent(source, list);
    amber_object_set_restoration_parent(cursor, list);
    node_add_ref(list_n, "source", source);
    node_add_ref(list_n, "offscreen", offscreen);
    node_add_ref(list_n, "none", NULL);
    node_add_ref(list_n, "gone", gone);
    node_add_ref(root_n, "nameless", nameless);
    node_add_ref(root_n, "underNameless", under_nameless);
    check(preserve(e) == 1, "R4 preserve");
    /* R4 */ check(list_n->ref_status[0] == AMBER_OK && list_n->ref_status[1] == AMBER_OK && list_n->ref_status[2] == AMBER_OK &&
                       list_n->ref_status[3] == AMBER_OK,
                   "R4 references to a plain object, to an object outside every tree, and NULL encode");
    /* R4 */ check(source_n->encoded == 1 && off_n->encoded == 1 && gone_n->encoded == 1,
                   "R4 the referenced objects are preserved with their state (encode ran), the walk's outcasts too");
    /* R4 */ check(cursor_n->encoded == 0, "R4 a plain object nothing references is not preserved");
    /* R4 */ checkf(root_n->ref_status[0] == AMBER_INVALID_ARGUMENT,
                    "R4 a reference to an object without a restoration identifier is AMBER_INVALID_ARGUMENT (got %s)",
                    amber_status_string(root_n->ref_status[0]));
    /* R4 */ checkf(root_n->ref_status[1] == AMBER_OK && ((node *)amber_object_context(under_nameless))->encoded == 1,
                    "R4 a reference to an identified object under an ancestor without one encodes (got %s) and preserves it",
                    amber_status_string(root_n->ref_status[1]));
    amber_engine_close(e);

    /* The next launch. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root_n = nn("Root", 0), list_n = nn("List", 0), source_n = nn("Source", 0), cursor_n = nn("Cursor", 0);
    off_n = nn("Offscreen", 0);
    root = ctl(e, "RootController", "Root", root_n);
    list = ctl(e, "ListController", "List", list_n);
    source = mk(e, AMBER_KIND_OBJECT, "DataSource", "Source", source_n);
    cursor = mk(e, AMBER_KIND_OBJECT, "Cursor", "Cursor", cursor_n);
    offscreen = ctl(e, "OffscreenController", "Offscreen", off_n);
    amber_engine_add_root(e, root);
    amber_object_add_child(root, list);
    amber_object_set_restoration_parent(source, list);
    amber_object_set_restoration_parent(cursor, list);
    table_put(&A.ofp, "Offscreen", offscreen);
    node_add_ref(list_n, "source", NULL);
    node_add_ref(list_n, "offscreen", NULL);
    node_add_ref(list_n, "none", NULL);
    node_add_ref(list_n, "gone", NULL);
    under_nameless = ctl(e, "C", NULL, nn("UnderNameless", -1));
    table_put(&A.ofp, "UnderNameless", under_nameless);
    r = launch(e);
    /* R4 */ check(list_n->got_ref_status[0] == AMBER_OK && list_n->got_refs[0] == source,
                   "R4 the reference to the plain object decodes to the restored Source");
    /* R4 */ check(list_n->got_ref_status[1] == AMBER_OK && list_n->got_refs[1] == offscreen,
                   "R4 the reference to the object the walk left out decodes to the restored Offscreen");
    /* R4 */ check(list_n->got_ref_status[2] == AMBER_OK && list_n->got_refs[2] == NULL, "R4 a NULL reference decodes to NULL");
    /* R4 */ check(list_n->got_ref_status[3] == AMBER_OK && list_n->got_refs[3] == NULL && outcome_of(r, "Gone") == AMBER_OUTCOME_NOT_FOUND,
                   "R4 a reference to an object that was not restored decodes to NULL (AMBER_OK)");
    /* R4 */ check(source_n->got == 3 && off_n->got == 5, "R4 Source and Offscreen decoded their own state (3, 5)");
    /* R4 */ check(find(r, "Root/List/Source").kind == AMBER_KIND_OBJECT && outcome_of(r, "Offscreen") == AMBER_OUTCOME_RESTORED,
                   "R4 records for Root/List/Source (a plain object) and Offscreen");
    /* R4 */ check(outcome_of(r, "Root/List/Cursor") == -1 && cursor_n->decoded == 0, "R4 no record for the unreferenced Cursor");
    /* R4 */ check(outcome_of(r, "UnderNameless") == AMBER_OUTCOME_RESTORED && find(r, "UnderNameless").object == under_nameless &&
                       ((node *)amber_object_context(under_nameless))->got == 9,
                   "R4 its path skips the ancestor without identifier: UnderNameless, restored with its state (9)");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R1 Presenting: a controller that presents one must dismiss it first                           */
/* ============================================================================================ */

void test_present(void) {
    mem_store ms = {0};
    amber_engine *e;
    amber_object *root, *first, *second;
    const char *msg;
    int rc;

    printf("-- R1 presenting refuses a replacement\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    first = ctl(e, "FirstModalController", "FirstModal", nn("FirstModal", 2));
    second = ctl(e, "SecondModalController", "SecondModal", nn("SecondModal", 3));
    amber_engine_add_root(e, root);
    check_status(amber_object_present(root, first), AMBER_OK, "R1 Root presents FirstModal");
    amber_error_clear();
    rc = amber_object_present(root, second);
    msg = amber_error_last();
    /* R1 */ check_error(rc, AMBER_MISUSE, "R1 presenting SecondModal from Root, which presents FirstModal already");
    /* R1 */ checkf(strstr(msg, "Root") != NULL && strstr(msg, "FirstModal") != NULL,
                    "R1 the refusal's message names both the presenter and the controller it presents: %s", msg);
    /* R1 */ check(path_is(first, "Root/FirstModal") && path_is(second, "SecondModal"),
                   "R1 nothing changes: FirstModal is still presented (Root/FirstModal), SecondModal is not (SecondModal)");
    check(preserve(e) == 1, "R1 preserve");
    /* R1 */ check(pool[1].encoded == 1 && pool[2].encoded == 0, "R1 the preservation sees FirstModal presented, not SecondModal");
    /* R1 */ check_status(amber_object_present(root, first), AMBER_OK, "R1 presenting the same controller again does nothing");
    /* R1 */ check(path_is(first, "Root/FirstModal"), "R1 ... and FirstModal is still presented");
    check_status(amber_object_present(root, NULL), AMBER_OK, "R1 dismiss (present NULL)");
    /* R1 */ check_status(amber_object_present(root, second), AMBER_OK, "R1 once dismissed, Root presents SecondModal");
    /* R1 */ check(path_is(second, "Root/SecondModal") && path_is(first, "FirstModal"),
                   "R1 SecondModal is presented (Root/SecondModal), FirstModal no longer (FirstModal)");
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R3 Identifiers as set: A, A and A#1 in one stack                                              */
/* ============================================================================================ */

#define R3_ITEMS 3
static struct {
    char id[16];
    size_t position;
    int kind, record_status;
    char class_name[48];
    amber_object *made;
} r3_made[8];
static int r3_n_made;

/* The restoration class ItemClass: the object's identifier is the path's last component, its
 * class the archived one (read with amber_decoder_record). */
static int r3_item_make(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                        amber_decoder *decoder, void *ctx) {
    amber_record_info info;
    char p[256];
    (void)ctx;
    *out = NULL;
    join_path(p, sizeof p, path, path_length);
    ev("make:ItemClass:%s", p);
    if (r3_n_made >= 8 || path_length == 0) return AMBER_OK;
    memset(&info, 0, sizeof info);
    r3_made[r3_n_made].record_status = amber_decoder_record(&info, decoder);
    snprintf(r3_made[r3_n_made].id, sizeof r3_made[0].id, "%s", path[path_length - 1]);
    snprintf(r3_made[r3_n_made].class_name, sizeof r3_made[0].class_name, "%s", info.class_name ? info.class_name : "");
    r3_made[r3_n_made].position = info.position;
    r3_made[r3_n_made].kind = info.kind;
    *out = ctl(engine, info.class_name ? info.class_name : "ItemController", path[path_length - 1], nn(path[path_length - 1], -1));
    r3_made[r3_n_made].made = *out;
    r3_n_made++;
    return AMBER_OK;
}

void test_r3_identifiers(void) {
    static const char *const ids[R3_ITEMS] = {"A", "A", "A#1"};
    static const size_t positions[R3_ITEMS] = {0, 1, 0};
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_preservation *p = NULL;
    amber_restoration_class rc;
    amber_object *nav, *items[R3_ITEMS];
    node *nodes[R3_ITEMS];
    int i, ok;

    printf("-- R3 identifiers as set: A, A and A#1 in one stack\n");
    reset();
    reset_app();
    r3_n_made = 0;
    memset(r3_made, 0, sizeof r3_made);
    e = open_mem(&ms, NULL, NULL);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", 0));
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, nav);
    for (i = 0; i < R3_ITEMS; i++) {
        nodes[i] = nn(ids[i], i + 1);
        items[i] = ctl(e, "ItemController", ids[i], nodes[i]);
        amber_object_set_restoration_class(items[i], "ItemClass");
        amber_object_add_child(nav, items[i]);
    }
    /* R3 */ check(path_is(items[0], "Nav/A") && path_is(items[1], "Nav/A[1]") && path_is(items[2], "Nav/A#1"),
                   "R3 the paths are the identifiers as set, with their positions: Nav/A, Nav/A[1], Nav/A#1");
    check(preserve(e) == 1, "R3 preserve A, A, A#1");
    /* R3 */ check(nodes[0]->encoded == 1 && nodes[1]->encoded == 1 && nodes[2]->encoded == 1 &&
                       last_duplicates(e)[0] == '\0',
                   "R3 all three are preserved, none is a duplicate (A#1 does not collide with the second A)");
    amber_engine_preservation(&p, e);
    ok = amber_preservation_count(p) == 4;
    for (i = 0; i < R3_ITEMS; i++) {
        amber_preservation_entry en = entry_at_path(p, i == 2 ? "Nav/A#1" : "Nav/A", positions[i]);
        ok = ok && en.left_out == AMBER_LEFT_OUT_NONE && en.size > 0;
    }
    /* R3 */ check(ok, "R3 R28 the preservation report: Nav/A at 0, Nav/A at 1, Nav/A#1 at 0, each preserved");
    amber_preservation_free(p);
    amber_engine_close(e);

    /* The next launch: the host makes the stack; ItemClass makes each item from its path. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    nav = ctl(e, "NavigationController", "Nav", nn("Nav", -1));
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, nav);
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = r3_item_make;
    amber_engine_register_restoration_class(e, "ItemClass", &rc, NULL, NULL);
    r = launch(e);
    /* R3 */ checkf(r3_n_made == 3 && strcmp(r3_made[0].id, "A") == 0 && strcmp(r3_made[1].id, "A") == 0 &&
                        strcmp(r3_made[2].id, "A#1") == 0,
                    "R3 the restoration class is asked for Nav/A, Nav/A, Nav/A#1, in order (%d asks)", r3_n_made);
    /* R3 */ checkf(r3_made[0].record_status == AMBER_OK && r3_made[0].position == 0 && r3_made[1].position == 1 &&
                        r3_made[2].position == 0 && r3_made[2].kind == AMBER_KIND_CONTROLLER &&
                        strcmp(r3_made[2].class_name, "ItemController") == 0,
                    "R3 R10 its make reads the positions with amber_decoder_record: 0, 1, 0 (got %zu, %zu, %zu)",
                    r3_made[0].position, r3_made[1].position, r3_made[2].position);
    ok = r3_n_made == 3;
    for (i = 0; ok && i < R3_ITEMS; i++) {
        node *n = amber_object_context(r3_made[i].made);
        const char *id = amber_object_identifier(r3_made[i].made);
        ok = n && id && strcmp(id, ids[i]) == 0 && n->got == i + 1 && n->record_status == AMBER_OK &&
             n->record_position == positions[i] && path_is(r3_made[i].made, i == 2 ? "Nav/A#1" : i == 1 ? "Nav/A[1]" : "Nav/A");
    }
    /* R3 */ check(ok, "R3 all three restore, each with its own identifier (A, A, A#1), its own state (1, 2, 3) and its place in Nav");
    /* R3 */ check(find_at(r, "Nav/A", 0).object == r3_made[0].made && find_at(r, "Nav/A", 1).object == r3_made[1].made &&
                       find_at(r, "Nav/A#1", 0).object == r3_made[2].made && find_at(r, "Nav/A", 1).outcome == AMBER_OUTCOME_RESTORED &&
                       find_at(r, "Nav/A#1", 0).outcome == AMBER_OUTCOME_RESTORED && amber_report_count(r) == 4,
                   "R3 R16 the report's records: Nav/A at position 0 and 1, Nav/A#1 at position 0, all restored");
    amber_report_free(r);
    amber_engine_close(e);
    mem_store_clear(&ms);
}

/* ============================================================================================ */
/* R4 The seeds' case: the children of an excluded navigation controller, by reference           */
/* ============================================================================================ */

#define SEEDS 3
static const char *const seed_ids[SEEDS] = {"list", "detail", "edit"};
static amber_object *seed_targets[SEEDS], *seed_nav;
static int seed_ref_status[SEEDS];
static amber_object *seed_got[SEEDS];
static int seed_got_status[SEEDS], seed_push_status[SEEDS], seed_decoded_before_push[SEEDS];

/* will_encode: the app delegate encodes references to the three children of the navigation
 * controller that has no identifier. */
static void seeds_will_encode(amber_coder *c) {
    int i;
    for (i = 0; i < SEEDS; i++) seed_ref_status[i] = amber_coder_encode_object(c, seed_ids[i], seed_targets[i]);
}

/* did_decode: it decodes them from the application decoder and pushes them back, in order. */
static void seeds_did_decode(amber_decoder *d) {
    int i;
    for (i = 0; i < SEEDS; i++) {
        seed_got[i] = NULL;
        seed_got_status[i] = amber_decoder_decode_object(&seed_got[i], d, seed_ids[i], NULL, 0);
        seed_push_status[i] = -1;
        if (seed_got_status[i] == AMBER_OK && seed_got[i]) {
            node *n = amber_object_context(seed_got[i]);
            seed_decoded_before_push[i] = n && n->decoded == 1;
            seed_push_status[i] = amber_object_add_child(seed_nav, seed_got[i]);
        }
    }
}

void test_r4_seeds(void) {
    static const char *const classes[SEEDS] = {"ListController", "DetailController", "EditController"};
    mem_store ms = {0};
    amber_engine *e;
    amber_report *r;
    amber_preservation *p = NULL;
    amber_preservation_entry en;
    amber_object *window, *nav, *made[SEEDS];
    node *nodes[SEEDS], *nav_n;
    long order[SEEDS];
    int i, ok;
    char path[64];

    printf("-- R4 the seeds' case: references to the children of an excluded navigation controller\n");
    reset();
    reset_app();
    memset(seed_targets, 0, sizeof seed_targets);
    e = open_mem(&ms, NULL, NULL);
    window = ctl(e, "Window", "Window", nn("Window", 1));
    nav_n = nn("Nav", 0);
    nav = ctl(e, "UINavigationController", NULL, nav_n); /* no identifier: the walk leaves it out */
    amber_object_set_stack(nav, 1);
    amber_engine_add_root(e, window);
    amber_object_add_child(window, nav);
    for (i = 0; i < SEEDS; i++) {
        nodes[i] = nn(seed_ids[i], 10 * (i + 1));
        seed_targets[i] = ctl(e, classes[i], seed_ids[i], nodes[i]);
        amber_object_add_child(nav, seed_targets[i]);
    }
    A.will_encode_hook = seeds_will_encode;
    check(preserve(e) == 1, "R4 preserve, will_encode encoding references to list, detail and edit");
    /* R4 */ check(seed_ref_status[0] == AMBER_OK && seed_ref_status[1] == AMBER_OK && seed_ref_status[2] == AMBER_OK,
                   "R4 the application coder (will_encode) encodes the three references");
    /* R4 */ check(nodes[0]->encoded == 1 && nodes[1]->encoded == 1 && nodes[2]->encoded == 1 && nav_n->encoded == 0,
                   "R4 list, detail and edit are preserved with their state; the navigation controller is not");
    amber_engine_preservation(&p, e);
    ok = 1;
    for (i = 0; i < SEEDS; i++) {
        snprintf(path, sizeof path, "Window/%s", seed_ids[i]);
        en = entry_at_path(p, path, 0);
        ok = ok && en.left_out == AMBER_LEFT_OUT_NONE && en.size > 0 && strcmp(en.class_name, classes[i]) == 0;
    }
    /* R4 */ check(ok, "R4 R28 their paths skip the ancestor without identifier: Window/list, Window/detail, Window/edit preserved");
    /* R4 */ check(entry_of_class(p, "UINavigationController", &en) >= 0 && en.left_out == AMBER_LEFT_OUT_NO_IDENTIFIER,
                   "R4 R28 the navigation controller is reported left out: no restoration identifier");
    amber_preservation_free(p);
    amber_engine_close(e);

    /* The next launch: the default set-up makes the window and the navigation controller; the
     * delegate makes the three screens; did_decode pushes them back. */
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    window = ctl(e, "Window", "Window", nn("Window", -1));
    seed_nav = ctl(e, "UINavigationController", NULL, nn("Nav", -1));
    amber_object_set_stack(seed_nav, 1);
    amber_engine_add_root(e, window);
    amber_object_add_child(window, seed_nav);
    for (i = 0; i < SEEDS; i++) {
        nodes[i] = nn(seed_ids[i], -1);
        made[i] = ctl(e, classes[i], NULL, nodes[i]);
    }
    table_put(&A.ofp, "Window/list", made[0]);
    table_put(&A.ofp, "Window/detail", made[1]);
    table_put(&A.ofp, "Window/edit", made[2]);
    A.did_decode_hook = seeds_did_decode;
    r = launch(e);
    /* R4 */ check(ev_count("ofp:Window/list") == 1 && ev_count("ofp:Window/detail") == 1 && ev_count("ofp:Window/edit") == 1 &&
                       outcome_of(r, "Window/list") == AMBER_OUTCOME_RESTORED && outcome_of(r, "Window/detail") == AMBER_OUTCOME_RESTORED &&
                       outcome_of(r, "Window/edit") == AMBER_OUTCOME_RESTORED,
                   "R4 R10 the next launch restores Window/list, Window/detail, Window/edit through object_for_path");
    /* R4 */ checkf(seed_got_status[0] == AMBER_OK && seed_got_status[1] == AMBER_OK && seed_got_status[2] == AMBER_OK &&
                        seed_got[0] == made[0] && seed_got[1] == made[1] && seed_got[2] == made[2],
                    "R4 R13 did_decode decodes the three references from the application decoder: the restored objects (%s, %s, %s)",
                    amber_status_string(seed_got_status[0]), amber_status_string(seed_got_status[1]),
                    amber_status_string(seed_got_status[2]));
    /* R4 */ check(seed_push_status[0] == AMBER_OK && seed_push_status[1] == AMBER_OK && seed_push_status[2] == AMBER_OK,
                   "R4 did_decode pushes them back onto the navigation controller (amber_object_add_child)");
    /* R4 */ check(nodes[0]->got == 10 && nodes[1]->got == 20 && nodes[2]->got == 30 && seed_decoded_before_push[0] &&
                       seed_decoded_before_push[1] && seed_decoded_before_push[2],
                   "R4 R12 each decoded its own state (10, 20, 30) before did_decode");
    amber_report_free(r);
    /* In order: give the navigation controller an identifier, and the next walk meets them in it. */
    amber_object_set_identifier(seed_nav, "Nav");
    A.did_decode_hook = NULL;
    check(preserve(e) == 1, "R4 preserve the restored interface, the navigation controller now named Nav");
    amber_engine_preservation(&p, e);
    for (i = 0; i < SEEDS; i++) {
        size_t k;
        order[i] = -1;
        snprintf(path, sizeof path, "Window/Nav/%s", seed_ids[i]);
        for (k = 0; k < amber_preservation_count(p); k++) {
            char joined[256];
            if (amber_preservation_entry_at(&en, p, k) != AMBER_OK) continue;
            join_path(joined, sizeof joined, en.path, en.path_length);
            if (strcmp(joined, path) == 0 && en.left_out == AMBER_LEFT_OUT_NONE) order[i] = (long)k;
        }
    }
    /* R4 */ checkf(order[0] >= 0 && order[0] < order[1] && order[1] < order[2],
                    "R4 they were pushed in order: the walk meets Window/Nav/list, /detail, /edit (entries %ld, %ld, %ld)",
                    order[0], order[1], order[2]);
    amber_preservation_free(p);
    amber_engine_close(e);
    mem_store_clear(&ms);

    /* A referenced object whose path (its ancestors without identifier skipped) is taken. */
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    {
        node *root_n = nn("Root", 1), *x_n = nn("X", 2), *inner_n = nn("InnerX", 3);
        amber_object *root = ctl(e, "RootController", "Root", root_n), *box = ctl(e, "BoxController", NULL, nn("Box", 0));
        amber_object *inner = ctl(e, "InnerXController", "X", inner_n);
        amber_engine_add_root(e, root);
        amber_object_add_child(root, ctl(e, "XController", "X", x_n));
        amber_object_add_child(root, box);
        amber_object_add_child(box, inner);
        node_add_ref(root_n, "inner", inner);
        check(preserve(e) == 1, "R4 preserve Root/X, and a reference to Root/(Box)/X");
        /* R4 */ checkf(root_n->ref_status[0] == AMBER_DUPLICATE && x_n->encoded == 1 && inner_n->encoded == 0,
                        "R3 R4 the reference to an object whose path (Root/X) another preserved object has is AMBER_DUPLICATE "
                        "(got %s); it is not preserved",
                        amber_status_string(root_n->ref_status[0]));
        amber_engine_preservation(&p, e);
        entry_of_class(p, "InnerXController", &en);
        /* R4 */ checkf(en.left_out == AMBER_LEFT_OUT_DUPLICATE_PATH && en.message && strstr(en.message, "/Root/X (XController)") != NULL,
                        "R3 R28 the report: the referenced one left out as a duplicate, naming the one kept: %s", en.message);
        amber_preservation_free(p);
    }
    amber_engine_close(e);
    mem_store_clear(&ms);
}

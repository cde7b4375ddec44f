/*
 * homepwner.c — Amber from C, on the interface of the Homepwner app.
 *
 *   homepwner DIR run1   builds the interface, edits an item, preserves it into DIR, exits.
 *   homepwner DIR run2   opens an engine on DIR, recreates the objects, restores them, and
 *                        prints the restored tree and the report.
 *
 * The interface (restoration paths in brackets):
 *
 *   window 1: NavRoot, a navigation stack                      [NavRoot]
 *               Items, the list of items                       [NavRoot/Items]
 *               Detail, one item being edited                  [NavRoot/Detail]
 *             presents NewItemNav modally                      [NavRoot/NewItemNav]
 *               NewItem, the form for a new item               [NavRoot/NewItemNav/NewItem]
 *   window 2: Tabs, a container with two children              [Tabs]
 *               Left, Right                                    [Tabs/Left] [Tabs/Right]
 *   window 3: a login controller with no restoration identifier: it is left out.
 *
 * Tabs is a second root (a second window or scene) rather than a child of NavRoot: a navigation
 * stack holds the screens the user drilled into, and a tab container is not one of them. As a
 * root its children's paths start with "Tabs", independent of the first window.
 *
 * Run 2 recreates the objects in the two ways Amber offers: the screens of window 1 name a
 * restoration class ("HomepwnerScreens", R10 step 1); those of window 2 have none and are found
 * by the delegate's object_for_path (R10 step 2).
 *
 * Every call is checked: on failure the demo prints amber_error_last() and exits with 1.
 */
#include "amber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP_ID "org.example.homepwner"

/* ---- errors ------------------------------------------------------------------------------ */

/* Exits with a message if an Amber call failed. */
static void check(int rc, const char *what) {
    if (rc != AMBER_OK) {
        fprintf(stderr, "homepwner: %s failed: %s: %s\n", what, amber_status_string(rc), amber_error_last());
        exit(1);
    }
}

/* ---- the host's side of a screen: a plain C struct, the object's context ------------------ */

typedef struct screen {
    const char *id;            /* its restoration identifier, for printing */
    int64_t selected_row;      /* Items: the row of the item opened */
    char item_key[40];         /* Detail: which item (Homepwner's itemKey) */
    char item_name[64];        /* Detail: its name as edited; NewItem: the draft name */
    int64_t selected_tab;      /* Tabs: the child shown */
} screen;

/* Writes each screen's state while preserving (R6). */
static int encode_items(amber_object *object, amber_coder *coder, void *ctx) {
    screen *s = ctx;
    (void)object;
    return amber_coder_encode_int64(coder, "selectedRow", s->selected_row);
}

static int encode_detail(amber_object *object, amber_coder *coder, void *ctx) {
    screen *s = ctx;
    int rc;
    (void)object;
    if ((rc = amber_coder_encode_string(coder, "itemKey", s->item_key)) != AMBER_OK) return rc;
    return amber_coder_encode_string(coder, "itemName", s->item_name);
}

static int encode_new_item(amber_object *object, amber_coder *coder, void *ctx) {
    screen *s = ctx;
    (void)object;
    return amber_coder_encode_string(coder, "draftName", s->item_name);
}

static int encode_tabs(amber_object *object, amber_coder *coder, void *ctx) {
    screen *s = ctx;
    (void)object;
    return amber_coder_encode_int64(coder, "selectedTab", s->selected_tab);
}

/* Reads it back while restoring, once every object exists (R12). A failing decode is recorded
 * in the report as a decode error; restoration goes on. */
static int decode_items(amber_object *object, amber_decoder *decoder, void *ctx) {
    screen *s = ctx;
    int rc;
    (void)object;
    if ((rc = amber_decoder_decode_int64(&s->selected_row, decoder, "selectedRow")) != AMBER_OK) return rc;
    printf("  decode Items: selectedRow = %lld\n", (long long)s->selected_row);
    return AMBER_OK;
}

static int decode_detail(amber_object *object, amber_decoder *decoder, void *ctx) {
    screen *s = ctx;
    const char *text = NULL; /* borrowed until the callback returns: copy it */
    int rc;
    (void)object;
    if ((rc = amber_decoder_decode_string(&text, decoder, "itemKey")) != AMBER_OK) return rc;
    snprintf(s->item_key, sizeof s->item_key, "%s", text);
    if ((rc = amber_decoder_decode_string(&text, decoder, "itemName")) != AMBER_OK) return rc;
    snprintf(s->item_name, sizeof s->item_name, "%s", text);
    printf("  decode Detail: itemKey = %s, itemName = \"%s\"\n", s->item_key, s->item_name);
    return AMBER_OK;
}

static int decode_new_item(amber_object *object, amber_decoder *decoder, void *ctx) {
    screen *s = ctx;
    const char *text = NULL;
    int rc;
    (void)object;
    if ((rc = amber_decoder_decode_string(&text, decoder, "draftName")) != AMBER_OK) return rc;
    snprintf(s->item_name, sizeof s->item_name, "%s", text);
    printf("  decode NewItem: draftName = \"%s\"\n", s->item_name);
    return AMBER_OK;
}

static int decode_tabs(amber_object *object, amber_decoder *decoder, void *ctx) {
    screen *s = ctx;
    int rc;
    (void)object;
    if ((rc = amber_decoder_decode_int64(&s->selected_tab, decoder, "selectedTab")) != AMBER_OK) return rc;
    printf("  decode Tabs: selectedTab = %lld\n", (long long)s->selected_tab);
    return AMBER_OK;
}

/* The screens of the app, by restoration identifier. Both runs make objects from this table. */
typedef struct screen_type {
    const char *id;
    const char *class_name;
    const char *restoration_class; /* NULL: found by the delegate's object_for_path instead */
    int is_stack;                  /* a navigation controller */
    int (*encode)(amber_object *, amber_coder *, void *);
    int (*decode)(amber_object *, amber_decoder *, void *);
} screen_type;

static const screen_type SCREENS[] = {
    {"NavRoot", "UINavigationController", "HomepwnerScreens", 1, NULL, NULL},
    {"Items", "ItemsViewController", "HomepwnerScreens", 0, encode_items, decode_items},
    {"Detail", "DetailViewController", "HomepwnerScreens", 0, encode_detail, decode_detail},
    {"NewItemNav", "UINavigationController", "HomepwnerScreens", 1, NULL, NULL},
    {"NewItem", "DetailViewController", "HomepwnerScreens", 0, encode_new_item, decode_new_item},
    {"Tabs", "UITabBarController", NULL, 0, encode_tabs, decode_tabs},
    {"Left", "ItemsViewController", NULL, 0, encode_items, decode_items},
    {"Right", "ItemsViewController", NULL, 0, encode_items, decode_items},
};

static const screen_type *screen_type_for(const char *id) {
    size_t i;
    for (i = 0; i < sizeof SCREENS / sizeof SCREENS[0]; i++) {
        if (strcmp(SCREENS[i].id, id) == 0) return &SCREENS[i];
    }
    return NULL;
}

/* Makes the restorable object of a screen; its context is a fresh `screen`, freed by Amber with
 * the object. */
static int new_screen(amber_object **out, amber_engine *engine, const char *id) {
    const screen_type *type = screen_type_for(id);
    amber_object_callbacks callbacks;
    screen *s;
    int rc;

    if (!type) return AMBER_NOT_FOUND;
    if ((s = calloc(1, sizeof *s)) == NULL) return AMBER_LIMIT_EXCEEDED;
    s->id = type->id;
    if ((rc = amber_object_callbacks_init(&callbacks, AMBER_OBJECT_CALLBACKS_VERSION)) != AMBER_OK) goto fail;
    callbacks.encode = type->encode;
    callbacks.decode = type->decode;
    if ((rc = amber_object_new(out, engine, AMBER_KIND_CONTROLLER, type->class_name, type->id, &callbacks, s, free)) != AMBER_OK)
        goto fail; /* on failure Amber does not call free: we do */
    if (type->is_stack && (rc = amber_object_set_stack(*out, 1)) != AMBER_OK) return rc;
    if (type->restoration_class && (rc = amber_object_set_restoration_class(*out, type->restoration_class)) != AMBER_OK)
        return rc;
    return AMBER_OK;
fail:
    free(s);
    return rc;
}

static amber_object *make_screen(amber_engine *engine, const char *id) {
    amber_object *object = NULL;
    check(new_screen(&object, engine, id), id);
    return object;
}

/* Prints what the host keeps for a screen. */
static void describe(const screen *s) {
    if (!s) return;
    if (strcmp(s->id, "Items") == 0 || strcmp(s->id, "Left") == 0 || strcmp(s->id, "Right") == 0)
        printf("  selectedRow = %lld", (long long)s->selected_row);
    if (strcmp(s->id, "Detail") == 0) printf("  itemKey = %s, itemName = \"%s\"", s->item_key, s->item_name);
    if (strcmp(s->id, "NewItem") == 0) printf("  draftName = \"%s\"", s->item_name);
    if (strcmp(s->id, "Tabs") == 0) printf("  selectedTab = %lld", (long long)s->selected_tab);
}

/* Prints an object's restoration path (indented by its depth), its class and its state. */
static void print_object(amber_object *object) {
    char *path = NULL, *p;
    int depth = 0;
    if (amber_object_path(&path, object) != AMBER_OK) {
        printf("  (no restoration path: not preserved) %s\n", amber_object_class_name(object));
        return;
    }
    for (p = path; *p; p++) depth += *p == '/';
    printf("  %*s%s (%s)", 2 * depth, "", path, amber_object_class_name(object));
    describe(amber_object_context(object));
    printf("\n");
    amber_string_free(path);
}

/* ---- run 1: build the interface and preserve it ------------------------------------------- */

static int should_save(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    (void)engine; (void)ctx;
    /* The application coder holds app-wide state; a failure here means: do not save. */
    if (amber_coder_encode_string(app_coder, "appVersion", "4.2") != AMBER_OK) return 0;
    return 1;
}

static int run1(const char *dir) {
    amber_engine_options options;
    amber_engine *engine = NULL;
    amber_delegate delegate;
    amber_object *nav, *items, *detail, *new_item_nav, *new_item, *tabs, *left, *right, *login = NULL;
    screen *s;
    int saved = 0;

    check(amber_engine_options_init(&options, AMBER_ENGINE_OPTIONS_VERSION), "amber_engine_options_init");
    options.state_directory = dir; /* the built-in file store: DIR/state.archive */
    options.bundle_version = "4.2";
    check(amber_engine_open(&engine, APP_ID, &options), "amber_engine_open");

    check(amber_delegate_init(&delegate, AMBER_DELEGATE_VERSION), "amber_delegate_init");
    delegate.should_save = should_save;
    check(amber_engine_set_delegate(engine, &delegate, NULL, NULL), "amber_engine_set_delegate");

    /* Window 1: the items list, with the detail of "Shiny Spork" pushed on top. */
    nav = make_screen(engine, "NavRoot");
    items = make_screen(engine, "Items");
    detail = make_screen(engine, "Detail");
    check(amber_engine_add_root(engine, nav), "add NavRoot as a root");
    check(amber_object_add_child(nav, items), "push Items");
    ((screen *)amber_object_context(items))->selected_row = 2; /* the user taps row 2, Shiny Spork */
    check(amber_object_add_child(nav, detail), "push Detail");
    s = amber_object_context(detail);
    snprintf(s->item_key, sizeof s->item_key, "%s", "7F3A-SPORK");
    snprintf(s->item_name, sizeof s->item_name, "%s", "Shiny Spork");
    snprintf(s->item_name, sizeof s->item_name, "%s", "Shiny Spork (edited)"); /* the user edits the name */

    /* The user taps "+": a new-item form in its own navigation controller, presented modally. */
    new_item_nav = make_screen(engine, "NewItemNav");
    new_item = make_screen(engine, "NewItem");
    check(amber_object_add_child(new_item_nav, new_item), "put NewItem in NewItemNav");
    check(amber_object_present(nav, new_item_nav), "present NewItemNav from NavRoot");

    /* Window 2: a tab container showing its right child. */
    tabs = make_screen(engine, "Tabs");
    left = make_screen(engine, "Left");
    right = make_screen(engine, "Right");
    check(amber_engine_add_root(engine, tabs), "add Tabs as a root");
    check(amber_object_add_child(tabs, left), "add Left to Tabs");
    check(amber_object_add_child(tabs, right), "add Right to Tabs");
    ((screen *)amber_object_context(tabs))->selected_tab = 1;
    ((screen *)amber_object_context(right))->selected_row = 5;

    /* Window 3: a login screen with no restoration identifier (R2: it is not preserved). */
    check(amber_object_new(&login, engine, AMBER_KIND_CONTROLLER, "LoginViewController", NULL, NULL, NULL, NULL),
          "make Login");
    check(amber_engine_add_root(engine, login), "add Login as a root");

    /* The app goes to the background: preserve. */
    check(amber_engine_preserve(engine, &saved), "amber_engine_preserve");
    printf("run 1: %s into %s/state.archive\n", saved ? "preserved" : "NOT preserved", dir);
    {
        amber_object *all[] = {nav, items, detail, new_item_nav, new_item, tabs, left, right, login};
        size_t i;
        for (i = 0; i < sizeof all / sizeof all[0]; i++) print_object(all[i]);
    }
    printf("  application coder: appVersion = \"4.2\"\n");
    if (amber_engine_last_duplicates(engine)[0] != '\0') {
        printf("  duplicate paths, not preserved:\n%s\n", amber_engine_last_duplicates(engine));
    }

    amber_engine_close(engine); /* frees the objects and their screens */
    return saved ? 0 : 1;
}

/* ---- run 2: recreate the objects and restore them ----------------------------------------- */

/* R10 step 1: the restoration class "HomepwnerScreens" makes the screens of window 1. */
static int make_homepwner_screen(amber_object **out, amber_engine *engine, const char *const *path,
                                 size_t path_length, amber_decoder *decoder, void *ctx) {
    (void)decoder; (void)ctx;
    printf("  restoration class HomepwnerScreens makes %s\n", path[path_length - 1]);
    return new_screen(out, engine, path[path_length - 1]);
}

/* R10 step 2: the delegate finds the objects with no restoration class (window 2). */
static int object_for_path(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                           amber_decoder *decoder, void *ctx) {
    (void)decoder; (void)ctx;
    *out = NULL;
    if (!screen_type_for(path[path_length - 1])) return AMBER_OK; /* unknown: leave it NULL */
    printf("  delegate object_for_path makes %s\n", path[path_length - 1]);
    return new_screen(out, engine, path[path_length - 1]);
}

static int should_restore(amber_engine *engine, amber_decoder *app_decoder, void *ctx) {
    const char *bundle = "?", *app = "?";
    (void)engine; (void)ctx;
    if (amber_decoder_decode_string(&bundle, app_decoder, "bundleVersion") != AMBER_OK) bundle = "?";
    if (amber_decoder_decode_string(&app, app_decoder, "appVersion") != AMBER_OK) app = "?";
    printf("  should_restore: archive of bundleVersion %s, appVersion %s -> yes\n", bundle, app);
    return 1;
}

static void will_finish_launching(amber_engine *engine, void *ctx) {
    (void)engine; (void)ctx;
    printf("  will_finish_launching\n");
}

static void did_finish_launching(amber_engine *engine, void *ctx) {
    (void)engine; (void)ctx;
    printf("  did_finish_launching\n");
}

static const char *outcome_name(int outcome) {
    switch (outcome) {
    case AMBER_OUTCOME_RESTORED: return "restored";
    case AMBER_OUTCOME_DECLINED_BY_CLASS: return "declined by class";
    case AMBER_OUTCOME_NOT_FOUND: return "not found";
    case AMBER_OUTCOME_CLASS_MISMATCH: return "class mismatch";
    case AMBER_OUTCOME_LEFT_OUT: return "left out";
    case AMBER_OUTCOME_DECODE_ERROR: return "decode error";
    case AMBER_OUTCOME_DUPLICATE: return "duplicate";
    default: return "?";
    }
}

static int run2(const char *dir) {
    amber_engine_options options;
    amber_engine *engine = NULL;
    amber_delegate delegate;
    amber_restoration_class cls;
    amber_report *report = NULL;
    amber_report_record rec;
    char *text = NULL;
    size_t i, j, count;
    int failures = 0;

    check(amber_engine_options_init(&options, AMBER_ENGINE_OPTIONS_VERSION), "amber_engine_options_init");
    options.state_directory = dir;
    options.bundle_version = "4.2";
    check(amber_engine_open(&engine, APP_ID, &options), "amber_engine_open");

    check(amber_restoration_class_init(&cls, AMBER_RESTORATION_CLASS_VERSION), "amber_restoration_class_init");
    cls.make = make_homepwner_screen;
    check(amber_engine_register_restoration_class(engine, "HomepwnerScreens", &cls, NULL, NULL),
          "register HomepwnerScreens");

    check(amber_delegate_init(&delegate, AMBER_DELEGATE_VERSION), "amber_delegate_init");
    delegate.should_restore = should_restore;
    delegate.object_for_path = object_for_path;
    delegate.will_finish_launching = will_finish_launching;
    delegate.did_finish_launching = did_finish_launching;
    check(amber_engine_set_delegate(engine, &delegate, NULL, NULL), "amber_engine_set_delegate");

    printf("run 2: launching from %s/state.archive\n", dir);
    check(amber_engine_launch(&report, engine), "amber_engine_launch");
    if (amber_report_fresh_reason(report) != AMBER_FRESH_NONE) {
        printf("fresh launch, nothing restored: %s\n", amber_report_message(report));
        amber_report_free(report);
        amber_engine_close(engine);
        return 1;
    }

    /* The restored tree: each restored object (the report lists them parent first), at the path
     * the engine placed it, with the state it decoded into its screen. */
    printf("restored tree:\n");
    count = amber_report_count(report);
    for (i = 0; i < count; i++) {
        check(amber_report_record_at(&rec, report, i), "amber_report_record_at");
        if (rec.outcome == AMBER_OUTCOME_RESTORED) print_object(rec.object);
    }

    /* The report, record by record (R16)... */
    printf("report, %zu records:\n", count);
    for (i = 0; i < count; i++) {
        check(amber_report_record_at(&rec, report, i), "amber_report_record_at");
        printf("  ");
        for (j = 0; j < rec.path_length; j++) printf("%s%s", j ? "/" : "", rec.path[j]);
        printf(": %s%s%s\n", outcome_name(rec.outcome), rec.message[0] ? " - " : "", rec.message);
        if (rec.outcome != AMBER_OUTCOME_RESTORED) failures++;
    }
    /* ...and as Amber formats it. */
    check(amber_report_format(&text, report), "amber_report_format");
    printf("amber_report_format:\n%s\n", text);
    amber_string_free(text);

    amber_report_free(report);
    amber_engine_close(engine); /* frees the restored objects and their screens */
    return failures == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[2], "run1") != 0 && strcmp(argv[2], "run2") != 0)) {
        fprintf(stderr, "usage: homepwner STATE_DIR run1|run2\n");
        return 2;
    }
    printf("Amber %s\n", amber_version_string());
    return strcmp(argv[2], "run1") == 0 ? run1(argv[1]) : run2(argv[1]);
}

/*
 * homepwner.c — Amber from C, on the interface of the Homepwner app.
 *
 *   homepwner DIR run1     writes the item store to DIR/items.txt, builds the interface, selects
 *                          two items, scrolls, half-edits an item's name, preserves it into DIR
 *                          with a snapshot, prints the preservation report (what was preserved,
 *                          with sizes, and what was left out and why), exits.
 *   homepwner DIR change   changes the item store between the runs: deletes a row before the
 *                          selected one, deletes the second selected item, appends a new one.
 *   homepwner DIR run2     reads the item store, opens an engine on DIR, shows the snapshot's
 *                          size, recreates the objects, restores them, and prints the restored
 *                          tree and the report (with the model identifiers that were dropped).
 *
 * Both runs keep their restoration report as DIR/last-restore.report (keep_restoration_report).
 * With DIR the default state directory, ~/.local/state/org.example.homepwner (or
 * $XDG_STATE_HOME/org.example.homepwner), `amber inspect --app org.example.homepwner` prints the
 * archive after run1, and `amber report --app org.example.homepwner` the report of run2.
 *
 * The interface (restoration paths in brackets):
 *
 *   window 1: NavRoot, a navigation stack                      [NavRoot]
 *               Items, the list of items                       [NavRoot/Items]
 *                 ItemsTable, its table view (R17, R18)        [NavRoot/Items/ItemsTable]
 *               Detail, one item being edited                  [NavRoot/Detail]
 *                 NameField, the name's text field (R17)       [NavRoot/Detail/NameField]
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
 * by the delegate's object_for_path (R10 step 2). A screen makes its views when it is made (as
 * loadView would); Amber finds them among their restored controller's views.
 *
 * The table's data source is a model association (UIDataSourceModelAssociation, R18): the
 * selected items and the first visible item are archived as item keys, so after the store
 * changed the same item is selected at its new row, and a selected item that was deleted is
 * dropped and listed in the report.
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

/* ---- the item store (Homepwner's BNRItemStore), kept in DIR/items.txt between runs --------- */

typedef struct item {
    char key[16];  /* itemKey: the model identifier */
    char name[48];
} item;

#define MAX_ITEMS 32
static item store[MAX_ITEMS];
static size_t store_count;

static const item FIRST_STORE[] = {
    {"0A11-BEAR", "Rusty Bear"}, {"5B22-MAC", "Fluffy Mac"}, {"7F3A-SPORK", "Shiny Spork"},
    {"2C44-SOFA", "Old Sofa"},   {"9D55-LAMP", "Lava Lamp"}, {"3E66-RING", "Silver Ring"},
};

static void store_path(char *out, size_t size, const char *dir) { snprintf(out, size, "%s/items.txt", dir); }

static void save_store(const char *dir) {
    char path[1024];
    FILE *f;
    size_t i;
    store_path(path, sizeof path, dir);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        exit(1);
    }
    for (i = 0; i < store_count; i++) fprintf(f, "%s\t%s\n", store[i].key, store[i].name);
    fclose(f);
}

static void load_store(const char *dir) {
    char path[1024], line[128], *tab;
    FILE *f;
    store_path(path, sizeof path, dir);
    if (!(f = fopen(path, "r"))) {
        perror(path);
        exit(1);
    }
    store_count = 0;
    while (store_count < MAX_ITEMS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!(tab = strchr(line, '\t'))) continue;
        *tab = 0;
        snprintf(store[store_count].key, sizeof store[store_count].key, "%.15s", line);
        snprintf(store[store_count].name, sizeof store[store_count].name, "%.47s", tab + 1);
        store_count++;
    }
    fclose(f);
}

static long row_of_key(const char *key) {
    size_t i;
    for (i = 0; i < store_count; i++)
        if (strcmp(store[i].key, key) == 0) return (long)i;
    return -1;
}

static void delete_row(size_t row) {
    printf("  deleted row %zu: %s \"%s\"\n", row, store[row].key, store[row].name);
    memmove(&store[row], &store[row + 1], (store_count - row - 1) * sizeof store[0]);
    store_count--;
}

/* ---- the host's side of a screen or view: a plain C struct, the object's context ----------- */

typedef struct screen {
    const char *id;            /* its restoration identifier, for printing */
    int64_t selected_row;      /* Left, Right: the row shown */
    char item_key[40];         /* Detail: which item (Homepwner's itemKey) */
    char item_name[64];        /* Detail: its name as being edited; NewItem: the draft name */
    int64_t selected_tab;      /* Tabs: the child shown */
    struct screen *owner;      /* a view: the screen of its controller */
    struct screen *view;       /* a controller: the screen of the view it made */
    amber_object *view_object; /* a controller: that view */
    /* ItemsTable (a table view, R17): */
    amber_point offset;        /* the scroll position */
    int64_t selected[4];       /* the selected rows (section 0) */
    size_t selected_count;
    int64_t first_visible;     /* the first visible row, -1 for none */
    int editing;
    /* NameField (a text field, R17): the selection in the owner's item_name */
    amber_range selection;
    int has_selection;
    /* what read_table points the view state at: it must outlive the accessor (Amber copies it
     * as the accessor returns) */
    int64_t paths[5][2];
    amber_index_path items[4];
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
    printf("  decode %s: selectedRow = %lld\n", s->id, (long long)s->selected_row);
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
    printf("  decode Detail: itemKey = %s, itemName = \"%s\" (half-edited)\n", s->item_key, s->item_name);
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

/* ---- the views' standard state (R17) and the table's model association (R18) ------------- */

/* The table: its scroll position, selection, first visible row and editing mode. */
static int read_table(amber_object *view, amber_view_state *state, void *ctx) {
    screen *s = ctx;
    size_t i;
    (void)view;
    state->content_offset = s->offset;
    for (i = 0; i < s->selected_count && i < 4; i++) {
        s->paths[i][0] = 0;
        s->paths[i][1] = s->selected[i];
        s->items[i].indexes = s->paths[i];
        s->items[i].length = 2;
    }
    state->selected_items = s->items;
    state->selected_count = i;
    state->fields |= AMBER_VIEW_FIELD_CONTENT_OFFSET | AMBER_VIEW_FIELD_SELECTED_ITEMS | AMBER_VIEW_FIELD_EDITING;
    if (s->first_visible >= 0) {
        s->paths[4][0] = 0;
        s->paths[4][1] = s->first_visible;
        state->first_visible_item.indexes = s->paths[4];
        state->first_visible_item.length = 2;
        state->fields |= AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM;
    }
    state->editing = s->editing;
    return AMBER_OK;
}

static int apply_table(amber_object *view, const amber_view_state *state, void *ctx) {
    screen *s = ctx;
    size_t i, n = state->fields & AMBER_VIEW_FIELD_SELECTED_ITEMS ? state->selected_count : 0;
    (void)view;
    if (state->fields & AMBER_VIEW_FIELD_CONTENT_OFFSET) s->offset = state->content_offset;
    s->selected_count = 0;
    for (i = 0; i < n && s->selected_count < 4; i++) {
        if (state->selected_items[i].length == 2) s->selected[s->selected_count++] = state->selected_items[i].indexes[1];
    }
    s->first_visible = -1;
    if (state->fields & AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM && state->first_visible_item.length == 2)
        s->first_visible = state->first_visible_item.indexes[1];
    if (state->fields & AMBER_VIEW_FIELD_EDITING) s->editing = state->editing;
    printf("  apply ItemsTable: offset (%g, %g), %zu selected, first visible row %lld\n", s->offset.x, s->offset.y,
           s->selected_count, (long long)s->first_visible);
    return AMBER_OK;
}

/* UIDataSourceModelAssociation: index path (section 0, row) <-> itemKey. */
static int key_for_index_path(const char **out, amber_object *view, const int64_t *indexes, size_t length, void *ctx) {
    (void)view; (void)ctx;
    *out = NULL;
    if (length == 2 && indexes[0] == 0 && indexes[1] >= 0 && (size_t)indexes[1] < store_count)
        *out = store[indexes[1]].key; /* lives in the store: valid after the callback returns */
    return AMBER_OK;
}

static int index_path_for_key(int64_t *out, size_t capacity, size_t *out_length, amber_object *view,
                              const char *identifier, void *ctx) {
    long row = row_of_key(identifier);
    (void)view; (void)ctx;
    *out_length = 0;
    if (row < 0) return AMBER_OK; /* the item is gone */
    *out_length = 2;
    if (capacity < 2) return AMBER_OK;
    out[0] = 0;
    out[1] = row;
    return AMBER_OK;
}

/* The text field: its selection in the text its controller holds. */
static int read_field(amber_object *view, amber_view_state *state, void *ctx) {
    screen *s = ctx;
    (void)view;
    if (s->has_selection) {
        state->selected_range = s->selection;
        state->fields |= AMBER_VIEW_FIELD_SELECTED_RANGE;
    }
    return AMBER_OK;
}

static int apply_field(amber_object *view, const amber_view_state *state, void *ctx) {
    screen *s = ctx;
    (void)view;
    s->has_selection = (state->fields & AMBER_VIEW_FIELD_SELECTED_RANGE) != 0;
    if (s->has_selection) s->selection = state->selected_range;
    if (s->has_selection)
        printf("  apply NameField: selection %llu+%llu in \"%s\"\n", (unsigned long long)s->selection.location,
               (unsigned long long)s->selection.length, s->owner->item_name);
    else
        printf("  apply NameField: no selection\n");
    return AMBER_OK;
}

static int field_text_length(uint64_t *out, amber_object *view, void *ctx) {
    screen *s = ctx;
    (void)view;
    *out = strlen(s->owner->item_name); /* the owner decoded its text before: parents first */
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
    const char *view_id;           /* the view it makes with itself, if any */
} screen_type;

static const screen_type SCREENS[] = {
    {"NavRoot", "UINavigationController", "HomepwnerScreens", 1, NULL, NULL, NULL},
    {"Items", "ItemsViewController", "HomepwnerScreens", 0, NULL, NULL, "ItemsTable"},
    {"Detail", "DetailViewController", "HomepwnerScreens", 0, encode_detail, decode_detail, "NameField"},
    {"NewItemNav", "UINavigationController", "HomepwnerScreens", 1, NULL, NULL, NULL},
    {"NewItem", "DetailViewController", "HomepwnerScreens", 0, encode_new_item, decode_new_item, NULL},
    {"Tabs", "UITabBarController", NULL, 0, encode_tabs, decode_tabs, NULL},
    {"Left", "ItemsViewController", NULL, 0, encode_items, decode_items, NULL},
    {"Right", "ItemsViewController", NULL, 0, encode_items, decode_items, NULL},
};

static const screen_type *screen_type_for(const char *id) {
    size_t i;
    for (i = 0; i < sizeof SCREENS / sizeof SCREENS[0]; i++) {
        if (strcmp(SCREENS[i].id, id) == 0) return &SCREENS[i];
    }
    return NULL;
}

/* Makes a view of a controller with its accessors; its context is a fresh `screen`. */
static int new_view(amber_object *controller, amber_engine *engine, const char *id, screen *owner) {
    amber_view_accessors accessors;
    amber_model_association association;
    amber_object *view = NULL;
    int table = strcmp(id, "ItemsTable") == 0;
    screen *s;
    int rc;

    if ((s = calloc(1, sizeof *s)) == NULL) return AMBER_LIMIT_EXCEEDED;
    s->id = table ? "ItemsTable" : "NameField";
    s->owner = owner;
    owner->view = s;
    s->first_visible = -1;
    if ((rc = amber_object_new(&view, engine, AMBER_KIND_VIEW, table ? "UITableView" : "UITextField", s->id, NULL, s,
                               free)) != AMBER_OK) {
        free(s);
        return rc;
    }
    owner->view_object = view;
    if ((rc = amber_object_add_view(controller, view)) != AMBER_OK) return rc;
    accessors = (amber_view_accessors)AMBER_VIEW_ACCESSORS_INIT;
    accessors.read = table ? read_table : read_field;
    accessors.apply = table ? apply_table : apply_field;
    accessors.text_length = table ? NULL : field_text_length;
    if ((rc = amber_object_set_view_accessors(view, table ? AMBER_VIEW_TABLE : AMBER_VIEW_TEXT_FIELD, &accessors, s, NULL)) !=
        AMBER_OK)
        return rc;
    if (!table) return AMBER_OK;
    association = (amber_model_association)AMBER_MODEL_ASSOCIATION_INIT;
    association.identifier_for_index_path = key_for_index_path;
    association.index_path_for_identifier = index_path_for_key;
    return amber_object_set_model_association(view, &association, NULL, NULL);
}

/* Makes the restorable object of a screen, and its view; its context is a fresh `screen`, freed
 * by Amber with the object. */
static int new_screen(amber_object **out, amber_engine *engine, const char *id) {
    const screen_type *type = screen_type_for(id);
    amber_object_callbacks callbacks;
    screen *s;
    int rc;

    if (!type) return AMBER_NOT_FOUND;
    if ((s = calloc(1, sizeof *s)) == NULL) return AMBER_LIMIT_EXCEEDED;
    s->id = type->id;
    callbacks = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    callbacks.encode = type->encode;
    callbacks.decode = type->decode;
    if ((rc = amber_object_new(out, engine, AMBER_KIND_CONTROLLER, type->class_name, type->id, &callbacks, s, free)) != AMBER_OK)
        goto fail; /* on failure Amber does not call free: we do */
    if (type->is_stack && (rc = amber_object_set_stack(*out, 1)) != AMBER_OK) return rc;
    if (type->restoration_class && (rc = amber_object_set_restoration_class(*out, type->restoration_class)) != AMBER_OK)
        return rc;
    if (type->view_id && (rc = new_view(*out, engine, type->view_id, s)) != AMBER_OK) return rc;
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

/* Prints what the host keeps for a screen or view. */
static void describe(const screen *s) {
    size_t i;
    if (!s) return;
    if (strcmp(s->id, "Left") == 0 || strcmp(s->id, "Right") == 0)
        printf("  selectedRow = %lld", (long long)s->selected_row);
    if (strcmp(s->id, "Detail") == 0) printf("  itemKey = %s, itemName = \"%s\"", s->item_key, s->item_name);
    if (strcmp(s->id, "NewItem") == 0) printf("  draftName = \"%s\"", s->item_name);
    if (strcmp(s->id, "Tabs") == 0) printf("  selectedTab = %lld", (long long)s->selected_tab);
    if (strcmp(s->id, "ItemsTable") == 0) {
        printf("  scrolled to (%g, %g), editing %s", s->offset.x, s->offset.y, s->editing ? "on" : "off");
        if (s->first_visible >= 0 && (size_t)s->first_visible < store_count)
            printf(", first visible row %lld (%s)", (long long)s->first_visible, store[s->first_visible].name);
        for (i = 0; i < s->selected_count; i++) {
            int64_t row = s->selected[i];
            if (row >= 0 && (size_t)row < store_count)
                printf("\n        selected row %lld: %s \"%s\"", (long long)row, store[row].key, store[row].name);
        }
    }
    if (strcmp(s->id, "NameField") == 0) {
        if (s->has_selection)
            printf("  text \"%s\", cursor at %llu (selection length %llu)", s->owner->item_name,
                   (unsigned long long)s->selection.location, (unsigned long long)s->selection.length);
        else
            printf("  text \"%s\", no selection", s->owner->item_name);
    }
}

/* Prints an object's restoration path (indented by its depth), its class and its state. */
static void print_object(amber_object *object) {
    amber_buf path = AMBER_BUF_INIT;
    const char *p;
    int depth = 0;
    if (amber_object_path(&path, object) != AMBER_OK) {
        printf("  (no restoration path: not preserved) %s\n", amber_object_class_name(object));
        return;
    }
    for (p = path.ptr; *p; p++) depth += *p == '/';
    printf("  %*s%s (%s)", 2 * depth, "", path.ptr, amber_object_class_name(object));
    describe(amber_object_context(object));
    printf("\n");
    amber_buf_dispose(&path);
}

/* ---- run 1: build the interface and preserve it ------------------------------------------- */

/* The report of the engine's last preservation (R28): what was saved, each object left out and
 * why (Login: no restoration identifier), each object preserved with its size. */
static void print_preservation(amber_engine *engine) {
    amber_preservation *report = NULL;
    amber_buf text = AMBER_BUF_INIT;
    check(amber_engine_preservation(&report, engine), "amber_engine_preservation");
    check(amber_preservation_format(&text, report), "amber_preservation_format");
    printf("preservation report (amber_preservation_format):\n%s\n", text.ptr);
    amber_buf_dispose(&text);
    amber_preservation_free(report);
}

static int should_save(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    (void)engine; (void)ctx;
    /* The application coder holds app-wide state; a failure here means: do not save. */
    if (amber_coder_encode_string(app_coder, "appVersion", "4.2") != AMBER_OK) return 0;
    return 1;
}

/* A stand-in for the PNG of the screen the app shows when it goes to the background (R21). */
static const uint8_t SNAPSHOT[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 'I', 't', 'e', 'm', 's', ' ',
                                   's', 'c', 'r', 'e', 'e', 'n', ' ', '(', 'd', 'e', 'm', 'o', ')'};

static int run1(const char *dir) {
    amber_engine_options options;
    amber_engine *engine = NULL;
    amber_delegate delegate;
    amber_object *nav, *items, *detail, *new_item_nav, *new_item, *tabs, *left, *right, *login = NULL;
    screen *s, *table, *field;
    int saved = 0;

    /* The item store, as the app keeps it in its documents. */
    memcpy(store, FIRST_STORE, sizeof FIRST_STORE);
    store_count = sizeof FIRST_STORE / sizeof FIRST_STORE[0];
    save_store(dir);

    options = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    options.state_directory = dir; /* the built-in file store: DIR/state.archive */
    options.bundle_version = "4.2";
    /* Keep each launch's restoration report as DIR/last-restore.report (`amber report`). */
    options.keep_restoration_report = 1;
    check(amber_engine_open(&engine, APP_ID, &options), "amber_engine_open");

    delegate = (amber_delegate)AMBER_DELEGATE_INIT;
    delegate.should_save = should_save;
    check(amber_engine_set_delegate(engine, &delegate, NULL, NULL), "amber_engine_set_delegate");

    /* Window 1: the items list, with the detail of "Shiny Spork" pushed on top. */
    nav = make_screen(engine, "NavRoot");
    items = make_screen(engine, "Items");
    detail = make_screen(engine, "Detail");
    check(amber_engine_add_root(engine, nav), "add NavRoot as a root");
    check(amber_object_add_child(nav, items), "push Items");
    /* The user scrolls the list by one row, enters editing mode, selects Shiny Spork (row 2)
     * and Lava Lamp (row 4). */
    table = ((screen *)amber_object_context(items))->view;
    table->offset.y = 44;
    table->first_visible = 1;
    table->editing = 1;
    table->selected[0] = 2;
    table->selected[1] = 4;
    table->selected_count = 2;
    check(amber_object_add_child(nav, detail), "push Detail");
    s = amber_object_context(detail);
    snprintf(s->item_key, sizeof s->item_key, "%s", store[2].key);
    /* The user is typing " (edited)" after the name and has got halfway: the cursor is at the end. */
    snprintf(s->item_name, sizeof s->item_name, "%s", "Shiny Spork (edi");
    field = s->view;
    field->selection.location = strlen(s->item_name);
    field->selection.length = 0;
    field->has_selection = 1;

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

    /* The app goes to the background: a snapshot of the screen, then preserve (R21). */
    check(amber_engine_set_snapshot(engine, SNAPSHOT, sizeof SNAPSHOT), "amber_engine_set_snapshot");
    check(amber_engine_preserve(&saved, engine), "amber_engine_preserve");
    printf("run 1: %s into %s/state.archive, with a snapshot of %zu bytes\n", saved ? "preserved" : "NOT preserved",
           dir, sizeof SNAPSHOT);
    {
        amber_object *all[] = {nav, items, detail, new_item_nav, new_item, tabs, left, right, login};
        size_t i;
        for (i = 0; i < sizeof all / sizeof all[0]; i++) {
            screen *sc = amber_object_context(all[i]);
            print_object(all[i]);
            if (sc && sc->view_object) print_object(sc->view_object);
        }
    }
    printf("  application coder: appVersion = \"4.2\"\n");
    print_preservation(engine);

    amber_engine_close(engine); /* frees the objects and their screens */
    return saved ? 0 : 1;
}

/* ---- between the runs: the item store changes ----------------------------------------------- */

static int change(const char *dir) {
    load_store(dir);
    printf("the item store changes (%s/items.txt):\n", dir);
    delete_row(0); /* a row before the selected Shiny Spork */
    delete_row((size_t)row_of_key("9D55-LAMP")); /* the second selected item */
    snprintf(store[store_count].key, sizeof store[0].key, "%s", "6F77-KETTLE");
    snprintf(store[store_count].name, sizeof store[0].name, "%s", "Copper Kettle");
    printf("  inserted row %zu: %s \"%s\"\n", store_count, store[store_count].key, store[store_count].name);
    store_count++;
    save_store(dir);
    {
        size_t i;
        printf("  now:");
        for (i = 0; i < store_count; i++) printf(" %zu=%s", i, store[i].name);
        printf("\n");
    }
    return 0;
}

/* ---- run 2: recreate the objects and restore them ----------------------------------------- */

/* R10 step 1: the restoration class "HomepwnerScreens" makes the screens of window 1. */
static int make_homepwner_screen(amber_object **out, amber_engine *engine, const char *const *path,
                                 size_t path_length, amber_decoder *decoder, void *ctx) {
    (void)decoder; (void)ctx;
    printf("  restoration class HomepwnerScreens makes %s\n", path[path_length - 1]);
    return new_screen(out, engine, path[path_length - 1]);
}

/* R10 step 2: the delegate finds the objects with no restoration class (window 2). Views are not
 * its business: their controllers made them, and Amber finds them there. */
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
    amber_buf snapshot = AMBER_BUF_INIT;
    amber_buf text = AMBER_BUF_INIT;
    size_t i, j, k, count;
    int failures = 0, rc;

    load_store(dir);
    options = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    options.state_directory = dir;
    options.bundle_version = "4.2";
    options.keep_restoration_report = 1;
    check(amber_engine_open(&engine, APP_ID, &options), "amber_engine_open");

    cls = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    cls.make = make_homepwner_screen;
    check(amber_engine_register_restoration_class(engine, "HomepwnerScreens", &cls, NULL, NULL),
          "register HomepwnerScreens");

    delegate = (amber_delegate)AMBER_DELEGATE_INIT;
    delegate.should_restore = should_restore;
    delegate.object_for_path = object_for_path;
    delegate.will_finish_launching = will_finish_launching;
    delegate.did_finish_launching = did_finish_launching;
    check(amber_engine_set_delegate(engine, &delegate, NULL, NULL), "amber_engine_set_delegate");

    /* The snapshot, shown while the interface is rebuilt (R21). */
    rc = amber_engine_snapshot(&snapshot, engine);
    if (rc == AMBER_OK)
        printf("run 2: the snapshot to show while restoring: %zu bytes, %s\n", snapshot.size,
               snapshot.size > 8 && memcmp(snapshot.ptr, SNAPSHOT, 8) == 0 ? "a PNG" : "not a PNG");
    else
        printf("run 2: no snapshot to show: %s\n", amber_error_last());

    printf("run 2: launching from %s/state.archive\n", dir);
    check(amber_engine_launch(&report, engine, AMBER_APP_INACTIVE), "amber_engine_launch");
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

    /* The report, record by record (R16), with the model identifiers dropped (R18)... */
    printf("report, %zu records:\n", count);
    for (i = 0; i < count; i++) {
        check(amber_report_record_at(&rec, report, i), "amber_report_record_at");
        printf("  ");
        for (j = 0; j < rec.path_length; j++) printf("%s%s", j ? "/" : "", rec.path[j]);
        printf(": %s%s%s\n", outcome_name(rec.outcome), rec.message[0] ? " - " : "", rec.message);
        for (k = 0; k < rec.dropped_count; k++)
            printf("    dropped model identifier: %s (no longer in the item store)\n", rec.dropped_identifiers[k]);
        if (rec.outcome != AMBER_OUTCOME_RESTORED) failures++;
    }
    /* ...and as Amber formats it. */
    check(amber_report_format(&text, report), "amber_report_format");
    printf("amber_report_format:\n%s\n", text.ptr);
    amber_buf_dispose(&text);

    amber_buf_dispose(&snapshot);
    rc = amber_engine_snapshot(&snapshot, engine);
    printf("after restoring, the snapshot: %s\n", rc == AMBER_NOT_FOUND ? "gone, discarded with the archive" : "still there?");
    printf("the restoration report is kept in %s/last-restore.report (amber report prints it)\n", dir);

    amber_report_free(report);
    amber_engine_close(engine); /* frees the restored objects and their screens */
    return failures == 0 && rc == AMBER_NOT_FOUND ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[2], "run1") != 0 && strcmp(argv[2], "change") != 0 && strcmp(argv[2], "run2") != 0)) {
        fprintf(stderr, "usage: homepwner STATE_DIR run1|change|run2\n");
        return 2;
    }
    printf("Amber %s\n", amber_version_string());
    if (strcmp(argv[2], "run1") == 0) return run1(argv[1]);
    if (strcmp(argv[2], "change") == 0) return change(argv[1]);
    return run2(argv[1]);
}

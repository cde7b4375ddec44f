/*
 * amber-gtk.c — libamber-gtk: the GTK 4 adapter of Amber (see amber-gtk.h for what it does).
 *
 * How GTK maps onto Amber's objects:
 *   - a window is a root controller (class: the window's type name), its identifier the
 *     window's name, else its type's name; its own state (size, maximized, fullscreen, the focused widget) is written
 *     by its encode callback under "gtk.*" keys;
 *   - each restorable widget inside is a view of that controller whose identifier is the names
 *     of its named ancestors inside the window and its own, joined with '/'. Keeping the views
 *     flat under their window lets Amber find the views of a window made on demand among its
 *     restored controller's views (R10 step 3) without any lookup of ours;
 *   - the widget types of an R17 view kind get accessors (scrolled windows, lists, editables,
 *     text views); the others keep their state through the view's encode and decode callbacks.
 *
 * The objects follow the widgets: before every save and at restoration the adapter walks each
 * window's widgets (the program's, never GTK's internal children: program_children()), makes
 * the objects of new named widgets (and, with AMBER_GTK_AUTO_NAMES, of unnamed ones, by their
 * place in the tree) and frees those of widgets that went away or were renamed.
 *
 * The widget kinds beyond R17's (ranges, spin buttons, list and flow boxes, calendars,
 * revealers, combo boxes, tree views) are in amber-gtk-widgets.c; the scroll positions that wait
 * for their widget's layout in amber-gtk-scroll.c; amber-run's module, which attaches all this
 * to an unmodified program, in amber-run-preload.c.
 */
#include "amber-gtk-private.h"

#include <glib-unix.h>
#include <signal.h>
#include <string.h>

#define ADAPTER_KEY "amber-gtk-adapter"
#define KEEP_CONTENT_KEY "amber-gtk-keep-content"
#define ITEM_ID_KEY "amber-gtk-item-identifier"
#define CODING_KEY "amber-gtk-coding"
#define HOOKED_KEY "amber-gtk-hooked"
#define CLOSED_KEY "amber-gtk-closed"
/* The identifier an unnamed window was given when it first took part (window_name()). */
#define WINDOW_NAME_KEY "amber-gtk-window-name"
/* On an adjustment, selection model or text buffer: the widget it was hooked for (compared as a
 * pointer only, never dereferenced: the widget may be gone). */
#define OWNER_KEY "amber-gtk-owner"
#define CLASS_PREFIX "AmberGtkWindow:"
#define BLUEPRINT_KEY "amber-gtk-blueprint"
/* The blueprint factory of windows built from registered .ui files: blueprint ids are
 * "AmberGtkBuilder/<file's short name>/<object id>". */
#define BUILDER_FACTORY "AmberGtkBuilder"

/* The autosave policy's quiet time: how long after the last change the engine saves it. */
#define AUTOSAVE_QUIET_MS 1000
/* Amber's bound on the selected items of a view (R17). */
#define MAX_SELECTED ((size_t)1 << 20)

typedef struct WindowEntry WindowEntry;

struct AmberGtk {
    amber_engine *engine;
    GtkApplication *app;
    AmberGtkOptions options;
    /* GtkWindow* -> WindowEntry*, the named windows taking part. */
    GHashTable *windows;
    /* Names registered with amber_gtk_register_window(). */
    GHashTable *makers;
    /* Short name -> UiFile*, registered with amber_gtk_register_ui_file(). */
    GHashTable *ui_files;
    gboolean restored;
    gboolean restoring;
    gboolean quitting;
    /* The restoration due once the first window shown is built (an idle before its first frame). */
    guint restore_source;
    /* Windows made on demand at restoration, presented again once the host presented its own. */
    GPtrArray *made_windows;
    guint present_source;
    /* The timeout after which the engine's autosave is due (amber_engine_autosave_timeout()). */
    guint autosave_source;
    guint sigterm_source;
    guint sigint_source;
    /* The lines already printed about widgets a save left out: each is printed once. */
    GHashTable *left_out_lines;
    /* How long the engine keeps the records no window claimed at launch (R35), set with
     * amber_gtk_keep_unclaimed(); 0: none kept. */
    uint64_t keep_unclaimed_ms;
    /* The names of the windows whose state was kept at launch and no window has claimed yet;
     * and the timeout at the keep time's end, when it is one GLib can wait for. */
    GHashTable *kept_windows;
    guint keep_end_source;
    /* The unnamed windows of the archive restored, with their titles (amber-gtk-windows.c). */
    SavedWindows *saved_windows;
};

struct WindowEntry {
    AmberGtk *gtk;
    GtkWindow *window;
    amber_object *root;
    char *name;
    /* GtkWidget* -> ViewEntry*: the window's restorable widgets. */
    GHashTable *views;
    /* The path of the widget to focus once restored (from the archive), or NULL, and whether the
     * focus was shown (after keyboard use, GTK draws a ring around the focused widget). */
    char *focus;
    gboolean focus_visible;
    /* The automatic identifiers of its unnamed widgets, in tree order, one a line: the window's
     * shape (AMBER_GTK_AUTO_NAMES), made by every walk. */
    GString *shape;
    /* The shape saved differs from this one: its unnamed widgets get no state. */
    gboolean shape_changed;
    /* Its state was restored at launch, or claimed when it first showed (R35). */
    gboolean claimed;
};

typedef struct ViewEntry {
    WindowEntry *window;
    /* Weak: NULL once the widget is finalized. */
    GtkWidget *widget;
    amber_object *object;
    char *identifier;
    /* Its identifier is automatic (AMBER_GTK_AUTO_NAMES), from its place in the tree. */
    gboolean automatic;
    gboolean seen;
    /* Kept for Amber while an accessor returns (it copies them then). */
    int64_t *selected;
    amber_index_path *selected_paths;
    char *item_identifier;
    int64_t first_visible;
    /* A list's first visible item at the save (its "gtk.first-visible" key), -1 if none, and
     * the pixels into it ("gtk.first-visible-delta"). */
    int64_t saved_first_visible;
    double saved_first_delta;
} ViewEntry;

typedef struct Coding {
    AmberGtkEncode encode;
    AmberGtkDecode decode;
    void *ctx;
    void (*ctx_free)(void *ctx);
} Coding;

typedef struct UiFile {
    char *path;
    AmberGtkBuilt built;
    void *ctx;
    void (*ctx_free)(void *ctx);
} UiFile;

typedef struct Maker {
    AmberGtk *gtk;
    AmberGtkWindowMaker make;
    void *ctx;
    void (*ctx_free)(void *ctx);
} Maker;

/* Calls a host's ctx_free, if it gave one: once, when the adapter lets go of its context. */
static void release_host_context(void (*ctx_free)(void *ctx), void *ctx) {
    if (ctx_free != NULL) ctx_free(ctx);
}

static void coding_free(gpointer data) {
    Coding *coding = data;
    release_host_context(coding->ctx_free, coding->ctx);
    g_free(coding);
}

/* The ctx_free of a window maker's restoration class: Amber calls it when the engine closes. */
static void maker_free(void *data) {
    Maker *maker = data;
    release_host_context(maker->ctx_free, maker->ctx);
    g_free(maker);
}

static void changed(AmberGtk *gtk, gpointer instance);

/* Whether a view's saved state is applied to its widget: the widget is alive, and when its
 * identifier is automatic, its window has the shape it was saved with (else the identifier may
 * name another widget now). */
static gboolean applies(const ViewEntry *entry) {
    return entry->widget != NULL && !(entry->automatic && entry->window->shape_changed);
}
static int save(AmberGtk *gtk, const char *why);
static void focus_restored(gpointer key, gpointer value, gpointer data);

/* ---- names and paths ------------------------------------------------------------------------ */

/* The widget's name: the one set with gtk_widget_set_name(), else its GtkBuilder id, else NULL
 * (gtk_widget_get_name() answers the type name for a widget that has none). */
static const char *widget_name(GtkWidget *widget) {
    const char *name = gtk_widget_get_name(widget);
    if (name != NULL && name[0] != '\0' && strcmp(name, G_OBJECT_TYPE_NAME(widget)) != 0) return name;
    const char *id = gtk_buildable_get_buildable_id(GTK_BUILDABLE(widget));
    /* GtkBuilder names the objects the .ui file left without an id "___object_N___". */
    if (id == NULL || id[0] == '\0' || g_str_has_prefix(id, "___object_")) return NULL;
    return id;
}

/* The path of `widget` inside `window`: the names of its named ancestors and its own, joined with
 * '/' (newly allocated), or NULL when none of them has a name. */
static char *widget_path(GtkWindow *window, GtkWidget *widget) {
    GString *path = NULL;
    for (; widget != NULL && widget != GTK_WIDGET(window); widget = gtk_widget_get_parent(widget)) {
        const char *name = widget_name(widget);
        if (name == NULL) continue;
        if (path == NULL) path = g_string_new(name);
        else {
            g_string_prepend_c(path, '/');
            g_string_prepend(path, name);
        }
    }
    return path != NULL ? g_string_free(path, FALSE) : NULL;
}

/* The widget at `path` under `parent` (whose own path is `prefix`), or NULL. */
static GtkWidget *widget_at_path(GtkWidget *parent, const char *prefix, const char *path) {
    for (GtkWidget *child = gtk_widget_get_first_child(parent); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        const char *name = widget_name(child);
        char *here = name == NULL ? g_strdup(prefix) : prefix[0] ? g_strconcat(prefix, "/", name, NULL) : g_strdup(name);
        GtkWidget *found = NULL;
        if (name != NULL && strcmp(here, path) == 0) found = child;
        else if (g_str_has_prefix(path, here)) found = widget_at_path(child, here, path);
        g_free(here);
        if (found != NULL) return found;
    }
    return NULL;
}

static gboolean keeps_content(GtkWidget *widget) {
    return g_object_get_data(G_OBJECT(widget), KEEP_CONTENT_KEY) != NULL;
}

/* Whether the values the user set in `widget` are kept (a toggle's, a scale's): its content
 * opted in, or every widget's (AMBER_GTK_KEEP_TOGGLES). Typed text needs the opt-in (R34). */
static gboolean keeps_values(const AmberGtk *gtk, GtkWidget *widget) {
    return keeps_content(widget) || (gtk->options & AMBER_GTK_KEEP_TOGGLES) != 0;
}

gboolean is_list(GtkWidget *widget) {
    return GTK_IS_LIST_VIEW(widget) || GTK_IS_COLUMN_VIEW(widget) || GTK_IS_GRID_VIEW(widget);
}

static gboolean is_toggle(GtkWidget *widget) {
    return GTK_IS_CHECK_BUTTON(widget) || GTK_IS_TOGGLE_BUTTON(widget) || GTK_IS_SWITCH(widget) ||
           GTK_IS_DROP_DOWN(widget);
}

/* The R17 kind of a widget's standard state, or AMBER_VIEW_NONE for those kept by our own keys. */
static amber_view_kind view_kind(GtkWidget *widget) {
    if (GTK_IS_LIST_VIEW(widget) || GTK_IS_COLUMN_VIEW(widget)) return AMBER_VIEW_TABLE;
    if (GTK_IS_GRID_VIEW(widget)) return AMBER_VIEW_COLLECTION;
    if (GTK_IS_TEXT_VIEW(widget)) return AMBER_VIEW_TEXT_VIEW;
    if (GTK_IS_EDITABLE(widget)) return AMBER_VIEW_TEXT_FIELD;
    if (GTK_IS_SCROLLED_WINDOW(widget)) return AMBER_VIEW_SCROLL;
    return AMBER_VIEW_NONE;
}

/* Whether a named widget has state to keep. */
static gboolean is_restorable(const AmberGtk *gtk, GtkWidget *widget) {
    gboolean values = keeps_values(gtk, widget);
    return view_kind(widget) != AMBER_VIEW_NONE || GTK_IS_NOTEBOOK(widget) || GTK_IS_STACK(widget) ||
           GTK_IS_PANED(widget) || GTK_IS_EXPANDER(widget) || (is_toggle(widget) && values) ||
           widget_kind_has_state(widget, values) || g_object_get_data(G_OBJECT(widget), CODING_KEY) != NULL;
}

/* Widgets whose children are theirs alone (list rows, an entry's text, a scale's slider): not
 * walked into. */
static gboolean is_leaf(GtkWidget *widget) {
    return is_list(widget) || GTK_IS_TEXT_VIEW(widget) || GTK_IS_EDITABLE(widget) || GTK_IS_DROP_DOWN(widget) ||
           widget_kind_is_leaf(widget);
}

/* Whether GTK defines the widget's type (a program's own types, subclasses included, are not). */
static gboolean is_gtk_type(GtkWidget *widget) {
    return g_str_has_prefix(G_OBJECT_TYPE_NAME(widget), "Gtk");
}

/* GTK containers whose every child is the program's own (a box's, a grid's children). */
static gboolean holds_program_children(GtkWidget *widget) {
    return GTK_IS_BOX(widget) || GTK_IS_GRID(widget) || GTK_IS_CENTER_BOX(widget) || GTK_IS_OVERLAY(widget) ||
           GTK_IS_FIXED(widget) || GTK_IS_STACK(widget) || GTK_IS_WINDOW(widget) || GTK_IS_VIEWPORT(widget) ||
           GTK_IS_REVEALER(widget) || GTK_IS_FRAME(widget) || GTK_IS_ASPECT_FRAME(widget) ||
           GTK_IS_LIST_BOX(widget) || GTK_IS_LIST_BOX_ROW(widget) || GTK_IS_FLOW_BOX(widget) ||
           GTK_IS_FLOW_BOX_CHILD(widget) || GTK_IS_HEADER_BAR(widget) || GTK_IS_ACTION_BAR(widget) ||
           GTK_IS_SEARCH_BAR(widget) || GTK_IS_WINDOW_HANDLE(widget) ||
           (GTK_IS_POPOVER(widget) && !GTK_IS_POPOVER_MENU(widget));
}

static void add_child(GPtrArray *children, GtkWidget *child) {
    if (child != NULL) g_ptr_array_add(children, child);
}

/*
 * The children of `parent` the walk visits, into `children`: the program's widgets, never the
 * toolkit's internal children (a spin button's text, a color chooser's editor, a scale button's
 * popup: GTK builds those from templates whose objects have ids, and their state is GTK's), so
 * that what takes part, and the automatic identifiers, do not depend on how GTK builds its
 * widgets. A scrolled window's, a paned's, an expander's, a notebook's, a combo box's and a menu button's own
 * parts (scroll bars, handle, title, tabs, arrow) are skipped: the walk goes straight to the
 * program's widgets inside. A GTK widget that is no container of the program's is not walked.
 */
static void program_children(GtkWidget *parent, GPtrArray *children) {
    if (GTK_IS_SCROLLED_WINDOW(parent)) {
        add_child(children, gtk_scrolled_window_get_child(GTK_SCROLLED_WINDOW(parent)));
    } else if (GTK_IS_PANED(parent)) {
        add_child(children, gtk_paned_get_start_child(GTK_PANED(parent)));
        add_child(children, gtk_paned_get_end_child(GTK_PANED(parent)));
    } else if (GTK_IS_EXPANDER(parent)) {
        add_child(children, gtk_expander_get_child(GTK_EXPANDER(parent)));
    } else if (GTK_IS_NOTEBOOK(parent)) {
        for (int i = 0, n = gtk_notebook_get_n_pages(GTK_NOTEBOOK(parent)); i < n; i++)
            add_child(children, gtk_notebook_get_nth_page(GTK_NOTEBOOK(parent), i));
    } else if (GTK_IS_COMBO_BOX(parent)) {
        G_GNUC_BEGIN_IGNORE_DEPRECATIONS /* GtkComboBox: deprecated from 4.10 on */
        add_child(children, gtk_combo_box_get_child(GTK_COMBO_BOX(parent))); /* its entry, if it has one */
        G_GNUC_END_IGNORE_DEPRECATIONS
    } else if (GTK_IS_MENU_BUTTON(parent)) {
        GtkPopover *popover = gtk_menu_button_get_popover(GTK_MENU_BUTTON(parent));
        if (popover != NULL && !GTK_IS_POPOVER_MENU(popover)) add_child(children, GTK_WIDGET(popover));
    } else if (holds_program_children(parent) || !is_gtk_type(parent)) {
        for (GtkWidget *child = gtk_widget_get_first_child(parent); child != NULL; child = gtk_widget_get_next_sibling(child))
            g_ptr_array_add(children, child);
    }
}

GtkSelectionModel *list_model(GtkWidget *widget) {
    if (GTK_IS_LIST_VIEW(widget)) return gtk_list_view_get_model(GTK_LIST_VIEW(widget));
    if (GTK_IS_COLUMN_VIEW(widget)) return gtk_column_view_get_model(GTK_COLUMN_VIEW(widget));
    if (GTK_IS_GRID_VIEW(widget)) return gtk_grid_view_get_model(GTK_GRID_VIEW(widget));
    return NULL;
}

/* ---- the standard state of R17 view kinds (accessors) -------------------------------------- */

static int scroll_read(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (entry->widget == NULL) return AMBER_OK;
    GtkScrolledWindow *scrolled = GTK_SCROLLED_WINDOW(entry->widget);
    state->content_offset.x = adjustment_value(gtk_scrolled_window_get_hadjustment(scrolled));
    state->content_offset.y = adjustment_value(gtk_scrolled_window_get_vadjustment(scrolled));
    state->fields |= AMBER_VIEW_FIELD_CONTENT_OFFSET;
    return AMBER_OK;
}

/* Whether the scrolled window's child restores the same adjustments itself: a list by its
 * first visible item, a text view by its top line, a tree view, when the child takes part. */
static gboolean child_scrolls_itself(const ViewEntry *entry) {
    GtkWidget *child = gtk_scrolled_window_get_child(GTK_SCROLLED_WINDOW(entry->widget));
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gboolean scrolls = child != NULL && (is_list(child) || GTK_IS_TEXT_VIEW(child) || GTK_IS_TREE_VIEW(child));
    G_GNUC_END_IGNORE_DEPRECATIONS
    return scrolls && g_hash_table_lookup(entry->window->views, child) != NULL;
}

static int scroll_apply(amber_object *view, const amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (!applies(entry) || !(state->fields & AMBER_VIEW_FIELD_CONTENT_OFFSET)) return AMBER_OK;
    GtkScrolledWindow *scrolled = GTK_SCROLLED_WINDOW(entry->widget);
    AmberGtk *gtk = entry->window->gtk;
    if (child_scrolls_itself(entry)) return AMBER_OK;
    scroll_when_laid_out(gtk, entry->widget, gtk_scrolled_window_get_hadjustment(scrolled), state->content_offset.x);
    scroll_when_laid_out(gtk, entry->widget, gtk_scrolled_window_get_vadjustment(scrolled), state->content_offset.y);
    return AMBER_OK;
}

/* The position of a list's first visible item, or -1 for an empty list: GTK 4.8 has no call for
 * it, so it is the row the scroll position falls in, rows taken as equally high (the content's
 * height over their number, as the list itself estimates the rows it has not measured). */
static int64_t list_first_visible(GtkWidget *list) {
    GtkSelectionModel *model = list_model(list);
    GtkAdjustment *v = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(list));
    guint n = model != NULL ? g_list_model_get_n_items(G_LIST_MODEL(model)) : 0;
    guint item = 0;
    double delta = 0;
    if (pending_list_scroll(v, &item, &delta)) return item;
    if (n == 0 || v == NULL || gtk_adjustment_get_upper(v) <= 0) return -1;
    int64_t first = (int64_t)(adjustment_value(v) / (gtk_adjustment_get_upper(v) / n));
    return CLAMP(first, 0, (int64_t)n - 1);
}

/* How many pixels into its first visible item a list is scrolled (rows taken as equally high,
 * as in list_first_visible()), or the pixels a scroll still waiting will give it. */
static double list_first_visible_delta(GtkWidget *list) {
    GtkSelectionModel *model = list_model(list);
    GtkAdjustment *v = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(list));
    guint item = 0;
    double delta = 0;
    if (pending_list_scroll(v, &item, &delta)) return delta;
    guint n = model != NULL ? g_list_model_get_n_items(G_LIST_MODEL(model)) : 0;
    int64_t first = list_first_visible(list);
    if (first < 0) return 0;
    return MAX(0, gtk_adjustment_get_value(v) - first * (gtk_adjustment_get_upper(v) / n));
}

static int list_read(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (entry->widget == NULL) return AMBER_OK;
    GtkScrollable *scrollable = GTK_SCROLLABLE(entry->widget);
    GtkAdjustment *h = gtk_scrollable_get_hadjustment(scrollable), *v = gtk_scrollable_get_vadjustment(scrollable);
    state->content_offset.x = h != NULL ? adjustment_value(h) : 0;
    state->content_offset.y = v != NULL ? adjustment_value(v) : 0;
    state->fields |= AMBER_VIEW_FIELD_CONTENT_OFFSET;

    GtkSelectionModel *model = list_model(entry->widget);
    if (model == NULL) return AMBER_OK;
    entry->first_visible = list_first_visible(entry->widget);
    if (entry->first_visible >= 0) {
        state->first_visible_item.indexes = &entry->first_visible;
        state->first_visible_item.length = 1;
        state->fields |= AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM;
    }
    GtkBitset *selection = gtk_selection_model_get_selection(model);
    uint64_t count = gtk_bitset_get_size(selection);
    if (count > MAX_SELECTED) count = MAX_SELECTED;
    g_free(entry->selected);
    g_free(entry->selected_paths);
    entry->selected = g_new(int64_t, count + 1);
    entry->selected_paths = g_new(amber_index_path, count + 1);
    for (size_t i = 0; i < count; i++) {
        entry->selected[i] = gtk_bitset_get_nth(selection, (guint)i);
        entry->selected_paths[i].indexes = &entry->selected[i];
        entry->selected_paths[i].length = 1;
    }
    gtk_bitset_unref(selection);
    state->selected_items = count > 0 ? entry->selected_paths : NULL;
    state->selected_count = count;
    state->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS;
    return AMBER_OK;
}

static int list_apply(amber_object *view, const amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (!applies(entry)) return AMBER_OK;
    GtkSelectionModel *model = list_model(entry->widget);
    guint rows = model != NULL ? g_list_model_get_n_items(G_LIST_MODEL(model)) : 0;
    gboolean has_first = (state->fields & AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM) && state->first_visible_item.length == 1 &&
                         state->first_visible_item.indexes[0] >= 0 && state->first_visible_item.indexes[0] < (int64_t)rows;
    gboolean by_item = has_first && !GTK_IS_COLUMN_VIEW(entry->widget);
    int64_t cursor = -1;
    if (model != NULL && (state->fields & AMBER_VIEW_FIELD_SELECTED_ITEMS)) {
        guint n = rows;
        gboolean first = TRUE;
        for (size_t i = 0; i < state->selected_count; i++) {
            const amber_index_path *path = &state->selected_items[i];
            if (path->length != 1 || path->indexes[0] < 0 || path->indexes[0] >= (int64_t)n) continue;
            /* The first replaces the selection, the others add to it (a multiple selection). */
            gtk_selection_model_select_item(model, (guint)path->indexes[0], first);
            /* The list's keyboard cursor goes to the (first) selected item, as after a click:
             * taking the focus then keeps that item in view instead of scrolling to the top.
             * The scroll position restored below is applied after this. */
            if (first) cursor = path->indexes[0];
            if (first && !by_item && !GTK_IS_COLUMN_VIEW(entry->widget))
                gtk_widget_activate_action(entry->widget, "list.scroll-to-item", "u", (guint32)path->indexes[0]);
            first = FALSE;
        }
        if (first) gtk_selection_model_unselect_all(model);
    }
    /* A list view or grid view scrolls by its first visible item (found by its identifier, R18,
     * when it moved), never by pixels: see item_scroll_layout(). */
    if (by_item) {
        scroll_list_when_laid_out(entry->widget, (guint)state->first_visible_item.indexes[0], entry->saved_first_delta, cursor);
        if (state->fields & AMBER_VIEW_FIELD_CONTENT_OFFSET)
            scroll_when_laid_out(entry->window->gtk, entry->widget, gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(entry->widget)),
                                 state->content_offset.x);
    } else if (state->fields & AMBER_VIEW_FIELD_CONTENT_OFFSET) {
        GtkScrollable *scrollable = GTK_SCROLLABLE(entry->widget);
        AmberGtk *gtk = entry->window->gtk;
        /* The first visible item moved (found by its identifier at another position, R18): the
         * list scrolls by as many rows, so that the same item is at the top. */
        double shift = 0;
        if ((state->fields & AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM) && state->first_visible_item.length == 1 &&
            entry->saved_first_visible >= 0)
            shift = (double)(state->first_visible_item.indexes[0] - entry->saved_first_visible);
        scroll_when_laid_out(gtk, entry->widget, gtk_scrollable_get_hadjustment(scrollable), state->content_offset.x);
        scroll_rows_when_laid_out(entry->widget, gtk_scrollable_get_vadjustment(scrollable), state->content_offset.y,
                                  shift, rows);
    }
    return AMBER_OK;
}

/* The model association of a list (R18): the item property the host named holds the item's
 * identifier. */
static int list_identifier_for_index_path(const char **out, amber_object *view, const int64_t *indexes,
                                          size_t length, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    *out = NULL;
    const char *property = entry->widget ? g_object_get_data(G_OBJECT(entry->widget), ITEM_ID_KEY) : NULL;
    GtkSelectionModel *model = entry->widget ? list_model(entry->widget) : NULL;
    if (property == NULL || model == NULL || length != 1 || indexes[0] < 0) return AMBER_OK;
    GObject *item = g_list_model_get_item(G_LIST_MODEL(model), (guint)indexes[0]);
    if (item == NULL) return AMBER_OK;
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(item), property);
    if (spec != NULL && g_value_type_transformable(spec->value_type, G_TYPE_STRING)) {
        GValue value = G_VALUE_INIT;
        g_value_init(&value, G_TYPE_STRING);
        g_object_get_property(item, property, &value);
        g_free(entry->item_identifier);
        entry->item_identifier = g_value_dup_string(&value);
        g_value_unset(&value);
        *out = entry->item_identifier;
    }
    g_object_unref(item);
    return AMBER_OK;
}

static int list_index_path_for_identifier(int64_t *out, size_t capacity, size_t *out_length, amber_object *view,
                                          const char *identifier, void *ctx) {
    ViewEntry *entry = ctx;
    *out_length = 0;
    GtkSelectionModel *model = entry->widget ? list_model(entry->widget) : NULL;
    if (model == NULL) return AMBER_OK;
    guint n = g_list_model_get_n_items(G_LIST_MODEL(model));
    for (guint i = 0; i < n; i++) {
        int64_t index = i;
        const char *candidate = NULL;
        list_identifier_for_index_path(&candidate, view, &index, 1, ctx);
        if (candidate != NULL && strcmp(candidate, identifier) == 0) {
            if (capacity >= 1) out[0] = i;
            *out_length = 1;
            return AMBER_OK;
        }
    }
    return AMBER_OK;
}

static int text_field_read(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (entry->widget == NULL) return AMBER_OK;
    int start = 0, end = 0;
    GtkEditable *editable = GTK_EDITABLE(entry->widget);
    if (!gtk_editable_get_selection_bounds(editable, &start, &end)) start = end = gtk_editable_get_position(editable);
    state->selected_range.location = (uint64_t)start;
    state->selected_range.length = (uint64_t)(end - start);
    state->fields |= AMBER_VIEW_FIELD_SELECTED_RANGE;
    return AMBER_OK;
}

static int text_field_apply(amber_object *view, const amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (!applies(entry) || !(state->fields & AMBER_VIEW_FIELD_SELECTED_RANGE)) return AMBER_OK;
    GtkEditable *editable = GTK_EDITABLE(entry->widget);
    int start = (int)state->selected_range.location, end = start + (int)state->selected_range.length;
    if (start == end) gtk_editable_set_position(editable, start);
    else gtk_editable_select_region(editable, start, end);
    return AMBER_OK;
}

static int text_field_length(uint64_t *out, amber_object *view, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    *out = entry->widget ? (uint64_t)g_utf8_strlen(gtk_editable_get_text(GTK_EDITABLE(entry->widget)), -1) : 0;
    return AMBER_OK;
}

static int text_view_read(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (entry->widget == NULL) return AMBER_OK;
    GtkTextView *text_view = GTK_TEXT_VIEW(entry->widget);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(text_view);
    GtkTextIter start, end;
    gtk_text_buffer_get_selection_bounds(buffer, &start, &end);
    int a = gtk_text_iter_get_offset(&start), b = gtk_text_iter_get_offset(&end);
    state->selected_range.location = (uint64_t)MIN(a, b);
    state->selected_range.length = (uint64_t)ABS(b - a);
    state->editable = gtk_text_view_get_editable(text_view);
    state->fields |= AMBER_VIEW_FIELD_SELECTED_RANGE | AMBER_VIEW_FIELD_EDITABLE;
    return AMBER_OK;
}

static int text_view_apply(amber_object *view, const amber_view_state *state, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    if (!applies(entry)) return AMBER_OK;
    GtkTextView *text_view = GTK_TEXT_VIEW(entry->widget);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(text_view);
    if (state->fields & AMBER_VIEW_FIELD_SELECTED_RANGE) {
        GtkTextIter start, end;
        gtk_text_buffer_get_iter_at_offset(buffer, &start, (int)state->selected_range.location);
        gtk_text_buffer_get_iter_at_offset(buffer, &end,
                                           (int)(state->selected_range.location + state->selected_range.length));
        gtk_text_buffer_select_range(buffer, &end, &start);
    }
    if (state->fields & AMBER_VIEW_FIELD_EDITABLE) gtk_text_view_set_editable(text_view, state->editable != 0);
    return AMBER_OK;
}

static int text_view_length(uint64_t *out, amber_object *view, void *ctx) {
    (void)view;
    ViewEntry *entry = ctx;
    *out = entry->widget ? (uint64_t)gtk_text_buffer_get_char_count(gtk_text_view_get_buffer(GTK_TEXT_VIEW(entry->widget))) : 0;
    return AMBER_OK;
}

/* ---- the standard state of other widgets (the view's own "gtk.*" keys) --------------------- */

/* A notebook page's name: its child's name, else its tab label's text, else NULL. */
static const char *notebook_page_name(GtkNotebook *notebook, GtkWidget *page) {
    const char *name = widget_name(page);
    return name != NULL ? name : gtk_notebook_get_tab_label_text(notebook, page);
}

static int check(int rc, int *first_error) {
    if (rc != AMBER_OK && *first_error == AMBER_OK) *first_error = rc;
    return rc;
}

static int view_encode(amber_object *object, amber_coder *coder, void *ctx) {
    (void)object;
    ViewEntry *entry = ctx;
    GtkWidget *widget = entry->widget;
    int rc = AMBER_OK;
    if (widget == NULL) return AMBER_OK;
    if (GTK_IS_NOTEBOOK(widget)) {
        GtkNotebook *notebook = GTK_NOTEBOOK(widget);
        int current = gtk_notebook_get_current_page(notebook);
        GtkWidget *page = current >= 0 ? gtk_notebook_get_nth_page(notebook, current) : NULL;
        const char *name = page != NULL ? notebook_page_name(notebook, page) : NULL;
        if (name != NULL) check(amber_coder_encode_string(coder, "gtk.page", name), &rc);
        else if (current >= 0) check(amber_coder_encode_int64(coder, "gtk.page-index", current), &rc);
    } else if (GTK_IS_STACK(widget)) {
        const char *name = gtk_stack_get_visible_child_name(GTK_STACK(widget));
        if (name != NULL) check(amber_coder_encode_string(coder, "gtk.page", name), &rc);
    } else if (GTK_IS_PANED(widget)) {
        /* Only a position set (by the user, the program, or a restoration): a paned never laid
         * out (on a page not shown yet) answers 0, which would close its first pane. */
        gboolean set = FALSE;
        g_object_get(widget, "position-set", &set, NULL);
        if (set) check(amber_coder_encode_int64(coder, "gtk.position", gtk_paned_get_position(GTK_PANED(widget))), &rc);
    } else if (GTK_IS_EXPANDER(widget)) {
        check(amber_coder_encode_bool(coder, "gtk.expanded", gtk_expander_get_expanded(GTK_EXPANDER(widget))), &rc);
    } else if (is_list(widget)) {
        /* Its position at the save, beside the identifier Amber keeps for it (R17, R18). */
        int64_t first = list_first_visible(widget);
        if (first >= 0) check(amber_coder_encode_int64(coder, "gtk.first-visible", first), &rc);
        if (first >= 0) check(amber_coder_encode_double(coder, "gtk.first-visible-delta", list_first_visible_delta(widget)), &rc);
    } else if (GTK_IS_TEXT_VIEW(widget)) {
        GtkScrollable *scrollable = GTK_SCROLLABLE(widget);
        GtkAdjustment *v = gtk_scrollable_get_vadjustment(scrollable), *h = gtk_scrollable_get_hadjustment(scrollable);
        if (v != NULL) {
            int offset = 0;
            double delta = 0;
            text_view_top(GTK_TEXT_VIEW(widget), &offset, &delta);
            check(amber_coder_encode_int64(coder, "gtk.top-line", offset), &rc);
            check(amber_coder_encode_double(coder, "gtk.top-delta", delta), &rc);
        }
        if (h != NULL) check(amber_coder_encode_double(coder, "gtk.scroll-x", adjustment_value(h)), &rc);
    }
    gboolean values = keeps_values(entry->window->gtk, widget);
    check(widget_kind_encode(widget, coder, values), &rc);
    if (keeps_content(widget) && (GTK_IS_EDITABLE(widget) || GTK_IS_TEXT_VIEW(widget))) {
        if (GTK_IS_EDITABLE(widget)) {
            check(amber_coder_encode_string(coder, "gtk.text", gtk_editable_get_text(GTK_EDITABLE(widget))), &rc);
        } else if (GTK_IS_TEXT_VIEW(widget)) {
            GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(widget));
            GtkTextIter start, end;
            gtk_text_buffer_get_bounds(buffer, &start, &end);
            char *text = gtk_text_buffer_get_text(buffer, &start, &end, TRUE);
            check(amber_coder_encode_string(coder, "gtk.text", text), &rc);
            g_free(text);
        }
    } else if (values) {
        if (GTK_IS_CHECK_BUTTON(widget)) {
            check(amber_coder_encode_bool(coder, "gtk.active", gtk_check_button_get_active(GTK_CHECK_BUTTON(widget))), &rc);
        } else if (GTK_IS_TOGGLE_BUTTON(widget)) {
            check(amber_coder_encode_bool(coder, "gtk.active", gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(widget))), &rc);
        } else if (GTK_IS_SWITCH(widget)) {
            check(amber_coder_encode_bool(coder, "gtk.active", gtk_switch_get_active(GTK_SWITCH(widget))), &rc);
        } else if (GTK_IS_DROP_DOWN(widget)) {
            check(amber_coder_encode_int64(coder, "gtk.selected", gtk_drop_down_get_selected(GTK_DROP_DOWN(widget))), &rc);
        }
    }
    Coding *coding = g_object_get_data(G_OBJECT(widget), CODING_KEY);
    if (rc == AMBER_OK && coding != NULL && coding->encode != NULL) rc = coding->encode(widget, coder, coding->ctx);
    return rc;
}

static void notebook_show_page(GtkNotebook *notebook, const char *name) {
    for (int i = 0, n = gtk_notebook_get_n_pages(notebook); i < n; i++) {
        const char *candidate = notebook_page_name(notebook, gtk_notebook_get_nth_page(notebook, i));
        if (candidate != NULL && strcmp(candidate, name) == 0) {
            gtk_notebook_set_current_page(notebook, i);
            return;
        }
    }
}

static int view_decode(amber_object *object, amber_decoder *decoder, void *ctx) {
    (void)object;
    ViewEntry *entry = ctx;
    GtkWidget *widget = entry->widget;
    AmberGtk *gtk = entry->window->gtk;
    const char *text = NULL;
    int64_t number = 0;
    int flag = 0;
    double value = 0;
    if (!applies(entry)) return AMBER_OK;
    /* A key that is missing (a widget that changed type, an archive of an older version) leaves
     * the widget as it is: only what was saved comes back. */
    if (GTK_IS_NOTEBOOK(widget)) {
        if (amber_decoder_decode_string(&text, decoder, "gtk.page") == AMBER_OK) notebook_show_page(GTK_NOTEBOOK(widget), text);
        else if (amber_decoder_decode_int64(&number, decoder, "gtk.page-index") == AMBER_OK &&
                 number < gtk_notebook_get_n_pages(GTK_NOTEBOOK(widget)))
            gtk_notebook_set_current_page(GTK_NOTEBOOK(widget), (int)number);
    } else if (GTK_IS_STACK(widget)) {
        if (amber_decoder_decode_string(&text, decoder, "gtk.page") == AMBER_OK &&
            gtk_stack_get_child_by_name(GTK_STACK(widget), text) != NULL)
            gtk_stack_set_visible_child_name(GTK_STACK(widget), text);
    } else if (GTK_IS_PANED(widget)) {
        if (amber_decoder_decode_int64(&number, decoder, "gtk.position") == AMBER_OK && number >= 0 && number <= G_MAXINT)
            gtk_paned_set_position(GTK_PANED(widget), (int)number);
    } else if (is_list(widget)) {
        entry->saved_first_visible = -1;
        entry->saved_first_delta = 0;
        if (amber_decoder_decode_int64(&number, decoder, "gtk.first-visible") == AMBER_OK && number >= 0)
            entry->saved_first_visible = number;
        if (amber_decoder_decode_double(&value, decoder, "gtk.first-visible-delta") == AMBER_OK && value >= 0)
            entry->saved_first_delta = value;
    } else if (GTK_IS_EXPANDER(widget)) {
        if (amber_decoder_decode_bool(&flag, decoder, "gtk.expanded") == AMBER_OK)
            gtk_expander_set_expanded(GTK_EXPANDER(widget), flag != 0);
    }
    gboolean values = keeps_values(gtk, widget);
    widget_kind_decode(gtk, widget, decoder, values);
    if (keeps_content(widget) && (GTK_IS_EDITABLE(widget) || GTK_IS_TEXT_VIEW(widget))) {
        if (GTK_IS_EDITABLE(widget)) {
            if (amber_decoder_decode_string(&text, decoder, "gtk.text") == AMBER_OK) gtk_editable_set_text(GTK_EDITABLE(widget), text);
        } else if (GTK_IS_TEXT_VIEW(widget)) {
            if (amber_decoder_decode_string(&text, decoder, "gtk.text") == AMBER_OK)
                gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(widget)), text, -1);
        }
    } else if (values) {
        if (amber_decoder_decode_bool(&flag, decoder, "gtk.active") == AMBER_OK) {
            if (GTK_IS_CHECK_BUTTON(widget)) gtk_check_button_set_active(GTK_CHECK_BUTTON(widget), flag != 0);
            else if (GTK_IS_TOGGLE_BUTTON(widget)) gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(widget), flag != 0);
            else if (GTK_IS_SWITCH(widget)) gtk_switch_set_active(GTK_SWITCH(widget), flag != 0);
        } else if (GTK_IS_DROP_DOWN(widget) && amber_decoder_decode_int64(&number, decoder, "gtk.selected") == AMBER_OK) {
            GListModel *model = gtk_drop_down_get_model(GTK_DROP_DOWN(widget));
            if (model != NULL && number >= 0 && number < (int64_t)g_list_model_get_n_items(model))
                gtk_drop_down_set_selected(GTK_DROP_DOWN(widget), (guint)number);
        }
    }
    /* After the text (above), before the accessor puts the cursor back. */
    if (GTK_IS_TEXT_VIEW(widget)) {
        GtkScrollable *scrollable = GTK_SCROLLABLE(widget);
        if (amber_decoder_decode_int64(&number, decoder, "gtk.top-line") == AMBER_OK && number >= 0 && number <= G_MAXINT &&
            amber_decoder_decode_double(&value, decoder, "gtk.top-delta") == AMBER_OK)
            scroll_text_when_laid_out(GTK_TEXT_VIEW(widget), (int)number, value);
        else if (amber_decoder_decode_double(&value, decoder, "gtk.scroll-y") == AMBER_OK) /* saved by 0.2 */
            scroll_when_laid_out(gtk, widget, gtk_scrollable_get_vadjustment(scrollable), value);
        if (amber_decoder_decode_double(&value, decoder, "gtk.scroll-x") == AMBER_OK)
            scroll_when_laid_out(gtk, widget, gtk_scrollable_get_hadjustment(scrollable), value);
    }
    Coding *coding = g_object_get_data(G_OBJECT(widget), CODING_KEY);
    if (coding != NULL && coding->decode != NULL) return coding->decode(widget, decoder, coding->ctx);
    return AMBER_OK;
}

/* ---- the window (the root controller) ------------------------------------------------------ */

static int window_encode(amber_object *object, amber_coder *coder, void *ctx) {
    (void)object;
    WindowEntry *w = ctx;
    int rc = AMBER_OK, width = 0, height = 0;
    gtk_window_get_default_size(w->window, &width, &height);
    if (width > 0) check(amber_coder_encode_int64(coder, "gtk.width", width), &rc);
    if (height > 0) check(amber_coder_encode_int64(coder, "gtk.height", height), &rc);
    check(amber_coder_encode_bool(coder, "gtk.maximized", gtk_window_is_maximized(w->window)), &rc);
    check(amber_coder_encode_bool(coder, "gtk.fullscreen", gtk_window_is_fullscreen(w->window)), &rc);
    char *focus = widget_path(w->window, gtk_root_get_focus(GTK_ROOT(w->window)));
    if (focus != NULL) check(amber_coder_encode_string(coder, "gtk.focus", focus), &rc);
    if (focus != NULL) check(amber_coder_encode_bool(coder, "gtk.focus-visible", gtk_window_get_focus_visible(w->window)), &rc);
    g_free(focus);
    if (w->shape->len > 0) check(amber_coder_encode_string(coder, "gtk.shape", w->shape->str), &rc);
    return rc;
}

static guint count_lines(const char *text) {
    guint lines = 0;
    for (; *text != '\0'; text++) lines += *text == '\n';
    return lines;
}

/* Compares the shape the window was saved with (its unnamed widgets' automatic identifiers)
 * with its shape now: when they differ (another version of the program), its unnamed widgets
 * get no state (applies()), and a line says so. Decoded before its views (parents first, R12). */
static void check_shape(WindowEntry *w, amber_decoder *decoder) {
    const char *saved = NULL;
    if (amber_decoder_decode_string(&saved, decoder, "gtk.shape") != AMBER_OK) saved = "";
    w->shape_changed = strcmp(saved, w->shape->str) != 0;
    if (w->shape_changed && saved[0] != '\0')
        g_printerr("amber-gtk: %s: the interface changed since the save (%u unnamed widgets with state then, %u now, "
                   "not in the same places): the state of its unnamed widgets is not restored\n",
                   w->name, count_lines(saved), count_lines(w->shape->str));
}

/*
 * A program that keeps its window's size in its own settings may set it after the adapter
 * restored it, before the window shows. The program's size is kept: the adapter does not set its
 * own again (no fight over the size), and one line says so. The watch ends when the window
 * first shows: a size set after that is the user's, or the program's, as usual.
 */
#define SIZE_WATCH_KEY "amber-gtk-size-watch"

typedef struct SizeWatch {
    char *window;
    int width;
    int height;
} SizeWatch;

static void size_watch_free(gpointer data) {
    SizeWatch *watch = data;
    g_free(watch->window);
    g_free(watch);
}

static void end_size_watch(GtkWidget *window) {
    SizeWatch *watch = g_object_get_data(G_OBJECT(window), SIZE_WATCH_KEY);
    if (watch == NULL) return;
    g_signal_handlers_disconnect_by_data(window, watch);
    g_object_set_data(G_OBJECT(window), SIZE_WATCH_KEY, NULL); /* frees it */
}

static void on_size_set_after_restore(GtkWindow *window, GParamSpec *pspec, gpointer data) {
    (void)pspec;
    SizeWatch *watch = data;
    int width = 0, height = 0;
    gtk_window_get_default_size(window, &width, &height);
    if (width == watch->width && height == watch->height) return;
    g_printerr("amber-gtk: %s: the program set its own size, %dx%d, after the restore gave it %dx%d: the program's is kept\n",
               watch->window, width, height, watch->width, watch->height);
    end_size_watch(GTK_WIDGET(window));
}

static void on_watched_window_map(GtkWidget *window, gpointer data) {
    (void)data;
    end_size_watch(window);
}

/* Watches, until `w`'s window first shows, for the program setting its size after the restore
 * gave it `width`x`height`. */
static void watch_size_until_shown(WindowEntry *w, int width, int height) {
    GtkWidget *window = GTK_WIDGET(w->window);
    end_size_watch(window);
    if (gtk_widget_get_mapped(window)) return;
    SizeWatch *watch = g_new0(SizeWatch, 1);
    watch->window = g_strdup(w->name);
    watch->width = width;
    watch->height = height;
    g_object_set_data_full(G_OBJECT(window), SIZE_WATCH_KEY, watch, size_watch_free);
    g_signal_connect(window, "notify::default-width", G_CALLBACK(on_size_set_after_restore), watch);
    g_signal_connect(window, "notify::default-height", G_CALLBACK(on_size_set_after_restore), watch);
    g_signal_connect(window, "map", G_CALLBACK(on_watched_window_map), watch);
}

static int window_decode(amber_object *object, amber_decoder *decoder, void *ctx) {
    (void)object;
    WindowEntry *w = ctx;
    int64_t width = 0, height = 0;
    int flag = 0;
    const char *focus = NULL;
    if (amber_decoder_decode_int64(&width, decoder, "gtk.width") == AMBER_OK &&
        amber_decoder_decode_int64(&height, decoder, "gtk.height") == AMBER_OK && width > 0 && height > 0 &&
        width <= G_MAXINT && height <= G_MAXINT) {
        gtk_window_set_default_size(w->window, (int)width, (int)height);
        watch_size_until_shown(w, (int)width, (int)height);
    }
    if (amber_decoder_decode_bool(&flag, decoder, "gtk.maximized") == AMBER_OK && flag) gtk_window_maximize(w->window);
    if (amber_decoder_decode_bool(&flag, decoder, "gtk.fullscreen") == AMBER_OK && flag) gtk_window_fullscreen(w->window);
    if (amber_decoder_decode_string(&focus, decoder, "gtk.focus") == AMBER_OK) {
        g_free(w->focus);
        w->focus = g_strdup(focus);
        w->focus_visible = amber_decoder_decode_bool(&flag, decoder, "gtk.focus-visible") == AMBER_OK && flag;
    }
    check_shape(w, decoder);
    return AMBER_OK;
}

/* ---- following the widgets: objects made, renamed and freed ------------------------------- */

/* The marshaller of every signal hooked below, whatever its parameters: the first is the
 * instance that emitted it, and the closure's data the application. */
static void on_change(GClosure *closure, GValue *return_value, guint n_params, const GValue *params,
                      gpointer hint, gpointer marshal_data) {
    (void)return_value;
    (void)hint;
    (void)marshal_data;
    AmberGtk *gtk = amber_gtk_from_application(closure->data);
    if (gtk != NULL && n_params > 0) changed(gtk, g_value_get_object(&params[0]));
}

static void hook(gpointer instance, const char *signal, GtkApplication *app) {
    /* Invalidated when the application goes, as g_signal_connect_object() would. */
    GClosure *closure = g_closure_new_object(sizeof(GClosure), G_OBJECT(app));
    g_closure_set_marshal(closure, on_change);
    g_signal_connect_closure(instance, signal, closure, FALSE);
}

/* Connects, once per object, the signals that tell the adapter a widget's state changed. */
static void hook_once(GObject *object, GtkApplication *app) {
    if (object == NULL || g_object_get_data(object, HOOKED_KEY) != NULL) return;
    g_object_set_data(object, HOOKED_KEY, GINT_TO_POINTER(1));
    if (GTK_IS_WIDGET(object)) widget_kind_hook(GTK_WIDGET(object), hook, app);
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS /* a tree view's selection: GtkTreeView is deprecated from 4.10 on */
    if (GTK_IS_TREE_SELECTION(object)) hook(object, "changed", app);
    G_GNUC_END_IGNORE_DEPRECATIONS
    if (GTK_IS_ADJUSTMENT(object)) hook(object, "value-changed", app);
    else if (GTK_IS_SELECTION_MODEL(object)) hook(object, "selection-changed", app);
    else if (GTK_IS_TEXT_BUFFER(object)) { hook(object, "changed", app); hook(object, "mark-set", app); }
    else if (GTK_IS_WINDOW(object)) {
        hook(object, "notify::default-width", app);
        hook(object, "notify::default-height", app);
        hook(object, "notify::maximized", app);
        hook(object, "notify::fullscreened", app);
    } else if (GTK_IS_EDITABLE(object)) {
        hook(object, "notify::cursor-position", app);
        hook(object, "notify::selection-bound", app);
        hook(object, "changed", app);
    } else if (GTK_IS_NOTEBOOK(object)) hook(object, "switch-page", app);
    else if (GTK_IS_STACK(object)) hook(object, "notify::visible-child", app);
    else if (GTK_IS_PANED(object)) hook(object, "notify::position", app);
    else if (GTK_IS_EXPANDER(object)) hook(object, "notify::expanded", app);
    else if (GTK_IS_DROP_DOWN(object)) hook(object, "notify::selected", app);
    else if (GTK_IS_CHECK_BUTTON(object) || GTK_IS_TOGGLE_BUTTON(object) || GTK_IS_SWITCH(object))
        hook(object, "notify::active", app);
    else if (GTK_IS_WIDGET(object) && is_list(GTK_WIDGET(object)))
        hook(object, "notify::model", app); /* the save that follows hooks the new model */
}

/* Hooks an object that belongs to `widget` (an adjustment, a model, a buffer), and remembers
 * the widget, whose object is the one marked dirty when it changes. */
static void hook_part(GObject *object, GtkWidget *widget, GtkApplication *app) {
    if (object == NULL) return;
    hook_once(object, app);
    g_object_set_data(object, OWNER_KEY, widget);
}

/* The objects whose signals say that `widget`'s state changed (the model and adjustments may be
 * replaced, so this runs at every walk; hook_once connects each object once). */
static void hook_widget(GtkWidget *widget, GtkApplication *app) {
    hook_once(G_OBJECT(widget), app);
    if (GTK_IS_SCROLLED_WINDOW(widget)) {
        hook_part(G_OBJECT(gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(widget))), widget, app);
        hook_part(G_OBJECT(gtk_scrolled_window_get_hadjustment(GTK_SCROLLED_WINDOW(widget))), widget, app);
    }
    if (GTK_IS_SCROLLABLE(widget)) {
        hook_part(G_OBJECT(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(widget))), widget, app);
        hook_part(G_OBJECT(gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(widget))), widget, app);
    }
    if (is_list(widget)) hook_part(G_OBJECT(list_model(widget)), widget, app);
    if (GTK_IS_TEXT_VIEW(widget)) hook_part(G_OBJECT(gtk_text_view_get_buffer(GTK_TEXT_VIEW(widget))), widget, app);
    hook_part(widget_kind_part(widget), widget, app);
}

static void view_entry_free(void *data) {
    ViewEntry *entry = data;
    if (entry->widget != NULL) g_object_remove_weak_pointer(G_OBJECT(entry->widget), (gpointer *)&entry->widget);
    g_free(entry->identifier);
    g_free(entry->selected);
    g_free(entry->selected_paths);
    g_free(entry->item_identifier);
    g_free(entry);
}

static void report_failure(const char *what, const char *name) {
    g_printerr("amber-gtk: %s %s: %s\n", what, name, amber_error_last());
}

/* Makes the object of a restorable widget at `identifier`. */
static void add_view(WindowEntry *w, GtkWidget *widget, const char *identifier, gboolean automatic) {
    AmberGtk *gtk = w->gtk;
    ViewEntry *entry = g_new0(ViewEntry, 1);
    entry->window = w;
    entry->widget = widget;
    entry->identifier = g_strdup(identifier);
    entry->automatic = automatic;
    entry->seen = TRUE;
    entry->saved_first_visible = -1;
    g_object_add_weak_pointer(G_OBJECT(widget), (gpointer *)&entry->widget);
    amber_object_callbacks callbacks = AMBER_OBJECT_CALLBACKS_INIT;
    callbacks.encode = view_encode;
    callbacks.decode = view_decode;
    if (amber_object_new(&entry->object, gtk->engine, AMBER_KIND_VIEW, G_OBJECT_TYPE_NAME(widget), identifier,
                         &callbacks, entry, view_entry_free) != AMBER_OK) {
        report_failure("cannot make the object of", identifier);
        view_entry_free(entry);
        return;
    }
    amber_view_accessors accessors = AMBER_VIEW_ACCESSORS_INIT;
    amber_view_kind kind = view_kind(widget);
    switch (kind) {
    case AMBER_VIEW_TABLE:
    case AMBER_VIEW_COLLECTION:
        accessors.read = list_read;
        accessors.apply = list_apply;
        break;
    case AMBER_VIEW_TEXT_VIEW:
        accessors.read = text_view_read;
        accessors.apply = text_view_apply;
        accessors.text_length = text_view_length;
        break;
    case AMBER_VIEW_TEXT_FIELD:
        accessors.read = text_field_read;
        accessors.apply = text_field_apply;
        accessors.text_length = text_field_length;
        break;
    case AMBER_VIEW_SCROLL:
        accessors.read = scroll_read;
        accessors.apply = scroll_apply;
        break;
    default:
        break;
    }
    if (accessors.read != NULL && amber_object_set_view_accessors(entry->object, kind, &accessors, entry, NULL) != AMBER_OK)
        report_failure("cannot give accessors to", identifier);
    if (is_list(widget)) {
        amber_model_association association = AMBER_MODEL_ASSOCIATION_INIT;
        association.identifier_for_index_path = list_identifier_for_index_path;
        association.index_path_for_identifier = list_index_path_for_identifier;
        if (amber_object_set_model_association(entry->object, &association, entry, NULL) != AMBER_OK)
            report_failure("cannot give a model association to", identifier);
    }
    if (amber_object_add_view(w->root, entry->object) != AMBER_OK) report_failure("cannot add the view", identifier);
    g_hash_table_insert(w->views, widget, entry);
}

/* Where the walk is: the path of the nearest named ancestor ("" for the window), and how many
 * widgets of each type it has met under that ancestor (for automatic identifiers). */
typedef struct Scope {
    const char *prefix;
    GHashTable *counts; /* type name -> count */
} Scope;

/* The automatic identifier of an unnamed widget under `scope`: its type and its index among the
 * widgets of its type met so far under the nearest named ancestor ("GtkPaned.1"), newly
 * allocated. Counting every widget of the type, restorable or not, keeps the index of one
 * widget from depending on another's options. */
static char *automatic_identifier(Scope *scope, GtkWidget *widget) {
    const char *type = G_OBJECT_TYPE_NAME(widget);
    guint index = GPOINTER_TO_UINT(g_hash_table_lookup(scope->counts, type));
    g_hash_table_insert(scope->counts, (gpointer)type, GUINT_TO_POINTER(index + 1));
    char *name = g_strdup_printf("%s.%u", type, index);
    char *path = scope->prefix[0] ? g_strconcat(scope->prefix, "/", name, NULL) : g_strdup(name);
    g_free(name);
    return path;
}

/* Makes or keeps the object of the restorable widget at `path`. */
static void follow_view(WindowEntry *w, GtkWidget *widget, const char *path, gboolean automatic) {
    ViewEntry *entry = g_hash_table_lookup(w->views, widget);
    if (entry != NULL && strcmp(entry->identifier, path) == 0) {
        entry->seen = TRUE;
    } else {
        /* New, or renamed: a renamed widget is another object. */
        if (entry != NULL) {
            g_hash_table_remove(w->views, widget);
            amber_object_free(entry->object);
        }
        add_view(w, widget, path, automatic);
    }
    hook_widget(widget, w->gtk->app);
}

static void walk(WindowEntry *w, GtkWidget *parent, Scope *scope);

/* Visits `child`: its object if it has state to keep and an identifier, then its children. */
static void visit(WindowEntry *w, GtkWidget *child, Scope *scope) {
    AmberGtk *gtk = w->gtk;
    const char *name = widget_name(child);
    gboolean automatic_names = (gtk->options & AMBER_GTK_AUTO_NAMES) != 0;
    if (name != NULL) {
        char *path = scope->prefix[0] ? g_strconcat(scope->prefix, "/", name, NULL) : g_strdup(name);
        if (is_restorable(gtk, child)) follow_view(w, child, path, FALSE);
        /* A named widget starts a scope of its own: widgets added elsewhere do not shift the
         * automatic identifiers under it. */
        Scope inner = {path, g_hash_table_new(g_str_hash, g_str_equal)};
        if (!is_leaf(child)) walk(w, child, &inner);
        g_hash_table_unref(inner.counts);
        g_free(path);
        return;
    }
    if (automatic_names) {
        char *path = automatic_identifier(scope, child);
        if (is_restorable(gtk, child)) {
            follow_view(w, child, path, TRUE);
            g_string_append_printf(w->shape, "%s\n", path);
        }
        g_free(path);
    }
    if (!is_leaf(child)) walk(w, child, scope);
}

/* Walks the program's widgets under `parent`. */
static void walk(WindowEntry *w, GtkWidget *parent, Scope *scope) {
    GPtrArray *children = g_ptr_array_new();
    program_children(parent, children);
    for (guint i = 0; i < children->len; i++) visit(w, children->pdata[i], scope);
    g_ptr_array_unref(children);
}

static gboolean sweep_unseen(gpointer key, gpointer value, gpointer data) {
    (void)key;
    (void)data;
    ViewEntry *entry = value;
    if (entry->seen && entry->widget != NULL) return FALSE;
    amber_object_free(entry->object);
    return TRUE;
}

static void mark_unseen(gpointer key, gpointer value, gpointer data) {
    (void)key;
    (void)data;
    ((ViewEntry *)value)->seen = FALSE;
}

/* Brings a window's objects up to date with its widgets. */
static void sync_window(WindowEntry *w) {
    g_hash_table_foreach(w->views, mark_unseen, NULL);
    g_string_truncate(w->shape, 0);
    Scope scope = {"", g_hash_table_new(g_str_hash, g_str_equal)};
    walk(w, GTK_WIDGET(w->window), &scope);
    g_hash_table_unref(scope.counts);
    g_hash_table_foreach_remove(w->views, sweep_unseen, NULL);
}

static gboolean free_view_object(gpointer key, gpointer value, gpointer data) {
    (void)key;
    (void)data;
    amber_object_free(((ViewEntry *)value)->object);
    return TRUE;
}

/* Frees a window's objects (the window leaves the tree). Called from the hash table. */
static void window_entry_free(gpointer data) {
    WindowEntry *w = data;
    g_hash_table_foreach_remove(w->views, free_view_object, NULL);
    g_hash_table_unref(w->views);
    amber_engine_remove_root(w->gtk->engine, w->root);
    amber_object_free(w->root);
    g_free(w->name);
    g_free(w->focus);
    g_string_free(w->shape, TRUE);
    g_free(w);
}

/* The identifiers of the windows taking part (copies: a window's may change meanwhile). */
static GHashTable *window_names_in_use(AmberGtk *gtk) {
    GHashTable *used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GHashTableIter iter;
    gpointer value;
    g_hash_table_iter_init(&iter, gtk->windows);
    while (g_hash_table_iter_next(&iter, NULL, &value)) g_hash_table_add(used, g_strdup(((WindowEntry *)value)->name));
    return used;
}

/* The line that says how an unnamed window found its saved state, when its type had more than
 * one window saved (else there was no choice to tell). `why`: why not by its title, or NULL. */
static void report_match(AmberGtk *gtk, const char *identifier, const char *title, const char *why) {
    char *type = window_type_of(identifier);
    if (saved_windows_count(gtk->saved_windows, type) > 1) {
        if (why == NULL) g_printerr("amber-gtk: %s: its state matched by title (\"%s\")\n", identifier, title);
        else g_printerr("amber-gtk: %s: its state matched by order: %s\n", identifier, why);
    }
    g_free(type);
}

/* The identifier of an unnamed window that first takes part after the restoration: the kept
 * record of its type (R35) whose saved title is its title, else the lowest index free. */
static char *late_window_name(AmberGtk *gtk, GtkWindow *window, const char *type) {
    GHashTable *used = window_names_in_use(gtk);
    const char *title = gtk_window_get_title(window);
    char *why = NULL;
    const char *by_title = saved_windows_by_title(gtk->saved_windows, type, title, used, gtk->kept_windows, &why);
    char *name = by_title != NULL ? g_strdup(by_title) : window_identifier_by_order(type, used);
    if (g_hash_table_contains(gtk->kept_windows, name)) report_match(gtk, name, title, why);
    saved_windows_take(gtk->saved_windows, name);
    g_free(why);
    g_hash_table_unref(used);
    return name;
}

/*
 * A window's identifier: its name, else its type's name (a program with one main window need
 * not name it). Unnamed windows of one type open at once (two editors) are told apart by their
 * titles, else by the order they took part in: the first is "GtkApplicationWindow", the next
 * "GtkApplicationWindow.1", and so on, the lowest index free. Before the restoration they are
 * named by order, and match_unnamed_windows() gives them the saved windows' identifiers once it
 * has read their titles; a window that shows later takes a kept record's (late_window_name()).
 * The identifier is kept on the window, so that it does not change while the window lives when
 * another closes.
 */
static const char *window_name(AmberGtk *gtk, GtkWindow *window) {
    const char *name = widget_name(GTK_WIDGET(window));
    if (name != NULL) return name;
    const char *given = g_object_get_data(G_OBJECT(window), WINDOW_NAME_KEY);
    if (given != NULL) return given;
    char *candidate = NULL;
    if (gtk->restored) {
        candidate = late_window_name(gtk, window, G_OBJECT_TYPE_NAME(window));
    } else {
        GHashTable *used = window_names_in_use(gtk);
        candidate = window_identifier_by_order(G_OBJECT_TYPE_NAME(window), used);
        g_hash_table_unref(used);
    }
    g_object_set_data_full(G_OBJECT(window), WINDOW_NAME_KEY, candidate, g_free);
    return candidate;
}

/* The entry of a window, made if needed (NULL if its object cannot be made). */
static WindowEntry *window_entry(AmberGtk *gtk, GtkWindow *window) {
    WindowEntry *w = g_hash_table_lookup(gtk->windows, window);
    const char *name = window_name(gtk, window);
    if (w != NULL && strcmp(w->name, name) == 0) return w;
    if (w != NULL) g_hash_table_remove(gtk->windows, window); /* renamed */
    w = g_new0(WindowEntry, 1);
    w->gtk = gtk;
    w->window = window;
    w->name = g_strdup(name);
    w->views = g_hash_table_new(g_direct_hash, g_direct_equal);
    w->shape = g_string_new(NULL);
    amber_object_callbacks callbacks = AMBER_OBJECT_CALLBACKS_INIT;
    callbacks.encode = window_encode;
    callbacks.decode = window_decode;
    if (amber_object_new(&w->root, gtk->engine, AMBER_KIND_CONTROLLER, G_OBJECT_TYPE_NAME(window), name, &callbacks,
                         w, NULL) != AMBER_OK) {
        report_failure("cannot make the object of window", name);
        g_hash_table_unref(w->views);
        g_string_free(w->shape, TRUE);
        g_free(w->name);
        g_free(w);
        return NULL;
    }
    if (g_hash_table_contains(gtk->makers, name)) {
        char *class_name = g_strconcat(CLASS_PREFIX, name, NULL);
        amber_object_set_restoration_class(w->root, class_name);
        g_free(class_name);
    }
    const char *blueprint = g_object_get_data(G_OBJECT(window), BLUEPRINT_KEY);
    if (blueprint != NULL) amber_object_set_blueprint(w->root, blueprint);
    if (amber_engine_add_root(gtk->engine, w->root) != AMBER_OK) report_failure("cannot add window", name);
    g_hash_table_insert(gtk->windows, window, w);
    hook_once(G_OBJECT(window), gtk->app);
    return w;
}

/* The unnamed windows taking part, oldest first: the order they fall back to. */
static GPtrArray *unnamed_windows(AmberGtk *gtk) {
    GPtrArray *unnamed = g_ptr_array_new();
    GList *windows = g_list_reverse(g_list_copy(gtk_application_get_windows(gtk->app)));
    for (GList *l = windows; l != NULL; l = l->next) {
        WindowEntry *w = g_hash_table_lookup(gtk->windows, l->data);
        if (w != NULL && widget_name(GTK_WIDGET(w->window)) == NULL) g_ptr_array_add(unnamed, w);
    }
    g_list_free(windows);
    return unnamed;
}

/* Gives an unnamed window the identifier of the saved window it matched: its entry, the name
 * kept on it, and its object, whose records the engine then finds by it. */
static void rename_window(WindowEntry *w, const char *identifier) {
    if (strcmp(w->name, identifier) == 0) return;
    g_object_set_data_full(G_OBJECT(w->window), WINDOW_NAME_KEY, g_strdup(identifier), g_free);
    g_free(w->name);
    w->name = g_strdup(identifier);
    if (amber_object_set_identifier(w->root, identifier) != AMBER_OK) report_failure("cannot rename window", identifier);
}

/* `w` takes `identifier` (a saved window's, or the lowest index free): it is used from now on. */
static void take_window_name(AmberGtk *gtk, WindowEntry *w, const char *identifier, GHashTable *used, const char *why) {
    char *name = g_strdup(identifier); /* `identifier` may be a saved window's, or `used`'s */
    gboolean saved = saved_windows_take(gtk->saved_windows, name);
    g_hash_table_add(used, g_strdup(name));
    rename_window(w, name);
    if (saved) report_match(gtk, name, gtk_window_get_title(w->window), why);
    g_free(name);
}

/*
 * At the restoration, once the saved windows are read and before the engine looks for the
 * object of each record (should_restore): each unnamed window taking part takes the saved
 * window of its type with its title, then those left take the others by order. Titles first,
 * for all, so that a window that falls back to the order never takes the saved window that
 * another's title matches.
 */
static void match_unnamed_windows(AmberGtk *gtk) {
    GPtrArray *unnamed = unnamed_windows(gtk);
    GHashTable *used = window_names_in_use(gtk);
    for (guint i = 0; i < unnamed->len; i++) g_hash_table_remove(used, ((WindowEntry *)unnamed->pdata[i])->name);
    GPtrArray *left = g_ptr_array_new(), *whys = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < unnamed->len; i++) {
        WindowEntry *w = unnamed->pdata[i];
        char *why = NULL;
        const char *by_title = saved_windows_by_title(gtk->saved_windows, G_OBJECT_TYPE_NAME(w->window),
                                                      gtk_window_get_title(w->window), used, NULL, &why);
        if (by_title != NULL) {
            take_window_name(gtk, w, by_title, used, NULL);
        } else {
            g_ptr_array_add(left, w);
            g_ptr_array_add(whys, why);
        }
    }
    for (guint i = 0; i < left->len; i++) {
        WindowEntry *w = left->pdata[i];
        char *name = window_identifier_by_order(G_OBJECT_TYPE_NAME(w->window), used);
        take_window_name(gtk, w, name, used, whys->pdata[i]);
        g_free(name);
    }
    g_ptr_array_unref(whys);
    g_ptr_array_unref(left);
    g_ptr_array_unref(unnamed);
    g_hash_table_unref(used);
}

/* The application delegate's will_encode: the identifier and title of every unnamed window,
 * those taking part and those whose records the save carries (kept for a window that shows
 * later, R35), for the next launch to match them by title. Not written, the windows match by
 * order: a line says so, and the save goes on. */
static int write_unnamed_windows(amber_engine *engine, amber_coder *app_coder, void *ctx) {
    (void)engine;
    AmberGtk *gtk = ctx;
    GArray *windows = g_array_new(FALSE, FALSE, sizeof(UnnamedWindow));
    GPtrArray *unnamed = unnamed_windows(gtk);
    for (guint i = 0; i < unnamed->len; i++) {
        WindowEntry *w = unnamed->pdata[i];
        UnnamedWindow window = {w->name, gtk_window_get_title(w->window)};
        g_array_append_val(windows, window);
    }
    saved_windows_carried(gtk->saved_windows, gtk->kept_windows, windows);
    if (saved_windows_write(app_coder, (const UnnamedWindow *)(void *)windows->data, windows->len) != AMBER_OK)
        g_printerr("amber-gtk: the titles of the unnamed windows were not saved (they will match by order): %s\n",
                   amber_error_last());
    g_ptr_array_unref(unnamed);
    g_array_unref(windows);
    return AMBER_OK;
}

/* The application delegate's should_restore: reads the unnamed windows saved and matches the
 * windows taking part to them. Always restores (R9: the engine refuses another program's
 * archive itself). */
static int read_unnamed_windows(amber_engine *engine, amber_decoder *app_decoder, void *ctx) {
    (void)engine;
    AmberGtk *gtk = ctx;
    saved_windows_read(gtk->saved_windows, app_decoder);
    match_unnamed_windows(gtk);
    return 1;
}

/* Brings every window's objects up to date. `with_hidden`: also windows not shown (yet), as at
 * restoration, when the host built its windows and has not presented them. */
static void sync_all(AmberGtk *gtk, gboolean with_hidden) {
    /* Oldest first (GTK lists the most recently focused first, the newest before any focus): the
     * order that tells unnamed windows of one type apart (window_name()). */
    GList *windows = g_list_reverse(g_list_copy(gtk_application_get_windows(gtk->app)));
    for (GList *l = windows; l != NULL; l = l->next) {
        GtkWindow *window = l->data;
        gboolean takes_part = (with_hidden || gtk_widget_get_visible(GTK_WIDGET(window))) &&
                              g_object_get_data(G_OBJECT(window), CLOSED_KEY) == NULL;
        WindowEntry *w = takes_part ? window_entry(gtk, window) : NULL;
        if (w != NULL) sync_window(w);
        else g_hash_table_remove(gtk->windows, window);
    }
    /* Windows no longer in the application. */
    GHashTableIter iter;
    gpointer key;
    g_hash_table_iter_init(&iter, gtk->windows);
    while (g_hash_table_iter_next(&iter, &key, NULL))
        if (g_list_find(windows, key) == NULL) g_hash_table_iter_remove(&iter);
    g_list_free(windows);
}

/* ---- saving ---------------------------------------------------------------------------------- */

/* A line on stderr, once per process, for each widget a save left out because two widgets of a
 * window have the same path (R3) or because its state could not be written. */
static void report_left_out(AmberGtk *gtk) {
    amber_preservation *report = NULL;
    if (amber_engine_preservation(&report, gtk->engine) != AMBER_OK) return;
    for (size_t i = 0, n = amber_preservation_count(report); i < n; i++) {
        amber_preservation_entry entry;
        if (amber_preservation_entry_at(&entry, report, i) != AMBER_OK) continue;
        if (entry.left_out != AMBER_LEFT_OUT_DUPLICATE_PATH && entry.left_out != AMBER_LEFT_OUT_ENCODE_FAILED) continue;
        GString *line = g_string_new("amber-gtk: not saved: ");
        for (size_t k = 0; k < entry.path_length; k++) g_string_append_printf(line, "%s%s", k ? "/" : "", entry.path[k]);
        g_string_append_printf(line, ": %s", entry.message);
        if (!g_hash_table_contains(gtk->left_out_lines, line->str)) {
            g_printerr("%s\n", line->str);
            g_hash_table_add(gtk->left_out_lines, g_strdup(line->str));
        }
        g_string_free(line, TRUE);
    }
    amber_preservation_free(report);
}

/*
 * When changes are saved is the engine's: the signals hooked above mark objects dirty
 * (amber_object_mark_dirty(), R32), and the engine's autosave policy makes a save due a quiet
 * time after the last change. GLib's main loop is the event loop the engine has not: a timeout
 * waits for amber_engine_autosave_timeout(), then amber_engine_tick() saves.
 */

static void schedule_autosave(AmberGtk *gtk);

/* Saves the interface now; `why` is for the error line. */
static int save(AmberGtk *gtk, const char *why) {
    /* A save before the restoration (the program ended before its first window showed) reads
     * the archive first: what it holds is carried into the new one (kept records, R35) rather
     * than lost. */
    if (!gtk->restored) amber_gtk_restore(NULL, gtk);
    sync_all(gtk, FALSE);
    int saved = 0;
    int rc = amber_engine_preserve(&saved, gtk->engine);
    if (rc != AMBER_OK) g_printerr("amber-gtk: saving %s failed: %s\n", why, amber_error_last());
    else report_left_out(gtk);
    /* The save took the changes marked before it: no autosave is due, unless it failed. */
    schedule_autosave(gtk);
    return rc;
}

static gboolean on_autosave(gpointer data) {
    AmberGtk *gtk = data;
    gtk->autosave_source = 0;
    int due = -1;
    if (amber_engine_autosave_timeout(&due, gtk->engine) == AMBER_OK && due == 0) {
        /* The objects follow the widgets before the save, as for any other save. */
        sync_all(gtk, FALSE);
        int saved = 0;
        if (amber_engine_tick(&saved, gtk->engine) != AMBER_OK)
            g_printerr("amber-gtk: saving after a change failed: %s\n", amber_error_last());
        else if (saved) report_left_out(gtk);
    }
    /* Not due yet (the timeout fired early), or a failed save to try again. */
    schedule_autosave(gtk);
    return G_SOURCE_REMOVE;
}

/* Waits in the main loop for the engine's autosave, as long as it asks; nothing when nothing is
 * to be saved. */
static void schedule_autosave(AmberGtk *gtk) {
    if (gtk->autosave_source != 0) g_source_remove(gtk->autosave_source);
    gtk->autosave_source = 0;
    int timeout = -1;
    if (gtk->quitting || amber_engine_autosave_timeout(&timeout, gtk->engine) != AMBER_OK || timeout < 0) return;
    gtk->autosave_source = g_timeout_add((guint)timeout, on_autosave, gtk);
}

/* The object whose state `instance` is part of: a window's root, a widget's view, or the view of
 * the widget an adjustment, a model or a buffer was hooked for; NULL if it has none (yet). */
static amber_object *object_of(AmberGtk *gtk, gpointer instance) {
    WindowEntry *w = g_hash_table_lookup(gtk->windows, instance);
    if (w != NULL) return w->root;
    gpointer widget = GTK_IS_WIDGET(instance) ? instance : g_object_get_data(G_OBJECT(instance), OWNER_KEY);
    if (widget == NULL) return NULL;
    GHashTableIter iter;
    gpointer value;
    g_hash_table_iter_init(&iter, gtk->windows);
    while (g_hash_table_iter_next(&iter, NULL, &value)) {
        ViewEntry *entry = g_hash_table_lookup(((WindowEntry *)value)->views, widget);
        if (entry != NULL) return entry->object;
    }
    return NULL;
}

/* Marks `object` dirty, or, when the change belongs to no object (a window added or removed,
 * whose objects need no mark), the root of a window taking part, so that a save is due. */
static void mark_dirty(AmberGtk *gtk, amber_object *object) {
    if (object == NULL) {
        GHashTableIter iter;
        gpointer value;
        g_hash_table_iter_init(&iter, gtk->windows);
        if (g_hash_table_iter_next(&iter, NULL, &value)) object = ((WindowEntry *)value)->root;
    }
    if (object == NULL) return; /* no window takes part: nothing to save */
    if (amber_object_mark_dirty(object) != AMBER_OK) report_failure("cannot mark dirty", amber_object_identifier(object));
    /* A waiting timer stays: a change only moves the save later, and on_autosave asks the engine
     * again when it fires before the save is due. */
    if (gtk->autosave_source == 0) schedule_autosave(gtk);
}

/* Whether changes are followed now: after restoration, and not while quitting. */
static gboolean tracking(const AmberGtk *gtk) { return gtk->restored && !gtk->restoring && !gtk->quitting; }

/* A hooked signal: `instance` (a widget, a window, an adjustment, a model, a buffer) changed. */
static void changed(AmberGtk *gtk, gpointer instance) {
    if (!tracking(gtk)) return;
    mark_dirty(gtk, object_of(gtk, instance));
}

/* Whether `window` is transient for `other`, directly or through other windows. */
static gboolean is_transient_for(GtkWindow *window, GtkWindow *other) {
    for (GtkWindow *parent = gtk_window_get_transient_for(window); parent != NULL;
         parent = gtk_window_get_transient_for(parent))
        if (parent == other) return TRUE;
    return FALSE;
}

static gboolean on_close_request(GtkWindow *window, GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    if (gtk == NULL || gtk->quitting) return FALSE;
    /* Another main window stays open: this one closes alone, and is saved as closed. */
    gboolean others = FALSE;
    for (GList *l = gtk_application_get_windows(app); l != NULL; l = l->next) {
        GtkWindow *other = l->data;
        if (other != window && gtk_widget_get_visible(GTK_WIDGET(other)) && !is_transient_for(other, window) &&
            g_object_get_data(G_OBJECT(other), CLOSED_KEY) == NULL)
            others = TRUE;
    }
    if (others) {
        g_object_set_data(G_OBJECT(window), CLOSED_KEY, GINT_TO_POINTER(1));
        save(gtk, "on closing a window");
        return FALSE;
    }
    /* The last main window: the application quits with everything open as it is now (unless the
     * window only hides: then the program goes on, and so does saving). */
    save(gtk, "on closing the last window");
    if (!gtk_window_get_hide_on_close(window)) gtk->quitting = TRUE;
    return FALSE;
}

static gboolean restore_when_built(gpointer data) {
    AmberGtk *gtk = data;
    gtk->restore_source = 0;
    if (!gtk->restored) amber_gtk_restore(NULL, gtk);
    return G_SOURCE_REMOVE;
}

/* The first window shown and the program did not restore (nor "activate" or "open" ran): the
 * program builds its windows elsewhere ("command-line", "startup"). Restores once the handler
 * that showed it returned, the window built, and before its first frame: an idle of a higher
 * priority than GTK's layout and drawing. */
static void schedule_restore(AmberGtk *gtk) {
    if (gtk->restored || gtk->restore_source != 0) return;
    gtk->restore_source = g_idle_add_full(G_PRIORITY_HIGH, restore_when_built, gtk, NULL);
}

/* One line for each widget of the window restored with a scroll still to come, its page hidden:
 * Amber's report has it restored, but the user does not see it yet (amber-gtk-scroll.c says
 * when it is applied). */
static void report_pending_scrolls(WindowEntry *w) {
    GHashTableIter iter;
    gpointer key, value;
    g_hash_table_iter_init(&iter, w->views);
    while (g_hash_table_iter_next(&iter, &key, &value)) {
        ViewEntry *entry = value;
        if (entry->widget == NULL || !scroll_waits_for_page(entry->widget)) continue;
        char *path = g_strdup_printf("%s/%s", w->name, entry->identifier);
        report_scroll_when_applied(entry->widget, path);
        g_free(path);
    }
}

static void report_window_pending_scrolls(gpointer key, gpointer value, gpointer data) {
    (void)key;
    (void)data;
    report_pending_scrolls(value);
}

/* A window that first shows after the launch claims the state kept for it (R35: the records no
 * object claimed at launch, which the host keeps with amber_engine_keep_unclaimed()): a second
 * window, a dialog. Nothing kept for it is not an error. */
static void claim_window_state(WindowEntry *w) {
    if (w->claimed) return;
    w->claimed = TRUE;
    g_hash_table_remove(w->gtk->kept_windows, w->name);
    sync_window(w);
    int rc = amber_object_restore_pending(w->root);
    if (rc == AMBER_NOT_FOUND) return;
    if (rc != AMBER_OK) {
        g_printerr("amber-gtk: window %s shown later: its state not claimed: %s\n", w->name, amber_error_last());
        return;
    }
    report_pending_scrolls(w);
    focus_restored(w->window, w, NULL);
}

/* A window shown (again, for one that hides on close) takes part: its object is made now and
 * marked, so that a save is due with it. */
static void on_window_shown(GtkWidget *window) {
    g_object_set_data(G_OBJECT(window), CLOSED_KEY, NULL);
    AmberGtk *gtk = amber_gtk_from_application(gtk_window_get_application(GTK_WINDOW(window)));
    if (gtk == NULL || gtk->quitting) return;
    if (!gtk->restored) {
        schedule_restore(gtk);
        return;
    }
    if (!tracking(gtk)) return;
    WindowEntry *w = window_entry(gtk, GTK_WINDOW(window));
    if (w == NULL) return;
    claim_window_state(w);
    mark_dirty(gtk, w->root);
}

static void on_window_added(GtkApplication *app, GtkWindow *window) {
    /* After the host's handlers: a handler that keeps the window open (returns TRUE) stops the
     * emission before this one, and nothing is saved as closed. */
    g_signal_connect_object(window, "close-request", G_CALLBACK(on_close_request), app, G_CONNECT_AFTER);
    g_signal_connect(window, "show", G_CALLBACK(on_window_shown), NULL);
    g_object_set_data(G_OBJECT(window), CLOSED_KEY, NULL);
    AmberGtk *gtk = amber_gtk_from_application(app);
    if (gtk != NULL && gtk_widget_get_visible(GTK_WIDGET(window))) on_window_shown(GTK_WIDGET(window));
}

static void on_window_removed(GtkApplication *app, GtkWindow *window) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    if (gtk == NULL) return;
    g_hash_table_remove(gtk->windows, window);
    if (tracking(gtk)) mark_dirty(gtk, NULL);
}

/* The windows whose state was kept and that never showed: one line each, now that their state
 * will not be claimed in this run (`when`: the keep time ended, or the program ends). */
static void report_never_claimed(AmberGtk *gtk, const char *when) {
    GHashTableIter iter;
    gpointer name;
    g_hash_table_iter_init(&iter, gtk->kept_windows);
    while (g_hash_table_iter_next(&iter, &name, NULL))
        g_printerr("amber-gtk: %s not restored: no window %s showed %s\n", (char *)name, (char *)name, when);
    g_hash_table_remove_all(gtk->kept_windows);
}

static gboolean on_keep_time_end(gpointer data) {
    AmberGtk *gtk = data;
    gtk->keep_end_source = 0;
    report_never_claimed(gtk, "before the time its state was kept for ended");
    return G_SOURCE_REMOVE;
}

/* At the keep time's end (when GLib can wait that long: amber-run keeps them for the whole run)
 * the windows not shown get their line. */
static void watch_keep_time(AmberGtk *gtk) {
    if (g_hash_table_size(gtk->kept_windows) == 0 || gtk->keep_unclaimed_ms > G_MAXUINT) return;
    gtk->keep_end_source = g_timeout_add((guint)gtk->keep_unclaimed_ms, on_keep_time_end, gtk);
}

int amber_gtk_keep_unclaimed(AmberGtk *gtk, uint64_t milliseconds) {
    if (gtk == NULL) return AMBER_INVALID_ARGUMENT;
    int rc = amber_engine_keep_unclaimed(gtk->engine, milliseconds);
    if (rc == AMBER_OK) gtk->keep_unclaimed_ms = milliseconds;
    return rc;
}

static void on_shutdown(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    if (gtk == NULL) return;
    if (!gtk->quitting && g_hash_table_size(gtk->windows) > 0) save(gtk, "at shutdown");
    gtk->quitting = TRUE;
    report_never_claimed(gtk, "while the program ran");
    if (gtk->autosave_source != 0) g_source_remove(gtk->autosave_source);
    gtk->autosave_source = 0;
    /* The engine outlives the application: leave it no object of ours. */
    g_hash_table_remove_all(gtk->windows);
}

static gboolean on_terminate(gpointer data) {
    AmberGtk *gtk = data;
    if (!gtk->quitting) save(gtk, "on a signal to terminate");
    gtk->quitting = TRUE;
    g_application_quit(G_APPLICATION(gtk->app));
    return G_SOURCE_CONTINUE;
}

/* After "activate" or "open": the program built its windows in its handlers. ("command-line"
 * stops at its first handler, so a program that builds there is restored when its first
 * window shows, schedule_restore().) */
static void on_activate_after(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    if (gtk != NULL && !gtk->restored) amber_gtk_restore(NULL, gtk);
}

static void on_open_after(GtkApplication *app, gpointer files, int n_files, const char *hint) {
    (void)files;
    (void)n_files;
    (void)hint;
    on_activate_after(app);
}

/* ---- the public functions ------------------------------------------------------------------ */

static int yes_save(amber_engine *engine, amber_coder *coder, void *ctx) {
    (void)engine;
    (void)coder;
    (void)ctx;
    return 1;
}

static int yes_restore(amber_engine *engine, amber_decoder *decoder, void *ctx) {
    (void)engine;
    (void)decoder;
    (void)ctx;
    return 1;
}

/* The application's delegate: saves always; restores always, and matches the unnamed windows
 * when it does. Without the adapter (`gtk` NULL: it is freed, the engine lives on), saves and
 * restores always, nothing more. */
static int set_delegate(amber_engine *engine, AmberGtk *gtk) {
    amber_delegate delegate = AMBER_DELEGATE_INIT;
    delegate.should_save = yes_save;
    delegate.will_encode = gtk != NULL ? write_unnamed_windows : NULL;
    delegate.should_restore = gtk != NULL ? read_unnamed_windows : yes_restore;
    return amber_engine_set_delegate(engine, &delegate, gtk, NULL);
}

static void ui_file_free(gpointer data) {
    UiFile *file = data;
    release_host_context(file->ctx_free, file->ctx);
    g_free(file->path);
    g_free(file);
}

static int make_from_blueprint(amber_object **out, amber_engine *engine, const char *blueprint_id,
                               const char *const *path, size_t path_length, amber_decoder *decoder, void *ctx);

static void adapter_free(gpointer data) {
    AmberGtk *gtk = data;
    if (gtk->autosave_source != 0) g_source_remove(gtk->autosave_source);
    if (gtk->sigterm_source != 0) g_source_remove(gtk->sigterm_source);
    if (gtk->sigint_source != 0) g_source_remove(gtk->sigint_source);
    if (gtk->present_source != 0) g_source_remove(gtk->present_source);
    if (gtk->restore_source != 0) g_source_remove(gtk->restore_source);
    if (gtk->keep_end_source != 0) g_source_remove(gtk->keep_end_source);
    /* The engine outlives the adapter: its delegate no longer reaches it. (An engine closed
     * already refuses the call, harmlessly.) */
    set_delegate(gtk->engine, NULL);
    saved_windows_free(gtk->saved_windows);
    g_hash_table_unref(gtk->kept_windows);
    g_hash_table_unref(gtk->windows);
    g_hash_table_unref(gtk->makers);
    g_hash_table_unref(gtk->ui_files);
    g_ptr_array_unref(gtk->made_windows);
    g_hash_table_unref(gtk->left_out_lines);
    g_free(gtk);
}

AmberGtk *amber_gtk_from_application(GtkApplication *app) {
    return app != NULL ? g_object_get_data(G_OBJECT(app), ADAPTER_KEY) : NULL;
}

AmberGtk *amber_gtk_attach(amber_engine *engine, GtkApplication *app) {
    if (engine == NULL || !GTK_IS_APPLICATION(app)) {
        g_printerr("amber-gtk: attach needs an engine and a GtkApplication\n");
        return NULL;
    }
    if (amber_gtk_from_application(app) != NULL) {
        g_printerr("amber-gtk: this application has an adapter already\n");
        return NULL;
    }
    AmberGtk *gtk = g_new0(AmberGtk, 1);
    gtk->saved_windows = saved_windows_new();
    if (set_delegate(engine, gtk) != AMBER_OK) {
        g_printerr("amber-gtk: cannot set the engine's delegate: %s\n", amber_error_last());
        saved_windows_free(gtk->saved_windows);
        g_free(gtk);
        return NULL;
    }
    gtk->engine = engine;
    gtk->app = app;
    gtk->windows = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, window_entry_free);
    gtk->makers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gtk->ui_files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, ui_file_free);
    gtk->made_windows = g_ptr_array_new_with_free_func(g_object_unref);
    gtk->left_out_lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gtk->kept_windows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_object_set_data_full(G_OBJECT(app), ADAPTER_KEY, gtk, adapter_free);
    g_signal_connect(app, "window-added", G_CALLBACK(on_window_added), NULL);
    g_signal_connect(app, "window-removed", G_CALLBACK(on_window_removed), NULL);
    g_signal_connect(app, "shutdown", G_CALLBACK(on_shutdown), NULL);
    /* After the host's "activate" handlers, whenever they were connected. */
    g_signal_connect_after(app, "activate", G_CALLBACK(on_activate_after), NULL);
    g_signal_connect_after(app, "open", G_CALLBACK(on_open_after), NULL);
    amber_blueprint_factory factory = AMBER_BLUEPRINT_FACTORY_INIT;
    factory.make = make_from_blueprint;
    if (amber_engine_register_blueprint_factory(engine, BUILDER_FACTORY, &factory, gtk, NULL) != AMBER_OK)
        g_printerr("amber-gtk: windows built from .ui files will not come back: %s\n", amber_error_last());
    /*
     * The engine's autosave saves a quiet time after the user's last change, with no minimum
     * interval: every burst of changes is saved soon after it, as the user would expect.
     *
     * Full saves (every encode callback at every save) rather than the dirty objects' alone: the
     * adapter knows which widget a signal came from, and marks that widget's object, but not
     * every change of what the callbacks write. The window's callback writes the focused
     * widget, which moves without a signal hooked here, and the host's own encode callbacks
     * (amber_gtk_set_coding()) write state the adapter cannot watch. A save that wrote again
     * what they wrote before would lose those changes.
     */
    amber_autosave policy = AMBER_AUTOSAVE_INIT;
    policy.quiet_ms = AUTOSAVE_QUIET_MS;
    policy.min_interval_ms = -1;
    policy.full_saves = 1;
    if (amber_engine_set_autosave(engine, &policy) != AMBER_OK)
        g_printerr("amber-gtk: cannot set the engine's autosave: %s\n", amber_error_last());
    gtk->sigterm_source = g_unix_signal_add(SIGTERM, on_terminate, gtk);
    gtk->sigint_source = g_unix_signal_add(SIGINT, on_terminate, gtk);
    return gtk;
}

/* The windows of the report not open at launch, whose records the engine keeps for a window that
 * shows later (R35): their names. */
static GHashTable *windows_kept(const AmberGtk *gtk, amber_report *report) {
    GHashTable *kept = g_hash_table_new(g_str_hash, g_str_equal);
    if (gtk->keep_unclaimed_ms == 0) return kept;
    for (size_t i = 0, n = amber_report_count(report); i < n; i++) {
        amber_report_record record;
        if (amber_report_record_at(&record, report, i) == AMBER_OK && record.path_length == 1 &&
            record.outcome == AMBER_OUTCOME_NOT_FOUND)
            g_hash_table_add(kept, (gpointer)record.path[0]);
    }
    return kept;
}

/* One line on stderr for what did not come back, unless there was simply nothing saved. A window
 * not open at launch whose state is kept for later gets one line saying so, rather than one
 * "not restored" for it and each of its widgets: unmodified programs open many windows late. */
static void report_lines(AmberGtk *gtk, amber_report *report) {
    amber_fresh_reason fresh = amber_report_fresh_reason(report);
    if (fresh != AMBER_FRESH_NONE && fresh != AMBER_FRESH_NO_ARCHIVE) {
        const char *message = amber_report_message(report);
        char *line = g_strdup(message != NULL ? message : "");
        char *newline = strchr(line, '\n');
        if (newline != NULL) *newline = '\0';
        g_printerr("amber-gtk: fresh launch: %s\n", line);
        g_free(line);
        return;
    }
    GHashTable *kept = windows_kept(gtk, report);
    for (size_t i = 0, n = amber_report_count(report); i < n; i++) {
        amber_report_record record;
        if (amber_report_record_at(&record, report, i) != AMBER_OK) continue;
        if (record.outcome == AMBER_OUTCOME_RESTORED && record.dropped_count == 0) continue;
        if (record.path_length > 0 && g_hash_table_contains(kept, record.path[0])) {
            if (record.path_length == 1) {
                g_printerr("amber-gtk: %s: kept for a window that shows later\n", record.path[0]);
                g_hash_table_add(gtk->kept_windows, g_strdup(record.path[0]));
            }
            continue;
        }
        GString *path = g_string_new(NULL);
        for (size_t k = 0; k < record.path_length; k++) g_string_append_printf(path, "%s%s", k ? "/" : "", record.path[k]);
        if (record.outcome == AMBER_OUTCOME_RESTORED)
            g_printerr("amber-gtk: %s: %zu saved item(s) no longer in the list\n", path->str, record.dropped_count);
        else
            g_printerr("amber-gtk: %s not restored: %s\n", path->str, record.message);
        g_string_free(path, TRUE);
    }
    g_hash_table_unref(kept);
}

static void mark_claimed(gpointer key, gpointer value, gpointer data) {
    (void)key;
    (void)data;
    ((WindowEntry *)value)->claimed = TRUE;
}

/* Gives the focus back to the widget that had it, once the windows are restored. */
static void focus_restored(gpointer key, gpointer value, gpointer data) {
    (void)key;
    (void)data;
    WindowEntry *w = value;
    if (w->focus == NULL) return;
    GtkWidget *widget = widget_at_path(GTK_WIDGET(w->window), "", w->focus);
    if (widget != NULL && focus_after_list_scroll(widget, w->focus_visible)) {
        g_clear_pointer(&w->focus, g_free);
        return;
    }
    /* An editable that takes the focus (an entry, a spin button: their GtkText) selects its text:
     * not here, its selection was restored. */
    GtkWidget *text = widget != NULL && GTK_IS_EDITABLE(widget) ? GTK_WIDGET(gtk_editable_get_delegate(GTK_EDITABLE(widget))) : NULL;
    if (text == NULL && widget != NULL && GTK_IS_TEXT(widget)) text = widget;
    if (text != NULL && GTK_IS_TEXT(text)) gtk_text_grab_focus_without_selecting(GTK_TEXT(text));
    else if (widget != NULL) gtk_widget_grab_focus(widget);
    if (widget != NULL) gtk_window_set_focus_visible(w->window, w->focus_visible);
    g_clear_pointer(&w->focus, g_free);
}

/* Presents the windows made on demand again, after the host presented its own: a dialog that
 * was open in front of its window is in front again (also without a window manager). */
static gboolean present_made_windows(gpointer data) {
    AmberGtk *gtk = data;
    for (guint i = 0; i < gtk->made_windows->len; i++) {
        GtkWindow *window = gtk->made_windows->pdata[i];
        if (!gtk_widget_get_visible(GTK_WIDGET(window))) continue;
        gtk_window_present(window);
        /* Presenting may hide the focus ring again: show it as it was. */
        WindowEntry *w = g_hash_table_lookup(gtk->windows, window);
        if (w != NULL && w->focus_visible) gtk_window_set_focus_visible(window, TRUE);
    }
    g_ptr_array_set_size(gtk->made_windows, 0);
    gtk->present_source = 0;
    return G_SOURCE_REMOVE;
}

int amber_gtk_restore(amber_report **out_report, AmberGtk *gtk) {
    if (out_report != NULL) *out_report = NULL;
    if (gtk == NULL) return AMBER_INVALID_ARGUMENT;
    if (gtk->restored) {
        g_printerr("amber-gtk: the interface was restored already\n");
        return AMBER_MISUSE;
    }
    if (gtk->restore_source != 0) g_source_remove(gtk->restore_source);
    gtk->restore_source = 0;
    sync_all(gtk, TRUE);
    amber_report *report = NULL;
    gtk->restoring = TRUE;
    int rc = amber_engine_launch(&report, gtk->engine, AMBER_APP_INACTIVE);
    gtk->restoring = FALSE;
    gtk->restored = TRUE;
    g_hash_table_foreach(gtk->windows, mark_claimed, NULL);
    if (rc != AMBER_OK) {
        g_printerr("amber-gtk: restoring failed: %s\n", amber_error_last());
        return rc;
    }
    report_lines(gtk, report);
    watch_keep_time(gtk);
    g_hash_table_foreach(gtk->windows, report_window_pending_scrolls, NULL);
    g_hash_table_foreach(gtk->windows, focus_restored, NULL);
    if (gtk->made_windows->len > 0) gtk->present_source = g_idle_add(present_made_windows, gtk);
    if (out_report != NULL) *out_report = report;
    else amber_report_free(report);
    return AMBER_OK;
}

int amber_gtk_save(AmberGtk *gtk) {
    if (gtk == NULL) return AMBER_INVALID_ARGUMENT;
    return save(gtk, "on request");
}

void amber_gtk_keep_content(GtkWidget *widget, gboolean keep) {
    g_return_if_fail(GTK_IS_WIDGET(widget));
    g_object_set_data(G_OBJECT(widget), KEEP_CONTENT_KEY, keep ? GINT_TO_POINTER(1) : NULL);
}

void amber_gtk_set_item_identifier(GtkWidget *list, const char *property) {
    g_return_if_fail(GTK_IS_WIDGET(list));
    g_object_set_data_full(G_OBJECT(list), ITEM_ID_KEY, g_strdup(property), g_free);
}

void amber_gtk_set_coding(GtkWidget *widget, AmberGtkEncode encode, AmberGtkDecode decode, void *ctx,
                          void (*ctx_free)(void *ctx)) {
    g_return_if_fail(GTK_IS_WIDGET(widget));
    Coding *coding = NULL;
    if (encode != NULL || decode != NULL) {
        coding = g_new0(Coding, 1);
        coding->encode = encode;
        coding->decode = decode;
        coding->ctx = ctx;
        coding->ctx_free = ctx_free;
    }
    g_object_set_data_full(G_OBJECT(widget), CODING_KEY, coding, coding_free);
}

/* The root object of a window made at restoration for `path`, its objects made; NULL (and a line
 * on stderr) for a window that is not named as the archived one. */
static amber_object *made_window_root(AmberGtk *gtk, GtkWindow *window, const char *const *path, size_t path_length) {
    if (gtk_window_get_application(window) != gtk->app) gtk_window_set_application(window, gtk->app);
    WindowEntry *w = window_entry(gtk, window);
    if (w == NULL || path_length != 1 || strcmp(w->name, path[0]) != 0) {
        g_printerr("amber-gtk: the window made for %s is named %s\n", path_length ? path[0] : "?",
                   w != NULL ? w->name : "nothing");
        return NULL;
    }
    sync_window(w);
    g_ptr_array_add(gtk->made_windows, g_object_ref(window));
    return w->root;
}

/* The restoration class of a window made on demand (R10 step 1). */
static int make_window(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                       amber_decoder *decoder, void *ctx) {
    (void)engine;
    (void)decoder;
    Maker *maker = ctx;
    *out = NULL;
    GtkWindow *window = maker->make(maker->gtk->app, maker->ctx);
    if (window == NULL) return AMBER_OK; /* declined: the report says so */
    *out = made_window_root(maker->gtk, window, path, path_length);
    return AMBER_OK;
}

int amber_gtk_register_window(AmberGtk *gtk, const char *name, AmberGtkWindowMaker make, void *ctx,
                              void (*ctx_free)(void *ctx)) {
    if (gtk == NULL || name == NULL || name[0] == '\0' || make == NULL) return AMBER_INVALID_ARGUMENT;
    if (g_hash_table_contains(gtk->makers, name)) return AMBER_DUPLICATE;
    Maker *maker = g_new0(Maker, 1);
    maker->gtk = gtk;
    maker->make = make;
    maker->ctx = ctx;
    maker->ctx_free = ctx_free;
    amber_restoration_class cls = AMBER_RESTORATION_CLASS_INIT;
    cls.make = make_window;
    char *class_name = g_strconcat(CLASS_PREFIX, name, NULL);
    int rc = amber_engine_register_restoration_class(gtk->engine, class_name, &cls, maker, maker_free);
    g_free(class_name);
    if (rc != AMBER_OK) {
        g_printerr("amber-gtk: cannot register window %s: %s\n", name, amber_error_last());
        g_free(maker);
        return rc;
    }
    g_hash_table_add(gtk->makers, g_strdup(name));
    return AMBER_OK;
}

int amber_gtk_register_ui_file(AmberGtk *gtk, const char *name, const char *path, AmberGtkBuilt built, void *ctx,
                               void (*ctx_free)(void *ctx)) {
    if (gtk == NULL || name == NULL || name[0] == '\0' || strchr(name, '/') != NULL || path == NULL)
        return AMBER_INVALID_ARGUMENT;
    if (g_hash_table_contains(gtk->ui_files, name)) return AMBER_DUPLICATE;
    UiFile *file = g_new0(UiFile, 1);
    file->path = g_strdup(path);
    file->built = built;
    file->ctx = ctx;
    file->ctx_free = ctx_free;
    g_hash_table_insert(gtk->ui_files, g_strdup(name), file);
    return AMBER_OK;
}

GtkWindow *amber_gtk_build_window(AmberGtk *gtk, const char *name, const char *object_id) {
    UiFile *file = gtk != NULL && name != NULL ? g_hash_table_lookup(gtk->ui_files, name) : NULL;
    if (object_id == NULL) {
        g_printerr("amber-gtk: amber_gtk_build_window: object_id is NULL\n");
        return NULL;
    }
    if (file == NULL) {
        g_printerr("amber-gtk: no .ui file registered as %s\n", name != NULL ? name : "(null)");
        return NULL;
    }
    GtkBuilder *builder = gtk_builder_new();
    const char *ids[] = {object_id, NULL};
    GError *error = NULL;
    if (!gtk_builder_add_objects_from_file(builder, file->path, ids, &error)) {
        g_printerr("amber-gtk: cannot build %s from %s: %s\n", object_id, file->path, error->message);
        g_error_free(error);
        g_object_unref(builder);
        return NULL;
    }
    GObject *object = gtk_builder_get_object(builder, object_id);
    if (!GTK_IS_WINDOW(object)) {
        g_printerr("amber-gtk: %s in %s is no window\n", object_id, file->path);
        g_object_unref(builder);
        return NULL;
    }
    GtkWindow *window = GTK_WINDOW(object);
    g_object_set_data_full(object, BLUEPRINT_KEY, g_strconcat(BUILDER_FACTORY "/", name, "/", object_id, NULL), g_free);
    gtk_window_set_application(window, gtk->app);
    if (file->built != NULL) file->built(window, builder, file->ctx);
    g_object_unref(builder);
    return window;
}

/* The blueprint factory (R10 step 4): builds again a window that amber_gtk_build_window() built. */
static int make_from_blueprint(amber_object **out, amber_engine *engine, const char *blueprint_id,
                               const char *const *path, size_t path_length, amber_decoder *decoder, void *ctx) {
    (void)engine;
    (void)decoder;
    AmberGtk *gtk = ctx;
    *out = NULL;
    /* "AmberGtkBuilder/<name>/<object id>" */
    char **parts = g_strsplit(blueprint_id, "/", 3);
    if (g_strv_length(parts) == 3) {
        GtkWindow *window = amber_gtk_build_window(gtk, parts[1], parts[2]);
        if (window != NULL) {
            gtk_window_present(window);
            *out = made_window_root(gtk, window, path, path_length);
        }
    }
    g_strfreev(parts);
    return AMBER_OK;
}

void amber_gtk_set_options(AmberGtk *gtk, AmberGtkOptions options) {
    g_return_if_fail(gtk != NULL);
    gtk->options = options;
}

/* ---- describing the state (debugging, tests) --------------------------------------------- */

static void describe_scroll(GString *line, GtkAdjustment *v, GtkAdjustment *h) {
    g_string_append_printf(line, " scroll=%.0f,%.0f", h != NULL ? adjustment_value(h) : 0,
                           v != NULL ? adjustment_value(v) : 0);
}

/* The state of the standard kinds of amber-gtk.c, as " key=value" pairs. */
static void describe_standard(GString *line, const ViewEntry *entry) {
    AmberGtk *gtk = entry->window->gtk;
    GtkWidget *widget = entry->widget;
    if (is_list(widget)) {
        GtkSelectionModel *model = list_model(widget);
        g_string_append_printf(line, " first-visible=%" G_GINT64_FORMAT " selected=[", list_first_visible(widget));
        GtkBitset *selection = model != NULL ? gtk_selection_model_get_selection(model) : gtk_bitset_new_empty();
        for (guint64 i = 0, n = gtk_bitset_get_size(selection); i < n && i < 100; i++)
            g_string_append_printf(line, "%s%u", i ? "," : "", gtk_bitset_get_nth(selection, (guint)i));
        gtk_bitset_unref(selection);
        g_string_append_c(line, ']');
    } else if (GTK_IS_TEXT_VIEW(widget)) {
        GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(widget));
        GtkTextIter start, end;
        gtk_text_buffer_get_selection_bounds(buffer, &start, &end);
        g_string_append_printf(line, " selection=%d-%d", gtk_text_iter_get_offset(&start), gtk_text_iter_get_offset(&end));
        int offset = 0;
        double delta = 0;
        text_view_top(GTK_TEXT_VIEW(widget), &offset, &delta);
        g_string_append_printf(line, " top-line=%d+%.0f", offset, delta);
    } else if (GTK_IS_EDITABLE(widget)) {
        int start = 0, end = 0;
        if (!gtk_editable_get_selection_bounds(GTK_EDITABLE(widget), &start, &end))
            start = end = gtk_editable_get_position(GTK_EDITABLE(widget));
        g_string_append_printf(line, " selection=%d-%d", start, end);
    } else if (GTK_IS_SCROLLED_WINDOW(widget) && child_scrolls_itself(entry)) {
        g_string_append(line, " scroll=by-child");
    } else if (GTK_IS_SCROLLED_WINDOW(widget)) {
        GtkScrolledWindow *scrolled = GTK_SCROLLED_WINDOW(widget);
        describe_scroll(line, gtk_scrolled_window_get_vadjustment(scrolled), gtk_scrolled_window_get_hadjustment(scrolled));
    } else if (GTK_IS_NOTEBOOK(widget)) {
        g_string_append_printf(line, " page=%d", gtk_notebook_get_current_page(GTK_NOTEBOOK(widget)));
    } else if (GTK_IS_STACK(widget)) {
        const char *name = gtk_stack_get_visible_child_name(GTK_STACK(widget));
        g_string_append_printf(line, " page=%s", name != NULL ? name : "-");
    } else if (GTK_IS_PANED(widget)) {
        gboolean set = FALSE;
        g_object_get(widget, "position-set", &set, NULL);
        if (set) g_string_append_printf(line, " position=%d", gtk_paned_get_position(GTK_PANED(widget)));
        else g_string_append(line, " position=default");
    } else if (GTK_IS_EXPANDER(widget)) {
        g_string_append_printf(line, " expanded=%d", gtk_expander_get_expanded(GTK_EXPANDER(widget)));
    }
    if (keeps_content(widget) && GTK_IS_EDITABLE(widget))
        g_string_append_printf(line, " text=%s", gtk_editable_get_text(GTK_EDITABLE(widget)));
    if (!keeps_values(gtk, widget)) return;
    if (GTK_IS_CHECK_BUTTON(widget)) g_string_append_printf(line, " active=%d", gtk_check_button_get_active(GTK_CHECK_BUTTON(widget)));
    else if (GTK_IS_TOGGLE_BUTTON(widget)) g_string_append_printf(line, " active=%d", gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(widget)));
    else if (GTK_IS_SWITCH(widget)) g_string_append_printf(line, " active=%d", gtk_switch_get_active(GTK_SWITCH(widget)));
    else if (GTK_IS_DROP_DOWN(widget)) g_string_append_printf(line, " selected=%u", gtk_drop_down_get_selected(GTK_DROP_DOWN(widget)));
}

static void describe_window(gpointer key, gpointer value, gpointer data) {
    (void)key;
    WindowEntry *w = value;
    GPtrArray *lines = data;
    int width = 0, height = 0;
    gtk_window_get_default_size(w->window, &width, &height);
    g_ptr_array_add(lines, g_strdup_printf("%s %s size=%dx%d maximized=%d", w->name, G_OBJECT_TYPE_NAME(w->window), width,
                                           height, gtk_window_is_maximized(w->window)));
    GHashTableIter iter;
    gpointer entry_value;
    g_hash_table_iter_init(&iter, w->views);
    while (g_hash_table_iter_next(&iter, NULL, &entry_value)) {
        ViewEntry *entry = entry_value;
        if (entry->widget == NULL) continue;
        GString *line = g_string_new(NULL);
        g_string_printf(line, "%s/%s %s", w->name, entry->identifier, G_OBJECT_TYPE_NAME(entry->widget));
        describe_standard(line, entry);
        widget_kind_describe(line, entry->widget, keeps_values(w->gtk, entry->widget));
        g_ptr_array_add(lines, g_string_free(line, FALSE));
    }
}

static int compare_lines(gconstpointer a, gconstpointer b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *amber_gtk_describe(AmberGtk *gtk) {
    g_return_val_if_fail(gtk != NULL, g_strdup(""));
    sync_all(gtk, FALSE);
    GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
    g_hash_table_foreach(gtk->windows, describe_window, lines);
    g_ptr_array_sort(lines, compare_lines);
    GString *text = g_string_new(NULL);
    for (guint i = 0; i < lines->len; i++) g_string_append_printf(text, "%s\n", (char *)lines->pdata[i]);
    g_ptr_array_unref(lines);
    return g_string_free(text, FALSE);
}

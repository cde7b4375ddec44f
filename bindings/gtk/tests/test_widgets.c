/*
 * test_widgets.c — the standard state of the widget types the notes demo does not use, through
 * libamber-gtk in a real window: a GtkStack's page, a GtkExpander, a GtkSpinButton's cursor, a
 * GtkSwitch, a GtkCheckButton, a GtkDropDown and a GtkEntry's text (content opted in), a
 * GtkGridView's multiple selection by identifier, a GtkColumnView's selection, and the host's
 * own coding beside
 * the standard state. A widget whose content was not opted in keeps only its standard state.
 *
 *   test_widgets save      builds the window, sets every state, saves (amber_gtk_save), quits
 *   test_widgets check     builds the window again (the grid's items reversed: moved), restores,
 *                          and checks each state; prints "ok"/"FAIL" lines, exits 1 on a failure
 *   test_widgets auto      as check, without calling amber_gtk_restore(): the adapter restores
 *                          by itself after "activate"; checked from an idle callback
 *
 * The archive is kept in $XDG_STATE_HOME/org.amber.gtk-widgets.
 */
#include "amber-gtk.h"

#include <stdio.h>
#include <string.h>

static const char *mode;
static int failures;
static char host_value[64] = "";
static int built_calls;

/* The built callback of the windows built from notes.ui: opts the check box's content in. */
static void on_built(GtkWindow *window, GtkBuilder *builder, void *ctx) {
    (void)window;
    (void)ctx;
    built_calls++;
    amber_gtk_keep_content(GTK_WIDGET(gtk_builder_get_object(builder, "spellcheck")), TRUE);
}

static GtkWindow *window_named(GtkApplication *app, const char *name) {
    for (GList *l = gtk_application_get_windows(app); l != NULL; l = l->next)
        if (strcmp(gtk_widget_get_name(l->data), name) == 0 ||
            g_strcmp0(gtk_buildable_get_buildable_id(GTK_BUILDABLE(l->data)), name) == 0)
            return l->data;
    return NULL;
}

static GtkWidget *child_named(GtkWidget *widget, const char *name) {
    if (g_strcmp0(gtk_buildable_get_buildable_id(GTK_BUILDABLE(widget)), name) == 0) return widget;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        GtkWidget *found = child_named(child, name);
        if (found != NULL) return found;
    }
    return NULL;
}

typedef struct Widgets {
    GtkWidget *window, *stack, *expander, *spin, *toggle, *check_button, *unkept, *drop, *entry;
    GtkSelectionModel *grid_selection, *column_selection;
} Widgets;
static Widgets w;

static void expect(int ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

/* The contexts the adapter keeps (amber-gtk.h's ctx_free): each counts the calls of its
 * ctx_free, which must come once, when the adapter lets go of it. */
static int ui_file_context, window_context, coding_context;

static void count_release(void *ctx) {
    (*(int *)ctx)++;
}

static GtkWindow *make_no_window(GtkApplication *app, void *ctx) {
    (void)app, (void)ctx;
    return NULL;
}

static int host_encode_stub(GtkWidget *widget, amber_coder *coder, void *ctx) {
    (void)widget, (void)coder, (void)ctx;
    return AMBER_OK;
}

/* A widget's coding context is released when the coding is replaced, and the new one when the
 * widget is finalized. */
static void expect_coding_context_released(void) {
    GtkWidget *label = g_object_ref_sink(gtk_label_new("scratch"));
    coding_context = 0;
    amber_gtk_set_coding(label, NULL, NULL, &coding_context, count_release);
    expect(coding_context == 0, "removing no coding keeps no context");
    amber_gtk_set_coding(label, host_encode_stub, NULL, &coding_context, count_release);
    amber_gtk_set_coding(label, host_encode_stub, NULL, &coding_context, count_release);
    expect(coding_context == 1, "a widget's coding replaced: the old context's ctx_free is called once");
    g_object_unref(label);
    expect(coding_context == 2, "a widget finalized: its coding context's ctx_free is called");
}

static int host_encode(GtkWidget *widget, amber_coder *coder, void *ctx) {
    (void)widget;
    (void)ctx;
    return amber_coder_encode_string(coder, "zoom", "150%");
}

static int host_decode(GtkWidget *widget, amber_decoder *decoder, void *ctx) {
    (void)widget;
    (void)ctx;
    const char *value = NULL;
    int rc = amber_decoder_decode_string(&value, decoder, "zoom");
    if (rc == AMBER_OK) g_strlcpy(host_value, value, sizeof host_value);
    return rc;
}

static void setup_cell(GtkSignalListItemFactory *factory, GtkListItem *item) {
    (void)factory;
    gtk_list_item_set_child(item, gtk_label_new(NULL));
}

static void bind_cell(GtkSignalListItemFactory *factory, GtkListItem *item) {
    (void)factory;
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)),
                       gtk_string_object_get_string(gtk_list_item_get_item(item)));
}

static GtkWidget *named(GtkWidget *widget, const char *name) {
    gtk_widget_set_name(widget, name);
    return widget;
}

/* Checks every state restored, then quits. */
static void check_restored(GtkApplication *app) {
    gtk_window_present(GTK_WINDOW(w.window));
    expect(strcmp(gtk_stack_get_visible_child_name(GTK_STACK(w.stack)), "two") == 0, "GtkStack: the page by name");
    expect(gtk_expander_get_expanded(GTK_EXPANDER(w.expander)), "GtkExpander: expanded");
    int start = 0, end = 0;
    gtk_editable_get_selection_bounds(GTK_EDITABLE(w.spin), &start, &end);
    expect(start == 1 && end == 3, "GtkSpinButton: the selection in its text");
    expect(gtk_switch_get_active(GTK_SWITCH(w.toggle)), "GtkSwitch: active (content kept)");
    expect(gtk_check_button_get_active(GTK_CHECK_BUTTON(w.check_button)), "GtkCheckButton: active (content kept)");
    expect(!gtk_check_button_get_active(GTK_CHECK_BUTTON(w.unkept)), "GtkCheckButton: not restored when not opted in");
    expect(gtk_drop_down_get_selected(GTK_DROP_DOWN(w.drop)) == 2, "GtkDropDown: the selected item (content kept)");
    expect(strcmp(gtk_editable_get_text(GTK_EDITABLE(w.entry)), "half typed") == 0 &&
               gtk_editable_get_position(GTK_EDITABLE(w.entry)) == 4,
           "GtkEntry: the text (content kept) and the cursor");
    /* The items were reversed: item 03 is now at 26, item 07 at 22. */
    GtkBitset *selected = gtk_selection_model_get_selection(w.grid_selection);
    expect(gtk_bitset_get_size(selected) == 2 && gtk_bitset_contains(selected, 26) && gtk_bitset_contains(selected, 22),
           "GtkGridView: both selected items, by identifier, at their new positions");
    gtk_bitset_unref(selected);
    expect(strcmp(host_value, "150%") == 0, "the host's own coding beside the standard state");
    expect(gtk_single_selection_get_selected(GTK_SINGLE_SELECTION(w.column_selection)) == 1,
           "GtkColumnView: the selected row");
    GtkWindow *prefs = window_named(app, "prefs");
    expect(prefs != NULL && gtk_widget_get_visible(GTK_WIDGET(prefs)) && built_calls == 1 &&
               gtk_check_button_get_active(GTK_CHECK_BUTTON(child_named(GTK_WIDGET(prefs), "spellcheck"))),
           "a window built from a .ui file: built again from its blueprint, its state restored");
    g_application_quit(G_APPLICATION(app));
}

static gboolean check_restored_later(gpointer app) {
    check_restored(app);
    return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app) {
    gboolean check = strcmp(mode, "save") != 0; /* check and auto: the items reversed */
    GtkWidget *window = gtk_application_window_new(app); /* unnamed: its type's name stands for it */
    GtkWidget *box = named(gtk_box_new(GTK_ORIENTATION_VERTICAL, 4), "box");
    gtk_window_set_child(GTK_WINDOW(window), box);

    GtkWidget *stack = named(gtk_stack_new(), "stack");
    gtk_stack_add_named(GTK_STACK(stack), gtk_label_new("one"), "one");
    gtk_stack_add_named(GTK_STACK(stack), gtk_label_new("two"), "two");
    GtkWidget *expander = named(gtk_expander_new("more"), "expander");
    GtkWidget *spin = named(gtk_spin_button_new_with_range(0, 100000, 1), "spin");
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(spin), 12345);
    GtkWidget *toggle = named(gtk_switch_new(), "switch");
    GtkWidget *check_button = named(gtk_check_button_new_with_label("check"), "check");
    GtkWidget *unkept = named(gtk_check_button_new_with_label("not kept"), "unkept");
    const char *const colours[] = {"red", "green", "blue", NULL};
    GtkWidget *drop = named(gtk_drop_down_new_from_strings(colours), "drop");
    GtkWidget *entry = named(gtk_entry_new(), "entry");

    GtkStringList *items = gtk_string_list_new(NULL);
    for (int i = 0; i < 30; i++) {
        char *item = g_strdup_printf("item %02d", check ? 29 - i : i);
        gtk_string_list_append(items, item);
        g_free(item);
    }
    GtkMultiSelection *selection = gtk_multi_selection_new(G_LIST_MODEL(items));
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_cell), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(bind_cell), NULL);
    GtkWidget *grid = named(gtk_grid_view_new(GTK_SELECTION_MODEL(selection), factory), "grid");
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), grid);
    gtk_widget_set_size_request(scrolled, 300, 120);

    GtkSingleSelection *rows = gtk_single_selection_new(G_LIST_MODEL(gtk_string_list_new(colours)));
    gtk_single_selection_set_autoselect(rows, FALSE);
    GtkWidget *columns = named(gtk_column_view_new(GTK_SELECTION_MODEL(rows)), "columns");
    GtkListItemFactory *column_factory = gtk_signal_list_item_factory_new();
    g_signal_connect(column_factory, "setup", G_CALLBACK(setup_cell), NULL);
    g_signal_connect(column_factory, "bind", G_CALLBACK(bind_cell), NULL);
    gtk_column_view_append_column(GTK_COLUMN_VIEW(columns), gtk_column_view_column_new("colour", column_factory));

    /* Two widgets with one path: the second is left out at every save, with a line on stderr. */
    GtkWidget *twin = named(gtk_expander_new("twin"), "twin"), *other_twin = named(gtk_expander_new("twin"), "twin");

    GtkWidget *widgets[] = {stack, expander, spin, toggle, check_button, unkept, drop, entry, scrolled, columns,
                            twin, other_twin};
    for (size_t i = 0; i < G_N_ELEMENTS(widgets); i++) gtk_box_append(GTK_BOX(box), widgets[i]);
    amber_gtk_keep_content(toggle, TRUE);
    amber_gtk_keep_content(check_button, TRUE);
    amber_gtk_keep_content(drop, TRUE);
    amber_gtk_keep_content(entry, TRUE);
    amber_gtk_set_item_identifier(grid, "string");
    amber_gtk_set_coding(expander, host_encode, host_decode, NULL, NULL);
    AmberGtk *gtk = amber_gtk_from_application(app);
    amber_gtk_register_ui_file(gtk, "notes", NOTES_UI, on_built, &ui_file_context, count_release);
    expect_coding_context_released();
    w = (Widgets){window, stack, expander, spin, toggle, check_button, unkept, drop, entry,
                  GTK_SELECTION_MODEL(selection), GTK_SELECTION_MODEL(rows)};

    if (strcmp(mode, "save") == 0) {
        amber_gtk_restore(NULL, gtk); /* nothing to restore: the first run */
        gtk_window_present(GTK_WINDOW(window));
        gtk_stack_set_visible_child_name(GTK_STACK(stack), "two");
        gtk_expander_set_expanded(GTK_EXPANDER(expander), TRUE);
        gtk_editable_select_region(GTK_EDITABLE(spin), 1, 3);
        gtk_switch_set_active(GTK_SWITCH(toggle), TRUE);
        gtk_check_button_set_active(GTK_CHECK_BUTTON(check_button), TRUE);
        gtk_check_button_set_active(GTK_CHECK_BUTTON(unkept), TRUE);
        gtk_drop_down_set_selected(GTK_DROP_DOWN(drop), 2);
        gtk_editable_set_text(GTK_EDITABLE(entry), "half typed");
        gtk_editable_set_position(GTK_EDITABLE(entry), 4);
        gtk_selection_model_select_item(GTK_SELECTION_MODEL(selection), 3, TRUE);
        gtk_selection_model_select_item(GTK_SELECTION_MODEL(selection), 7, FALSE);
        gtk_selection_model_select_item(GTK_SELECTION_MODEL(rows), 1, TRUE);
        GtkWindow *prefs = amber_gtk_build_window(gtk, "notes", "prefs");
        expect(prefs != NULL && built_calls == 1, "save: a window built from a registered .ui file");
        gtk_window_present(prefs);
        gtk_check_button_set_active(GTK_CHECK_BUTTON(child_named(GTK_WIDGET(prefs), "spellcheck")), TRUE);
        expect(amber_gtk_build_window(gtk, "elsewhere", "prefs") == NULL, "save: no window from a file not registered");
        expect(amber_gtk_build_window(gtk, "notes", "spellcheck") == NULL, "save: no window from an object that is no window");
        expect(amber_gtk_build_window(gtk, "notes", NULL) == NULL, "save: no window for a NULL object id");
        expect(amber_gtk_register_ui_file(gtk, "notes", NOTES_UI, NULL, &ui_file_context, count_release) == AMBER_DUPLICATE,
               "save: a .ui file name registered twice is AMBER_DUPLICATE");
        expect(ui_file_context == 0, "save: a refused registration does not call its ctx_free");
        expect(amber_gtk_register_ui_file(gtk, "a/b", NOTES_UI, NULL, NULL, NULL) == AMBER_INVALID_ARGUMENT,
               "save: a .ui file name with '/' is AMBER_INVALID_ARGUMENT");
        expect(amber_gtk_save(gtk) == AMBER_OK, "save: amber_gtk_save succeeds");
        g_application_quit(G_APPLICATION(app));
        return;
    }

    if (strcmp(mode, "check") == 0) {
        amber_report *report = NULL;
        expect(amber_gtk_restore(&report, gtk) == AMBER_OK && amber_report_fresh_reason(report) == AMBER_FRESH_NONE,
               "restore: the archive is restored by amber_gtk_restore()");
        amber_report_free(report);
        check_restored(app);
        return;
    }
    /* auto: the adapter restores after this handler; checked once the main loop is idle. */
    g_idle_add(check_restored_later, app);
}
int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "save") != 0 && strcmp(argv[1], "check") != 0 && strcmp(argv[1], "auto") != 0)) {
        fprintf(stderr, "usage: test_widgets save|check|auto\n");
        return 2;
    }
    mode = argv[1];
    if (!gtk_init_check()) {
        fprintf(stderr, "test_widgets: cannot open a display\n");
        return 1;
    }
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, "org.amber.gtk-widgets", NULL) != AMBER_OK) {
        fprintf(stderr, "test_widgets: %s\n", amber_error_last());
        return 1;
    }
    GtkApplication *app = gtk_application_new("org.amber.gtkwidgets", G_APPLICATION_NON_UNIQUE);
    AmberGtk *gtk = amber_gtk_attach(engine, app);
    amber_gtk_register_window(gtk, "never-made", make_no_window, &window_context, count_release);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    g_application_run(G_APPLICATION(app), 0, NULL);
    /* Each window holds the application: destroyed, they let it be finalized, and the adapter
     * with it. */
    GList *windows;
    while ((windows = gtk_application_get_windows(app)) != NULL) gtk_window_destroy(windows->data);
    g_object_unref(app);
    expect(ui_file_context == 1, "the .ui file's ctx_free is called once, when the application is finalized");
    amber_engine_close(engine);
    expect(window_context == 1, "a window maker's ctx_free is called once, when the engine closes");
    return failures == 0 ? 0 : 1;
}

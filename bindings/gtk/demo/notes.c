/*
 * notes.c — the GTK 4 demo of libamber-gtk: a notes app (a list of notes, an editor with a
 * half-typed note, tabs, a paned split and a preferences window) that gets its interface back
 * after it was closed or killed. Its interface is notes.ui.
 *
 * The lines that are there for Amber end with the marker comment "amber"; every other line is
 * the app as it would be without Amber (bindings/gtk/count-amber-lines.sh counts the marked
 * lines and checks that no other line calls Amber).
 *
 *   amber-notes [--print-state] [--rows N] [--reverse] [--rotate N] [--drop TITLE] [--ui FILE] [--app-id ID]
 *               [--startup-time]
 *
 *   --print-state   prints the interface's state once restored and settled, and again on
 *                   SIGUSR1 (the tests compare the two); also turns off the cursor's blinking and
 *                   animations, so that screenshots are stable
 *   --rows N        N notes (40 by default)
 *   --reverse       the notes in reverse order (the notes moved since the last run)
 *   --rotate N      the last N notes first, the others N rows down (moved, too)
 *   --drop TITLE    without the note TITLE (deleted since the last run)
 *   --ui FILE       the interface from FILE instead of notes.ui (another version of the app)
 *   --app-id ID     the application id ID instead of org.amber.notes (another application with
 *                   the same widgets: the tests copy its archive to check that it is refused)
 *   --startup-time  prints the time from start to each of the first three frames drawn and the
 *                   time the restoration took (wall clock and this thread's CPU), then exits
 *                   (without saving)
 *
 * The archive is kept in $XDG_STATE_HOME/<app id> (else ~/.local/state/<app id>).
 */
#include "amber-gtk.h" /* amber */

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define APP_ID "org.amber.notes"

static gboolean print_state;
static char *app_id = APP_ID;
static gboolean startup_time;
static gboolean reverse_notes;
static int rows = 40;
static int rotate;
static char *drop_title;
static char *ui_file = NOTES_UI;
static gint64 start_time;

/* ---- the notes ------------------------------------------------------------------------------ */

static const char *const subjects[] = {"Groceries", "Meeting", "Books", "Garden", "Trip", "Recipes", "Ideas",
                                       "Budget"};

static GtkStringList *make_notes(void) {
    GtkStringList *list = gtk_string_list_new(NULL);
    for (int i = 0; i < rows; i++) {
        int k = reverse_notes ? rows - 1 - i : (i + rows - rotate % rows) % rows;
        char *title = g_strdup_printf("%s %03d", subjects[k % G_N_ELEMENTS(subjects)], k + 1);
        if (drop_title == NULL || strcmp(title, drop_title) != 0) gtk_string_list_append(list, title);
        g_free(title);
    }
    return list;
}

static void setup_row(GtkSignalListItemFactory *factory, GtkListItem *item) {
    (void)factory;
    GtkWidget *label = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_widget_set_margin_start(label, 8);
    gtk_widget_set_margin_top(label, 4);
    gtk_widget_set_margin_bottom(label, 4);
    gtk_list_item_set_child(item, label);
}

static void bind_row(GtkSignalListItemFactory *factory, GtkListItem *item) {
    (void)factory;
    GtkStringObject *note = gtk_list_item_get_item(item);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)), gtk_string_object_get_string(note));
}

static const char *selected_title(GtkSingleSelection *selection) {
    GtkStringObject *note = gtk_single_selection_get_selected_item(selection);
    return note != NULL ? gtk_string_object_get_string(note) : NULL;
}

static void on_selection_changed(GtkSingleSelection *selection, guint position, guint n, GtkLabel *status) {
    (void)position;
    (void)n;
    const char *title = selected_title(selection);
    char *text = g_strdup_printf("Selected: %s", title != NULL ? title : "none");
    gtk_label_set_text(status, text);
    g_free(text);
}

/* ---- the windows ---------------------------------------------------------------------------- */

static GtkBuilder *build(const char *object_id) {
    GtkBuilder *builder = gtk_builder_new();
    const char *ids[] = {object_id, NULL};
    GError *error = NULL;
    if (!gtk_builder_add_objects_from_file(builder, ui_file, ids, &error)) {
        g_printerr("amber-notes: cannot read %s: %s\n", ui_file, error->message);
        exit(1);
    }
    return builder;
}

static GtkWidget *object(GtkBuilder *builder, const char *id) {
    return GTK_WIDGET(gtk_builder_get_object(builder, id));
}

static GtkWidget *find_named(GtkWidget *widget, const char *name) {
    const char *id = gtk_buildable_get_buildable_id(GTK_BUILDABLE(widget));
    if (id != NULL && strcmp(id, name) == 0) return widget;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        GtkWidget *found = find_named(child, name);
        if (found != NULL) return found;
    }
    return NULL;
}

static GtkWindow *window_named(GtkApplication *app, const char *name) {
    for (GList *l = gtk_application_get_windows(app); l != NULL; l = l->next) {
        const char *id = gtk_buildable_get_buildable_id(GTK_BUILDABLE(l->data));
        if (id != NULL && strcmp(id, name) == 0) return l->data;
    }
    return NULL;
}

/* Opens the preferences window (once). */
static GtkWindow *open_prefs(GtkApplication *app, void *ctx) {
    (void)ctx;
    GtkWindow *prefs = window_named(app, "prefs");
    if (prefs == NULL) {
        GtkBuilder *builder = build("prefs");
        prefs = GTK_WINDOW(object(builder, "prefs"));
        amber_gtk_keep_content(object(builder, "spellcheck"), TRUE); /* amber */
        amber_gtk_keep_content(object(builder, "wrap"), TRUE);       /* amber */
        gtk_window_set_transient_for(prefs, window_named(app, "main"));
        gtk_window_set_destroy_with_parent(prefs, TRUE);
        gtk_window_set_application(prefs, app);
        g_object_unref(builder);
    }
    gtk_window_present(prefs);
    return prefs;
}

static void on_prefs_clicked(GtkButton *button, GtkApplication *app) {
    (void)button;
    open_prefs(app, NULL);
}

/* ---- --print-state -------------------------------------------------------------------------- */

static void print_interface(GtkApplication *app) {
    GtkWindow *window = window_named(app, "main");
    if (window == NULL) {
        printf("state: no main window\n");
        return;
    }
    GtkWidget *root = GTK_WIDGET(window);
    int width = 0, height = 0;
    gtk_window_get_default_size(window, &width, &height);
    printf("state: window %dx%d maximized=%d\n", width, height, gtk_window_is_maximized(window));
    GtkListView *notes = GTK_LIST_VIEW(find_named(root, "notes"));
    GtkSingleSelection *selection = GTK_SINGLE_SELECTION(gtk_list_view_get_model(notes));
    const char *title = selected_title(selection);
    printf("state: selected %s\n", title != NULL ? title : "none");
    GtkScrolledWindow *sidebar = GTK_SCROLLED_WINDOW(find_named(root, "sidebar"));
    GtkAdjustment *scroll = gtk_scrolled_window_get_vadjustment(sidebar);
    printf("state: list scroll %.0f\n", gtk_adjustment_get_value(scroll));
    /* The note at the top: the row the scroll position falls in (the rows are equally high). */
    guint n = g_list_model_get_n_items(G_LIST_MODEL(selection));
    if (n > 0 && gtk_adjustment_get_upper(scroll) > 0) {
        guint top = (guint)(gtk_adjustment_get_value(scroll) / (gtk_adjustment_get_upper(scroll) / n));
        GtkStringObject *note = g_list_model_get_item(G_LIST_MODEL(selection), MIN(top, n - 1));
        printf("state: list top %s\n", gtk_string_object_get_string(note));
        g_object_unref(note);
    }
    GtkNotebook *tabs = GTK_NOTEBOOK(find_named(root, "tabs"));
    printf("state: tab %s\n", gtk_notebook_get_tab_label_text(tabs, gtk_notebook_get_nth_page(tabs, gtk_notebook_get_current_page(tabs))));
    printf("state: split %d\n", gtk_paned_get_position(GTK_PANED(find_named(root, "split"))));
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(find_named(root, "editor")));
    GtkTextIter cursor, start, end;
    gtk_text_buffer_get_iter_at_mark(buffer, &cursor, gtk_text_buffer_get_insert(buffer));
    gtk_text_buffer_get_bounds(buffer, &start, &end);
    char *text = gtk_text_buffer_get_text(buffer, &start, &end, TRUE);
    char *escaped = g_strescape(text, NULL);
    printf("state: editor cursor %d text \"%s\"\n", gtk_text_iter_get_offset(&cursor), escaped);
    g_free(escaped);
    g_free(text);
    GtkWidget *entry = find_named(root, "title"); /* missing in another version of notes.ui */
    if (entry != NULL)
        printf("state: title cursor %d text \"%s\"\n", gtk_editable_get_position(GTK_EDITABLE(entry)),
               gtk_editable_get_text(GTK_EDITABLE(entry)));
    else
        printf("state: title missing\n");
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(window));
    while (focus != NULL && gtk_buildable_get_buildable_id(GTK_BUILDABLE(focus)) == NULL) focus = gtk_widget_get_parent(focus);
    printf("state: focus %s\n", focus != NULL ? gtk_buildable_get_buildable_id(GTK_BUILDABLE(focus)) : "none");
    GtkWindow *prefs = window_named(app, "prefs");
    if (prefs != NULL && gtk_widget_get_visible(GTK_WIDGET(prefs))) {
        printf("state: prefs open spellcheck=%d wrap=%d\n",
               gtk_check_button_get_active(GTK_CHECK_BUTTON(find_named(GTK_WIDGET(prefs), "spellcheck"))),
               gtk_check_button_get_active(GTK_CHECK_BUTTON(find_named(GTK_WIDGET(prefs), "wrap"))));
    } else {
        printf("state: prefs closed\n");
    }
    printf("state: end\n");
    fflush(stdout);
}

static gboolean on_print_timeout(gpointer app) {
    print_interface(app);
    return G_SOURCE_REMOVE;
}

static gboolean on_sigusr1(gpointer app) {
    print_interface(app);
    return G_SOURCE_CONTINUE;
}

/* --startup-time: the time from start to each of the first frames drawn (the restored scroll
 * position is drawn on the first: the list is scrolled within the frame that lays it out; the
 * next frames show whether it moves again), and the time the restoration itself took. */
static gint64 restore_us = -1, restore_cpu_us = -1;

/* The CPU time this thread has used, in microseconds. */
static gint64 thread_cpu_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (gint64)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

static void on_frame(GdkFrameClock *clock, GtkApplication *app) {
    (void)clock;
    (void)app;
    static int frames;
    printf("frame%d_us %" G_GINT64_FORMAT "\n", ++frames, g_get_monotonic_time() - start_time);
    if (frames < 3) return;
    printf("restore_us %" G_GINT64_FORMAT "\n", restore_us);
    printf("restore_cpu_us %" G_GINT64_FORMAT "\n", restore_cpu_us);
    fflush(stdout);
    _Exit(0);
}

static void on_map(GtkWidget *window, GtkApplication *app) {
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    g_signal_connect(clock, "after-paint", G_CALLBACK(on_frame), app);
    gdk_frame_clock_begin_updating(clock); /* frames keep coming, to count them */
}

/* ---- the application ------------------------------------------------------------------------ */

static void activate(GtkApplication *app) {
    if (window_named(app, "main") != NULL) {
        gtk_window_present(window_named(app, "main"));
        return;
    }
    GtkBuilder *builder = build("main");
    GtkWindow *window = GTK_WINDOW(object(builder, "main"));
    gtk_window_set_application(window, app);

    GtkSingleSelection *selection = gtk_single_selection_new(G_LIST_MODEL(make_notes()));
    gtk_single_selection_set_autoselect(selection, FALSE);
    gtk_single_selection_set_can_unselect(selection, TRUE);
    gtk_single_selection_set_selected(selection, GTK_INVALID_LIST_POSITION);
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
    GtkListView *notes = GTK_LIST_VIEW(object(builder, "notes"));
    gtk_list_view_set_model(notes, GTK_SELECTION_MODEL(selection));
    gtk_list_view_set_factory(notes, factory);
    g_object_unref(selection);
    g_object_unref(factory);
    GtkLabel *status = GTK_LABEL(object(builder, "status"));
    g_signal_connect(selection, "selection-changed", G_CALLBACK(on_selection_changed), status);
    on_selection_changed(selection, 0, 0, status);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(object(builder, "editor"))),
                             "Things to remember:\n", -1);
    g_signal_connect(object(builder, "prefs-button"), "clicked", G_CALLBACK(on_prefs_clicked), app);
    amber_gtk_set_item_identifier(object(builder, "notes"), "string"); /* amber */
    amber_gtk_keep_content(object(builder, "editor"), TRUE);           /* amber */
    amber_gtk_keep_content(object(builder, "title"), TRUE);            /* amber */
    g_object_unref(builder);

    gint64 restore_start = g_get_monotonic_time(), restore_cpu_start = thread_cpu_us();
    amber_gtk_restore(NULL, amber_gtk_from_application(app)); /* amber */
    restore_us = g_get_monotonic_time() - restore_start;
    restore_cpu_us = thread_cpu_us() - restore_cpu_start;
    if (startup_time) g_signal_connect(window, "map", G_CALLBACK(on_map), app);
    gtk_window_present(window);
    if (print_state) g_timeout_add(1500, on_print_timeout, app);
}

int main(int argc, char **argv) {
    start_time = g_get_monotonic_time();
    GOptionEntry options[] = {
        {"print-state", 0, 0, G_OPTION_ARG_NONE, &print_state, "Print the interface's state", NULL},
        {"rows", 0, 0, G_OPTION_ARG_INT, &rows, "Number of notes", "N"},
        {"reverse", 0, 0, G_OPTION_ARG_NONE, &reverse_notes, "The notes in reverse order", NULL},
        {"rotate", 0, 0, G_OPTION_ARG_INT, &rotate, "The last N notes first", "N"},
        {"drop", 0, 0, G_OPTION_ARG_STRING, &drop_title, "Leave out the note TITLE", "TITLE"},
        {"ui", 0, 0, G_OPTION_ARG_FILENAME, &ui_file, "The interface (another version of notes.ui)", "FILE"},
        {"app-id", 0, 0, G_OPTION_ARG_STRING, &app_id, "The application id (another application)", "ID"},
        {"startup-time", 0, 0, G_OPTION_ARG_NONE, &startup_time, "Print the start-up time and exit", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *context = g_option_context_new("- the notes demo of libamber-gtk");
    g_option_context_add_main_entries(context, options, NULL);
    GError *error = NULL;
    if (!g_option_context_parse(context, &argc, &argv, &error)) {
        g_printerr("amber-notes: %s\n", error->message);
        return 2;
    }
    g_option_context_free(context);
    if (!gtk_init_check()) {
        g_printerr("amber-notes: cannot open a display (is DISPLAY set?)\n");
        return 1;
    }
    if (print_state)
        g_object_set(gtk_settings_get_default(), "gtk-cursor-blink", FALSE, "gtk-enable-animations", FALSE, NULL);

    amber_engine *engine = NULL;                                                         /* amber */
    if (amber_engine_open(&engine, app_id, NULL) != AMBER_OK)                            /* amber */
        g_printerr("amber-notes: no state restoration: %s\n", amber_error_last());      /* amber */
    GtkApplication *app = gtk_application_new(app_id, G_APPLICATION_NON_UNIQUE);
    AmberGtk *gtk = engine != NULL ? amber_gtk_attach(engine, app) : NULL;              /* amber */
    amber_gtk_register_window(gtk, "prefs", open_prefs, NULL, NULL);                    /* amber */
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    if (print_state) g_unix_signal_add(SIGUSR1, on_sigusr1, app);
    int status = g_application_run(G_APPLICATION(app), 0, NULL);
    g_object_unref(app);
    amber_engine_close(engine); /* amber */
    return status;
}

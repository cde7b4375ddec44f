/*
 * test_tree_scroll.c — a tree view scrolled back by its top row, never by pixels (issue 40): the
 * same row is at the top after a relaunch whose rows are measured otherwise.
 *
 *   test_tree_scroll save    a tree view of 500 rows, row 300 at the top and 5 pixels into it; saves
 *   test_tree_scroll check   the same rows, taller (the cells padded, as another font would make
 *                            them): once restored and laid out, row 300 is at the top again, 5
 *                            pixels into it (a pixel value would show an earlier row)
 *
 * Prints "ok ..." lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.treescroll.
 */
#include "amber-gtk.h"

#include <stdio.h>
#include <string.h>

#define ROWS 500
#define TOP_ROW 300
#define TOP_DELTA 5
/* How long a wait for the tree's layout lasts at most (a condition polled, not a pause). */
#define WAIT_US (20 * G_USEC_PER_SEC)

G_GNUC_BEGIN_IGNORE_DEPRECATIONS /* GtkTreeView, as the programs that still use it */

static gboolean saving;
static int failures;

static void result(gboolean ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

/* The row at the top of the tree (-1 for none), and the pixels into it: the row at the scroll's
 * value (GTK 4's bin window coordinates start above the column headers). */
static int top_row(GtkTreeView *tree, int *delta) {
    GtkTreePath *path = NULL;
    int value = (int)gtk_adjustment_get_value(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(tree))), y = 0;
    *delta = 0;
    /* One pixel below the value: GTK 4.8 gives a point on the boundary of two rows to the row
     * above it. */
    gtk_tree_view_convert_tree_to_bin_window_coords(tree, 0, value + 1, NULL, &y);
    if (!gtk_tree_view_get_path_at_pos(tree, 0, y, &path, NULL, NULL, delta)) return -1;
    *delta -= 1;
    int row = gtk_tree_path_get_indices(path)[0];
    gtk_tree_path_free(path);
    return row;
}

static gboolean at_saved_top(GtkTreeView *tree) {
    int delta = 0;
    return top_row(tree, &delta) == TOP_ROW && delta == TOP_DELTA;
}

static gboolean row_at_top(GtkTreeView *tree) {
    int delta = 0;
    return top_row(tree, &delta) == TOP_ROW;
}

static gboolean wake(gpointer data) {
    (void)data;
    return G_SOURCE_CONTINUE;
}

static void iterate_until(gboolean (*done)(GtkTreeView *), GtkTreeView *tree) {
    guint waker = g_timeout_add(50, wake, NULL); /* an iteration returns even when nothing else happens */
    gint64 end = g_get_monotonic_time() + WAIT_US;
    while (!done(tree) && g_get_monotonic_time() < end) g_main_context_iteration(NULL, TRUE);
    g_source_remove(waker);
}

static GtkTreeView *tree_view(GtkWidget *window, int padding) {
    GtkListStore *store = gtk_list_store_new(1, G_TYPE_STRING);
    for (int i = 0; i < ROWS; i++) {
        char *text = g_strdup_printf("row %d", i);
        gtk_list_store_insert_with_values(store, NULL, -1, 0, text, -1);
        g_free(text);
    }
    GtkWidget *tree = gtk_tree_view_new_with_model(GTK_TREE_MODEL(store));
    g_object_unref(store);
    gtk_widget_set_name(tree, "rows");
    GtkCellRenderer *cell = gtk_cell_renderer_text_new();
    g_object_set(cell, "ypad", padding, NULL);
    gtk_tree_view_insert_column_with_attributes(GTK_TREE_VIEW(tree), -1, "Row", cell, "text", 0, NULL);
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), tree);
    gtk_window_set_child(GTK_WINDOW(window), scrolled);
    return GTK_TREE_VIEW(tree);
}

static void activate(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(window), 300, 300);
    GtkTreeView *tree = tree_view(window, saving ? 0 : 8);
    amber_gtk_restore(NULL, gtk); /* saving: a fresh state directory, nothing comes back */
    gtk_window_present(GTK_WINDOW(window));
    int delta = 0;
    if (saving) {
        GtkTreePath *path = gtk_tree_path_new_from_indices(TOP_ROW, -1);
        gtk_tree_view_scroll_to_cell(tree, path, NULL, TRUE, 0, 0);
        gtk_tree_path_free(path);
        iterate_until(row_at_top, tree);
        GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(tree));
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + TOP_DELTA);
        int row = top_row(tree, &delta);
        char *line = g_strdup_printf("saved: row %d at the top, %d pixels into it", row, delta);
        result(row == TOP_ROW && delta == TOP_DELTA && amber_gtk_save(gtk) == AMBER_OK, line);
        g_free(line);
    } else {
        iterate_until(at_saved_top, tree);
        int row = top_row(tree, &delta);
        char *line = g_strdup_printf("restored into taller rows: row %d at the top, %d pixels into it (saved: row %d, %d)", row,
                                     delta, TOP_ROW, TOP_DELTA);
        result(row == TOP_ROW && delta == TOP_DELTA, line);
        g_free(line);
    }
    gtk_window_destroy(GTK_WINDOW(window));
}

G_GNUC_END_IGNORE_DEPRECATIONS

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "save") != 0 && strcmp(argv[1], "check") != 0)) {
        fprintf(stderr, "usage: test_tree_scroll save|check\n");
        return 2;
    }
    saving = strcmp(argv[1], "save") == 0;
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, "org.amber.treescroll", NULL) != AMBER_OK) {
        fprintf(stderr, "test_tree_scroll: %s\n", amber_error_last());
        return 1;
    }
    GtkApplication *app = gtk_application_new("org.amber.treescroll", G_APPLICATION_NON_UNIQUE);
    if (amber_gtk_attach(engine, app) == NULL) return 1;
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    char *args[] = {argv[0], NULL};
    int status = g_application_run(G_APPLICATION(app), 1, args);
    g_object_unref(app);
    amber_engine_close(engine);
    return status != 0 || failures > 0;
}

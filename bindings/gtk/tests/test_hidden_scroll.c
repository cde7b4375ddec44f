/*
 * test_hidden_scroll.c — a scroll on a page hidden at restore (issue 40): it is applied when the
 * page first shows, and the adapter's report lines say so, not that it was restored before.
 *
 *   test_hidden_scroll save    a stack of two pages, the second a text view of 300 lines scrolled
 *                              to line 120; the first page shown again; saves
 *   test_hidden_scroll check   restores (the first page shows): one line says the text view's
 *                              scroll is pending until its page shows, none that it was applied;
 *                              then the second page is shown: once its scroll is applied, line
 *                              120 is at the top and one line says its scroll is restored
 *
 * The adapter's lines on stderr are read through g_set_printerr_handler() (and still printed).
 * Prints "ok ..." lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.hidden.
 */
#include "amber-gtk.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

#define TOP_LINE 120
/* How long the check waits for the page's scroll to be applied (a condition polled, not a pause). */
#define APPLY_WAIT_US (20 * G_USEC_PER_SEC)

static gboolean saving;

/* The adapter's lines printed so far about the text view that contain `words`. */
static gboolean printed_about_text(const char *words) {
    gchar **lines = g_strsplit(printed->str, "\n", -1);
    gboolean found = FALSE;
    for (gchar **line = lines; *line != NULL && !found; line++)
        found = strstr(*line, "pages/text") != NULL && strstr(*line, words) != NULL;
    g_strfreev(lines);
    return found;
}

/* The line of the text view's buffer at the top of its view. */
static int top_line(GtkTextView *view) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view));
    GtkTextIter iter;
    gtk_text_view_get_line_at_y(view, &iter, (int)gtk_adjustment_get_value(adjustment), NULL);
    return gtk_text_iter_get_line(&iter);
}

static gboolean wake(gpointer data) {
    (void)data;
    return G_SOURCE_CONTINUE;
}

static void iterate_until(gboolean (*done)(GtkTextView *), GtkTextView *view) {
    guint waker = g_timeout_add(50, wake, NULL); /* an iteration returns even when nothing else happens */
    gint64 end = g_get_monotonic_time() + APPLY_WAIT_US;
    while (!done(view) && g_get_monotonic_time() < end) g_main_context_iteration(NULL, TRUE);
    g_source_remove(waker);
}

/* The y of line TOP_LINE in the text view's buffer. */
static int top_line_y(GtkTextView *view) {
    GtkTextIter iter;
    int y = 0;
    gtk_text_buffer_get_iter_at_line(gtk_text_view_get_buffer(view), &iter, TOP_LINE);
    gtk_text_view_get_line_yrange(view, &iter, &y, NULL);
    return y;
}

/* Shown, and its lines measured far enough for line TOP_LINE to scroll to the top (a text view
 * measures its lines a few at a time). */
static gboolean measured(GtkTextView *view) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view));
    int y = top_line_y(view);
    return gtk_widget_get_mapped(GTK_WIDGET(view)) && y > 0 &&
           gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) >= y;
}

static gboolean at_top_line(GtkTextView *view) { return top_line(view) == TOP_LINE; }

static gboolean scroll_applied(GtkTextView *view) {
    (void)view;
    return printed_about_text("scroll restored");
}

static GtkTextView *text_view(GtkWidget *stack) {
    GtkWidget *view = gtk_text_view_new();
    gtk_widget_set_name(view, "text");
    GString *text = g_string_new(NULL);
    for (int i = 0; i < 300; i++) g_string_append_printf(text, "line %d\n", i);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(view)), text->str, -1);
    g_string_free(text, TRUE);
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), view);
    gtk_stack_add_named(GTK_STACK(stack), gtk_label_new("first page"), "first");
    gtk_stack_add_named(GTK_STACK(stack), scrolled, "second");
    return GTK_TEXT_VIEW(view);
}

static void save(AmberGtk *gtk, GtkWidget *window, GtkWidget *stack, GtkTextView *view) {
    amber_gtk_restore(NULL, gtk); /* a fresh state directory: nothing comes back */
    gtk_stack_set_visible_child_name(GTK_STACK(stack), "second");
    gtk_window_present(GTK_WINDOW(window));
    iterate_until(measured, view);
    gtk_adjustment_set_value(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view)), top_line_y(view));
    iterate_until(at_top_line, view);
    gtk_stack_set_visible_child_name(GTK_STACK(stack), "first");
    char *line = g_strdup_printf("saved: the text view at line %d, on the page hidden since", top_line(view));
    result(top_line(view) == TOP_LINE && amber_gtk_save(gtk) == AMBER_OK, line);
    g_free(line);
}

static void check(AmberGtk *gtk, GtkWidget *window, GtkWidget *stack, GtkTextView *view) {
    amber_gtk_restore(NULL, gtk);
    gtk_window_present(GTK_WINDOW(window));
    result(strcmp(gtk_stack_get_visible_child_name(GTK_STACK(stack)), "first") == 0 &&
               printed_about_text("pending until its page shows") && !printed_about_text("scroll restored"),
           "restored with the text view's page hidden: one line says its scroll is pending until its page shows, "
           "none that it is restored");
    gtk_stack_set_visible_child_name(GTK_STACK(stack), "second");
    iterate_until(scroll_applied, view);
    char *line = g_strdup_printf("its page shown: a line says its scroll is restored, and line %d is at the top (saved: %d)",
                                 top_line(view), TOP_LINE);
    result(printed_about_text("scroll restored") && top_line(view) == TOP_LINE, line);
    g_free(line);
}

static void activate(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(window), 300, 200);
    GtkWidget *stack = gtk_stack_new();
    gtk_widget_set_name(stack, "pages");
    gtk_window_set_child(GTK_WINDOW(window), stack);
    GtkTextView *view = text_view(stack);
    if (saving) save(gtk, window, stack, view);
    else check(gtk, window, stack, view);
    gtk_window_destroy(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    int mode = save_or_check(argc, argv, "test_hidden_scroll");
    if (mode < 0) return 2;
    saving = mode == 1;
    return run_attached("test_hidden_scroll", "org.amber.hidden", 0, G_CALLBACK(activate));
}

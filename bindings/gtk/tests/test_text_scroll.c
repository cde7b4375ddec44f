/*
 * test_text_scroll.c — a text view's scroll restored on a slow machine (issue 40): the top line
 * comes back however late GTK measures the lines above it.
 *
 *   test_text_scroll save    a text view of 3,000 lines scrolled to line 2,500 and 7 pixels into
 *                            it; saves
 *   test_text_scroll check   restores while the program is busy: BUSY_STEPS steps of BUSY_STEP_US
 *                            of work, in an idle of a priority above GTK's idle that measures
 *                            the text view's lines (GTK measures them lazily, a few screens at a
 *                            time, after drawing), so the window draws its frames but GTK does
 *                            not measure its lines below the first screen meanwhile, as on a
 *                            loaded machine: line 2,500 at the top, 7 pixels into it, while the
 *                            program is still busy, and still once it is idle
 *
 * The busy steps outlast any clock the adapter could wait on (a scroll applied when a timer runs
 * out lands on the lines measured so far, near the top), however fast the machine: they are
 * counted in steps, each at least BUSY_STEP_US long.
 *
 * Prints "ok ..." lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.textscroll.
 */
#include "amber-gtk.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

#define LINES 3000
#define TOP_LINE 2500
#define DELTA 7
/* The busy steps: 250 of 20 ms or more, 5 s at least. */
#define BUSY_STEPS 250
#define BUSY_STEP_US 20000
/* Above GTK_TEXT_VIEW_PRIORITY_VALIDATE, below drawing. */
#define BUSY_PRIORITY (GDK_PRIORITY_REDRAW + 1)
/* How long the check waits for the scroll once the program is idle (a condition polled, not a
 * pause). */
#define APPLY_WAIT_US (30 * G_USEC_PER_SEC)

static gboolean saving;
static int busy_steps_left = BUSY_STEPS;

static GtkAdjustment *vadjustment(GtkTextView *view) { return gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view)); }

/* The y of line TOP_LINE and its height (0 until GTK has measured it). */
static int top_line_y(GtkTextView *view, int *height) {
    GtkTextIter iter;
    int y = 0;
    gtk_text_buffer_get_iter_at_line(gtk_text_view_get_buffer(view), &iter, TOP_LINE);
    gtk_text_view_get_line_yrange(view, &iter, &y, height);
    return y;
}

/* The line at the top of the view, and the pixels into it. */
static int top_line(GtkTextView *view, int *delta) {
    int value = (int)gtk_adjustment_get_value(vadjustment(view)), top = 0;
    GtkTextIter iter;
    gtk_text_view_get_line_at_y(view, &iter, value, &top);
    *delta = value - top;
    return gtk_text_iter_get_line(&iter);
}

static gboolean at_top_line(GtkTextView *view) {
    int delta = 0;
    return top_line(view, &delta) == TOP_LINE && delta == DELTA;
}

/* Every line measured, line TOP_LINE scrollable to the top. */
static gboolean measured(GtkTextView *view) {
    GtkAdjustment *adjustment = vadjustment(view);
    int height = 0, y = top_line_y(view, &height);
    return gtk_widget_get_mapped(GTK_WIDGET(view)) && height > 0 &&
           gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) >= y + DELTA;
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

/* A step of the program's work: BUSY_STEP_US of it. */
static gboolean busy_step(gpointer data) {
    (void)data;
    gint64 end = g_get_monotonic_time() + BUSY_STEP_US;
    while (g_get_monotonic_time() < end) {
    }
    return --busy_steps_left > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean busy_done(GtkTextView *view) {
    (void)view;
    return busy_steps_left == 0;
}

static gboolean at_top_line_or_idle(GtkTextView *view) { return at_top_line(view) || busy_done(view); }

static GtkTextView *text_view(GtkWidget *window) {
    GtkWidget *view = gtk_text_view_new();
    gtk_widget_set_name(view, "text");
    GString *text = g_string_new(NULL);
    for (int i = 0; i < LINES; i++) g_string_append_printf(text, "line %d\n", i);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(view)), text->str, -1);
    g_string_free(text, TRUE);
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), view);
    gtk_window_set_child(GTK_WINDOW(window), scrolled);
    return GTK_TEXT_VIEW(view);
}

static void save(AmberGtk *gtk, GtkWidget *window, GtkTextView *view) {
    amber_gtk_restore(NULL, gtk); /* a fresh state directory: nothing comes back */
    gtk_window_present(GTK_WINDOW(window));
    iterate_until(measured, view);
    gtk_adjustment_set_value(vadjustment(view), top_line_y(view, NULL) + DELTA);
    iterate_until(at_top_line, view);
    int delta = 0, line = top_line(view, &delta);
    char *what = g_strdup_printf("saved: the text view at line %d, %d pixels into it", line, delta);
    result(line == TOP_LINE && delta == DELTA && amber_gtk_save(gtk) == AMBER_OK, what);
    g_free(what);
}

static void check(AmberGtk *gtk, GtkWidget *window, GtkTextView *view) {
    amber_gtk_restore(NULL, gtk);
    g_idle_add_full(BUSY_PRIORITY, busy_step, NULL, NULL);
    gtk_window_present(GTK_WINDOW(window));
    iterate_until(at_top_line_or_idle, view);
    int delta = 0, line = top_line(view, &delta);
    char *what = g_strdup_printf("restored while the program is busy, GTK not measuring the text view's lines: line %d at "
                                 "the top, %d pixels into it, with %d of %d busy steps left (saved: %d, %d)",
                                 line, delta, busy_steps_left, BUSY_STEPS, TOP_LINE, DELTA);
    result(line == TOP_LINE && delta == DELTA && busy_steps_left > 0, what);
    g_free(what);
    iterate_until(busy_done, view);
    iterate_until(at_top_line, view);
    line = top_line(view, &delta);
    what = g_strdup_printf("the program idle again: line %d at the top, %d pixels into it (saved: %d, %d)", line,
                                 delta, TOP_LINE, DELTA);
    result(line == TOP_LINE && delta == DELTA, what);
    g_free(what);
}

static void activate(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(window), 300, 200);
    GtkTextView *view = text_view(window);
    if (saving) save(gtk, window, view);
    else check(gtk, window, view);
    gtk_window_destroy(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    int mode = save_or_check(argc, argv, "test_text_scroll");
    if (mode < 0) return 2;
    saving = mode == 1;
    return run_attached("test_text_scroll", "org.amber.textscroll", 0, G_CALLBACK(activate));
}

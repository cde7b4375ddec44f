/*
 * test_own_size.c — a program that also keeps its own window size (issue 40): it sets the size
 * from its own settings after the adapter restored the window. No fight over the size, no crash,
 * and one line says which size won.
 *
 *   test_own_size save    the window at 300x200, with a scale named "level" at 10; saves
 *   test_own_size check   restores (300x200 and 10), then the program sets its own size, 520x340,
 *                         and shows the window: after its first frame the size is the program's,
 *                         the scale still at 10, and one line on stderr says the program's size
 *                         is kept
 *
 * The adapter's lines on stderr are read through g_set_printerr_handler() (and still printed).
 * Prints "ok ..." lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.ownsize.
 */
#include "amber-gtk.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

/* The size the program keeps in its own settings. */
#define OWN_WIDTH 520
#define OWN_HEIGHT 340

static gboolean saving;

/* After the window's first frame: the program's size, the restored scale, one line. */
static gboolean check_first_frame(GtkWidget *window, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    GtkWidget *scale = data;
    int width = 0, height = 0;
    gtk_window_get_default_size(GTK_WINDOW(window), &width, &height);
    char *line = g_strdup_printf("shown: %dx%d (the program's: %dx%d), the scale at %g (saved: 10)", width, height, OWN_WIDTH,
                                 OWN_HEIGHT, gtk_range_get_value(GTK_RANGE(scale)));
    result(width == OWN_WIDTH && height == OWN_HEIGHT && gtk_range_get_value(GTK_RANGE(scale)) == 10, line);
    g_free(line);
    result(lines_with("GtkApplicationWindow: the program set its own size, 520x340, after the restore gave it 300x200: "
                      "the program's is kept") == 1 &&
               lines_with("amber-gtk:") == 1,
           "one line on stderr: the program's size is kept, over the restored one");
    gtk_window_destroy(GTK_WINDOW(window));
    return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    GtkWidget *window = gtk_application_window_new(app);
    GtkWidget *scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1);
    gtk_widget_set_name(scale, "level");
    gtk_range_set_value(GTK_RANGE(scale), 50);
    gtk_window_set_child(GTK_WINDOW(window), scale);
    amber_gtk_restore(NULL, gtk); /* saving: a fresh state directory, nothing comes back */
    if (saving) {
        gtk_window_set_default_size(GTK_WINDOW(window), 300, 200);
        gtk_range_set_value(GTK_RANGE(scale), 10);
        gtk_window_present(GTK_WINDOW(window));
        result(amber_gtk_save(gtk) == AMBER_OK, "saved: the window at 300x200, its scale at 10");
        gtk_window_destroy(GTK_WINDOW(window));
        return;
    }
    int width = 0, height = 0;
    gtk_window_get_default_size(GTK_WINDOW(window), &width, &height);
    char *line = g_strdup_printf("restored: %dx%d (saved: 300x200)", width, height);
    result(width == 300 && height == 200, line);
    g_free(line);
    /* The program's own settings, read after the adapter restored. */
    gtk_window_set_default_size(GTK_WINDOW(window), OWN_WIDTH, OWN_HEIGHT);
    gtk_widget_add_tick_callback(window, check_first_frame, scale, NULL);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    int mode = save_or_check(argc, argv, "test_own_size");
    if (mode < 0) return 2;
    saving = mode == 1;
    return run_attached("test_own_size", "org.amber.ownsize", AMBER_GTK_KEEP_TOGGLES, G_CALLBACK(activate));
}

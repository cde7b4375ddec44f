/*
 * test_late_window.c — a window that first shows after the launch claims its state (issue 40,
 * Amber's R35), as under amber-run, which keeps the records no window claimed for the whole run.
 *
 *   test_late_window save    a main window and a second one named "inspector", each with a scale
 *                            (10 and 40); saves
 *   test_late_window claim   restores with the main window alone, then shows the inspector once
 *                            the main window has drawn a frame: its scale comes back at 40; at
 *                            launch one line says the inspector's state is kept for a window
 *                            that shows later, none that it or its scale is not restored, and
 *                            none at the end either
 *   test_late_window unclaimed  the inspector never shows: the same line at launch, and one
 *                            line at the end says it was not restored
 *
 * The adapter's lines on stderr are read through g_set_printerr_handler() (and still printed).
 * Run save, claim, save, unclaimed: a restoration discards the archive (R14).
 * Prints "ok ..." lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.late.
 */
#include "amber-gtk.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

/* What amber-run keeps the unclaimed records for: as long as the program runs. */
#define KEEP_MS ((uint64_t)3600 * 1000)

typedef enum { SAVE, CLAIM, UNCLAIMED } Mode;

static Mode mode;

static void check_launch_lines(void) {
    result(lines_starting("amber-gtk: inspector: kept for a window that shows later") == 1 &&
               lines_starting("amber-gtk: inspector not restored") == 0 && lines_starting("amber-gtk: inspector/") == 0,
           "at launch: one line says the inspector's state is kept for a window that shows later, none that it or "
           "its scale is not restored");
}

static GtkWidget *window_with_scale(GtkApplication *app, const char *name, GtkWidget **scale) {
    GtkWidget *window = gtk_application_window_new(app);
    if (name != NULL) gtk_widget_set_name(window, name);
    *scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1);
    gtk_widget_set_name(*scale, "level");
    gtk_range_set_value(GTK_RANGE(*scale), 50);
    gtk_window_set_child(GTK_WINDOW(window), *scale);
    return window;
}

/* The inspector, shown after the launch (after the main window's first frame). */
static gboolean show_inspector(GtkWidget *main_window, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    GtkApplication *app = data;
    GtkWidget *scale = NULL;
    GtkWidget *inspector = window_with_scale(app, "inspector", &scale);
    gtk_window_present(GTK_WINDOW(inspector));
    char *line = g_strdup_printf("the inspector shown after the launch: its scale at %g (saved: 40)", gtk_range_get_value(GTK_RANGE(scale)));
    result(gtk_range_get_value(GTK_RANGE(scale)) == 40, line);
    g_free(line);
    gtk_window_destroy(GTK_WINDOW(inspector));
    gtk_window_destroy(GTK_WINDOW(main_window));
    return G_SOURCE_REMOVE;
}

/* The inspector never shows: the program ends after the main window's first frame. */
static gboolean end_without_inspector(GtkWidget *main_window, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    gtk_window_destroy(GTK_WINDOW(main_window));
    return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    GtkWidget *scale = NULL;
    GtkWidget *main_window = window_with_scale(app, NULL, &scale);
    if (mode == SAVE) {
        amber_gtk_restore(NULL, gtk); /* a fresh state directory: nothing comes back */
        GtkWidget *inspector_scale = NULL;
        GtkWidget *inspector = window_with_scale(app, "inspector", &inspector_scale);
        gtk_range_set_value(GTK_RANGE(scale), 10);
        gtk_range_set_value(GTK_RANGE(inspector_scale), 40);
        gtk_window_present(GTK_WINDOW(main_window));
        gtk_window_present(GTK_WINDOW(inspector));
        result(amber_gtk_save(gtk) == AMBER_OK, "saved: the main window's scale at 10, the inspector's at 40");
        gtk_window_destroy(GTK_WINDOW(inspector));
        gtk_window_destroy(GTK_WINDOW(main_window));
        return;
    }
    amber_gtk_restore(NULL, gtk);
    char *line = g_strdup_printf("the main window at launch: its scale at %g (saved: 10)", gtk_range_get_value(GTK_RANGE(scale)));
    result(gtk_range_get_value(GTK_RANGE(scale)) == 10, line);
    g_free(line);
    check_launch_lines();
    gtk_widget_add_tick_callback(main_window, mode == CLAIM ? show_inspector : end_without_inspector, app, NULL);
    gtk_window_present(GTK_WINDOW(main_window));
}

int main(int argc, char **argv) {
    const char *modes[] = {"save", "claim", "unclaimed"};
    mode = SAVE;
    while (argc == 2 && mode <= UNCLAIMED && strcmp(argv[1], modes[mode]) != 0) mode++;
    if (argc != 2 || mode > UNCLAIMED) {
        fprintf(stderr, "usage: test_late_window save|claim|unclaimed\n");
        return 2;
    }
    printed = g_string_new(NULL);
    g_set_printerr_handler(keep_printed);
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, "org.amber.late", NULL) != AMBER_OK) {
        fprintf(stderr, "test_late_window: %s\n", amber_error_last());
        return 1;
    }
    GtkApplication *app = gtk_application_new("org.amber.late", G_APPLICATION_NON_UNIQUE);
    AmberGtk *gtk = amber_gtk_attach(engine, app);
    if (amber_gtk_keep_unclaimed(gtk, KEEP_MS) != AMBER_OK) {
        fprintf(stderr, "test_late_window: %s\n", amber_error_last());
        return 1;
    }
    amber_gtk_set_options(gtk, AMBER_GTK_KEEP_TOGGLES);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    char *args[] = {argv[0], NULL};
    int status = g_application_run(G_APPLICATION(app), 1, args);
    if (mode == CLAIM)
        result(lines_starting("amber-gtk: inspector not restored") == 0, "at the end: no line says the inspector was not restored");
    else if (mode == UNCLAIMED)
        result(lines_starting("amber-gtk: inspector not restored: no window inspector showed while the program ran") == 1,
               "at the end: one line says the inspector, never shown, was not restored");
    g_object_unref(app);
    amber_engine_close(engine);
    return status != 0 || failures > 0;
}

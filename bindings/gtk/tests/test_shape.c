/*
 * test_shape.c — automatic identifiers (AMBER_GTK_AUTO_NAMES) and the window's shape (issue 40):
 * unnamed widgets get their state back when the interface is built the same way, and none when
 * another version of the program built it otherwise.
 *
 *   test_shape save      two unnamed scales set to 10 and 20, a named one to 30; saves
 *   test_shape same      the same interface: the three values come back
 *   test_shape changed   an unnamed scale added before the others (another version): no unnamed
 *                        scale gets a value, the named one still does, and one line on stderr
 *                        says why (run-tests.sh checks it)
 *
 * Prints "ok ..." lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.shape.
 */
#include "amber-gtk.h"

#include <stdio.h>
#include <string.h>

typedef enum { SAVE, SAME, CHANGED } Mode;

static Mode mode;
static int failures;

static void result(gboolean ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

static GtkWidget *scale(GtkWidget *box, const char *name) {
    GtkWidget *widget = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1);
    gtk_range_set_value(GTK_RANGE(widget), 50);
    if (name != NULL) gtk_widget_set_name(widget, name);
    gtk_box_append(GTK_BOX(box), widget);
    return widget;
}

static double value(GtkWidget *widget) { return gtk_range_get_value(GTK_RANGE(widget)); }

static void activate(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    GtkWidget *window = gtk_application_window_new(app);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_window_set_child(GTK_WINDOW(window), box);
    GtkWidget *added = mode == CHANGED ? scale(box, NULL) : NULL;
    GtkWidget *first = scale(box, NULL), *second = scale(box, NULL), *named = scale(box, "volume");
    if (mode == SAVE) {
        amber_gtk_restore(NULL, gtk); /* a fresh state directory: nothing comes back */
        gtk_range_set_value(GTK_RANGE(first), 10);
        gtk_range_set_value(GTK_RANGE(second), 20);
        gtk_range_set_value(GTK_RANGE(named), 30);
        gtk_window_present(GTK_WINDOW(window)); /* the windows shown are saved */
        result(amber_gtk_save(gtk) == AMBER_OK, "saved: unnamed scales at 10 and 20, the named one at 30");
    } else {
        amber_gtk_restore(NULL, gtk);
        char *line;
        if (mode == SAME) {
            line = g_strdup_printf("the same interface: unnamed scales at %g and %g, the named one at %g", value(first),
                                   value(second), value(named));
            result(value(first) == 10 && value(second) == 20 && value(named) == 30, line);
        } else {
            line = g_strdup_printf("a scale added before them: unnamed scales at %g, %g and %g (as built), the named one at %g",
                                   value(added), value(first), value(second), value(named));
            result(value(added) == 50 && value(first) == 50 && value(second) == 50 && value(named) == 30, line);
        }
        g_free(line);
    }
    gtk_window_destroy(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "save") != 0 && strcmp(argv[1], "same") != 0 && strcmp(argv[1], "changed") != 0)) {
        fprintf(stderr, "usage: test_shape save|same|changed\n");
        return 2;
    }
    mode = strcmp(argv[1], "save") == 0 ? SAVE : strcmp(argv[1], "same") == 0 ? SAME : CHANGED;
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, "org.amber.shape", NULL) != AMBER_OK) {
        fprintf(stderr, "test_shape: %s\n", amber_error_last());
        return 1;
    }
    GtkApplication *app = gtk_application_new("org.amber.shape", G_APPLICATION_NON_UNIQUE);
    AmberGtk *gtk = amber_gtk_attach(engine, app);
    amber_gtk_set_options(gtk, AMBER_GTK_AUTO_NAMES | AMBER_GTK_KEEP_TOGGLES);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    char *args[] = {argv[0], NULL};
    int status = g_application_run(G_APPLICATION(app), 1, args);
    g_object_unref(app);
    amber_engine_close(engine);
    return status != 0 || failures > 0;
}

/*
 * test_two_windows.c — two windows of one type, both unnamed, as a program with two editor
 * windows opens them (issue 40): each gets its own state back.
 *
 *   test_two_windows save    two GtkApplicationWindows, each with a scale named "level": the
 *                            first at 10 and 300x200, the second at 40 and 420x260; saves
 *   test_two_windows check   the same two windows, built in the same order: the first comes back
 *                            at 10 and 300x200, the second at 40 and 420x260, and the adapter
 *                            prints no line (nothing left out, nothing not restored)
 *   test_two_windows save-named, check-named-reversed   the same, the windows named after the
 *                            files they show ("a.txt", "b.txt"), and built in the other order at
 *                            the check: each comes back with its own state (unnamed, the order
 *                            is all that tells them apart: see the README's limit)
 *
 * The adapter's lines on stderr are read through g_set_printerr_handler() (and still printed).
 * Prints "ok ..." lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.twowindows.
 */
#include "amber-gtk.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

static gboolean saving;
/* The windows named after their files, and built in the other order at the check. */
static gboolean named;

typedef struct Editor {
    GtkWidget *window;
    GtkWidget *scale;
} Editor;

/* An editor window; named `file` when the windows are named. */
static Editor editor(GtkApplication *app, const char *file) {
    Editor e = {gtk_application_window_new(app), gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1)};
    if (named) gtk_widget_set_name(e.window, file);
    gtk_widget_set_name(e.scale, "level");
    gtk_range_set_value(GTK_RANGE(e.scale), 50);
    gtk_window_set_child(GTK_WINDOW(e.window), e.scale);
    return e;
}

static void set_state(Editor e, double value, int width, int height) {
    gtk_range_set_value(GTK_RANGE(e.scale), value);
    gtk_window_set_default_size(GTK_WINDOW(e.window), width, height);
}

/* Whether the editor is at `value` and `width`x`height`; `which` names it in the line printed. */
static void check_state(Editor e, const char *which, double value, int width, int height) {
    int w = 0, h = 0;
    gtk_window_get_default_size(GTK_WINDOW(e.window), &w, &h);
    double now = gtk_range_get_value(GTK_RANGE(e.scale));
    char *line = g_strdup_printf("the %s window: its scale at %g, %dx%d (saved: %g, %dx%d)", which, now, w, h, value, width, height);
    result(now == value && w == width && h == height, line);
    g_free(line);
}

static void activate(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    Editor first, second;
    if (named && !saving) { /* reopened in the other order */
        second = editor(app, "b.txt");
        first = editor(app, "a.txt");
    } else {
        first = editor(app, "a.txt");
        second = editor(app, "b.txt");
    }
    amber_gtk_restore(NULL, gtk); /* saving: a fresh state directory, nothing comes back */
    if (saving) {
        set_state(first, 10, 300, 200);
        set_state(second, 40, 420, 260);
        gtk_window_present(GTK_WINDOW(first.window));
        gtk_window_present(GTK_WINDOW(second.window));
        result(amber_gtk_save(gtk) == AMBER_OK && strstr(printed->str, "amber-gtk:") == NULL,
               named ? "saved: two windows of one type named a.txt and b.txt, at 10 and 40, nothing left out"
                     : "saved: two unnamed windows of one type, at 10 and 40, nothing left out");
    } else {
        check_state(first, named ? "a.txt" : "first", 10, 300, 200);
        check_state(second, named ? "b.txt" : "second", 40, 420, 260);
        result(strstr(printed->str, "amber-gtk:") == NULL, "no line on stderr: nothing left out, nothing not restored");
    }
    gtk_window_destroy(GTK_WINDOW(second.window));
    gtk_window_destroy(GTK_WINDOW(first.window));
}

int main(int argc, char **argv) {
    const char *modes[] = {"save", "check", "save-named", "check-named-reversed"};
    int mode = -1;
    for (int i = 0; i < 4 && argc == 2; i++)
        if (strcmp(argv[1], modes[i]) == 0) mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: test_two_windows save|check|save-named|check-named-reversed\n");
        return 2;
    }
    saving = mode % 2 == 0;
    named = mode >= 2;
    return run_attached("test_two_windows", "org.amber.twowindows", AMBER_GTK_KEEP_TOGGLES, G_CALLBACK(activate));
}

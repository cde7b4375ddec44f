/*
 * test_support.h — what the adapter's small test programs share: a check's line and the count
 * of those that failed, what the adapter printed (g_printerr), kept so that a test can count
 * its lines, and the run of a "save|check" program's application with the adapter attached.
 * Header only: each test is a program of its own.
 */
#ifndef AMBER_GTK_TEST_SUPPORT_H
#define AMBER_GTK_TEST_SUPPORT_H

#include "amber-gtk.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* The checks that failed: the program exits non-zero if any did. */
static int failures;
/* What was printed through g_printerr once keep_printed() is its handler. */
static GString *printed;
/* The engine run_attached() opened (for a test that reaches the engine itself). */
static amber_engine *attached_engine;

/* Prints one check's line ("ok  " or "FAIL", then what it checks) and counts a failure. */
static inline void result(gboolean ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

/* A g_printerr handler: keeps the text in `printed` and still writes it to standard error. */
static inline void keep_printed(const char *text) {
    g_string_append(printed, text);
    fputs(text, stderr);
}

/* How many lines printed so far contain `words`. */
static inline int lines_with(const char *words) {
    gchar **lines = g_strsplit(printed->str, "\n", -1);
    int count = 0;
    for (gchar **line = lines; *line != NULL; line++) count += strstr(*line, words) != NULL;
    g_strfreev(lines);
    return count;
}

/* How many lines printed so far begin with `start`. */
static inline int lines_starting(const char *start) {
    gchar **lines = g_strsplit(printed->str, "\n", -1);
    int count = 0;
    for (gchar **line = lines; *line != NULL; line++) count += g_str_has_prefix(*line, start);
    g_strfreev(lines);
    return count;
}

/* The mode of a program run as `PROGRAM save|check`: 1 to save, 0 to check, -1 (the usage
 * printed) for anything else. */
static inline int save_or_check(int argc, char **argv, const char *program) {
    if (argc == 2 && strcmp(argv[1], "save") == 0) return 1;
    if (argc == 2 && strcmp(argv[1], "check") == 0) return 0;
    fprintf(stderr, "usage: %s save|check\n", program);
    return -1;
}

/* Runs the application APP_ID with the adapter attached and `options` set, `activate`
 * connected to its "activate" signal, and the adapter's lines kept (keep_printed). The
 * program's exit status: non-zero if the engine did not open, the run failed or a check did. */
static inline int run_attached(const char *program, const char *app_id, AmberGtkOptions options, GCallback activate) {
    printed = g_string_new(NULL);
    g_set_printerr_handler(keep_printed);
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, app_id, NULL) != AMBER_OK) {
        fprintf(stderr, "%s: %s\n", program, amber_error_last());
        return 1;
    }
    attached_engine = engine;
    GtkApplication *app = gtk_application_new(app_id, G_APPLICATION_NON_UNIQUE);
    AmberGtk *gtk = amber_gtk_attach(engine, app);
    if (gtk == NULL) return 1;
    amber_gtk_set_options(gtk, options);
    g_signal_connect(app, "activate", activate, NULL);
    char *args[] = {(char *)program, NULL};
    int status = g_application_run(G_APPLICATION(app), 1, args);
    g_object_unref(app);
    amber_engine_close(engine);
    g_string_free(printed, TRUE);
    return status != 0 || failures > 0;
}

#endif /* AMBER_GTK_TEST_SUPPORT_H */

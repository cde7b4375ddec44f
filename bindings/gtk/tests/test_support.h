/*
 * test_support.h — what the adapter's small test programs share: a check's line and the count
 * of those that failed, and what the adapter printed (g_printerr), kept so that a test can count
 * its lines. Header only: each test is a program of its own.
 */
#ifndef AMBER_GTK_TEST_SUPPORT_H
#define AMBER_GTK_TEST_SUPPORT_H

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* The checks that failed: the program exits non-zero if any did. */
static int failures;
/* What was printed through g_printerr once keep_printed() is its handler. */
static GString *printed;

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

#endif /* AMBER_GTK_TEST_SUPPORT_H */

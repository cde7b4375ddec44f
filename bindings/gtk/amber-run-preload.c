/*
 * amber-run-preload.c — the module amber-run loads into an unmodified GTK 4 program
 * (LD_PRELOAD) so that libamber-gtk attaches to it.
 *
 * How it attaches: it defines g_application_run(), which the program calls from its main()
 * through the dynamic linker, so this definition (loaded first) is the one called. It opens an
 * engine for the application, attaches the adapter with the runner's options, and calls GLib's
 * own g_application_run() (found with dlsym(RTLD_NEXT)). Wrapping this one call is the narrowest
 * hook that sees the application before any of its signals ("startup", "activate", "open",
 * "command-line") is emitted, once it is fully set up (its id, its flags), and whose return is
 * the moment to close the engine. A GObject class or instance hook would fire at construction,
 * before the program sets its id. A program that never calls g_application_run() is left alone.
 *
 * What it takes from the runner, in the environment (read once, then removed, so that programs
 * the program starts are not attached too):
 *   AMBER_RUN_APP_ID      the app id (else the application's own id, else the program's name)
 *   AMBER_RUN_STATE_DIR   the state directory (else the engine's default, $XDG_STATE_HOME/<id>)
 *   AMBER_RUN_PRELOAD     this module's path, removed from LD_PRELOAD
 *   AMBER_RUN_STATE_FILE  debug: on SIGUSR1 the program writes every restorable widget's state
 *                         as it is now to this file (amber_gtk_describe()), and saves nothing;
 *                         the tests read it
 *
 * Nothing here stops the program: an engine that cannot be opened is a line on stderr, and the
 * program runs without Amber.
 */
#define _GNU_SOURCE
#include "amber-gtk.h"

#include <dlfcn.h>
#include <errno.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runner keeps the records no window claimed at launch for the whole run (R35), so that a
 * window opened at any time gets its state: ten years stands for "as long as the program runs". */
#define KEEP_UNCLAIMED_MS ((uint64_t)10 * 365 * 24 * 3600 * 1000)

typedef int (*ApplicationRun)(GApplication *app, int argc, char **argv);

static char *runner_app_id;
static char *runner_state_dir;
static char *runner_state_file;
static gboolean attached_once;

/* Removes `entry` from the colon- or space-separated LD_PRELOAD. */
static void remove_from_preload(const char *entry) {
    const char *preload = getenv("LD_PRELOAD");
    if (preload == NULL || entry == NULL) return;
    char **parts = g_strsplit_set(preload, ": ", -1);
    GString *kept = g_string_new(NULL);
    for (char **p = parts; *p != NULL; p++) {
        if ((*p)[0] == '\0' || strcmp(*p, entry) == 0) continue;
        if (kept->len > 0) g_string_append_c(kept, ':');
        g_string_append(kept, *p);
    }
    if (kept->len > 0) setenv("LD_PRELOAD", kept->str, 1);
    else unsetenv("LD_PRELOAD");
    g_string_free(kept, TRUE);
    g_strfreev(parts);
}

/* Takes the runner's options out of the environment, before the program's main() runs. */
__attribute__((constructor)) static void read_runner_options(void) {
    runner_app_id = g_strdup(getenv("AMBER_RUN_APP_ID"));
    runner_state_dir = g_strdup(getenv("AMBER_RUN_STATE_DIR"));
    runner_state_file = g_strdup(getenv("AMBER_RUN_STATE_FILE"));
    remove_from_preload(getenv("AMBER_RUN_PRELOAD"));
    unsetenv("AMBER_RUN_APP_ID");
    unsetenv("AMBER_RUN_STATE_DIR");
    unsetenv("AMBER_RUN_STATE_FILE");
    unsetenv("AMBER_RUN_PRELOAD");
}

/* The app id: the runner's, else the application's own, else the program's name. */
static char *app_id_for(GApplication *app) {
    if (runner_app_id != NULL && runner_app_id[0] != '\0') return g_strdup(runner_app_id);
    const char *own = g_application_get_application_id(app);
    if (own != NULL && own[0] != '\0') return g_strdup(own);
    const char *name = g_get_prgname();
    return g_path_get_basename(name != NULL ? name : "gtk-program");
}

static amber_engine *open_engine(GApplication *app) {
    char *app_id = app_id_for(app);
    amber_engine_options options = AMBER_ENGINE_OPTIONS_INIT;
    options.state_directory = runner_state_dir;
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, app_id, &options) != AMBER_OK) {
        g_printerr("amber-run: cannot open an engine for %s, the program runs without Amber: %s\n", app_id,
                   amber_error_last());
        engine = NULL;
    }
    g_free(app_id);
    return engine;
}

/* SIGUSR1 (debug, AMBER_RUN_STATE_FILE): writes the state of the widgets. */
static gboolean on_describe(gpointer data) {
    AmberGtk *gtk = amber_gtk_from_application(data);
    if (gtk == NULL) return G_SOURCE_CONTINUE;
    char *text = amber_gtk_describe(gtk);
    char *partial = g_strconcat(runner_state_file, ".part", NULL);
    GError *error = NULL;
    /* Written aside, then renamed: a reader never sees half a file. */
    if (!g_file_set_contents(partial, text, -1, &error) || rename(partial, runner_state_file) != 0) {
        g_printerr("amber-run: cannot write %s: %s\n", runner_state_file, error != NULL ? error->message : g_strerror(errno));
        g_clear_error(&error);
    }
    g_free(partial);
    g_free(text);
    return G_SOURCE_CONTINUE;
}

int g_application_run(GApplication *app, int argc, char **argv) {
    static ApplicationRun real_run;
    if (real_run == NULL) real_run = (ApplicationRun)dlsym(RTLD_NEXT, "g_application_run");
    if (real_run == NULL) {
        fprintf(stderr, "amber-run: GLib's g_application_run() not found: %s\n", dlerror());
        return 1;
    }
    /* One application per run: the first GtkApplication the program runs (a program that runs
     * a second one, or a GApplication without windows, runs as it would). */
    if (attached_once || !GTK_IS_APPLICATION(app) || amber_gtk_from_application(GTK_APPLICATION(app)) != NULL)
        return real_run(app, argc, argv);
    attached_once = TRUE;
    amber_engine *engine = open_engine(app);
    AmberGtk *gtk = engine != NULL ? amber_gtk_attach(engine, GTK_APPLICATION(app)) : NULL;
    if (gtk != NULL) amber_gtk_set_options(gtk, AMBER_GTK_AUTO_NAMES | AMBER_GTK_KEEP_TOGGLES);
    if (gtk != NULL && amber_gtk_keep_unclaimed(gtk, KEEP_UNCLAIMED_MS) != AMBER_OK)
        g_printerr("amber-run: windows opened after launch will not get their state: %s\n", amber_error_last());
    guint describe_source = 0;
    if (gtk != NULL && runner_state_file != NULL) describe_source = g_unix_signal_add(SIGUSR1, on_describe, app);
    int status = real_run(app, argc, argv);
    if (describe_source != 0) g_source_remove(describe_source);
    if (engine != NULL) amber_engine_close(engine);
    return status;
}

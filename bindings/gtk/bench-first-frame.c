/*
 * bench-first-frame.c — a module bench-runner.sh loads into an unmodified GTK 4 program
 * (LD_PRELOAD) to time its start-up: when the program's first window draws its first frame, it
 * writes the time since the bench started the program, then ends the program at once (without
 * letting it save: the bench starts each run from the same archive). It also writes the CPU time
 * the process used until then (user and system), which waits for other processes on a loaded
 * machine do not lengthen.
 *
 * It wraps g_application_run(), as amber-run's module does (see amber-run-preload.c): under
 * amber-run both are loaded, amber-run's first, and each calls the next one's. So the time
 * covers all of amber-run's work: its script, loading the adapter and the engine, attaching,
 * restoring.
 *
 * From the environment:
 *   BENCH_START_US   the wall-clock time the bench started the program, in microseconds since
 *                    the epoch (bash's $EPOCHREALTIME)
 *   BENCH_OUT        the file the line "first_frame_us N first_frame_cpu_us N" is appended to
 */
#define _GNU_SOURCE
#include <gtk/gtk.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

typedef int (*ApplicationRun)(GApplication *app, int argc, char **argv);

/* The CPU time the process has used, user and system, in microseconds. */
static gint64 cpu_us(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (gint64)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static void on_first_paint(GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    gint64 now = g_get_real_time(), cpu = cpu_us();
    const char *start = getenv("BENCH_START_US"), *out = getenv("BENCH_OUT");
    FILE *file = out != NULL ? fopen(out, "a") : NULL;
    if (start == NULL || file == NULL) {
        fprintf(stderr, "bench-first-frame: BENCH_START_US and a writable BENCH_OUT are needed\n");
        _exit(1);
    }
    fprintf(file, "first_frame_us %" G_GINT64_FORMAT " first_frame_cpu_us %" G_GINT64_FORMAT "\n",
            now - g_ascii_strtoll(start, NULL, 10), cpu);
    fclose(file);
    _exit(0);
}

static void on_realize(GtkWidget *window, gpointer data) {
    (void)data;
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(on_first_paint), NULL);
}

/* The first window the application gets is the one whose first frame is timed. */
static void on_window_added(GtkApplication *app, GtkWindow *window, gpointer data) {
    (void)data;
    g_signal_handlers_disconnect_by_func(app, on_window_added, NULL);
    if (gtk_widget_get_realized(GTK_WIDGET(window))) on_realize(GTK_WIDGET(window), NULL);
    else g_signal_connect(window, "realize", G_CALLBACK(on_realize), NULL);
}

int g_application_run(GApplication *app, int argc, char **argv) {
    ApplicationRun real_run = (ApplicationRun)dlsym(RTLD_NEXT, "g_application_run");
    if (real_run == NULL) {
        fprintf(stderr, "bench-first-frame: GLib's g_application_run() not found: %s\n", dlerror());
        return 1;
    }
    if (GTK_IS_APPLICATION(app)) g_signal_connect(app, "window-added", G_CALLBACK(on_window_added), NULL);
    return real_run(app, argc, argv);
}

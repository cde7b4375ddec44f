/*
 * test_two_windows.c — two windows of one type, as a program with two editor windows opens them
 * (issue 40): each gets its own state back, and one line each says how it was matched.
 *
 * Two GtkApplicationWindows, each with a scale named "level", the editors of "a.txt" and
 * "b.txt": a.txt's at 10 and 300x200, b.txt's at 40 and 420x260 when saved.
 *
 *   save, check              unnamed, no titles, built in the same order at the check: each
 *                            gets its own state; one line each says it matched by order (it
 *                            has no title)
 *   save-named, check-named-reversed   named after their files, built in the other order at the
 *                            check: each gets its own state, and no line is printed
 *   save-titled, check-titled-reversed unnamed, titled "a.txt - Editor" and "b.txt - Editor"
 *                            before they show, built in the other order at the check: each gets
 *                            its own state, one line each says it matched by title
 *   save-titled, check-titled-late     the same, the windows built and shown after the
 *                            restoration, each claiming the record kept for it (R35): each
 *                            gets its own state, one line each says its record was kept, one
 *                            that it matched by title
 *   save-same-title, check-same-title-reversed   unnamed, both titled "Editor", built in the
 *                            other order at the check: titles do not tell them apart, so the
 *                            order does: the first built gets the first saved state (a.txt's)
 *                            and one line each says so, and why
 *   save-damaged-index, check-damaged-index   titled, saved with a damaged index of unnamed
 *                            windows (a count of a billion, an identifier that is a number, two
 *                            without a title), reopened in the same order: no crash, each its own
 *                            state, by order: one line each says no window was saved with its title
 *   any check mode, PICTURE  also writes each window's first frame to PICTURE-a.png and
 *                            PICTURE-b.png
 *
 * The adapter's lines on stderr are read through g_set_printerr_handler() (and still printed).
 * Run each save before its check: a restoration discards the archive (R14). Prints "ok ..."
 * lines; exits 1 on a failure. The state is in $XDG_STATE_HOME/org.amber.twowindows.
 */
#include "amber-gtk.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

/* What amber-run keeps the unclaimed records for: as long as the program runs. */
#define KEEP_MS ((uint64_t)3600 * 1000)

typedef struct Mode {
    const char *name;
    gboolean saving;
    /* The windows named after their files. */
    gboolean named;
    /* The titles of a.txt's and b.txt's windows, set before they show (NULL: none). */
    const char *titles[2];
    /* Checks: built in the other order (b.txt's first); built and shown after the restoration. */
    gboolean reversed;
    gboolean late;
    /* Checks: each window gets the other's saved state (the order decides, built reversed). */
    gboolean swapped;
    /* Checks: what each window's line says, once per window (NULL: no line). */
    const char *line;
    /* Saves: the index of unnamed windows damaged, as another program or a bad disk would. */
    gboolean damaged;
} Mode;

static const Mode modes[] = {
    {"save", TRUE, FALSE, {NULL, NULL}, FALSE, FALSE, FALSE, NULL, FALSE},
    {"check", FALSE, FALSE, {NULL, NULL}, FALSE, FALSE, FALSE, "its state matched by order: it has no title", FALSE},
    {"save-named", TRUE, TRUE, {NULL, NULL}, FALSE, FALSE, FALSE, NULL, FALSE},
    {"check-named-reversed", FALSE, TRUE, {NULL, NULL}, TRUE, FALSE, FALSE, NULL, FALSE},
    {"save-titled", TRUE, FALSE, {"a.txt - Editor", "b.txt - Editor"}, FALSE, FALSE, FALSE, NULL, FALSE},
    {"check-titled-reversed", FALSE, FALSE, {"a.txt - Editor", "b.txt - Editor"}, TRUE, FALSE, FALSE,
     "its state matched by title", FALSE},
    {"check-titled-late", FALSE, FALSE, {"a.txt - Editor", "b.txt - Editor"}, TRUE, TRUE, FALSE,
     "its state matched by title", FALSE},
    {"save-same-title", TRUE, FALSE, {"Editor", "Editor"}, FALSE, FALSE, FALSE, NULL, FALSE},
    {"check-same-title-reversed", FALSE, FALSE, {"Editor", "Editor"}, TRUE, FALSE, TRUE,
     "its state matched by order: 2 windows of its type were saved with its title \"Editor\"", FALSE},
    {"save-damaged-index", TRUE, FALSE, {"a.txt - Editor", "b.txt - Editor"}, FALSE, FALSE, FALSE, NULL, TRUE},
    {"check-damaged-index", FALSE, FALSE, {"a.txt - Editor", "b.txt - Editor"}, FALSE, FALSE, FALSE,
     "its state matched by order: no window of its type was saved with its title", FALSE},
};

static const Mode *mode;
/* Where the windows' first frames are written, or NULL. */
static const char *picture;

typedef struct Editor {
    const char *file;
    GtkWidget *window;
    GtkWidget *scale;
} Editor;

static Editor editors[2]; /* a.txt's, b.txt's */

/* The editor of `file` (editors[which]): named after it when the windows are named, titled
 * before it shows when the mode gives titles. */
static Editor *editor(GtkApplication *app, int which) {
    Editor *e = &editors[which];
    e->file = which == 0 ? "a.txt" : "b.txt";
    e->window = gtk_application_window_new(app);
    e->scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1);
    if (mode->named) gtk_widget_set_name(e->window, e->file);
    if (mode->titles[which] != NULL) gtk_window_set_title(GTK_WINDOW(e->window), mode->titles[which]);
    gtk_widget_set_name(e->scale, "level");
    gtk_range_set_value(GTK_RANGE(e->scale), 50);
    gtk_window_set_child(GTK_WINDOW(e->window), e->scale);
    return e;
}

/* Both editors, in the mode's order; presented too when `present`. */
static void build_editors(GtkApplication *app, gboolean present) {
    int order[2] = {mode->reversed ? 1 : 0, mode->reversed ? 0 : 1};
    for (int i = 0; i < 2; i++) {
        Editor *e = editor(app, order[i]);
        if (present) gtk_window_present(GTK_WINDOW(e->window));
    }
}

static void set_state(Editor *e, double value, int width, int height) {
    gtk_range_set_value(GTK_RANGE(e->scale), value);
    gtk_window_set_default_size(GTK_WINDOW(e->window), width, height);
}

/* Whether the editor has the state saved for `saved` (0: a.txt's, 1: b.txt's). */
static void check_state(Editor *e, int saved) {
    const double values[2] = {10, 40};
    const int widths[2] = {300, 420}, heights[2] = {200, 260};
    int w = 0, h = 0;
    gtk_window_get_default_size(GTK_WINDOW(e->window), &w, &h);
    double now = gtk_range_get_value(GTK_RANGE(e->scale));
    char *line = g_strdup_printf("the %s window: its scale at %g, %dx%d (the state saved for %s: %g, %dx%d)", e->file,
                                 now, w, h, editors[saved].file, values[saved], widths[saved], heights[saved]);
    result(now == values[saved] && w == widths[saved] && h == heights[saved], line);
    g_free(line);
}

static void check_lines(void) {
    int expected = mode->line != NULL ? 2 : 0, kept = mode->late ? 2 : 0;
    char *what = mode->line != NULL ? g_strdup_printf("one line each: \"%s\"", mode->line) : g_strdup("no line");
    result(lines_with(mode->line != NULL ? mode->line : "amber-gtk:") == expected &&
               lines_with("kept for a window that shows later") == kept && lines_starting("amber-gtk:") == expected + kept,
           what);
    g_free(what);
}

/* Writes a window, rendered as it is now, to `path` (PNG). */
static void write_picture(GtkWidget *window, const char *path) {
    GdkPaintable *paintable = gtk_widget_paintable_new(window);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, snapshot, gtk_widget_get_width(window), gtk_widget_get_height(window));
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    GdkTexture *texture = node != NULL ? gsk_renderer_render_texture(gtk_native_get_renderer(GTK_NATIVE(window)), node, NULL) : NULL;
    char *line = g_strdup_printf("its first frame written to %s", path);
    result(texture != NULL && gdk_texture_save_to_png(texture, path), line);
    g_free(line);
    if (texture != NULL) g_object_unref(texture);
    if (node != NULL) gsk_render_node_unref(node);
    g_object_unref(paintable);
}

static void close_editors(void) {
    for (int i = 0; i < 2; i++) gtk_window_destroy(GTK_WINDOW(editors[i].window));
}

/* How many of the two windows have drawn a frame. */
static int painted;

/* After a window's first frame: once both have drawn one, their pictures are written. */
static void on_after_paint(GdkFrameClock *clock, gpointer window) {
    g_signal_handlers_disconnect_by_func(clock, on_after_paint, window);
    if (++painted < 2) return;
    for (int i = 0; i < 2; i++) {
        char *path = g_strdup_printf("%s-%c.png", picture, i == 0 ? 'a' : 'b');
        write_picture(editors[i].window, path);
        g_free(path);
    }
    close_editors();
}

static void on_map(GtkWidget *window) {
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(on_after_paint), window);
}

/* A will_encode that writes the adapter's keys of unnamed windows damaged: a count no program
 * has, an identifier that is not a string, and two windows with an identifier and no title. */
static int write_damaged_index(amber_engine *engine, amber_coder *coder, void *ctx) {
    (void)engine;
    (void)ctx;
    int rc = amber_coder_encode_int64(coder, "gtk.unnamed-windows", 1000000000);
    if (rc == AMBER_OK) rc = amber_coder_encode_int64(coder, "gtk.unnamed-window.0.identifier", 7);
    if (rc == AMBER_OK) rc = amber_coder_encode_string(coder, "gtk.unnamed-window.1.identifier", "GtkApplicationWindow.1");
    if (rc == AMBER_OK) rc = amber_coder_encode_string(coder, "gtk.unnamed-window.2.identifier", "GtkApplicationWindow");
    return rc;
}

static int always(amber_engine *engine, amber_coder *coder, void *ctx) {
    (void)engine;
    (void)coder;
    (void)ctx;
    return 1;
}

/* Replaces the adapter's delegate for this save: it writes a damaged index instead. */
static void damage_the_index(void) {
    amber_delegate delegate = AMBER_DELEGATE_INIT;
    delegate.should_save = always;
    delegate.will_encode = write_damaged_index;
    result(amber_engine_set_delegate(attached_engine, &delegate, NULL, NULL) == AMBER_OK,
           "the adapter's delegate replaced by one that saves a damaged index of unnamed windows");
}

static void save(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    build_editors(app, FALSE);
    amber_gtk_restore(NULL, gtk); /* a fresh state directory, or a restoration run: nothing comes back */
    g_string_truncate(printed, 0);
    set_state(&editors[0], 10, 300, 200);
    set_state(&editors[1], 40, 420, 260);
    for (int i = 0; i < 2; i++) gtk_window_present(GTK_WINDOW(editors[i].window));
    if (mode->damaged) damage_the_index();
    char *what = g_strdup_printf("saved (%s): a.txt's window at 10, b.txt's at 40, nothing left out", mode->name);
    result(amber_gtk_save(gtk) == AMBER_OK && strstr(printed->str, "amber-gtk:") == NULL, what);
    g_free(what);
    close_editors();
}

static void check(GtkApplication *app) {
    AmberGtk *gtk = amber_gtk_from_application(app);
    if (mode->late) {
        amber_gtk_keep_unclaimed(gtk, KEEP_MS);
        amber_gtk_restore(NULL, gtk); /* no window yet: the records are kept */
        build_editors(app, TRUE);     /* each claims its record when it shows */
    } else {
        build_editors(app, FALSE);
        amber_gtk_restore(NULL, gtk);
        for (int i = 0; i < 2; i++) gtk_window_present(GTK_WINDOW(editors[i].window));
    }
    check_state(&editors[0], mode->swapped ? 1 : 0);
    check_state(&editors[1], mode->swapped ? 0 : 1);
    check_lines();
    if (picture == NULL) {
        close_editors();
        return;
    }
    for (int i = 0; i < 2; i++) {
        GtkWidget *window = editors[i].window;
        if (gtk_widget_get_mapped(window)) on_map(window);
        else g_signal_connect(window, "map", G_CALLBACK(on_map), NULL);
    }
}

static void activate(GtkApplication *app) {
    if (mode->saving) save(app);
    else check(app);
}

int main(int argc, char **argv) {
    for (size_t i = 0; i < G_N_ELEMENTS(modes) && (argc == 2 || argc == 3); i++)
        if (strcmp(argv[1], modes[i].name) == 0) mode = &modes[i];
    if (mode == NULL || (argc == 3 && mode->saving)) {
        fprintf(stderr, "usage: test_two_windows save|check|save-named|check-named-reversed|save-titled|check-titled-reversed|"
                        "check-titled-late|save-same-title|check-same-title-reversed|save-damaged-index|check-damaged-index [PICTURE]\n");
        return 2;
    }
    picture = argc == 3 ? argv[2] : NULL;
    return run_attached("test_two_windows", "org.amber.twowindows", AMBER_GTK_KEEP_TOGGLES, G_CALLBACK(activate));
}

/*
 * test_first_frame.c — a list of 1,000 rows restored past row 800 shows the rows it was left at in
 * the first frame the window draws (issue 40: GTK 4.8 drew no row until the next wheel scroll;
 * then, scrolled by item a frame at a time, the list's first rows, and row 850 three frames
 * later), and keeps them: no jump in the frames after.
 *
 *   test_first_frame save    shows row 850 at the top of the list, DELTA pixels into it, saves, quits
 *   test_first_frame check [PNG]   restores, and looks at the rows the list shows when the first
 *                            frame is drawn (the frame clock's after-paint), and again STILL_FRAMES
 *                            frames later; prints "ok ..." lines, exits 1 on a failure. With PNG,
 *                            the window as its first frame drew it is written there.
 *
 * A row is shown when its label is mapped and lies inside the list's area. The state directory
 * is $XDG_STATE_HOME/org.amber.firstframe.
 */
#include "amber-gtk.h"

#include <stdio.h>
#include <string.h>

#define ROWS 1000
#define TOP_ROW 850
/* The pixels row TOP_ROW is scrolled into, at the save. */
#define DELTA 7
/* The frames to wait at most for a scroll; and the seconds to wait at most for anything (the
 * program might stop drawing): failures, not hangs. */
#define MAX_FRAMES 600
#define GIVE_UP_SECONDS 60
/* The frames after the first that must still show the same rows (the adapter's scroll is done
 * within the first frame; a late step would move the rows in one of these). */
#define STILL_FRAMES 10

static gboolean checking;
/* Where to write the first frame, or NULL. */
static const char *picture;
static int failures;
static int frames;
static GtkWidget *list;

static void setup_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
    (void)factory;
    (void)data;
    gtk_list_item_set_child(item, gtk_label_new(NULL));
}

static void bind_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
    (void)factory;
    (void)data;
    GtkStringObject *row = gtk_list_item_get_item(item);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)), gtk_string_object_get_string(row));
}

/* The first and last rows ("Row 0850" -> 850) whose labels are shown inside the list; -1 if none. */
static void shown_rows(GtkWidget *widget, int *first, int *last) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (GTK_IS_LABEL(child) && gtk_widget_get_mapped(child)) {
            graphene_rect_t bounds;
            int row = -1;
            if (gtk_widget_compute_bounds(child, list, &bounds) && bounds.origin.y + bounds.size.height > 0 &&
                bounds.origin.y < gtk_widget_get_height(list) &&
                sscanf(gtk_label_get_text(GTK_LABEL(child)), "Row %d", &row) == 1) {
                if (*first < 0 || row < *first) *first = row;
                if (row > *last) *last = row;
            }
        }
        shown_rows(child, first, last);
    }
}

static void result(gboolean ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

/* Keeps the frame clock drawing frames, so that the frames after the first can be looked at. */
static gboolean keep_drawing(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    gtk_widget_queue_draw(widget);
    return G_SOURCE_CONTINUE;
}

/* The pixels the list is scrolled into its top row (`first`), its rows being equally high. */
static double pixels_into(int first) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(list));
    return gtk_adjustment_get_value(adjustment) - first * gtk_adjustment_get_upper(adjustment) / ROWS;
}

/* Writes the window, rendered as it is now, to `path` (PNG). */
static void write_picture(GtkWidget *window, const char *path) {
    GdkPaintable *paintable = gtk_widget_paintable_new(window);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, snapshot, gtk_widget_get_width(window), gtk_widget_get_height(window));
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    if (node != NULL) {
        GdkTexture *texture = gsk_renderer_render_texture(gtk_native_get_renderer(GTK_NATIVE(window)), node, NULL);
        result(gdk_texture_save_to_png(texture, path), "the first frame written as a picture");
        g_object_unref(texture);
        gsk_render_node_unref(node);
    }
    g_object_unref(paintable);
}

static void on_after_paint(GdkFrameClock *clock, GtkWindow *window) {
    int first = -1, last = -1;
    shown_rows(list, &first, &last);
    frames++;
    double into = pixels_into(first);
    if (frames == 1) {
        char *line = g_strdup_printf("first frame: row %d at the top, %.0f px into it (saved: %d, %d px), rows %d to %d shown",
                                     first, into, TOP_ROW, DELTA, first, last);
        result(first == TOP_ROW && into == DELTA && last > first, line);
        g_free(line);
        if (picture != NULL) write_picture(GTK_WIDGET(window), picture);
        return;
    }
    if (frames == 1 + STILL_FRAMES) {
        char *line = g_strdup_printf("%d frames later: row %d still at the top, %.0f px into it", STILL_FRAMES, first, into);
        result(first == TOP_ROW && into == DELTA, line);
        g_free(line);
        g_signal_handlers_disconnect_by_func(clock, on_after_paint, window);
        gtk_window_destroy(window);
    }
}

static void on_map(GtkWidget *window) {
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), window);
    gtk_widget_add_tick_callback(window, keep_drawing, NULL, NULL);
}

/* Saving: once laid out, row TOP_ROW at the top, then DELTA pixels into it, then save and quit. */
static gboolean save_when_scrolled(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    GtkWindow *window = data;
    int first = -1, last = -1;
    if (gtk_widget_get_height(widget) <= 0) return G_SOURCE_CONTINUE;
    shown_rows(list, &first, &last);
    if (first != TOP_ROW) {
        /* The list scrolls the least it can to show a row: to the last row first, then, on the
         * next frame, back up to the row, which ends at the top. */
        gtk_widget_activate_action(list, "list.scroll-to-item", "u", frames % 2 == 0 ? ROWS - 1 : TOP_ROW);
        if (++frames < MAX_FRAMES) return G_SOURCE_CONTINUE;
        result(FALSE, "save: row 850 never at the top");
        gtk_window_destroy(window);
        return G_SOURCE_REMOVE;
    }
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(list));
    if (pixels_into(first) != DELTA) {
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + DELTA);
        return G_SOURCE_CONTINUE; /* saved once the list shows it */
    }
    char *line = g_strdup_printf("saved, row %d at the top, %d px into it", TOP_ROW, DELTA);
    result(amber_gtk_save(amber_gtk_from_application(gtk_window_get_application(window))) == AMBER_OK, line);
    g_free(line);
    gtk_window_destroy(window);
    return G_SOURCE_REMOVE;
}

static gboolean give_up(gpointer data) {
    result(FALSE, "gave up waiting for the frames");
    g_application_quit(data);
    return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app) {
    g_timeout_add_seconds(GIVE_UP_SECONDS, give_up, app);
    GtkStringList *rows = gtk_string_list_new(NULL);
    for (int i = 0; i < ROWS; i++) {
        char *text = g_strdup_printf("Row %04d", i);
        gtk_string_list_append(rows, text);
        g_free(text);
    }
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
    list = gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(rows))), factory);
    gtk_widget_set_name(list, "rows");
    amber_gtk_set_item_identifier(list, "string");
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), list);
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(window), 300, 400);
    gtk_window_set_child(GTK_WINDOW(window), scrolled);
    if (checking) {
        amber_gtk_restore(NULL, amber_gtk_from_application(app));
        g_signal_connect(window, "map", G_CALLBACK(on_map), NULL);
    } else {
        gtk_widget_add_tick_callback(list, save_when_scrolled, window, NULL);
    }
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    checking = argc >= 2 && strcmp(argv[1], "check") == 0;
    if (!((argc == 2 && strcmp(argv[1], "save") == 0) || (checking && argc <= 3))) {
        fprintf(stderr, "usage: test_first_frame save|check [PNG]\n");
        return 2;
    }
    picture = argc == 3 ? argv[2] : NULL;
    amber_engine *engine = NULL;
    if (amber_engine_open(&engine, "org.amber.firstframe", NULL) != AMBER_OK) {
        fprintf(stderr, "test_first_frame: %s\n", amber_error_last());
        return 1;
    }
    GtkApplication *app = gtk_application_new("org.amber.firstframe", G_APPLICATION_NON_UNIQUE);
    amber_gtk_attach(engine, app);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    char *args[] = {argv[0], NULL};
    int status = g_application_run(G_APPLICATION(app), 1, args);
    g_object_unref(app);
    amber_engine_close(engine);
    return status != 0 || failures > 0;
}

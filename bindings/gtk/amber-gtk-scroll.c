/*
 * amber-gtk-scroll.c — the scroll positions libamber-gtk restores, applied once their widget is
 * shown and laid out: an adjustment's value, a text view's top line, a list's first visible
 * item. amber-gtk.c's accessors and decode callbacks hand them here at restoration; a save
 * made meanwhile reads the position still to come (adjustment_value(), text_view_top(),
 * pending_list_scroll()).
 */
#include "amber-gtk-private.h"

/* How long a scroll position waits, once its widget is shown, for the content to be long enough
 * to take it; then it goes as far as the content allows. A text view's scroll does not wait on a
 * clock (see text_scroll_tick()). */
#define PENDING_SCROLL_MS 3000

/*
 * A scroll position is applied once its widget is shown and laid out, on a frame: a list view
 * given a value before it has rows measured keeps the value but shows another place (it places
 * its rows from an anchor it computes when the value changes), and an adjustment clamps a value
 * beyond the content it knows so far. A widget not shown at restoration (on a page of a stack
 * or notebook that is not visible) waits until it first shows: nothing ticks meanwhile, and
 * until then a save, or amber_gtk_describe(), reads the position still to come
 * (adjustment_value()), not the top the widget shows unlaid.
 *
 * A text view is scrolled to a line rather than to pixels: the line that was at the top, and
 * how far into it. Its lines' heights are estimated until it has measured them, and it keeps
 * its top line in place as it does, so a pixel value would drift a little at every relaunch.
 * When its scroll is applied depends on how far GTK has measured, not on a clock (see
 * text_scroll_tick()).
 */
typedef struct PendingScroll {
    /* Weak: NULL once the widget is finalized. */
    GtkWidget *widget;
    GtkAdjustment *adjustment;
    double value;
    /* A list whose first visible item moved: scrolled by `rows_shift` rows more, a row's height
     * being the content's over its `rows` rows once laid out. 0: `value` as it is. */
    double rows_shift;
    guint rows;
    /* A text view's top line: the offset of a character of it, and the pixels into the line;
     * the frames its scroll took so far. */
    gboolean by_line;
    int line_offset;
    double line_delta;
    int text_frames;
    /* A tree view's top row, and the pixels into it; whether GTK was asked to put it at the top. */
    gboolean by_row;
    GtkTreePath *row;
    double row_delta;
    gboolean row_asked;
    /* The tree's height and scroll at the previous frame: the row is placed once they hold still. */
    double last_upper;
    double last_value;
    /* A list view's or grid view's first visible item, and the pixels into it; whether the item
     * was put at the top (item_scroll_layout()). The list's frame clock, while the scroll is
     * applied in its layout phase, and the frame and the count of that phase's runs in it. */
    gboolean by_item;
    guint item;
    double item_delta;
    gboolean item_at_top;
    GdkFrameClock *clock;
    gulong layout_handler;
    gint64 layout_frame;
    int layout_runs;
    /* The list's keyboard cursor (its first selected item), if it has one, and whether the list
     * takes the focus once scrolled (and shows it, after keyboard use). */
    gboolean has_cursor;
    guint cursor;
    gboolean focus_after;
    gboolean focus_visible;
    /* Its widget was not shown when it was kept (a page hidden at restore): it counts in the
     * widget's PageWait. Whether it was applied, as it ends. */
    gboolean waits_for_page;
    gboolean applied;
    guint tick;
    guint timeout;
    gulong map_handler;
} PendingScroll;

/* Where a pending scroll is kept: on its adjustment, which owns it. */
#define PENDING_SCROLL_KEY "amber-gtk-pending-scroll"

/*
 * The scrolls of a widget that wait for its page to show, kept on the widget. Amber's report
 * says such a widget restored at launch, since its record was decoded, but the user sees its
 * scroll only once its page shows: the adapter's report lines say it is pending until then
 * (report_scroll_when_applied()), and once the last of its scrolls is applied, that it is
 * restored.
 */
typedef struct PageWait {
    guint waiting;
    /* The widget's path in the report, once a line said its scroll is pending; else NULL. */
    char *path;
} PageWait;

#define PAGE_WAIT_KEY "amber-gtk-page-wait"

static void page_wait_free(gpointer data) {
    PageWait *wait = data;
    g_free(wait->path);
    g_free(wait);
}

static PageWait *page_wait(GtkWidget *widget) {
    PageWait *wait = g_object_get_data(G_OBJECT(widget), PAGE_WAIT_KEY);
    if (wait == NULL) {
        wait = g_new0(PageWait, 1);
        g_object_set_data_full(G_OBJECT(widget), PAGE_WAIT_KEY, wait, page_wait_free);
    }
    return wait;
}

/* One scroll of `widget` that waited for its page ended: applied, or replaced by another. */
static void page_scroll_ended(GtkWidget *widget, gboolean applied) {
    PageWait *wait = g_object_get_data(G_OBJECT(widget), PAGE_WAIT_KEY);
    if (wait == NULL || wait->waiting == 0 || --wait->waiting > 0) return;
    if (applied && wait->path != NULL) g_printerr("amber-gtk: %s: its scroll restored, now that its page shows\n", wait->path);
    g_object_set_data(G_OBJECT(widget), PAGE_WAIT_KEY, NULL);
}

gboolean scroll_waits_for_page(GtkWidget *widget) {
    PageWait *wait = g_object_get_data(G_OBJECT(widget), PAGE_WAIT_KEY);
    return wait != NULL && wait->waiting > 0;
}

/* Whether `widget` is on a page not shown (of a stack, a notebook), rather than in a window not
 * shown yet: a hidden page is a child not visible, or not child-visible, under the window. */
static gboolean on_hidden_page(GtkWidget *widget) {
    for (; widget != NULL && !GTK_IS_ROOT(widget); widget = gtk_widget_get_parent(widget))
        if (!gtk_widget_get_visible(widget) || !gtk_widget_get_child_visible(widget)) return TRUE;
    return FALSE;
}

void report_scroll_when_applied(GtkWidget *widget, const char *path) {
    if (!scroll_waits_for_page(widget) || !on_hidden_page(widget)) return;
    PageWait *wait = page_wait(widget);
    if (wait->path != NULL) return; /* said already */
    wait->path = g_strdup(path);
    g_printerr("amber-gtk: %s: restored, but its scroll is pending until its page shows\n", path);
}

static PendingScroll *pending_scroll(GtkAdjustment *adjustment) {
    return adjustment != NULL ? g_object_get_data(G_OBJECT(adjustment), PENDING_SCROLL_KEY) : NULL;
}

/* The y of the top of the line holding the character at `offset`, in the text view's buffer. */
static double line_top(GtkTextView *view, int offset) {
    GtkTextIter iter;
    int y = 0, height = 0;
    gtk_text_buffer_get_iter_at_offset(gtk_text_view_get_buffer(view), &iter, offset);
    gtk_text_view_get_line_yrange(view, &iter, &y, &height);
    return y;
}

/* The value a pending scroll is to take now. */
static double pending_target(const PendingScroll *pending) {
    if (pending->by_line && pending->widget != NULL)
        return line_top(GTK_TEXT_VIEW(pending->widget), pending->line_offset) + pending->line_delta;
    if (pending->rows_shift == 0 || pending->rows == 0) return pending->value;
    double row = gtk_adjustment_get_upper(pending->adjustment) / pending->rows;
    return MAX(0, pending->value + pending->rows_shift * row);
}

/* An adjustment's value, or the value a scroll still waiting for the layout will give it. */
double adjustment_value(GtkAdjustment *adjustment) {
    PendingScroll *pending = pending_scroll(adjustment);
    return pending != NULL ? pending_target(pending) : gtk_adjustment_get_value(adjustment);
}

static gboolean content_fits(GtkAdjustment *adjustment, double value) {
    return gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) >= value - 0.5;
}

/* Ends a pending scroll: the adjustment's data's destroy notify. */
static void pending_scroll_free(gpointer data) {
    PendingScroll *pending = data;
    if (pending->timeout != 0) g_source_remove(pending->timeout);
    if (pending->widget != NULL) {
        if (pending->tick != 0) gtk_widget_remove_tick_callback(pending->widget, pending->tick);
        if (pending->map_handler != 0) g_signal_handler_disconnect(pending->widget, pending->map_handler);
        g_object_remove_weak_pointer(G_OBJECT(pending->widget), (gpointer *)&pending->widget);
        if (pending->waits_for_page) page_scroll_ended(pending->widget, pending->applied);
    }
    /* Disconnected whether the list is still there or not: the clock, held here, outlives it. */
    if (pending->layout_handler != 0) g_signal_handler_disconnect(pending->clock, pending->layout_handler);
    if (pending->row != NULL) gtk_tree_path_free(pending->row);
    if (pending->clock != NULL) g_object_unref(pending->clock);
    g_free(pending);
}

/* Applies the pending scroll of `adjustment` now and ends it. */
static void apply_pending_scroll(GtkAdjustment *adjustment) {
    PendingScroll *pending = pending_scroll(adjustment);
    double target = pending_target(pending);
    pending->applied = TRUE;
    g_object_set_data(G_OBJECT(adjustment), PENDING_SCROLL_KEY, NULL); /* frees it */
    gtk_adjustment_set_value(adjustment, target);
}

/* Asks a list view or grid view to show `item`: the list places its rows from that item (its
 * anchor), measuring the rows it shows. Given a pixel value instead, GTK 4.8 places them from
 * an estimate, and a list scrolled deep could show no row at all until the next scroll event. */
static void show_item(GtkWidget *list, guint item) {
    gtk_widget_activate_action(list, "list.scroll-to-item", "u", item);
}

static guint list_length(GtkWidget *list) {
    GtkSelectionModel *model = list_model(list);
    return model != NULL ? g_list_model_get_n_items(G_LIST_MODEL(model)) : 0;
}

/* The list's scroll ends: the pixels into its first item, then its keyboard cursor and focus. */
static void finish_item_scroll(PendingScroll *pending) {
    GtkWidget *list = pending->widget;
    GtkAdjustment *adjustment = pending->adjustment;
    guint n = list_length(list);
    double target = gtk_adjustment_get_value(adjustment) + pending->item_delta;
    gboolean has_cursor = pending->has_cursor, focus = pending->focus_after, focus_visible = pending->focus_visible;
    guint cursor = pending->cursor, first = pending->item;
    pending->applied = TRUE;
    g_object_set_data(G_OBJECT(adjustment), PENDING_SCROLL_KEY, NULL); /* frees it */
    gtk_adjustment_set_value(adjustment, target);
    /* The keyboard cursor to the selected item, as after a click, when it is in view (showing
     * it then does not scroll): the list that takes the focus keeps it in view. */
    double rows_shown = gtk_adjustment_get_page_size(adjustment) / MAX(1.0, gtk_adjustment_get_upper(adjustment) / MAX(1u, n));
    if (has_cursor && cursor >= first && cursor + 1 < first + rows_shown) show_item(list, cursor);
    if (focus) {
        gtk_widget_grab_focus(list);
        GtkRoot *root = gtk_widget_get_root(list);
        if (GTK_IS_WINDOW(root)) gtk_window_set_focus_visible(GTK_WINDOW(root), focus_visible);
    }
}

/* How many times the frame clock may run its layout phase in one frame: GDK 4 runs it again
 * while it is asked to, at most 4 times, and then warns and paints what it has. */
#define LAYOUT_RUNS_PER_FRAME 4

/* Counts a run of the layout phase; whether the scroll may take a step in it: a step makes the
 * list lay itself out again (one more run), which the last run of a frame cannot have. */
static gboolean layout_run_may_step(PendingScroll *pending, GdkFrameClock *clock) {
    gint64 frame = gdk_frame_clock_get_frame_counter(clock);
    if (frame != pending->layout_frame) {
        pending->layout_frame = frame;
        pending->layout_runs = 0;
    }
    return ++pending->layout_runs < LAYOUT_RUNS_PER_FRAME;
}

/* Asks `data`, a frame clock, for a frame with a layout phase (an idle: once the frame being
 * drawn is done). */
static gboolean request_layout(gpointer data) {
    gdk_frame_clock_request_phase(data, GDK_FRAME_CLOCK_PHASE_LAYOUT);
    return G_SOURCE_REMOVE;
}

/*
 * A list's scroll, applied in the layout phase of the frame clock, after the window laid out its
 * widgets: GDK runs the phase again, before painting, while a widget asks to be laid out again.
 * So the list's rows are placed within the frame the scroll starts in, the first frame of a
 * window restored, rather than a frame or two after its first rows were drawn.
 *
 * The list scrolls the least it can to show an item: an item below the view ends at its bottom,
 * one above it starts at its top. So, once the list has a size: the view to the end of the list
 * and the item shown, which puts it at the top; then, once the list has placed its rows from
 * it, the pixels into it.
 */
static void item_scroll_layout(GdkFrameClock *clock, gpointer data) {
    PendingScroll *pending = data;
    if (pending->widget == NULL || gtk_widget_get_height(pending->widget) <= 0 || gtk_adjustment_get_upper(pending->adjustment) <= 0)
        return; /* not laid out yet: a later run */
    if (!layout_run_may_step(pending, clock)) {
        /* The frame's last run: the next frame takes the step, asked for once this one is done
         * (asked for now, GDK would warn and give up on the layout). */
        g_idle_add_full(G_PRIORITY_HIGH_IDLE, request_layout, g_object_ref(clock), g_object_unref);
        return;
    }
    if (pending->item_at_top) {
        finish_item_scroll(pending);
        return;
    }
    pending->item_at_top = TRUE;
    if (pending->item < list_length(pending->widget)) {
        GtkAdjustment *adjustment = pending->adjustment;
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment));
        show_item(pending->widget, pending->item);
    }
    gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
}

/* Applies a list's scroll in the layout phase of its frame clock (see above), from the frame to
 * come: the one being drawn, if the list is shown while it is laid out. */
static void start_item_scroll(PendingScroll *pending) {
    GdkFrameClock *clock = gtk_widget_get_frame_clock(pending->widget);
    if (clock == NULL) return; /* not realized after all: the scroll goes at its expiry */
    pending->clock = g_object_ref(clock);
    pending->layout_handler = g_signal_connect_after(pending->clock, "layout", G_CALLBACK(item_scroll_layout), pending);
    gdk_frame_clock_request_phase(pending->clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
}

/* The row at the top of a tree view and the pixels into it (FALSE for no row): the row at the
 * scroll's value, in the tree's coordinates (GTK 4's bin window coordinates start above the
 * column headers). */
static gboolean tree_top_row(GtkTreeView *tree, GtkTreePath **row, double *delta) {
    int value = (int)gtk_adjustment_get_value(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(tree))), y = 0, cell_y = 0;
    /* One pixel below the value: GTK 4.8 gives a point on the boundary of two rows to the row
     * above it. */
    gtk_tree_view_convert_tree_to_bin_window_coords(tree, 0, value + 1, NULL, &y);
    if (!gtk_tree_view_get_path_at_pos(tree, 0, y, row, NULL, NULL, &cell_y)) return FALSE;
    *delta = cell_y - 1;
    return TRUE;
}

/*
 * A tree view's scroll, by its top row: GTK is asked to put the row at the top (it does so once
 * it has measured the rows above it, which a pixel value set now would not wait for), then, once
 * the row is at the top, the pixels into it are added. A row no longer in the model leaves the
 * tree where it is.
 */
static gboolean row_scroll_tick(PendingScroll *pending) {
    GtkTreeView *tree = GTK_TREE_VIEW(pending->widget);
    GtkTreeModel *model = gtk_tree_view_get_model(tree);
    GtkTreeIter iter;
    gboolean exists = model != NULL && gtk_tree_model_get_iter(model, &iter, pending->row);
    if (exists && !pending->row_asked) {
        pending->row_asked = TRUE;
        gtk_tree_view_scroll_to_cell(tree, pending->row, NULL, TRUE, 0, 0);
        return G_SOURCE_CONTINUE;
    }
    GtkTreePath *top = NULL;
    double delta = 0;
    gboolean at_top = exists && tree_top_row(tree, &top, &delta) && gtk_tree_path_compare(top, pending->row) == 0;
    if (top != NULL) gtk_tree_path_free(top);
    /* GTK measures the rows as it goes and keeps the top row in place meanwhile: the pixels into
     * the row are added once the layout holds still, the row at the top. */
    double upper = gtk_adjustment_get_upper(pending->adjustment), value = gtk_adjustment_get_value(pending->adjustment);
    gboolean still = upper == pending->last_upper && value == pending->last_value;
    pending->last_upper = upper;
    pending->last_value = value;
    if (exists && (!at_top || !still)) return G_SOURCE_CONTINUE; /* not yet: as far as it goes at the expiry */
    pending->tick = 0; /* removed by returning G_SOURCE_REMOVE */
    GtkAdjustment *adjustment = pending->adjustment;
    double target = gtk_adjustment_get_value(adjustment) + (exists ? pending->row_delta : 0);
    pending->applied = TRUE;
    g_object_set_data(G_OBJECT(adjustment), PENDING_SCROLL_KEY, NULL); /* frees it */
    gtk_adjustment_set_value(adjustment, target);
    return G_SOURCE_REMOVE;
}

static gboolean on_scroll_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    PendingScroll *pending = data;
    if (gtk_widget_get_height(widget) <= 0 || gtk_adjustment_get_upper(pending->adjustment) <= 0) return G_SOURCE_CONTINUE;
    if (pending->by_row) return row_scroll_tick(pending);
    /* A list's item that moved near the end may not be scrollable to the top: as far as it goes. */
    if (!content_fits(pending->adjustment, pending_target(pending)) && pending->rows_shift == 0) return G_SOURCE_CONTINUE;
    pending->tick = 0; /* removed by returning G_SOURCE_REMOVE */
    apply_pending_scroll(pending->adjustment);
    return G_SOURCE_REMOVE;
}

/* Shown and laid out for PENDING_SCROLL_MS and the content still shorter: as far as it goes. */
static gboolean on_scroll_expired(gpointer data) {
    PendingScroll *pending = data;
    pending->timeout = 0;
    if (pending->by_row) { /* GTK was asked to put the row at the top: where it got to */
        pending->applied = TRUE;
        g_object_set_data(G_OBJECT(pending->adjustment), PENDING_SCROLL_KEY, NULL); /* frees it */
        return G_SOURCE_REMOVE;
    }
    if (pending->by_item) {
        if (pending->widget != NULL && pending->item < list_length(pending->widget)) show_item(pending->widget, pending->item);
        pending->applied = TRUE;
        g_object_set_data(G_OBJECT(pending->adjustment), PENDING_SCROLL_KEY, NULL); /* frees it */
        return G_SOURCE_REMOVE;
    }
    apply_pending_scroll(pending->adjustment);
    return G_SOURCE_REMOVE;
}

/*
 * A text view's scroll, by its top line, placed at a frame before its layout.
 *
 * GTK 4 measures (validates) a text view's lines lazily: the lines on screen, then the others in
 * an idle (GTK_TEXT_VIEW_PRIORITY_VALIDATE, below drawing) that a program drawing frame after
 * frame on a loaded machine does not reach for seconds. A line not measured counts 0 pixels high:
 * the y of a line further down is short by the lines not measured above it, and the line at that
 * y is the first line not measured (line 57 for line 251). So neither a pixel value computed
 * early nor a wait on a clock for GTK to measure the lines puts the line at the top.
 *
 * But GTK measures a screen of lines whenever the view's value changes: from the line at the new
 * value down. So the value is set into the last line measured, which measures the screen below
 * it, and again, until the line to put at the top is measured with a screen below it (or a step
 * measures nothing more: the end of the text); then the value is the line's y and the pixels into
 * it. GTK keeps that line at the top while it measures the lines above it later. This runs at the
 * start of a frame, so the frame shows the line; the next frame checks that it is still at the
 * top (a layout can measure the lines again, at another width) and places it again if not. The
 * wait is bounded in frames and in steps that measure more lines, never in time.
 */

/* How many frames a text view's scroll may take; then it stays as far as it got. */
#define TEXT_SCROLL_FRAMES 30

/* The offset of the first character of the line holding the character at `offset`. */
static int line_start(GtkTextView *view, int offset) {
    GtkTextIter iter;
    gtk_text_buffer_get_iter_at_offset(gtk_text_view_get_buffer(view), &iter, offset);
    gtk_text_iter_set_line_offset(&iter, 0);
    return gtk_text_iter_get_offset(&iter);
}

/* Whether the view shows the pending scroll's line at its top, the pixels into it as saved, or
 * is scrolled as far as its content goes toward them. */
static gboolean text_scroll_placed(GtkTextView *view, const PendingScroll *pending) {
    GtkAdjustment *adjustment = pending->adjustment;
    int value = (int)gtk_adjustment_get_value(adjustment), top = 0, height = 0;
    GtkTextIter iter;
    gtk_text_view_get_line_at_y(view, &iter, value, &top);
    if (gtk_text_iter_get_offset(&iter) == line_start(view, pending->line_offset))
        return value - top == (int)pending->line_delta;
    /* The line measured, below the end of the content: as far as it goes. */
    gtk_text_buffer_get_iter_at_offset(gtk_text_view_get_buffer(view), &iter, pending->line_offset);
    gtk_text_view_get_line_yrange(view, &iter, &top, &height);
    double last = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment);
    return height > 0 && value >= (int)last && last < top + pending->line_delta;
}

/* Whether the line holding the character at `offset` is measured: until then GTK counts it 0
 * pixels high. */
static gboolean line_measured(GtkTextView *view, int offset) {
    GtkTextIter iter;
    int y = 0, height = 0;
    gtk_text_buffer_get_iter_at_offset(gtk_text_view_get_buffer(view), &iter, offset);
    gtk_text_view_get_line_yrange(view, &iter, &y, &height);
    return height > 0;
}

/* The height of the lines GTK has measured: the bottom of the buffer's last line, lines not
 * measured counting 0 (not the adjustment's upper, which measure_lines_to() raises). */
static int measured_height(GtkTextView *view) {
    GtkTextIter end;
    int y = 0, height = 0;
    gtk_text_buffer_get_end_iter(gtk_text_view_get_buffer(view), &end);
    gtk_text_view_get_line_yrange(view, &end, &y, &height);
    return y + height;
}

/* Whether the line of a pending text view scroll is measured, and the lines measured below it
 * tall enough to scroll it to the top. */
static gboolean measured_to_line(GtkTextView *view, const PendingScroll *pending) {
    return line_measured(view, pending->line_offset) &&
           measured_height(view) - gtk_adjustment_get_page_size(pending->adjustment) >= pending_target(pending);
}

/* Has GTK measure the lines down to the pending scroll's line, and a screen below it (see above):
 * the value is set into the last line measured, which measures a screen of lines below it. The
 * adjustment's upper is raised first to take the value (it clamps a value to the height measured
 * so far, minus a screen); the view's layout sets it back to the height it measured. Each step
 * measures more lines, or the steps end. */
static void measure_lines_to(GtkTextView *view, const PendingScroll *pending) {
    GtkAdjustment *adjustment = pending->adjustment;
    while (!measured_to_line(view, pending)) {
        int measured = measured_height(view);
        double upper = measured + gtk_adjustment_get_page_size(adjustment);
        if (gtk_adjustment_get_upper(adjustment) < upper) gtk_adjustment_set_upper(adjustment, upper);
        gtk_adjustment_set_value(adjustment, MAX(0, measured - 1));
        if (measured_height(view) <= measured) return; /* nothing more measured: the end of the text */
    }
}

/* Puts the line at the top, the pixels into it, its lines measured first (see above). */
static void place_text_scroll(GtkTextView *view, const PendingScroll *pending) {
    measure_lines_to(view, pending);
    gtk_adjustment_set_value(pending->adjustment, pending_target(pending));
}

/* The text view's scroll ends, applied: a save reads the view from now on. */
static void finish_text_scroll(PendingScroll *pending) {
    pending->tick = 0; /* removed by the caller's G_SOURCE_REMOVE */
    pending->applied = TRUE;
    g_object_set_data(G_OBJECT(pending->adjustment), PENDING_SCROLL_KEY, NULL); /* frees it */
}

/* At each frame, before its layout (see above): placed at one frame, and still at the next. */
static gboolean text_scroll_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    PendingScroll *pending = data;
    if (gtk_widget_get_height(widget) <= 0 || gtk_adjustment_get_upper(pending->adjustment) <= 0) return G_SOURCE_CONTINUE;
    GtkTextView *view = GTK_TEXT_VIEW(widget);
    if ((pending->text_frames > 0 && text_scroll_placed(view, pending)) || ++pending->text_frames > TEXT_SCROLL_FRAMES) {
        finish_text_scroll(pending);
        return G_SOURCE_REMOVE;
    }
    place_text_scroll(view, pending);
    return G_SOURCE_CONTINUE;
}

static void start_ticking(PendingScroll *pending) {
    if (pending->by_line) {
        pending->tick = gtk_widget_add_tick_callback(pending->widget, text_scroll_tick, pending, NULL);
        return;
    }
    pending->timeout = g_timeout_add(PENDING_SCROLL_MS, on_scroll_expired, pending);
    if (pending->by_item) {
        start_item_scroll(pending);
        return;
    }
    pending->tick = gtk_widget_add_tick_callback(pending->widget, on_scroll_tick, pending, NULL);
}

static void on_pending_widget_map(GtkWidget *widget, gpointer data) {
    PendingScroll *pending = data;
    g_signal_handler_disconnect(widget, pending->map_handler);
    pending->map_handler = 0;
    start_ticking(pending);
}

/* Keeps a scroll of `adjustment` for `widget` to apply once it is shown and laid out (see
 * above), in place of any it had. */
static PendingScroll *new_pending_scroll(GtkWidget *widget, GtkAdjustment *adjustment) {
    PendingScroll *pending = g_new0(PendingScroll, 1);
    pending->widget = widget;
    g_object_add_weak_pointer(G_OBJECT(widget), (gpointer *)&pending->widget);
    pending->adjustment = adjustment;
    return pending;
}

/* Whether a pending scroll is to the top, where a widget not laid out is anyway: nothing the user
 * would miss while its page is hidden. */
static gboolean scroll_to_top(const PendingScroll *pending) {
    if (pending->by_line) return pending->line_offset == 0 && pending->line_delta == 0;
    if (pending->by_item) return pending->item == 0 && pending->item_delta == 0;
    if (pending->by_row) return gtk_tree_path_get_depth(pending->row) == 1 && gtk_tree_path_get_indices(pending->row)[0] == 0 && pending->row_delta == 0;
    return pending->value == 0 && pending->rows_shift == 0;
}

static void keep_pending_scroll(PendingScroll *pending) {
    gboolean mapped = gtk_widget_get_mapped(pending->widget);
    /* Counted before the scroll it replaces (if any) ends, so the count does not reach 0 between. */
    if (!mapped && !scroll_to_top(pending)) {
        pending->waits_for_page = TRUE;
        page_wait(pending->widget)->waiting++;
    }
    g_object_set_data_full(G_OBJECT(pending->adjustment), PENDING_SCROLL_KEY, pending, pending_scroll_free);
    if (mapped) start_ticking(pending);
    else pending->map_handler = g_signal_connect(pending->widget, "map", G_CALLBACK(on_pending_widget_map), pending);
}

/* Scrolls `widget`'s `adjustment` to `value`, and `rows_shift` rows of `rows` further, once the
 * widget is laid out (see above). */
void scroll_rows_when_laid_out(GtkWidget *widget, GtkAdjustment *adjustment, double value, double rows_shift,
                                      guint rows) {
    if (adjustment == NULL) return;
    PendingScroll *pending = new_pending_scroll(widget, adjustment);
    pending->value = value;
    pending->rows_shift = rows_shift;
    pending->rows = rows;
    keep_pending_scroll(pending);
}

/* Scrolls `widget`'s `adjustment` to `value` once the widget is laid out (see above). */
void scroll_when_laid_out(AmberGtk *gtk, GtkWidget *widget, GtkAdjustment *adjustment, double value) {
    (void)gtk;
    scroll_rows_when_laid_out(widget, adjustment, value, 0, 0);
}

/* Scrolls a text view to put the line of the character at `offset` at the top, `delta` pixels
 * into it, once laid out (see above). */
void scroll_text_when_laid_out(GtkTextView *view, int offset, double delta) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view));
    if (adjustment == NULL) return;
    PendingScroll *pending = new_pending_scroll(GTK_WIDGET(view), adjustment);
    pending->by_line = TRUE;
    pending->line_offset = offset;
    pending->line_delta = delta;
    keep_pending_scroll(pending);
}

/* Scrolls a tree view to put the row at `path` at the top, `delta` pixels into it, once laid out
 * (see above). */
void scroll_tree_when_laid_out(GtkTreeView *tree, const char *path, double delta) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(tree));
    GtkTreePath *row = gtk_tree_path_new_from_string(path);
    if (adjustment == NULL || row == NULL) {
        if (row != NULL) gtk_tree_path_free(row);
        return;
    }
    PendingScroll *pending = new_pending_scroll(GTK_WIDGET(tree), adjustment);
    pending->by_row = TRUE;
    pending->row = row;
    pending->row_delta = delta;
    keep_pending_scroll(pending);
}

/* A tree view's top row (its path, newly allocated) and the pixels into it, or the ones a scroll
 * still waiting will give it; NULL for a tree without rows. */
char *tree_view_top(GtkTreeView *tree, double *delta) {
    PendingScroll *pending = pending_scroll(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(tree)));
    if (pending != NULL && pending->by_row) {
        *delta = pending->row_delta;
        return gtk_tree_path_to_string(pending->row);
    }
    GtkTreePath *row = NULL;
    if (!tree_top_row(tree, &row, delta)) return NULL;
    char *text = gtk_tree_path_to_string(row);
    gtk_tree_path_free(row);
    return text;
}

/* Scrolls a list view or grid view to show `item` at the top, `delta` pixels into it, once laid
 * out, within the frame that lays it out (see item_scroll_layout()). */
void scroll_list_when_laid_out(GtkWidget *list, guint item, double delta, int64_t cursor) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(list));
    if (adjustment == NULL) return;
    PendingScroll *pending = new_pending_scroll(list, adjustment);
    pending->by_item = TRUE;
    pending->item = item;
    pending->item_delta = delta;
    pending->has_cursor = cursor >= 0;
    pending->cursor = cursor >= 0 ? (guint)cursor : 0;
    keep_pending_scroll(pending);
}

/* A list that had the focus and waits for its scroll takes the focus once scrolled: taken
 * before, it moves to its keyboard cursor, and GTK 4.8 then draws no row in the first frame.
 * Whether it waits. */
gboolean focus_after_list_scroll(GtkWidget *widget, gboolean focus_visible) {
    if (!is_list(widget) || GTK_IS_COLUMN_VIEW(widget)) return FALSE;
    PendingScroll *pending = pending_scroll(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(widget)));
    if (pending == NULL || !pending->by_item) return FALSE;
    pending->focus_after = TRUE;
    pending->focus_visible = focus_visible;
    return TRUE;
}

/* A text view's top line (the offset of its first character) and how far into it it is
 * scrolled, or the ones a scroll still waiting will give it. */
void text_view_top(GtkTextView *view, int *offset, double *delta) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view));
    PendingScroll *pending = pending_scroll(adjustment);
    if (pending != NULL && pending->by_line) {
        *offset = pending->line_offset;
        *delta = pending->line_delta;
        return;
    }
    /* Whole pixels, as the text view draws its lines. */
    int y = adjustment != NULL ? (int)gtk_adjustment_get_value(adjustment) : 0, top = 0;
    GtkTextIter iter;
    gtk_text_view_get_line_at_y(view, &iter, y, &top);
    *offset = gtk_text_iter_get_offset(&iter);
    *delta = y - top;
}

/* Whether a list's scroll waits for its layout, and then its first item and the pixels into it. */
gboolean pending_list_scroll(GtkAdjustment *adjustment, guint *item, double *delta) {
    PendingScroll *pending = pending_scroll(adjustment);
    if (pending == NULL || !pending->by_item) return FALSE;
    *item = pending->item;
    *delta = pending->item_delta;
    return TRUE;
}

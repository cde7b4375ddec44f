/*
 * amber-gtk-private.h — what the files of libamber-gtk share and its users do not see:
 * amber-gtk.c (windows, the tree, saving and restoring) calls the widget kinds of
 * amber-gtk-widgets.c and the scrolls that wait for the layout of amber-gtk-scroll.c. Every
 * function here is internal to the library (G_GNUC_INTERNAL: not exported).
 */
#ifndef AMBER_GTK_PRIVATE_H
#define AMBER_GTK_PRIVATE_H

#include "amber-gtk.h"

G_BEGIN_DECLS

/* ---- amber-gtk.c ---- */

/* A list view's, column view's or grid view's model; whether the widget is one of those. */
G_GNUC_INTERNAL GtkSelectionModel *list_model(GtkWidget *widget);
G_GNUC_INTERNAL gboolean is_list(GtkWidget *widget);

/* ---- amber-gtk-scroll.c: scrolls applied once the widget is shown and laid out ---- */

/* `widget`'s `adjustment` to `value`. */
G_GNUC_INTERNAL void scroll_when_laid_out(AmberGtk *gtk, GtkWidget *widget, GtkAdjustment *adjustment, double value);
/* The same, `rows_shift` rows further, a row being the content's height over `rows`. */
G_GNUC_INTERNAL void scroll_rows_when_laid_out(GtkWidget *widget, GtkAdjustment *adjustment, double value, double rows_shift,
                                               guint rows);
/* A text view: the line of the character at `offset` at the top, `delta` pixels into it. */
G_GNUC_INTERNAL void scroll_text_when_laid_out(GtkTextView *view, int offset, double delta);
/* A tree view: the row at `path` ("3:0") at the top, `delta` pixels into it. */
G_GNUC_INTERNAL void scroll_tree_when_laid_out(GtkTreeView *tree, const char *path, double delta);
/* A tree view's top row (its path, newly allocated; NULL without rows) and the pixels into it,
 * now or once its scroll is applied. */
G_GNUC_INTERNAL char *tree_view_top(GtkTreeView *tree, double *delta);
/* A list view or grid view: `item` at the top, `delta` pixels into it; `cursor` (or -1), its
 * keyboard cursor once scrolled. */
G_GNUC_INTERNAL void scroll_list_when_laid_out(GtkWidget *list, guint item, double delta, int64_t cursor);
/* A list waiting for its scroll takes the focus once scrolled (and shows it if
 * `focus_visible`); FALSE when it waits for none. */
G_GNUC_INTERNAL gboolean focus_after_list_scroll(GtkWidget *widget, gboolean focus_visible);
/* Whether a scroll of `widget` waits for its page to show (it was not shown at restore). */
G_GNUC_INTERNAL gboolean scroll_waits_for_page(GtkWidget *widget);
/* If so, prints one line saying the widget at `path` is restored but its scroll is pending until
 * its page shows, and another once its scrolls are applied. */
G_GNUC_INTERNAL void report_scroll_when_applied(GtkWidget *widget, const char *path);
/* An adjustment's value, or the one a waiting scroll will give it. */
G_GNUC_INTERNAL double adjustment_value(GtkAdjustment *adjustment);
/* A text view's top line and the pixels into it, now or once its scroll is applied. */
G_GNUC_INTERNAL void text_view_top(GtkTextView *view, int *offset, double *delta);
/* Whether a list's scroll waits, and then its first item and the pixels into it. */
G_GNUC_INTERNAL gboolean pending_list_scroll(GtkAdjustment *adjustment, guint *item, double *delta);

/* ---- amber-gtk-windows.c: which saved state an unnamed window takes (by title, else by order) ---- */

/* The unnamed windows of the archive restored, read from the application's coder. */
typedef struct SavedWindows SavedWindows;
/* An unnamed window as a save keeps it: its identifier and its title (NULL: none). */
typedef struct UnnamedWindow {
    const char *identifier;
    const char *title;
} UnnamedWindow;

G_GNUC_INTERNAL SavedWindows *saved_windows_new(void);
G_GNUC_INTERNAL void saved_windows_free(SavedWindows *saved);
/* Reads the saved windows from the application decoder (should_restore), replacing those held. */
G_GNUC_INTERNAL void saved_windows_read(SavedWindows *saved, amber_decoder *app_decoder);
/* Writes `count` unnamed windows into the application coder (will_encode). */
G_GNUC_INTERNAL int saved_windows_write(amber_coder *app_coder, const UnnamedWindow *windows, guint count);
/* Appends to `out` (of UnnamedWindow) the saved windows not taken whose records the engine still
 * keeps (`kept`, their identifiers): a save carries their records, so it keeps their titles. */
G_GNUC_INTERNAL void saved_windows_carried(const SavedWindows *saved, GHashTable *kept, GArray *out);
/* How many unnamed windows of `type` the archive had. */
G_GNUC_INTERNAL guint saved_windows_count(const SavedWindows *saved, const char *type);
/* The identifier of the saved window of `type` whose title was `title`, when exactly one not
 * taken yet has it, none of `used` (the identifiers windows have now) and, with `kept`, one the
 * engine keeps the record of. Else NULL, and `why` (newly allocated) says why. */
G_GNUC_INTERNAL const char *saved_windows_by_title(const SavedWindows *saved, const char *type, const char *title,
                                                   GHashTable *used, GHashTable *kept, char **why);
/* Marks the saved window `identifier` taken; FALSE if none had it. */
G_GNUC_INTERNAL gboolean saved_windows_take(SavedWindows *saved, const char *identifier);
/* The type part of a window's identifier ("GtkApplicationWindow.1": "GtkApplicationWindow"). */
G_GNUC_INTERNAL char *window_type_of(const char *identifier);
/* The identifier by order: `type`, else "type.1", "type.2"..., the first not in `used`. */
G_GNUC_INTERNAL char *window_identifier_by_order(const char *type, GHashTable *used);

/* ---- amber-gtk-widgets.c ---- */

/* Connects `signal` of `instance` so that it marks the state of the widget it belongs to changed. */
typedef void (*WidgetHook)(gpointer instance, const char *signal, GtkApplication *app);

/* The kinds of amber-gtk-widgets.c. `keep_values`: the values the user set are kept (a scale's,
 * a spin button's, a calendar's date, a combo box's item). */
G_GNUC_INTERNAL gboolean widget_kind_has_state(GtkWidget *widget, gboolean keep_values);
/* Whether the widget's children are its own (not walked into). */
G_GNUC_INTERNAL gboolean widget_kind_is_leaf(GtkWidget *widget);
G_GNUC_INTERNAL int widget_kind_encode(GtkWidget *widget, amber_coder *coder, gboolean keep_values);
G_GNUC_INTERNAL void widget_kind_decode(AmberGtk *gtk, GtkWidget *widget, amber_decoder *decoder, gboolean keep_values);
/* Hooks the widget's own signals of change. */
G_GNUC_INTERNAL void widget_kind_hook(GtkWidget *widget, WidgetHook hook, GtkApplication *app);
/* An object of the widget whose signals tell a change (a tree view's selection), or NULL. */
G_GNUC_INTERNAL GObject *widget_kind_part(GtkWidget *widget);
/* Appends " key=value" pairs of the widget's state to `line`. */
G_GNUC_INTERNAL void widget_kind_describe(GString *line, GtkWidget *widget, gboolean keep_values);

G_END_DECLS

#endif /* AMBER_GTK_PRIVATE_H */

/*
 * amber-gtk-private.h — what the files of libamber-gtk share and its users do not see:
 * amber-gtk.c (windows, the tree, saving and restoring) calls the widget kinds of
 * amber-gtk-widgets.c, and they call back its scroll that waits for the layout.
 */
#ifndef AMBER_GTK_PRIVATE_H
#define AMBER_GTK_PRIVATE_H

#include "amber-gtk.h"

G_BEGIN_DECLS

/* Scrolls `widget`'s `adjustment` to `value` once the widget is laid out (amber-gtk.c). */
void scroll_when_laid_out(AmberGtk *gtk, GtkWidget *widget, GtkAdjustment *adjustment, double value);

/* Connects `signal` of `instance` so that it marks the state of the widget it belongs to changed. */
typedef void (*WidgetHook)(gpointer instance, const char *signal, GtkApplication *app);

/* The kinds of amber-gtk-widgets.c. `keep_values`: the values the user set are kept (a scale's,
 * a spin button's, a calendar's date, a combo box's item). */
gboolean widget_kind_has_state(GtkWidget *widget, gboolean keep_values);
/* Whether the widget's children are its own (not walked into). */
gboolean widget_kind_is_leaf(GtkWidget *widget);
int widget_kind_encode(GtkWidget *widget, amber_coder *coder, gboolean keep_values);
void widget_kind_decode(AmberGtk *gtk, GtkWidget *widget, amber_decoder *decoder, gboolean keep_values);
/* Hooks the widget's own signals of change. */
void widget_kind_hook(GtkWidget *widget, WidgetHook hook, GtkApplication *app);
/* An object of the widget whose signals tell a change (a tree view's selection), or NULL. */
GObject *widget_kind_part(GtkWidget *widget);
/* Appends " key=value" pairs of the widget's state to `line`. */
void widget_kind_describe(GString *line, GtkWidget *widget, gboolean keep_values);

G_END_DECLS

#endif /* AMBER_GTK_PRIVATE_H */

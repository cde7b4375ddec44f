/*
 * amber-gtk-widgets.c — the state of the GTK widgets real programs use beyond the R17 view
 * kinds (amber-gtk.c has those and the containers): ranges and scales, spin buttons, list box
 * and flow box selections, calendars, revealers, combo boxes and tree views. Each kind writes
 * its own "gtk.*" keys in its view's record, reads them back leaving the widget as it is when a
 * key is missing, names the signals that tell its state changed, and describes itself for
 * amber_gtk_describe().
 *
 * Values the user set (a scale's or a spin button's value, a calendar's date, a combo box's
 * item) are kept when the widget's values are kept (amber_gtk_keep_content(), or
 * AMBER_GTK_KEEP_TOGGLES for every widget); what the user looked at or picked in a view (a
 * revealer, the selection, expanded rows and scroll of a list or tree) is kept always.
 */
#include "amber-gtk-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GtkTreeView and GtkComboBox are deprecated from GTK 4.10 on; programs of 4.8 use them. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS

/* Indexes as "0,3,7" (a list box's or flow box's selection). */
static char *join_indexes(GArray *indexes) {
    GString *text = g_string_new(NULL);
    for (guint i = 0; i < indexes->len; i++) g_string_append_printf(text, "%s%d", i ? "," : "", g_array_index(indexes, int, i));
    return g_string_free(text, FALSE);
}

static GArray *list_box_selection(GtkListBox *box) {
    GArray *indexes = g_array_new(FALSE, FALSE, sizeof(int));
    GList *rows = gtk_list_box_get_selected_rows(box);
    for (GList *l = rows; l != NULL; l = l->next) {
        int index = gtk_list_box_row_get_index(l->data);
        g_array_append_val(indexes, index);
    }
    g_list_free(rows);
    return indexes;
}

static GArray *flow_box_selection(GtkFlowBox *box) {
    GArray *indexes = g_array_new(FALSE, FALSE, sizeof(int));
    GList *children = gtk_flow_box_get_selected_children(box);
    for (GList *l = children; l != NULL; l = l->next) {
        int index = gtk_flow_box_child_get_index(l->data);
        g_array_append_val(indexes, index);
    }
    g_list_free(children);
    return indexes;
}

static int compare_ints(gconstpointer a, gconstpointer b) {
    return *(const int *)a - *(const int *)b;
}

/* The selection of a list box or flow box, "" for none (sorted: the order rows were picked in
 * is not state). */
static char *box_selection(GtkWidget *widget) {
    GArray *indexes = GTK_IS_LIST_BOX(widget) ? list_box_selection(GTK_LIST_BOX(widget)) : flow_box_selection(GTK_FLOW_BOX(widget));
    g_array_sort(indexes, compare_ints);
    char *text = join_indexes(indexes);
    g_array_unref(indexes);
    return text;
}

static void box_select(GtkWidget *widget, const char *text) {
    char **parts = g_strsplit(text, ",", -1);
    if (GTK_IS_LIST_BOX(widget)) gtk_list_box_unselect_all(GTK_LIST_BOX(widget));
    else gtk_flow_box_unselect_all(GTK_FLOW_BOX(widget));
    for (char **p = parts; *p != NULL && (*p)[0] != '\0'; p++) {
        char *end = NULL;
        long index = strtol(*p, &end, 10);
        if (end == *p || *end != '\0' || index < 0 || index > G_MAXINT) continue;
        if (GTK_IS_LIST_BOX(widget)) {
            GtkListBoxRow *row = gtk_list_box_get_row_at_index(GTK_LIST_BOX(widget), (int)index);
            if (row != NULL) gtk_list_box_select_row(GTK_LIST_BOX(widget), row);
        } else {
            GtkFlowBoxChild *child = gtk_flow_box_get_child_at_index(GTK_FLOW_BOX(widget), (int)index);
            if (child != NULL) gtk_flow_box_select_child(GTK_FLOW_BOX(widget), child);
        }
    }
    g_strfreev(parts);
}

/* ---- tree views: selection, expanded rows, scroll -------------------------------------- */

static void add_path(GtkTreeModel *model, GtkTreePath *path, GtkTreeIter *iter, gpointer data) {
    (void)model;
    (void)iter;
    GString *text = data;
    char *string = gtk_tree_path_to_string(path);
    g_string_append_printf(text, "%s%s", text->len ? ";" : "", string);
    g_free(string);
}

static char *tree_selection(GtkTreeView *tree) {
    GString *text = g_string_new(NULL);
    gtk_tree_selection_selected_foreach(gtk_tree_view_get_selection(tree), add_path, text);
    return g_string_free(text, FALSE);
}

static void add_expanded(GtkTreeView *tree, GtkTreePath *path, gpointer data) {
    (void)tree;
    add_path(NULL, path, NULL, data);
}

static char *tree_expanded(GtkTreeView *tree) {
    GString *text = g_string_new(NULL);
    gtk_tree_view_map_expanded_rows(tree, add_expanded, text);
    return g_string_free(text, FALSE);
}

/* Calls `apply` on each valid path of "0;1:2;3" (a path of a row the model has). */
static void each_path(GtkTreeView *tree, const char *text, void (*apply)(GtkTreeView *, GtkTreePath *)) {
    GtkTreeModel *model = gtk_tree_view_get_model(tree);
    char **parts = g_strsplit(text, ";", -1);
    for (char **p = parts; model != NULL && *p != NULL && (*p)[0] != '\0'; p++) {
        GtkTreePath *path = gtk_tree_path_new_from_string(*p);
        GtkTreeIter iter;
        if (path != NULL && gtk_tree_model_get_iter(model, &iter, path)) apply(tree, path);
        if (path != NULL) gtk_tree_path_free(path);
    }
    g_strfreev(parts);
}

static void expand_row(GtkTreeView *tree, GtkTreePath *path) { gtk_tree_view_expand_row(tree, path, FALSE); }
static void select_row(GtkTreeView *tree, GtkTreePath *path) {
    gtk_tree_selection_select_path(gtk_tree_view_get_selection(tree), path);
}

/* ---- calendars ---------------------------------------------------------------------------- */

static char *calendar_date(GtkCalendar *calendar) {
    GDateTime *date = gtk_calendar_get_date(calendar);
    char *text = g_date_time_format(date, "%Y-%m-%d");
    g_date_time_unref(date);
    return text;
}

static void calendar_select(GtkCalendar *calendar, const char *text) {
    int year = 0, month = 0, day = 0;
    char tail = 0;
    if (sscanf(text, "%d-%d-%d%c", &year, &month, &day, &tail) != 3) return;
    GTimeZone *zone = g_time_zone_new_local();
    GDateTime *date = g_date_time_new(zone, year, month, day, 12, 0, 0); /* NULL for a bad date */
    g_time_zone_unref(zone);
    if (date == NULL) return;
    gtk_calendar_select_day(calendar, date);
    g_date_time_unref(date);
}

/* ---- the kinds ---------------------------------------------------------------------------- */

gboolean widget_kind_has_state(GtkWidget *widget, gboolean keep_values) {
    if (GTK_IS_REVEALER(widget) || GTK_IS_LIST_BOX(widget) || GTK_IS_FLOW_BOX(widget) || GTK_IS_TREE_VIEW(widget))
        return TRUE;
    return keep_values && (GTK_IS_RANGE(widget) || GTK_IS_SPIN_BUTTON(widget) || GTK_IS_CALENDAR(widget) ||
                           GTK_IS_COMBO_BOX(widget));
}

gboolean widget_kind_is_leaf(GtkWidget *widget) {
    return GTK_IS_RANGE(widget) || GTK_IS_CALENDAR(widget) || GTK_IS_TREE_VIEW(widget);
}

static void encode_owned_string(amber_coder *coder, const char *key, char *text, int *rc) {
    int status = amber_coder_encode_string(coder, key, text);
    if (status != AMBER_OK && *rc == AMBER_OK) *rc = status;
    g_free(text);
}

static void encode_number(amber_coder *coder, const char *key, double value, int *rc) {
    int status = amber_coder_encode_double(coder, key, value);
    if (status != AMBER_OK && *rc == AMBER_OK) *rc = status;
}

int widget_kind_encode(GtkWidget *widget, amber_coder *coder, gboolean keep_values) {
    int rc = AMBER_OK;
    if (GTK_IS_REVEALER(widget)) {
        rc = amber_coder_encode_bool(coder, "gtk.revealed", gtk_revealer_get_reveal_child(GTK_REVEALER(widget)));
    } else if (GTK_IS_LIST_BOX(widget) || GTK_IS_FLOW_BOX(widget)) {
        encode_owned_string(coder, "gtk.selected-rows", box_selection(widget), &rc);
    } else if (GTK_IS_TREE_VIEW(widget)) {
        GtkTreeView *tree = GTK_TREE_VIEW(widget);
        encode_owned_string(coder, "gtk.selected-rows", tree_selection(tree), &rc);
        encode_owned_string(coder, "gtk.expanded-rows", tree_expanded(tree), &rc);
        /* The scroll by its top row, never by pixels: rows measured otherwise at the next launch
         * (another font, rows measured as they show) would move the rows shown. */
        double delta = 0;
        char *top = tree_view_top(tree, &delta);
        if (top != NULL) {
            encode_owned_string(coder, "gtk.top-row", top, &rc);
            encode_number(coder, "gtk.top-delta", delta, &rc);
        }
    }
    if (!keep_values) return rc;
    if (GTK_IS_SPIN_BUTTON(widget)) encode_number(coder, "gtk.value", gtk_spin_button_get_value(GTK_SPIN_BUTTON(widget)), &rc);
    else if (GTK_IS_RANGE(widget)) encode_number(coder, "gtk.value", gtk_range_get_value(GTK_RANGE(widget)), &rc);
    else if (GTK_IS_CALENDAR(widget)) encode_owned_string(coder, "gtk.date", calendar_date(GTK_CALENDAR(widget)), &rc);
    else if (GTK_IS_COMBO_BOX(widget)) {
        int status = amber_coder_encode_int64(coder, "gtk.selected", gtk_combo_box_get_active(GTK_COMBO_BOX(widget)));
        if (status != AMBER_OK && rc == AMBER_OK) rc = status;
    }
    return rc;
}

void widget_kind_decode(AmberGtk *gtk, GtkWidget *widget, amber_decoder *decoder, gboolean keep_values) {
    const char *text = NULL;
    double value = 0;
    int flag = 0;
    int64_t number = 0;
    if (GTK_IS_REVEALER(widget)) {
        if (amber_decoder_decode_bool(&flag, decoder, "gtk.revealed") == AMBER_OK)
            gtk_revealer_set_reveal_child(GTK_REVEALER(widget), flag != 0);
    } else if (GTK_IS_LIST_BOX(widget) || GTK_IS_FLOW_BOX(widget)) {
        if (amber_decoder_decode_string(&text, decoder, "gtk.selected-rows") == AMBER_OK) box_select(widget, text);
    } else if (GTK_IS_TREE_VIEW(widget)) {
        GtkTreeView *tree = GTK_TREE_VIEW(widget);
        /* Expanded first: a selected row may be inside an expanded one. The rows the program
         * expanded and the user collapsed stay collapsed: the saved rows are all the expanded
         * ones, parents before their children. */
        if (amber_decoder_decode_string(&text, decoder, "gtk.expanded-rows") == AMBER_OK) {
            gtk_tree_view_collapse_all(tree);
            each_path(tree, text, expand_row);
        }
        if (amber_decoder_decode_string(&text, decoder, "gtk.selected-rows") == AMBER_OK) {
            gtk_tree_selection_unselect_all(gtk_tree_view_get_selection(tree));
            each_path(tree, text, select_row);
        }
        if (amber_decoder_decode_string(&text, decoder, "gtk.top-row") == AMBER_OK &&
            amber_decoder_decode_double(&value, decoder, "gtk.top-delta") == AMBER_OK)
            scroll_tree_when_laid_out(tree, text, value);
        else if (amber_decoder_decode_double(&value, decoder, "gtk.scroll-y") == AMBER_OK) /* saved in pixels before */
            scroll_when_laid_out(gtk, widget, gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(widget)), value);
    }
    if (!keep_values) return;
    if (GTK_IS_SPIN_BUTTON(widget)) {
        if (amber_decoder_decode_double(&value, decoder, "gtk.value") == AMBER_OK) gtk_spin_button_set_value(GTK_SPIN_BUTTON(widget), value);
    } else if (GTK_IS_RANGE(widget)) {
        if (amber_decoder_decode_double(&value, decoder, "gtk.value") == AMBER_OK) gtk_range_set_value(GTK_RANGE(widget), value);
    } else if (GTK_IS_CALENDAR(widget)) {
        if (amber_decoder_decode_string(&text, decoder, "gtk.date") == AMBER_OK) calendar_select(GTK_CALENDAR(widget), text);
    } else if (GTK_IS_COMBO_BOX(widget)) {
        if (amber_decoder_decode_int64(&number, decoder, "gtk.selected") == AMBER_OK && number >= -1 && number <= G_MAXINT) {
            GtkTreeModel *model = gtk_combo_box_get_model(GTK_COMBO_BOX(widget));
            if (model != NULL && number < gtk_tree_model_iter_n_children(model, NULL))
                gtk_combo_box_set_active(GTK_COMBO_BOX(widget), (int)number);
        }
    }
}

void widget_kind_hook(GtkWidget *widget, WidgetHook hook, GtkApplication *app) {
    if (GTK_IS_RANGE(widget)) hook(G_OBJECT(widget), "value-changed", app);
    else if (GTK_IS_SPIN_BUTTON(widget)) hook(G_OBJECT(widget), "value-changed", app);
    else if (GTK_IS_REVEALER(widget)) hook(G_OBJECT(widget), "notify::reveal-child", app);
    else if (GTK_IS_LIST_BOX(widget)) hook(G_OBJECT(widget), "selected-rows-changed", app);
    else if (GTK_IS_FLOW_BOX(widget)) hook(G_OBJECT(widget), "selected-children-changed", app);
    else if (GTK_IS_CALENDAR(widget)) hook(G_OBJECT(widget), "day-selected", app);
    else if (GTK_IS_COMBO_BOX(widget)) hook(G_OBJECT(widget), "changed", app);
    else if (GTK_IS_TREE_VIEW(widget)) {
        hook(G_OBJECT(widget), "row-expanded", app);
        hook(G_OBJECT(widget), "row-collapsed", app);
    }
}

GObject *widget_kind_part(GtkWidget *widget) {
    return GTK_IS_TREE_VIEW(widget) ? G_OBJECT(gtk_tree_view_get_selection(GTK_TREE_VIEW(widget))) : NULL;
}

void widget_kind_describe(GString *line, GtkWidget *widget, gboolean keep_values) {
    char *text = NULL;
    if (GTK_IS_REVEALER(widget)) {
        g_string_append_printf(line, " revealed=%d", gtk_revealer_get_reveal_child(GTK_REVEALER(widget)));
    } else if (GTK_IS_LIST_BOX(widget) || GTK_IS_FLOW_BOX(widget)) {
        text = box_selection(widget);
        g_string_append_printf(line, " selected=[%s]", text);
    } else if (GTK_IS_TREE_VIEW(widget)) {
        text = tree_selection(GTK_TREE_VIEW(widget));
        char *expanded = tree_expanded(GTK_TREE_VIEW(widget));
        double delta = 0;
        char *top = tree_view_top(GTK_TREE_VIEW(widget), &delta);
        g_string_append_printf(line, " selected=[%s] expanded=[%s] top-row=%s+%g", text, expanded, top != NULL ? top : "none", delta);
        g_free(top);
        g_free(expanded);
    }
    g_free(text);
    if (!keep_values) return;
    if (GTK_IS_SPIN_BUTTON(widget)) g_string_append_printf(line, " value=%g", gtk_spin_button_get_value(GTK_SPIN_BUTTON(widget)));
    else if (GTK_IS_RANGE(widget)) g_string_append_printf(line, " value=%g", gtk_range_get_value(GTK_RANGE(widget)));
    else if (GTK_IS_CALENDAR(widget)) {
        text = calendar_date(GTK_CALENDAR(widget));
        g_string_append_printf(line, " date=%s", text);
        g_free(text);
    } else if (GTK_IS_COMBO_BOX(widget)) {
        g_string_append_printf(line, " selected=%d", gtk_combo_box_get_active(GTK_COMBO_BOX(widget)));
    }
}

G_GNUC_END_IGNORE_DEPRECATIONS

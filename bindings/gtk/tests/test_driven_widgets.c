/*
 * test_driven_widgets.c — a GtkFlowBox's selection, a GtkRevealer and a GtkComboBox, changed by
 * real input in a real window (run-tests.sh drives it with xdotool), saved, and restored in a
 * second process (issue 40, item 4).
 *
 *   test_driven_widgets save    shows the window and prints where to click, one line each:
 *                               "at NAME X Y" (screen coordinates) for the tiles 1 and 4, the
 *                               program's own "Details" button (it reveals the revealer), and
 *                               the combo box; once the tiles 1 and 4 are selected, the revealer
 *                               revealed and "Large" picked, saves and quits
 *   test_driven_widgets check   builds the same window, restores, and checks each state in the
 *                               window shown
 *
 * Prints "ok ..." lines; exits 1 on a failure (or if the input never came). The state is in
 * $XDG_STATE_HOME/org.amber.drivenwidgets.
 */
#include "amber-gtk.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

#define TILES 6
#define PICKED "Large"
#define GIVE_UP_SECONDS 60

static gboolean saving;

typedef struct Widgets {
    GtkWidget *window, *tiles, *details_button, *revealer, *combo;
} Widgets;
static Widgets w;

/* The selected tiles as text ("1,4"), newly allocated. */
static char *selected_tiles(void) {
    GString *text = g_string_new(NULL);
    for (int i = 0; i < TILES; i++) {
        GtkFlowBoxChild *child = gtk_flow_box_get_child_at_index(GTK_FLOW_BOX(w.tiles), i);
        if (gtk_flow_box_child_is_selected(child)) g_string_append_printf(text, "%s%d", text->len ? "," : "", i);
    }
    return g_string_free(text, FALSE);
}

static gboolean revealed(void) {
    return gtk_revealer_get_reveal_child(GTK_REVEALER(w.revealer));
}

static const char *picked(void) {
    char *text = gtk_combo_box_text_get_active_text(GTK_COMBO_BOX_TEXT(w.combo));
    static char kept[32];
    g_strlcpy(kept, text != NULL ? text : "(none)", sizeof kept);
    g_free(text);
    return kept;
}

/* One line of the state, for the checks' lines. */
static char *state_line(void) {
    char *tiles = selected_tiles();
    char *line = g_strdup_printf("tiles selected [%s], revealer revealed=%d, combo box \"%s\"", tiles, revealed(), picked());
    g_free(tiles);
    return line;
}

static gboolean state_is_driven(void) {
    char *tiles = selected_tiles();
    gboolean driven = strcmp(tiles, "1,4") == 0 && revealed() && strcmp(picked(), PICKED) == 0;
    g_free(tiles);
    return driven;
}

static void on_details_toggled(GtkToggleButton *button, gpointer data) {
    (void)data;
    gtk_revealer_set_reveal_child(GTK_REVEALER(w.revealer), gtk_toggle_button_get_active(button));
}

static void build(GtkApplication *app) {
    w.window = gtk_application_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(w.window), 360, 300);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    w.tiles = gtk_flow_box_new();
    gtk_widget_set_name(w.tiles, "tiles");
    gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(w.tiles), GTK_SELECTION_MULTIPLE);
    gtk_flow_box_set_min_children_per_line(GTK_FLOW_BOX(w.tiles), 3);
    gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(w.tiles), 3);
    for (int i = 0; i < TILES; i++) {
        char *text = g_strdup_printf("Tile %d", i);
        gtk_flow_box_append(GTK_FLOW_BOX(w.tiles), gtk_label_new(text));
        g_free(text);
    }
    /* The program's own button, as a real program's: not named, it takes no part itself. */
    w.details_button = gtk_toggle_button_new_with_label("Details");
    w.revealer = gtk_revealer_new();
    gtk_widget_set_name(w.revealer, "details");
    gtk_revealer_set_transition_type(GTK_REVEALER(w.revealer), GTK_REVEALER_TRANSITION_TYPE_NONE);
    gtk_revealer_set_child(GTK_REVEALER(w.revealer), gtk_label_new("The details, revealed"));
    g_signal_connect(w.details_button, "toggled", G_CALLBACK(on_details_toggled), NULL);
    w.combo = gtk_combo_box_text_new();
    gtk_widget_set_name(w.combo, "size");
    for (const char *const *size = (const char *const[]){"Small", "Medium", PICKED, "Huge", NULL}; *size != NULL; size++)
        gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(w.combo), *size);
    gtk_combo_box_set_active(GTK_COMBO_BOX(w.combo), 0);
    gtk_box_append(GTK_BOX(box), w.tiles);
    gtk_box_append(GTK_BOX(box), w.details_button);
    gtk_box_append(GTK_BOX(box), w.revealer);
    gtk_box_append(GTK_BOX(box), w.combo);
    gtk_window_set_child(GTK_WINDOW(w.window), box);
    /* The window's first focus on the button: on the flow box's first tile, the tile would be
     * selected with it. */
    gtk_window_set_focus(GTK_WINDOW(w.window), w.details_button);
}

/* Prints "at NAME X Y": the middle of `widget` on the screen (the window is at the screen's
 * origin: Xvfb has no window manager to place it). */
static void print_where(const char *name, GtkWidget *widget) {
    graphene_point_t middle = GRAPHENE_POINT_INIT(gtk_widget_get_width(widget) / 2.0f, gtk_widget_get_height(widget) / 2.0f), at;
    double dx = 0, dy = 0;
    gtk_native_get_surface_transform(GTK_NATIVE(w.window), &dx, &dy);
    if (gtk_widget_compute_point(widget, w.window, &middle, &at)) printf("at %s %.0f %.0f\n", name, at.x + dx, at.y + dy);
}

/* Saving: once laid out, where to click; then, as the input comes, the save once it is all in. */
static gboolean watch_input(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    static gboolean told;
    if (gtk_widget_get_height(widget) <= 0) return G_SOURCE_CONTINUE;
    if (!told) {
        told = TRUE;
        print_where("tile1", GTK_WIDGET(gtk_flow_box_get_child_at_index(GTK_FLOW_BOX(w.tiles), 1)));
        print_where("tile4", GTK_WIDGET(gtk_flow_box_get_child_at_index(GTK_FLOW_BOX(w.tiles), 4)));
        print_where("details", w.details_button);
        print_where("size", w.combo);
        fflush(stdout);
    }
    if (!state_is_driven()) return G_SOURCE_CONTINUE;
    char *line = state_line();
    char *what = g_strdup_printf("driven by real input: %s; saved", line);
    result(amber_gtk_save(amber_gtk_from_application(gtk_window_get_application(GTK_WINDOW(w.window)))) == AMBER_OK, what);
    g_free(what);
    g_free(line);
    gtk_window_destroy(GTK_WINDOW(w.window));
    return G_SOURCE_REMOVE;
}

/* Checking: the restored state, in the window once it is laid out. */
static gboolean check_restored(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    if (gtk_widget_get_height(widget) <= 0) return G_SOURCE_CONTINUE;
    char *tiles = selected_tiles();
    char *line = g_strdup_printf("restored: tiles selected [%s] (saved: [1,4])", tiles);
    result(strcmp(tiles, "1,4") == 0, line);
    g_free(line);
    g_free(tiles);
    result(revealed() && gtk_widget_get_child_visible(gtk_revealer_get_child(GTK_REVEALER(w.revealer))),
           "restored: the revealer revealed, its child shown");
    line = g_strdup_printf("restored: the combo box at \"%s\" (saved: \"%s\")", picked(), PICKED);
    result(strcmp(picked(), PICKED) == 0, line);
    g_free(line);
    result(strstr(printed->str, "amber-gtk:") == NULL, "no line on stderr: nothing left out, nothing not restored");
    gtk_window_destroy(GTK_WINDOW(w.window));
    return G_SOURCE_REMOVE;
}

static gboolean give_up(gpointer data) {
    char *line = state_line();
    char *what = g_strdup_printf("gave up waiting: %s", line);
    result(FALSE, what);
    g_free(what);
    g_free(line);
    g_application_quit(data);
    return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app) {
    g_timeout_add_seconds(GIVE_UP_SECONDS, give_up, app);
    build(app);
    if (saving) {
        gtk_widget_add_tick_callback(w.window, watch_input, NULL, NULL);
    } else {
        amber_gtk_restore(NULL, amber_gtk_from_application(app));
        gtk_widget_add_tick_callback(w.window, check_restored, NULL, NULL);
    }
    gtk_window_present(GTK_WINDOW(w.window));
}

int main(int argc, char **argv) {
    int mode = save_or_check(argc, argv, "test_driven_widgets");
    if (mode < 0) return 2;
    saving = mode == 1;
    /* The combo box's item is a value the user set: kept with the toggles. */
    return run_attached("test_driven_widgets", "org.amber.drivenwidgets", AMBER_GTK_KEEP_TOGGLES, G_CALLBACK(activate));
}

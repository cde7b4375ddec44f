/*
 * amber-gtk-windows.c — which saved state an unnamed window takes (issue 40): the rule of the Tk
 * adapter too (bindings/python/amber/tk/_matching.py), documented once in docs/behaviour.md,
 * "Unnamed windows in the adapters".
 *
 * An unnamed window's identifier is its type and an index ("GtkApplicationWindow.1"). The index
 * alone gives two editors reopened in the other order each the other's state, so each save also
 * keeps, in the application's coder, the title every unnamed window had (an editor's title
 * names its file). At the next launch, and when a window shows later, an unnamed window takes
 * the saved window of its type whose title equals its own, when exactly one does; otherwise the
 * order decides, as before. The application coder is the one place the adapter can read before
 * the engine matches records to windows (should_restore, R9): a window's own record is read only
 * once a window has its identifier.
 *
 * The keys: "gtk.unnamed-windows" (how many), then "gtk.unnamed-window.N.identifier" and
 * "gtk.unnamed-window.N.title" for each, N from 0.
 */
#include "amber-gtk-private.h"

#include <string.h>

#define COUNT_KEY "gtk.unnamed-windows"
/* More unnamed windows than a program opens at once: the rest of a damaged index is not read. */
#define MAX_SAVED 1024

typedef struct SavedWindow {
    char *identifier;
    char *title;
    /* A window of this run has its identifier: no other takes it. */
    gboolean taken;
} SavedWindow;

struct SavedWindows {
    GPtrArray *windows; /* SavedWindow* */
};

static void saved_window_free(gpointer data) {
    SavedWindow *saved = data;
    g_free(saved->identifier);
    g_free(saved->title);
    g_free(saved);
}

SavedWindows *saved_windows_new(void) {
    SavedWindows *saved = g_new0(SavedWindows, 1);
    saved->windows = g_ptr_array_new_with_free_func(saved_window_free);
    return saved;
}

void saved_windows_free(SavedWindows *saved) {
    if (saved == NULL) return;
    g_ptr_array_unref(saved->windows);
    g_free(saved);
}

char *window_type_of(const char *identifier) { return g_strndup(identifier, strcspn(identifier, ".")); }

static gboolean of_type(const SavedWindow *saved, const char *type) {
    size_t length = strlen(type);
    return strncmp(saved->identifier, type, length) == 0 &&
           (saved->identifier[length] == '\0' || saved->identifier[length] == '.');
}

static char *entry_key(guint index, const char *field) { return g_strdup_printf("gtk.unnamed-window.%u.%s", index, field); }

void saved_windows_read(SavedWindows *saved, amber_decoder *app_decoder) {
    g_ptr_array_set_size(saved->windows, 0);
    int64_t count = 0;
    if (amber_decoder_decode_int64(&count, app_decoder, COUNT_KEY) != AMBER_OK || count <= 0) return;
    for (guint i = 0; i < (guint)MIN(count, MAX_SAVED); i++) {
        char *identifier_key = entry_key(i, "identifier"), *title_key = entry_key(i, "title");
        const char *identifier = NULL, *title = NULL;
        if (amber_decoder_decode_string(&identifier, app_decoder, identifier_key) == AMBER_OK && identifier[0] != '\0') {
            SavedWindow *window = g_new0(SavedWindow, 1);
            window->identifier = g_strdup(identifier);
            window->title = g_strdup(amber_decoder_decode_string(&title, app_decoder, title_key) == AMBER_OK ? title : "");
            g_ptr_array_add(saved->windows, window);
        }
        g_free(identifier_key);
        g_free(title_key);
    }
}

int saved_windows_write(amber_coder *app_coder, const UnnamedWindow *windows, guint count) {
    int rc = amber_coder_encode_int64(app_coder, COUNT_KEY, count);
    for (guint i = 0; i < count && rc == AMBER_OK; i++) {
        char *identifier_key = entry_key(i, "identifier"), *title_key = entry_key(i, "title");
        rc = amber_coder_encode_string(app_coder, identifier_key, windows[i].identifier);
        if (rc == AMBER_OK) rc = amber_coder_encode_string(app_coder, title_key, windows[i].title != NULL ? windows[i].title : "");
        g_free(identifier_key);
        g_free(title_key);
    }
    return rc;
}

void saved_windows_carried(const SavedWindows *saved, GHashTable *kept, GArray *out) {
    for (guint i = 0; i < saved->windows->len; i++) {
        const SavedWindow *window = saved->windows->pdata[i];
        if (window->taken || !g_hash_table_contains(kept, window->identifier)) continue;
        UnnamedWindow entry = {window->identifier, window->title};
        g_array_append_val(out, entry);
    }
}

guint saved_windows_count(const SavedWindows *saved, const char *type) {
    guint count = 0;
    for (guint i = 0; i < saved->windows->len; i++) count += of_type(saved->windows->pdata[i], type);
    return count;
}

/* Whether a saved window may still be taken: not taken, and no window of this run has its
 * identifier (`used`); with `kept`, only one whose record the engine keeps (R35). */
static gboolean free_to_take(const SavedWindow *window, GHashTable *used, GHashTable *kept) {
    return !window->taken && !g_hash_table_contains(used, window->identifier) &&
           (kept == NULL || g_hash_table_contains(kept, window->identifier));
}

const char *saved_windows_by_title(const SavedWindows *saved, const char *type, const char *title, GHashTable *used,
                                   GHashTable *kept, char **why) {
    *why = NULL;
    if (title == NULL || title[0] == '\0') {
        *why = g_strdup("it has no title");
        return NULL;
    }
    const SavedWindow *found = NULL;
    guint equal = 0;
    for (guint i = 0; i < saved->windows->len; i++) {
        const SavedWindow *window = saved->windows->pdata[i];
        if (!of_type(window, type) || !free_to_take(window, used, kept) || strcmp(window->title, title) != 0) continue;
        found = window;
        equal++;
    }
    if (equal == 1) return found->identifier;
    if (equal == 0) *why = g_strdup_printf("no window of its type was saved with its title \"%s\"", title);
    else *why = g_strdup_printf("%u windows of its type were saved with its title \"%s\"", equal, title);
    return NULL;
}

gboolean saved_windows_take(SavedWindows *saved, const char *identifier) {
    for (guint i = 0; i < saved->windows->len; i++) {
        SavedWindow *window = saved->windows->pdata[i];
        if (strcmp(window->identifier, identifier) != 0) continue;
        window->taken = TRUE;
        return TRUE;
    }
    return FALSE;
}

char *window_identifier_by_order(const char *type, GHashTable *used) {
    char *candidate = g_strdup(type);
    for (guint index = 1; g_hash_table_contains(used, candidate); index++) {
        g_free(candidate);
        candidate = g_strdup_printf("%s.%u", type, index);
    }
    return candidate;
}

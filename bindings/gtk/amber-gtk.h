/*
 * amber-gtk.h — libamber-gtk: GTK 4 programs get their interface back with Amber.
 *
 * Attach an Amber engine to a GtkApplication and every named widget of its windows keeps the
 * standard state of its type; the program restores it once its interface is built:
 *
 *     amber_engine_open(&engine, "org.example.notes", NULL);
 *     AmberGtk *gtk = amber_gtk_attach(engine, app);
 *     ... build the windows in "activate" ...
 *     amber_gtk_restore(NULL, gtk);      (or let the adapter restore by itself, below)
 *
 * An unmodified program gets the same from amber-run (amber-run-preload.c), which attaches the
 * adapter with AMBER_GTK_AUTO_NAMES and AMBER_GTK_KEEP_TOGGLES (amber_gtk_set_options()):
 *
 *     amber-run [--app-id ID] [--state-dir DIR] PROGRAM [ARGS...]
 *
 * What takes part:
 *   - every window of the application is a root, identified by its name (gtk_widget_set_name(),
 *     or its GtkBuilder id), else by its type's name ("GtkApplicationWindow": a program with one
 *     main window need not name it). Unnamed windows of one type are "GtkApplicationWindow",
 *     "GtkApplicationWindow.1"...: each takes the saved window of its type with its title, else
 *     the order decides (docs/behaviour.md, "Unnamed windows in the adapters");
 *   - inside it, every widget with a name (or a GtkBuilder id) whose type has standard state
 *     (below), or that the host gave its own coding (amber_gtk_set_coding()), is restorable;
 *   - its restoration path is the window's name, then the names of its named ancestors and its
 *     own joined with '/': "main" then "split/sidebar/notes" (amber_object_path() shows
 *     "main/split/sidebar/notes"). Unnamed widgets in between do not count, so a box added around
 *     a widget does not change its path; a widget renamed or removed between versions is not
 *     found and comes back in its default state (the report says so);
 *   - with AMBER_GTK_AUTO_NAMES, unnamed widgets too, by their place in the tree ("GtkPaned.0");
 *   - only the program's widgets: the toolkit's internal children (a spin button's text, a color
 *     chooser's editor, a scale button's popup) are not walked.
 *
 * Standard state by type (the view kinds of Amber's R17 where one fits, else the widget's own
 * keys, named "gtk.*"):
 *   GtkWindow                   default size, maximized, fullscreen
 *   GtkScrolledWindow           its adjustments (R17 scroll view: content offset)
 *   GtkListView, GtkColumnView  selection, scroll and first visible item (R17 table); the selected
 *                               items and the first visible one by model identifier (R18) when the
 *                               host names the item property that holds one
 *                               (amber_gtk_set_item_identifier()), so a moved row is still selected
 *                               and still at the top, and a deleted one is dropped and reported
 *   GtkGridView                 the same (R17 collection)
 *   GtkEditable                 cursor and selection (R17 text field); the text only if the host
 *                               opts in (amber_gtk_keep_content())
 *   GtkTextView                 cursor, selection and scroll (R17 text view); the text opt-in
 *   GtkNotebook, GtkStack       the visible page, by name (a notebook page's child's name, else
 *                               its tab label's text)
 *   GtkPaned                    position
 *   GtkExpander                 expanded
 *   GtkRevealer                 revealed
 *   GtkListBox, GtkFlowBox      the selected rows or children, by position
 *   GtkTreeView                 selected rows, expanded rows, top line (by pixels)
 *   GtkCheckButton, GtkToggleButton, GtkSwitch, GtkDropDown, GtkComboBox: active or selected
 *                               item; GtkRange (GtkScale), GtkSpinButton: value; GtkCalendar:
 *                               date: opt-in (amber_gtk_keep_content(), or AMBER_GTK_KEEP_TOGGLES)
 *
 * Scroll positions wait until their widget is shown and laid out; one on a page not shown at
 * restoration is applied when the page first shows, and saves meanwhile keep it. A text view is
 * scrolled to its top line and the pixels into it, not to a pixel value, so it does not drift.
 *
 * When it restores: when the host calls amber_gtk_restore(); else after the application's
 * "activate" or "open" handlers; else when the first window shows (a program that builds its
 * window in "command-line" or "startup"), once the handler that showed it returned and before
 * its first frame. A save before any of these restores first, so what the archive held is not
 * lost. A window that first shows later (a second window, a dialog) claims the state kept for it
 * (Amber's R35: the host keeps the records no object claimed at launch with
 * amber_engine_keep_unclaimed(); amber-run keeps them for the whole run).
 *
 * When it saves: when a window closes (a transient window, such as a dialog, closing alone is
 * saved as closed; the last main window closing saves everything, since the application
 * quits), when the application shuts down with windows open, on SIGTERM and SIGINT (then the
 * application quits), and after changes, through the engine's dirty marking and autosave (R32):
 * the widgets' own signals mark the changed widget's object dirty, and the engine saves a quiet
 * time after the last change. GLib's main loop drives it: a timeout waits for
 * amber_engine_autosave_timeout(), then calls amber_engine_tick().
 *
 * The adapter sets the engine's delegate (save and restore always) and its autosave policy (a
 * short quiet time, no minimum interval, full saves: every encode callback is called at every
 * save, since the window's focus and the host's own coding change without a signal the adapter
 * can watch). A host may set another policy after amber_gtk_attach(); the adapter's timeout
 * follows it, and it should keep full_saves. The host keeps the engine and closes it after
 * g_application_run() returned. The adapter lives as long as the application. Nothing here
 * aborts the host: a failure is a line on stderr ("amber-gtk: ...")
 * and the program goes on, with its interface in its default state.
 */
#ifndef AMBER_GTK_H
#define AMBER_GTK_H

#include <amber.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/** The adapter of one GtkApplication. */
typedef struct AmberGtk AmberGtk;

/**
 * Attaches `engine` to `app`: its windows take part, saving is hooked as described above, and
 * unless the host calls amber_gtk_restore() first, the adapter restores by itself (after
 * "activate" or "open", or when the first window shows).
 *
 * @param engine an open engine; the adapter sets its delegate. The host closes it after
 *        g_application_run() returned.
 * @param app the application, before g_application_run().
 * @return the adapter, owned by the application (freed with it); NULL for a NULL argument or an
 *         application attached already (a line on stderr says which).
 */
AmberGtk *amber_gtk_attach(amber_engine *engine, GtkApplication *app);

/**
 * Restores the interface: call it once the windows are built (in "activate"). Windows made on
 * demand come back through amber_gtk_register_window(). Values that need the window laid out
 * first (scroll positions) are applied as soon as the widgets can take them.
 *
 * A fresh launch is not an error: when it was fresh for another reason than having no archive
 * (an archive from another program, a damaged one), or when a saved widget was not found (renamed
 * or removed), a line on stderr says so.
 *
 * @param out_report NULL, or receives the restoration report (free it with amber_report_free());
 *        NULL on failure.
 * @param gtk the adapter.
 * @return AMBER_OK; AMBER_MISUSE when called a second time; an Amber status code.
 */
int amber_gtk_restore(amber_report **out_report, AmberGtk *gtk);

/**
 * Keeps the state of the windows not open at the restoration for `milliseconds`, for a window
 * that shows later (a second window, a dialog) to claim when it first shows: Amber's
 * amber_engine_keep_unclaimed() (R35), and the adapter's report lines know it. A window kept
 * for gets one line at the restoration, "WINDOW: kept for a window that shows later", rather
 * than "not restored" for it and each of its widgets; "WINDOW not restored" only if no such
 * window showed when the time ends (GLib waits up to 49 days) or the application shuts down.
 * amber-run keeps them for the whole run. Call it before the interface is restored.
 *
 * @return AMBER_OK, or the code of amber_engine_keep_unclaimed(); AMBER_INVALID_ARGUMENT for a
 *         NULL adapter.
 */
int amber_gtk_keep_unclaimed(AmberGtk *gtk, uint64_t milliseconds);

/**
 * Saves the interface now (the adapter saves by itself; a host calls this for its own reasons,
 * before an update, say).
 *
 * @return AMBER_OK or the status code of amber_engine_preserve() (a line on stderr says why).
 */
int amber_gtk_save(AmberGtk *gtk);

/**
 * Opts a widget's content in or out: the text of a GtkEditable or GtkTextView, the active state
 * of a toggle, a drop-down's selected item. Off by default: content is often data, not state.
 */
void amber_gtk_keep_content(GtkWidget *widget, gboolean keep);

/**
 * Names the property of a list's items (a GtkListView, GtkColumnView or GtkGridView) that holds
 * a stable identifier, e.g. "string" for a GtkStringList's items: its selection is then saved by
 * identifier (Amber's model association, R18). NULL: by position.
 *
 * @param list the list widget.
 * @param property the property's name (copied); its value must be a string or convert to one.
 */
void amber_gtk_set_item_identifier(GtkWidget *list, const char *property);

/** Makes a window on demand (a dialog, a second window) at restoration. The window must be
 *  named as it was, and belong to `app`; NULL: not made (the report says so). */
typedef GtkWindow *(*AmberGtkWindowMaker)(GtkApplication *app, void *ctx);

/**
 * Registers the maker of the window named `name`, so that this window, when it was open at the
 * save, is made again at restoration (Amber's restoration class, R10 step 1), then restored like
 * any other window. (A window built from a .ui file can come back without a maker: see
 * amber_gtk_build_window().) A maker typically builds it from a GtkBuilder .ui file and presents it, as
 * the host's own "open" action does.
 *
 * @param gtk the adapter; call before amber_gtk_restore().
 * @param name the window's name (copied).
 * @param make the window's maker.
 * @param ctx passed to `make`.
 * @param ctx_free called once with ctx when the adapter no longer needs it (when the engine
 *        closes); may be NULL. On failure it is not called.
 * @return AMBER_OK; AMBER_DUPLICATE for a name registered already; AMBER_INVALID_ARGUMENT for a
 *         NULL or empty name or a NULL maker.
 */
int amber_gtk_register_window(AmberGtk *gtk, const char *name, AmberGtkWindowMaker make, void *ctx,
                              void (*ctx_free)(void *ctx));

/** Called on a window amber_gtk_build_window() built, with its builder, before it is shown: the
 *  host connects its signals and opts content in there, as for a window it builds itself. The
 *  builder is the adapter's and lives only for the call (take a reference to keep it). */
typedef void (*AmberGtkBuilt)(GtkWindow *window, GtkBuilder *builder, void *ctx);

/**
 * Registers a GtkBuilder .ui file under a short name, for windows made on demand from it with
 * amber_gtk_build_window(). Such a window that was open at the save is built again from the same
 * file and object id at restoration: a blueprint (Amber's R10 step 4, GtkBuilder files being
 * UIKit's storyboards). Only registered files are ever read: the archive names the file by its
 * short name.
 *
 * @param gtk the adapter; call before amber_gtk_restore().
 * @param name the file's short name (copied), without '/'.
 * @param path the .ui file (copied).
 * @param built called on every window built from the file; may be NULL.
 * @param ctx passed to `built`.
 * @param ctx_free called once with ctx when the adapter no longer needs it (when the application
 *        is finalized); may be NULL. On failure it is not called.
 * @return AMBER_OK; AMBER_DUPLICATE for a name registered already; AMBER_INVALID_ARGUMENT for a
 *         NULL or empty name, a name with '/', or a NULL path.
 */
int amber_gtk_register_ui_file(AmberGtk *gtk, const char *name, const char *path, AmberGtkBuilt built, void *ctx,
                               void (*ctx_free)(void *ctx));

/**
 * Builds the window `object_id` of the .ui file registered as `name`, adds it to the
 * application and calls the file's `built` callback; the host presents it. The window remembers
 * where it came from, so that it comes back at the next launch if it is open at the save.
 *
 * @return the window, owned by GTK as every toplevel is (the application holds it until it is
 *         destroyed; do not unref it), or NULL (a line on stderr says why: a NULL object_id, no
 *         such file registered, a file that does not build, no window with that id).
 */
GtkWindow *amber_gtk_build_window(AmberGtk *gtk, const char *name, const char *object_id);

/** The host's own state of a widget, written and read beside its standard state. Keys are the
 *  host's (not "gtk.*", nor Amber's reserved ones). Return AMBER_OK or a code. */
typedef int (*AmberGtkEncode)(GtkWidget *widget, amber_coder *coder, void *ctx);
typedef int (*AmberGtkDecode)(GtkWidget *widget, amber_decoder *decoder, void *ctx);

/**
 * Gives a named widget the host's own encode and decode, called beside its standard state (the
 * decode first, so that a text the host restores is there when the cursor comes back). A widget
 * of any type may have them; it is restorable when it has a name.
 *
 * @param encode, decode either may be NULL; both NULL removes them (and ctx and ctx_free are
 *        not kept).
 * @param ctx passed to both.
 * @param ctx_free called once with ctx when the adapter no longer needs it: the widget is
 *        finalized, or amber_gtk_set_coding() is called on it again; may be NULL.
 */
void amber_gtk_set_coding(GtkWidget *widget, AmberGtkEncode encode, AmberGtkDecode decode, void *ctx,
                          void (*ctx_free)(void *ctx));

/** Options of amber_gtk_set_options(), or-ed together. */
typedef enum AmberGtkOptions {
    AMBER_GTK_OPTIONS_NONE = 0,
    /**
     * Unnamed widgets take part too, under an automatic identifier from their place in the tree:
     * their type and their index among the widgets of that type under their nearest named
     * ancestor (the window, at least), "GtkPaned.1", in tree order. The toolkit's internal
     * children (a spin button's text, a notebook's tabs) are skipped. The identifiers are stable
     * across runs that build the interface the same way; a window records the shape it was saved
     * with (its unnamed widgets' identifiers), and when the interface it is restored into has
     * another shape (another version of the program), the state of its unnamed widgets is not
     * applied, and a line on stderr says so. Named widgets are restored either way.
     */
    AMBER_GTK_AUTO_NAMES = 1 << 0,
    /** The active state of toggles (check and toggle buttons, switches), a drop-down's or combo
     *  box's selected item, kept for every widget, as amber_gtk_keep_content() does for one.
     *  Typed text stays opt-in (R34). */
    AMBER_GTK_KEEP_TOGGLES = 1 << 1,
} AmberGtkOptions;

/**
 * Sets the adapter's options (amber-run sets both). Call it before the interface is restored.
 */
void amber_gtk_set_options(AmberGtk *gtk, AmberGtkOptions options);

/**
 * Describes the state of every restorable widget of the windows taking part as it is now, one
 * line each: "WINDOW/PATH TYPE key=value ...", sorted (for debugging and tests: amber-run
 * writes it on SIGUSR1 when AMBER_RUN_STATE_FILE is set). Typed text is shown only for widgets
 * whose content is kept.
 *
 * @return a new string (g_free() it).
 */
char *amber_gtk_describe(AmberGtk *gtk);

/** The adapter attached to `app`, or NULL. */
AmberGtk *amber_gtk_from_application(GtkApplication *app);

G_END_DECLS

#endif /* AMBER_GTK_H */

/*
 * amber/view.h — views: the standard state of a view's kind (R17), filled by the host's read
 * accessor and handed to its apply accessor as one versioned struct, and the model association
 * of a table's or collection's data source (R18).
 *
 * Group: view. Functions amber_object_set_view_accessors, amber_object_view_kind,
 * amber_object_set_model_association (they take the view, an amber_object).
 */
#ifndef AMBER_VIEW_H
#define AMBER_VIEW_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A view (AMBER_KIND_VIEW) keeps, besides what its encode callback writes, the standard state
 * of its kind (R17) when the host gives it a kind and accessors
 * (amber_object_set_view_accessors()). Like every object it is preserved only when it and its
 * controller, and every ancestor, have restoration identifiers (R2). The engine archives the
 * standard state itself, under keys of the view's own coder that host code cannot write
 * ("amber.view.*", R7), so they never collide with the host's keys.
 *
 * At preservation the engine calls the view's `read` accessor with a zeroed amber_view_state
 * (its version and kind set): the accessor fills the members its view has and sets their bits
 * in `fields`; Amber checks and copies them when it returns. If the view's data source gave a
 * model association (amber_object_set_model_association(), R18), each selected item and the
 * first visible item are archived as the model identifier of the item at that index path;
 * without one, or for an item without an identifier, as the index path itself.
 *
 * At restoration, once every object exists and after the view's own decode callback succeeded
 * (so the controller above it and the view itself have restored their data first), the engine
 * turns model identifiers back into index paths through the association (those that resolve to
 * nothing are dropped and listed in the report: amber_report_record's dropped_identifiers),
 * asks a text field or text view for its text length and restores a selected range that no
 * longer fits as no selection, then calls the `apply` accessor with the state: a member whose
 * bit is clear was not archived, or restored as nothing. A failing accessor or association
 * callback at restoration makes the view's record AMBER_OUTCOME_DECODE_ERROR; at preservation
 * it leaves the view out (AMBER_LEFT_OUT_ENCODE_FAILED, its message naming the code, R28) and
 * the rest is saved.
 *
 * Finding views at restoration (R10): besides the lookup chain, a view whose controller was
 * restored is found among that controller's views by its identifier, so a restoration class that
 * makes a controller together with its views (as loadView would) needs to do nothing more.
 */

/** The kinds of view whose standard state the engine keeps (R17). */
typedef enum amber_view_kind {
    /** The answer of amber_object_view_kind() for a bad handle or an object that is no view. */
    AMBER_VIEW_INVALID = -1,
    /** A view without accessors: it keeps only what its encode callback writes. */
    AMBER_VIEW_NONE = 0,
    /** Content offset, content inset, zoom scale. */
    AMBER_VIEW_SCROLL = 1,
    /** A scroll view's state, plus the selected items, the first visible item and editing mode. */
    AMBER_VIEW_TABLE = 2,
    /** As a table. */
    AMBER_VIEW_COLLECTION = 3,
    /** The selected range. */
    AMBER_VIEW_TEXT_FIELD = 4,
    /** The selected range and whether the text is editable. */
    AMBER_VIEW_TEXT_VIEW = 5,
    /** Bounds, center, transform and anchor point. */
    AMBER_VIEW_IMAGE = 6,
    /** The back/forward list: each page's URL and scroll position, and the current page. */
    AMBER_VIEW_WEB = 7
} amber_view_kind;

/** A point (CGPoint). */
typedef struct amber_point {
    double x, y;
} amber_point;

/** A size (CGSize). */
typedef struct amber_size {
    double width, height;
} amber_size;

/** A rectangle (CGRect). */
typedef struct amber_rect {
    amber_point origin;
    amber_size size;
} amber_rect;

/** Insets from each edge (UIEdgeInsets). */
typedef struct amber_insets {
    double top, left, bottom, right;
} amber_insets;

/** An affine transform (CGAffineTransform): x' = a*x + c*y + tx, y' = b*x + d*y + ty. */
typedef struct amber_transform {
    double a, b, c, d, tx, ty;
} amber_transform;

/** A range of a text (NSRange), in the unit the host counts its text in (UTF-16 code units in
 *  UIKit) — the unit of the length its text_length accessor gives. */
typedef struct amber_range {
    uint64_t location, length;
} amber_range;

/** A page of a web view's back/forward list. */
typedef struct amber_web_page {
    /** The page's URL: UTF-8, not empty, at most 64 KiB. */
    const char *url;
    amber_point scroll;
} amber_web_page;

/** The members of an amber_view_state, as bits of its `fields`. */
#define AMBER_VIEW_FIELD_CONTENT_OFFSET     (1u << 0)
#define AMBER_VIEW_FIELD_CONTENT_INSET      (1u << 1)
#define AMBER_VIEW_FIELD_ZOOM_SCALE         (1u << 2)
#define AMBER_VIEW_FIELD_SELECTED_ITEMS     (1u << 3)
#define AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM (1u << 4)
#define AMBER_VIEW_FIELD_EDITING            (1u << 5)
#define AMBER_VIEW_FIELD_SELECTED_RANGE     (1u << 6)
#define AMBER_VIEW_FIELD_EDITABLE           (1u << 7)
#define AMBER_VIEW_FIELD_BOUNDS             (1u << 8)
#define AMBER_VIEW_FIELD_CENTER             (1u << 9)
#define AMBER_VIEW_FIELD_TRANSFORM          (1u << 10)
#define AMBER_VIEW_FIELD_ANCHOR_POINT       (1u << 11)
#define AMBER_VIEW_FIELD_PAGES              (1u << 12)
#define AMBER_VIEW_FIELD_CURRENT_PAGE       (1u << 13)

/**
 * A view's standard state (R17): the members its kind keeps, each present when its bit is set
 * in `fields`.
 *
 * Reading (the read accessor): Amber hands a zeroed struct with `version` and `kind` set; the
 * accessor sets the members its view has and their bits. Amber copies the arrays and strings
 * the struct points to as soon as the accessor returns, before it calls anything else: they must
 * outlive the accessor's own stack frame (keep them in the view's context, as the identifier of
 * identifier_for_index_path). When it returns Amber checks every member set, and refuses the
 * state with AMBER_INVALID_ARGUMENT for a member the view's kind does not
 * keep (a text range on a scroll view), a value that is not finite, a zoom scale not greater
 * than 0, an index path with no index or a negative one, a NULL or empty URL, a current page
 * that is not one of the pages, a bit that names no member, a NULL array with a count; and with
 * AMBER_LIMIT_EXCEEDED beyond 1024 indexes in a path, 2^20 selected items, 2^16 pages or URLs of
 * 64 KiB, as for a failing accessor (the message names the code and the member).
 *
 * A selection is a set: an item given twice, or two items with one model identifier, is
 * archived once, and restored once.
 *
 * Applying (the apply accessor): Amber fills the members restored and sets their bits; arrays
 * and strings are Amber's, valid until the accessor returns.
 */
typedef struct amber_view_state {
    /** AMBER_VIEW_STATE_VERSION. */
    unsigned int version;
    /** AMBER_VIEW_FIELD_* bits: which members are set. */
    uint32_t fields;
    /** The view's kind, set by Amber (read-only for the host). */
    amber_view_kind kind;
    /** Scroll views, tables, collections. */
    amber_point content_offset;
    amber_insets content_inset;
    double zoom_scale;
    /** Tables and collections: the selected items, `selected_count` index paths of any length
     *  from 1 (a row of a plain list) through 2 (section, row) and beyond (after model
     *  identifiers that no longer resolve were dropped, when applying). */
    const amber_index_path *selected_items;
    size_t selected_count;
    amber_index_path first_visible_item;
    int editing;
    /** Text fields and text views. A location or length above INT64_MAX, or a sum above it, is
     *  refused. */
    amber_range selected_range;
    /** Text views. */
    int editable;
    /** Image views. */
    amber_rect bounds;
    amber_point center;
    amber_transform transform;
    amber_point anchor_point;
    /** Web views: the back/forward list, `page_count` pages, oldest first, and the index of the
     *  page shown (those before it are "back"). */
    const amber_web_page *pages;
    size_t page_count;
    size_t current_page;
} amber_view_state;

#define AMBER_VIEW_STATE_VERSION 1

/** The accessors of a view's standard state (a plugin). */
typedef struct amber_view_accessors {
    /** AMBER_VIEW_ACCESSORS_VERSION. */
    unsigned int version;
    /** At preservation: fills `state` (see amber_view_state; the members not set are not
     *  archived). Returns 0 or a code. Required. */
    int (*read)(amber_object *view, amber_view_state *state, void *ctx);
    /** At restoration: applies the restored state (a member whose bit is clear was not archived,
     *  or restored as nothing). Returns 0 or a code. Required. */
    int (*apply)(amber_object *view, const amber_view_state *state, void *ctx);
    /** Text fields and text views: sets *out to the length of the text the view shows now, in
     *  the unit of its selected ranges; called at restoration before apply. Returns 0 or a code.
     *  Required for AMBER_VIEW_TEXT_FIELD and AMBER_VIEW_TEXT_VIEW; ignored for other kinds. */
    int (*text_length)(uint64_t *out, amber_object *view, void *ctx);
} amber_view_accessors;

#define AMBER_VIEW_ACCESSORS_VERSION 1
/** View accessors all NULL, with the version set. */
#define AMBER_VIEW_ACCESSORS_INIT AMBER_STRUCT_INIT_(AMBER_VIEW_ACCESSORS_VERSION)

/**
 * Gives a view a kind and the accessors of its standard state (R17), replacing any it had
 * (whose ctx_free then runs), or removes them (`accessors` NULL: the view keeps only what its
 * encode callback writes).
 *
 * @param view a view (AMBER_KIND_VIEW).
 * @param kind the view's kind, AMBER_VIEW_SCROLL to AMBER_VIEW_WEB (ignored when `accessors` is
 *        NULL).
 * @param accessors copied; read and apply are required, and text_length for text fields and text
 *        views.
 * @param ctx passed to the accessors.
 * @param ctx_free called once with ctx when the accessors are replaced or removed, the view is
 *        freed or the engine closes; may be NULL.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (not a view, an unknown kind or version, a required
 *   accessor missing).
 * Ownership: on failure ctx_free is not called. Thread safety: as the engine.
 */
AMBER_API int amber_object_set_view_accessors(amber_object *view, amber_view_kind kind,
                                              const amber_view_accessors *accessors, void *ctx,
                                              void (*ctx_free)(void *ctx));

/**
 * The kind a view was given with amber_object_set_view_accessors().
 *
 * @return the kind; AMBER_VIEW_NONE for a view without accessors; AMBER_VIEW_INVALID for a bad
 *   handle or an object that is not a view (amber_error_last() says which).
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API amber_view_kind amber_object_view_kind(const amber_object *view);

/** The data source of a table or collection as a model association (UIDataSourceModelAssociation,
 *  R18), a plugin. */
typedef struct amber_model_association {
    /** AMBER_MODEL_ASSOCIATION_VERSION. */
    unsigned int version;
    /** At preservation: sets *out to the identifier of the model object the item at the index
     *  path (`length` indexes) shows, or to NULL for an item without one (then archived as its
     *  index path). The string must stay valid until the callback has returned: Amber copies it
     *  then. Returns 0 or a code. Required. */
    int (*identifier_for_index_path)(const char **out, amber_object *view, const int64_t *indexes, size_t length,
                                     void *ctx);
    /** At restoration: writes the index path of the item showing the model object `identifier`
     *  now into `out` (room for `capacity` indexes) and sets *out_length to its length; sets
     *  *out_length to 0 if no item shows it (the identifier is then dropped and reported). When
     *  the path is longer than `capacity`, write nothing else and set *out_length: Amber calls
     *  again with room for it. Returns 0 or a code. Required. */
    int (*index_path_for_identifier)(int64_t *out, size_t capacity, size_t *out_length, amber_object *view,
                                     const char *identifier, void *ctx);
} amber_model_association;

#define AMBER_MODEL_ASSOCIATION_VERSION 1
/** A model association with both callbacks NULL and its version set. */
#define AMBER_MODEL_ASSOCIATION_INIT AMBER_STRUCT_INIT_(AMBER_MODEL_ASSOCIATION_VERSION)

/**
 * Gives a view (a table or collection, in practice) the model association of its data source
 * (R18), replacing any it had (whose ctx_free then runs), or removes it (NULL: items are
 * archived as index paths).
 *
 * @param view a view (AMBER_KIND_VIEW).
 * @param association copied; both callbacks are required.
 * @param ctx passed to the callbacks (the data source).
 * @param ctx_free called once with ctx when the association is replaced or removed, the view is
 *        freed or the engine closes; may be NULL.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (not a view, an unknown version, a callback missing).
 * Ownership: on failure ctx_free is not called. Thread safety: as the engine.
 */
AMBER_API int amber_object_set_model_association(amber_object *view, const amber_model_association *association,
                                                 void *ctx, void (*ctx_free)(void *ctx));

#ifdef __cplusplus
}
#endif

#endif /* AMBER_VIEW_H */

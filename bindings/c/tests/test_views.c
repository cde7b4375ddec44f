/*
 * Views, model association and snapshots through include/amber.h alone (SPEC R17, R18, R21):
 * one engine preserves an interface with a view of every kind into a state directory; the item
 * store then changes (a row deleted before the selected one, one inserted, a selected item
 * deleted, a text shortened); a second engine on the same directory restores it. Then the
 * snapshot's life: attached, read before launch and during restoration, ignored on request,
 * discarded with the archive.
 *
 * Usage: test_views. Prints one line per check and "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "scratch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int ctx_freed;
static void count_free(void *ctx) {
    (void)ctx;
    ctx_freed++;
}

/* ---- the item store: model objects by key, shown one per row ------------------------------ */

static const char *store_run1[] = {"A", "B", "C", "D", "E", "F", "G", "H"};
/* Before run 2: B (before the selected D) and F (selected too) are deleted, X is inserted. */
static const char *store_run2[] = {"A", "C", "D", "E", "G", "H", "X"};
static const char **store = store_run1;
static size_t store_count = 8;

static long row_of(const char *key) {
    size_t i;
    for (i = 0; i < store_count; i++)
        if (strcmp(store[i], key) == 0) return (long)i;
    return -1;
}

/* A data source whose index paths are `depth` long: depth-1 fixed leading indexes (1, 2, ...),
 * then the row. Depth 1 is a plain list; 2 is (section, row); 3 and 20 are deeper outlines. */
typedef struct source {
    size_t depth;
    int calls_to_path, fail_code;
} source;

static int identifier_for_index_path(const char **out, amber_object *view, const int64_t *indexes, size_t length,
                                     void *ctx) {
    source *s = ctx;
    (void)view;
    *out = NULL;
    if (s->fail_code) return s->fail_code;
    if (length != s->depth || indexes[length - 1] < 0 || (size_t)indexes[length - 1] >= store_count) return AMBER_OK;
    *out = store[indexes[length - 1]];
    return AMBER_OK;
}

static int index_path_for_identifier(int64_t *out, size_t capacity, size_t *out_length, amber_object *view,
                                     const char *identifier, void *ctx) {
    source *s = ctx;
    long row = row_of(identifier);
    size_t i;
    (void)view;
    s->calls_to_path++;
    *out_length = 0;
    if (row < 0) return AMBER_OK; /* deleted: dropped */
    *out_length = s->depth;
    if (s->depth > capacity) return AMBER_OK; /* Amber calls again with room */
    for (i = 0; i + 1 < s->depth; i++) out[i] = (int64_t)i + 1;
    out[s->depth - 1] = row;
    return AMBER_OK;
}

/* ---- what the views read at preservation and received at restoration ---------------------- */

typedef struct view_ctx {
    const char *name;
    source *source;      /* tables and collections with a model association */
    uint64_t text_length; /* text fields and text views: the current text's length */
    int reads, applies, fail_read, fail_apply;
    /* what apply received */
    int got_offset, got_range, got_first, got_editing, got_editable, got_page;
    amber_point offset, center, anchor;
    amber_insets inset;
    double zoom;
    amber_range range;
    int editing, editable;
    size_t selected_count;
    int64_t selected[4][20];
    size_t selected_length[4];
    int64_t first[20];
    size_t first_length;
    amber_rect bounds;
    amber_transform transform;
    size_t page_count, current_page;
    char urls[3][64];
    amber_point page_scroll[3];
    int kind_seen;
} view_ctx;

/* Statuses the setters gave inside a read accessor, checked afterwards. */
static struct {
    int range_on_scroll, zoom_zero, nan_offset, negative_index, empty_path, long_path, null_url, bad_page,
        get_back_ok, set_in_apply, kind_in_read;
} S;
static amber_view_state *escaped_state;

static void fill_path(int64_t *p, size_t depth, int64_t row) {
    size_t i;
    for (i = 0; i + 1 < depth; i++) p[i] = (int64_t)i + 1;
    p[depth - 1] = row;
}

static int read_scrollish(amber_object *view, amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    amber_point offset = {12.5, 340.0};
    amber_insets inset = {64, 0, 49, 0};
    amber_point bad = {NAN, 0};
    amber_point got;
    amber_range r = {0, 1};
    int rc;
    (void)view;
    v->reads++;
    if (v->fail_read) return v->fail_read;
    if ((rc = amber_view_state_set_content_offset(state, offset)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_set_content_inset(state, inset)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_set_zoom_scale(state, 1.5)) != AMBER_OK) return rc;
    if (strcmp(v->name, "Scroll") == 0) {
        S.range_on_scroll = amber_view_state_set_selected_range(state, r);
        S.zoom_zero = amber_view_state_set_zoom_scale(state, 0.0);
        S.nan_offset = amber_view_state_set_content_offset(state, bad);
        S.get_back_ok = amber_view_state_get_content_offset(&got, state) == AMBER_OK && got.x == 12.5 && got.y == 340.0;
        S.kind_in_read = amber_view_state_kind(state);
        escaped_state = state;
    }
    return AMBER_OK;
}

/* Tables and collections: the selection (rows of D and F), the first visible item (C), editing. */
static int read_table(amber_object *view, amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    int64_t p[20];
    size_t depth = v->source ? v->source->depth : 2;
    int rc;
    if ((rc = read_scrollish(view, state, ctx)) != AMBER_OK) return rc;
    fill_path(p, depth, 3); /* D */
    if ((rc = amber_view_state_add_selected_item(state, p, depth)) != AMBER_OK) return rc;
    fill_path(p, depth, 5); /* F */
    if ((rc = amber_view_state_add_selected_item(state, p, depth)) != AMBER_OK) return rc;
    fill_path(p, depth, 2); /* C */
    if ((rc = amber_view_state_set_first_visible_item(state, p, depth)) != AMBER_OK) return rc;
    if (strcmp(v->name, "Table") == 0) {
        int64_t neg[2] = {0, -1};
        int64_t *huge = calloc(1025, sizeof *huge);
        S.negative_index = amber_view_state_add_selected_item(state, neg, 2);
        S.empty_path = amber_view_state_add_selected_item(state, NULL, 0);
        S.long_path = huge ? amber_view_state_add_selected_item(state, huge, 1025) : -1;
        free(huge);
    }
    return amber_view_state_set_editing(state, 1);
}

/* A collection without a model association: index paths of lengths 1, 2 and 3 kept as they are. */
static int read_grid(amber_object *view, amber_view_state *state, void *ctx) {
    int64_t one[1] = {7}, two[2] = {1, 4}, three[3] = {2, 0, 9};
    int rc;
    (void)view;
    ((view_ctx *)ctx)->reads++;
    if ((rc = amber_view_state_add_selected_item(state, one, 1)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_add_selected_item(state, two, 2)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_add_selected_item(state, three, 3)) != AMBER_OK) return rc;
    return amber_view_state_set_first_visible_item(state, three, 3);
}

static int read_field(amber_object *view, amber_view_state *state, void *ctx) {
    amber_range r = {10, 6}; /* the end of "Shiny Spork (edi" */
    (void)view;
    ((view_ctx *)ctx)->reads++;
    return amber_view_state_set_selected_range(state, r);
}

static int read_notes(amber_object *view, amber_view_state *state, void *ctx) {
    amber_range r = {6, 5}; /* "world" in "Hello world" */
    int rc;
    (void)view;
    ((view_ctx *)ctx)->reads++;
    if ((rc = amber_view_state_set_selected_range(state, r)) != AMBER_OK) return rc;
    return amber_view_state_set_editable(state, 0);
}

static int read_photo(amber_object *view, amber_view_state *state, void *ctx) {
    amber_rect bounds = {{0, 0}, {320, 240}};
    amber_point center = {160, 200}, anchor = {0.25, 0.75};
    amber_transform t = {0.5, 0.1, -0.1, 0.5, 10, 20};
    int rc;
    (void)view;
    ((view_ctx *)ctx)->reads++;
    if ((rc = amber_view_state_set_bounds(state, bounds)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_set_center(state, center)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_set_transform(state, t)) != AMBER_OK) return rc;
    return amber_view_state_set_anchor_point(state, anchor);
}

static int read_web(amber_object *view, amber_view_state *state, void *ctx) {
    amber_point s0 = {0, 0}, s1 = {0, 1200}, s2 = {0, 80};
    int rc;
    (void)view;
    ((view_ctx *)ctx)->reads++;
    if ((rc = amber_view_state_add_page(state, "https://example.org/", s0)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_add_page(state, "https://example.org/items", s1)) != AMBER_OK) return rc;
    if ((rc = amber_view_state_add_page(state, "https://example.org/items/d", s2)) != AMBER_OK) return rc;
    S.null_url = amber_view_state_add_page(state, NULL, s0);
    S.bad_page = amber_view_state_set_current_page(state, 3);
    return amber_view_state_set_current_page(state, 1);
}

/* One apply for every kind: it reads what its kind keeps and records it. */
static int apply_any(amber_object *view, const amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    amber_index_path ip;
    amber_web_page page;
    size_t i, j;
    (void)view;
    v->applies++;
    if (v->fail_apply) return v->fail_apply;
    v->kind_seen = amber_view_state_kind(state);
    S.set_in_apply = amber_view_state_set_editing((amber_view_state *)state, 0);
    v->got_offset = amber_view_state_get_content_offset(&v->offset, state) == AMBER_OK;
    amber_view_state_get_content_inset(&v->inset, state);
    amber_view_state_get_zoom_scale(&v->zoom, state);
    v->got_editing = amber_view_state_get_editing(&v->editing, state);
    v->selected_count = amber_view_state_selected_count(state);
    for (i = 0; i < v->selected_count && i < 4; i++) {
        if (amber_view_state_get_selected_item(&ip, state, i) != AMBER_OK) return AMBER_CALLBACK_FAILED;
        v->selected_length[i] = ip.length;
        for (j = 0; j < ip.length && j < 20; j++) v->selected[i][j] = ip.indexes[j];
    }
    v->got_first = amber_view_state_get_first_visible_item(&ip, state);
    if (v->got_first == AMBER_OK) {
        v->first_length = ip.length;
        for (j = 0; j < ip.length && j < 20; j++) v->first[j] = ip.indexes[j];
    }
    v->got_range = amber_view_state_get_selected_range(&v->range, state);
    v->got_editable = amber_view_state_get_editable(&v->editable, state);
    amber_view_state_get_bounds(&v->bounds, state);
    amber_view_state_get_center(&v->center, state);
    amber_view_state_get_transform(&v->transform, state);
    amber_view_state_get_anchor_point(&v->anchor, state);
    v->page_count = amber_view_state_page_count(state);
    for (i = 0; i < v->page_count && i < 3; i++) {
        if (amber_view_state_get_page(&page, state, i) != AMBER_OK) return AMBER_CALLBACK_FAILED;
        snprintf(v->urls[i], sizeof v->urls[i], "%s", page.url);
        v->page_scroll[i] = page.scroll;
    }
    v->got_page = amber_view_state_get_current_page(&v->current_page, state);
    return AMBER_OK;
}

static int text_length(uint64_t *out, amber_object *view, void *ctx) {
    (void)view;
    *out = ((view_ctx *)ctx)->text_length;
    return AMBER_OK;
}

/* ---- building the interface (both runs build the same one: R10 step 3 finds it) ---------- */

typedef struct ui {
    amber_engine *engine;
    amber_object *nav, *items, *hidden, *orphan_owner;
    view_ctx table, list, outline, deep, grid, scroll, field, notes, photo, web, unnamed, orphan;
    source table_source, list_source, outline_source, deep_source;
} ui;

/* An engine on a state directory: encrypted with the default key file, or (plain != 0) with no
 * encryption, so that a test can look for bytes in the archive file. */
static int plain_archives;

static amber_engine *open_engine(const char *dir) {
    amber_engine_options opts;
    amber_engine *e = NULL;
    amber_engine_options_init(&opts, AMBER_ENGINE_OPTIONS_VERSION);
    opts.state_directory = dir;
    if (plain_archives) opts.protection = AMBER_PROTECTION_NONE;
    if (amber_engine_open(&e, "org.amber.test-views", &opts) != AMBER_OK) return NULL;
    return e;
}

static amber_object *new_view(amber_engine *e, amber_object *controller, const char *id, int kind, view_ctx *v,
                              const char *name, int (*read)(amber_object *, amber_view_state *, void *)) {
    amber_object *o = NULL;
    amber_view_accessors acc;
    v->name = name;
    if (amber_object_new(&o, e, AMBER_KIND_VIEW, "View", id, NULL, NULL, NULL) != AMBER_OK) return NULL;
    if (controller && amber_object_add_view(controller, o) != AMBER_OK) return NULL;
    amber_view_accessors_init(&acc, AMBER_VIEW_ACCESSORS_VERSION);
    acc.read = read;
    acc.apply = apply_any;
    acc.text_length = text_length;
    if (amber_view_set_accessors(o, kind, &acc, v, count_free) != AMBER_OK) return NULL;
    return o;
}

static int associate(amber_object *view, source *s, size_t depth) {
    amber_model_association a;
    s->depth = depth;
    amber_model_association_init(&a, AMBER_MODEL_ASSOCIATION_VERSION);
    a.identifier_for_index_path = identifier_for_index_path;
    a.index_path_for_identifier = index_path_for_identifier;
    return amber_view_set_model_association(view, &a, s, count_free);
}

static int build(ui *u, int with_associations) {
    amber_engine *e = u->engine;
    amber_object *table, *list, *outline, *deep;
    if (amber_object_new(&u->nav, e, AMBER_KIND_CONTROLLER, "Nav", "Nav", NULL, NULL, NULL) != AMBER_OK) return 0;
    if (amber_object_new(&u->items, e, AMBER_KIND_CONTROLLER, "Items", "Items", NULL, NULL, NULL) != AMBER_OK) return 0;
    if (amber_engine_add_root(e, u->nav) != AMBER_OK || amber_object_add_child(u->nav, u->items) != AMBER_OK) return 0;
    u->table.source = &u->table_source;
    u->list.source = &u->list_source;
    u->outline.source = &u->outline_source;
    u->deep.source = &u->deep_source;
    if (!(table = new_view(e, u->items, "Table", AMBER_VIEW_TABLE, &u->table, "Table", read_table))) return 0;
    if (!(list = new_view(e, u->items, "List", AMBER_VIEW_TABLE, &u->list, "List", read_table))) return 0;
    if (!(outline = new_view(e, u->items, "Outline", AMBER_VIEW_COLLECTION, &u->outline, "Outline", read_table)))
        return 0;
    if (!(deep = new_view(e, u->items, "Deep", AMBER_VIEW_TABLE, &u->deep, "Deep", read_table))) return 0;
    u->table_source.depth = 2;
    u->list_source.depth = 1;
    u->outline_source.depth = 3;
    u->deep_source.depth = 20;
    if (with_associations) {
        if (associate(table, &u->table_source, 2) != AMBER_OK || associate(list, &u->list_source, 1) != AMBER_OK ||
            associate(outline, &u->outline_source, 3) != AMBER_OK || associate(deep, &u->deep_source, 20) != AMBER_OK)
            return 0;
    }
    if (!new_view(e, u->items, "Grid", AMBER_VIEW_COLLECTION, &u->grid, "Grid", read_grid)) return 0;
    if (!new_view(e, u->items, "Scroll", AMBER_VIEW_SCROLL, &u->scroll, "Scroll", read_scrollish)) return 0;
    if (!new_view(e, u->items, "Field", AMBER_VIEW_TEXT_FIELD, &u->field, "Field", read_field)) return 0;
    if (!new_view(e, u->items, "Notes", AMBER_VIEW_TEXT_VIEW, &u->notes, "Notes", read_notes)) return 0;
    if (!new_view(e, u->items, "Photo", AMBER_VIEW_IMAGE, &u->photo, "Photo", read_photo)) return 0;
    if (!new_view(e, u->items, "Web", AMBER_VIEW_WEB, &u->web, "Web", read_web)) return 0;
    /* R2: a view without an identifier, and a view with one under a controller without one. */
    if (!new_view(e, u->items, NULL, AMBER_VIEW_SCROLL, &u->unnamed, "unnamed", read_scrollish)) return 0;
    if (amber_object_new(&u->orphan_owner, e, AMBER_KIND_CONTROLLER, "Hidden", NULL, NULL, NULL, NULL) != AMBER_OK)
        return 0;
    if (amber_object_add_child(u->nav, u->orphan_owner) != AMBER_OK) return 0;
    if (!new_view(e, u->orphan_owner, "Orphan", AMBER_VIEW_SCROLL, &u->orphan, "Orphan", read_scrollish)) return 0;
    return 1;
}

/* ---- argument checks ----------------------------------------------------------------------- */

static int noop_read(amber_object *v, amber_view_state *s, void *c) {
    (void)v; (void)s; (void)c;
    return AMBER_OK;
}
static int noop_apply(amber_object *v, const amber_view_state *s, void *c) {
    (void)v; (void)s; (void)c;
    return AMBER_OK;
}

static void test_arguments(void) {
    amber_engine *e = NULL;
    amber_object *view = NULL, *controller = NULL;
    amber_view_accessors acc;
    amber_model_association assoc;
    int freed_before;
    static uint8_t one_byte[1];

    {
        amber_engine_options o;
        amber_engine_options_init(&o, AMBER_ENGINE_OPTIONS_VERSION);
        o.memory_store = 1;
        check_status(amber_engine_open(&e, "org.amber.test-views-args", &o), AMBER_OK, "open an engine in memory");
    }
    amber_object_new(&view, e, AMBER_KIND_VIEW, "View", "V", NULL, NULL, NULL);
    amber_object_new(&controller, e, AMBER_KIND_CONTROLLER, "C", "C", NULL, NULL, NULL);

    check_status(amber_view_accessors_init(NULL, AMBER_VIEW_ACCESSORS_VERSION), AMBER_INVALID_ARGUMENT,
                 "R17 amber_view_accessors_init(NULL)");
    check_status(amber_view_accessors_init(&acc, 99), AMBER_INVALID_ARGUMENT, "R17 amber_view_accessors_init of version 99");
    check_status(amber_view_accessors_init(&acc, AMBER_VIEW_ACCESSORS_VERSION), AMBER_OK, "R17 amber_view_accessors_init");
    check(acc.read == NULL && acc.apply == NULL && acc.text_length == NULL, "R17 accessors start NULL");
    acc.read = noop_read;
    check_status(amber_view_set_accessors(view, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors without apply");
    acc.apply = noop_apply;
    check_status(amber_view_set_accessors(NULL, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors on a NULL view");
    check_status(amber_view_set_accessors(controller, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors on a controller");
    check_status(amber_view_set_accessors(view, 0, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT, "R17 view kind 0");
    check_status(amber_view_set_accessors(view, 99, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT, "R17 view kind 99");
    check_status(amber_view_set_accessors(view, AMBER_VIEW_TEXT_FIELD, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 a text field without text_length");
    acc.version = 2;
    check_status(amber_view_set_accessors(view, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors of version 2");
    acc.version = AMBER_VIEW_ACCESSORS_VERSION;
    check(amber_view_kind_of(view) == 0, "R17 a view without accessors has kind 0");
    check(amber_view_kind_of(controller) == -1, "R17 amber_view_kind_of(controller) is -1");

    freed_before = ctx_freed;
    check_status(amber_view_set_accessors(view, AMBER_VIEW_SCROLL, &acc, NULL, count_free), AMBER_OK,
                 "R17 accessors for a scroll view");
    check(amber_view_kind_of(view) == AMBER_VIEW_SCROLL, "R17 amber_view_kind_of gives the kind");
    check_status(amber_view_set_accessors(view, AMBER_VIEW_WEB, &acc, NULL, count_free), AMBER_OK,
                 "R17 accessors replaced");
    check(ctx_freed == freed_before + 1, "R17 replacing accessors calls the old ctx_free");
    check_status(amber_view_set_accessors(view, 0, NULL, NULL, NULL), AMBER_OK, "R17 accessors removed");
    check(ctx_freed == freed_before + 2 && amber_view_kind_of(view) == 0, "R17 removing accessors calls ctx_free");

    check_status(amber_model_association_init(&assoc, 7), AMBER_INVALID_ARGUMENT, "R18 amber_model_association_init of version 7");
    check_status(amber_model_association_init(&assoc, AMBER_MODEL_ASSOCIATION_VERSION), AMBER_OK,
                 "R18 amber_model_association_init");
    assoc.identifier_for_index_path = identifier_for_index_path;
    check_status(amber_view_set_model_association(view, &assoc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R18 an association without index_path_for_identifier");
    assoc.index_path_for_identifier = index_path_for_identifier;
    check_status(amber_view_set_model_association(controller, &assoc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R18 an association on a controller");

    /* The association and accessors' contexts are freed with the view. */
    amber_view_set_accessors(view, AMBER_VIEW_TABLE, &acc, NULL, count_free);
    check_status(amber_view_set_model_association(view, &assoc, NULL, count_free), AMBER_OK, "R18 an association");
    freed_before = ctx_freed;
    amber_object_free(view);
    check(ctx_freed == freed_before + 2, "R17 R18 freeing a view frees its accessors' and association's contexts");

    check(amber_view_state_kind(NULL) == -1, "R17 amber_view_state_kind(NULL) is -1");
    check(amber_view_state_selected_count(NULL) == 0 && amber_view_state_page_count(NULL) == 0,
          "R17 counts of a NULL state are 0");
    {
        amber_point p = {1, 2};
        check_status(amber_view_state_set_content_offset(NULL, p), AMBER_INVALID_ARGUMENT, "R17 a setter on a NULL state");
    }

    check_status(amber_engine_set_snapshot(e, NULL, 5), AMBER_INVALID_ARGUMENT, "R21 a snapshot of NULL bytes with a size");
    check_status(amber_engine_set_snapshot(e, one_byte, ((size_t)64 << 20) + 1), AMBER_LIMIT_EXCEEDED,
                 "R21 a snapshot over 64 MiB");
    check_status(amber_engine_set_snapshot(NULL, one_byte, 1), AMBER_INVALID_ARGUMENT, "R21 a snapshot for a NULL engine");
    check_status(amber_engine_ignore_snapshot(NULL), AMBER_INVALID_ARGUMENT, "R21 ignoring for a NULL engine");
    {
        const uint8_t *b = NULL;
        size_t n = 0;
        check_status(amber_engine_snapshot(NULL, &n, e), AMBER_INVALID_ARGUMENT, "R21 amber_engine_snapshot(NULL out)");
        check_status(amber_engine_snapshot(&b, &n, e), AMBER_NOT_FOUND, "R21 no archive, no snapshot");
    }
    check_status(amber_report_dropped_identifier_at(NULL, NULL, 0, 0), AMBER_INVALID_ARGUMENT,
                 "R18 amber_report_dropped_identifier_at(NULL)");
    check(amber_report_dropped_identifier_count(NULL, 0) == 0, "R18 amber_report_dropped_identifier_count(NULL) is 0");
    amber_engine_close(e);
}

/* ---- preservation, then restoration after the item store changed -------------------------- */

static int always_save(amber_engine *e, amber_coder *c, void *ctx) {
    (void)e; (void)c; (void)ctx;
    return 1;
}

static struct {
    int should_restore_rc;
    size_t size;
    uint8_t first;
} during;

static int restore_and_peek(amber_engine *e, amber_decoder *d, void *ctx) {
    const uint8_t *b = NULL;
    (void)d; (void)ctx;
    during.should_restore_rc = amber_engine_snapshot(&b, &during.size, e);
    during.first = b ? b[0] : 0;
    return 1;
}

static int set_delegate(amber_engine *e, int restore_peeks) {
    amber_delegate d;
    amber_delegate_init(&d, AMBER_DELEGATE_VERSION);
    d.should_save = always_save;
    d.should_restore = restore_and_peek;
    (void)restore_peeks;
    return amber_engine_set_delegate(e, &d, NULL, NULL);
}

/* The record of a path ("Nav/Items/Table") in a report, or -1. */
static long record_of(amber_report *report, const char *path) {
    size_t i, j, n = amber_report_count(report);
    amber_report_record rec;
    char joined[256];
    for (i = 0; i < n; i++) {
        if (amber_report_record_at(&rec, report, i) != AMBER_OK) return -1;
        joined[0] = 0;
        for (j = 0; j < rec.path_length; j++) {
            if (j) strcat(joined, "/");
            strncat(joined, rec.path[j], sizeof joined - strlen(joined) - 2);
        }
        if (strcmp(joined, path) == 0) return (long)i;
    }
    return -1;
}

static int outcome_of(amber_report *report, const char *path) {
    amber_report_record rec;
    long i = record_of(report, path);
    if (i < 0 || amber_report_record_at(&rec, report, (size_t)i) != AMBER_OK) return -1;
    return rec.outcome;
}

/* Whether the engine's last preservation report (R28) has an entry for `path` ("Nav/Items/Table")
 * whose left_out is `left_out` and, if `in_message` is set, whose message contains it. */
static int left_out_with(amber_engine *e, const char *path, int left_out, const char *in_message) {
    amber_preservation *p = NULL;
    amber_preservation_entry entry;
    size_t i, j;
    char joined[256];
    int found = 0;
    if (amber_engine_preservation(&p, e) != AMBER_OK) return 0;
    for (i = 0; i < amber_preservation_count(p) && !found; i++) {
        if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK) break;
        joined[0] = 0;
        for (j = 0; j < entry.path_length; j++) {
            if (j) strcat(joined, "/");
            strncat(joined, entry.path[j], sizeof joined - strlen(joined) - 2);
        }
        if (strcmp(joined, path) != 0) continue;
        found = entry.left_out == left_out && (left_out == AMBER_LEFT_OUT_NONE ? entry.size > 0 : entry.size == 0) &&
                (!in_message || strstr(entry.message, in_message) != NULL);
    }
    amber_preservation_free(p);
    return found;
}

static int path_is(const int64_t *p, size_t n, const int64_t *want, size_t want_n) {
    size_t i;
    if (n != want_n) return 0;
    for (i = 0; i < n; i++)
        if (p[i] != want[i]) return 0;
    return 1;
}

static const uint8_t PNG[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 'a', 'm', 'b', 'e', 'r', '-', 's', 'n', 'a', 'p'};

static int file_contains(const char *file, const uint8_t *needle, size_t n) {
    FILE *f = fopen(file, "rb");
    static uint8_t buf[1 << 20];
    size_t got, i;
    if (!f) return -1;
    got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (i = 0; i + n <= got; i++)
        if (memcmp(buf + i, needle, n) == 0) return 1;
    return 0;
}

static void test_round_trip(const char *dir) {
    ui one, two;
    int saved = 0, rc;
    amber_report *report = NULL;
    const uint8_t *snap = NULL;
    size_t snap_size = 0;
    const char *dropped = NULL;
    char archive[512];
    long rec;
    int freed_before;

    snprintf(archive, sizeof archive, "%s/state.archive", dir);

    /* Run 1. */
    memset(&one, 0, sizeof one);
    one.engine = open_engine(dir);
    check(one.engine != NULL, "run 1: open an engine on a state directory");
    check(build(&one, 1), "run 1: build the interface (a view of every kind)");
    check_status(set_delegate(one.engine, 0), AMBER_OK, "run 1: set the delegate");
    check_status(amber_engine_set_snapshot(one.engine, PNG, sizeof PNG), AMBER_OK, "R21 attach a snapshot");
    check_status(amber_engine_preserve(one.engine, &saved), AMBER_OK, "R17 preserve views with standard state");
    check(saved == 1, "R17 an archive was written");
    check(one.table.reads == 1 && one.list.reads == 1 && one.outline.reads == 1 && one.deep.reads == 1 &&
              one.grid.reads == 1 && one.scroll.reads == 1 && one.field.reads == 1 && one.notes.reads == 1 &&
              one.photo.reads == 1 && one.web.reads == 1,
          "R17 the read accessor of every preserved view ran once");
    check(one.unnamed.reads == 0, "R2 R17 a view without an identifier is not read");
    check(one.orphan.reads == 0, "R2 R17 a view whose controller has no identifier is not read");
    check(S.range_on_scroll == AMBER_INVALID_ARGUMENT, "R17 a scroll view keeps no selected range (AMBER_INVALID_ARGUMENT)");
    check(S.zoom_zero == AMBER_INVALID_ARGUMENT, "R17 a zoom scale of 0 is AMBER_INVALID_ARGUMENT");
    check(S.nan_offset == AMBER_INVALID_ARGUMENT, "R17 a NaN content offset is AMBER_INVALID_ARGUMENT");
    check(S.get_back_ok, "R17 a read accessor reads back what it set");
    check(S.kind_in_read == AMBER_VIEW_SCROLL, "R17 amber_view_state_kind in a read accessor");
    check(S.negative_index == AMBER_INVALID_ARGUMENT, "R17 a negative index is AMBER_INVALID_ARGUMENT");
    check(S.empty_path == AMBER_INVALID_ARGUMENT, "R17 an empty index path is AMBER_INVALID_ARGUMENT");
    check(S.long_path == AMBER_LIMIT_EXCEEDED, "R17 an index path of 1025 indexes is AMBER_LIMIT_EXCEEDED");
    check(S.null_url == AMBER_INVALID_ARGUMENT, "R17 a page with a NULL URL is AMBER_INVALID_ARGUMENT");
    check(S.bad_page == AMBER_INVALID_ARGUMENT, "R17 a current page past the pages is AMBER_INVALID_ARGUMENT");
    {
        amber_point p = {1, 1};
        check_status(amber_view_state_set_content_offset(escaped_state, p), AMBER_MISUSE,
                     "R17 a view state kept past its accessor");
    }
    check(file_contains(archive, PNG, sizeof PNG) == 0,
          "R20 R21 the snapshot is protected like the archive: its bytes are not in the file in clear");
    freed_before = ctx_freed;
    amber_engine_close(one.engine);
    /* 12 views' accessors + 4 associations. */
    check(ctx_freed == freed_before + 16, "R17 R18 closing the engine frees every accessors' and association's context");

    /* The item store changes between the runs. */
    store = store_run2;
    store_count = 7;

    /* Run 2. */
    memset(&two, 0, sizeof two);
    two.engine = open_engine(dir);
    check(two.engine != NULL, "run 2: open an engine on the same directory");
    check(build(&two, 1), "run 2: build the default interface");
    two.field.text_length = 5;  /* the field now shows "Shiny": 10+6 no longer fits */
    two.notes.text_length = 11; /* "Hello world": 6+5 fits */
    check_status(set_delegate(two.engine, 1), AMBER_OK, "run 2: set the delegate");
    check_status(amber_engine_snapshot(&snap, &snap_size, two.engine), AMBER_OK, "R21 the snapshot is readable before launch");
    check(snap_size == sizeof PNG && memcmp(snap, PNG, sizeof PNG) == 0, "R21 the snapshot read before launch is the one attached");
    check_status(amber_engine_launch(&report, two.engine), AMBER_OK, "run 2: launch");
    check(amber_report_fresh_reason(report) == AMBER_FRESH_NONE, "run 2: restored, not fresh");
    check(during.should_restore_rc == AMBER_OK && during.size == sizeof PNG && during.first == 0x89,
          "R21 the snapshot is readable during restoration (from should_restore)");

    check(outcome_of(report, "Nav/Items/Table") == AMBER_OUTCOME_RESTORED, "R17 the table is restored");
    check(two.table.applies == 1 && two.scroll.applies == 1 && two.field.applies == 1 && two.notes.applies == 1 &&
              two.photo.applies == 1 && two.web.applies == 1 && two.grid.applies == 1,
          "R17 the apply accessor of every restored view ran once");
    check(two.unnamed.applies == 0 && two.orphan.applies == 0, "R2 R17 views that were not preserved are not applied");

    /* R17: scroll state of a table and a scroll view. */
    check(two.scroll.got_offset && two.scroll.offset.x == 12.5 && two.scroll.offset.y == 340.0,
          "R17 scroll view content offset restored");
    check(two.scroll.inset.top == 64 && two.scroll.inset.bottom == 49, "R17 scroll view content inset restored");
    check(two.scroll.zoom == 1.5, "R17 scroll view zoom scale restored");
    check(two.scroll.kind_seen == AMBER_VIEW_SCROLL, "R17 amber_view_state_kind in an apply accessor");
    check(S.set_in_apply == AMBER_MISUSE, "R17 setting a property in an apply accessor is AMBER_MISUSE");
    check(two.table.got_offset && two.table.offset.y == 340.0 && two.table.zoom == 1.5, "R17 table scroll position restored");
    check(two.table.got_editing == AMBER_OK && two.table.editing == 1, "R17 table editing mode restored");
    check(two.scroll.got_editing == AMBER_INVALID_ARGUMENT, "R17 a scroll view has no editing mode (AMBER_INVALID_ARGUMENT)");

    /* R18: the selection by model identifier. D moved from row 3 to row 2; F was deleted. */
    {
        int64_t want2[2] = {1, 2}, first2[2] = {1, 1};
        check(two.table.selected_count == 1, "R18 the deleted selected item is dropped from the selection");
        check(path_is(two.table.selected[0], two.table.selected_length[0], want2, 2),
              "R18 moved row still selected (length 2: D from row 3 to row 2)");
        check(two.table.got_first == AMBER_OK && path_is(two.table.first, two.table.first_length, first2, 2),
              "R18 first visible item found by its model identifier (C from row 2 to row 1)");
    }
    {
        int64_t want1[1] = {2};
        check(two.list.selected_count == 1 && path_is(two.list.selected[0], two.list.selected_length[0], want1, 1),
              "R18 moved row still selected (index path of length 1)");
    }
    {
        int64_t want3[3] = {1, 2, 2};
        check(two.outline.selected_count == 1 && path_is(two.outline.selected[0], two.outline.selected_length[0], want3, 3),
              "R18 moved item still selected (index path of length 3, a collection)");
    }
    {
        int64_t want20[20];
        fill_path(want20, 20, 2);
        check(two.deep.selected_count == 1 && path_is(two.deep.selected[0], two.deep.selected_length[0], want20, 20),
              "R18 moved item still selected (index path of length 20: Amber asked again with room)");
    }
    rec = record_of(report, "Nav/Items/Table");
    check(rec >= 0 && amber_report_dropped_identifier_count(report, (size_t)rec) == 1,
          "R18 the report lists one dropped identifier for the table");
    check_status(amber_report_dropped_identifier_at(&dropped, report, (size_t)rec, 0), AMBER_OK,
                 "R18 amber_report_dropped_identifier_at");
    check(dropped && strcmp(dropped, "F") == 0, "R18 the dropped identifier is F, the deleted item");
    check_status(amber_report_dropped_identifier_at(&dropped, report, (size_t)rec, 1), AMBER_NOT_FOUND,
                 "R18 a dropped identifier past the end");
    rec = record_of(report, "Nav/Items/Grid");
    check(rec >= 0 && amber_report_dropped_identifier_count(report, (size_t)rec) == 0,
          "R18 nothing is dropped for a view without association");
    {
        char *text = NULL;
        amber_report_format(&text, report);
        check(text && strstr(text, "dropped model identifiers: F") != NULL, "R18 the formatted report names the dropped identifier");
        amber_string_free(text);
    }

    /* Without an association, index paths come back as they were, whatever the store did. */
    {
        int64_t p1[1] = {7}, p2[2] = {1, 4}, p3[3] = {2, 0, 9};
        check(two.grid.selected_count == 3, "R18 without association: three selected index paths kept");
        check(path_is(two.grid.selected[0], two.grid.selected_length[0], p1, 1),
              "R18 without association: an index path of length 1 as archived");
        check(path_is(two.grid.selected[1], two.grid.selected_length[1], p2, 2),
              "R18 without association: an index path of length 2 as archived");
        check(path_is(two.grid.selected[2], two.grid.selected_length[2], p3, 3),
              "R18 without association: an index path of length 3 as archived");
        check(two.grid.got_first == AMBER_OK && path_is(two.grid.first, two.grid.first_length, p3, 3),
              "R18 without association: the first visible item as archived");
    }

    /* Text. */
    check(two.field.got_range == AMBER_NOT_FOUND, "R17 text-field range that no longer fits -> no selection");
    check(two.notes.got_range == AMBER_OK && two.notes.range.location == 6 && two.notes.range.length == 5,
          "R17 text-view range that fits is restored");
    check(two.notes.got_editable == AMBER_OK && two.notes.editable == 0, "R17 text view editable flag restored");
    check(two.field.got_editable == AMBER_INVALID_ARGUMENT, "R17 a text field keeps no editable flag");
    check(outcome_of(report, "Nav/Items/Field") == AMBER_OUTCOME_RESTORED, "R17 a dropped range does not fail the view");

    /* Image. */
    check(two.photo.bounds.size.width == 320 && two.photo.bounds.size.height == 240, "R17 image view bounds restored");
    check(two.photo.center.x == 160 && two.photo.center.y == 200, "R17 image view center restored");
    check(two.photo.transform.a == 0.5 && two.photo.transform.c == -0.1 && two.photo.transform.ty == 20,
          "R17 image view transform restored");
    check(two.photo.anchor.x == 0.25 && two.photo.anchor.y == 0.75, "R17 image view anchor point restored");

    /* Web. */
    check(two.web.page_count == 3 && strcmp(two.web.urls[0], "https://example.org/") == 0 &&
              strcmp(two.web.urls[2], "https://example.org/items/d") == 0,
          "R17 web view back/forward list restored");
    check(two.web.page_scroll[1].y == 1200 && two.web.page_scroll[2].y == 80, "R17 each page's scroll position restored");
    check(two.web.got_page == AMBER_OK && two.web.current_page == 1, "R17 web view current page restored");

    snap = NULL;
    check_status(amber_engine_snapshot(&snap, &snap_size, two.engine), AMBER_NOT_FOUND,
                 "R21 the snapshot is discarded with the archive after restoring");
    check(access(archive, F_OK) != 0, "R14 R21 the archive file is gone");
    amber_report_free(report);

    /* Failing accessors and associations: the view is left out, the rest is saved (R28). */
    two.table_source.fail_code = 77;
    saved = -1;
    rc = amber_engine_preserve(two.engine, &saved);
    check_status(rc, AMBER_OK, "R18 R28 an association callback's code 77 does not fail the preservation");
    check(saved == 1 && access(archive, F_OK) == 0, "R18 R28 the rest is saved: an archive is written");
    check(left_out_with(two.engine, "Nav/Items/Table", AMBER_LEFT_OUT_ENCODE_FAILED, "77"),
          "R18 R28 the report: Nav/Items/Table left out (AMBER_LEFT_OUT_ENCODE_FAILED), the message names the code 77");
    check(left_out_with(two.engine, "Nav/Items/List", AMBER_LEFT_OUT_NONE, NULL) &&
              left_out_with(two.engine, "Nav/Items", AMBER_LEFT_OUT_NONE, NULL),
          "R18 R28 the report: Nav/Items and its other views (Nav/Items/List) are preserved");
    two.table_source.fail_code = 0;
    two.scroll.fail_read = 78;
    saved = -1;
    check_status(amber_engine_preserve(two.engine, &saved), AMBER_OK,
                 "R17 R28 a read accessor's code 78 does not fail the preservation");
    check(left_out_with(two.engine, "Nav/Items/Scroll", AMBER_LEFT_OUT_ENCODE_FAILED, "78") &&
              left_out_with(two.engine, "Nav/Items/Table", AMBER_LEFT_OUT_NONE, NULL),
          "R17 R28 the report: Nav/Items/Scroll left out, the message names the code 78; Nav/Items/Table preserved");
    {
        /* The archive holds every other view: a next launch restores them, Scroll comes back left out. */
        ui four;
        memset(&four, 0, sizeof four);
        four.engine = open_engine(dir);
        build(&four, 1);
        set_delegate(four.engine, 1);
        check_status(amber_engine_launch(&report, four.engine), AMBER_OK, "R17 R28 launch the archive saved without Scroll");
        check(outcome_of(report, "Nav/Items/Scroll") == AMBER_OUTCOME_LEFT_OUT && four.scroll.applies == 0,
              "R17 R28 Nav/Items/Scroll comes back as AMBER_OUTCOME_LEFT_OUT, not applied");
        check(outcome_of(report, "Nav/Items/Table") == AMBER_OUTCOME_RESTORED && four.table.applies == 1 &&
                  four.photo.applies == 1 && four.photo.center.x == 160,
              "R17 R28 the other views are restored from it (Table, Photo at its center)");
        amber_report_free(report);
        amber_engine_close(four.engine);
    }
    two.scroll.fail_read = 0;
    check_status(amber_engine_preserve(two.engine, &saved), AMBER_OK, "R17 preserve again");
    snap = NULL;
    check_status(amber_engine_snapshot(&snap, &snap_size, two.engine), AMBER_NOT_FOUND,
                 "R21 a snapshot belongs to one archive: the next carries none unless attached");
    amber_engine_close(two.engine);

    /* Restore that archive into views whose apply fails, and a table without association. */
    {
        ui three;
        memset(&three, 0, sizeof three);
        three.engine = open_engine(dir);
        build(&three, 0);
        three.photo.fail_apply = 79;
        set_delegate(three.engine, 1);
        check_status(amber_engine_launch(&report, three.engine), AMBER_OK, "launch into views without associations");
        check(outcome_of(report, "Nav/Items/Photo") == AMBER_OUTCOME_DECODE_ERROR,
              "R17 an apply accessor's failure makes the record a decode error");
        rec = record_of(report, "Nav/Items/Table");
        check(rec >= 0 && amber_report_dropped_identifier_count(report, (size_t)rec) == 3,
              "R18 model identifiers with no association at restore are all dropped and reported");
        check(three.table.selected_count == 0 && three.table.got_first == AMBER_NOT_FOUND,
              "R18 a view without association gets no selection from model identifiers");
        check(three.table.got_offset && three.table.offset.y == 340.0, "R17 the rest of its state is applied");
        amber_report_free(report);
        amber_engine_close(three.engine);
    }
}

/* ---- snapshots: ignored on request, discarded with the archive ----------------------------- */

static int ignoring_will_encode(amber_engine *e, amber_coder *c, void *ctx) {
    (void)c; (void)ctx;
    return amber_engine_ignore_snapshot(e); /* UIKit: called during the code that preserves */
}

static void test_snapshots(const char *dir) {
    amber_engine *e, *e2;
    amber_object *root = NULL;
    amber_delegate d;
    amber_report *report = NULL;
    const uint8_t *snap = NULL;
    size_t n = 0;
    int saved = 0;
    char archive[512];

    snprintf(archive, sizeof archive, "%s/state.archive", dir);
    plain_archives = 1; /* to see what the file holds */
    e = open_engine(dir);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "Root", NULL, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_delegate_init(&d, AMBER_DELEGATE_VERSION);
    d.should_save = always_save;
    d.should_restore = restore_and_peek;
    d.will_encode = ignoring_will_encode;
    amber_engine_set_delegate(e, &d, NULL, NULL);

    check_status(amber_engine_set_snapshot(e, PNG, sizeof PNG), AMBER_OK, "R21 attach a snapshot");
    check_status(amber_engine_preserve(e, &saved), AMBER_OK, "R21 preserve, asking to ignore the snapshot");
    check(file_contains(archive, PNG, sizeof PNG) == 0, "R21 an ignored snapshot is not written");
    e2 = open_engine(dir);
    amber_engine_set_delegate(e2, &d, NULL, NULL);
    check_status(amber_engine_snapshot(&snap, &n, e2), AMBER_NOT_FOUND, "R21 snapshot ignore honoured at the next launch");
    check(strstr(amber_error_last(), "ignore") != NULL, "R21 the message says the snapshot was ignored");
    during.should_restore_rc = -1;
    check_status(amber_engine_launch(&report, e2), AMBER_OK, "R21 the launch restores anyway");
    check(amber_report_fresh_reason(report) == AMBER_FRESH_NONE, "R21 an ignored snapshot does not stop restoration");
    check(during.should_restore_rc == AMBER_NOT_FOUND, "R21 ignored during restoration too");
    amber_report_free(report);

    /* Attached, then discarded on purpose with the archive. */
    d.will_encode = NULL;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    amber_engine_set_snapshot(e, PNG, sizeof PNG);
    check_status(amber_engine_preserve(e, &saved), AMBER_OK, "R21 preserve with a snapshot");
    check(file_contains(archive, PNG, sizeof PNG) == 1, "R21 the snapshot travels inside the archive (unencrypted here)");
    check_status(amber_engine_snapshot(&snap, &n, e2), AMBER_OK, "R21 the snapshot is there");
    check_status(amber_engine_discard(e2), AMBER_OK, "R14 discard the archive on purpose");
    check_status(amber_engine_snapshot(&snap, &n, e2), AMBER_NOT_FOUND, "R21 the snapshot is discarded with the archive");

    /* Removing an attached snapshot. */
    amber_engine_set_snapshot(e, PNG, sizeof PNG);
    check_status(amber_engine_set_snapshot(e, NULL, 0), AMBER_OK, "R21 remove the attached snapshot");
    amber_engine_preserve(e, &saved);
    check_status(amber_engine_snapshot(&snap, &n, e2), AMBER_NOT_FOUND, "R21 a removed snapshot is not archived");
    check(file_contains(archive, PNG, sizeof PNG) == 0, "R21 no snapshot bytes in that archive");
    amber_engine_discard(e2);
    amber_engine_close(e2);
    amber_engine_close(e);
}

/* A view its controller makes while being restored is found without the host placing it. */
static amber_object *made_view;
static view_ctx made_ctx;

static int make_detail(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                       amber_decoder *decoder, void *ctx) {
    amber_object *c = NULL;
    (void)path; (void)path_length; (void)decoder; (void)ctx;
    if (amber_object_new(&c, engine, AMBER_KIND_CONTROLLER, "Detail", NULL, NULL, NULL, NULL) != AMBER_OK) return 1;
    made_view = new_view(engine, c, "Field", AMBER_VIEW_TEXT_FIELD, &made_ctx, "made", read_field);
    made_ctx.text_length = 40;
    *out = c;
    return made_view ? AMBER_OK : 1;
}

static void test_view_made_by_its_controller(const char *dir) {
    amber_engine *e = open_engine(dir);
    amber_object *root = NULL, *detail = NULL;
    amber_restoration_class cls;
    amber_report *report = NULL;
    view_ctx first;
    int saved = 0;

    memset(&first, 0, sizeof first);
    set_delegate(e, 0);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "Root", NULL, NULL, NULL);
    amber_object_new(&detail, e, AMBER_KIND_CONTROLLER, "Detail", "Detail", NULL, NULL, NULL);
    amber_object_set_restoration_class(detail, "DetailClass");
    amber_engine_add_root(e, root);
    amber_object_add_child(root, detail);
    new_view(e, detail, "Field", AMBER_VIEW_TEXT_FIELD, &first, "first", read_field);
    check_status(amber_engine_preserve(e, &saved), AMBER_OK, "R17 preserve a controller whose restoration class makes it");
    {
        static const uint8_t key[] = {'a', 'm', 'b', 'e', 'r', '.', 'v', 'i', 'e', 'w', '.'};
        char archive[600];
        snprintf(archive, sizeof archive, "%s/state.archive", dir);
        check(file_contains(archive, key, sizeof key) == 1,
              "R17 the standard state is archived under reserved amber.view.* keys (unencrypted here)");
    }
    amber_engine_close(e);

    e = open_engine(dir);
    set_delegate(e, 1);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "Root", NULL, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_restoration_class_init(&cls, AMBER_RESTORATION_CLASS_VERSION);
    cls.make = make_detail;
    amber_engine_register_restoration_class(e, "DetailClass", &cls, NULL, NULL);
    amber_engine_launch(&report, e);
    check(outcome_of(report, "Root/Detail/Field") == AMBER_OUTCOME_RESTORED,
          "R10 R17 a view its restored controller made is found by identifier");
    check(made_ctx.applies == 1 && made_ctx.got_range == AMBER_OK && made_ctx.range.location == 10 &&
              made_ctx.range.length == 6,
          "R17 text-field range that fits is restored");
    amber_report_free(report);
    amber_engine_close(e);
}

int main(void) {
    char dir[] = "/tmp/amber-test-views-XXXXXX";
    char file[600];

    if (!scratch_xdg("views")) return 1; /* nothing in the real home directory */
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_arguments();
    test_round_trip(dir);
    test_snapshots(dir);
    test_view_made_by_its_controller(dir);

    snprintf(file, sizeof file, "%s/state.archive", dir);
    unlink(file);
    snprintf(file, sizeof file, "%s/launch.guard", dir);
    unlink(file);
    snprintf(file, sizeof file, "%s/archive.key", dir);
    unlink(file);
    rmdir(dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

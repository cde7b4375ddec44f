/*
 * Views, model association and snapshots through include/amber.h alone (SPEC R17, R18, R21):
 * one engine preserves an interface with a view of every kind into a state directory; the item
 * store then changes (a row deleted before the selected one, one inserted, a selected item
 * deleted, a text shortened); a second engine on the same directory restores it. Then the
 * snapshot's life: attached, read before launch and during restoration, ignored on request,
 * discarded with the archive.
 *
 * Usage: test_views [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

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
    /* what read points the state at: it must outlive the accessor (Amber copies it on return) */
    int64_t paths[3][20];
    amber_index_path items[3];
    amber_web_page pages[3];
} view_ctx;

static int text_length(uint64_t *out, amber_object *view, void *ctx) {
    (void)view;
    *out = ((view_ctx *)ctx)->text_length;
    return AMBER_OK;
}

/* What a read accessor saw of the state Amber handed it. */
static struct {
    int kind_in_read, version_in_read, fields_in_read;
} S;

static void fill_path(int64_t *p, size_t depth, int64_t row) {
    size_t i;
    for (i = 0; i + 1 < depth; i++) p[i] = (int64_t)i + 1;
    p[depth - 1] = row;
}

static int read_scrollish(amber_object *view, amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    (void)view;
    v->reads++;
    if (v->fail_read) return v->fail_read;
    if (strcmp(v->name, "Scroll") == 0) {
        S.kind_in_read = state->kind;
        S.version_in_read = (int)state->version;
        S.fields_in_read = (int)state->fields;
    }
    state->content_offset.x = 12.5;
    state->content_offset.y = 340.0;
    state->content_inset.top = 64;
    state->content_inset.bottom = 49;
    state->zoom_scale = 1.5;
    state->fields |= AMBER_VIEW_FIELD_CONTENT_OFFSET | AMBER_VIEW_FIELD_CONTENT_INSET | AMBER_VIEW_FIELD_ZOOM_SCALE;
    return AMBER_OK;
}

/* Tables and collections: the selection (rows of D and F), the first visible item (C), editing. */
static int read_table(amber_object *view, amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    size_t depth = v->source ? v->source->depth : 2;
    int rc;
    if ((rc = read_scrollish(view, state, ctx)) != AMBER_OK) return rc;
    fill_path(v->paths[0], depth, 3); /* D */
    fill_path(v->paths[1], depth, 5); /* F */
    fill_path(v->paths[2], depth, 2); /* C */
    v->items[0].indexes = v->paths[0];
    v->items[0].length = depth;
    v->items[1].indexes = v->paths[1];
    v->items[1].length = depth;
    state->selected_items = v->items;
    state->selected_count = 2;
    state->first_visible_item.indexes = v->paths[2];
    state->first_visible_item.length = depth;
    state->editing = 1;
    state->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS | AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM | AMBER_VIEW_FIELD_EDITING;
    return AMBER_OK;
}

/* A collection without a model association: index paths of lengths 1, 2 and 3 kept as they are. */
static int read_grid(amber_object *view, amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    (void)view;
    v->reads++;
    v->paths[0][0] = 7;
    v->paths[1][0] = 1, v->paths[1][1] = 4;
    v->paths[2][0] = 2, v->paths[2][1] = 0, v->paths[2][2] = 9;
    v->items[0].indexes = v->paths[0], v->items[0].length = 1;
    v->items[1].indexes = v->paths[1], v->items[1].length = 2;
    v->items[2].indexes = v->paths[2], v->items[2].length = 3;
    state->selected_items = v->items;
    state->selected_count = 3;
    state->first_visible_item = v->items[2];
    state->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS | AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM;
    return AMBER_OK;
}

static int read_field(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view;
    ((view_ctx *)ctx)->reads++;
    state->selected_range.location = 10; /* the end of "Shiny Spork (edi" */
    state->selected_range.length = 6;
    state->fields |= AMBER_VIEW_FIELD_SELECTED_RANGE;
    return AMBER_OK;
}

static int read_notes(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view;
    ((view_ctx *)ctx)->reads++;
    state->selected_range.location = 6; /* "world" in "Hello world" */
    state->selected_range.length = 5;
    state->editable = 0;
    state->fields |= AMBER_VIEW_FIELD_SELECTED_RANGE | AMBER_VIEW_FIELD_EDITABLE;
    return AMBER_OK;
}

static int read_photo(amber_object *view, amber_view_state *state, void *ctx) {
    amber_rect bounds = {{0, 0}, {320, 240}};
    amber_point center = {160, 200}, anchor = {0.25, 0.75};
    amber_transform t = {0.5, 0.1, -0.1, 0.5, 10, 20};
    (void)view;
    ((view_ctx *)ctx)->reads++;
    state->bounds = bounds;
    state->center = center;
    state->transform = t;
    state->anchor_point = anchor;
    state->fields |= AMBER_VIEW_FIELD_BOUNDS | AMBER_VIEW_FIELD_CENTER | AMBER_VIEW_FIELD_TRANSFORM |
                     AMBER_VIEW_FIELD_ANCHOR_POINT;
    return AMBER_OK;
}

static int read_web(amber_object *view, amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    (void)view;
    v->reads++;
    v->pages[0].url = "https://example.org/", v->pages[0].scroll.x = 0, v->pages[0].scroll.y = 0;
    v->pages[1].url = "https://example.org/items", v->pages[1].scroll.x = 0, v->pages[1].scroll.y = 1200;
    v->pages[2].url = "https://example.org/items/d", v->pages[2].scroll.x = 0, v->pages[2].scroll.y = 80;
    state->pages = v->pages;
    state->page_count = 3;
    state->current_page = 1;
    state->fields |= AMBER_VIEW_FIELD_PAGES | AMBER_VIEW_FIELD_CURRENT_PAGE;
    return AMBER_OK;
}

/* A member's status in an apply accessor: AMBER_OK when its bit is set, else AMBER_NOT_FOUND
 * (not archived, not kept by the view's kind, or restored as nothing). */
static int got(const amber_view_state *state, uint32_t field) {
    return state->fields & field ? AMBER_OK : AMBER_NOT_FOUND;
}

/* One apply for every kind: it reads what its kind keeps and records it. */
static int apply_any(amber_object *view, const amber_view_state *state, void *ctx) {
    view_ctx *v = ctx;
    size_t i, j;
    (void)view;
    v->applies++;
    if (v->fail_apply) return v->fail_apply;
    v->kind_seen = state->kind;
    v->got_offset = got(state, AMBER_VIEW_FIELD_CONTENT_OFFSET) == AMBER_OK;
    if (v->got_offset) v->offset = state->content_offset;
    if (state->fields & AMBER_VIEW_FIELD_CONTENT_INSET) v->inset = state->content_inset;
    if (state->fields & AMBER_VIEW_FIELD_ZOOM_SCALE) v->zoom = state->zoom_scale;
    v->got_editing = got(state, AMBER_VIEW_FIELD_EDITING);
    if (v->got_editing == AMBER_OK) v->editing = state->editing;
    v->selected_count = state->fields & AMBER_VIEW_FIELD_SELECTED_ITEMS ? state->selected_count : 0;
    for (i = 0; i < v->selected_count && i < 4; i++) {
        const amber_index_path *ip = &state->selected_items[i];
        v->selected_length[i] = ip->length;
        for (j = 0; j < ip->length && j < 20; j++) v->selected[i][j] = ip->indexes[j];
    }
    v->got_first = got(state, AMBER_VIEW_FIELD_FIRST_VISIBLE_ITEM);
    if (v->got_first == AMBER_OK) {
        v->first_length = state->first_visible_item.length;
        for (j = 0; j < v->first_length && j < 20; j++) v->first[j] = state->first_visible_item.indexes[j];
    }
    v->got_range = got(state, AMBER_VIEW_FIELD_SELECTED_RANGE);
    if (v->got_range == AMBER_OK) v->range = state->selected_range;
    v->got_editable = got(state, AMBER_VIEW_FIELD_EDITABLE);
    if (v->got_editable == AMBER_OK) v->editable = state->editable;
    if (state->fields & AMBER_VIEW_FIELD_BOUNDS) v->bounds = state->bounds;
    if (state->fields & AMBER_VIEW_FIELD_CENTER) v->center = state->center;
    if (state->fields & AMBER_VIEW_FIELD_TRANSFORM) v->transform = state->transform;
    if (state->fields & AMBER_VIEW_FIELD_ANCHOR_POINT) v->anchor = state->anchor_point;
    v->page_count = state->fields & AMBER_VIEW_FIELD_PAGES ? state->page_count : 0;
    for (i = 0; i < v->page_count && i < 3; i++) {
        snprintf(v->urls[i], sizeof v->urls[i], "%s", state->pages[i].url);
        v->page_scroll[i] = state->pages[i].scroll;
    }
    v->got_page = got(state, AMBER_VIEW_FIELD_CURRENT_PAGE);
    if (v->got_page == AMBER_OK) v->current_page = state->current_page;
    return AMBER_OK;
}

/* ---- a state a read accessor fills wrongly is refused when the accessor returns (R17) ----- */

typedef void (*fill_fn)(amber_view_state *state);
static fill_fn probe_fill;
static int64_t probe_paths[2][1025];
static amber_index_path probe_items[2];
static amber_web_page probe_pages[2];

static int read_probe(amber_object *view, amber_view_state *state, void *ctx) {
    (void)view; (void)ctx;
    probe_fill(state);
    return AMBER_OK;
}

static int probe_save(amber_engine *e, amber_coder *c, void *ctx) {
    (void)e; (void)c; (void)ctx;
    return 1;
}

/* Preserves a view of `kind` whose read accessor fills the state with `fill`: AMBER_OK if it was
 * preserved, else the code the preservation report's message names for it (it is left out,
 * AMBER_LEFT_OUT_ENCODE_FAILED). */
static int probe(amber_view_kind kind, fill_fn fill) {
    amber_engine_options o = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_view_accessors acc = AMBER_VIEW_ACCESSORS_INIT;
    amber_engine *e = NULL;
    amber_object *root = NULL, *view = NULL;
    amber_preservation *p = NULL;
    amber_preservation_entry entry;
    int saved = 0, result = -1;
    size_t i;
    o.memory_store = 1;
    if (amber_engine_open(&e, "org.amber.test-views-probe", &o) != AMBER_OK) return -1;
    d.should_save = probe_save;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "P", "P", NULL, NULL, NULL);
    amber_object_new(&view, e, AMBER_KIND_VIEW, "View", "V", NULL, NULL, NULL);
    amber_engine_add_root(e, root);
    amber_object_add_view(root, view);
    probe_fill = fill;
    acc.read = read_probe;
    acc.apply = apply_any;
    acc.text_length = text_length;
    amber_object_set_view_accessors(view, kind, &acc, NULL, NULL);
    if (amber_engine_preserve(&saved, e) == AMBER_OK && amber_engine_preservation(&p, e) == AMBER_OK) {
        for (i = 0; i < amber_preservation_count(p); i++) {
            if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK || entry.path_length != 2) continue;
            if (entry.left_out == AMBER_LEFT_OUT_NONE) result = AMBER_OK;
            else if (strstr(entry.message, "AMBER_LIMIT_EXCEEDED")) result = AMBER_LIMIT_EXCEEDED;
            else if (strstr(entry.message, "AMBER_INVALID_ARGUMENT")) result = AMBER_INVALID_ARGUMENT;
            else result = AMBER_CALLBACK_FAILED;
        }
        amber_preservation_free(p);
    }
    amber_engine_close(e);
    return result;
}

static void fill_range(amber_view_state *s) {
    s->selected_range.length = 1;
    s->fields |= AMBER_VIEW_FIELD_SELECTED_RANGE;
}
static void fill_zoom_zero(amber_view_state *s) {
    s->zoom_scale = 0.0;
    s->fields |= AMBER_VIEW_FIELD_ZOOM_SCALE;
}
static void fill_nan_offset(amber_view_state *s) {
    s->content_offset.x = NAN;
    s->fields |= AMBER_VIEW_FIELD_CONTENT_OFFSET;
}
static void fill_negative_index(amber_view_state *s) {
    probe_paths[0][0] = 0, probe_paths[0][1] = -1;
    probe_items[0].indexes = probe_paths[0], probe_items[0].length = 2;
    s->selected_items = probe_items, s->selected_count = 1;
    s->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS;
}
static void fill_empty_path(amber_view_state *s) {
    probe_items[0].indexes = NULL, probe_items[0].length = 0;
    s->selected_items = probe_items, s->selected_count = 1;
    s->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS;
}
static void fill_long_path(amber_view_state *s) {
    probe_items[0].indexes = probe_paths[1], probe_items[0].length = 1025;
    s->selected_items = probe_items, s->selected_count = 1;
    s->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS;
}
static void fill_null_items(amber_view_state *s) {
    s->selected_items = NULL, s->selected_count = 2;
    s->fields |= AMBER_VIEW_FIELD_SELECTED_ITEMS;
}
static void fill_null_url(amber_view_state *s) {
    probe_pages[0].url = NULL;
    s->pages = probe_pages, s->page_count = 1;
    s->fields |= AMBER_VIEW_FIELD_PAGES;
}
static void fill_bad_page(amber_view_state *s) {
    probe_pages[0].url = "https://example.org/";
    s->pages = probe_pages, s->page_count = 1, s->current_page = 3;
    s->fields |= AMBER_VIEW_FIELD_PAGES | AMBER_VIEW_FIELD_CURRENT_PAGE;
}
static void fill_unknown_bit(amber_view_state *s) {
    s->fields |= 1u << 30;
}
static void fill_good_scroll(amber_view_state *s) {
    s->zoom_scale = 2.0;
    s->fields |= AMBER_VIEW_FIELD_ZOOM_SCALE;
}

static void test_refused_states(void) {
    printf("== R17 a state filled wrongly is refused when the read accessor returns\n");
    check_status(probe(AMBER_VIEW_SCROLL, fill_good_scroll), AMBER_OK, "R17 a scroll view with a zoom scale is preserved");
    check_status(probe(AMBER_VIEW_SCROLL, fill_range), AMBER_INVALID_ARGUMENT,
                 "R17 a scroll view keeps no selected range (left out, the message names AMBER_INVALID_ARGUMENT)");
    check_status(probe(AMBER_VIEW_SCROLL, fill_zoom_zero), AMBER_INVALID_ARGUMENT, "R17 a zoom scale of 0");
    check_status(probe(AMBER_VIEW_SCROLL, fill_nan_offset), AMBER_INVALID_ARGUMENT, "R17 a NaN content offset");
    check_status(probe(AMBER_VIEW_TABLE, fill_negative_index), AMBER_INVALID_ARGUMENT, "R17 a negative index");
    check_status(probe(AMBER_VIEW_TABLE, fill_empty_path), AMBER_INVALID_ARGUMENT, "R17 an empty index path");
    check_status(probe(AMBER_VIEW_TABLE, fill_long_path), AMBER_LIMIT_EXCEEDED, "R17 an index path of 1025 indexes");
    check_status(probe(AMBER_VIEW_TABLE, fill_null_items), AMBER_INVALID_ARGUMENT, "R17 NULL selected items with a count");
    check_status(probe(AMBER_VIEW_WEB, fill_null_url), AMBER_INVALID_ARGUMENT, "R17 a page with a NULL URL");
    check_status(probe(AMBER_VIEW_WEB, fill_bad_page), AMBER_INVALID_ARGUMENT, "R17 a current page past the pages");
    check_status(probe(AMBER_VIEW_SCROLL, fill_unknown_bit), AMBER_INVALID_ARGUMENT, "R17 a fields bit that names no member");
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
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
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
    acc = (amber_view_accessors)AMBER_VIEW_ACCESSORS_INIT;
    acc.read = read;
    acc.apply = apply_any;
    acc.text_length = text_length;
    if (amber_object_set_view_accessors(o, kind, &acc, v, count_free) != AMBER_OK) return NULL;
    return o;
}

static int associate(amber_object *view, source *s, size_t depth) {
    amber_model_association a;
    s->depth = depth;
    a = (amber_model_association)AMBER_MODEL_ASSOCIATION_INIT;
    a.identifier_for_index_path = identifier_for_index_path;
    a.index_path_for_identifier = index_path_for_identifier;
    return amber_object_set_model_association(view, &a, s, count_free);
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
        o = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
        o.memory_store = 1;
        check_status(amber_engine_open(&e, "org.amber.test-views-args", &o), AMBER_OK, "open an engine in memory");
    }
    amber_object_new(&view, e, AMBER_KIND_VIEW, "View", "V", NULL, NULL, NULL);
    amber_object_new(&controller, e, AMBER_KIND_CONTROLLER, "C", "C", NULL, NULL, NULL);

    acc = (amber_view_accessors)AMBER_VIEW_ACCESSORS_INIT;
    check(acc.version == AMBER_VIEW_ACCESSORS_VERSION && acc.read == NULL && acc.apply == NULL && acc.text_length == NULL,
          "R17 AMBER_VIEW_ACCESSORS_INIT: the version set, accessors NULL");
    acc.version = 99;
    acc.read = noop_read;
    acc.apply = noop_apply;
    check_status(amber_object_set_view_accessors(view, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors of version 99");
    acc = (amber_view_accessors)AMBER_VIEW_ACCESSORS_INIT;
    acc.read = noop_read;
    check_status(amber_object_set_view_accessors(view, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors without apply");
    acc.apply = noop_apply;
    check_status(amber_object_set_view_accessors(NULL, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors on a NULL view");
    check_status(amber_object_set_view_accessors(controller, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors on a controller");
    check_status(amber_object_set_view_accessors(view, 0, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT, "R17 view kind 0");
    check_status(amber_object_set_view_accessors(view, 99, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT, "R17 view kind 99");
    check_status(amber_object_set_view_accessors(view, AMBER_VIEW_TEXT_FIELD, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 a text field without text_length");
    acc.version = 2;
    check_status(amber_object_set_view_accessors(view, AMBER_VIEW_SCROLL, &acc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R17 accessors of version 2");
    acc.version = AMBER_VIEW_ACCESSORS_VERSION;
    check(amber_object_view_kind(view) == AMBER_VIEW_NONE, "R17 a view without accessors has kind AMBER_VIEW_NONE (0)");
    check(amber_object_view_kind(controller) == AMBER_VIEW_INVALID && amber_error_last_code() == AMBER_INVALID_ARGUMENT,
          "R17 amber_object_view_kind(controller) is AMBER_VIEW_INVALID (-1), the error set");

    freed_before = ctx_freed;
    check_status(amber_object_set_view_accessors(view, AMBER_VIEW_SCROLL, &acc, NULL, count_free), AMBER_OK,
                 "R17 accessors for a scroll view");
    check(amber_object_view_kind(view) == AMBER_VIEW_SCROLL, "R17 amber_object_view_kind gives the kind");
    check_status(amber_object_set_view_accessors(view, AMBER_VIEW_WEB, &acc, NULL, count_free), AMBER_OK,
                 "R17 accessors replaced");
    check(ctx_freed == freed_before + 1, "R17 replacing accessors calls the old ctx_free");
    check_status(amber_object_set_view_accessors(view, 0, NULL, NULL, NULL), AMBER_OK, "R17 accessors removed");
    check(ctx_freed == freed_before + 2 && amber_object_view_kind(view) == 0, "R17 removing accessors calls ctx_free");

    assoc = (amber_model_association)AMBER_MODEL_ASSOCIATION_INIT;
    assoc.version = 7;
    assoc.identifier_for_index_path = identifier_for_index_path;
    assoc.index_path_for_identifier = index_path_for_identifier;
    check_status(amber_object_set_model_association(view, &assoc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R18 an association of version 7");
    assoc = (amber_model_association)AMBER_MODEL_ASSOCIATION_INIT;
    check(assoc.version == AMBER_MODEL_ASSOCIATION_VERSION && assoc.identifier_for_index_path == NULL,
          "R18 AMBER_MODEL_ASSOCIATION_INIT");
    assoc.identifier_for_index_path = identifier_for_index_path;
    check_status(amber_object_set_model_association(view, &assoc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R18 an association without index_path_for_identifier");
    assoc.index_path_for_identifier = index_path_for_identifier;
    check_status(amber_object_set_model_association(controller, &assoc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                 "R18 an association on a controller");

    /* The association and accessors' contexts are freed with the view. */
    amber_object_set_view_accessors(view, AMBER_VIEW_TABLE, &acc, NULL, count_free);
    check_status(amber_object_set_model_association(view, &assoc, NULL, count_free), AMBER_OK, "R18 an association");
    freed_before = ctx_freed;
    amber_object_free(view);
    check(ctx_freed == freed_before + 2, "R17 R18 freeing a view frees its accessors' and association's contexts");

    check(amber_object_view_kind(NULL) == AMBER_VIEW_INVALID, "R17 amber_object_view_kind(NULL) is AMBER_VIEW_INVALID");

    check_status(amber_engine_set_snapshot(e, NULL, 5), AMBER_INVALID_ARGUMENT, "R21 a snapshot of NULL bytes with a size");
    check_status(amber_engine_set_snapshot(e, one_byte, ((size_t)64 << 20) + 1), AMBER_LIMIT_EXCEEDED,
                 "R21 a snapshot over 64 MiB");
    check_status(amber_engine_set_snapshot(NULL, one_byte, 1), AMBER_INVALID_ARGUMENT, "R21 a snapshot for a NULL engine");
    check_status(amber_engine_ignore_snapshot(NULL), AMBER_INVALID_ARGUMENT, "R21 ignoring for a NULL engine");
    {
        amber_buf b = AMBER_BUF_INIT;
        check_status(amber_engine_snapshot(NULL, e), AMBER_INVALID_ARGUMENT, "R21 amber_engine_snapshot(NULL out)");
        check_status(amber_engine_snapshot(&b, e), AMBER_NOT_FOUND, "R21 no archive, no snapshot");
        check(b.ptr == NULL && b.size == 0, "R21 no snapshot: the buffer is left empty");
    }
    {
        amber_report_record rec;
        check_status(amber_report_record_at(&rec, NULL, 0), AMBER_INVALID_ARGUMENT,
                     "R18 the dropped identifiers of a NULL report (amber_report_record_at(NULL))");
    }
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
    amber_buf b = AMBER_BUF_INIT;
    (void)d; (void)ctx;
    during.should_restore_rc = amber_engine_snapshot(&b, e);
    during.size = b.size;
    during.first = b.ptr ? (uint8_t)b.ptr[0] : 0;
    amber_buf_dispose(&b);
    return 1;
}

static int set_delegate(amber_engine *e, int restore_peeks) {
    amber_delegate d;
    d = (amber_delegate)AMBER_DELEGATE_INIT;
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

/* The dropped model identifiers of record `rec` (R18): their count, and identifier `i` (NULL past
 * the end). */
static size_t dropped_count(amber_report *report, long rec) {
    amber_report_record r;
    if (rec < 0 || amber_report_record_at(&r, report, (size_t)rec) != AMBER_OK) return (size_t)-1;
    return r.dropped_count;
}

static const char *dropped_at(amber_report *report, long rec, size_t i) {
    amber_report_record r;
    if (rec < 0 || amber_report_record_at(&r, report, (size_t)rec) != AMBER_OK || i >= r.dropped_count) return NULL;
    return r.dropped_identifiers[i];
}

static int outcome_of(amber_report *report, const char *path) {
    amber_report_record rec;
    long i = record_of(report, path);
    if (i < 0 || amber_report_record_at(&rec, report, (size_t)i) != AMBER_OK) return -1;
    return rec.outcome;
}

/* Whether the engine's last preservation report (R28) has an entry for `path` ("Nav/Items/Table")
 * whose left_out is `left_out` and, if `in_message` is set, whose message contains it. */
static int left_out_with(amber_engine *e, const char *path, amber_left_out left_out, const char *in_message) {
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

static void test_round_trip(void) {
    char dir[400];
    runner_dir(dir, sizeof dir, "state");
    ui one, two;
    int saved = 0, rc;
    amber_report *report = NULL;
    amber_buf snap = AMBER_BUF_INIT;
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
    check_status(amber_engine_preserve(&saved, one.engine), AMBER_OK, "R17 preserve views with standard state");
    check(saved == 1, "R17 an archive was written");
    check(one.table.reads == 1 && one.list.reads == 1 && one.outline.reads == 1 && one.deep.reads == 1 &&
              one.grid.reads == 1 && one.scroll.reads == 1 && one.field.reads == 1 && one.notes.reads == 1 &&
              one.photo.reads == 1 && one.web.reads == 1,
          "R17 the read accessor of every preserved view ran once");
    check(one.unnamed.reads == 0, "R2 R17 a view without an identifier is not read");
    check(one.orphan.reads == 0, "R2 R17 a view whose controller has no identifier is not read");
    check(S.kind_in_read == AMBER_VIEW_SCROLL && S.version_in_read == AMBER_VIEW_STATE_VERSION && S.fields_in_read == 0,
          "R17 a read accessor gets a zeroed state with its version and the view's kind set");
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
    check_status(amber_engine_snapshot(&snap, two.engine), AMBER_OK, "R21 the snapshot is readable before launch");
    check(snap.size == sizeof PNG && memcmp(snap.ptr, PNG, sizeof PNG) == 0, "R21 the snapshot read before launch is the one attached");
    amber_buf_dispose(&snap);
    check_status(amber_engine_launch(&report, two.engine, AMBER_APP_INACTIVE), AMBER_OK, "run 2: launch");
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
    check(two.scroll.kind_seen == AMBER_VIEW_SCROLL, "R17 the state's kind in an apply accessor");
    check(two.table.got_offset && two.table.offset.y == 340.0 && two.table.zoom == 1.5, "R17 table scroll position restored");
    check(two.table.got_editing == AMBER_OK && two.table.editing == 1, "R17 table editing mode restored");
    check(two.scroll.got_editing == AMBER_NOT_FOUND, "R17 a scroll view has no editing mode (its bit is clear)");

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
    check(rec >= 0 && dropped_count(report, rec) == 1, "R18 the report lists one dropped identifier for the table");
    dropped = dropped_at(report, rec, 0);
    check(dropped && strcmp(dropped, "F") == 0, "R18 the dropped identifier is F, the deleted item (record.dropped_identifiers)");
    check(dropped_at(report, rec, 1) == NULL, "R18 no dropped identifier past dropped_count");
    rec = record_of(report, "Nav/Items/Grid");
    check(rec >= 0 && dropped_count(report, rec) == 0, "R18 nothing is dropped for a view without association");
    {
        amber_buf text = AMBER_BUF_INIT;
        amber_report_format(&text, report);
        check(text.ptr && strstr(text.ptr, "dropped model identifiers: F") != NULL, "R18 the formatted report names the dropped identifier");
        amber_buf_dispose(&text);
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
    check(two.field.got_range == AMBER_NOT_FOUND, "R17 text-field range that no longer fits -> no selection (bit clear)");
    check(two.notes.got_range == AMBER_OK && two.notes.range.location == 6 && two.notes.range.length == 5,
          "R17 text-view range that fits is restored");
    check(two.notes.got_editable == AMBER_OK && two.notes.editable == 0, "R17 text view editable flag restored");
    check(two.field.got_editable == AMBER_NOT_FOUND, "R17 a text field keeps no editable flag (its bit is clear)");
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

    check_status(amber_engine_snapshot(&snap, two.engine), AMBER_NOT_FOUND,
                 "R21 the snapshot is discarded with the archive after restoring");
    check(access(archive, F_OK) != 0, "R14 R21 the archive file is gone");
    amber_report_free(report);

    /* Failing accessors and associations: the view is left out, the rest is saved (R28). */
    two.table_source.fail_code = 77;
    saved = -1;
    rc = amber_engine_preserve(&saved, two.engine);
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
    check_status(amber_engine_preserve(&saved, two.engine), AMBER_OK,
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
        check_status(amber_engine_launch(&report, four.engine, AMBER_APP_INACTIVE), AMBER_OK, "R17 R28 launch the archive saved without Scroll");
        check(outcome_of(report, "Nav/Items/Scroll") == AMBER_OUTCOME_LEFT_OUT && four.scroll.applies == 0,
              "R17 R28 Nav/Items/Scroll comes back as AMBER_OUTCOME_LEFT_OUT, not applied");
        check(outcome_of(report, "Nav/Items/Table") == AMBER_OUTCOME_RESTORED && four.table.applies == 1 &&
                  four.photo.applies == 1 && four.photo.center.x == 160,
              "R17 R28 the other views are restored from it (Table, Photo at its center)");
        amber_report_free(report);
        amber_engine_close(four.engine);
    }
    two.scroll.fail_read = 0;
    check_status(amber_engine_preserve(&saved, two.engine), AMBER_OK, "R17 preserve again");
    check_status(amber_engine_snapshot(&snap, two.engine), AMBER_NOT_FOUND,
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
        check_status(amber_engine_launch(&report, three.engine, AMBER_APP_INACTIVE), AMBER_OK, "launch into views without associations");
        check(outcome_of(report, "Nav/Items/Photo") == AMBER_OUTCOME_DECODE_ERROR,
              "R17 an apply accessor's failure makes the record a decode error");
        rec = record_of(report, "Nav/Items/Table");
        check(rec >= 0 && dropped_count(report, rec) == 3,
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

static void test_snapshots(void) {
    char dir[400];
    runner_dir(dir, sizeof dir, "state");
    amber_engine *e, *e2;
    amber_object *root = NULL;
    amber_delegate d;
    amber_report *report = NULL;
    amber_buf snap = AMBER_BUF_INIT;
    int saved = 0;
    char archive[512];

    snprintf(archive, sizeof archive, "%s/state.archive", dir);
    plain_archives = 1; /* to see what the file holds */
    e = open_engine(dir);
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "Root", NULL, NULL, NULL);
    amber_engine_add_root(e, root);
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = always_save;
    d.should_restore = restore_and_peek;
    d.will_encode = ignoring_will_encode;
    amber_engine_set_delegate(e, &d, NULL, NULL);

    check_status(amber_engine_set_snapshot(e, PNG, sizeof PNG), AMBER_OK, "R21 attach a snapshot");
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R21 preserve, asking to ignore the snapshot");
    check(file_contains(archive, PNG, sizeof PNG) == 0, "R21 an ignored snapshot is not written");
    e2 = open_engine(dir);
    amber_engine_set_delegate(e2, &d, NULL, NULL);
    check_status(amber_engine_snapshot(&snap, e2), AMBER_NOT_FOUND, "R21 snapshot ignore honoured at the next launch");
    check(strstr(amber_error_last(), "ignore") != NULL, "R21 the message says the snapshot was ignored");
    during.should_restore_rc = -1;
    check_status(amber_engine_launch(&report, e2, AMBER_APP_INACTIVE), AMBER_OK, "R21 the launch restores anyway");
    check(amber_report_fresh_reason(report) == AMBER_FRESH_NONE, "R21 an ignored snapshot does not stop restoration");
    check(during.should_restore_rc == AMBER_NOT_FOUND, "R21 ignored during restoration too");
    amber_report_free(report);

    /* Attached, then discarded on purpose with the archive. */
    d.will_encode = NULL;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    amber_engine_set_snapshot(e, PNG, sizeof PNG);
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R21 preserve with a snapshot");
    check(file_contains(archive, PNG, sizeof PNG) == 1, "R21 the snapshot travels inside the archive (unencrypted here)");
    check_status(amber_engine_snapshot(&snap, e2), AMBER_OK, "R21 the snapshot is there");
    check(snap.size == sizeof PNG && memcmp(snap.ptr, PNG, sizeof PNG) == 0, "R21 the snapshot is a copy of the one attached");
    amber_buf_dispose(&snap);
    check_status(amber_engine_discard(e2), AMBER_OK, "R14 discard the archive on purpose");
    check_status(amber_engine_snapshot(&snap, e2), AMBER_NOT_FOUND, "R21 the snapshot is discarded with the archive");

    /* Removing an attached snapshot. */
    amber_engine_set_snapshot(e, PNG, sizeof PNG);
    check_status(amber_engine_set_snapshot(e, NULL, 0), AMBER_OK, "R21 remove the attached snapshot");
    amber_engine_preserve(&saved, e);
    check_status(amber_engine_snapshot(&snap, e2), AMBER_NOT_FOUND, "R21 a removed snapshot is not archived");
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

static void test_view_made_by_its_controller(void) {
    char dir[400];
    runner_dir(dir, sizeof dir, "state");
    plain_archives = 1; /* to see what the file holds */
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
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R17 preserve a controller whose restoration class makes it");
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
    cls = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    cls.make = make_detail;
    amber_engine_register_restoration_class(e, "DetailClass", &cls, NULL, NULL);
    amber_engine_launch(&report, e, AMBER_APP_INACTIVE);
    check(outcome_of(report, "Root/Detail/Field") == AMBER_OUTCOME_RESTORED,
          "R10 R17 a view its restored controller made is found by identifier");
    check(made_ctx.applies == 1 && made_ctx.got_range == AMBER_OK && made_ctx.range.location == 10 &&
              made_ctx.range.length == 6,
          "R17 text-field range that fits is restored");
    amber_report_free(report);
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r17_arguments", test_arguments},
    {"r17_refused_states", test_refused_states},
    {"r17_round_trip", test_round_trip},
    {"r21_snapshots", test_snapshots},
    {"r17_view_made_by_its_controller", test_view_made_by_its_controller},
};

int main(int argc, char **argv) {
    return runner_main("views", tests, RUNNER_COUNT(tests), argc, argv);
}

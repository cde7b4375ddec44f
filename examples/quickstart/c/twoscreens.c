/* A two-screen app: a list with a selected row, a detail screen with a scroll offset.
 * Run it twice with the same state directory: the first run saves, the second restores. */
#include <amber.h>
#include <stdio.h>

static int64_t selected_row = -1;   /* the list screen's state */
static double scroll_offset = 0;    /* the detail screen's state */

static int yes(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int yes_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }
static int list_encode(amber_object *o, amber_coder *c, void *ctx) { (void)o; (void)ctx; return amber_coder_encode_int64(c, "selectedRow", selected_row); }
static int list_decode(amber_object *o, amber_decoder *d, void *ctx) { (void)o; (void)ctx; return amber_decoder_decode_int64(&selected_row, d, "selectedRow"); }
static int detail_encode(amber_object *o, amber_coder *c, void *ctx) { (void)o; (void)ctx; return amber_coder_encode_double(c, "scrollOffset", scroll_offset); }
static int detail_decode(amber_object *o, amber_decoder *d, void *ctx) { (void)o; (void)ctx; return amber_decoder_decode_double(&scroll_offset, d, "scrollOffset"); }

static amber_object *screen(amber_engine *e, const char *cls, const char *id,
                            int (*enc)(amber_object *, amber_coder *, void *),
                            int (*dec)(amber_object *, amber_decoder *, void *)) {
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_object *o = NULL;
    cb.encode = enc; cb.decode = dec;
    amber_object_new(&o, e, AMBER_KIND_CONTROLLER, cls, id, &cb, NULL, NULL);
    return o;
}

int main(int argc, char **argv) {
    amber_engine_options opt = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate del = AMBER_DELEGATE_INIT;
    amber_engine *engine = NULL;
    amber_report *report = NULL;
    amber_buf text = AMBER_BUF_INIT;
    int saved = 0;
    opt.state_directory = argc > 1 ? argv[1] : NULL;   /* NULL: $XDG_STATE_HOME/<app-id> */
    if (amber_engine_open(&engine, "org.example.twoscreens", &opt) != AMBER_OK) {
        fprintf(stderr, "open: %s\n", amber_error_last());
        return 1;
    }
    del.should_save = yes;
    del.should_restore = yes_restore;
    amber_engine_set_delegate(engine, &del, NULL, NULL);

    /* The default interface, built before the launch: restoration finds these by path. */
    amber_object *nav = screen(engine, "NavigationController", "Nav", NULL, NULL);
    amber_object_add_child(nav, screen(engine, "ListController", "List", list_encode, list_decode));
    amber_object_add_child(nav, screen(engine, "DetailController", "Detail", detail_encode, detail_decode));
    amber_engine_add_root(engine, nav);

    amber_engine_launch(&report, engine, AMBER_APP_INACTIVE);   /* restores, consumes the archive */
    amber_report_format(&text, report);                         /* what was restored, and why not */
    printf("%s\nrow %lld, offset %.1f\n", text.ptr, (long long)selected_row, scroll_offset);
    amber_buf_dispose(&text);
    amber_report_free(report);

    selected_row += 1;      /* the user picks the next row... */
    scroll_offset += 40;    /* ...and scrolls its detail */
    if (amber_engine_preserve(&saved, engine) != AMBER_OK) fprintf(stderr, "preserve: %s\n", amber_error_last());
    printf("saved: %d\n", saved);
    amber_engine_close(engine);
    return 0;
}

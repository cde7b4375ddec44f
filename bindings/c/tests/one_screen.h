/*
 * one_screen.h — the host the file and envelope tests share: one controller that saves one
 * string and reads it back, under a delegate that always agrees. A test fills `screen` (its app
 * id, the controller's class, the key and the string to save) before it opens an engine.
 */
#ifndef AMBER_TEST_ONE_SCREEN_H
#define AMBER_TEST_ONE_SCREEN_H

#include "amber.h"

#include <stdio.h>

static struct {
    const char *app_id;
    const char *class_name;
    const char *key;
    /* What the controller saves. */
    const char *text;
    /* What it read back at the last restore ("" if nothing). */
    char decoded[64];
} screen;

static inline int screen_yes_save(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static inline int screen_yes_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

static inline int screen_encode(amber_object *o, amber_coder *c, void *ctx) {
    (void)o; (void)ctx;
    return amber_coder_encode_string(c, screen.key, screen.text);
}

static inline int screen_decode(amber_object *o, amber_decoder *d, void *ctx) {
    const char *s = NULL;
    int status;
    (void)o; (void)ctx;
    status = amber_decoder_decode_string(&s, d, screen.key);
    if (status == AMBER_OK) snprintf(screen.decoded, sizeof screen.decoded, "%s", s);
    return status;
}

/* An engine with the screen as its root, or NULL (amber_error_last() says why). */
static inline amber_engine *host(const amber_engine_options *opts) {
    amber_engine *e = NULL;
    amber_delegate d;
    amber_object_callbacks cb;
    amber_object *root = NULL;
    if (amber_engine_open(&e, screen.app_id, opts) != AMBER_OK) return NULL;
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = screen_yes_save;
    d.should_restore = screen_yes_restore;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = screen_encode;
    cb.decode = screen_decode;
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, screen.class_name, screen.class_name, &cb, NULL, NULL);
    amber_engine_add_root(e, root);
    return e;
}

/* Preserves once: AMBER_OK if an archive was written, the status otherwise (-1: nothing saved). */
static inline int save(const amber_engine_options *opts) {
    amber_engine *e = host(opts);
    int saved = 0, status;
    if (!e) return amber_error_last_code();
    status = amber_engine_preserve(&saved, e);
    amber_engine_close(e);
    return status != AMBER_OK ? status : saved ? AMBER_OK : -1;
}

#endif

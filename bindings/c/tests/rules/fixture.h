/*
 * fixture.h — what the files of test_rules share: the event log (the order in which Amber called
 * the host), a host store in memory (the "disk" one engine leaves to the next, as two launches of
 * a program would), host objects whose context is a node that records its callbacks, lookup
 * tables for restoration classes, the delegate and blueprint factories, a delegate that records
 * what it is given, and the one-liners that open an engine, preserve, launch and read a report.
 *
 * Each preserve runs in one engine and each restore in another one on the same store. Tests call
 * reset() and reset_app() first: the state here is global, one test at a time.
 */
#ifndef AMBER_TEST_RULES_FIXTURE_H
#define AMBER_TEST_RULES_FIXTURE_H

#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "../check.h"
#include "../mem_store.h"
#include "../runner.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- checks ------------------------------------------------------------------------------ */

/* A failure: the code, and a message on this thread with the same code (R22: never silent). */
void check_error(int got, int want, const char *what);

/* ---- the event log: the order in which Amber called the host -------------------------------- */

#define MAX_EVENTS 512
/* What the host was called for, in order: "encode:Root", "ofp:Root/List", "should_save", ... */
extern char events[MAX_EVENTS][128];
extern int n_events;

/* Appends an event (printf-style). */
void ev(const char *fmt, ...);

/* The index of the first event equal to `name`, or -1. */
int ev_first(const char *name);

/* How many events are equal to `name`. */
int ev_count(const char *name);

/* The index of the last / first event starting with `prefix`, or -1. */
int ev_last_prefix(const char *prefix);
int ev_first_prefix(const char *prefix);

/* A restoration path's components joined with '/' ("Root/List"), cut to `size`. */
void join_path(char *buf, size_t size, const char *const *path, size_t n);

/* ---- host objects: every object's context is a node ------------------------------------------ */

#define MAX_REFS 4
typedef struct node {
    char name[48];
    int64_t value;            /* encoded under "value" */
    amber_object *self;       /* the handle: callbacks must receive it */
    int callbacks_ok;         /* every callback received self and this context */
    int encoded, decoded, finished;
    int encode_status;        /* of encoding "value" */
    int64_t got;              /* decoded "value" */
    int got_status;
    /* references (R4) */
    const char *ref_keys[MAX_REFS];
    amber_object *refs[MAX_REFS];
    int n_refs;
    int ref_status[MAX_REFS];
    amber_object *got_refs[MAX_REFS];
    int got_ref_status[MAX_REFS];
    int fail_decode;          /* the decode callback returns this code */
    int fail_encode;          /* the encode callback returns this code (R28) */
    /* what amber_decoder_record gave the decode callback (R3, R10) */
    int record_status, record_kind;
    size_t record_position;
    char record_class[48];
    int extend;               /* the decode callback extends restoration (R15) */
    int kill;                 /* the decode callback raises SIGKILL (R14) */
    void (*decode_hook)(struct node *n, amber_decoder *d);
    void (*encode_hook)(struct node *n, amber_coder *c);
} node;

#define MAX_NODES 64
/* The nodes of the current test; the engine restoring and the tokens its objects took when they
 * extended restoration (R15). */
extern node pool[MAX_NODES];
extern amber_engine *cur_engine;
extern uint64_t tokens[8];
extern int n_tokens;

/* A fresh node named `name` that encodes `value`. */
node *nn(const char *name, int64_t value);

/* Forgets every node, event and token: each test starts with it. */
void reset(void);

/* The node encodes a reference to `target` under `key` (R4) and decodes it back. */
void node_add_ref(node *n, const char *key, amber_object *target);

/* An object whose context is `n`, with all three callbacks. */
amber_object *mk(amber_engine *e, int kind, const char *cls, const char *id, node *n);

/* mk() for a controller. */
amber_object *ctl(amber_engine *e, const char *cls, const char *id, node *n);

/* Whether an object's restoration path is `want` (NULL: it has none). */
int path_is(amber_object *o, const char *want);

/* ---- lookup tables: what the delegate, a restoration class or a factory gives ---------------- */

#define MAX_ENTRIES 16
typedef struct table {
    const char *tag; /* in the event log: "<tag>:<path>" */
    int64_t read_value; /* what the last make read under "value" from the object's coder */
    const char *paths[MAX_ENTRIES];
    amber_object *objects[MAX_ENTRIES];
    int n;
} table;

/* The table answers `o` for `path` ("A/B"), and NULL for a path it does not hold. */
void table_put(table *t, const char *path, amber_object *o);

/* The blueprint identifier the last factory call was given. */
extern char factory_blueprint[128];

/* Registers a restoration class / a blueprint factory named `name` that answers from `t`. */
void add_class(amber_engine *e, const char *name, table *t);
void add_factory(amber_engine *e, const char *name, table *t);

/* ---- the delegate ---------------------------------------------------------------------------- */

typedef struct app {
    int save, restore;           /* should_save / should_restore answers */
    const char *app_version;     /* written by will_encode under "appVersion" if set */
    table ofp;                   /* object_for_path answers */
    void (*on_will_finish)(amber_engine *e);
    /* read back */
    int should_restore_calls, did_decode_calls;
    char bundle_version[64], idiom[64], system_version[256], app_version_read[64], did_decode_app_version[64];
    double timestamp;
    int timestamp_status, app_ref_status, app_secure_status;
    void (*should_save_hook)(amber_coder *c);
    void (*will_encode_hook)(amber_coder *c);
    /* R8: the metadata under UIKit's names */
    char uikit_bundle_version[64], uikit_idiom[64], uikit_system_version[256];
    double uikit_timestamp;
    int uikit_timestamp_status;
    void (*should_restore_hook)(amber_decoder *d);
    void (*did_decode_hook)(amber_decoder *d);
    /* object_for_path: this instead of the table when set */
    int (*ofp_hook)(amber_object **out, amber_engine *e, const char *path, amber_decoder *d);
} app;

/* The application: what the delegate answers and what it was given. */
extern app A;

/* A fresh application that agrees to save and to restore. */
void reset_app(void);

/* Makes A the engine's delegate. */
void use_delegate(amber_engine *e);

/* An engine of application `app_id` on the memory store `ms`; `key_file`: NULL for the default. */
amber_engine *open_mem_app(mem_store *ms, const char *app_id, const char *key_file, const char *bundle_version,
                           const char *idiom);

/* open_mem_app() for org.example.rules with the default key file. */
amber_engine *open_mem(mem_store *ms, const char *bundle_version, const char *idiom);

/* amber_engine_preserve(): 1 if an archive was written, 0 if not, -1 on an error (printed). */
int preserve(amber_engine *e);

/* amber_engine_launch() as an inactive application; its report, or NULL (printed). */
amber_report *launch(amber_engine *e);

/* The record of a path ("A/B") in a report; outcome -1 if there is none. */
amber_report_record find(const amber_report *r, const char *path);

/* find()'s outcome. */
int outcome_of(const amber_report *r, const char *path);

/* The record of a path at a stack position (R3); outcome -1 if there is none. */
amber_report_record find_at(const amber_report *r, const char *path, size_t position);

/* An outcome's words as the report's text writes them ("declined by class"). */
const char *outcome_name(int o);

/* A controller of class C named `id`, added as the last child of `parent`. */
amber_object *child_of(amber_engine *e, amber_object *parent, const char *id, int64_t value);

/* Whether the report has a message (a fresh launch says why, R16). */
int fresh_message_ok(const amber_report *r);

/* ---- reading what the engine gives: texts and the preservation report ---------------------- */

/* Whether `line` is one of the '\n'-separated lines of `text`. */
int has_line(const char *text, const char *line);

/* Saves a Root controller holding `value` on `ms` from an engine of its own (one launch). */
void save_root(mem_store *ms, int64_t value);

/* The entry of a path at a stack position in a preservation report (R28), or left_out -1. */
amber_preservation_entry entry_at_path(const amber_preservation *p, const char *path, size_t position);

/* The index of the entry of class `class_name` in a preservation report, or -1. */
long entry_of_class(const amber_preservation *p, const char *class_name, amber_preservation_entry *out);

#endif

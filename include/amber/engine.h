/*
 * amber/engine.h — the engine: opening and closing, its store and key, its classes, blueprints
 * and delegate, its roots, and what it does: launch and restore, preserve, the application's
 * transitions, snapshots, the log of one engine.
 *
 * Group: engine (SPEC R2-R16, R19-R24, R28, R29). Functions amber_engine_*.
 */
#ifndef AMBER_ENGINE_H
#define AMBER_ENGINE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Opening an engine                                                                         */
/* ---------------------------------------------------------------------------------------- */

/** An archive store: where the engine keeps the archive and the launch guard (a plugin). */
typedef struct amber_store {
    /** AMBER_STORE_VERSION. */
    unsigned int version;
    /** Reads the archive into a buffer it allocates with `alloc` (given); sets *out_found to 0
     *  when there is none. Returns 0 or a status code. */
    int (*read)(void *(*alloc)(size_t size, void *alloc_ctx), void *alloc_ctx, uint8_t **out,
                size_t *out_size, int *out_found, void *ctx);
    /** Replaces the archive with `bytes`, atomically: afterwards the store holds the old archive
     *  or the new one, never a torn one. Returns 0 or a status code. */
    int (*write)(const uint8_t *bytes, size_t size, void *ctx);
    /** Removes the archive; no archive is not an error. Returns 0 or a status code. */
    int (*remove)(void *ctx);
    /** Reads the launch guard count (0 when there is none). Returns 0 or a status code. */
    int (*read_guard)(int *out, void *ctx);
    /** Writes the launch guard count; 0 removes it. Returns 0 or a status code. */
    int (*write_guard)(int count, void *ctx);
} amber_store;

#define AMBER_STORE_VERSION 1
/** A store with every function NULL and its version set. */
#define AMBER_STORE_INIT AMBER_STRUCT_INIT_(AMBER_STORE_VERSION)

/** How archives are protected (R20). Every protected archive is AES-256-GCM under a per-archive
 *  key derived by HKDF-SHA256 from the master key and a random salt, sealed in chunks of 64 KiB
 *  (envelope format 2; format 1 archives of earlier releases are still read); its header (magic,
 *  format version, algorithm, salt, nonce prefix, chunk size, bundle version) is authenticated
 *  with every chunk, and chunks cut off, removed, repeated or reordered fail authentication. */
typedef enum amber_protection {
    /** The default. The master key is a key file of 32 random bytes, created with mode 0600 on
     *  the first save; a key file that group or others may read, that belongs to another user,
     *  that is a symbolic link, that is not a regular file (a FIFO, a directory, a socket, a
     *  device: never opened so as to block, never read, left as it is) or that is not 32 bytes
     *  is refused with AMBER_KEY_UNAVAILABLE, by a save (the previous archive kept) as by a
     *  launch (restoration deferred, the archive kept). A launch removes the temporary files
     *  (`.<name>.<hex>.tmp`) that a save killed while creating the key file left beside it. With
     *  memory_store: a random key that lives as long as the engine. */
    AMBER_PROTECTION_KEY_FILE = 0,
    /** The master key comes from key_callback. */
    AMBER_PROTECTION_KEY_CALLBACK = 1,
    /** The master key is fixed_key (tests, or a host that keeps its key elsewhere). */
    AMBER_PROTECTION_FIXED_KEY = 2,
    /** No encryption, an explicit choice: the archive still carries the envelope header, and
     *  the report and `amber` show that it is not encrypted. An engine that encrypts refuses
     *  an unencrypted archive (a downgrade) and the reverse. */
    AMBER_PROTECTION_NONE = 3
} amber_protection;

/** Options of a new engine. Every member left zero or NULL means the default: an archive in
 *  the default state directory, encrypted under a key file beside it (R20). */
typedef struct amber_engine_options {
    /** AMBER_ENGINE_OPTIONS_VERSION. */
    unsigned int version;
    /** The application's bundle version, recorded in every archive (R8). NULL: "0". */
    const char *bundle_version;
    /** The interface idiom recorded in every archive (R8), e.g. "desktop". NULL: "desktop". */
    const char *interface_idiom;
    /** Where archives are kept. NULL: a directory named by state_directory, or the default. */
    const amber_store *store;
    /** The store's context. */
    void *store_ctx;
    /** Called once with store_ctx when the engine no longer needs it; may be NULL. */
    void (*store_ctx_free)(void *ctx);
    /** The directory of the built-in file store. NULL: $XDG_STATE_HOME/<app-id>, else
     *  ~/.local/state/<app-id>. With `store` set, only where the default key file goes. */
    const char *state_directory;
    /** Non-zero: keep the archive in memory only (tests, or programs with nothing to keep). */
    int memory_store;
    /** How archives are protected (R20). Default (0): AMBER_PROTECTION_KEY_FILE. */
    amber_protection protection;
    /** AMBER_PROTECTION_KEY_FILE: the key file. NULL: `archive.key` in state_directory, else in the
     *  default state directory (also with a host store). Ignored with memory_store. */
    const char *key_file;
    /** AMBER_PROTECTION_FIXED_KEY: 32 bytes, copied at amber_engine_open(). */
    const uint8_t *fixed_key;
    /**
     * AMBER_PROTECTION_KEY_CALLBACK: writes the 32-byte master key into `key` and returns
     * AMBER_OK, or returns AMBER_KEY_UNAVAILABLE when the key cannot be had now (the device is
     * locked): restoration is then deferred, the archive kept, the launch fresh and the report
     * says why; a save fails with AMBER_KEY_UNAVAILABLE. Any other non-zero code is the
     * callback's own failure: a save returns that code unchanged (the previous archive kept); a
     * launch defers restoration as for AMBER_KEY_UNAVAILABLE (the archive kept,
     * AMBER_FRESH_KEY_UNAVAILABLE, the report's message naming the key provider and the code),
     * and amber_engine_snapshot() returns AMBER_KEY_UNAVAILABLE.
     * `for_saving` is 1 when sealing a new archive, 0 when opening one.
     */
    int (*key_callback)(uint8_t key[32], int for_saving, void *ctx);
    /** The key callback's context. */
    void *key_ctx;
    /** Called once with key_ctx when the engine no longer needs it; may be NULL. */
    void (*key_ctx_free)(void *ctx);
    /** Non-zero: after each launch or restore, keep the restoration's report on disk as
     *  `last-restore.report` beside the archive (in state_directory, else the default state
     *  directory), replacing the previous one, written atomically; `amber report` prints it. Like
     *  the log it holds no state values (paths, classes, outcomes, reasons only). 0 (default):
     *  kept only when the environment variable AMBER_KEEP_REPORT is "1". Ignored with
     *  memory_store. Since version 2. */
    int keep_restoration_report;
    /** Non-zero: a restoration that succeeds keeps the archive until the next save, for desktop
     *  programs (R32): a crash before that save restores it again. A restoration that completes
     *  clears the launch guard's count, so launches that complete never add up to
     *  AMBER_FRESH_CRASH_LOOP, while two in a row that crash while restoring still discard it (R14).
     *  0 (default): UIKit's behaviour, the archive is discarded once restored. Since version 3. */
    int keep_archive_after_restore;
    /** The most bytes one object's record may take in the archive (R31): an object whose record
     *  is larger is left out with everything under it (AMBER_LEFT_OUT_OVER_BUDGET, its entry's
     *  `size` the bytes it took), and the rest is saved. 0 (default): no budget per object.
     *  Since version 3. */
    uint64_t object_budget;
    /** The most bytes the archive may take before encryption (R31): a save over it writes
     *  nothing, amber_engine_preserve() returns AMBER_LIMIT_EXCEEDED, the previous archive is
     *  kept, and the preservation report says AMBER_NOT_SAVED_OVER_BUDGET and lists every
     *  object with its size (amber_preservation_largest_at() the largest). 0 (default), or more
     *  than the archive limit of R22 (512 MiB): that limit. Since version 3. */
    uint64_t archive_budget;
} amber_engine_options;

/** 3: keep_archive_after_restore, object_budget and archive_budget added at the end. 2:
 *  keep_restoration_report added at the end. Options of versions 1 and 2 (from hosts built with
 *  earlier headers) are still accepted: only their members are read, the others keep their
 *  defaults. */
#define AMBER_ENGINE_OPTIONS_VERSION 3
/** Options with every member at its default and the version set. */
#define AMBER_ENGINE_OPTIONS_INIT AMBER_STRUCT_INIT_(AMBER_ENGINE_OPTIONS_VERSION)

/**
 * Opens an engine for an application.
 *
 * @param out receives the engine.
 * @param app_id the application's identifier, e.g. "org.example.homepwner": a file name
 *        (no '/', not "." or "..", at most 255 bytes). Every archive the engine saves records
 *        it, and the engine restores only archives of its own application id (R9): another
 *        one's is AMBER_FRESH_OTHER_APPLICATION, and discarded. Archives of 0.2, which record
 *        none, restore in any application.
 * @param options NULL for the defaults.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (also for options or a store of an unknown version,
 *   a store with a NULL function, an unknown protection); AMBER_NOT_FOUND if no default state
 *   directory can be named (neither XDG_STATE_HOME nor HOME is set). The file store makes its
 *   directory (mode 0700) when it first writes, so a directory that cannot be made is AMBER_IO
 *   from amber_engine_preserve().
 * Ownership: the caller owns *out and closes it with amber_engine_close(). On failure
 *   store_ctx_free is not called.
 * Thread safety: safe from any thread.
 */
AMBER_API int amber_engine_open(amber_engine **out, const char *app_id, const amber_engine_options *options);

/**
 * Closes an engine: frees its objects, classes and callbacks' contexts (their ctx_free runs).
 *
 * @param engine an engine, or NULL (nothing happens).
 * Ownership: the engine and everything it owns are gone; borrowed pointers into it dangle.
 *   Reports stay valid (free them with amber_report_free()); their `object` pointers dangle.
 *   Closing an engine from one of its own callbacks is refused (AMBER_MISUSE is recorded for
 *   amber_error_last(); nothing happens).
 * Thread safety: no other thread may be using the engine.
 */
AMBER_API void amber_engine_close(amber_engine *engine);

/* ---------------------------------------------------------------------------------------- */
/* Classes, blueprints and the delegate (SPEC R5, R8-R13)                                    */
/* ---------------------------------------------------------------------------------------- */

/** A restoration class (UIViewControllerRestoration): makes an object for an archived path. */
typedef struct amber_restoration_class {
    /** AMBER_RESTORATION_CLASS_VERSION. */
    unsigned int version;
    /** Makes the object for `path` (`path_length` identifiers), reading `decoder` if it wishes;
     *  sets *out to the object, or to NULL to decline: then neither it nor anything under it is
     *  restored (R10). The object must be one of this engine's. Returns 0 or a code; a code (or
     *  an object of another engine) makes the record AMBER_OUTCOME_DECODE_ERROR. NULL make: the
     *  class does not stand in the way, the lookup goes on at R10 step 2. */
    int (*make)(amber_object **out, amber_engine *engine, const char *const *path,
                size_t path_length, amber_decoder *decoder, void *ctx);
} amber_restoration_class;

#define AMBER_RESTORATION_CLASS_VERSION 1
/** A restoration class with make NULL and its version set. */
#define AMBER_RESTORATION_CLASS_INIT AMBER_STRUCT_INIT_(AMBER_RESTORATION_CLASS_VERSION)

/**
 * Registers a restoration class by name.
 *
 * @param name the name objects give with amber_object_set_restoration_class().
 * @param cls copied.
 * @param ctx passed to make.
 * @param ctx_free called once with ctx when the engine closes; may be NULL.
 * @return AMBER_OK; AMBER_DUPLICATE if the name is registered; AMBER_INVALID_ARGUMENT (also
 *   for an unknown version).
 * Ownership: on failure ctx_free is not called. Thread safety: as the engine.
 */
AMBER_API int amber_engine_register_restoration_class(amber_engine *engine, const char *name,
                                                      const amber_restoration_class *cls, void *ctx,
                                                      void (*ctx_free)(void *ctx));

/**
 * Declares that class `name` is a subclass of `superclass_name`, for the class check (R11):
 * an object found for a record must be of the archived class or of a registered subclass.
 *
 * @return AMBER_OK; AMBER_DUPLICATE if `name` has a superclass already; AMBER_INVALID_ARGUMENT
 *   (also for a relation that would make a cycle).
 * Ownership: strings copied. Thread safety: as the engine.
 */
AMBER_API int amber_engine_register_subclass(amber_engine *engine, const char *name, const char *superclass_name);

/** What a migrate callback answers besides its status (R30). */
typedef enum amber_migration {
    /** The new coder holds the state of the current version. */
    AMBER_MIGRATION_DONE = 0,
    /** The old state is not migrated: the record and everything under it are not restored
     *  (AMBER_OUTCOME_DECLINED_VERSION), as for a restoration class that gives none. */
    AMBER_MIGRATION_DECLINED = 1
} amber_migration;

/** A migrate callback (R30): reads a record's state of version `from_version` from `old_state`
 *  and writes the values of version `to_version` (the class's current one) into `new_state`,
 *  which the object's lookup and decode callbacks then read in place of the archived state.
 *  *out is AMBER_MIGRATION_DONE when it is called; set it to AMBER_MIGRATION_DECLINED to
 *  decline. Returns 0 or a code; a code makes the record AMBER_OUTCOME_DECODE_ERROR. Both
 *  handles are valid only during the call; `new_state` cannot hold references to restorable
 *  objects (amber_coder_encode_object() fails there). */
typedef int (*amber_migrate_fn)(amber_migration *out, amber_coder *new_state, amber_decoder *old_state,
                                unsigned int from_version, unsigned int to_version, void *ctx);

/**
 * Declares the version of the state that objects of class `class_name` write (R30). Their
 * records are preserved with it (under the reserved key "amber.version"; a record without one,
 * as every record of Amber 0.2, is version 1). At restoration, a record archived with this
 * class name and an older version goes to `migrate` before its object is looked up; a record
 * of a newer version, or of an older one without `migrate`, is AMBER_OUTCOME_DECLINED_VERSION,
 * it and everything under it. The declaration is by class name: it covers objects made by a
 * restoration class, given by the delegate, found by implicit lookup or made by a blueprint
 * factory alike.
 *
 * @param class_name the class name the objects have (amber_object_class_name()).
 * @param version the current version, 1 or more.
 * @param migrate called for each older record; NULL: older records are declined.
 * @param ctx passed to migrate.
 * @param ctx_free called once with ctx when the engine closes; may be NULL.
 * @return AMBER_OK; AMBER_DUPLICATE if the class has a version already; AMBER_INVALID_ARGUMENT
 *   (an empty class name, version 0).
 * Ownership: class_name copied; on failure ctx_free is not called. Thread safety: as the engine.
 */
AMBER_API int amber_engine_register_state_version(amber_engine *engine, const char *class_name,
                                                  unsigned int version, amber_migrate_fn migrate, void *ctx,
                                                  void (*ctx_free)(void *ctx));

/** A blueprint factory (the analogue of a storyboard): makes objects by blueprint identifier. */
typedef struct amber_blueprint_factory {
    /** AMBER_BLUEPRINT_FACTORY_VERSION. */
    unsigned int version;
    /** Makes the object for `blueprint_id` (the whole identifier, e.g. "Main/Detail") at `path`;
     *  sets *out to it (an object of this engine) or to NULL. Returns 0 or a code; a code makes
     *  the record AMBER_OUTCOME_DECODE_ERROR. */
    int (*make)(amber_object **out, amber_engine *engine, const char *blueprint_id,
                const char *const *path, size_t path_length, amber_decoder *decoder, void *ctx);
} amber_blueprint_factory;

#define AMBER_BLUEPRINT_FACTORY_VERSION 1
/** A blueprint factory with make NULL and its version set. */
#define AMBER_BLUEPRINT_FACTORY_INIT AMBER_STRUCT_INIT_(AMBER_BLUEPRINT_FACTORY_VERSION)

/**
 * Registers a blueprint factory. A record whose blueprint identifier is "NAME" or begins with
 * "NAME/" is made by the factory named NAME (R10, step 4).
 *
 * @return AMBER_OK; AMBER_DUPLICATE; AMBER_INVALID_ARGUMENT (also for a name with '/', an
 *   unknown version).
 * Ownership: `factory` copied; ctx_free called once when the engine closes (not on failure).
 * Thread safety: as the engine.
 */
AMBER_API int amber_engine_register_blueprint_factory(amber_engine *engine, const char *name,
                                                      const amber_blueprint_factory *factory, void *ctx,
                                                      void (*ctx_free)(void *ctx));

/** The application delegate. Any member may be NULL; the defaults are given. */
typedef struct amber_delegate {
    /** AMBER_DELEGATE_VERSION. */
    unsigned int version;
    /** Whether to save at all (R5): non-zero saves; may write into the application coder. NULL:
     *  never save. */
    int (*should_save)(amber_engine *engine, amber_coder *app_coder, void *ctx);
    /** Called with the application coder at the start of preservation (R8). Returns 0 or a code. */
    int (*will_encode)(amber_engine *engine, amber_coder *app_coder, void *ctx);
    /** Whether to restore (R9), given the application decoder, whose bundleVersion,
     *  interfaceIdiom, timestamp and systemVersion are readable: non-zero restores. NULL: never
     *  restore. */
    int (*should_restore)(amber_engine *engine, amber_decoder *app_decoder, void *ctx);
    /** Called last in restoration with the application decoder (R13). Returns 0 or a code; a
     *  code is noted in the report's message. */
    int (*did_decode)(amber_engine *engine, amber_decoder *app_decoder, void *ctx);
    /** Finds an object for a path whose record has no restoration class (R10, step 2); sets
     *  *out (an object of this engine) or leaves it NULL. Returns 0 or a code; a code is noted
     *  in the report's message and the lookup goes on (R10 step 3). */
    int (*object_for_path)(amber_object **out, amber_engine *engine, const char *const *path,
                           size_t path_length, amber_decoder *decoder, void *ctx);
    /** The launch steps around restoration. */
    void (*will_finish_launching)(amber_engine *engine, void *ctx);
    void (*did_finish_launching)(amber_engine *engine, void *ctx);
} amber_delegate;

#define AMBER_DELEGATE_VERSION 1
/** A delegate with every callback NULL and its version set. */
#define AMBER_DELEGATE_INIT AMBER_STRUCT_INIT_(AMBER_DELEGATE_VERSION)

/**
 * Sets the engine's delegate, replacing the previous one (whose ctx_free then runs).
 *
 * @param delegate copied; NULL removes it.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT (also for an unknown version).
 * Ownership: ctx_free is called once when the delegate is replaced or the engine closes.
 * Thread safety: as the engine.
 */
AMBER_API int amber_engine_set_delegate(amber_engine *engine, const amber_delegate *delegate, void *ctx,
                                        void (*ctx_free)(void *ctx));

/* ---------------------------------------------------------------------------------------- */
/* Roots                                                                                     */
/* ---------------------------------------------------------------------------------------- */

/**
 * Adds a root (a window or scene); preservation starts at each root (R2).
 *
 * @return AMBER_OK; AMBER_DUPLICATE if it is a root already; AMBER_INVALID_ARGUMENT (also if it is
 *   not a controller or has a parent).
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_add_root(amber_engine *engine, amber_object *root);

/**
 * Removes a root.
 *
 * @return AMBER_OK or AMBER_NOT_FOUND.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_remove_root(amber_engine *engine, amber_object *root);

/* ---------------------------------------------------------------------------------------- */
/* Launching, preserving, the application's states (SPEC R2-R16, R23, R28)                   */
/* ---------------------------------------------------------------------------------------- */

/**
 * The launch sequence: will_finish_launching, then restoration (R9-R15), then
 * did_finish_launching. The host builds its default interface before calling (objects created
 * then are found by implicit lookup, R10 step 3). The application goes from not running to
 * `state` first — AMBER_APP_INACTIVE for an ordinary launch, AMBER_APP_BACKGROUND for a launch
 * into the background (a background fetch, say) — and AMBER_NOTIFICATION_DID_FINISH_LAUNCHING is
 * posted last (R23, R24: see amber_app_state). An observer of it that fails is noted in the
 * report's message.
 *
 * The state moves only from AMBER_APP_NOT_RUNNING; called while the application runs, the
 * launch restores again and leaves the state as it is.
 *
 * @param out receives the report of what was restored and why not (R16).
 * @param engine the engine.
 * @param state AMBER_APP_INACTIVE or AMBER_APP_BACKGROUND.
 * @return AMBER_OK (a fresh launch is not a failure: the report says why it was fresh);
 *   AMBER_INVALID_ARGUMENT (also for another state).
 * Ownership: the caller owns *out; free it with amber_report_free().
 * Thread safety: as the engine.
 */
AMBER_API int amber_engine_launch(amber_report **out, amber_engine *engine, amber_app_state state);

/**
 * Preserves the interface: asks should_save; calls will_encode; walks every root, asking each
 * preserved object's encode callback for its state; writes one archive atomically.
 *
 * An object whose encode callback fails is left out with everything under it, and the rest is
 * saved: the call still returns AMBER_OK. What was preserved and what was left out, and why —
 * restoration paths met twice among them — is in amber_engine_preservation() (R28).
 *
 * Preserve writes only what restoration reads (R22): an object whose path would be deeper
 * than 512 levels is left out with what is under it (AMBER_LEFT_OUT_TOO_DEEP), and a value
 * over 64 MiB is refused by the coder.
 *
 * Budgets (R31): an object whose record is over the option object_budget is left out with what
 * is under it (AMBER_LEFT_OUT_OVER_BUDGET) and the rest is saved (AMBER_OK); an archive over
 * archive_budget is not written (AMBER_LIMIT_EXCEEDED, AMBER_NOT_SAVED_OVER_BUDGET in the report,
 * which lists the largest objects).
 *
 * @param out_saved receives 1 if an archive was written, 0 if nothing was (no should_save, or
 *   it declined); may be NULL.
 * @param engine the engine.
 * @return AMBER_OK; should_save's or will_encode's code; AMBER_IO; AMBER_KEY_UNAVAILABLE; the
 *   key callback's own code; AMBER_INVALID_ARGUMENT; AMBER_LIMIT_EXCEEDED when the archive
 *   would be over its budget (archive_budget, at most 512 MiB) or 32 Mi objects. On failure the previous archive is kept, except
 *   AMBER_IO from the directory's fsync after the rename: the new archive is in place,
 *   durability not confirmed (the message says so). Something other than a regular file at the
 *   archive's path (a FIFO, a directory, a socket, a device) is AMBER_IO and left as it is.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_preserve(int *out_saved, amber_engine *engine);

/**
 * The report of the engine's last preservation, by amber_engine_preserve() or by the transition
 * to the background (R28): the archive's records in archive order, each preserved with its size
 * or left out because its encode callback (or one above it) failed; then every object of the
 * trees that was not recorded, with why; or why nothing was saved. A preserve that saved
 * nothing is never silent.
 *
 * @param out receives a new report.
 * @return AMBER_OK; AMBER_NOT_FOUND before the engine's first preservation;
 *   AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out; free it with amber_preservation_free(). Thread safety: as
 *   the engine.
 */
AMBER_API int amber_engine_preservation(amber_preservation **out, amber_engine *engine);

/* ---------------------------------------------------------------------------------------- */
/* Autosave (SPEC R32)                                                                       */
/* ---------------------------------------------------------------------------------------- */

/** When the engine saves on its own after objects are marked dirty (amber_object_mark_dirty),
 *  and whether a save calls only the dirty objects' encode callbacks (R32). Amber has no event
 *  loop: the host's loop waits at most amber_engine_autosave_timeout() and calls
 *  amber_engine_tick(). The move to the background saves whatever the policy (R23). */
typedef struct amber_autosave {
    /** AMBER_AUTOSAVE_VERSION. */
    unsigned int version;
    /** How long after the last change a save is due, in milliseconds: a burst of changes makes
     *  one save. 0: the engine's default (two seconds); negative: no wait. At most a day. */
    int quiet_ms;
    /** The shortest time from one save to the next, in milliseconds. 0: the engine's default
     *  (thirty seconds); negative: none. At most a day. */
    int min_interval_ms;
    /** 0 (default): a save calls the encode callbacks of the objects marked dirty since their
     *  last save (and of new objects, and of those that wrote a reference or a coding-class
     *  object), and writes again what the others wrote last time: the host must then mark
     *  every object whose state changes. The archive is the same as a full save's. Non-zero:
     *  every save calls every callback. */
    int full_saves;
} amber_autosave;
#define AMBER_AUTOSAVE_VERSION 1
/** A policy with every member at its default and the version set. */
#define AMBER_AUTOSAVE_INIT AMBER_STRUCT_INIT_(AMBER_AUTOSAVE_VERSION)

/**
 * Sets the engine's autosave policy (R32), or turns autosave off.
 *
 * @param engine the engine.
 * @param policy copied; NULL turns autosave off (the default), and every save then calls every
 *   encode callback.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (also for an unknown version, a time above a day).
 * Ownership: none kept. Thread safety: as the engine.
 */
AMBER_API int amber_engine_set_autosave(amber_engine *engine, const amber_autosave *policy);

/**
 * How long the host's event loop may wait before calling amber_engine_tick() (R32), on the
 * monotonic clock.
 *
 * @param out_ms receives the milliseconds until a save is due: 0 when it is due now, -1 when
 *   nothing is to be saved (autosave off, or no object marked dirty since the last save).
 * @param engine the engine.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_autosave_timeout(int *out_ms, amber_engine *engine);

/**
 * Saves if autosave is due (amber_engine_autosave_timeout() gives 0), as
 * amber_engine_preserve() does; otherwise does nothing. Called from one of the engine's
 * callbacks, it does nothing.
 *
 * @param out_saved receives 1 if an archive was written, else 0; may be NULL.
 * @param engine the engine.
 * @return AMBER_OK; what amber_engine_preserve() returns when the save fails (the changes stay
 *   unsaved, and the save is tried again after the quiet time and the minimum interval).
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_tick(int *out_saved, amber_engine *engine);

/**
 * Reports a transition of the application's state (R23), from the current state to `state`;
 * see amber_app_state for the transitions allowed and what the engine does for each. Entering
 * the background preserves the interface when the delegate's should_save agrees.
 *
 * Once allowed, the transition happens whatever observers and preservation do: afterwards
 * amber_engine_app_state() is `state` even when this returns an error.
 *
 * @param out_saved receives 1 if entering the background wrote an archive, else 0; may be NULL.
 * @param engine the engine.
 * @param state the new state.
 * @return AMBER_OK; AMBER_MISUSE for a transition that is not allowed (the message names both
 *   states; nothing happens), for leaving AMBER_APP_NOT_RUNNING other than by a launch, and
 *   for a transition asked from an observer of another transition; AMBER_INVALID_ARGUMENT for
 *   NULL or an unknown state. After the change: preservation's error (AMBER_IO, a callback's
 *   code, ...; the previous archive is kept), else the first non-zero code an observer returned.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_transition(int *out_saved, amber_engine *engine, amber_app_state state);

/**
 * The engine's application state.
 *
 * @return the state; AMBER_APP_INVALID for NULL or a closed engine (amber_error_last() says
 *   which).
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API amber_app_state amber_engine_app_state(const amber_engine *engine);

/**
 * Reports that the system is short of memory: posts AMBER_NOTIFICATION_DID_RECEIVE_MEMORY_WARNING
 * (sender: the engine), whatever the state. Observers release what they can make again (the
 * seeds' image cache).
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT; the first non-zero code an observer returned.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_report_memory_warning(amber_engine *engine);

/**
 * Discards the archive on purpose (the user force-quit, signed out) (R14).
 *
 * @return AMBER_OK or AMBER_IO.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_discard(amber_engine *engine);

/**
 * Extends restoration while the host loads data it needs (R15): the archive is kept until every
 * extension is completed.
 *
 * @param out receives a token for amber_engine_complete_restoration().
 * @return AMBER_OK; AMBER_MISUSE outside a restoration (call it from a restoration callback) or
 *   after it completed.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_extend_restoration(uint64_t *out, amber_engine *engine);

/**
 * Completes an extension; when the last completes, the archive is discarded.
 *
 * @return AMBER_OK; AMBER_NOT_FOUND for an unknown or completed token.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_complete_restoration(amber_engine *engine, uint64_t token);

/**
 * Keeps the records that find no object at the next restorations in memory for `milliseconds`
 * after each (R35), with their archived subtrees, for objects the host creates later (a tab
 * opened after launch): such an object claims its state with amber_object_restore_pending().
 * At the deadline, or at amber_engine_end_restoration(), the records still kept are dropped and
 * their bytes zeroed, and the report (amber_engine_restoration_report()) says so. Amber has no
 * event loop: the deadline is checked when the engine is called (amber_object_restore_pending,
 * amber_engine_restoration_report, amber_engine_preserve, amber_engine_transition, a launch).
 * Until then each save carries the records still kept into its archive as they were restored
 * (AMBER_LEFT_OUT_CARRIED in its report; an object of the trees with the same path wins), so a
 * screen opened after an autosave, or at a later launch, still gets its state; a state with
 * sensitive values (R34) is carried only into an encrypted archive (AMBER_LEFT_OUT_NOT_CARRIED).
 * Call it before amber_engine_launch().
 *
 * @param milliseconds how long; 0 (the default) keeps none.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_keep_unclaimed(amber_engine *engine, uint64_t milliseconds);

/**
 * Ends restoration for the records kept after it (R35): they are dropped now, their bytes
 * zeroed, and the report says so. Nothing happens if none are kept.
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT or AMBER_MISUSE for a bad engine.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_end_restoration(amber_engine *engine);

/**
 * The report of the engine's last restoration (R16) as it stands now: with the records claimed
 * since by amber_object_restore_pending() (R35) and the notes on kept records dropped since.
 * The deadline of the kept records is checked first.
 *
 * @param out receives a new report; free it with amber_report_free().
 * @return AMBER_OK; AMBER_NOT_FOUND before the first restoration; AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out. Thread safety: as the engine.
 */
AMBER_API int amber_engine_restoration_report(amber_report **out, amber_engine *engine);

/* ---------------------------------------------------------------------------------------- */
/* Snapshots (SPEC R21)                                                                      */
/* ---------------------------------------------------------------------------------------- */

/**
 * Attaches a snapshot of the interface (a PNG, say) to the next preservation that writes an
 * archive (R21), replacing one attached before; NULL with size 0 removes it. Call it before
 * amber_engine_preserve() or from one of its callbacks. The snapshot belongs to that archive
 * only: a later preservation carries none unless another is attached. It is stored inside the
 * archive, so the envelope that protects the archive (its authenticated encryption, R20)
 * protects the snapshot too, it is written atomically with it, and it is discarded with it (R14).
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (NULL bytes with a size); AMBER_LIMIT_EXCEEDED beyond
 *   64 MiB.
 * Ownership: the bytes are copied. Thread safety: as the engine.
 */
AMBER_API int amber_engine_set_snapshot(amber_engine *engine, const void *bytes, size_t size);

/**
 * Asks that the snapshot not be used at the next launch (UIKit's
 * ignoreSnapshotOnNextApplicationLaunch): the next archive written records that its snapshot is
 * ignored, and leaves the bytes out. Call it before or during the preservation it is for.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_engine_ignore_snapshot(amber_engine *engine);

/**
 * The snapshot of the archive there is, to show while restoring: before amber_engine_launch()
 * it is read from the store (and opened like the archive); from a callback during restoration,
 * it is the snapshot of the archive being restored. After the restore attempt the archive is
 * discarded, and its snapshot with it.
 *
 * @param out receives a copy of the bytes; release it with amber_buf_dispose().
 * @return AMBER_OK; AMBER_NOT_FOUND when there is no archive, no snapshot in it, or the host
 *   asked to ignore it (the message says which); AMBER_CORRUPT, AMBER_KEY_UNAVAILABLE, AMBER_IO
 *   when the archive cannot be read; AMBER_INVALID_ARGUMENT.
 * Ownership: *out is the caller's. Thread safety: as the engine.
 */
AMBER_API int amber_engine_snapshot(amber_buf *out, amber_engine *engine);

/* ---------------------------------------------------------------------------------------- */
/* The log of one engine (SPEC R29)                                                          */
/* ---------------------------------------------------------------------------------------- */

/**
 * Sets where an engine's log lines go, at `level` and above; NULL `fn` removes it (the
 * process-wide function of amber_set_log() then takes the engine's lines).
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for a level out of range.
 * Ownership: `ctx_free` (optional) is called once with `ctx` when Amber no longer needs it: after
 *   the function is replaced or removed, or when the engine closes; on failure it is not called.
 *   Thread safety: as the engine; `fn` is called on the thread that uses the engine.
 */
AMBER_API int amber_engine_set_log(amber_engine *engine, amber_log_level level, amber_log_fn fn, void *ctx,
                                   void (*ctx_free)(void *ctx));

#ifdef __cplusplus
}
#endif

#endif /* AMBER_ENGINE_H */

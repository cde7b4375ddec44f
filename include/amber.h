/*
 * amber.h — the C interface of Amber, UI state preservation and restoration for any program.
 *
 * This header is the whole contract: a function that is not declared here is not API.
 *
 * Conventions (house style, after SQLite, libgit2 and zstd):
 * - Fallible functions return a status code, AMBER_OK (0) on success. On failure,
 *   amber_error_last() gives a message naming the problem, on the calling thread.
 * - Out parameters come first and are named `out`. What comes back through `T **out` belongs
 *   to the caller, who releases it with the free function named in its documentation. Pointers
 *   returned directly are borrowed and live as long as their parent, as documented.
 * - Input strings are UTF-8, NUL-terminated, and copied; invalid UTF-8 is AMBER_INVALID_ARGUMENT.
 *   Input buffers are copied unless documented otherwise.
 * - Every constructor has a free or close function; passing NULL to it does nothing.
 * - Callbacks take a context pointer as their last parameter. When Amber keeps a callback
 *   beyond the call that registers it, it also takes an optional `ctx_free`, called once when
 *   Amber no longer needs the context. A callback reports its own failure by returning a
 *   non-zero code; Amber stops the operation and passes that code up unchanged.
 * - Structs of callbacks carry a `version` field first and only ever grow at the end. Fill
 *   them with their `_init` function (usable from languages without macros).
 * - Nothing Amber is given — arguments, callbacks' answers, archives — may abort the host
 *   process: bad input is an error code.
 *
 * Thread safety: an engine and everything that belongs to it (objects, coders, reports,
 * notifications and observers) may be used by one thread at a time; separate engines may be
 * used from separate threads at once. The same holds for a user info, and for a coding registry
 * with the archivers and unarchivers made with it. amber_error_last() is per thread. The
 * functions that take none of these handles are safe from any thread.
 *
 * Handles: every amber_* handle (engine, object, coder, decoder, report, user info,
 * notification, coding registry, archiver, unarchiver, view state) is an opaque token, not an
 * address; never dereference one. Amber checks every handle it is given: NULL is
 * AMBER_INVALID_ARGUMENT; a freed handle, a coder, decoder or view state kept past its callback,
 * a handle of another kind or a pointer Amber never gave out is AMBER_MISUSE (a freed handle
 * stays detectable until its slot has been reused 2^32 times).
 */
#ifndef AMBER_H
#define AMBER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Versions                                                                                  */
/* ---------------------------------------------------------------------------------------- */

#define AMBER_VERSION_MAJOR 0
#define AMBER_VERSION_MINOR 1
#define AMBER_VERSION_PATCH 0
/** MAJOR * 1000000 + MINOR * 1000 + PATCH. */
#define AMBER_VERSION_NUMBER (AMBER_VERSION_MAJOR * 1000000 + AMBER_VERSION_MINOR * 1000 + AMBER_VERSION_PATCH)

/**
 * The version of the library loaded, as AMBER_VERSION_NUMBER computes it, so that a host can
 * check the library matches the header it was compiled against.
 *
 * @return MAJOR * 1000000 + MINOR * 1000 + PATCH.
 * Ownership: none.
 * Thread safety: safe from any thread.
 */
int amber_version_number(void);

/**
 * The version of the library loaded as text, e.g. "0.1.0".
 *
 * @return a static string.
 * Ownership: borrowed; lives as long as the library is loaded.
 * Thread safety: safe from any thread.
 */
const char *amber_version_string(void);

/* ---------------------------------------------------------------------------------------- */
/* Status codes and errors                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** Status codes. Every fallible function returns one of these. */
typedef enum amber_status {
    AMBER_OK = 0,
    /** A NULL handle or string, invalid UTF-8, a value out of range, an unknown kind. */
    AMBER_INVALID_ARGUMENT = 1,
    /** No such key, class, object, archive or record. */
    AMBER_NOT_FOUND = 2,
    /** A value exists but is of another type than asked for. */
    AMBER_TYPE_MISMATCH = 3,
    /** A key that the engine reserves for itself (SPEC R7). */
    AMBER_RESERVED_KEY = 4,
    /** A name registered twice, a restoration path met twice. */
    AMBER_DUPLICATE = 5,
    /** The file system refused (the message names the call and errno). */
    AMBER_IO = 6,
    /** An archive is damaged or is not an Amber archive. */
    AMBER_CORRUPT = 7,
    /** The key provider says the key is unavailable (device locked). */
    AMBER_KEY_UNAVAILABLE = 8,
    /** An archive does not authenticate: tampered, or the wrong key. */
    AMBER_AUTHENTICATION_FAILED = 9,
    /** A limit on size, count, length or nesting was exceeded. */
    AMBER_LIMIT_EXCEEDED = 10,
    /** A call at the wrong moment: a handle used after it was freed or never given out, a coder
     *  used outside its callback, a transition that is not allowed. */
    AMBER_MISUSE = 11,
    /** A host callback failed without a code of its own (it gave an object of another engine, a
     *  store gave no buffer); a callback's own non-zero code is passed up unchanged, whatever
     *  its value. */
    AMBER_CALLBACK_FAILED = 12
} amber_status;

/*
 * Limits on what Amber reads (R22). Every archive and every keyed archive is checked against them
 * before anything is allocated by a declared size or count, and before any recursion: a file or
 * buffer over a limit is AMBER_LIMIT_EXCEEDED (a restoration: a fresh launch, the archive
 * discarded, the reason in the report), never an allocation it cannot afford or a deep stack.
 */
/** The largest keyed archive (a property list) read, in bytes: 512 MiB. */
#define AMBER_LIMIT_ARCHIVE_BYTES (512L * 1024 * 1024)
/** The largest file the built-in file store reads (the archive in its envelope): 1 GiB. */
#define AMBER_LIMIT_STORED_BYTES (1024L * 1024 * 1024)
/** The most objects a property list may declare: 32 Mi. */
#define AMBER_LIMIT_OBJECTS (32L * 1024 * 1024)
/** The deepest nesting of containers, and of objects decoded inside objects: 512. */
#define AMBER_LIMIT_DEPTH 512
/** The longest string or data value, in bytes: 64 MiB. */
#define AMBER_LIMIT_VALUE_BYTES (64L * 1024 * 1024)

/**
 * The message of the last failure on the calling thread.
 *
 * @return a message; "" if no call on this thread has failed. Never NULL.
 * Ownership: borrowed; valid until the next Amber call on the same thread.
 * Thread safety: per thread.
 */
const char *amber_error_last(void);

/**
 * The status code of the last failure on the calling thread (AMBER_OK if none).
 *
 * Ownership: none. Thread safety: per thread.
 */
int amber_error_last_code(void);

/**
 * Forgets the last failure on the calling thread.
 *
 * Ownership: none. Thread safety: per thread.
 */
void amber_error_clear(void);

/**
 * The name of a status code, e.g. "AMBER_NOT_FOUND".
 *
 * @param status any value; unknown values give "AMBER_UNKNOWN_STATUS".
 * @return a static string, never NULL.
 * Ownership: borrowed; static.
 * Thread safety: safe from any thread.
 */
const char *amber_status_string(int status);

/* ---------------------------------------------------------------------------------------- */
/* Handles                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** An engine: the restorable objects of one program, its classes, its delegate, its store. */
typedef struct amber_engine amber_engine;
/** A restorable object: a controller, a view or a plain object (SPEC R1). Owned by its engine. */
typedef struct amber_object amber_object;
/** A coder an encode callback writes an object's state into. Borrowed for one callback. */
typedef struct amber_coder amber_coder;
/** A decoder a callback reads an object's state from. Borrowed for one callback. */
typedef struct amber_decoder amber_decoder;
/** What a restore did, object by object (SPEC R16). */
typedef struct amber_report amber_report;
/** What a preservation did, object by object (SPEC R28). */
typedef struct amber_preservation amber_preservation;

/** The kind of a restorable object. */
typedef enum amber_kind {
    AMBER_KIND_CONTROLLER = 0,
    AMBER_KIND_VIEW = 1,
    AMBER_KIND_OBJECT = 2
} amber_kind;

/* ---------------------------------------------------------------------------------------- */
/* Engines                                                                                   */
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

/**
 * Fills a store with zeros and its version.
 *
 * @param store the struct to fill.
 * @param version AMBER_STORE_VERSION.
 * @return AMBER_OK, or AMBER_INVALID_ARGUMENT for NULL or an unknown version.
 * Ownership: none. Thread safety: safe from any thread.
 */
int amber_store_init(amber_store *store, unsigned int version);

/** Options of a new engine. */
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
    /** How archives are protected (R20): an amber_protection. Default AMBER_PROTECTION_KEY_FILE. */
    int protection;
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
} amber_engine_options;

/** How archives are protected (R20). Every protected archive is AES-256-GCM under a per-archive
 *  key derived by HKDF-SHA256 from the master key and a random salt, sealed in chunks of 1 MiB
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

#define AMBER_ENGINE_OPTIONS_VERSION 1

/**
 * Fills engine options with the defaults and their version.
 *
 * @param options the struct to fill.
 * @param version AMBER_ENGINE_OPTIONS_VERSION.
 * @return AMBER_OK, or AMBER_INVALID_ARGUMENT for NULL or an unknown version.
 * Ownership: none. Thread safety: safe from any thread.
 */
int amber_engine_options_init(amber_engine_options *options, unsigned int version);

/**
 * Opens an engine for an application.
 *
 * @param out receives the engine.
 * @param app_id the application's identifier, e.g. "org.example.homepwner": a file name
 *        (no '/', not "." or "..", at most 255 bytes).
 * @param options NULL for the defaults.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (also for a store of an unknown version or with a
 *   NULL function); AMBER_NOT_FOUND if no default state directory can be named (neither
 *   XDG_STATE_HOME nor HOME is set). The file store makes its directory (mode 0700) when it first
 *   writes, so a directory that cannot be made is AMBER_IO from amber_engine_preserve().
 * Ownership: the caller owns *out and closes it with amber_engine_close(). On failure
 *   store_ctx_free is not called.
 * Thread safety: safe from any thread.
 */
int amber_engine_open(amber_engine **out, const char *app_id, const amber_engine_options *options);

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
void amber_engine_close(amber_engine *engine);

/* ---------------------------------------------------------------------------------------- */
/* Restorable objects (SPEC R1–R4)                                                           */
/* ---------------------------------------------------------------------------------------- */

/** The callbacks of a restorable object. Any may be NULL. */
typedef struct amber_object_callbacks {
    /** AMBER_OBJECT_CALLBACKS_VERSION. */
    unsigned int version;
    /** Writes the object's state while preserving (R6). Returns 0 or a code. */
    int (*encode)(amber_object *object, amber_coder *coder, void *ctx);
    /** Reads the object's state while restoring, after every object exists (R12). Returns 0 or
     *  a code; a failure is recorded in the report and restoration goes on. */
    int (*decode)(amber_object *object, amber_decoder *decoder, void *ctx);
    /** Called on every restored object once all have decoded (R13). */
    void (*finished_restoring)(amber_object *object, void *ctx);
} amber_object_callbacks;

#define AMBER_OBJECT_CALLBACKS_VERSION 1

/**
 * Fills object callbacks with NULLs and their version.
 *
 * @return AMBER_OK, or AMBER_INVALID_ARGUMENT for NULL or an unknown version.
 * Ownership: none. Thread safety: safe from any thread.
 */
int amber_object_callbacks_init(amber_object_callbacks *callbacks, unsigned int version);

/**
 * Creates a restorable object.
 *
 * @param out receives the object.
 * @param engine its engine.
 * @param kind an amber_kind.
 * @param class_name the object's class, e.g. "ItemsViewController" (not empty).
 * @param restoration_id its restoration identifier, or NULL for none (R2: then it and what
 *        hangs under it are not preserved).
 * @param callbacks NULL for none; copied.
 * @param ctx passed to the callbacks.
 * @param ctx_free called once with ctx when the object is freed; may be NULL.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the engine owns the object; it lives until amber_object_free() or the engine is
 *   closed. On failure ctx_free is not called.
 * Thread safety: as the engine.
 */
int amber_object_new(amber_object **out, amber_engine *engine, int kind, const char *class_name,
                     const char *restoration_id, const amber_object_callbacks *callbacks,
                     void *ctx, void (*ctx_free)(void *ctx));

/**
 * Frees an object: detaches it from its parent, its children and views from it, and calls its
 * ctx_free. Objects under it are not freed.
 *
 * @param object an object, or NULL (nothing happens).
 * Ownership: the handle dangles afterwards.
 * Thread safety: as the engine.
 */
void amber_object_free(amber_object *object);

/**
 * Sets or clears (NULL) an object's restoration identifier.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the string is copied. Thread safety: as the engine.
 */
int amber_object_set_identifier(amber_object *object, const char *restoration_id);

/**
 * Names the restoration class that recreates the object at launch (R10, step 1), or NULL.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the string is copied. Thread safety: as the engine.
 */
int amber_object_set_restoration_class(amber_object *object, const char *class_name);

/**
 * Records the blueprint the object was made from (the analogue of a storyboard identifier;
 * R6, R10 step 4), or NULL.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the string is copied. Thread safety: as the engine.
 */
int amber_object_set_blueprint(amber_object *object, const char *blueprint_id);

/**
 * Declares a controller a stack container (a navigation stack): children with the same
 * identifier are told apart by their position (R3).
 *
 * @return AMBER_OK, or AMBER_INVALID_ARGUMENT if the object is not a controller.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_object_set_stack(amber_object *object, int is_stack);

/**
 * Appends a child controller to a controller (containment). A child that has a parent is
 * moved.
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT if either is not a controller, or the child is the
 *   parent or one of its ancestors.
 * Ownership: none (both belong to the engine). Thread safety: as the engine.
 */
int amber_object_add_child(amber_object *parent, amber_object *child);

/**
 * Removes a child controller from its parent.
 *
 * @return AMBER_OK, or AMBER_NOT_FOUND if it is not a child of `parent`.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_object_remove_child(amber_object *parent, amber_object *child);

/**
 * Presents a controller modally from another; NULL dismisses. As in UIKit, a controller that
 * already presents one must dismiss it first: presenting another is refused, not a silent
 * replacement (presenting the same one again does nothing).
 *
 * @return AMBER_OK; AMBER_MISUSE if the presenter already presents another controller (the
 *   message names both); AMBER_INVALID_ARGUMENT if either is not a controller or the presented
 *   one is the presenter or one of its ancestors. Nothing changes on an error.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_object_present(amber_object *presenter, amber_object *presented);

/**
 * Adds a view to a controller.
 *
 * @return AMBER_OK, or AMBER_INVALID_ARGUMENT if `controller` is not a controller or `view`
 *   not a view.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_object_add_view(amber_object *controller, amber_object *view);

/**
 * Names the restoration parent of a plain object (UIStateRestoring's restorationParent).
 *
 * @param parent a controller or object, or NULL.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_object_set_restoration_parent(amber_object *object, amber_object *parent);

/**
 * The object's context pointer, as given to amber_object_new().
 *
 * @return the context (may be NULL; NULL also for a NULL object).
 * Ownership: the host's. Thread safety: as the engine.
 */
void *amber_object_context(const amber_object *object);

/**
 * The object's class name.
 *
 * @return the name, or "" for NULL.
 * Ownership: borrowed; valid until the object is freed or its class name changes.
 * Thread safety: as the engine.
 */
const char *amber_object_class_name(const amber_object *object);

/**
 * The object's restoration identifier.
 *
 * @return the identifier, or NULL if it has none (or the object is NULL).
 * Ownership: borrowed; valid until the object is freed or the identifier changes (restoration
 *   gives an object found without an identifier the archived one).
 * Thread safety: as the engine.
 */
const char *amber_object_identifier(const amber_object *object);

/**
 * The object's kind, an amber_kind, or -1 for NULL.
 *
 * Ownership: none. Thread safety: as the engine.
 */
int amber_object_kind(const amber_object *object);

/**
 * The object's restoration path joined with '/' (R3), e.g. "Nav/Items/Detail".
 *
 * @param out receives the path; free it with amber_string_free().
 * @return AMBER_OK, or AMBER_NOT_FOUND if the object or an ancestor has no identifier.
 * Ownership: the caller owns *out. Thread safety: as the engine.
 */
int amber_object_path(char **out, const amber_object *object);

/**
 * Frees a string Amber returned through an out parameter.
 *
 * @param string a string, or NULL (nothing happens).
 * Ownership: the string is gone. Thread safety: safe from any thread.
 */
void amber_string_free(char *string);

/**
 * Adds a root (a window or scene); preservation starts at each root (R2).
 *
 * @return AMBER_OK; AMBER_DUPLICATE if it is a root already; AMBER_INVALID_ARGUMENT (also if it is
 *   not a controller or has a parent).
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_add_root(amber_engine *engine, amber_object *root);

/**
 * Removes a root.
 *
 * @return AMBER_OK or AMBER_NOT_FOUND.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_remove_root(amber_engine *engine, amber_object *root);

/* ---------------------------------------------------------------------------------------- */
/* Coders (SPEC R6, R7, R12, R4)                                                             */
/* ---------------------------------------------------------------------------------------- */

/*
 * Reserved keys (R7, R8). No coder accepts them (AMBER_RESERVED_KEY): they name what the
 * engine records. The application decoder (should_restore, did_decode) reads the metadata the
 * engine records at every save under its own names and under UIKit's:
 *
 *   key                                                type     what
 *   bundleVersion                                      string   the host's bundle version
 *   UIApplicationStateRestorationBundleVersionKey      string   (the same)
 *   interfaceIdiom                                     string   the interface idiom
 *   UIApplicationStateRestorationUserInterfaceIdiomKey string   (the same)
 *   timestamp                                          date     when the archive was saved
 *   UIApplicationStateRestorationTimestampKey          date     (the same)
 *   systemVersion                                      string   the kernel release (uname -r)
 *   UIApplicationStateRestorationSystemVersionKey      string   (the same)
 *
 * Also reserved, in every coder: blueprint, restorationClass, restorationPath, className, kind,
 * UIStateRestorationViewControllerStoryboardKey, UIKit's names above without "Key", and every
 * key beginning with "amber." (a view's standard state is kept under "amber.view.*"). What a
 * record holds besides its state (kind, class, blueprint, stack position) is read with
 * amber_decoder_record().
 */

/**
 * Encoders: write a value under a key into the object's own coder. Keys are UTF-8, not empty.
 *
 * @return AMBER_OK; AMBER_RESERVED_KEY for a key the engine keeps for itself (R7: the keys
 *   beginning with "amber." and bundleVersion, interfaceIdiom, timestamp, systemVersion,
 *   blueprint, restorationClass, restorationPath, className, kind and UIKit's names for them:
 *   see "Reserved keys" above);
 *   AMBER_DUPLICATE for a key written twice in the same coder; AMBER_INVALID_ARGUMENT;
 *   AMBER_MISUSE outside the callback;
 *   AMBER_LIMIT_EXCEEDED for a string or bytes over 64 MiB (a string counted as the archive
 *   stores it: ASCII bytes, else UTF-16 code units), the limit restoration reads with (R22):
 *   nothing is written, and an encode callback that passes the code on leaves its object out.
 * Ownership: strings and bytes are copied. Thread safety: as the engine.
 */
int amber_coder_encode_bool(amber_coder *coder, const char *key, int value);
int amber_coder_encode_int64(amber_coder *coder, const char *key, int64_t value);
int amber_coder_encode_double(amber_coder *coder, const char *key, double value);
int amber_coder_encode_string(amber_coder *coder, const char *key, const char *value);
int amber_coder_encode_bytes(amber_coder *coder, const char *key, const void *bytes, size_t size);
/** A date: seconds since 2001-01-01T00:00:00Z (NSDate). */
int amber_coder_encode_date(amber_coder *coder, const char *key, double seconds_since_2001);
/** An index path of `length` indexes (NSIndexPath); `indexes` may be NULL when length is 0. */
int amber_coder_encode_index_path(amber_coder *coder, const char *key, const int64_t *indexes, size_t length);
/** A reference to another restorable object (R4), or NULL for none, from an object's coder or
 *  the application coder (should_save, will_encode). If the object has a restoration
 *  identifier it is preserved with its state, even if the walk left it out (the children of a
 *  container without an identifier, a plain object); its path is then its own identifier under
 *  those of its ancestors that have one. An object without an identifier is
 *  AMBER_INVALID_ARGUMENT; one whose path another preserved object has is AMBER_DUPLICATE. At
 *  restore the reference decodes to the object restored for it, from an object's decoder or
 *  from the application decoder in did_decode. */
int amber_coder_encode_object_ref(amber_coder *coder, const char *key, amber_object *object);

/**
 * Decoders: read the value under a key from the object's own coder (R12).
 *
 * @param out receives the value.
 * @return AMBER_OK; AMBER_NOT_FOUND for a missing key; AMBER_TYPE_MISMATCH for a value of
 *   another type; AMBER_INVALID_ARGUMENT; AMBER_MISUSE outside the callback.
 * Ownership: see each function. Thread safety: as the engine.
 */
int amber_decoder_decode_bool(int *out, amber_decoder *decoder, const char *key);
int amber_decoder_decode_int64(int64_t *out, amber_decoder *decoder, const char *key);
/** Integers are accepted and converted. */
int amber_decoder_decode_double(double *out, amber_decoder *decoder, const char *key);
/** *out is borrowed: valid until the callback returns. */
int amber_decoder_decode_string(const char **out, amber_decoder *decoder, const char *key);
/** *out and *out_size are borrowed: valid until the callback returns. */
int amber_decoder_decode_bytes(const uint8_t **out, size_t *out_size, amber_decoder *decoder, const char *key);
int amber_decoder_decode_date(double *out, amber_decoder *decoder, const char *key);
/** Copies at most `capacity` indexes into `out` and sets *out_length to the path's length
 *  (call with capacity 0 to learn it). */
int amber_decoder_decode_index_path(int64_t *out, size_t capacity, size_t *out_length, amber_decoder *decoder, const char *key);
/** The object restored for the record a reference names (R4), from an object's decoder or the
 *  application decoder (did_decode), or NULL (AMBER_OK) for a null reference or a record
 *  nothing was found for. A record whose object failed the class check (R11) gives that
 *  object, kept but not decoded. In lookup callbacks and should_restore, objects not made yet
 *  give NULL: references resolve fully in decode callbacks and did_decode. */
int amber_decoder_decode_object_ref(amber_object **out, amber_decoder *decoder, const char *key);

/**
 * Decodes a reference as amber_decoder_decode_object_ref() does, with secure decoding (R12):
 * the referenced object must be of one of `classes` or of a registered subclass of one
 * (amber_engine_register_subclass()) — both the class the archive records for it and, when an
 * object was found for it, that object's class. A null reference gives NULL (AMBER_OK).
 *
 * @param out receives the object, or NULL.
 * @param classes `class_count` class names (UTF-8, not empty); at least one.
 * @return AMBER_OK; AMBER_TYPE_MISMATCH for a class not allowed (the message names it) or a
 *   value that is not a reference; AMBER_NOT_FOUND for a missing key; AMBER_INVALID_ARGUMENT
 *   (no classes, a NULL or invalid class name);
 *   AMBER_MISUSE outside the callback.
 * Ownership: *out is borrowed from the engine; `classes` is read during the call only.
 * Thread safety: as the engine.
 */
int amber_decoder_decode_object_ref_of_classes(amber_object **out, amber_decoder *decoder, const char *key,
                                               const char *const *classes, size_t class_count);

/**
 * Whether the decoder has a value for a key: 1 or 0 (0 also for bad arguments).
 *
 * Ownership: none. Thread safety: as the engine.
 */
int amber_decoder_contains(amber_decoder *decoder, const char *key);

/** What the archive records of the object a decoder reads, besides its state (R6, R3). */
typedef struct amber_record_info {
    /** An amber_kind. */
    int kind;
    /** The archived class name. */
    const char *class_name;
    /** The blueprint it was made from (UIKit's storyboard), or NULL. */
    const char *blueprint;
    /** Its position among the children of a stack with the same identifier (0: the first, and
     *  always outside a stack). The last path component is the identifier as set (R3). */
    size_t position;
} amber_record_info;

/**
 * Reads what the archive records of the object a decoder reads: every lookup callback
 * (restoration class, object_for_path, blueprint factory) can tell what it is asked for (R10),
 * and decode callbacks can too.
 *
 * @param out filled with strings borrowed from the decoder, valid during the callback.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for the application decoder or a NULL argument;
 *   AMBER_MISUSE outside the callback.
 * Ownership: see `out`. Thread safety: as the engine.
 */
int amber_decoder_record(amber_record_info *out, amber_decoder *decoder);

/** The type of a value: of an amber_keyed_value, and of a user info's values. */
typedef enum amber_value_type {
    AMBER_VALUE_BOOL = 1,
    AMBER_VALUE_INT64 = 2,
    AMBER_VALUE_DOUBLE = 3,
    AMBER_VALUE_STRING = 4,
    AMBER_VALUE_BYTES = 5
} amber_value_type;

/**
 * A typed value under a key: an element of the arrays that amber_coder_encode_values() writes
 * and amber_decoder_decode_values() fills, so that an object's whole state crosses the C ABI
 * in one call (a binding makes one call per object instead of one per value).
 */
typedef struct amber_keyed_value {
    /** The key: UTF-8, not empty. */
    const char *key;
    /** An amber_value_type. */
    int type;
    /** Decoding: set to 1 if the key has a value (and the value field is set), 0 if it has
     *  none (the value fields are left as they were: set defaults before the call).
     *  Encoding: not read. */
    int found;
    /** AMBER_VALUE_INT64, and AMBER_VALUE_BOOL as 0 or 1 (encoding: any non-zero is true). */
    int64_t int64_value;
    /** AMBER_VALUE_DOUBLE (decoding accepts an integer and converts it, as
     *  amber_decoder_decode_double() does). */
    double double_value;
    /** AMBER_VALUE_STRING: NUL-terminated UTF-8. */
    const char *string_value;
    /** AMBER_VALUE_BYTES: `bytes_size` bytes (NULL allowed when bytes_size is 0). */
    const void *bytes_value;
    size_t bytes_size;
} amber_keyed_value;

/**
 * Encodes `count` values, each as the encoder of its type would (amber_coder_encode_bool(),
 * _int64(), _double(), _string(), _bytes()), in array order. All or nothing: every value is
 * checked before any is written (its type and key, its string's UTF-8, the key neither
 * reserved, nor written before in this coder, nor twice in `values`), and on an error nothing
 * is written. The message names the first value at fault by its index and key.
 *
 * @param values `count` values (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_RESERVED_KEY; AMBER_DUPLICATE; AMBER_INVALID_ARGUMENT (an unknown
 *   type, a NULL, empty or invalid key, a NULL or invalid UTF-8 string, NULL bytes with a
 *   non-zero size); AMBER_MISUSE outside the callback.
 * Ownership: `values` is read during the call only; strings and bytes are copied.
 * Thread safety: as the engine.
 */
int amber_coder_encode_values(amber_coder *coder, const amber_keyed_value *values, size_t count);

/**
 * Decodes `count` values in one call: for each element, the value under its key as the decoder
 * of its type would read it (amber_decoder_decode_bool(), _int64(), _double(), _string(),
 * _bytes()), with `found` set. A missing key is not an error (found = 0). On an error, the
 * elements before the one at fault (named by the message, with its index and key) are filled,
 * the others unchanged.
 *
 * @param values `count` elements whose `key` and `type` are set (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_TYPE_MISMATCH for a value of another type than asked;
 *   AMBER_INVALID_ARGUMENT (an unknown type, a NULL, empty or invalid key); AMBER_MISUSE
 *   outside the callback.
 * Ownership: strings and bytes set in `values` are borrowed: valid until the callback returns.
 * Thread safety: as the engine.
 */
int amber_decoder_decode_values(amber_decoder *decoder, amber_keyed_value *values, size_t count);

/* ---------------------------------------------------------------------------------------- */
/* Classes, blueprints and the delegate (SPEC R5, R8–R13)                                    */
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

/** Fills a restoration class with NULLs and its version. @return AMBER_OK or
 *  AMBER_INVALID_ARGUMENT. Ownership: none. Thread safety: safe from any thread. */
int amber_restoration_class_init(amber_restoration_class *cls, unsigned int version);

/**
 * Registers a restoration class by name.
 *
 * @param name the name objects give with amber_object_set_restoration_class().
 * @param cls copied.
 * @param ctx passed to make.
 * @param ctx_free called once with ctx when the engine closes; may be NULL.
 * @return AMBER_OK; AMBER_DUPLICATE if the name is registered; AMBER_INVALID_ARGUMENT.
 * Ownership: on failure ctx_free is not called. Thread safety: as the engine.
 */
int amber_engine_register_restoration_class(amber_engine *engine, const char *name,
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
int amber_engine_register_subclass(amber_engine *engine, const char *name, const char *superclass_name);

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

/** Fills a blueprint factory with NULLs and its version. @return AMBER_OK or
 *  AMBER_INVALID_ARGUMENT. Ownership: none. Thread safety: safe from any thread. */
int amber_blueprint_factory_init(amber_blueprint_factory *factory, unsigned int version);

/**
 * Registers a blueprint factory. A record whose blueprint identifier is "NAME" or begins with
 * "NAME/" is made by the factory named NAME (R10, step 4).
 *
 * @return AMBER_OK; AMBER_DUPLICATE; AMBER_INVALID_ARGUMENT (also for a name with '/').
 * Ownership: `factory` copied; ctx_free called once when the engine closes (not on failure).
 * Thread safety: as the engine.
 */
int amber_engine_register_blueprint_factory(amber_engine *engine, const char *name,
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

/** Fills a delegate with NULLs and its version. @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 *  Ownership: none. Thread safety: safe from any thread. */
int amber_delegate_init(amber_delegate *delegate, unsigned int version);

/**
 * Sets the engine's delegate, replacing the previous one (whose ctx_free then runs).
 *
 * @param delegate copied; NULL removes it.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: ctx_free is called once when the delegate is replaced or the engine closes.
 * Thread safety: as the engine.
 */
int amber_engine_set_delegate(amber_engine *engine, const amber_delegate *delegate, void *ctx,
                              void (*ctx_free)(void *ctx));

/* ---------------------------------------------------------------------------------------- */
/* Preserving and restoring (SPEC R2–R16)                                                    */
/* ---------------------------------------------------------------------------------------- */

/**
 * Preserves the interface: asks should_save; calls will_encode; walks every root, asking each
 * preserved object's encode callback for its state; writes one archive atomically.
 *
 * An object whose encode callback fails is left out with everything under it, and the rest is
 * saved: the call still returns AMBER_OK. What was preserved and what was left out, and why,
 * is in amber_engine_preservation() (R28).
 *
 * @param out_saved receives 1 if an archive was written, 0 if nothing was (no should_save, or
 *   it declined); may be NULL.
 * Preserve writes only what restoration reads (R22): an object whose path would be deeper
 * than 512 levels is left out with what is under it (AMBER_LEFT_OUT_TOO_DEEP), and a value
 * over 64 MiB is refused by the coder.
 *
 * @return AMBER_OK; should_save's or will_encode's code; AMBER_IO; AMBER_KEY_UNAVAILABLE; the
 *   key callback's own code; AMBER_INVALID_ARGUMENT; AMBER_LIMIT_EXCEEDED when the archive
 *   would be over 512 MiB or 32 Mi objects. On failure the previous archive is kept, except
 *   AMBER_IO from the directory's fsync after the rename: the new archive is in place,
 *   durability not confirmed (the message says so). Something other than a regular file at the
 *   archive's path (a FIFO, a directory, a socket, a device) is AMBER_IO and left as it is. Restoration paths met twice are not preserved; they
 *   are listed by amber_engine_last_duplicates() and in the report.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_preserve(amber_engine *engine, int *out_saved);

/**
 * The restoration paths the last preservation met more than once, joined with '/' and
 * separated by '\n' ("" if none).
 *
 * @return a string, never NULL.
 * Ownership: borrowed; valid until the next preservation or the engine closes.
 * Thread safety: as the engine.
 */
const char *amber_engine_last_duplicates(amber_engine *engine);

/**
 * The launch sequence: will_finish_launching, then restoration (R9–R15), then
 * did_finish_launching. The host builds its default interface before calling (objects created
 * then are found by implicit lookup, R10 step 3). The application goes from not running to
 * inactive first, and AMBER_NOTIFICATION_DID_FINISH_LAUNCHING is posted last (R23, R24: see
 * amber_app_state).
 *
 * @param out receives the report of what was restored and why not (R16).
 * @return AMBER_OK (a fresh launch is not a failure: the report says why it was fresh);
 *   AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out; free it with amber_report_free().
 * Thread safety: as the engine.
 */
int amber_engine_launch(amber_report **out, amber_engine *engine);

/**
 * Discards the archive on purpose (the user force-quit, signed out) (R14).
 *
 * @return AMBER_OK or AMBER_IO.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_discard(amber_engine *engine);

/**
 * Extends restoration while the host loads data it needs (R15): the archive is kept until every
 * extension is completed.
 *
 * @param out receives a token for amber_engine_complete_restoration().
 * @return AMBER_OK; AMBER_MISUSE outside a restoration (call it from a restoration callback) or
 *   after it completed.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_extend_restoration(uint64_t *out, amber_engine *engine);

/**
 * Completes an extension; when the last completes, the archive is discarded.
 *
 * @return AMBER_OK; AMBER_NOT_FOUND for an unknown or completed token.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_complete_restoration(amber_engine *engine, uint64_t token);

/* ---------------------------------------------------------------------------------------- */
/* Reports (SPEC R16)                                                                        */
/* ---------------------------------------------------------------------------------------- */

/** What happened to one archived object. */
typedef enum amber_outcome {
    AMBER_OUTCOME_RESTORED = 0,
    AMBER_OUTCOME_DECLINED_BY_CLASS = 1,
    AMBER_OUTCOME_NOT_FOUND = 2,
    AMBER_OUTCOME_CLASS_MISMATCH = 3,
    AMBER_OUTCOME_LEFT_OUT = 4,
    AMBER_OUTCOME_DECODE_ERROR = 5,
    /** The object found had already been restored for another record (a damaged archive, or a
     *  lookup that gave the same object twice): it is not decoded again. */
    AMBER_OUTCOME_DUPLICATE = 6
} amber_outcome;

/** Why a launch was fresh. */
typedef enum amber_fresh_reason {
    AMBER_FRESH_NONE = 0,           /* not fresh: restoration ran */
    AMBER_FRESH_NO_ARCHIVE = 1,
    AMBER_FRESH_DECLINED = 2,       /* should_restore said no, or is not set */
    AMBER_FRESH_CORRUPT = 3,        /* the archive could not be read: see the message */
    AMBER_FRESH_CRASH_LOOP = 4,     /* restoration died on two launches in a row */
    /* the key is not available now (locked, a key file refused, a key callback that failed);
       the archive is kept */
    AMBER_FRESH_KEY_UNAVAILABLE = 5,
    /* the store could not read the archive; it is kept (the file store: also a FIFO, a
       directory, a socket or a device at the archive's path, never read and never deleted) */
    AMBER_FRESH_STORE_ERROR = 6,
    AMBER_FRESH_AUTHENTICATION_FAILED = 7, /* tampered, or sealed with another key; discarded */
    AMBER_FRESH_DISCARDED_BY_HOST = 8,     /* amber_engine_discard() ran before this launch */
    AMBER_FRESH_IN_PROGRESS = 9,    /* a restoration is under way or waits for extensions */
    /* the previous launch's restoration was extended (R15) and the process ended before it
       completed: the archive was discarded, as UIKit does */
    AMBER_FRESH_EXTENSION_UNFINISHED = 10
} amber_fresh_reason;

/** One record of a report. Pointers are borrowed from the report. */
typedef struct amber_report_record {
    /** The restoration path: `path_length` identifiers. */
    const char *const *path;
    size_t path_length;
    const char *class_name;
    /** An amber_kind. */
    int kind;
    /** An amber_outcome. */
    int outcome;
    /** Why, for outcomes other than restored ("" otherwise). */
    const char *message;
    /** The object found for the record (restored, class mismatch, decode error, duplicate), or
     *  NULL. Borrowed from the engine: it dangles once the object is freed. Its identity is
     *  the archived one: a reference to a record with a class mismatch decodes to this object. */
    amber_object *object;
    /** Its position among the children of its stack with the same identifier (R3; 0 outside a
     *  stack). */
    size_t position;
} amber_report_record;

/**
 * Why the launch was fresh (an amber_fresh_reason; AMBER_FRESH_NONE if it restored; -1 for
 * NULL or a freed report).
 *
 * Ownership: none. Thread safety: as the engine.
 */
int amber_report_fresh_reason(const amber_report *report);

/**
 * The report's message about the launch as a whole, lines separated by '\n': why it was fresh,
 * notes on callbacks that failed outside any object (did_decode, object_for_path), a launch
 * guard that could not be updated, extensions pending ("" if none).
 *
 * Ownership: borrowed from the report. Thread safety: as the engine.
 */
const char *amber_report_message(const amber_report *report);

/**
 * How the engine protects archives, in words: "AES-256-GCM, HKDF-SHA256 per-archive key" or
 * "none (not encrypted)" (R20). "" for NULL or a freed report.
 *
 * Ownership: borrowed from the report. Thread safety: as the engine.
 */
const char *amber_report_protection(const amber_report *report);

/**
 * The number of records: one per archived object (0 for NULL or a freed report).
 *
 * Ownership: none. Thread safety: as the engine.
 */
size_t amber_report_count(const amber_report *report);

/**
 * Reads record `index`.
 *
 * @param out filled with borrowed pointers, valid until the report is freed.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
int amber_report_record_at(amber_report_record *out, const amber_report *report, size_t index);

/**
 * The whole report as text, one line per record.
 *
 * @param out receives the text; free it with amber_string_free().
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out. Thread safety: as the engine.
 */
int amber_report_format(char **out, const amber_report *report);

/**
 * Frees a report.
 *
 * @param report a report, or NULL (nothing happens).
 * Ownership: pointers borrowed from it dangle. Thread safety: as the engine.
 */
void amber_report_free(amber_report *report);

/* ---------------------------------------------------------------------------------------- */
/* Preservation reports (SPEC R28)                                                           */
/* ---------------------------------------------------------------------------------------- */

/** Why nothing was saved. */
typedef enum amber_not_saved {
    AMBER_NOT_SAVED_NONE = 0,           /* an archive was written */
    AMBER_NOT_SAVED_NO_SHOULD_SAVE = 1, /* the delegate has no should_save callback */
    AMBER_NOT_SAVED_DECLINED = 2,       /* should_save returned 0 */
    AMBER_NOT_SAVED_FAILED = 3          /* the save failed (see the message); the previous archive is kept */
} amber_not_saved;

/** Why an object was not preserved. */
typedef enum amber_left_out {
    AMBER_LEFT_OUT_NONE = 0,                        /* preserved */
    AMBER_LEFT_OUT_NO_IDENTIFIER = 1,               /* it has no restoration identifier (R2) */
    AMBER_LEFT_OUT_ANCESTOR_WITHOUT_IDENTIFIER = 2, /* an ancestor has none (R2): the message names it */
    AMBER_LEFT_OUT_DUPLICATE_PATH = 3,              /* another object has its path (R3): the message names the one kept */
    AMBER_LEFT_OUT_ENCODE_FAILED = 4,               /* its encode callback failed: the message says why */
    AMBER_LEFT_OUT_UNDER_LEFT_OUT = 5,              /* an object above it was left out (duplicate, failed encode) */
    AMBER_LEFT_OUT_NOT_REFERENCED = 6,              /* a plain object that nothing referenced (R4) */
    AMBER_LEFT_OUT_TOO_DEEP = 7                     /* its path would be deeper than the limit restoration
                                                       reads (512 levels); the message counts the objects
                                                       under it, left out with it (R22) */
} amber_left_out;

/** One object of a preservation report. Pointers are borrowed from the report. */
typedef struct amber_preservation_entry {
    /** Its restoration path as far as it has one: the identifiers of its ancestors that have
     *  one, then its own if it has one (`path_length` identifiers). */
    const char *const *path;
    size_t path_length;
    const char *class_name;
    /** An amber_kind. */
    int kind;
    /** An amber_left_out: AMBER_LEFT_OUT_NONE if the object was preserved. */
    int left_out;
    /** The reason in words ("" for a preserved object). */
    const char *message;
    /** The bytes its record added to the archive before encryption (0 if left out). */
    uint64_t size;
    /** Its position among the children of its stack with the same identifier (R3). */
    size_t position;
} amber_preservation_entry;

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
int amber_engine_preservation(amber_preservation **out, amber_engine *engine);

/** Why nothing was saved: an amber_not_saved (AMBER_NOT_SAVED_NONE if an archive was written;
 *  -1 for NULL or a freed report). Ownership: none. Thread safety: as the engine. */
int amber_preservation_not_saved(const amber_preservation *report);

/** Why nothing was saved, in words ("" if an archive was written, and for NULL or a freed
 *  report). Ownership: borrowed from the report. Thread safety: as the engine. */
const char *amber_preservation_message(const amber_preservation *report);

/** The size of the archive written, in bytes after encryption (0 if none was written).
 *  Ownership: none. Thread safety: as the engine. */
uint64_t amber_preservation_size(const amber_preservation *report);

/** The number of entries: objects preserved and objects left out (0 for NULL or a freed
 *  report). Ownership: none. Thread safety: as the engine. */
size_t amber_preservation_count(const amber_preservation *report);

/**
 * Reads entry `index`: the archive's records come first, in archive order.
 *
 * @param out filled with borrowed pointers, valid until the report is freed.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
int amber_preservation_entry_at(amber_preservation_entry *out, const amber_preservation *report, size_t index);

/**
 * The whole report as text: a first line (what was saved, or why nothing was), then a line per
 * object left out and per object preserved.
 *
 * @param out receives the text; free it with amber_string_free().
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out. Thread safety: as the engine.
 */
int amber_preservation_format(char **out, const amber_preservation *report);

/** Frees a preservation report; NULL does nothing. Ownership: pointers borrowed from it
 *  dangle. Thread safety: as the engine. */
void amber_preservation_free(amber_preservation *report);

/* ---------------------------------------------------------------------------------------- */
/* The log (SPEC R29)                                                                        */
/* ---------------------------------------------------------------------------------------- */

/** How much a log line matters. */
typedef enum amber_log_level {
    /** Every decision of a preservation or a restoration: what was left out and why, which
     *  step of the lookup chain found each object, sizes, timings. */
    AMBER_LOG_DEBUG = 0,
    /** A line per preservation and per restoration. */
    AMBER_LOG_INFO = 1,
    /** Something went wrong that the host may want to know about. */
    AMBER_LOG_WARN = 2
} amber_log_level;

/** Takes one log line (no trailing newline), valid during the call. Lines name objects by
 *  restoration path and class; no state value and no key material is ever logged. */
typedef void (*amber_log_fn)(amber_log_level level, const char *message, void *ctx);

/**
 * Sets where an engine's log lines go, at `level` and above; NULL `fn` removes it (the
 * process-wide function then takes the engine's lines). Independently, the environment
 * variable AMBER_LOG=debug|info|warn prints lines at that level and above to standard error as
 * "amber: <level>: <message>", without code.
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for a level out of range.
 * Ownership: `ctx` stays the caller's. Thread safety: as the engine; `fn` is called on the
 *   thread that uses the engine.
 */
int amber_engine_set_log(amber_engine *engine, amber_log_level level, amber_log_fn fn, void *ctx);

/**
 * Sets the process-wide log function: it takes the lines of every engine that has none of its
 * own, at `level` and above. NULL `fn` removes it.
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for a level out of range.
 * Ownership: `ctx` stays the caller's. Thread safety: safe from any thread; `fn` may be called
 *   from any thread that uses an engine.
 */
int amber_set_log(amber_log_level level, amber_log_fn fn, void *ctx);

/* ---------------------------------------------------------------------------------------- */
/* Views, model association and snapshots (SPEC R17, R18, R21)                               */
/* ---------------------------------------------------------------------------------------- */

/*
 * A view (AMBER_KIND_VIEW) keeps, besides what its encode callback writes, the standard state
 * of its kind (R17) when the host gives it a kind and accessors (amber_view_set_accessors()).
 * Like every object it is preserved only when it and its controller, and every ancestor, have
 * restoration identifiers (R2). The engine archives the standard state itself, under keys of
 * the view's own coder that host code cannot write ("amber.view.*", R7), so they never collide
 * with the host's keys.
 *
 * At preservation the engine calls the view's `read` accessor with an amber_view_state to fill
 * with the amber_view_state_set_* functions. If the view's data source gave a model association
 * (amber_view_set_model_association(), R18), each selected item and the first visible item are
 * archived as the model identifier of the item at that index path; without one, or for an item
 * without an identifier, as the index path itself.
 *
 * At restoration, once every object exists and after the view's own decode callback succeeded
 * (so the controller above it and the view itself have restored their data first), the engine
 * turns model identifiers back into index paths through the association (those that resolve to
 * nothing are dropped and listed in the report: amber_report_dropped_identifier_at()), asks a
 * text field or text view for its text length and restores a selected range that no longer fits
 * as no selection, then calls the `apply` accessor with the state, read with the
 * amber_view_state_get_* functions. A failing accessor or association callback at restoration
 * makes the view's record AMBER_OUTCOME_DECODE_ERROR; at preservation it stops the preservation
 * and its code is passed up.
 *
 * An amber_view_state is a handle like a coder: lent to one accessor call, checked on every use
 * (AMBER_MISUSE once the accessor has returned).
 *
 * Finding views at restoration (R10): besides the lookup chain, a view whose controller was
 * restored is found among that controller's views by its identifier, so a restoration class that
 * makes a controller together with its views (as loadView would) needs to do nothing more.
 */

/** The kinds of view whose standard state the engine keeps (R17). */
typedef enum amber_view_kind {
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

/** An index path read from a view state: `length` indexes (at least 1), borrowed. */
typedef struct amber_index_path {
    const int64_t *indexes;
    size_t length;
} amber_index_path;

/** A page of a web view's back/forward list read from a view state; `url` is borrowed. */
typedef struct amber_web_page {
    const char *url;
    amber_point scroll;
} amber_web_page;

/** A view's standard state, lent to its read and apply accessors for the call. */
typedef struct amber_view_state amber_view_state;

/** The accessors of a view's standard state (a plugin). */
typedef struct amber_view_accessors {
    /** AMBER_VIEW_ACCESSORS_VERSION. */
    unsigned int version;
    /** At preservation: writes the view's standard state into `state` with the
     *  amber_view_state_set_* functions (the properties not set are not archived). Returns 0 or
     *  a code. Required. */
    int (*read)(amber_object *view, amber_view_state *state, void *ctx);
    /** At restoration: applies the restored state, read with the amber_view_state_get_*
     *  functions (a property that was not archived, or that restored as nothing, is
     *  AMBER_NOT_FOUND). Returns 0 or a code. Required. */
    int (*apply)(amber_object *view, const amber_view_state *state, void *ctx);
    /** Text fields and text views: sets *out to the length of the text the view shows now, in
     *  the unit of its selected ranges; called at restoration before apply. Returns 0 or a code.
     *  Required for AMBER_VIEW_TEXT_FIELD and AMBER_VIEW_TEXT_VIEW; ignored for other kinds. */
    int (*text_length)(uint64_t *out, amber_object *view, void *ctx);
} amber_view_accessors;

#define AMBER_VIEW_ACCESSORS_VERSION 1

/** Fills view accessors with NULLs and their version. @return AMBER_OK or
 *  AMBER_INVALID_ARGUMENT (NULL, unknown version). Ownership: none. Thread safety: safe from any
 *  thread. */
int amber_view_accessors_init(amber_view_accessors *accessors, unsigned int version);

/**
 * Gives a view a kind and the accessors of its standard state (R17), replacing any it had
 * (whose ctx_free then runs), or removes them (`accessors` NULL: the view keeps only what its
 * encode callback writes).
 *
 * @param view a view (AMBER_KIND_VIEW).
 * @param kind an amber_view_kind (ignored when `accessors` is NULL).
 * @param accessors copied; read and apply are required, and text_length for text fields and text
 *        views.
 * @param ctx passed to the accessors.
 * @param ctx_free called once with ctx when the accessors are replaced or removed, the view is
 *        freed or the engine closes; may be NULL.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (not a view, an unknown kind or version, a required
 *   accessor missing).
 * Ownership: on failure ctx_free is not called. Thread safety: as the engine.
 */
int amber_view_set_accessors(amber_object *view, int kind, const amber_view_accessors *accessors, void *ctx,
                             void (*ctx_free)(void *ctx));

/**
 * The kind a view was given with amber_view_set_accessors().
 *
 * @return an amber_view_kind; 0 for a view without accessors; -1 for NULL or an object that is
 *   not a view (amber_error_last() says which).
 * Ownership: none. Thread safety: as the engine.
 */
int amber_view_kind_of(const amber_object *view);

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

/** Fills a model association with NULLs and its version. @return AMBER_OK or
 *  AMBER_INVALID_ARGUMENT. Ownership: none. Thread safety: safe from any thread. */
int amber_model_association_init(amber_model_association *association, unsigned int version);

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
int amber_view_set_model_association(amber_object *view, const amber_model_association *association, void *ctx,
                                     void (*ctx_free)(void *ctx));

/**
 * The kind of view a state belongs to.
 *
 * @return an amber_view_kind, or -1 for NULL or a state used outside its accessor.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_view_state_kind(const amber_view_state *state);

/**
 * Setters, for the read accessor: record one property of the view's standard state, replacing
 * what was set before (the add_ functions append).
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for a property the view's kind does not keep (a text
 *   range on a scroll view), a value that is not finite, a zoom scale not greater than 0, an
 *   index path with no index or a negative one, a NULL or empty URL, a current page that is not
 *   a page added before; AMBER_LIMIT_EXCEEDED beyond 1024 indexes in a path, 2^20 selected items,
 *   2^16 pages or URLs of 64 KiB; AMBER_MISUSE for a state used outside the read accessor, or an
 *   apply accessor's state.
 * Ownership: index paths and URLs are copied. Thread safety: as the engine.
 */
int amber_view_state_set_content_offset(amber_view_state *state, amber_point offset);
int amber_view_state_set_content_inset(amber_view_state *state, amber_insets inset);
int amber_view_state_set_zoom_scale(amber_view_state *state, double scale);
/** Appends a selected item (tables, collections): an index path of `length` indexes, any
 *  length from 1 (a row of a plain list) through 2 (section, row) and beyond. */
int amber_view_state_add_selected_item(amber_view_state *state, const int64_t *indexes, size_t length);
int amber_view_state_set_first_visible_item(amber_view_state *state, const int64_t *indexes, size_t length);
int amber_view_state_set_editing(amber_view_state *state, int editing);
/** Text fields and text views. A location or length above INT64_MAX, or a sum above it, is
 *  AMBER_INVALID_ARGUMENT. */
int amber_view_state_set_selected_range(amber_view_state *state, amber_range range);
int amber_view_state_set_editable(amber_view_state *state, int editable);
int amber_view_state_set_bounds(amber_view_state *state, amber_rect bounds);
int amber_view_state_set_center(amber_view_state *state, amber_point center);
int amber_view_state_set_transform(amber_view_state *state, amber_transform transform);
int amber_view_state_set_anchor_point(amber_view_state *state, amber_point anchor_point);
/** Appends a page to a web view's back/forward list (oldest first). */
int amber_view_state_add_page(amber_view_state *state, const char *url, amber_point scroll);
/** The index of the page shown among the pages added (those before it are "back"). */
int amber_view_state_set_current_page(amber_view_state *state, size_t index);

/**
 * Getters, for the apply accessor (they also read back what a read accessor set).
 *
 * @param out receives the value.
 * @return AMBER_OK; AMBER_NOT_FOUND if the property was not archived, or restored as nothing
 *   (a selected range that no longer fits the text, a first visible item whose model identifier
 *   no longer resolves); AMBER_INVALID_ARGUMENT for a property the view's kind does not keep, or
 *   NULL; AMBER_MISUSE for a state used outside its accessor.
 * Ownership: index paths and URLs are borrowed: valid until the accessor returns.
 * Thread safety: as the engine.
 */
int amber_view_state_get_content_offset(amber_point *out, const amber_view_state *state);
int amber_view_state_get_content_inset(amber_insets *out, const amber_view_state *state);
int amber_view_state_get_zoom_scale(double *out, const amber_view_state *state);
int amber_view_state_get_first_visible_item(amber_index_path *out, const amber_view_state *state);
int amber_view_state_get_editing(int *out, const amber_view_state *state);
int amber_view_state_get_selected_range(amber_range *out, const amber_view_state *state);
int amber_view_state_get_editable(int *out, const amber_view_state *state);
int amber_view_state_get_bounds(amber_rect *out, const amber_view_state *state);
int amber_view_state_get_center(amber_point *out, const amber_view_state *state);
int amber_view_state_get_transform(amber_transform *out, const amber_view_state *state);
int amber_view_state_get_anchor_point(amber_point *out, const amber_view_state *state);
int amber_view_state_get_current_page(size_t *out, const amber_view_state *state);
/** Selected item `index` (0-based, below amber_view_state_selected_count()); past the end is
 *  AMBER_NOT_FOUND. */
int amber_view_state_get_selected_item(amber_index_path *out, const amber_view_state *state, size_t index);
/** Page `index` of the back/forward list (below amber_view_state_page_count()); past the end is
 *  AMBER_NOT_FOUND. */
int amber_view_state_get_page(amber_web_page *out, const amber_view_state *state, size_t index);

/**
 * The number of selected items (after model identifiers that no longer resolve were dropped),
 * or of pages; 0 when none were archived, for another kind, NULL or a dead state.
 *
 * Ownership: none. Thread safety: as the engine.
 */
size_t amber_view_state_selected_count(const amber_view_state *state);
size_t amber_view_state_page_count(const amber_view_state *state);

/**
 * The number of model identifiers of record `index` that no longer resolve to an index path
 * (R18): the view's archived selected items and first visible item whose identifier its data
 * source no longer knows (or all of them, if the view has no model association now). They were
 * dropped; the rest of the view's state was applied.
 *
 * @return the count; 0 for other records, an index past the end, NULL or a freed report.
 * Ownership: none. Thread safety: as the engine.
 */
size_t amber_report_dropped_identifier_count(const amber_report *report, size_t index);

/**
 * Dropped model identifier `i` of record `index`, in archived order (each listed once).
 *
 * @param out receives the identifier.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: *out is borrowed from the report, valid until it is freed. Thread safety: as the
 *   engine.
 */
int amber_report_dropped_identifier_at(const char **out, const amber_report *report, size_t index, size_t i);

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
int amber_engine_set_snapshot(amber_engine *engine, const void *bytes, size_t size);

/**
 * Asks that the snapshot not be used at the next launch (UIKit's
 * ignoreSnapshotOnNextApplicationLaunch): the next archive written records that its snapshot is
 * ignored, and leaves the bytes out. Call it before or during the preservation it is for.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_ignore_snapshot(amber_engine *engine);

/**
 * The snapshot of the archive there is, to show while restoring: before amber_engine_launch()
 * it is read from the store (and opened like the archive); from a callback during restoration,
 * it is the snapshot of the archive being restored. After the restore attempt the archive is
 * discarded, and its snapshot with it.
 *
 * @param out receives the bytes; @param out_size their count.
 * @return AMBER_OK; AMBER_NOT_FOUND when there is no archive, no snapshot in it, or the host
 *   asked to ignore it (the message says which); AMBER_CORRUPT, AMBER_KEY_UNAVAILABLE, AMBER_IO
 *   when the archive cannot be read; AMBER_INVALID_ARGUMENT.
 * Ownership: *out is borrowed from the engine: valid until the next call of this function on the
 *   engine, or until it closes. Thread safety: as the engine.
 */
int amber_engine_snapshot(const uint8_t **out, size_t *out_size, amber_engine *engine);

/* ---------------------------------------------------------------------------------------- */
/* Plugins                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** The entry point a plugin library exports, named AMBER_PLUGIN_ENTRY_NAME. It registers its
 *  classes (and anything else) through this API and returns 0 or a code. */
typedef int (*amber_plugin_entry)(amber_engine *engine, int amber_version_number);

#define AMBER_PLUGIN_ENTRY_NAME "amber_plugin_register"

/**
 * Loads a shared library and calls its entry point with the engine.
 *
 * @param path the library's file path.
 * @return AMBER_OK; AMBER_NOT_FOUND if it cannot be opened or lacks the entry point (the
 *   message has dlerror's text); the entry point's code.
 * Ownership: the library stays loaded until the engine closes.
 * Thread safety: as the engine.
 */
int amber_engine_load_plugin(amber_engine *engine, const char *path);

/* ---------------------------------------------------------------------------------------- */
/* The application: lifecycle, notifications, directories, data files, keyed archiving       */
/* (SPEC R23, R24, R27, R25)                                                                 */
/* ---------------------------------------------------------------------------------------- */

/**
 * The states of an application, as UIKit has them (SPEC R23).
 *
 *   state         visible   receives events   runs code
 *   not running   no        no                no
 *   inactive      mostly    no                yes
 *   active        yes       yes               yes
 *   background    no        no                yes
 *   suspended     no        no                no
 *
 * The transitions allowed, and what the engine does for each (any other pair, and a state to
 * itself, is AMBER_MISUSE):
 *
 *   from          to            meaning                  the engine
 *   not running   inactive      launch                   amber_engine_launch()
 *   not running   background    launch into background   amber_engine_launch_in_background()
 *   inactive      active        did become active        changes, then posts DID_BECOME_ACTIVE
 *   active        inactive      will resign active       posts WILL_RESIGN_ACTIVE, then changes
 *   inactive      background    did enter background     changes, posts DID_ENTER_BACKGROUND,
 *                                                        then preserves (amber_engine_preserve:
 *                                                        only if should_save agrees)
 *   background    inactive      will enter foreground    posts WILL_ENTER_FOREGROUND, then changes
 *   background    suspended     the system suspends it   changes
 *   suspended     background    the system wakes it      changes
 *   background    not running   terminate                posts WILL_TERMINATE, then changes
 *   suspended     not running   killed while suspended   changes (no code runs when suspended,
 *                                                        so nothing is posted, as in UIKit)
 *
 * The launch sequence: a new engine is not running; amber_engine_launch() makes it inactive,
 * then runs will_finish_launching, restoration, did_finish_launching, and posts
 * AMBER_NOTIFICATION_DID_FINISH_LAUNCHING; the host then reports AMBER_APP_ACTIVE once its
 * interface is on screen. Going to the background from active takes two reports (active ->
 * inactive -> background), as in UIKit.
 */
typedef enum amber_app_state {
    AMBER_APP_NOT_RUNNING = 0,
    AMBER_APP_INACTIVE = 1,
    AMBER_APP_ACTIVE = 2,
    AMBER_APP_BACKGROUND = 3,
    AMBER_APP_SUSPENDED = 4
} amber_app_state;

/**
 * The engine's application state, an amber_app_state.
 *
 * @return the state; -1 for NULL or a closed engine.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_app_state(const amber_engine *engine);

/**
 * The name of a state: "not running", "inactive", "active", "background", "suspended".
 *
 * @param state any value; unknown values give "unknown".
 * @return a static string, never NULL.
 * Ownership: borrowed; static. Thread safety: safe from any thread.
 */
const char *amber_app_state_string(int state);

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
 * @param state an amber_app_state.
 * @return AMBER_OK; AMBER_MISUSE for a transition that is not allowed (the message names both
 *   states; nothing happens), for leaving AMBER_APP_NOT_RUNNING other than by a launch, and
 *   for a transition asked from an observer of another transition; AMBER_INVALID_ARGUMENT for
 *   NULL or an unknown state. After the change: preservation's error (AMBER_IO, a callback's
 *   code, ...; the previous archive is kept), else the first non-zero code an observer returned.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_transition(int *out_saved, amber_engine *engine, int state);

/**
 * The launch sequence of amber_engine_launch() for a launch into the background (a background
 * fetch, say): the application goes from not running to background instead of inactive.
 *
 * @param out receives the report (R16).
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out; free it with amber_report_free().
 * Thread safety: as the engine.
 *
 * amber_engine_launch() and this function move the state only from AMBER_APP_NOT_RUNNING;
 * called while the application runs, they restore again and leave the state as it is. An
 * observer of AMBER_NOTIFICATION_DID_FINISH_LAUNCHING that fails is noted in the report's
 * message.
 */
int amber_engine_launch_in_background(amber_report **out, amber_engine *engine);

/**
 * Reports that the system is short of memory: posts AMBER_NOTIFICATION_DID_RECEIVE_MEMORY_WARNING
 * (sender: the engine), whatever the state. Observers release what they can make again (the
 * seeds' image cache).
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT; the first non-zero code an observer returned.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_report_memory_warning(amber_engine *engine);

/*
 * Notifications (SPEC R24). The engine posts these, with the engine as their sender and an
 * empty user info. Observers of AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE run while the interface is
 * still on screen: this is where a host hides sensitive content (an account number, a
 * password field) before the application's snapshot is taken on its way to the background.
 * DID_ENTER_BACKGROUND is posted before the engine preserves: the place to save the host's
 * own data (the item store, with the keyed archiver below).
 */
#define AMBER_NOTIFICATION_DID_FINISH_LAUNCHING "AmberApplicationDidFinishLaunchingNotification"
#define AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE "AmberApplicationWillResignActiveNotification"
#define AMBER_NOTIFICATION_DID_BECOME_ACTIVE "AmberApplicationDidBecomeActiveNotification"
#define AMBER_NOTIFICATION_DID_ENTER_BACKGROUND "AmberApplicationDidEnterBackgroundNotification"
#define AMBER_NOTIFICATION_WILL_ENTER_FOREGROUND "AmberApplicationWillEnterForegroundNotification"
#define AMBER_NOTIFICATION_WILL_TERMINATE "AmberApplicationWillTerminateNotification"
#define AMBER_NOTIFICATION_DID_RECEIVE_MEMORY_WARNING "AmberApplicationDidReceiveMemoryWarningNotification"

/** A notification being delivered: a name, a sender and a user info. Borrowed for one
 *  observer callback. */
typedef struct amber_notification amber_notification;
/** A dictionary of typed values by key (a notification's user info). */
typedef struct amber_user_info amber_user_info;

/**
 * Creates an empty user info, to post with amber_engine_post_notification().
 *
 * @param out receives it.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_user_info_free().
 * Thread safety: a user info may be used by one thread at a time.
 */
int amber_user_info_new(amber_user_info **out);

/**
 * Frees a user info made by amber_user_info_new().
 *
 * @param info a user info, or NULL (nothing happens). A notification's user info is not the
 *   caller's to free: that is refused (AMBER_MISUSE is recorded; nothing happens).
 * Ownership: pointers borrowed from it dangle. Thread safety: as the user info.
 */
void amber_user_info_free(amber_user_info *info);

/**
 * Setters: set the value under a key (UTF-8, not empty); a key set again takes the new value
 * and keeps its place. Keys are kept in the order first set.
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT; AMBER_MISUSE on a notification's user info (it is
 *   read-only).
 * Ownership: strings and bytes are copied. Thread safety: as the user info.
 */
int amber_user_info_set_bool(amber_user_info *info, const char *key, int value);
int amber_user_info_set_int64(amber_user_info *info, const char *key, int64_t value);
int amber_user_info_set_double(amber_user_info *info, const char *key, double value);
int amber_user_info_set_string(amber_user_info *info, const char *key, const char *value);
int amber_user_info_set_bytes(amber_user_info *info, const char *key, const void *bytes, size_t size);

/**
 * The number of keys (0 for NULL or a dead handle).
 *
 * Ownership: none. Thread safety: as the user info.
 */
size_t amber_user_info_count(const amber_user_info *info);

/**
 * The key at `index`, in the order keys were first set.
 *
 * @param out receives the key.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: *out is borrowed: valid until the user info changes or is freed (for a
 *   notification's, until the callback returns). Thread safety: as the user info.
 */
int amber_user_info_key_at(const char **out, const amber_user_info *info, size_t index);

/**
 * The type of the value under a key, an amber_value_type.
 *
 * @return AMBER_OK; AMBER_NOT_FOUND; AMBER_INVALID_ARGUMENT.
 * Ownership: none. Thread safety: as the user info.
 */
int amber_user_info_type(int *out, const amber_user_info *info, const char *key);

/**
 * Getters: read the value under a key.
 *
 * @return AMBER_OK; AMBER_NOT_FOUND for a missing key; AMBER_TYPE_MISMATCH for a value of
 *   another type (get_double also accepts an int64); AMBER_INVALID_ARGUMENT.
 * Ownership: strings and bytes are borrowed, as amber_user_info_key_at()'s key.
 * Thread safety: as the user info.
 */
int amber_user_info_get_bool(int *out, const amber_user_info *info, const char *key);
int amber_user_info_get_int64(int64_t *out, const amber_user_info *info, const char *key);
int amber_user_info_get_double(double *out, const amber_user_info *info, const char *key);
int amber_user_info_get_string(const char **out, const amber_user_info *info, const char *key);
int amber_user_info_get_bytes(const uint8_t **out, size_t *out_size, const amber_user_info *info, const char *key);

/**
 * A notification's name ("" for NULL or outside its callback).
 *
 * Ownership: borrowed; valid until the callback returns. Thread safety: as the engine.
 */
const char *amber_notification_name(const amber_notification *note);

/**
 * A notification's sender as the poster gave it: the amber_engine for the engine's own
 * notifications; NULL for none (and for NULL or outside its callback).
 *
 * Ownership: the sender's. Thread safety: as the engine.
 */
const void *amber_notification_sender(const amber_notification *note);

/**
 * A notification's user info (empty when the poster gave none), read-only.
 *
 * @return the user info; NULL for NULL or outside its callback.
 * Ownership: borrowed; valid until the callback returns (do not free it).
 * Thread safety: as the engine.
 */
const amber_user_info *amber_notification_user_info(const amber_notification *note);

/** An observer: called with each notification it registered for. Returns 0, or a code that the
 *  post (or transition) returns once every observer has been called. */
typedef int (*amber_observer_fn)(const amber_notification *note, void *ctx);

/**
 * Registers an observer with the engine's notification center (R24).
 *
 * Delivery: synchronous, on the posting thread, to the observers registered when the post
 * begins, in the order they registered. An observer added during a delivery is not called in
 * that delivery (it is from the next post on). An observer removed during a delivery is not
 * called afterwards in it if it had not been called yet. A notification posted from inside a
 * delivery is delivered at once, before the outer delivery goes on (at most 64 deep, then
 * AMBER_LIMIT_EXCEEDED). An observer that returns a code does not stop the delivery.
 *
 * @param out receives a token for amber_engine_remove_observer() (never 0).
 * @param engine the engine.
 * @param name the notification name to observe, or NULL for every notification.
 * @param sender only notifications posted with this sender (the engine, for the engine's
 *   own); NULL for any sender.
 * @param callback called with each matching notification.
 * @param ctx passed to the callback.
 * @param ctx_free called exactly once with ctx: when the observer is removed, or when the
 *   engine closes; may be NULL. If the removal happens during a delivery, ctx_free runs when
 *   that delivery (the outermost) ends, so an observer may remove itself and keep using ctx
 *   until it returns.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT (NULL out, engine or callback; invalid UTF-8).
 * Ownership: the name is copied. On failure ctx_free is not called.
 * Thread safety: as the engine: the center is the engine's, used by one thread at a time.
 */
int amber_engine_add_observer(uint64_t *out, amber_engine *engine, const char *name, const void *sender,
                              amber_observer_fn callback, void *ctx, void (*ctx_free)(void *ctx));

/**
 * Removes an observer; also from inside a delivery (see amber_engine_add_observer()).
 *
 * @return AMBER_OK; AMBER_NOT_FOUND for a token not given out or already removed.
 * Ownership: ctx_free runs as amber_engine_add_observer() says. Thread safety: as the engine.
 */
int amber_engine_remove_observer(amber_engine *engine, uint64_t token);

/**
 * Posts a notification: calls the matching observers at once, in registration order.
 *
 * @param engine the engine whose center delivers it.
 * @param name the name (UTF-8, not empty).
 * @param sender the sender, or NULL.
 * @param user_info NULL for an empty one; copied (it stays the caller's).
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT; AMBER_LIMIT_EXCEEDED when posts nest too deep;
 *   the first non-zero code an observer returned.
 * Ownership: none. Thread safety: as the engine.
 */
int amber_engine_post_notification(amber_engine *engine, const char *name, const void *sender,
                                   const amber_user_info *user_info);

/**
 * The directories of an application (SPEC R27), the analogue of the sandbox's Documents,
 * Library/Caches, Library/Preferences and tmp, on the XDG Base Directory conventions:
 *
 *   documents     $XDG_DATA_HOME/<app-id>,   else $HOME/.local/share/<app-id>
 *   caches        $XDG_CACHE_HOME/<app-id>,  else $HOME/.cache/<app-id>
 *   preferences   $XDG_CONFIG_HOME/<app-id>, else $HOME/.config/<app-id>
 *   temporary     $XDG_RUNTIME_DIR/<app-id>, else $TMPDIR/<app-id>-<uid>, else /tmp/<app-id>-<uid>
 *
 * A variable counts only when it holds an absolute path (a relative one is ignored, as XDG
 * says); without HOME, the password database's home directory. (The restoration archive is
 * kept apart, in $XDG_STATE_HOME/<app-id>: see amber_engine_options.)
 */
typedef enum amber_directory {
    AMBER_DIRECTORY_DOCUMENTS = 0,
    AMBER_DIRECTORY_CACHES = 1,
    AMBER_DIRECTORY_PREFERENCES = 2,
    AMBER_DIRECTORY_TEMPORARY = 3
} amber_directory;

/**
 * Resolves one of an application's directories and creates it if missing, mode 0700 (owner
 * only; missing parents too). An existing directory is used as it is, except the temporary
 * one outside XDG_RUNTIME_DIR, which lies in a directory shared by every user: it must be a
 * directory (not a symbolic link) owned by the user with no permission for group or others.
 *
 * @param out receives the absolute path (no trailing '/').
 * @param app_id the application's identifier: one file name (not empty, not "." or "..",
 *   no '/', at most 255 bytes, valid UTF-8), so no path can escape the base directories.
 * @param directory an amber_directory.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (a bad app_id or directory); AMBER_NOT_FOUND when
 *   neither the variable nor a home directory is set; AMBER_IO when it cannot be created, is
 *   not a directory, or (temporary) is not the user's own private directory.
 * Ownership: the caller owns *out; free it with amber_string_free().
 * Thread safety: safe from any thread (it reads the environment: do not change it meanwhile).
 */
int amber_app_directory(char **out, const char *app_id, int directory);

/**
 * Replaces a file with `bytes`, atomically and durably (Foundation's writeToFile:atomically:):
 * a temporary file is created exclusively, mode 0600, in the same directory, written whole,
 * fsync'ed, renamed over `path`, and the directory is fsync'ed. Whatever moment the process
 * dies at, the file holds the old bytes or the new ones; on a failure before the rename the
 * temporary file is removed and the old file is left as it was; a failed fsync of the directory
 * after the rename is AMBER_IO with the new contents in place, durability not confirmed (the
 * message says so). A path holding something other than a regular file or a symbolic link (a
 * FIFO, a socket, a device) is refused with AMBER_IO and left as it is.
 *
 * @param path the file (its directory must exist).
 * @param bytes may be NULL when size is 0.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (also for a path naming a directory); AMBER_IO
 *   naming the call and errno that failed.
 * Ownership: the bytes are the caller's. Thread safety: safe from any thread.
 */
int amber_file_write_atomic(const char *path, const void *bytes, size_t size);

/**
 * Reads a whole file (up to 1 GiB).
 *
 * @param out receives the bytes (never NULL on success, even for an empty file).
 * @param out_size receives their number.
 * @return AMBER_OK; AMBER_NOT_FOUND if there is no such file; AMBER_IO (also, without
 *   blocking and without reading, for a FIFO, a directory, a socket or a device); AMBER_LIMIT_EXCEEDED
 *   for a larger file; AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out; free it with amber_bytes_free().
 * Thread safety: safe from any thread.
 */
int amber_file_read(uint8_t **out, size_t *out_size, const char *path);

/**
 * Frees bytes Amber returned through an out parameter.
 *
 * @param bytes the bytes, or NULL (nothing happens).
 * Ownership: the bytes are gone. Thread safety: safe from any thread.
 */
void amber_bytes_free(uint8_t *bytes);

/*
 * Keyed archiving of the host's own data (SPEC R25, R26): the NSCoding model. A coding
 * registry names the host's classes with their encode, make and decode callbacks; an archiver
 * writes values and objects by key into an NSKeyedArchiver-layout archive (which Foundation's
 * NSKeyedUnarchiver and Python's plistlib read); an unarchiver reads one back. The same object
 * (the same pointer) encoded twice is stored once, and cycles come back as cycles.
 *
 * The seeds' item store, archiveRootObject:toFile: and unarchiveObjectWithFile: in C:
 *
 *   amber_archiver *a;
 *   amber_archiver_new(&a, registry);
 *   amber_archiver_encode_object_array(a, "root", "BNRItem", (const void *const *)items, n);
 *   amber_archiver_write_file(a, "<documents>/items.archive");   // atomically
 *   amber_archiver_free(a);
 *   ...
 *   amber_unarchiver *u;
 *   amber_unarchiver_open_file(&u, registry, "<documents>/items.archive");
 *   amber_unarchiver_decode_object_array(items, capacity, &n, u, "root", classes, 1);
 *   amber_unarchiver_free(u);
 */

/** The coding classes an archiver and unarchiver know. */
typedef struct amber_coding_registry amber_coding_registry;
/** Writes a keyed archive. */
typedef struct amber_archiver amber_archiver;
/** Reads a keyed archive. */
typedef struct amber_unarchiver amber_unarchiver;

/** A coding class of the host (NSCoding). */
typedef struct amber_coding_class {
    /** AMBER_CODING_CLASS_VERSION. */
    unsigned int version;
    /** encodeWithCoder: writes the object's values into `archiver`, which is positioned on the
     *  object while the callback runs. Returns 0 or a code. Required to archive objects. */
    int (*encode)(const void *object, amber_archiver *archiver, void *ctx);
    /** initWithCoder: makes the object, reading from `unarchiver` (positioned on it), and sets
     *  *out to it (not NULL). Returns 0 or a code. Required to unarchive objects. An object
     *  that refers back to itself (a cycle) must set those references in `decode`. */
    int (*make)(void **out, amber_unarchiver *unarchiver, void *ctx);
    /** Optional: fills in the object after `make`, once references back to it resolve to it.
     *  Returns 0 or a code. */
    int (*decode)(void *object, amber_unarchiver *unarchiver, void *ctx);
} amber_coding_class;

#define AMBER_CODING_CLASS_VERSION 1

/** Fills a coding class with NULLs and its version. @return AMBER_OK or
 *  AMBER_INVALID_ARGUMENT. Ownership: none. Thread safety: safe from any thread. */
int amber_coding_class_init(amber_coding_class *cls, unsigned int version);

/**
 * Creates an empty coding registry.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_coding_registry_free().
 * Thread safety: a registry, and the archivers and unarchivers made with it, may be used by one
 *   thread at a time.
 */
int amber_coding_registry_new(amber_coding_registry **out);

/**
 * Frees a registry. Archivers and unarchivers made with it keep working: each class's
 * ctx_free runs once the registry and all of them are freed.
 *
 * @param registry a registry, or NULL (nothing happens).
 * Ownership: the handle dangles. Thread safety: as the registry.
 */
void amber_coding_registry_free(amber_coding_registry *registry);

/**
 * Registers a coding class. Archivers and unarchivers see the classes registered when they
 * are made.
 *
 * @param name the class name written into archives (not one of Foundation's, like "NSString").
 * @param superclass_name its registered superclass, or NULL: the archive records the chain,
 *   and an unarchiver that allows a class also allows its registered subclasses.
 * @param cls copied.
 * @param ctx passed to the callbacks.
 * @param ctx_free called once with ctx when no registry, archiver or unarchiver needs it; may be
 *   NULL.
 * @return AMBER_OK; AMBER_DUPLICATE for a name registered already; AMBER_INVALID_ARGUMENT.
 * Ownership: strings copied; on failure ctx_free is not called. Thread safety: as the registry.
 */
int amber_coding_registry_register(amber_coding_registry *registry, const char *name,
                                   const char *superclass_name, const amber_coding_class *cls,
                                   void *ctx, void (*ctx_free)(void *ctx));

/**
 * Creates an archiver, positioned on the archive's top level.
 *
 * @param registry the classes of the objects it may encode, or NULL for values only.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_archiver_free().
 * Thread safety: as the registry.
 */
int amber_archiver_new(amber_archiver **out, const amber_coding_registry *registry);

/**
 * Frees an archiver.
 *
 * @param archiver an archiver, or NULL (nothing happens). Freeing the archiver an encode
 *   callback was given, from inside the callback, is refused (AMBER_MISUSE is recorded).
 * Ownership: the handle dangles. Thread safety: as the registry.
 */
void amber_archiver_free(amber_archiver *archiver);

/**
 * Encoders: write a value under a key (UTF-8, not empty) of the object the archiver is on.
 *
 * @return AMBER_OK; AMBER_DUPLICATE for a key written twice in the same object;
 *   AMBER_INVALID_ARGUMENT; AMBER_MISUSE once the archive is finished.
 * Ownership: strings and bytes are copied. Thread safety: as the registry.
 */
int amber_archiver_encode_bool(amber_archiver *archiver, const char *key, int value);
int amber_archiver_encode_int64(amber_archiver *archiver, const char *key, int64_t value);
int amber_archiver_encode_double(amber_archiver *archiver, const char *key, double value);
int amber_archiver_encode_string(amber_archiver *archiver, const char *key, const char *value);
int amber_archiver_encode_bytes(amber_archiver *archiver, const char *key, const void *bytes, size_t size);
/** A date: seconds since 2001-01-01T00:00:00Z (NSDate). */
int amber_archiver_encode_date(amber_archiver *archiver, const char *key, double seconds_since_2001);

/**
 * Encodes an object of a registered class under a key: the class's encode callback writes it
 * (for an object already encoded in this archive, not again: a reference to it). Called from
 * outside any encode callback, the object and every object it brings are encoded before this
 * returns; called from an encode callback, the object's callback runs after the running one
 * has returned (objects are encoded one after another, never nested, so a chain of any
 * length does not deepen the stack).
 *
 * @param class_name the object's registered class.
 * @param object the host's object, identified by its address; NULL encodes nil.
 * @return AMBER_OK; AMBER_TYPE_MISMATCH for a class not registered or without encode;
 *   AMBER_INVALID_ARGUMENT (also for an object encoded before under another class);
 *   AMBER_DUPLICATE; AMBER_MISUSE; an encode callback's code (the archive is then unusable:
 *   free it).
 * Ownership: the object stays the host's and must live until the archive is finished.
 * Thread safety: as the registry.
 */
int amber_archiver_encode_object(amber_archiver *archiver, const char *key, const char *class_name,
                                 const void *object);

/**
 * Encodes an array (NSArray) of `count` objects of one registered class under a key.
 *
 * @param objects `count` objects, none NULL; may be NULL when count is 0.
 * @return as amber_archiver_encode_object().
 * Ownership: as amber_archiver_encode_object(). Thread safety: as the registry.
 */
int amber_archiver_encode_object_array(amber_archiver *archiver, const char *key, const char *class_name,
                                       const void *const *objects, size_t count);

/**
 * Finishes the archive and gives its bytes (a binary property list).
 *
 * @param out receives the bytes; @param out_size their number.
 * @return AMBER_OK; AMBER_MISUSE if it was finished already or is called from an encode
 *   callback; AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out; free it with amber_bytes_free().
 * Thread safety: as the registry.
 */
int amber_archiver_finish(uint8_t **out, size_t *out_size, amber_archiver *archiver);

/**
 * Finishes the archive and writes it to `path` atomically, as amber_file_write_atomic()
 * (archiveRootObject:toFile:).
 *
 * @return as amber_archiver_finish() and amber_file_write_atomic().
 * Ownership: none. Thread safety: as the registry.
 */
int amber_archiver_write_file(amber_archiver *archiver, const char *path);

/**
 * Opens an archive for reading (its whole structure is checked first; R22's limits apply).
 *
 * @param registry the classes it may make, or NULL for values only.
 * @param bytes the archive; copied.
 * @return AMBER_OK; AMBER_CORRUPT for bytes that are not a keyed archive; AMBER_LIMIT_EXCEEDED;
 *   AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_unarchiver_free().
 * Thread safety: as the registry.
 */
int amber_unarchiver_new(amber_unarchiver **out, const amber_coding_registry *registry,
                         const void *bytes, size_t size);

/**
 * Opens the archive in a file (unarchiveObjectWithFile:).
 *
 * @return as amber_unarchiver_new(); AMBER_NOT_FOUND if there is no such file; AMBER_IO.
 * Ownership: as amber_unarchiver_new(). Thread safety: as the registry.
 */
int amber_unarchiver_open_file(amber_unarchiver **out, const amber_coding_registry *registry, const char *path);

/**
 * Frees an unarchiver. The objects it made are the host's (its make callbacks created them).
 *
 * @param unarchiver an unarchiver, or NULL (nothing happens). Freeing it from one of its own
 *   callbacks is refused (AMBER_MISUSE is recorded).
 * Ownership: strings and bytes borrowed from it dangle. Thread safety: as the registry.
 */
void amber_unarchiver_free(amber_unarchiver *unarchiver);

/**
 * Whether the object the unarchiver is on has a value for a key: 1 or 0 (0 also for bad
 * arguments).
 *
 * Ownership: none. Thread safety: as the registry.
 */
int amber_unarchiver_contains(amber_unarchiver *unarchiver, const char *key);

/**
 * Decoders: read the value under a key of the object the unarchiver is on (type-checked, R12).
 *
 * @return AMBER_OK; AMBER_NOT_FOUND for a missing key; AMBER_TYPE_MISMATCH for a value of
 *   another type (decode_double also accepts integers); AMBER_INVALID_ARGUMENT.
 * Ownership: strings and bytes are borrowed: valid until the unarchiver is freed.
 * Thread safety: as the registry.
 */
int amber_unarchiver_decode_bool(int *out, amber_unarchiver *unarchiver, const char *key);
int amber_unarchiver_decode_int64(int64_t *out, amber_unarchiver *unarchiver, const char *key);
int amber_unarchiver_decode_double(double *out, amber_unarchiver *unarchiver, const char *key);
int amber_unarchiver_decode_string(const char **out, amber_unarchiver *unarchiver, const char *key);
int amber_unarchiver_decode_bytes(const uint8_t **out, size_t *out_size, amber_unarchiver *unarchiver, const char *key);
int amber_unarchiver_decode_date(double *out, amber_unarchiver *unarchiver, const char *key);

/**
 * Decodes an object under a key (secure coding, R12): made by its class's make (and decode)
 * callbacks the first time the archive's object is met; later references give the same object.
 *
 * @param out receives the object, or NULL for nil.
 * @param classes the class names allowed (`class_count` of them): an object whose class is not
 *   one of them, nor registered as a subclass of one, is refused. class_count 0 allows every
 *   registered class. Classes that are not registered are never made.
 * @return AMBER_OK; AMBER_NOT_FOUND; AMBER_TYPE_MISMATCH (not an object, a class not allowed or
 *   not registered, or without make); AMBER_CORRUPT; AMBER_LIMIT_EXCEEDED; a callback's code;
 *   AMBER_CALLBACK_FAILED for a make that gave NULL; AMBER_INVALID_ARGUMENT.
 * Ownership: the objects made are the host's from the moment make returns them, also when the
 *   call fails later. Thread safety: as the registry.
 */
int amber_unarchiver_decode_object(void **out, amber_unarchiver *unarchiver, const char *key,
                                   const char *const *classes, size_t class_count);

/**
 * Decodes an array (NSArray) of objects under a key, as amber_unarchiver_decode_object().
 *
 * @param out receives at most `capacity` objects (may be NULL when capacity is 0).
 * @param out_length receives the array's length (call with capacity 0 to learn it; the objects
 *   are made once however often it is called).
 * @return as amber_unarchiver_decode_object(); AMBER_TYPE_MISMATCH also for an array holding nil.
 * Ownership: as amber_unarchiver_decode_object(). Thread safety: as the registry.
 */
int amber_unarchiver_decode_object_array(void **out, size_t capacity, size_t *out_length,
                                         amber_unarchiver *unarchiver, const char *key,
                                         const char *const *classes, size_t class_count);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_H */

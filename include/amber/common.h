/*
 * amber/common.h — what every part of Amber shares: the export macro, versions, status codes and
 * the thread's last error, the limits on what Amber reads, the handles, the owned buffer, the
 * one value type, the application's states and the log.
 *
 * Group: common. Included by every other Amber header; a host includes <amber.h>.
 */
#ifndef AMBER_COMMON_H
#define AMBER_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------------------- */
/* Export macro                                                                              */
/* ---------------------------------------------------------------------------------------- */

/** Marks every function of the API: exported from libamber, imported by a host. Define
 *  AMBER_BUILDING when building the library on Windows; define AMBER_API yourself to override. */
#ifndef AMBER_API
#  if defined(_WIN32)
#    if defined(AMBER_BUILDING)
#      define AMBER_API __declspec(dllexport)
#    else
#      define AMBER_API __declspec(dllimport)
#    endif
#  elif defined(__GNUC__) || defined(__clang__)
#    define AMBER_API __attribute__((visibility("default")))
#  else
#    define AMBER_API
#  endif
#endif

/* Initialisers of versioned structs (AMBER_DELEGATE_INIT, ...): every member zero or NULL but
 * the version. In C they are designated initialisers (no -Wmissing-field-initializers warning);
 * a C++ host may also zero the struct and set its version. */
#ifdef __cplusplus
#  define AMBER_STRUCT_INIT_(version) { version }
#else
#  define AMBER_STRUCT_INIT_(v) { .version = (v) }
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Versions                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/* The one place the version is written: the library reports these very numbers. */
#define AMBER_VERSION_MAJOR 0
#define AMBER_VERSION_MINOR 3
#define AMBER_VERSION_PATCH 0
/** The version as text, "MAJOR.MINOR.PATCH". */
#define AMBER_VERSION_STRING "0.3.0"
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
AMBER_API int amber_version_number(void);

/**
 * The version of the library loaded as text, AMBER_VERSION_STRING (e.g. "0.3.0").
 *
 * @return a static string.
 * Ownership: borrowed; lives as long as the library is loaded.
 * Thread safety: safe from any thread.
 */
AMBER_API const char *amber_version_string(void);

/* ---------------------------------------------------------------------------------------- */
/* Status codes and errors                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** Status codes. Every fallible function returns one of these (as an int: a host callback's
 *  own code is passed up unchanged, whatever its value). */
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

/** The names amber_status_string() gives, indexed by code and separated by one space: written
 *  once, here, for the library and the bindings alike (one literal on one line, so that Swift
 *  imports it). */
#define AMBER_STATUS_NAMES "AMBER_OK AMBER_INVALID_ARGUMENT AMBER_NOT_FOUND AMBER_TYPE_MISMATCH AMBER_RESERVED_KEY AMBER_DUPLICATE AMBER_IO AMBER_CORRUPT AMBER_KEY_UNAVAILABLE AMBER_AUTHENTICATION_FAILED AMBER_LIMIT_EXCEEDED AMBER_MISUSE AMBER_CALLBACK_FAILED"

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
/** The longest string or data value, in the bytes it is stored in: 64 MiB. A string is stored
 *  as its bytes when it is ASCII, else as UTF-16, two bytes a code unit (R22). */
#define AMBER_LIMIT_VALUE_BYTES (64L * 1024 * 1024)

/**
 * The message of the last failure on the calling thread.
 *
 * @return a message; "" if no call on this thread has failed. Never NULL.
 * Ownership: borrowed; valid until the next Amber call on the same thread.
 * Thread safety: per thread.
 */
AMBER_API const char *amber_error_last(void);

/**
 * The status code of the last failure on the calling thread (AMBER_OK if none): an
 * amber_status, or the code a host callback returned and Amber passed up.
 *
 * Ownership: none. Thread safety: per thread.
 */
AMBER_API int amber_error_last_code(void);

/**
 * Forgets the last failure on the calling thread.
 *
 * Ownership: none. Thread safety: per thread.
 */
AMBER_API void amber_error_clear(void);

/**
 * Records a failure on the calling thread, as a failing Amber call does: for a host callback to
 * say why it fails. When a callback returns non-zero, Amber reads the calling thread's failure
 * (cleared before the callback runs): if its code is the one returned, its message follows the
 * code wherever Amber reports it (a record's message at restoration, R12 and R30; an entry's at
 * preservation, R28; amber_error_last() after the call that passes the code up). So a decode
 * callback that fails for a reason of its own ends with
 * `return amber_error_set(AMBER_CALLBACK_FAILED, "row 7 is gone");`, and the bindings put an
 * exception's type and text there.
 *
 * @param code the code the callback will return; AMBER_OK forgets the failure, as
 *   amber_error_clear() does.
 * @param message the reason, UTF-8 (invalid sequences are replaced with U+FFFD); NULL: "".
 * @return `code`, unchanged.
 * Ownership: `message` is copied. Thread safety: per thread.
 */
AMBER_API int amber_error_set(int code, const char *message);

/**
 * The name of a status code, e.g. "AMBER_NOT_FOUND" (AMBER_STATUS_NAMES).
 *
 * @param status any value (an amber_status, or a callback's own code); values that are no
 *        amber_status give "AMBER_UNKNOWN_STATUS".
 * @return a static string, never NULL.
 * Ownership: borrowed; static.
 * Thread safety: safe from any thread.
 */
AMBER_API const char *amber_status_string(int status);

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
/** A notification being delivered: a name, a sender and a user info. Borrowed for one
 *  observer callback. */
typedef struct amber_notification amber_notification;
/** A dictionary of typed values by key (a notification's user info). */
typedef struct amber_user_info amber_user_info;
/** The coding classes an archiver and unarchiver know. */
typedef struct amber_coding_registry amber_coding_registry;
/** Writes a keyed archive. */
typedef struct amber_archiver amber_archiver;
/** Reads a keyed archive. */
typedef struct amber_unarchiver amber_unarchiver;

/** The kind of a restorable object. */
typedef enum amber_kind {
    /** The answer of amber_object_kind() for a bad handle. */
    AMBER_KIND_INVALID = -1,
    AMBER_KIND_CONTROLLER = 0,
    AMBER_KIND_VIEW = 1,
    AMBER_KIND_OBJECT = 2
} amber_kind;

/* ---------------------------------------------------------------------------------------- */
/* Owned buffers                                                                             */
/* ---------------------------------------------------------------------------------------- */

/**
 * Text or bytes that Amber gives the caller (a path, a report's text, a file's bytes, an
 * archive): `size` bytes at `ptr`, followed by a NUL that `size` does not count, so text can be
 * used as a C string. Start with { NULL, 0 } (AMBER_BUF_INIT); release with amber_buf_dispose().
 * A function that fills a buffer leaves it { NULL, 0 } on failure.
 */
typedef struct amber_buf {
    char *ptr;
    size_t size;
} amber_buf;

#define AMBER_BUF_INIT { NULL, 0 }

/**
 * Releases what a buffer holds and resets it to { NULL, 0 }.
 *
 * @param buf a buffer filled by Amber, an empty one, or NULL (nothing happens).
 * Ownership: the bytes are gone. Thread safety: safe from any thread.
 */
AMBER_API void amber_buf_dispose(amber_buf *buf);

/* ---------------------------------------------------------------------------------------- */
/* Values                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/** An index path (NSIndexPath): `length` indexes. Given to Amber, it is copied; given by Amber,
 *  it is borrowed as its documentation says. */
typedef struct amber_index_path {
    const int64_t *indexes;
    size_t length;
} amber_index_path;

/** The type of a value. */
typedef enum amber_value_type {
    /** Reading a user info (amber_user_info_values()): any type; `type` is set to the value's. */
    AMBER_VALUE_ANY = 0,
    AMBER_VALUE_BOOL = 1,
    AMBER_VALUE_INT64 = 2,
    AMBER_VALUE_DOUBLE = 3,
    AMBER_VALUE_STRING = 4,
    AMBER_VALUE_BYTES = 5,
    /** A date (NSDate): seconds since 2001-01-01T00:00:00Z in double_value. Coders and keyed
     *  archives. Finite, from year 1 to 9999 (what every binding's date type holds): another,
     *  NaN included, is AMBER_INVALID_ARGUMENT written and refused read (R22). */
    AMBER_VALUE_DATE = 6,
    /** An index path (NSIndexPath) in index_path_value. Coders only. */
    AMBER_VALUE_INDEX_PATH = 7
} amber_value_type;

/**
 * A typed value under a key: the one value type of Amber. Arrays of them cross the C ABI in one
 * call — an object's state (amber_coder_encode_values(), amber_decoder_decode_values()), a user
 * info (amber_user_info_set_values(), amber_user_info_values()), a keyed archive
 * (amber_archiver_encode_values(), amber_unarchiver_decode_values()). Zero it, then set `key`,
 * `type` and (writing) the member of that type.
 */
typedef struct amber_keyed_value {
    /** The key: UTF-8, not empty. */
    const char *key;
    /** The value's type. */
    amber_value_type type;
    /** Reading: set to 1 if the key has a value (and the value member is set), 0 if it has
     *  none (the value members are left as they were: set defaults before the call).
     *  Writing: not read. */
    int found;
    /** AMBER_VALUE_INT64, and AMBER_VALUE_BOOL as 0 or 1 (writing: any non-zero is true). */
    int64_t int64_value;
    /** AMBER_VALUE_DOUBLE (reading accepts an integer and converts it), AMBER_VALUE_DATE. */
    double double_value;
    /** AMBER_VALUE_STRING: NUL-terminated UTF-8. */
    const char *string_value;
    /** AMBER_VALUE_BYTES: `bytes_size` bytes (NULL allowed when bytes_size is 0). */
    const void *bytes_value;
    size_t bytes_size;
    /** AMBER_VALUE_INDEX_PATH (indexes NULL allowed when length is 0). */
    amber_index_path index_path_value;
} amber_keyed_value;

/* ---------------------------------------------------------------------------------------- */
/* The application's states (SPEC R23)                                                       */
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
 *   not running   inactive      launch                   amber_engine_launch(.., AMBER_APP_INACTIVE)
 *   not running   background    launch into background   amber_engine_launch(.., AMBER_APP_BACKGROUND)
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
    /** The answer of amber_engine_app_state() for a bad handle. */
    AMBER_APP_INVALID = -1,
    AMBER_APP_NOT_RUNNING = 0,
    AMBER_APP_INACTIVE = 1,
    AMBER_APP_ACTIVE = 2,
    AMBER_APP_BACKGROUND = 3,
    AMBER_APP_SUSPENDED = 4
} amber_app_state;

/**
 * The name of a state: "not running", "inactive", "active", "background", "suspended".
 *
 * @param state any value; unknown values give "unknown".
 * @return a static string, never NULL.
 * Ownership: borrowed; static. Thread safety: safe from any thread.
 */
AMBER_API const char *amber_app_state_string(amber_app_state state);

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
 * Sets the process-wide log function: it takes the lines of every engine that has none of its
 * own (amber_engine_set_log()), at `level` and above. NULL `fn` removes it. Independently, the
 * environment variable AMBER_LOG=debug|info|warn prints lines at that level and above to
 * standard error as "amber: <level>: <message>", without code.
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for a level out of range.
 * Ownership: `ctx_free` (optional) is called once with `ctx` when Amber no longer needs it: after
 *   the function is replaced or removed and no line is being written to it; on failure it is not
 *   called. Thread safety: safe
 *   from any thread; `fn` may be called from any thread that uses an engine.
 */
AMBER_API int amber_set_log(amber_log_level level, amber_log_fn fn, void *ctx, void (*ctx_free)(void *ctx));

#ifdef __cplusplus
}
#endif

#endif /* AMBER_COMMON_H */

/*
 * amber/app.h — the application around the engine: notifications and their user info, the
 * application's directories, and whole-file reads and atomic writes.
 *
 * Group: app (SPEC R23, R24, R27). Functions amber_engine_*_observer,
 * amber_engine_post_notification, amber_notification_*, amber_user_info_*, amber_app_directory,
 * amber_file_*. The application's states are in amber/common.h, its transitions in
 * amber/engine.h.
 */
#ifndef AMBER_APP_H
#define AMBER_APP_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Notifications (SPEC R24)                                                                  */
/* ---------------------------------------------------------------------------------------- */

/*
 * The engine posts these, with the engine as their sender and an empty user info. Observers of
 * AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE run while the interface is still on screen: this is where
 * a host hides sensitive content (an account number, a password field) before the
 * application's snapshot is taken on its way to the background. DID_ENTER_BACKGROUND is posted
 * before the engine preserves: the place to save the host's own data (the item store, with the
 * keyed archiver of amber/archive.h).
 */
#define AMBER_NOTIFICATION_DID_FINISH_LAUNCHING "AmberApplicationDidFinishLaunchingNotification"
#define AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE "AmberApplicationWillResignActiveNotification"
#define AMBER_NOTIFICATION_DID_BECOME_ACTIVE "AmberApplicationDidBecomeActiveNotification"
#define AMBER_NOTIFICATION_DID_ENTER_BACKGROUND "AmberApplicationDidEnterBackgroundNotification"
#define AMBER_NOTIFICATION_WILL_ENTER_FOREGROUND "AmberApplicationWillEnterForegroundNotification"
#define AMBER_NOTIFICATION_WILL_TERMINATE "AmberApplicationWillTerminateNotification"
#define AMBER_NOTIFICATION_DID_RECEIVE_MEMORY_WARNING "AmberApplicationDidReceiveMemoryWarningNotification"

/**
 * A notification's name.
 *
 * @return the name; NULL for a bad handle (also outside its callback).
 * Ownership: borrowed; valid until the callback returns. Thread safety: as the engine.
 */
AMBER_API const char *amber_notification_name(const amber_notification *note);

/**
 * A notification's sender as the poster gave it: the amber_engine for the engine's own
 * notifications; NULL for none (and for a bad handle).
 *
 * Ownership: the sender's. Thread safety: as the engine.
 */
AMBER_API const void *amber_notification_sender(const amber_notification *note);

/**
 * A notification's user info (empty when the poster gave none), read-only.
 *
 * @return the user info; NULL for a bad handle (also outside its callback).
 * Ownership: borrowed; valid until the callback returns (do not free it).
 * Thread safety: as the engine.
 */
AMBER_API const amber_user_info *amber_notification_user_info(const amber_notification *note);

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
AMBER_API int amber_engine_add_observer(uint64_t *out, amber_engine *engine, const char *name, const void *sender,
                                        amber_observer_fn callback, void *ctx, void (*ctx_free)(void *ctx));

/**
 * Removes an observer; also from inside a delivery (see amber_engine_add_observer()).
 *
 * @return AMBER_OK; AMBER_NOT_FOUND for a token not given out or already removed.
 * Ownership: ctx_free runs as amber_engine_add_observer() says. Thread safety: as the engine.
 */
AMBER_API int amber_engine_remove_observer(amber_engine *engine, uint64_t token);

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
AMBER_API int amber_engine_post_notification(amber_engine *engine, const char *name, const void *sender,
                                             const amber_user_info *user_info);

/* ---------------------------------------------------------------------------------------- */
/* User info                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/**
 * Creates an empty user info, to post with amber_engine_post_notification().
 *
 * @param out receives it.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_user_info_free().
 * Thread safety: a user info may be used by one thread at a time.
 */
AMBER_API int amber_user_info_new(amber_user_info **out);

/**
 * Frees a user info made by amber_user_info_new().
 *
 * @param info a user info, or NULL (nothing happens). A notification's user info is not the
 *   caller's to free: that is refused (AMBER_MISUSE is recorded; nothing happens).
 * Ownership: pointers borrowed from it dangle. Thread safety: as the user info.
 */
AMBER_API void amber_user_info_free(amber_user_info *info);

/**
 * The number of keys (0 for a bad handle).
 *
 * Ownership: none. Thread safety: as the user info.
 */
AMBER_API size_t amber_user_info_count(const amber_user_info *info);

/**
 * The key at `index`, in the order keys were first set.
 *
 * @param out receives the key.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: *out is borrowed: valid until the user info changes or is freed (for a
 *   notification's, until the callback returns). Thread safety: as the user info.
 */
AMBER_API int amber_user_info_key_at(const char **out, const amber_user_info *info, size_t index);

/**
 * Sets `count` values, each under its key (UTF-8, not empty); a key set again takes the new
 * value and keeps its place. Keys are kept in the order first set. A user info holds
 * AMBER_VALUE_BOOL, _INT64, _DOUBLE, _STRING and _BYTES. All or nothing: every value is checked
 * before any is set, and the message names the first value at fault by its index and key.
 *
 * @param values `count` values (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (also for a type a user info does not hold);
 *   AMBER_MISUSE on a notification's user info (it is read-only).
 * Ownership: `values` is read during the call; strings and bytes are copied.
 * Thread safety: as the user info.
 */
AMBER_API int amber_user_info_set_values(amber_user_info *info, const amber_keyed_value *values, size_t count);

/**
 * Reads `count` values: for each element, the value under its `key`, of its `type`, with
 * `found` set (a missing key is not an error: found = 0). With AMBER_VALUE_ANY, `type` is set to
 * the value's own type. AMBER_VALUE_DOUBLE also accepts an int64 and converts it. On an error,
 * the elements before the one at fault (named by the message, with its index and key) are
 * filled, the others unchanged.
 *
 * @param values `count` elements whose `key` and `type` are set (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_TYPE_MISMATCH for a value of another type than asked;
 *   AMBER_INVALID_ARGUMENT.
 * Ownership: strings and bytes set in `values` are borrowed, as amber_user_info_key_at()'s key.
 * Thread safety: as the user info.
 */
AMBER_API int amber_user_info_values(amber_keyed_value *values, size_t count, const amber_user_info *info);

/* ---------------------------------------------------------------------------------------- */
/* Directories and files (SPEC R27)                                                          */
/* ---------------------------------------------------------------------------------------- */

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
 * @param directory which one.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT (a bad app_id or directory); AMBER_NOT_FOUND when
 *   neither the variable nor a home directory is set; AMBER_IO when it cannot be created, is
 *   not a directory, or (temporary) is not the user's own private directory.
 * Ownership: the caller owns *out; release it with amber_buf_dispose().
 * Thread safety: safe from any thread (it reads the environment: do not change it meanwhile).
 */
AMBER_API int amber_app_directory(amber_buf *out, const char *app_id, amber_directory directory);

/**
 * Reads a whole file (up to 1 GiB).
 *
 * @param out receives the bytes (ptr never NULL on success, even for an empty file).
 * @return AMBER_OK; AMBER_NOT_FOUND if there is no such file; AMBER_IO (also, without
 *   blocking and without reading, for a FIFO, a directory, a socket or a device); AMBER_LIMIT_EXCEEDED
 *   for a larger file; AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out; release it with amber_buf_dispose().
 * Thread safety: safe from any thread.
 */
AMBER_API int amber_file_read(amber_buf *out, const char *path);

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
AMBER_API int amber_file_write_atomic(const char *path, const void *bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_APP_H */

/*
 * amber/coder.h — coders and decoders: what an object's encode callback writes and its decode
 * callback reads (and the application coder the delegate is given), by key.
 *
 * Group: coder (SPEC R4, R6, R7, R12). Functions amber_coder_* and amber_decoder_*: one typed
 * call per value type (dates and index paths too). A whole state in one call goes through
 * amber_keyed_value with amber_coder_encode_values() and amber_decoder_decode_values()
 * (amber/plugin.h, the advanced calls).
 */
#ifndef AMBER_CODER_H
#define AMBER_CODER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 *   AMBER_LIMIT_EXCEEDED for a string, bytes or a key over 64 MiB (a string counted in the
 *   bytes the archive stores it in: its bytes when it is ASCII, else two bytes a UTF-16 code
 *   unit, so one "é" doubles the rest), the limit restoration reads with (R22): nothing is
 *   written, and an encode callback that passes the code on leaves its object out.
 * Ownership: strings and bytes are copied. Thread safety: as the engine.
 */
AMBER_API int amber_coder_encode_string(amber_coder *coder, const char *key, const char *value);
AMBER_API int amber_coder_encode_int64(amber_coder *coder, const char *key, int64_t value);
AMBER_API int amber_coder_encode_double(amber_coder *coder, const char *key, double value);
AMBER_API int amber_coder_encode_bool(amber_coder *coder, const char *key, int value);
AMBER_API int amber_coder_encode_bytes(amber_coder *coder, const char *key, const void *bytes, size_t size);
/** A date (NSDate): `seconds` since 2001-01-01T00:00:00Z, finite, from year 1 to 9999 (what
 *  every binding's date type holds); another, NaN included, is AMBER_INVALID_ARGUMENT (R22). */
AMBER_API int amber_coder_encode_date(amber_coder *coder, const char *key, double seconds);
/** An index path (NSIndexPath): `length` indexes (NULL allowed when length is 0), copied. */
AMBER_API int amber_coder_encode_index_path(amber_coder *coder, const char *key, const int64_t *indexes,
                                            size_t length);
/** A reference to another restorable object (R4), or NULL for none, from an object's coder or
 *  the application coder (should_save, will_encode). If the object has a restoration
 *  identifier it is preserved with its state, even if the walk left it out (the children of a
 *  container without an identifier, a plain object), and with its contents: its identified
 *  views and children are preserved under it as the walk would (R2, R3), and what is left out
 *  there is in the preservation report (R28). Its path is its own identifier under those of its
 *  ancestors that have one. An object without an identifier is
 *  AMBER_INVALID_ARGUMENT; one whose path another preserved object has is AMBER_DUPLICATE. At
 *  restore the reference decodes to the object restored for it, from an object's decoder or
 *  from the application decoder in did_decode. */
AMBER_API int amber_coder_encode_object(amber_coder *coder, const char *key, amber_object *object);

/**
 * Marks a key of this coder sensitive (R34), before or after its value is written, whatever
 * its type (also a key written by amber_coder_encode_values()). A sensitive value:
 * - is kept only in an encrypted archive: with AMBER_PROTECTION_NONE this returns
 *   AMBER_KEY_UNAVAILABLE (there is no key to seal it under), and the whole preservation then
 *   writes nothing and fails with AMBER_KEY_UNAVAILABLE, the previous archive kept;
 * - is named (its key, never its value) under the reserved key "amber.sensitive" of the
 *   object's state, so that `amber inspect` and `amber dump` print `<sensitive>` instead;
 * - is never logged (no value is, R29);
 * - is zeroed where Amber holds it in plaintext: the archive's plaintext once sealed, and the
 *   strings and bytes a decoder lent (all of them, sensitive or not), once the callback
 *   returns. Copies Amber does not own are not: the host's own buffers, and the
 *   Python or Swift strings a binding makes (docs/behaviour.md, R34, says what is zeroed).
 *
 * Snapshots (amber_engine_set_snapshot(), R21) are the host's images of its screen: take them
 * after the observers of AMBER_NOTIFICATION_WILL_RESIGN_ACTIVE have run (R24), which is where a
 * host hides its sensitive fields; Amber stores a snapshot as it is given.
 *
 * @return AMBER_OK (marking a key twice is harmless); AMBER_KEY_UNAVAILABLE as above;
 *   AMBER_RESERVED_KEY for a reserved key; AMBER_INVALID_ARGUMENT; AMBER_MISUSE outside the
 *   callback.
 * Ownership: the key is copied. Thread safety: as the engine.
 */
AMBER_API int amber_coder_mark_sensitive(amber_coder *coder, const char *key);

/**
 * Decoders: read the value under a key from the object's own coder (R12).
 *
 * @param out receives the value.
 * @return AMBER_OK; AMBER_NOT_FOUND for a missing key; AMBER_TYPE_MISMATCH for a value of
 *   another type; AMBER_INVALID_ARGUMENT; AMBER_MISUSE outside the callback.
 * Ownership: see each function. Thread safety: as the engine.
 */
/** *out is borrowed: valid until the callback returns. */
AMBER_API int amber_decoder_decode_string(const char **out, amber_decoder *decoder, const char *key);
AMBER_API int amber_decoder_decode_int64(int64_t *out, amber_decoder *decoder, const char *key);
/** Integers are accepted and converted. */
AMBER_API int amber_decoder_decode_double(double *out, amber_decoder *decoder, const char *key);
AMBER_API int amber_decoder_decode_bool(int *out, amber_decoder *decoder, const char *key);
/** *out and *out_size are borrowed: valid until the callback returns. */
AMBER_API int amber_decoder_decode_bytes(const uint8_t **out, size_t *out_size, amber_decoder *decoder, const char *key);
/** A date: *out receives its seconds since 2001-01-01T00:00:00Z. An archive's date outside
 *  years 1 to 9999 is refused (R22). */
AMBER_API int amber_decoder_decode_date(double *out, amber_decoder *decoder, const char *key);
/** An index path: out->indexes (NULL when out->length is 0) is borrowed: valid until the
 *  callback returns. */
AMBER_API int amber_decoder_decode_index_path(amber_index_path *out, amber_decoder *decoder, const char *key);

/**
 * The object restored for the record a reference names (R4), from an object's decoder or the
 * application decoder (did_decode), or NULL (AMBER_OK) for a null reference or a record nothing
 * was found for. A record whose object failed the class check (R11) gives that object, kept but
 * not decoded. In lookup callbacks and should_restore, objects not made yet give NULL:
 * references resolve fully in decode callbacks and did_decode.
 *
 * With `class_count` classes, decoding is secure (R12): the referenced object must be of one of
 * `classes` or of a registered subclass of one (amber_engine_register_subclass()) — both the
 * class the archive records for it and, when an object was found for it, that object's class.
 *
 * @param out receives the object, or NULL.
 * @param classes `class_count` class names (UTF-8, not empty); NULL with 0 allows any class.
 * @return AMBER_OK; AMBER_TYPE_MISMATCH for a class not allowed (the message names it) or a
 *   value that is not a reference; AMBER_NOT_FOUND for a missing key; AMBER_INVALID_ARGUMENT
 *   (a NULL or invalid class name, NULL classes with a count); AMBER_MISUSE outside the callback.
 * Ownership: *out is borrowed from the engine; `classes` is read during the call only.
 * Thread safety: as the engine.
 */
AMBER_API int amber_decoder_decode_object(amber_object **out, amber_decoder *decoder, const char *key,
                                          const char *const *classes, size_t class_count);

/**
 * Whether the decoder has a value for a key: 1 or 0 (0 also for a bad handle or key).
 *
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_decoder_contains(const amber_decoder *decoder, const char *key);

/** What the archive records of the object a decoder reads, besides its state (R6, R3). */
typedef struct amber_record_info {
    amber_kind kind;
    /** The archived class name. */
    const char *class_name;
    /** The blueprint it was made from (UIKit's storyboard), or NULL. */
    const char *blueprint;
    /** Its position among the children of a stack with the same identifier (0: the first, and
     *  always outside a stack). The last path component is the identifier as set (R3); the
     *  positions of the other components are given by amber_decoder_path_positions(). */
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
AMBER_API int amber_decoder_record(amber_record_info *out, const amber_decoder *decoder);

/**
 * The stack position of each component of the restoration path of the object a decoder reads
 * (R3), in path order: a lookup callback (restoration class, object_for_path, blueprint factory)
 * is given the path's identifiers, and tells apart the child X of the first A of a stack
 * (positions {0, 0, 0}) from the child X of the second A ({0, 1, 0}) by these. The last one is
 * amber_record_info's `position`.
 *
 * @param out receives `*length` positions, borrowed from the decoder, valid during the callback.
 * @param length receives the number of components (the callback's `path_length`).
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for the application decoder or a NULL argument;
 *   AMBER_MISUSE outside the callback.
 * Ownership: see `out`. Thread safety: as the engine.
 */
AMBER_API int amber_decoder_path_positions(const size_t **out, size_t *length, const amber_decoder *decoder);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_CODER_H */

/*
 * amber/archive.h — keyed archiving of the host's own data (SPEC R25, R26): the NSCoding model.
 * A coding registry names the host's classes with their encode, make and decode callbacks; an
 * archiver writes values and objects by key into an NSKeyedArchiver-layout archive (which
 * Foundation's NSKeyedUnarchiver and Python's plistlib read); an unarchiver reads one back. The
 * same object (the same pointer) encoded twice is stored once, and cycles come back as cycles.
 *
 * Group: archive. Functions amber_coding_registry_*, amber_archiver_*, amber_unarchiver_*.
 * Values go through amber_keyed_value (AMBER_VALUE_BOOL, _INT64, _DOUBLE, _STRING, _BYTES,
 * _DATE); objects and arrays of objects through their own calls.
 *
 * The seeds' item store, archiveRootObject:toFile: and unarchiveObjectWithFile: in C:
 *
 *   amber_archiver *a;
 *   amber_buf archive = AMBER_BUF_INIT, file = AMBER_BUF_INIT;
 *   amber_archiver_new(&a, registry);
 *   amber_archiver_encode_object_array(a, "root", "BNRItem", (const void *const *)items, n);
 *   amber_archiver_finish(&archive, a);
 *   amber_file_write_atomic("<documents>/items.archive", archive.ptr, archive.size);
 *   amber_buf_dispose(&archive);
 *   amber_archiver_free(a);
 *   ...
 *   amber_unarchiver *u;
 *   amber_file_read(&file, "<documents>/items.archive");
 *   amber_unarchiver_new(&u, registry, file.ptr, file.size);
 *   amber_buf_dispose(&file);
 *   amber_unarchiver_decode_object_array(items, capacity, &n, u, "root", classes, 1);
 *   amber_unarchiver_free(u);
 */
#ifndef AMBER_ARCHIVE_H
#define AMBER_ARCHIVE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Coding registries                                                                         */
/* ---------------------------------------------------------------------------------------- */

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
/** A coding class with every callback NULL and its version set. */
#define AMBER_CODING_CLASS_INIT AMBER_STRUCT_INIT_(AMBER_CODING_CLASS_VERSION)

/**
 * Creates an empty coding registry.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_coding_registry_free().
 * Thread safety: a registry, and the archivers and unarchivers made with it, may be used by one
 *   thread at a time.
 */
AMBER_API int amber_coding_registry_new(amber_coding_registry **out);

/**
 * Frees a registry. Archivers and unarchivers made with it keep working: each class's
 * ctx_free runs once the registry and all of them are freed.
 *
 * @param registry a registry, or NULL (nothing happens).
 * Ownership: the handle dangles. Thread safety: as the registry.
 */
AMBER_API void amber_coding_registry_free(amber_coding_registry *registry);

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
AMBER_API int amber_coding_registry_register(amber_coding_registry *registry, const char *name,
                                             const char *superclass_name, const amber_coding_class *cls,
                                             void *ctx, void (*ctx_free)(void *ctx));

/* ---------------------------------------------------------------------------------------- */
/* Archivers                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/**
 * Creates an archiver, positioned on the archive's top level.
 *
 * @param registry the classes of the objects it may encode, or NULL for values only.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_archiver_free().
 * Thread safety: as the registry.
 */
AMBER_API int amber_archiver_new(amber_archiver **out, const amber_coding_registry *registry);

/**
 * Frees an archiver.
 *
 * @param archiver an archiver, or NULL (nothing happens). Freeing the archiver an encode
 *   callback was given, from inside the callback, is refused (AMBER_MISUSE is recorded).
 * Ownership: the handle dangles. Thread safety: as the registry.
 */
AMBER_API void amber_archiver_free(amber_archiver *archiver);

/**
 * Finishes the archive and gives its bytes (a binary property list). To write it to a file
 * atomically (archiveRootObject:toFile:), hand them to amber_file_write_atomic().
 *
 * @param out receives the bytes; release them with amber_buf_dispose().
 * @return AMBER_OK; AMBER_MISUSE if it was finished already or is called from an encode
 *   callback; AMBER_LIMIT_EXCEEDED for an archive its reader would refuse (R22): a string or
 *   data value, or a key, over AMBER_LIMIT_VALUE_BYTES as stored, more than AMBER_LIMIT_OBJECTS
 *   objects (every object of the property list), more than AMBER_LIMIT_ARCHIVE_BYTES;
 *   AMBER_INVALID_ARGUMENT, also for a date that is NaN, infinite or outside years 1 to 9999.
 * Ownership: the caller owns *out. Thread safety: as the registry.
 */
AMBER_API int amber_archiver_finish(amber_buf *out, amber_archiver *archiver);

/**
 * Encodes `count` values under their keys (UTF-8, not empty) into the object the archiver is
 * on, in array order (AMBER_VALUE_BOOL, _INT64, _DOUBLE, _STRING, _BYTES, _DATE). All or
 * nothing: every value is checked before any is written, and the message names the first value
 * at fault by its index and key.
 *
 * @param values `count` values (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_DUPLICATE for a key written twice in the same object;
 *   AMBER_INVALID_ARGUMENT (also for a type an archive does not hold); AMBER_MISUSE once the
 *   archive is finished.
 * Ownership: `values` is read during the call; strings and bytes are copied.
 * Thread safety: as the registry.
 */
AMBER_API int amber_archiver_encode_values(amber_archiver *archiver, const amber_keyed_value *values, size_t count);

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
 *   AMBER_DUPLICATE; AMBER_MISUSE; AMBER_LIMIT_EXCEEDED for an object the unarchiver would
 *   decode nested deeper than AMBER_LIMIT_DEPTH objects (R22: the depth of the archiver's walk,
 *   which meets keys in the order they are encoded; a chain of 600 objects is refused); an
 *   encode callback's code (for either of these two, the archive is then unusable: free it).
 * Ownership: the object stays the host's and must live until the archive is finished.
 * Thread safety: as the registry.
 */
AMBER_API int amber_archiver_encode_object(amber_archiver *archiver, const char *key, const char *class_name,
                                           const void *object);

/**
 * Encodes an array (NSArray) of `count` objects of one registered class under a key.
 *
 * @param objects `count` objects, none NULL; may be NULL when count is 0.
 * @return as amber_archiver_encode_object().
 * Ownership: as amber_archiver_encode_object(). Thread safety: as the registry.
 */
AMBER_API int amber_archiver_encode_object_array(amber_archiver *archiver, const char *key, const char *class_name,
                                                 const void *const *objects, size_t count);

/* ---------------------------------------------------------------------------------------- */
/* Unarchivers                                                                               */
/* ---------------------------------------------------------------------------------------- */

/**
 * Opens an archive for reading (its whole structure is checked first; R22's limits apply). To
 * read one from a file (unarchiveObjectWithFile:), read it with amber_file_read() first.
 *
 * @param registry the classes it may make, or NULL for values only.
 * @param bytes the archive; copied.
 * @return AMBER_OK; AMBER_CORRUPT for bytes that are not a keyed archive; AMBER_LIMIT_EXCEEDED;
 *   AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out and frees it with amber_unarchiver_free().
 * Thread safety: as the registry.
 */
AMBER_API int amber_unarchiver_new(amber_unarchiver **out, const amber_coding_registry *registry,
                                   const void *bytes, size_t size);

/**
 * Frees an unarchiver. The objects it made are the host's (its make callbacks created them).
 *
 * @param unarchiver an unarchiver, or NULL (nothing happens). Freeing it from one of its own
 *   callbacks is refused (AMBER_MISUSE is recorded).
 * Ownership: strings and bytes borrowed from it dangle. Thread safety: as the registry.
 */
AMBER_API void amber_unarchiver_free(amber_unarchiver *unarchiver);

/**
 * Whether the object the unarchiver is on has a value for a key: 1 or 0 (0 also for a bad
 * handle or key).
 *
 * Ownership: none. Thread safety: as the registry.
 */
AMBER_API int amber_unarchiver_contains(const amber_unarchiver *unarchiver, const char *key);

/**
 * Decodes `count` values of the object the unarchiver is on (type-checked, R12): for each
 * element, the value under its `key`, of its `type`, with `found` set (a missing key is not an
 * error: found = 0). AMBER_VALUE_DOUBLE also accepts integers. On an error, the elements before
 * the one at fault (named by the message, with its index and key) are filled, the others
 * unchanged.
 *
 * @param values `count` elements whose `key` and `type` are set (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_TYPE_MISMATCH for a value of another type; AMBER_INVALID_ARGUMENT.
 * Ownership: strings and bytes set in `values` are borrowed: valid until the unarchiver is
 *   freed. Thread safety: as the registry.
 */
AMBER_API int amber_unarchiver_decode_values(amber_keyed_value *values, size_t count, amber_unarchiver *unarchiver);

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
AMBER_API int amber_unarchiver_decode_object(void **out, amber_unarchiver *unarchiver, const char *key,
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
AMBER_API int amber_unarchiver_decode_object_array(void **out, size_t capacity, size_t *out_length,
                                                   amber_unarchiver *unarchiver, const char *key,
                                                   const char *const *classes, size_t class_count);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_ARCHIVE_H */

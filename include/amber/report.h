/*
 * amber/report.h — what a restoration did (amber_report, R16) and what a preservation did
 * (amber_preservation, R28), object by object, with the reasons in words.
 *
 * Group: report. Functions amber_report_* and amber_preservation_*, alike: count, entry,
 * message, reason, format, free.
 */
#ifndef AMBER_REPORT_H
#define AMBER_REPORT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Restoration reports (SPEC R16)                                                            */
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
    AMBER_OUTCOME_DUPLICATE = 6,
    /** The record was of an older state version of its class (R30): the class's migrate callback
     *  turned it into the current one, and the object was then restored from the migrated state.
     *  The message says "migrated from version F to version T". */
    AMBER_OUTCOME_MIGRATED = 7,
    /** The record was of a newer state version than its class declares, or of an older one that
     *  the class does not migrate or whose migrate callback declined (R30): neither it nor
     *  anything under it was restored, as for AMBER_OUTCOME_DECLINED_BY_CLASS. The message
     *  names the versions. */
    AMBER_OUTCOME_DECLINED_VERSION = 8
} amber_outcome;

/** Why a launch was fresh. */
typedef enum amber_fresh_reason {
    /** The answer of amber_report_fresh_reason() for a bad handle. */
    AMBER_FRESH_INVALID = -1,
    AMBER_FRESH_NONE = 0,           /* not fresh: restoration ran */
    AMBER_FRESH_NO_ARCHIVE = 1,
    AMBER_FRESH_DECLINED = 2,       /* should_restore said no, or is not set */
    AMBER_FRESH_CORRUPT = 3,        /* the archive could not be read: see the message */
    AMBER_FRESH_CRASH_LOOP = 4,     /* restoration died on two launches in a row */
    /* the key is not available now (locked, a key file refused, a key callback that failed);
       the archive is kept */
    AMBER_FRESH_KEY_UNAVAILABLE = 5,
    /* the store could not read the archive, or could not read or write the launch guard
       (R14: then a crash while restoring could not be counted); the archive is kept (the file
       store: also a FIFO, a directory, a socket or a device at the archive's or the guard's
       path, never read and never deleted) */
    AMBER_FRESH_STORE_ERROR = 6,
    AMBER_FRESH_AUTHENTICATION_FAILED = 7, /* tampered, or sealed with another key; discarded */
    AMBER_FRESH_DISCARDED_BY_HOST = 8,     /* amber_engine_discard() ran before this launch */
    AMBER_FRESH_IN_PROGRESS = 9,    /* a restoration is under way or waits for extensions */
    /* the previous launch's restoration was extended (R15) and the process ended before it
       completed: the archive was discarded, as UIKit does */
    AMBER_FRESH_EXTENSION_UNFINISHED = 10,
    /* the archive was saved by another application (the app_id of its engine options is not
       this engine's, R9): it is not restored, and it is discarded; the message names both */
    AMBER_FRESH_OTHER_APPLICATION = 11
} amber_fresh_reason;

/** One record of a report. Pointers are borrowed from the report. */
typedef struct amber_report_record {
    /** The restoration path: `path_length` identifiers. The stack position of each is given by
     *  amber_report_record_positions() (R3). */
    const char *const *path;
    size_t path_length;
    const char *class_name;
    amber_kind kind;
    amber_outcome outcome;
    /** Why, for outcomes other than restored ("" otherwise); for AMBER_OUTCOME_MIGRATED, the
     *  versions: "migrated from version F to version T". */
    const char *message;
    /** The object found for the record (restored, class mismatch, decode error, duplicate), or
     *  NULL. Borrowed from the engine: it dangles once the object is freed. Its identity is
     *  the archived one: a reference to a record with a class mismatch decodes to this object. */
    amber_object *object;
    /** Its position among the children of its stack with the same identifier (R3; 0 outside a
     *  stack). */
    size_t position;
    /** A view's model identifiers that no longer resolve to an index path (R18), in archived
     *  order, each listed once: its archived selected items and first visible item whose
     *  identifier its data source no longer knows (or all of them, if the view has no model
     *  association now). They were dropped; the rest of the view's state was applied.
     *  `dropped_count` of them (0 for other records). */
    const char *const *dropped_identifiers;
    size_t dropped_count;
} amber_report_record;

/**
 * The number of records: one per archived object (0 for a bad handle).
 *
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API size_t amber_report_count(const amber_report *report);

/**
 * Reads record `index`.
 *
 * @param out filled with borrowed pointers, valid until the report is freed.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
AMBER_API int amber_report_record_at(amber_report_record *out, const amber_report *report, size_t index);

/**
 * The stack position of each component of record `index`'s path (R3): `path_length` values, in
 * path order, the last one the record's `position`. The path's identifiers alone do not tell
 * apart the child X of the first A of a stack from the child X of the second A; their
 * positions do ({0, 0, 0} and {0, 1, 0} for nav/A/X and nav/A[1]/X).
 *
 * @param out receives the array, borrowed, valid until the report is freed.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
AMBER_API int amber_report_record_positions(const size_t **out, const amber_report *report, size_t index);

/**
 * The report's message about the launch as a whole, lines separated by '\n': why it was fresh
 * (the reason alone, "corrupt archive: ...", so that a host that prints "fresh launch: %s"
 * says it once), notes on callbacks that failed outside any object (did_decode, object_for_path), a launch
 * guard that could not be updated, extensions pending ("" if none; NULL for a bad handle).
 *
 * Ownership: borrowed from the report. Thread safety: as the engine.
 */
AMBER_API const char *amber_report_message(const amber_report *report);

/**
 * Why the launch was fresh: AMBER_FRESH_NONE if it restored; AMBER_FRESH_INVALID for a bad
 * handle.
 *
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API amber_fresh_reason amber_report_fresh_reason(const amber_report *report);

/**
 * How the engine protects archives, in words: "AES-256-GCM, HKDF-SHA256 per-archive key" or
 * "none (not encrypted)" (R20). NULL for a bad handle.
 *
 * Ownership: borrowed from the report. Thread safety: as the engine.
 */
AMBER_API const char *amber_report_protection(const amber_report *report);

/**
 * The whole report as text, one line per record.
 *
 * @param out receives the text; release it with amber_buf_dispose().
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out. Thread safety: as the engine.
 */
AMBER_API int amber_report_format(amber_buf *out, const amber_report *report);

/**
 * Frees a report.
 *
 * @param report a report, or NULL (nothing happens).
 * Ownership: pointers borrowed from it dangle. Thread safety: as the engine.
 */
AMBER_API void amber_report_free(amber_report *report);

/* ---------------------------------------------------------------------------------------- */
/* Preservation reports (SPEC R28)                                                           */
/* ---------------------------------------------------------------------------------------- */

/** Why nothing was saved. */
typedef enum amber_not_saved {
    /** The answer of amber_preservation_not_saved() for a bad handle. */
    AMBER_NOT_SAVED_INVALID = -1,
    AMBER_NOT_SAVED_NONE = 0,           /* an archive was written */
    AMBER_NOT_SAVED_NO_SHOULD_SAVE = 1, /* the delegate has no should_save callback */
    AMBER_NOT_SAVED_DECLINED = 2,       /* should_save returned 0 */
    AMBER_NOT_SAVED_FAILED = 3,         /* the save failed (see the message); the previous archive is kept */
    /** The archive would have been larger than its budget (the engine option archive_budget,
     *  else 512 MiB, R31): the previous archive is kept, amber_engine_preserve() returned
     *  AMBER_LIMIT_EXCEEDED, and the report still lists every object with its size and the
     *  largest ones (amber_preservation_largest_at()). */
    AMBER_NOT_SAVED_OVER_BUDGET = 4
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
    AMBER_LEFT_OUT_TOO_DEEP = 7,                    /* its path would be deeper than the limit restoration
                                                       reads (512 levels); the message counts the objects
                                                       under it, left out with it (R22) */
    AMBER_LEFT_OUT_OVER_BUDGET = 8,                 /* its record took more than the engine option
                                                       object_budget: its state was taken back, the objects
                                                       under it are left out too (AMBER_LEFT_OUT_UNDER_LEFT_OUT),
                                                       and its entry's size is the bytes it took (R31) */
    AMBER_LEFT_OUT_CARRIED = 9,                     /* not an object of the trees: a record kept for an object
                                                       created later (R35) that none has claimed yet, written
                                                       into this archive as it was restored, so that a later
                                                       launch still has its state; its size is what it added */
    AMBER_LEFT_OUT_NOT_CARRIED = 10                 /* a record kept for an object created later (R35) that
                                                       none has claimed yet and that this archive does not
                                                       hold: the message says why (a sensitive value and an
                                                       archive not encrypted, R34; an object above it) */
} amber_left_out;

/** One object of a preservation report. Pointers are borrowed from the report. */
typedef struct amber_preservation_entry {
    /** Its restoration path as far as it has one: the identifiers of its ancestors that have
     *  one, then its own if it has one (`path_length` identifiers). The stack position of each
     *  is given by amber_preservation_entry_positions() (R3). */
    const char *const *path;
    size_t path_length;
    const char *class_name;
    amber_kind kind;
    /** AMBER_LEFT_OUT_NONE if the object was preserved. */
    amber_left_out left_out;
    /** The reason in words ("" for a preserved object). */
    const char *message;
    /** The bytes its record added to the archive before encryption; for
     *  AMBER_LEFT_OUT_OVER_BUDGET, the bytes it took before it was taken back; 0 if left out for
     *  any other reason. */
    uint64_t size;
    /** Its position among the children of its stack with the same identifier (R3). */
    size_t position;
} amber_preservation_entry;

/** The number of entries: objects preserved and objects left out (0 for a bad handle).
 *  Ownership: none. Thread safety: as the engine. */
AMBER_API size_t amber_preservation_count(const amber_preservation *report);

/**
 * Reads entry `index`: the archive's records come first, in archive order.
 *
 * @param out filled with borrowed pointers, valid until the report is freed.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
AMBER_API int amber_preservation_entry_at(amber_preservation_entry *out, const amber_preservation *report, size_t index);

/**
 * The stack position of each component of entry `index`'s path (R3): `path_length` values, in
 * path order, the last one the entry's `position` (see amber_report_record_positions()).
 *
 * @param out receives the array, borrowed, valid until the report is freed.
 * @return AMBER_OK; AMBER_NOT_FOUND past the end; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
AMBER_API int amber_preservation_entry_positions(const size_t **out, const amber_preservation *report, size_t index);

/** Why nothing was saved, in words ("" if an archive was written; NULL for a bad handle).
 *  Ownership: borrowed from the report. Thread safety: as the engine. */
AMBER_API const char *amber_preservation_message(const amber_preservation *report);

/** Why nothing was saved: AMBER_NOT_SAVED_NONE if an archive was written;
 *  AMBER_NOT_SAVED_INVALID for a bad handle. Ownership: none. Thread safety: as the engine. */
AMBER_API amber_not_saved amber_preservation_not_saved(const amber_preservation *report);

/** The size of the archive written, in bytes after encryption (0 if none was written, and for
 *  a bad handle). Ownership: none. Thread safety: as the engine. */
AMBER_API uint64_t amber_preservation_size(const amber_preservation *report);

/**
 * How many objects amber_preservation_largest_at() lists: the objects whose records are in the
 * archive, at most ten (R31). Also when the archive was over its budget and not written
 * (AMBER_NOT_SAVED_OVER_BUDGET). 0 when nothing was encoded, and for a bad handle.
 *
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API size_t amber_preservation_largest_count(const amber_preservation *report);

/**
 * Reads one of the largest objects (R31): rank 0 is the largest; objects of equal size come in
 * archive order. The entry is the one amber_preservation_entry_at() gives for that object.
 *
 * @param out filled with borrowed pointers, valid until the report is freed.
 * @param rank from 0 to amber_preservation_largest_count() - 1.
 * @return AMBER_OK; AMBER_NOT_FOUND past the last; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
AMBER_API int amber_preservation_largest_at(amber_preservation_entry *out, const amber_preservation *report, size_t rank);

/**
 * The stack position of each component of the path of the object of rank `rank` (R3), as
 * amber_preservation_entry_positions() gives them for its entry.
 *
 * @param out receives `path_length` positions, borrowed, valid until the report is freed.
 * @return AMBER_OK; AMBER_NOT_FOUND past the last; AMBER_INVALID_ARGUMENT.
 * Ownership: see `out`. Thread safety: as the engine.
 */
AMBER_API int amber_preservation_largest_positions(const size_t **out, const amber_preservation *report, size_t rank);

/**
 * The whole report as text: a first line (what was saved, or why nothing was), then a line per
 * kept record carried (R35, "carried PATH (CLASS): N bytes, ..."), per object left out and per
 * object preserved, then the largest objects (R31), one a line.
 *
 * @param out receives the text; release it with amber_buf_dispose().
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the caller owns *out. Thread safety: as the engine.
 */
AMBER_API int amber_preservation_format(amber_buf *out, const amber_preservation *report);

/** Frees a preservation report; NULL does nothing. Ownership: pointers borrowed from it
 *  dangle. Thread safety: as the engine. */
AMBER_API void amber_preservation_free(amber_preservation *report);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_REPORT_H */

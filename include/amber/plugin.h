/*
 * amber/plugin.h — the advanced calls: loading a plugin library into an engine, and the batch
 * calls of coders and decoders (an object's whole state in one call, for bindings).
 *
 * Group: advanced. Functions amber_engine_load_plugin, amber_coder_encode_values,
 * amber_decoder_decode_values.
 *
 * Stability: these follow every convention of amber.h, but until 1.0 they may change in a minor
 * release more readily than the rest (as zstd's experimental section does); a change is always
 * listed in CHANGELOG.md. The store vtable of plugins (amber_store) is in amber/engine.h, the view
 * accessors and model association (plugins too) in amber/view.h.
 */
#ifndef AMBER_PLUGIN_H
#define AMBER_PLUGIN_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

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
AMBER_API int amber_engine_load_plugin(amber_engine *engine, const char *path);

/* ---------------------------------------------------------------------------------------- */
/* Batch calls of coders and decoders (SPEC R6, R7, R12, R22)                                */
/* ---------------------------------------------------------------------------------------- */

/**
 * Encodes `count` values, each as the encoder of its type would (amber_coder_encode_bool(),
 * _int64(), _double(), _string(), _bytes(); AMBER_VALUE_DATE a date, NSDate;
 * AMBER_VALUE_INDEX_PATH an index path, NSIndexPath), in array order. All or nothing: every
 * value is checked before any is written (its type and key, its string's UTF-8, the key neither
 * reserved, nor written before in this coder, nor twice in `values`), and on an error nothing
 * is written. The message names the first value at fault by its index and key.
 *
 * @param values `count` values (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_RESERVED_KEY; AMBER_DUPLICATE; AMBER_INVALID_ARGUMENT (an unknown
 *   type, a NULL, empty or invalid key, a NULL or invalid UTF-8 string, NULL bytes or indexes
 *   with a non-zero size); AMBER_LIMIT_EXCEEDED (as the encoders); AMBER_MISUSE outside the
 *   callback.
 * Ownership: `values` is read during the call only; strings, bytes and indexes are copied.
 * Thread safety: as the engine.
 */
AMBER_API int amber_coder_encode_values(amber_coder *coder, const amber_keyed_value *values, size_t count);

/**
 * Decodes `count` values in one call: for each element, the value under its key as the decoder
 * of its type would read it (amber_decoder_decode_bool(), _int64(), _double(), _string(),
 * _bytes(); a date; an index path), with `found` set. A missing key is not an error (found = 0).
 * On an error, the elements before the one at fault (named by the message, with its index and
 * key) are filled, the others unchanged.
 *
 * @param values `count` elements whose `key` and `type` are set (NULL allowed when count is 0).
 * @return AMBER_OK; AMBER_TYPE_MISMATCH for a value of another type than asked;
 *   AMBER_INVALID_ARGUMENT (an unknown type, a NULL, empty or invalid key); AMBER_MISUSE
 *   outside the callback.
 * Ownership: strings, bytes and indexes set in `values` are borrowed: valid until the callback
 *   returns. Thread safety: as the engine.
 */
AMBER_API int amber_decoder_decode_values(amber_keyed_value *values, size_t count, amber_decoder *decoder);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_PLUGIN_H */

/*
 * amber.h — the C interface of Amber, UI state preservation and restoration for any program.
 * The one header a host includes; it includes the headers of every module under amber/.
 *
 * This header and those it includes are the whole contract: a function that is not declared in
 * them is not API.
 *
 *   amber/common.h   versions, status codes and errors, handles, amber_buf, amber_keyed_value,
 *                    the application's states, the process-wide log
 *   amber/engine.h   engines: options, stores, classes, delegate, roots, launch, preserve,
 *                    transitions, snapshots, an engine's log
 *   amber/object.h   restorable objects and their trees
 *   amber/coder.h    coders and decoders: an object's state by key
 *   amber/report.h   what a restoration and a preservation did
 *   amber/view.h     views' standard state (one versioned struct) and model associations
 *   amber/app.h      notifications, user info, directories, files
 *   amber/archive.h  keyed archiving of the host's own data
 *   amber/plugin.h   advanced: plugin loading and the batch calls (see its stability note)
 *   amber/testing.h  tests: a kill and a relaunch in one call
 *
 * Conventions (house style, after SQLite, libgit2 and zstd), one rule each:
 * - Names: functions and types amber_, macros and enum constants AMBER_, functions
 *   amber_<handle>_<verb>: the prefix is the handle the function takes first.
 * - Out-parameters come first (arrays filled in place count as out-parameters), named out or out_*.
 * - Getters have no get_: amber_object_identifier(), amber_engine_app_state().
 * - Fallible functions return an int status, AMBER_OK (0) on success; amber_error_last() gives
 *   the message of the last failure on the calling thread, amber_error_last_code() its code.
 * - Getters that cannot fail answer a bad handle (NULL, freed, of another kind) with the zero of
 *   their type (NULL, 0) or the enum's documented _INVALID value, and set the thread's error.
 * - What Amber gives through `T **out` belongs to the caller, who releases it with the named
 *   free function; text and bytes it gives come back in one owned type, amber_buf, released
 *   with amber_buf_dispose(). Pointers returned directly are borrowed, for the documented time;
 *   so are the values a decoder or a user info lends through `const T **out`, for as long as
 *   the callback or the handle lives, never "until the next call".
 *   (bindings/c/tests/check-conventions.py checks these rules against every declaration, and
 *   against the GTK adapter's amber-gtk.h, which follows them too.)
 * - Input strings are UTF-8, NUL-terminated, and copied; invalid UTF-8 is AMBER_INVALID_ARGUMENT.
 *   Input buffers are copied unless documented otherwise.
 * - Enum types appear in signatures and structs; status codes travel as int (a host callback's
 *   own code is passed up unchanged).
 * - const marks every pointer through which nothing changes.
 * - Every constructor has a free or close function; passing NULL to it does nothing.
 * - Callbacks take a context pointer as their last parameter. When Amber keeps a callback
 *   beyond the call that registers it, it also takes an optional `ctx_free`, called once when
 *   Amber no longer needs the context. A callback reports its own failure by returning a
 *   non-zero code, saying why with amber_error_set() first if it wishes; Amber stops the
 *   operation and passes that code up unchanged, with that message.
 * - Structs given to Amber carry a `version` field first and only ever grow at the end: zero
 *   one and set its version (AMBER_*_INIT does both); zero members mean the defaults.
 * - The version numbers and status names are written once, in amber/common.h: the library
 *   reports them, and bindings check them.
 * - Nothing Amber is given — arguments, callbacks' answers, archives — may abort the host
 *   process: bad input is an error code.
 *
 * Thread safety: an engine and everything that belongs to it (objects, coders, reports,
 * notifications and observers) may be used by one thread at a time; separate engines may be
 * used from separate threads at once. The same holds for a user info, and for a coding registry
 * with the archivers and unarchivers made with it. amber_error_last() is per thread. The
 * functions that take none of these handles are safe from any thread.
 *
 * Handles: every amber_* handle (engine, object, coder, decoder, report, preservation, user
 * info, notification, coding registry, archiver, unarchiver) is an opaque token, not an address;
 * never dereference one. Amber checks every handle it is given: NULL is AMBER_INVALID_ARGUMENT; a
 * freed handle, a coder or decoder kept past its callback, a handle of another kind or a pointer
 * Amber never gave out is AMBER_MISUSE (a freed handle stays detectable until its slot has been
 * reused 2^32 times).
 */
#ifndef AMBER_H
#define AMBER_H

#include "amber/common.h"
#include "amber/engine.h"
#include "amber/object.h"
#include "amber/coder.h"
#include "amber/report.h"
#include "amber/view.h"
#include "amber/app.h"
#include "amber/archive.h"
#include "amber/plugin.h"
#include "amber/testing.h"

#endif /* AMBER_H */

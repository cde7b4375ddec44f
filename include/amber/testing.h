/*
 * amber/testing.h — testing a host's restoration: a kill and a relaunch of the program inside
 * one test process, in one call (R33), as Flutter's restartAndRestore and Compose's
 * StateRestorationTester do.
 *
 * Group: testing (SPEC R33). Functions amber_testing_*.
 */
#ifndef AMBER_TESTING_H
#define AMBER_TESTING_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a relaunch asks of the host (amber_testing_relaunch()): its tear-down and its set-up. */
typedef struct amber_relaunch {
    /** AMBER_RELAUNCH_VERSION. */
    unsigned int version;
    /** Lets go of the host's own model of the engine being relaunched (pointers to its objects,
     *  which the engine frees when it closes just after). Called once the preservation is done.
     *  Returns 0 or a code: a code stops the relaunch, the engine given stays open. NULL: nothing
     *  to tear down. */
    int (*tear_down)(amber_engine *engine, void *ctx);
    /** Does to the new engine what the program does at start-up, before amber_engine_launch():
     *  registers restoration classes, blueprint factories and the delegate, builds the default
     *  interface, adds the roots. Returns 0 or a code: a code stops the relaunch before the
     *  launch (the new engine is closed). Required. */
    int (*set_up)(amber_engine *engine, void *ctx);
    /** The state the new engine launches into: AMBER_APP_INACTIVE (or 0, the default) or
     *  AMBER_APP_BACKGROUND, as for amber_engine_launch(). */
    amber_app_state launch_state;
} amber_relaunch;

#define AMBER_RELAUNCH_VERSION 1
/** A relaunch with both callbacks NULL, the default launch state, and its version set. */
#define AMBER_RELAUNCH_INIT AMBER_STRUCT_INIT_(AMBER_RELAUNCH_VERSION)

/**
 * Simulates killing the program and launching it again (R33):
 *
 * 1. the application goes to the background, as the system sends it there before a kill
 *    (from active: will-resign-active, then did-enter-background), which preserves (R5, R23);
 *    an engine not launched, or already in the background or suspended, preserves without a
 *    transition;
 * 2. tear_down is called with *engine, then *engine is closed (its objects freed, the contexts
 *    of its delegate, classes and observers released);
 * 3. a new engine is opened on the same application id and options: the same store (so the
 *    archive just written and the launch guard carry over), the same protection and key, the
 *    same log function (amber_engine_set_log()); the contexts of the store and of the key
 *    callback pass to the new engine, and are released when it closes;
 * 4. set_up is called with the new engine;
 * 5. the new engine launches into relaunch->launch_state (amber_engine_launch()), restoring.
 *
 * The store is what makes it a relaunch: an engine opened with `memory_store` keeps its
 * archive in memory that passes from engine to engine this way, and a test leaves no file
 * behind; a state directory or a host's store works as well.
 *
 * @param out receives the new engine's launch report (R16).
 * @param engine the engine to relaunch; on success *engine is replaced by the new engine.
 * @param relaunch the callbacks (read during the call only).
 * @param ctx passed to both callbacks, which are called only during this call (so no ctx_free).
 * @return AMBER_OK (a fresh launch, should_save having declined, say, is not a failure: the
 *   report says why it was fresh); AMBER_INVALID_ARGUMENT for NULL out, engine or relaunch, a
 *   NULL set_up, an unknown version or launch state; AMBER_MISUSE for a closed or foreign
 *   engine or a call from one of the engine's callbacks (nothing done). Then, the code of the
 *   step that failed, unchanged (a callback's own code stays its own), with a message naming
 *   the step: the preservation's (AMBER_IO, AMBER_KEY_UNAVAILABLE, should_save's or
 *   will_encode's code, ...) or a transition observer's, and tear_down's: *engine is the
 *   engine given, still open, nothing torn down by Amber; set_up's: the engine given was
 *   closed after the tear-down and the new one is closed too, *engine is set to NULL.
 * Ownership: the caller owns *out (free it with amber_report_free()) and *engine (close it with
 *   amber_engine_close()); on failure *out is NULL. The engine given is gone after a success.
 * Thread safety: as the engine.
 */
AMBER_API int amber_testing_relaunch(amber_report **out, amber_engine **engine, const amber_relaunch *relaunch,
                                     void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_TESTING_H */

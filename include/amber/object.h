/*
 * amber/object.h — restorable objects: controllers, views and plain objects, their identifiers,
 * classes and blueprints, and the trees they form (containment, views, presentation).
 *
 * Group: object (SPEC R1-R4). Functions amber_object_*.
 */
#ifndef AMBER_OBJECT_H
#define AMBER_OBJECT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/** Object callbacks all NULL, with the version set. */
#define AMBER_OBJECT_CALLBACKS_INIT AMBER_STRUCT_INIT_(AMBER_OBJECT_CALLBACKS_VERSION)

/**
 * Creates a restorable object.
 *
 * @param out receives the object.
 * @param engine its engine.
 * @param kind its kind.
 * @param class_name the object's class, e.g. "ItemsViewController" (not empty).
 * @param restoration_id its restoration identifier, or NULL for none (R2: then it and what
 *        hangs under it are not preserved).
 * @param callbacks NULL for none; copied.
 * @param ctx passed to the callbacks.
 * @param ctx_free called once with ctx when the object is freed; may be NULL.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT (also for an unknown kind or callbacks version).
 * Ownership: the engine owns the object; it lives until amber_object_free() or the engine is
 *   closed. On failure ctx_free is not called.
 * Thread safety: as the engine.
 */
AMBER_API int amber_object_new(amber_object **out, amber_engine *engine, amber_kind kind, const char *class_name,
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
AMBER_API void amber_object_free(amber_object *object);

/**
 * The object's restoration identifier.
 *
 * @return the identifier, or NULL if it has none (and for a bad handle).
 * Ownership: borrowed; valid until the object is freed or the identifier changes (restoration
 *   gives an object found without an identifier the archived one).
 * Thread safety: as the engine.
 */
AMBER_API const char *amber_object_identifier(const amber_object *object);

/**
 * Sets or clears (NULL) an object's restoration identifier.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the string is copied. Thread safety: as the engine.
 */
AMBER_API int amber_object_set_identifier(amber_object *object, const char *restoration_id);

/**
 * Marks an object's state changed (R32): with an autosave policy, a save is then due after the
 * quiet time (amber_engine_autosave_timeout()), and the next save calls its encode callback
 * rather than write again what it wrote last time.
 *
 * @param object the object.
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT for NULL; AMBER_MISUSE for a freed handle or an
 *   object whose engine is closed.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_object_mark_dirty(amber_object *object);

/**
 * The object's class name.
 *
 * @return the name; NULL for a bad handle.
 * Ownership: borrowed; valid until the object is freed.
 * Thread safety: as the engine.
 */
AMBER_API const char *amber_object_class_name(const amber_object *object);

/**
 * The object's kind.
 *
 * @return its kind; AMBER_KIND_INVALID for a bad handle.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API amber_kind amber_object_kind(const amber_object *object);

/**
 * The object's context pointer, as given to amber_object_new().
 *
 * @return the context (may be NULL; NULL also for a bad handle).
 * Ownership: the host's. Thread safety: as the engine.
 */
AMBER_API void *amber_object_context(const amber_object *object);

/**
 * The object's restoration path joined with '/' (R3), e.g. "Nav/Items/Detail", for display: each
 * component whose stack position k is not 0 is followed by "[k]", so the child X of the first
 * and of the second A of a stack "nav" read "nav/A/X" and "nav/A[1]/X" (as in the reports'
 * text). An identifier is never rewritten: the positions are beside it in the archive and in
 * the reports (amber_report_record_positions()).
 *
 * @param out receives the path; release it with amber_buf_dispose().
 * @return AMBER_OK, or AMBER_NOT_FOUND if the object or an ancestor has no identifier.
 * Ownership: the caller owns *out. Thread safety: as the engine.
 */
AMBER_API int amber_object_path(amber_buf *out, const amber_object *object);

/**
 * Names the restoration class that recreates the object at launch (R10, step 1), or NULL.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the string is copied. Thread safety: as the engine.
 */
AMBER_API int amber_object_set_restoration_class(amber_object *object, const char *class_name);

/**
 * Names the restoration parent of a plain object (UIStateRestoring's restorationParent).
 *
 * @param parent a controller or object, or NULL.
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_object_set_restoration_parent(amber_object *object, amber_object *parent);

/**
 * Records the blueprint the object was made from (the analogue of a storyboard identifier;
 * R6, R10 step 4), or NULL.
 *
 * @return AMBER_OK or AMBER_INVALID_ARGUMENT.
 * Ownership: the string is copied. Thread safety: as the engine.
 */
AMBER_API int amber_object_set_blueprint(amber_object *object, const char *blueprint_id);

/**
 * Declares a controller a stack container (a navigation stack): children with the same
 * identifier are told apart by their position (R3).
 *
 * @return AMBER_OK, or AMBER_INVALID_ARGUMENT if the object is not a controller.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_object_set_stack(amber_object *object, int is_stack);

/**
 * Appends a child controller to a controller (containment). A child that has a parent is
 * moved.
 *
 * @return AMBER_OK; AMBER_INVALID_ARGUMENT if either is not a controller, or the child is the
 *   parent or one of its ancestors.
 * Ownership: none (both belong to the engine). Thread safety: as the engine.
 */
AMBER_API int amber_object_add_child(amber_object *parent, amber_object *child);

/**
 * Removes a child controller from its parent.
 *
 * @return AMBER_OK, or AMBER_NOT_FOUND if it is not a child of `parent`.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_object_remove_child(amber_object *parent, amber_object *child);

/**
 * Adds a view to a controller.
 *
 * @return AMBER_OK, or AMBER_INVALID_ARGUMENT if `controller` is not a controller or `view`
 *   not a view.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_object_add_view(amber_object *controller, amber_object *view);

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
AMBER_API int amber_object_present(amber_object *presenter, amber_object *presented);

/**
 * Claims, for an object created after launch, the state kept for its restoration path (R35; see
 * amber_engine_keep_unclaimed()): decodes it, then the kept records under it whose paths match
 * objects under it, as at launch (the class check, the decode callbacks parents first, the view
 * states, finished_restoring). The engine's report (amber_engine_restoration_report()) then
 * records each as restored (or migrated, R30, or with its decode error); they are no longer
 * kept.
 *
 * @param object an object with a restoration path (it and its ancestors have identifiers).
 * @return AMBER_OK (a decode callback's failure is in the report); AMBER_NOT_FOUND when no
 *   record is kept for its path: none was, or none has this path, or the kept records were
 *   dropped (at their deadline, or by amber_engine_end_restoration()): the message says which;
 *   AMBER_INVALID_ARGUMENT for an object without a restoration path; AMBER_MISUSE from inside
 *   a preservation or a restoration.
 * Ownership: none. Thread safety: as the engine.
 */
AMBER_API int amber_object_restore_pending(amber_object *object);

#ifdef __cplusplus
}
#endif

#endif /* AMBER_OBJECT_H */

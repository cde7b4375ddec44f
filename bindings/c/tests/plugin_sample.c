/* A sample Amber plugin: registers a restoration class "PluginClass" (used by test_smoke.c). */
#include "amber.h"

static int plugin_make(amber_object **out, amber_engine *engine, const char *const *path,
                       size_t path_length, amber_decoder *decoder, void *ctx) {
    (void)engine; (void)path; (void)path_length; (void)decoder; (void)ctx;
    *out = NULL;
    return 0;
}

int amber_plugin_register(amber_engine *engine, int amber_version_number) {
    amber_restoration_class cls;
    if (amber_version_number / 1000000 != AMBER_VERSION_MAJOR) return AMBER_MISUSE;
    cls = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    cls.make = plugin_make;
    return amber_engine_register_restoration_class(engine, "PluginClass", &cls, NULL, NULL);
}

/*
 * mem_store.c — see mem_store.h.
 */
#include "mem_store.h"

#include <stdlib.h>
#include <string.h>

static int mem_read(void *(*alloc)(size_t, void *), void *alloc_ctx, uint8_t **out, size_t *out_size, int *out_found,
                    void *ctx) {
    mem_store *s = ctx;
    s->reads++;
    if (s->fail_read) return AMBER_IO;
    *out_found = s->bytes != NULL;
    *out_size = 0;
    if (!s->bytes) return AMBER_OK;
    *out = alloc(s->size, alloc_ctx);
    if (!*out) return AMBER_LIMIT_EXCEEDED; /* the engine's allocator refused the size */
    memcpy(*out, s->bytes, s->size);
    *out_size = s->size;
    return AMBER_OK;
}

int mem_store_put(mem_store *s, const uint8_t *bytes, size_t size) {
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return AMBER_IO;
    memcpy(copy, bytes, size);
    free(s->bytes);
    s->bytes = copy;
    s->size = size;
    s->writes++;
    return AMBER_OK;
}

static int mem_write(const uint8_t *bytes, size_t size, void *ctx) { return mem_store_put(ctx, bytes, size); }

static int mem_remove(void *ctx) {
    mem_store *s = ctx;
    free(s->bytes);
    s->bytes = NULL;
    s->size = 0;
    return AMBER_OK;
}

static int mem_read_guard(int *out, void *ctx) {
    *out = ((mem_store *)ctx)->guard;
    return AMBER_OK;
}

static int mem_write_guard(int count, void *ctx) {
    ((mem_store *)ctx)->guard = count;
    return AMBER_OK;
}

amber_store mem_store_functions(void) {
    amber_store store = AMBER_STORE_INIT;
    store.read = mem_read;
    store.write = mem_write;
    store.remove = mem_remove;
    store.read_guard = mem_read_guard;
    store.write_guard = mem_write_guard;
    return store;
}

void mem_store_clear(mem_store *s) {
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

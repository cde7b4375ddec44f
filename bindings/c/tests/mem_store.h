/*
 * mem_store.h — a host store (amber_store, amber/engine.h) in this process's memory: the "disk"
 * one engine leaves to the next, as two launches of a program would, and which a test can read,
 * damage or count. One for every C test, linked into each by run-tests.sh.
 */
#ifndef AMBER_TEST_MEM_STORE_H
#define AMBER_TEST_MEM_STORE_H

#include "amber.h"

#include <stddef.h>
#include <stdint.h>

typedef struct mem_store {
    uint8_t *bytes; /* the archive, NULL when there is none */
    size_t size;
    int guard;      /* the launch guard count */
    int reads, writes;
    int fail_read;  /* when set, reading answers AMBER_IO (a store error, R9) */
} mem_store;

/* The store's functions, for amber_engine_options.store with a mem_store as store_ctx. */
amber_store mem_store_functions(void);

/* Puts `bytes` in the store as the archive, as the engine's write does (counted as a write).
 * Returns AMBER_OK, or AMBER_IO when memory runs out (the store keeps what it held). */
int mem_store_put(mem_store *s, const uint8_t *bytes, size_t size);

/* Frees the archive and zeroes the store: no archive, no guard, the counts 0. */
void mem_store_clear(mem_store *s);

#endif

/*
 * host.c — the power-loss test's host program (issue 42, R19, R20): a small C host of libamber
 * that does one thing to a state directory, for the recorder to watch, and the checker that
 * launches from each crash state.
 *
 *   host save DIR N          opens an engine on DIR (the default protection: the key file
 *                            DIR/archive.key, created at the first save) and preserves a tree
 *                            whose every object holds the save number N
 *   host discard DIR         opens an engine on DIR and discards the archive (amber_engine_discard)
 *   host write FILE N        amber_file_write_atomic(FILE, the bytes of save number N)
 *   host launch DIR          launches an engine on DIR (restoring the archive, which consumes it)
 *                            and prints the line `check` prints for it
 *   host check               reads state directories from standard input, one a line; for each,
 *                            launches an engine on it and prints one line:
 *                              DIR <TAB> restored N            every object restored save N, whole
 *                              DIR <TAB> mixed TEXT            objects restored, not one whole save
 *                              DIR <TAB> fresh REASON TEXT     a fresh launch, its reason and message
 *                              DIR <TAB> error TEXT            the engine did not open or launch
 *
 * Each object's state is its save number and a payload derived from it, large enough that the
 * archive spans several 4 KiB pages, so that a crash state keeping some of its pages and not
 * others is a torn archive the checker would see.
 *
 * Exit status: 0 when the action succeeded (check: when every line was printed), 1 otherwise,
 * with the library's message on standard error.
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OBJECTS 8
#define PAYLOAD 5200

static int64_t save_number;          /* what the objects encode */
static int64_t seen[OBJECTS];        /* what each object decoded, -1 if nothing */
static int payload_ok[OBJECTS];      /* whether its payload matched its number */

/* The payload of save number `n` for object `i`: bytes from a small generator seeded by both,
 * so that two saves differ on every page of the archive. */
static void payload(uint8_t *out, int64_t n, intptr_t i) {
    uint64_t x = (uint64_t)n * 0x9E3779B97F4A7C15u ^ (uint64_t)(i + 1) * 0xC2B2AE3D27D4EB4Fu;
    size_t k;
    for (k = 0; k < PAYLOAD; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out[k] = (uint8_t)x;
    }
}

static int always_save(amber_engine *e, amber_coder *c, void *ctx) { (void)e; (void)c; (void)ctx; return 1; }
static int always_restore(amber_engine *e, amber_decoder *d, void *ctx) { (void)e; (void)d; (void)ctx; return 1; }

static int encode(amber_object *o, amber_coder *c, void *ctx) {
    uint8_t bytes[PAYLOAD];
    int status;
    (void)o;
    payload(bytes, save_number, (intptr_t)ctx);
    status = amber_coder_encode_int64(c, "save", save_number);
    return status ? status : amber_coder_encode_bytes(c, "payload", bytes, sizeof bytes);
}

static int decode(amber_object *o, amber_decoder *d, void *ctx) {
    intptr_t i = (intptr_t)ctx;
    const uint8_t *bytes = NULL;
    size_t size = 0;
    uint8_t expected[PAYLOAD];
    int status;
    (void)o;
    status = amber_decoder_decode_int64(&seen[i], d, "save");
    if (status) return status;
    status = amber_decoder_decode_bytes(&bytes, &size, d, "payload");
    if (status) return status;
    payload(expected, seen[i], i);
    payload_ok[i] = size == PAYLOAD && memcmp(bytes, expected, PAYLOAD) == 0;
    return AMBER_OK;
}

/* An engine on `dir` with the default options (key file protection) and the tree of OBJECTS
 * controllers; NULL with the library's message on standard error. */
static amber_engine *open_engine(const char *dir) {
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate delegate = AMBER_DELEGATE_INIT;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    amber_engine *e = NULL;
    amber_object *root = NULL;
    intptr_t i;
    opts.state_directory = dir;
    if (amber_engine_open(&e, "org.amber.powerloss", &opts) != AMBER_OK) {
        fprintf(stderr, "host: cannot open an engine on %s: %s\n", dir, amber_error_last());
        return NULL;
    }
    delegate.should_save = always_save;
    delegate.should_restore = always_restore;
    cb.encode = encode;
    cb.decode = decode;
    if (amber_engine_set_delegate(e, &delegate, NULL, NULL) != AMBER_OK
        || amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "Root", "Root", &cb, (void *)0, NULL) != AMBER_OK
        || amber_engine_add_root(e, root) != AMBER_OK)
        goto failed;
    for (i = 1; i < OBJECTS; i++) {
        amber_object *child = NULL;
        char id[32];
        snprintf(id, sizeof id, "Child-%ld", (long)i);
        if (amber_object_new(&child, e, AMBER_KIND_CONTROLLER, "Child", id, &cb, (void *)i, NULL) != AMBER_OK
            || amber_object_add_child(root, child) != AMBER_OK)
            goto failed;
    }
    return e;
failed:
    fprintf(stderr, "host: cannot build the tree: %s\n", amber_error_last());
    amber_engine_close(e);
    return NULL;
}

static int save(const char *dir) {
    amber_engine *e = open_engine(dir);
    int saved = 0, status;
    if (!e) return 1;
    status = amber_engine_preserve(&saved, e);
    if (status != AMBER_OK || !saved) fprintf(stderr, "host: the save failed (%d): %s\n", status, amber_error_last());
    amber_engine_close(e);
    return status == AMBER_OK && saved ? 0 : 1;
}

static int discard(const char *dir) {
    amber_engine *e = open_engine(dir);
    int status;
    if (!e) return 1;
    status = amber_engine_discard(e);
    if (status != AMBER_OK) fprintf(stderr, "host: the discard failed (%d): %s\n", status, amber_error_last());
    amber_engine_close(e);
    return status == AMBER_OK ? 0 : 1;
}

/* The file amber_file_write_atomic() writes for save number N: the payloads of every object
 * in a row, OBJECTS * PAYLOAD bytes, several pages. */
static int write_file(const char *path) {
    static uint8_t bytes[OBJECTS * PAYLOAD];
    intptr_t i;
    int status;
    for (i = 0; i < OBJECTS; i++) payload(bytes + i * PAYLOAD, save_number, i);
    status = amber_file_write_atomic(path, bytes, sizeof bytes);
    if (status != AMBER_OK) fprintf(stderr, "host: the write failed (%d): %s\n", status, amber_error_last());
    return status == AMBER_OK ? 0 : 1;
}

/* Prints a message on the current line: its tabs and line breaks become spaces, so that a
 * state's outcome stays one line of fields. */
static void print_field(const char *text) {
    for (; *text; text++) putchar(*text == '\t' || *text == '\n' || *text == '\r' ? ' ' : *text);
}

/* What a launch from `dir` restored, as one line (see the file's comment). */
static void check_one(const char *dir) {
    amber_engine *e = open_engine(dir);
    amber_report *report = NULL;
    int i, whole = 1;
    if (!e) {
        printf("%s\terror\tthe engine did not open: ", dir);
        print_field(amber_error_last());
        putchar('\n');
        return;
    }
    for (i = 0; i < OBJECTS; i++) {
        seen[i] = -1;
        payload_ok[i] = 0;
    }
    if (amber_engine_launch(&report, e, AMBER_APP_INACTIVE) != AMBER_OK) {
        printf("%s\terror\tthe launch failed: ", dir);
        print_field(amber_error_last());
        putchar('\n');
    } else if (amber_report_fresh_reason(report) != AMBER_FRESH_NONE) {
        printf("%s\tfresh\t%d\t", dir, (int)amber_report_fresh_reason(report));
        print_field(amber_report_message(report));
        putchar('\n');
    } else {
        for (i = 0; i < OBJECTS; i++) whole &= seen[i] == seen[0] && payload_ok[i];
        if (whole) printf("%s\trestored\t%lld\n", dir, (long long)seen[0]);
        else printf("%s\tmixed\tobject 0 holds save %lld, not every object the same whole save\n", dir,
                    (long long)seen[0]);
    }
    amber_report_free(report);
    amber_engine_close(e);
}

static int check(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0') continue;
        check_one(line);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "check") == 0) return check();
    if (argc == 3 && strcmp(argv[1], "discard") == 0) return discard(argv[2]);
    if (argc == 3 && strcmp(argv[1], "launch") == 0) {
        check_one(argv[2]);
        return 0;
    }
    if (argc == 4 && (strcmp(argv[1], "save") == 0 || strcmp(argv[1], "write") == 0)) {
        save_number = strtoll(argv[3], NULL, 10);
        return strcmp(argv[1], "save") == 0 ? save(argv[2]) : write_file(argv[2]);
    }
    fprintf(stderr, "usage: host save DIR N | host discard DIR | host write FILE N | host launch DIR | host check\n");
    return 2;
}

/*
 * R20, R22 through the C ABI: archives sealed with AES-256-GCM under a key from a key file, a
 * host callback (which may say "unavailable") or a fixed key; no encryption only when asked and
 * then shown; wrong keys, downgrades, every single-bit flip and every truncation of an encrypted
 * archive rejected with a fresh launch and the reason in the report; a key callback's own code
 * passed up unchanged by a save, and a launch whose key callback fails keeping the archive.
 *
 * Usage: test_envelope [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "check.h"
#include "mem_store.h"
#include "one_screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int contains(const uint8_t *bytes, size_t size, const char *text) {
    size_t n = strlen(text), i;
    for (i = 0; i + n <= size; i++)
        if (memcmp(bytes + i, text, n) == 0) return 1;
    return 0;
}

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    uint8_t *bytes;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = malloc(n > 0 ? (size_t)n : 1);
    *size = fread(bytes, 1, (size_t)n, f);
    fclose(f);
    return bytes;
}


/* Launches an engine; returns the fresh reason (or -1), the report's message and protection. */
static char message[2048], protection[128];
static int launch(const amber_engine_options *opts) {
    amber_engine *e = host(opts);
    amber_report *r = NULL;
    int reason;
    screen.decoded[0] = 0;
    message[0] = 0;
    if (!e) return -1;
    if (amber_engine_launch(&r, e, AMBER_APP_INACTIVE) != AMBER_OK) { amber_engine_close(e); return -1; }
    reason = amber_report_fresh_reason(r);
    snprintf(message, sizeof message, "%s", amber_report_message(r));
    snprintf(protection, sizeof protection, "%s", amber_report_protection(r));
    amber_report_free(r);
    amber_engine_close(e);
    return reason;
}

/* ---- the key callback ---------------------------------------------------------------------- */

typedef struct keyring {
    int locked;
    int calls_saving, calls_opening;
    int freed;
    /* Non-zero: the callback fails with this code of its own. */
    int fail_code;
} keyring;

static int key_callback(uint8_t key[32], int for_saving, void *ctx) {
    keyring *k = ctx;
    if (for_saving) k->calls_saving++; else k->calls_opening++;
    if (k->fail_code) return k->fail_code;
    if (k->locked) return AMBER_KEY_UNAVAILABLE;
    memset(key, 0x42, 32);
    return AMBER_OK;
}
static void key_free(void *ctx) { ((keyring *)ctx)->freed++; }

/* Engine options whose archives in `dir` are sealed under the key `k` gives. */
static amber_engine_options key_callback_options(const char *dir, keyring *k) {
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    opts.protection = AMBER_PROTECTION_KEY_CALLBACK;
    opts.key_callback = key_callback;
    opts.key_ctx = k;
    return opts;
}

/* The one screen of every test here, and the paths of its state directory. */
static void use_composer_screen(char *dir, size_t dir_size, char *path, char *keypath, size_t path_size) {
    screen.app_id = "org.amber.envelope";
    screen.class_name = "Composer";
    screen.key = "secret";
    screen.text = "the half-typed message";
    runner_dir(dir, dir_size, "state");
    snprintf(path, path_size, "%s/state.archive", dir);
    snprintf(keypath, path_size, "%s/archive.key", dir);
}

static void test_r20_default_key_file(void) {
    char dir[400];
    char path[512];
    char keypath[512];
    amber_engine_options opts;
    uint8_t *bytes;
    size_t size = 0;
    struct stat st;
    use_composer_screen(dir, sizeof dir, path, keypath, sizeof path);
    printf("== R20 the default: a key file in the state directory\n");
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    check(save(&opts) == AMBER_OK, "R20 save with the default protection");
    check(stat(keypath, &st) == 0 && (st.st_mode & 0777) == 0600 && st.st_size == 32,
          "R20 the key file was created: 32 bytes, mode 0600");
    bytes = read_file(path, &size);
    check(bytes && size > 8 && memcmp(bytes, "AMBERENV", 8) == 0 && !contains(bytes, size, "half-typed") &&
              !contains(bytes, size, "Composer") && !contains(bytes, size, "NSKeyedArchiver"),
          "R20 the archive on disk is in the envelope and shows none of its contents");
    free(bytes);
    chmod(keypath, 0644);
    check(launch(&opts) == AMBER_FRESH_KEY_UNAVAILABLE && strstr(message, "644") != NULL,
          "R20 a key file others can read is refused: a fresh launch saying why");
    check(access(path, F_OK) == 0, "R20 ... and the archive is kept");
    check(save(&opts) == AMBER_KEY_UNAVAILABLE, "R20 ... and a save is refused with AMBER_KEY_UNAVAILABLE");
    chmod(keypath, 0600);
    check(launch(&opts) == AMBER_FRESH_NONE && strcmp(screen.decoded, "the half-typed message") == 0,
          "R20 with the key file fixed, the kept archive restores");
    check(strstr(protection, "AES-256-GCM") != NULL, "R20 the report names the protection");
    check(access(path, F_OK) != 0, "R14 the archive was discarded after restoring");
}

static void test_r20_host_key_callback(void) {
    char dir[400];
    char path[512];
    char keypath[512];
    amber_engine_options opts;
    use_composer_screen(dir, sizeof dir, path, keypath, sizeof path);
    printf("== R20 the host's key callback\n");
    {
        keyring k = {0, 0, 0, 0, 0};
        opts = key_callback_options(dir, &k);
        opts.key_ctx_free = key_free;
        check(save(&opts) == AMBER_OK && k.calls_saving == 1 && k.calls_opening == 0,
              "R20 the callback gives the key to seal (for_saving = 1)");
        check(k.freed == 1, "the key context is freed once when the engine closes");
        k.locked = 1;
        check(launch(&opts) == AMBER_FRESH_KEY_UNAVAILABLE && k.calls_opening == 1,
              "R20 'unavailable' (device locked): a fresh launch with the reason");
        check(access(path, F_OK) == 0, "R20 ... restoration deferred: the archive is kept");
        check(strstr(message, "key unavailable") != NULL, "R16 the report says the key was unavailable");
        check(save(&opts) == AMBER_KEY_UNAVAILABLE, "R20 a save while locked fails with AMBER_KEY_UNAVAILABLE");
        k.locked = 0;
        check(launch(&opts) == AMBER_FRESH_NONE && strcmp(screen.decoded, "the half-typed message") == 0,
              "R20 once unlocked, the deferred archive restores");
    }
}

static void test_r20_key_callback_code(void) {
    char dir[400];
    char path[512];
    char keypath[512];
    amber_engine_options opts;
    use_composer_screen(dir, sizeof dir, path, keypath, sizeof path);
    printf("== R20 a key callback's own code (issue 26)\n");
    {
        keyring k = {0, 0, 0, 0, 0};
        opts = key_callback_options(dir, &k);
        check(save(&opts) == AMBER_OK, "R20 a save with the key callback");
        k.fail_code = 42;
        check(save(&opts) == 42, "R20 a key callback's own code (42) at save is passed up unchanged, not AMBER_CALLBACK_FAILED");
        check(strstr(amber_error_last(), "key callback") != NULL && strstr(amber_error_last(), "42") != NULL,
              "R20 ... the message names the key callback and its code");
        k.fail_code = -7;
        check(save(&opts) == -7, "R20 ... whatever its value (-7)");
        k.fail_code = AMBER_CALLBACK_FAILED;
        check(save(&opts) == AMBER_CALLBACK_FAILED, "R20 ... AMBER_CALLBACK_FAILED returned by the callback itself stays that");
        k.fail_code = AMBER_IO;
        check(launch(&opts) == AMBER_FRESH_KEY_UNAVAILABLE,
              "R20 a key callback failing at launch (AMBER_IO): a fresh launch deferred as key unavailable, not corrupt");
        check(strstr(message, "key provider") != NULL && strstr(message, "returned 6") != NULL,
              "R16 ... the report's reason names the key provider and the callback's code");
        check(access(path, F_OK) == 0, "R20 ... and the archive is kept, not discarded");
        k.fail_code = 42;
        check(launch(&opts) == AMBER_FRESH_KEY_UNAVAILABLE && access(path, F_OK) == 0,
              "R20 ... the same for a code of its own (42)");
        k.fail_code = 0;
        check(launch(&opts) == AMBER_FRESH_NONE && strcmp(screen.decoded, "the half-typed message") == 0,
              "R20 once the callback works again, the kept archive restores");
    }
}

static void test_r20_wrong_keys_and_downgrades(void) {
    char dir[400];
    char path[512];
    char keypath[512];
    amber_engine_options opts;
    uint8_t *bytes;
    size_t size = 0;
    use_composer_screen(dir, sizeof dir, path, keypath, sizeof path);
    printf("== R20 wrong keys and downgrades\n");
    {
        static const uint8_t key_a[32] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        static const uint8_t key_b[32] = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
        opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
        opts.state_directory = dir;
        opts.protection = AMBER_PROTECTION_FIXED_KEY;
        opts.fixed_key = key_a;
        check(save(&opts) == AMBER_OK, "R20 save under a fixed key");
        opts.fixed_key = key_b;
        check(launch(&opts) == AMBER_FRESH_AUTHENTICATION_FAILED && screen.decoded[0] == 0,
              "R20 another key: the archive does not authenticate, nothing is screen.decoded");
        check(access(path, F_OK) != 0, "R22 ... and it is discarded");

        opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
        opts.state_directory = dir;
        opts.protection = AMBER_PROTECTION_NONE;
        check(save(&opts) == AMBER_OK, "R20 no encryption, asked for explicitly");
        bytes = read_file(path, &size);
        check(bytes && memcmp(bytes, "AMBERENV", 8) == 0 && contains(bytes, size, "NSKeyedArchiver"),
              "R20 ... the envelope header, then the archive in the clear");
        free(bytes);
        opts.fixed_key = key_a;
        opts.protection = AMBER_PROTECTION_FIXED_KEY;
        check(launch(&opts) == AMBER_FRESH_AUTHENTICATION_FAILED && strstr(message, "downgrade") != NULL,
              "R20 an engine that encrypts refuses an unencrypted archive as a downgrade");
        opts.protection = AMBER_PROTECTION_NONE;
        check(save(&opts) == AMBER_OK && launch(&opts) == AMBER_FRESH_NONE && strstr(protection, "not encrypted") != NULL,
              "R20 an unencrypted archive restores when asked for, and the report shows it");
    }
}

static void test_r22_every_flip_and_truncation(void) {
    char dir[400];
    char path[512];
    char keypath[512];
    amber_engine_options opts;
    use_composer_screen(dir, sizeof dir, path, keypath, sizeof path);
    printf("== R22 every single-bit flip and every truncation of an encrypted archive\n");
    {
        static const uint8_t key_a[32] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        amber_store store = mem_store_functions(); /* thousands of launches without fsync */
        mem_store m = {0};
        uint8_t *good;
        size_t good_size, i;
        int bit, restored = 0, fresh_ok = 0, other = 0;
        opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
        opts.store = &store;
        opts.store_ctx = &m;
        opts.protection = AMBER_PROTECTION_FIXED_KEY;
        opts.fixed_key = key_a;
        check(save(&opts) == AMBER_OK && m.bytes != NULL, "R20 save into a host store");
        good_size = m.size;
        good = malloc(good_size);
        memcpy(good, m.bytes, good_size);
        for (i = 0; i < good_size; i++) {
            for (bit = 0; bit < 8; bit++) {
                int reason;
                mem_store_put(&m, good, good_size);
                m.bytes[i] ^= (uint8_t)(1u << bit);
                m.guard = 0;
                reason = launch(&opts);
                if (reason == AMBER_FRESH_NONE) restored++;
                else if ((reason == AMBER_FRESH_AUTHENTICATION_FAILED || reason == AMBER_FRESH_CORRUPT) && m.bytes == NULL) fresh_ok++;
                else other++;
            }
        }
        for (i = 0; i < good_size; i++) {
            int reason;
            mem_store_put(&m, good, i);
            m.guard = 0;
            reason = launch(&opts);
            if (reason == AMBER_FRESH_NONE) restored++;
            else if ((reason == AMBER_FRESH_AUTHENTICATION_FAILED || reason == AMBER_FRESH_CORRUPT) && m.bytes == NULL) fresh_ok++;
            else other++;
        }
        printf("      %zu-byte archive: %zu flips and %zu truncations: %d restored, %d rejected and discarded, %d other\n",
               good_size, good_size * 8, good_size, restored, fresh_ok, other);
        check(restored == 0 && other == 0 && (size_t)fresh_ok == good_size * 9,
              "R22 every flip and every truncation: a fresh launch, authentication failed or corrupt, archive discarded");
        mem_store_put(&m, good, good_size);
        m.guard = 0;
        check(launch(&opts) == AMBER_FRESH_NONE && strcmp(screen.decoded, "the half-typed message") == 0,
              "R20 the untouched archive still restores");
        free(good);
        mem_store_clear(&m);
    }
}

static void test_r22_bad_protection_options(void) {
    char dir[400];
    char path[512];
    char keypath[512];
    amber_engine_options opts;
    amber_engine *e = NULL;
    use_composer_screen(dir, sizeof dir, path, keypath, sizeof path);
    printf("== R22 bad protection options\n");
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.memory_store = 1;
    opts.protection = 99;
    check(amber_engine_open(&e, "org.amber.envelope", &opts) == AMBER_INVALID_ARGUMENT && e == NULL,
          "R22 an unknown protection is AMBER_INVALID_ARGUMENT");
    opts.protection = AMBER_PROTECTION_FIXED_KEY;
    check(amber_engine_open(&e, "org.amber.envelope", &opts) == AMBER_INVALID_ARGUMENT, "R22 a fixed key that is NULL");
    opts.protection = AMBER_PROTECTION_KEY_CALLBACK;
    check(amber_engine_open(&e, "org.amber.envelope", &opts) == AMBER_INVALID_ARGUMENT, "R22 a key callback that is NULL");
    opts.protection = AMBER_PROTECTION_KEY_FILE;
    check(amber_engine_open(&e, "org.amber.envelope", &opts) == AMBER_OK, "the memory store with the default protection");
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r20_default_key_file", test_r20_default_key_file},
    {"r20_host_key_callback", test_r20_host_key_callback},
    {"r20_key_callback_code", test_r20_key_callback_code},
    {"r20_wrong_keys_and_downgrades", test_r20_wrong_keys_and_downgrades},
    {"r22_every_flip_and_truncation", test_r22_every_flip_and_truncation},
    {"r22_bad_protection_options", test_r22_bad_protection_options},
};

int main(int argc, char **argv) {
    return runner_main("envelope", tests, RUNNER_COUNT(tests), argc, argv);
}

/*
 * R19, R20, R22 through the C ABI (issue 26, items 4 and 6): the files of the built-in store.
 *
 * - A FIFO in place of the archive, the key file or the launch guard never blocks a launch or a
 *   save, and is never read: each launch returns with a clear status (its time is printed, not
 *   checked: a loaded machine must not fail it), and the FIFO is left as it is. The same for
 *   amber_file_read and amber_file_write_atomic. Each call runs in a child process that the
 *   parent kills after 2 s, so that a call that blocks fails the check instead of hanging the
 *   test.
 * - At preserve, a key file that is a symbolic link, a directory or oversized is
 *   AMBER_KEY_UNAVAILABLE (as amber_protection documents), and the previous archive is kept.
 * - A first save killed while it created the key file leaves `.archive.key.<hex>.tmp` files, one
 *   a second hard link of the live key: the next launch removes them with the archive's own
 *   temporary files, and still restores (also for a key file given by key_file elsewhere).
 * - R28 keep_restoration_report (issue 29): each launch's report is kept as
 *   DIR/last-restore.report (0600, no state values), replaced by the next launch; also with
 *   AMBER_KEEP_REPORT=1 alone; options of version 1 (the 0.2.0 struct) are still accepted and
 *   nothing past their end is read.
 *
 * A failed directory fsync after the rename (item 6) is tested from Swift with the fault
 * injector (FileHardeningTests); the C ABI exposes no fault injection.
 *
 * Usage: test_files [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"
#include "check.h"
#include "one_screen.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static int is_fifo(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

static int exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

static int write_file(const char *path, const void *bytes, size_t size) {
    FILE *f = fopen(path, "wb");
    size_t n;
    if (!f) return 0;
    n = fwrite(bytes, 1, size, f);
    return fclose(f) == 0 && n == size;
}

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The options of the default protection (a key file) in `dir`, or with `key_file`. */
static void options(amber_engine_options *opts, const char *dir, const char *key_file) {
    *opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts->state_directory = dir;
    opts->key_file = key_file;
}


/* What a call in a child process gave: a status or a fresh reason, the time it took, the
 * report's message or the last error. */
typedef struct outcome {
    int value;
    double ms;
    char message[1536];
} outcome;

static int launch_into(const amber_engine_options *opts, outcome *o) {
    amber_engine *e = host(opts);
    amber_report *r = NULL;
    screen.decoded[0] = 0;
    o->message[0] = 0;
    if (!e) return -1;
    if (amber_engine_launch(&r, e, AMBER_APP_INACTIVE) != AMBER_OK) { amber_engine_close(e); return -1; }
    o->value = amber_report_fresh_reason(r);
    snprintf(o->message, sizeof o->message, "%s", amber_report_message(r));
    amber_report_free(r);
    amber_engine_close(e);
    return o->value;
}

enum { DO_LAUNCH, DO_SAVE, DO_FILE_READ, DO_FILE_WRITE };

/* Runs one call in a child process and returns what it gave; the child is killed if it has not
 * answered within 2 s (then o->value is -2: it blocked). `path` is for the file calls. */
static void bounded(int what, const amber_engine_options *opts, const char *path, outcome *o) {
    int fds[2];
    pid_t pid;
    struct pollfd p;
    size_t got = 0;
    memset(o, 0, sizeof *o);
    o->value = -2;
    if (pipe(fds) != 0) { perror("pipe"); return; }
    fflush(stdout);
    pid = fork();
    if (pid < 0) { perror("fork"); return; }
    if (pid == 0) {
        outcome r;
        double start;
        ssize_t n;
        memset(&r, 0, sizeof r);
        close(fds[0]);
        start = now_ms();
        switch (what) {
        case DO_LAUNCH: launch_into(opts, &r); break;
        case DO_SAVE: r.value = save(opts); break;
        case DO_FILE_READ: {
            amber_buf bytes = AMBER_BUF_INIT;
            r.value = amber_file_read(&bytes, path);
            amber_buf_dispose(&bytes);
            break;
        }
        case DO_FILE_WRITE: r.value = amber_file_write_atomic(path, "x", 1); break;
        }
        r.ms = now_ms() - start;
        if (what != DO_LAUNCH) snprintf(r.message, sizeof r.message, "%s", amber_error_last());
        n = write(fds[1], &r, sizeof r);
        _exit(n == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fds[1]);
    p.fd = fds[0];
    p.events = POLLIN;
    while (got < sizeof *o) {
        ssize_t n;
        if (poll(&p, 1, 2000) <= 0) break; /* blocked: give up on it */
        n = read(fds[0], (char *)o + got, sizeof *o - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    if (got < sizeof *o) {
        memset(o, 0, sizeof *o);
        o->value = -2;
        snprintf(o->message, sizeof o->message, "the call did not return within 2 s: blocked");
        kill(pid, SIGKILL);
    }
    close(fds[0]);
    waitpid(pid, NULL, 0);
}

/* The one screen of every test here: an editor whose draft is saved under "draft". */
static void use_editor_screen(void) {
    screen.app_id = "org.amber.files";
    screen.class_name = "Editor";
    screen.key = "draft";
    screen.text = "the draft";
}

/* R22 a FIFO at the archive: a store error, never read, left as it is */
static void test_r22_fifo_archive(void) {
    const char *root = runner_tmp();
    char dir[600];
    char path[700];
    amber_engine_options opts;
    outcome o;
    use_editor_screen();
    printf("== R22 a FIFO at the archive: a store error, never read, left as it is\n");
    snprintf(dir, sizeof dir, "%s/fifo-archive", root);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/state.archive", dir);
    check(mkfifo(path, 0600) == 0, "a FIFO made at the archive's path");
    options(&opts, dir, NULL);
    bounded(DO_LAUNCH, &opts, NULL, &o);
    printf("      launch returned in %.1f ms: reason %d: %s\n", o.ms, o.value, o.message);
    check(o.value != -2, "R22 a FIFO at the archive does not block the launch");
    check(o.value >= 0, "R22 ... the launch returns a reason (its time is printed above)");
    check(o.value == AMBER_FRESH_STORE_ERROR && strstr(o.message, "FIFO") != NULL,
          "R22 ... a fresh launch, AMBER_FRESH_STORE_ERROR (the store cannot read it; not corrupt), naming the FIFO");
    check(is_fifo(path), "R22 ... the FIFO is not deleted");
    bounded(DO_SAVE, &opts, NULL, &o);
    printf("      preserve returned in %.1f ms: status %d: %s\n", o.ms, o.value, o.message);
    check(o.value == AMBER_IO && is_fifo(path),
          "R22 a save over a FIFO at the archive: AMBER_IO, the FIFO left as it is");
    bounded(DO_FILE_READ, &opts, path, &o);
    printf("      amber_file_read returned in %.1f ms: status %d: %s\n", o.ms, o.value, o.message);
    check(o.value == AMBER_IO, "R22 amber_file_read of a FIFO: AMBER_IO, nothing read");
    bounded(DO_FILE_WRITE, &opts, path, &o);
    check(o.value == AMBER_IO && is_fifo(path), "R22 amber_file_write_atomic over a FIFO: AMBER_IO, the FIFO left as it is");
}

/* R20 a FIFO at the key file: key unavailable, the archive kept */
static void test_r20_fifo_key_file(void) {
    const char *root = runner_tmp();
    char dir[600];
    char path[700];
    char keypath[700];
    amber_engine_options opts;
    outcome o;
    use_editor_screen();
    printf("== R20 a FIFO at the key file: key unavailable, the archive kept\n");
    snprintf(dir, sizeof dir, "%s/fifo-key", root);
    snprintf(path, sizeof path, "%s/state.archive", dir);
    snprintf(keypath, sizeof keypath, "%s/archive.key", dir);
    options(&opts, dir, NULL);
    check(save(&opts) == AMBER_OK && exists(keypath), "R20 a save with the default key file");
    check(unlink(keypath) == 0 && mkfifo(keypath, 0600) == 0, "the key file replaced by a FIFO");
    bounded(DO_LAUNCH, &opts, NULL, &o);
    printf("      launch returned in %.1f ms: reason %d: %s\n", o.ms, o.value, o.message);
    check(o.value != -2, "R20 a FIFO at the key file does not block the launch");
    check(o.value >= 0, "R20 ... the launch returns a reason (its time is printed above)");
    check(o.value == AMBER_FRESH_KEY_UNAVAILABLE && strstr(o.message, "FIFO") != NULL,
          "R20 ... a fresh launch, AMBER_FRESH_KEY_UNAVAILABLE, naming the FIFO");
    check(exists(path) && is_fifo(keypath), "R20 ... the archive is kept and the FIFO left as it is");
    bounded(DO_SAVE, &opts, NULL, &o);
    printf("      preserve returned in %.1f ms: status %d: %s\n", o.ms, o.value, o.message);
    check(o.value == AMBER_KEY_UNAVAILABLE,
          "R20 a save with a FIFO at the key file: AMBER_KEY_UNAVAILABLE");
}

/* R22 a FIFO at the launch guard: the launch does not block, the report says why */
static void test_r22_fifo_launch_guard(void) {
    const char *root = runner_tmp();
    char dir[600];
    char guardpath[700];
    amber_engine_options opts;
    outcome o;
    use_editor_screen();
    printf("== R22 a FIFO at the launch guard: the launch does not block, the report says why\n");
    snprintf(dir, sizeof dir, "%s/fifo-guard", root);
    snprintf(guardpath, sizeof guardpath, "%s/restore.guard", dir);
    options(&opts, dir, NULL);
    check(save(&opts) == AMBER_OK, "a save");
    check(mkfifo(guardpath, 0600) == 0, "a FIFO made at the launch guard's path");
    bounded(DO_LAUNCH, &opts, NULL, &o);
    printf("      launch returned in %.1f ms: reason %d: %s\n", o.ms, o.value, o.message);
    check(o.value != -2, "R22 a FIFO at the launch guard does not block the launch");
    check(o.value >= 0, "R22 ... the launch returns a reason (its time is printed above)");
    check(strstr(o.message, "launch guard") != NULL && strstr(o.message, "FIFO") != NULL,
          "R22 ... the report names the launch guard and the FIFO");
    check(is_fifo(guardpath), "R22 ... the FIFO is left as it is");
}

/* R20 at preserve, a key file unfit to be a key is AMBER_KEY_UNAVAILABLE */
static void test_r20_unfit_key_file(void) {
    const char *root = runner_tmp();
    char dir[600];
    char path[700];
    char keypath[700];
    char line[900];
    char tmp[700];
    amber_engine_options opts;
    outcome o;
    use_editor_screen();
    printf("== R20 at preserve, a key file unfit to be a key is AMBER_KEY_UNAVAILABLE\n");
    {
        static const char *const kinds[] = {"a symbolic link", "a directory", "oversized (65 bytes)"};
        uint8_t big[65];
        int k;
        memset(big, 7, sizeof big);
        for (k = 0; k < 3; k++) {
            long before;
            snprintf(dir, sizeof dir, "%s/keyfile-%d", root, k);
            snprintf(path, sizeof path, "%s/state.archive", dir);
            snprintf(keypath, sizeof keypath, "%s/archive.key", dir);
            snprintf(tmp, sizeof tmp, "%s/real.key", dir);
            options(&opts, dir, NULL);
            screen.text = "the previous draft";
            if (save(&opts) != AMBER_OK) { check(0, "a first save"); continue; }
            before = file_size(path);
            switch (k) {
            case 0: /* the good key, moved aside, and a symbolic link to it */
                if (rename(keypath, tmp) != 0 || symlink(tmp, keypath) != 0) perror("symlink");
                break;
            case 1:
                if (unlink(keypath) != 0 || mkdir(keypath, 0700) != 0) perror("mkdir");
                break;
            default:
                if (unlink(keypath) != 0 || !write_file(keypath, big, sizeof big) || chmod(keypath, 0600) != 0) perror("write");
                break;
            }
            screen.text = "the next draft";
            bounded(DO_SAVE, &opts, NULL, &o);
            snprintf(line, sizeof line, "R20 a key file that is %s: the save is AMBER_KEY_UNAVAILABLE (got %s)", kinds[k],
                     o.value == -2 ? "blocked" : amber_status_string(o.value));
            check(o.value == AMBER_KEY_UNAVAILABLE, line);
            snprintf(line, sizeof line, "R20 ... (%s) and the previous archive is kept, untouched", kinds[k]);
            check(file_size(path) == before && before > 0, line);
            if (k == 0) {
                /* The good key back in place: the kept archive restores. */
                unlink(keypath);
                rename(tmp, keypath);
                bounded(DO_LAUNCH, &opts, NULL, &o);
                check(o.value == AMBER_FRESH_NONE, "R20 ... with the key file restored, the kept archive restores");
            }
        }
        screen.text = "the draft";
    }
}

/* R19 R20 the leftovers of a save killed while it created the key file */
static void test_r19_key_file_leftovers(void) {
    const char *root = runner_tmp();
    char dir[600];
    char path[700];
    char keypath[700];
    amber_engine_options opts;
    outcome o;
    use_editor_screen();
    printf("== R19 R20 the leftovers of a save killed while it created the key file\n");
    {
        struct stat st;
        uint8_t junk[17];
        char leftover[3][760], other_dir[600], other_key[700], other_left[760];
        int i, all_gone = 1;
        memset(junk, 9, sizeof junk);
        snprintf(dir, sizeof dir, "%s/key-leftovers", root);
        snprintf(path, sizeof path, "%s/state.archive", dir);
        snprintf(keypath, sizeof keypath, "%s/archive.key", dir);
        options(&opts, dir, NULL);
        screen.text = "saved after the kill";
        check(save(&opts) == AMBER_OK, "a save with the default key file");
        /* Killed after the link, before the unlink: a second hard link of the live key. */
        snprintf(leftover[0], sizeof leftover[0], "%s/.archive.key.5eed1e55c0ffee00.tmp", dir);
        /* Killed before the link: some of the random bytes written. */
        snprintf(leftover[1], sizeof leftover[1], "%s/.archive.key.abc123.tmp", dir);
        /* Killed while writing the archive. */
        snprintf(leftover[2], sizeof leftover[2], "%s/.state.archive.77.tmp", dir);
        check(link(keypath, leftover[0]) == 0 && write_file(leftover[1], junk, sizeof junk) &&
                  write_file(leftover[2], junk, 3),
              "leftovers made: a hard link of the live key, a partial key, a partial archive");
        check(stat(keypath, &st) == 0 && st.st_nlink == 2, "the live key has two names");
        bounded(DO_LAUNCH, &opts, NULL, &o);
        printf("      launch: reason %d: %s\n", o.value, o.message);
        for (i = 0; i < 3; i++) all_gone = all_gone && !exists(leftover[i]);
        check(all_gone, "R19 the launch removed every leftover, the key file's as the archive's");
        check(strstr(o.message, "removed 3 temporary file") != NULL, "R19 ... and the report says so");
        check(o.value == AMBER_FRESH_NONE, "R20 ... and the archive still restores with the live key");
        check(stat(keypath, &st) == 0 && st.st_nlink == 1 && st.st_size == 32, "R20 ... the live key is whole, with one name");

        /* A key file elsewhere (key_file): its leftovers go too. */
        snprintf(other_dir, sizeof other_dir, "%s/keys", root);
        mkdir(other_dir, 0700);
        snprintf(other_key, sizeof other_key, "%s/app.key", other_dir);
        snprintf(other_left, sizeof other_left, "%s/.app.key.0badc0de.tmp", other_dir);
        options(&opts, dir, other_key);
        check(save(&opts) == AMBER_OK && exists(other_key), "a save with key_file in another directory");
        check(link(other_key, other_left) == 0, "a leftover hard link of that key");
        bounded(DO_LAUNCH, &opts, NULL, &o);
        check(!exists(other_left) && o.value == AMBER_FRESH_NONE,
              "R19 the launch removes the key_file's leftover too, and restores");
        screen.text = "the draft";
    }
}

/* R28 keep_restoration_report: each launch's report kept beside the archive, no state values */
static void test_r28_keep_restoration_report(void) {
    const char *root = runner_tmp();
    char dir[600];
    amber_engine_options opts;
    outcome o;
    use_editor_screen();
    printf("== R28 keep_restoration_report: each launch's report kept beside the archive, no state values\n");
    {
        char report[700], text[8192];
        amber_engine_options v1;
        size_t prefix = offsetof(amber_engine_options, keep_restoration_report);
        FILE *f;
        size_t n = 0;
        struct stat st;
        const char *keep_env = getenv("AMBER_KEEP_REPORT");
        int env_on = keep_env != NULL && strcmp(keep_env, "1") == 0;
        snprintf(dir, sizeof dir, "%s/report", root);
        snprintf(report, sizeof report, "%s/last-restore.report", dir);
        screen.text = "a secret draft";
        options(&opts, dir, NULL);
        check(save(&opts) == AMBER_OK, "a save");
        launch_into(&opts, &o);
        check(o.value == AMBER_FRESH_NONE && (env_on || !exists(report)),
              "R28 without the option (and without AMBER_KEEP_REPORT=1) no report is kept");
        check(save(&opts) == AMBER_OK, "a save");
        opts.keep_restoration_report = 1;
        launch_into(&opts, &o);
        check(o.value == AMBER_FRESH_NONE && exists(report), "R28 with keep_restoration_report: DIR/last-restore.report after the launch");
        check(stat(report, &st) == 0 && (st.st_mode & 0777) == 0600, "R28 ... owner-only (0600)");
        f = fopen(report, "rb");
        if (f) { n = fread(text, 1, sizeof text - 1, f); fclose(f); }
        text[n] = 0;
        check(strncmp(text, "amber-restoration-report\t1\n", 27) == 0 && strstr(text, "\nresult\trestored\n") != NULL &&
                  strstr(text, "record\trestored\t\tcontroller\tEditor\t0\t") != NULL && strstr(text, "\tEditor\t0\n") != NULL &&
                  strstr(text, "\nend\n") != NULL,
              "R28 ... it says what the launch did: restored, the record's outcome, path and class");
        check(strstr(text, "secret") == NULL, "R28 ... and holds no state value");
        launch_into(&opts, &o);
        f = fopen(report, "rb");
        n = 0;
        if (f) { n = fread(text, 1, sizeof text - 1, f); fclose(f); }
        text[n] = 0;
        check(o.value == AMBER_FRESH_NO_ARCHIVE && strstr(text, "fresh\tno-archive\t") != NULL,
              "R28 the next launch replaces it: a fresh launch, no archive (consumed, R14)");

        /* AMBER_KEEP_REPORT=1 keeps it without the option (read when an engine opens). */
        if (!env_on) {
            check(unlink(report) == 0 && setenv("AMBER_KEEP_REPORT", "1", 1) == 0, "the report removed, AMBER_KEEP_REPORT=1 set");
            opts.keep_restoration_report = 0;
            launch_into(&opts, &o);
            check(exists(report), "R28 AMBER_KEEP_REPORT=1 keeps the report without the option");
            unsetenv("AMBER_KEEP_REPORT");
        }

        /* A host built with the 0.2.0 header passes version 1, a struct that ends before
         * keep_restoration_report: the library reads no further (the bytes after it here are
         * not the host's and say "keep"). */
        check(unlink(report) == 0, "the report removed");
        v1 = opts;
        v1.keep_restoration_report = 1; /* overwritten below: past a version-1 struct's end */
        v1.version = 1;
        memset((char *)&v1 + prefix, 0xFF, sizeof v1 - prefix);
        launch_into(&v1, &o);
        check(o.value == AMBER_FRESH_NO_ARCHIVE && (env_on || !exists(report)),
              "options of version 1 are accepted, and what lies past their end is not read");
        screen.text = "the draft";
    }
}

static const runner_test tests[] = {
    {"r22_fifo_archive", test_r22_fifo_archive},
    {"r20_fifo_key_file", test_r20_fifo_key_file},
    {"r22_fifo_launch_guard", test_r22_fifo_launch_guard},
    {"r20_unfit_key_file", test_r20_unfit_key_file},
    {"r19_key_file_leftovers", test_r19_key_file_leftovers},
    {"r28_keep_restoration_report", test_r28_keep_restoration_report},
};

int main(int argc, char **argv) {
    return runner_main("files", tests, RUNNER_COUNT(tests), argc, argv);
}

/*
 * scratch.h — keeps a C test out of the real home directory: scratch_xdg() makes a scratch
 * directory (under $TMPDIR if it is absolute, else /tmp), points XDG_DATA_HOME, XDG_STATE_HOME,
 * XDG_CACHE_HOME, XDG_CONFIG_HOME and XDG_RUNTIME_DIR at directories inside it (mode 0700), and
 * removes it when the process that made it exits (children that fork and exit do not remove it).
 * Call it first in main, before any engine opens: an engine opened without a state directory
 * keeps its archive and its key file under $XDG_STATE_HOME/<app-id>, never in ~/.local/state.
 *
 * Needs _POSIX_C_SOURCE 200809L (mkdtemp, setenv), as every test defines.
 */
#ifndef AMBER_TEST_SCRATCH_H
#define AMBER_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static char scratch_xdg_root[512];
static pid_t scratch_xdg_owner;

static inline void scratch_xdg_remove(void) {
    char cmd[600];
    if (scratch_xdg_root[0] == '\0' || getpid() != scratch_xdg_owner) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch_xdg_root);
    if (system(cmd) != 0) fprintf(stderr, "note: could not remove %s\n", scratch_xdg_root);
    scratch_xdg_root[0] = '\0';
}

/* Returns the scratch directory, or NULL (with a message on stderr) if it could not be made. */
static inline const char *scratch_xdg(const char *name) {
    static const char *const vars[] = {"XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
                                       "XDG_RUNTIME_DIR"};
    static const char *const dirs[] = {"data", "state", "cache", "config", "runtime"};
    const char *base = getenv("TMPDIR");
    char dir[600];
    size_t i;
    if (!base || base[0] != '/') base = "/tmp";
    snprintf(scratch_xdg_root, sizeof scratch_xdg_root, "%s/amber-%s-xdg-XXXXXX", base, name);
    if (!mkdtemp(scratch_xdg_root)) {
        perror("mkdtemp (scratch XDG directories)");
        scratch_xdg_root[0] = '\0';
        return NULL;
    }
    scratch_xdg_owner = getpid();
    atexit(scratch_xdg_remove);
    for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        snprintf(dir, sizeof dir, "%s/%s", scratch_xdg_root, dirs[i]);
        if (mkdir(dir, 0700) != 0 || setenv(vars[i], dir, 1) != 0) {
            perror(dir);
            return NULL;
        }
    }
    return scratch_xdg_root;
}

#endif

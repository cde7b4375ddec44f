/*
 * check.h — the checks the C tests print: one line per check ("ok    what" or "FAIL  what" with
 * the last error), counted in runner.c's `passed` and `failed` for the closing "N passed, N failed"
 * line.
 */
#ifndef AMBER_TEST_CHECK_H
#define AMBER_TEST_CHECK_H

#include "amber.h"
#include "runner.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static inline void check(int ok, const char *what) {
    if (ok) {
        passed++;
        printf("ok    %s\n", what);
    } else {
        failed++;
        printf("FAIL  %s (last error: %s: %s)\n", what, amber_status_string(amber_error_last_code()),
               amber_error_last());
    }
    fflush(stdout); /* before any fork, so that no line is printed twice */
}

/* A check whose text is formatted (printf-style), for the values it names. */
static inline void checkf(int ok, const char *fmt, ...) {
    char line[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    check(ok, line);
}

/* A call's status is `want`. */
static inline void check_status(int got, int want, const char *what) {
    char line[512];
    snprintf(line, sizeof line, "%s -> %s", what, amber_status_string(want));
    if (got != want) {
        snprintf(line, sizeof line, "%s -> %s, expected %s", what, amber_status_string(got), amber_status_string(want));
    }
    check(got == want, line);
}

/*
 * The restoration paths the engine's last preservation met more than once, joined with '/' and
 * separated by '\n' ("" if none), as 0.1's amber_engine_last_duplicates() gave them: read from
 * the preservation report (R28), whose entries left out as AMBER_LEFT_OUT_DUPLICATE_PATH name
 * them. The text lives until the next call.
 */
static inline const char *last_duplicates(amber_engine *e) {
    static char text[4096];
    amber_preservation *p = NULL;
    size_t i, n, used = 0;
    text[0] = '\0';
    if (amber_engine_preservation(&p, e) != AMBER_OK) return text;
    n = amber_preservation_count(p);
    for (i = 0; i < n; i++) {
        amber_preservation_entry entry;
        char path[512];
        size_t k, at = 0;
        if (amber_preservation_entry_at(&entry, p, i) != AMBER_OK || entry.left_out != AMBER_LEFT_OUT_DUPLICATE_PATH) continue;
        path[0] = '\0';
        for (k = 0; k < entry.path_length; k++) {
            at += (size_t)snprintf(path + at, at < sizeof path ? sizeof path - at : 0, "%s%s", k ? "/" : "", entry.path[k]);
            if (at >= sizeof path) at = sizeof path - 1;
        }
        {   /* each path once */
            const char *seen = text;
            size_t len = strlen(path);
            int dup = 0;
            while (*seen) {
                if (strncmp(seen, path, len) == 0 && (seen[len] == '\n' || seen[len] == '\0')) { dup = 1; break; }
                seen = strchr(seen, '\n');
                if (!seen) break;
                seen++;
            }
            if (dup) continue;
        }
        used += (size_t)snprintf(text + used, used < sizeof text ? sizeof text - used : 0, "%s%s", used ? "\n" : "", path);
        if (used >= sizeof text) used = sizeof text - 1;
    }
    amber_preservation_free(p);
    return text;
}

/*
 * Typed one-liners over amber_keyed_value, as a host writes them for the types the header keeps
 * no one-liner for (dates and index paths in coders; every type in user infos and keyed
 * archives). A missing key is AMBER_NOT_FOUND, as the typed getters of 0.1 answered.
 */
static inline amber_keyed_value keyed(const char *key, amber_value_type type) {
    amber_keyed_value v;
    memset(&v, 0, sizeof v);
    v.key = key;
    v.type = type;
    return v;
}

static inline int coder_encode_date(amber_coder *c, const char *key, double seconds) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_DATE);
    v.double_value = seconds;
    return amber_coder_encode_values(c, &v, 1);
}

static inline int coder_encode_index_path(amber_coder *c, const char *key, const int64_t *indexes, size_t length) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_INDEX_PATH);
    v.index_path_value.indexes = indexes;
    v.index_path_value.length = length;
    return amber_coder_encode_values(c, &v, 1);
}

static inline int decoder_decode_date(double *out, amber_decoder *d, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_DATE);
    int rc = amber_decoder_decode_values(&v, 1, d);
    if (rc != AMBER_OK) return rc;
    if (!v.found) return AMBER_NOT_FOUND;
    *out = v.double_value;
    return AMBER_OK;
}

/* Decodes the string under `key` and copies it into `buf` (cut to `size`); buf is left as it
 * is when the decoder returns an error, which is returned. */
static inline int decoder_copy_string(char *buf, size_t size, amber_decoder *d, const char *key) {
    const char *s = NULL;
    int status = amber_decoder_decode_string(&s, d, key);
    if (status == AMBER_OK) snprintf(buf, size, "%s", s);
    return status;
}

/* The index of the first record of `report` whose path ends with `id` (its record in *out), or -1. */
static inline long report_record_ending_with(amber_report *report, const char *id, amber_report_record *out) {
    size_t i, n = amber_report_count(report);
    for (i = 0; i < n; i++) {
        if (amber_report_record_at(out, report, i) != AMBER_OK) continue;
        if (out->path_length > 0 && strcmp(out->path[out->path_length - 1], id) == 0) return (long)i;
    }
    return -1;
}

/* Copies at most `capacity` indexes into `out`, sets *out_length to the path's length. */
static inline int decoder_decode_index_path(int64_t *out, size_t capacity, size_t *out_length, amber_decoder *d,
                                            const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_INDEX_PATH);
    size_t i;
    int rc = amber_decoder_decode_values(&v, 1, d);
    if (rc != AMBER_OK) return rc;
    if (!v.found) return AMBER_NOT_FOUND;
    for (i = 0; i < v.index_path_value.length && i < capacity; i++) out[i] = v.index_path_value.indexes[i];
    *out_length = v.index_path_value.length;
    return AMBER_OK;
}

static inline int user_info_set(amber_user_info *info, amber_keyed_value v) {
    return amber_user_info_set_values(info, &v, 1);
}
static inline int user_info_set_bool(amber_user_info *info, const char *key, int value) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_BOOL);
    v.int64_value = value != 0;
    return user_info_set(info, v);
}
static inline int user_info_set_int64(amber_user_info *info, const char *key, int64_t value) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_INT64);
    v.int64_value = value;
    return user_info_set(info, v);
}
static inline int user_info_set_double(amber_user_info *info, const char *key, double value) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_DOUBLE);
    v.double_value = value;
    return user_info_set(info, v);
}
static inline int user_info_set_string(amber_user_info *info, const char *key, const char *value) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_STRING);
    v.string_value = value;
    return user_info_set(info, v);
}
static inline int user_info_set_bytes(amber_user_info *info, const char *key, const void *bytes, size_t size) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_BYTES);
    v.bytes_value = bytes;
    v.bytes_size = size;
    return user_info_set(info, v);
}

/* Reads one value of a user info into *v (found, or AMBER_NOT_FOUND). */
static inline int user_info_get(amber_keyed_value *v, const amber_user_info *info) {
    int rc = amber_user_info_values(v, 1, info);
    if (rc != AMBER_OK) return rc;
    return v->found ? AMBER_OK : AMBER_NOT_FOUND;
}
static inline int user_info_get_bool(int *out, const amber_user_info *info, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_BOOL);
    int rc = user_info_get(&v, info);
    if (rc == AMBER_OK) *out = (int)v.int64_value;
    return rc;
}
static inline int user_info_get_int64(int64_t *out, const amber_user_info *info, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_INT64);
    int rc = user_info_get(&v, info);
    if (rc == AMBER_OK) *out = v.int64_value;
    return rc;
}
static inline int user_info_get_double(double *out, const amber_user_info *info, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_DOUBLE);
    int rc = user_info_get(&v, info);
    if (rc == AMBER_OK) *out = v.double_value;
    return rc;
}
static inline int user_info_get_string(const char **out, const amber_user_info *info, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_STRING);
    int rc = user_info_get(&v, info);
    if (rc == AMBER_OK) *out = v.string_value;
    return rc;
}
static inline int user_info_get_bytes(const uint8_t **out, size_t *out_size, const amber_user_info *info, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_BYTES);
    int rc = user_info_get(&v, info);
    if (rc == AMBER_OK) {
        *out = (const uint8_t *)v.bytes_value;
        *out_size = v.bytes_size;
    }
    return rc;
}
/* The type of the value under a key (AMBER_VALUE_ANY asks for it). */
static inline int user_info_type(int *out, const amber_user_info *info, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_ANY);
    int rc = user_info_get(&v, info);
    if (rc == AMBER_OK) *out = (int)v.type;
    return rc;
}

static inline int archiver_encode_int64(amber_archiver *a, const char *key, int64_t value) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_INT64);
    v.int64_value = value;
    return amber_archiver_encode_values(a, &v, 1);
}
static inline int archiver_encode_string(amber_archiver *a, const char *key, const char *value) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_STRING);
    v.string_value = value;
    return amber_archiver_encode_values(a, &v, 1);
}
static inline int archiver_encode_date(amber_archiver *a, const char *key, double seconds) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_DATE);
    v.double_value = seconds;
    return amber_archiver_encode_values(a, &v, 1);
}
static inline int unarchiver_decode(amber_keyed_value *v, amber_unarchiver *u) {
    int rc = amber_unarchiver_decode_values(v, 1, u);
    if (rc != AMBER_OK) return rc;
    return v->found ? AMBER_OK : AMBER_NOT_FOUND;
}
static inline int unarchiver_decode_int64(int64_t *out, amber_unarchiver *u, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_INT64);
    int rc = unarchiver_decode(&v, u);
    if (rc == AMBER_OK) *out = v.int64_value;
    return rc;
}
static inline int unarchiver_decode_string(const char **out, amber_unarchiver *u, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_STRING);
    int rc = unarchiver_decode(&v, u);
    if (rc == AMBER_OK) *out = v.string_value;
    return rc;
}
static inline int unarchiver_decode_date(double *out, amber_unarchiver *u, const char *key) {
    amber_keyed_value v = keyed(key, AMBER_VALUE_DATE);
    int rc = unarchiver_decode(&v, u);
    if (rc == AMBER_OK) *out = v.double_value;
    return rc;
}

#endif

/*
 * amber_coder_encode_values() and amber_decoder_decode_values(): an object's whole state in one
 * call (R6, R12), all or nothing when encoding (R7 and R22 errors write nothing), found flags
 * and defaults when decoding, and every bad argument refused with a message naming the value.
 * Dates and index paths one value a call (amber_coder_encode_date(), _index_path() and their
 * decoders), and the batch call reading them.
 *
 * Usage: test_values [--list] [PREFIX...] (runner.h). Prints one line per check and
 * "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include "amber.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* The last error's message contains `text`. */
static void check_message(const char *text, const char *what) {
    char line[512];
    snprintf(line, sizeof line, "%s: the message names %s", what, text);
    check(strstr(amber_error_last(), text) != NULL, line);
}

static amber_keyed_value value(const char *key, int type) {
    amber_keyed_value v;
    memset(&v, 0, sizeof v);
    v.key = key;
    v.type = type;
    return v;
}

/* ---- the first launch: the root writes its state in one call, after refused calls ---------- */

static const unsigned char blob[5] = {0, 1, 2, 0xFE, 0xFF};
static amber_coder *escaped;
static int encode_status = -1;

static int encode_root(amber_object *object, amber_coder *coder, void *ctx) {
    amber_keyed_value v[6];
    (void)object; (void)ctx;

    /* Refused, and each writes nothing (a later read finds none of their keys). */
    v[0] = value("early", AMBER_VALUE_INT64);
    v[0].int64_value = 1;
    v[1] = value("alsoEarly", AMBER_VALUE_BOOL);
    v[2] = value("amber.mine", AMBER_VALUE_INT64);
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_RESERVED_KEY, "R7 a reserved key at values[2]");
    check_message("values[2] (key 'amber.mine')", "R7 a reserved key at values[2]");
    v[2] = value("early", AMBER_VALUE_DOUBLE);
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_DUPLICATE, "a key given twice in one call");
    check_message("values[2] (key 'early')", "a key given twice in one call");
    v[2] = value("text", AMBER_VALUE_STRING);
    v[2].string_value = "\xC3\x28";
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "R22 a string of invalid UTF-8");
    check_message("values[2] (key 'text')", "R22 a string of invalid UTF-8");
    v[2].string_value = NULL;
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "a NULL string");
    v[2] = value("blob", AMBER_VALUE_BYTES);
    v[2].bytes_size = 3;
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "NULL bytes of size 3");
    check_message("values[2] (key 'blob')", "NULL bytes of size 3");
    v[2] = value("when", AMBER_VALUE_DATE);
    v[2].double_value = NAN;
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "R22 a date that is NaN");
    check_message("not a number", "R22 a date that is NaN");
    v[2].double_value = 252423993600.0; /* 10000-01-01T00:00:00Z */
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "R22 a date in year 10000");
    check_message("outside years 1 to 9999", "R22 a date in year 10000");
    v[2] = value("odd", 77);
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "a type that is not an amber_value_type");
    check_message("values[2] (key 'odd')", "an unknown type");
    v[2] = value(NULL, AMBER_VALUE_INT64);
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "a NULL key");
    check_message("values[2]", "a NULL key");
    v[2] = value("", AMBER_VALUE_INT64);
    check_status(amber_coder_encode_values(coder, v, 3), AMBER_INVALID_ARGUMENT, "an empty key");
    check_status(amber_coder_encode_values(coder, NULL, 2), AMBER_INVALID_ARGUMENT, "NULL values with a count of 2");
    check_status(amber_coder_encode_values(coder, NULL, 0), AMBER_OK, "NULL values with a count of 0 writes nothing");
    check_status(amber_coder_encode_values(NULL, v, 1), AMBER_INVALID_ARGUMENT, "a NULL coder");

    /* A key written by the single-value call before is refused in a batch, and nothing else
     * of that batch is written. */
    check_status(amber_coder_encode_int64(coder, "single", 5), AMBER_OK, "one value written alone");
    v[0] = value("notWritten", AMBER_VALUE_INT64);
    v[1] = value("single", AMBER_VALUE_INT64);
    check_status(amber_coder_encode_values(coder, v, 2), AMBER_DUPLICATE, "a key written before in the coder");
    check_message("values[1] (key 'single')", "a key written before in the coder");

    /* The state, in one call. */
    v[0] = value("selectedIndex", AMBER_VALUE_INT64);
    v[0].int64_value = -1234567890123LL;
    v[1] = value("isEditing", AMBER_VALUE_BOOL);
    v[1].int64_value = 7; /* non-zero: true */
    v[2] = value("contentOffsetY", AMBER_VALUE_DOUBLE);
    v[2].double_value = 44.5;
    v[3] = value("title", AMBER_VALUE_STRING);
    v[3].string_value = "Caf\xC3\xA9 au lait"; /* not ASCII */
    v[4] = value("itemKey", AMBER_VALUE_STRING);
    v[4].string_value = "K000000000000000000001";
    v[5] = value("blob", AMBER_VALUE_BYTES);
    v[5].bytes_value = blob;
    v[5].bytes_size = sizeof blob;
    encode_status = amber_coder_encode_values(coder, v, 6);
    v[0] = value("cl\xC3\xA9", AMBER_VALUE_INT64); /* a key that is not ASCII */
    v[0].int64_value = 42;
    v[1] = value("empty", AMBER_VALUE_BYTES);
    if (encode_status == AMBER_OK) encode_status = amber_coder_encode_values(coder, v, 2);
    escaped = coder;
    return AMBER_OK;
}

static int save(amber_engine *e, amber_coder *app, void *ctx) {
    amber_keyed_value v[2];
    (void)e; (void)ctx;
    v[0] = value("appNote", AMBER_VALUE_STRING);
    v[0].string_value = "from the application coder";
    v[1] = value("bundleVersion", AMBER_VALUE_STRING);
    v[1].string_value = "9.9";
    check_status(amber_coder_encode_values(app, v, 2), AMBER_RESERVED_KEY, "R7 bundleVersion in the application coder");
    check_status(amber_coder_encode_values(app, v, 1), AMBER_OK, "the application coder takes values in one call");
    return 1;
}

static int yes_save(amber_engine *e, amber_coder *app, void *ctx) {
    (void)e, (void)app, (void)ctx;
    return 1;
}

/* ---- the second launch ------------------------------------------------------------------------ */

static int decoded;

static int decode_root(amber_object *object, amber_decoder *decoder, void *ctx) {
    amber_keyed_value v[10];
    int i;
    (void)object; (void)ctx;
    v[0] = value("selectedIndex", AMBER_VALUE_INT64);
    v[1] = value("isEditing", AMBER_VALUE_BOOL);
    v[2] = value("contentOffsetY", AMBER_VALUE_DOUBLE);
    v[3] = value("title", AMBER_VALUE_STRING);
    v[4] = value("itemKey", AMBER_VALUE_STRING);
    v[5] = value("blob", AMBER_VALUE_BYTES);
    v[6] = value("missing", AMBER_VALUE_INT64);
    v[6].int64_value = 99; /* a default: kept */
    v[7] = value("cl\xC3\xA9", AMBER_VALUE_INT64);
    v[8] = value("selectedIndex", AMBER_VALUE_DOUBLE); /* an integer read as a double */
    v[9] = value("empty", AMBER_VALUE_BYTES);
    for (i = 0; i < 10; i++) v[i].found = -1;
    check_status(amber_decoder_decode_values(v, 10, decoder), AMBER_OK, "R12 decode 10 values in one call");
    check(v[0].found == 1 && v[0].int64_value == -1234567890123LL, "R12 an int64");
    check(v[1].found == 1 && v[1].int64_value == 1, "R12 a bool (7 was written as true)");
    check(v[2].found == 1 && v[2].double_value == 44.5, "R12 a double");
    check(v[3].found == 1 && v[3].string_value && strcmp(v[3].string_value, "Caf\xC3\xA9 au lait") == 0, "R12 a string that is not ASCII");
    check(v[4].found == 1 && v[4].string_value && strcmp(v[4].string_value, "K000000000000000000001") == 0, "R12 an ASCII string");
    check(v[5].found == 1 && v[5].bytes_size == sizeof blob && v[5].bytes_value &&
              memcmp(v[5].bytes_value, blob, sizeof blob) == 0, "R12 bytes");
    check(v[6].found == 0 && v[6].int64_value == 99, "a missing key: found is 0 and the default is kept");
    check(v[7].found == 1 && v[7].int64_value == 42, "a key that is not ASCII");
    check(v[8].found == 1 && v[8].double_value == -1234567890123.0, "an integer read as a double is converted");
    check(v[9].found == 1 && v[9].bytes_size == 0, "empty bytes");

    /* Nothing of the refused batches was written. */
    check(!amber_decoder_contains(decoder, "early") && !amber_decoder_contains(decoder, "alsoEarly") &&
              !amber_decoder_contains(decoder, "notWritten"), "a refused batch wrote none of its values");
    check(amber_decoder_contains(decoder, "single"), "the value written alone is there");

    /* Errors: a type mismatch names its element; the ones before it are filled. */
    v[0] = value("contentOffsetY", AMBER_VALUE_DOUBLE);
    v[1] = value("title", AMBER_VALUE_INT64);
    v[2] = value("itemKey", AMBER_VALUE_STRING);
    check_status(amber_decoder_decode_values(v, 3, decoder), AMBER_TYPE_MISMATCH, "a string read as an int64");
    check_message("values[1] (key 'title')", "a string read as an int64");
    check(v[0].found == 1 && v[0].double_value == 44.5 && v[2].found == 0 && v[2].string_value == NULL,
          "the element before the error is filled, the one after untouched");
    v[0] = value("title", 0);
    check_status(amber_decoder_decode_values(v, 1, decoder), AMBER_INVALID_ARGUMENT, "type 0");
    check_message("values[0] (key 'title')", "type 0");
    v[0] = value(NULL, AMBER_VALUE_INT64);
    check_status(amber_decoder_decode_values(v, 1, decoder), AMBER_INVALID_ARGUMENT, "a NULL key");
    check_status(amber_decoder_decode_values(NULL, 1, decoder), AMBER_INVALID_ARGUMENT, "NULL values with a count of 1");
    check_status(amber_decoder_decode_values(NULL, 0, decoder), AMBER_OK, "NULL values with a count of 0");
    check_status(amber_decoder_decode_values(v, 1, NULL), AMBER_INVALID_ARGUMENT, "a NULL decoder");
    decoded = 1;
    return AMBER_OK;
}

static amber_decoder *escaped_decoder;

static int decode_late(amber_object *object, amber_decoder *decoder, void *ctx) {
    (void)object; (void)ctx;
    escaped_decoder = decoder;
    return decode_root(object, decoder, ctx);
}

static int make_root(amber_object **out, amber_engine *engine, const char *const *path, size_t path_length,
                     amber_decoder *decoder, void *ctx) {
    amber_object_callbacks cb;
    (void)decoder; (void)ctx;
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.decode = decode_late;
    return amber_object_new(out, engine, AMBER_KIND_CONTROLLER, "RootController", path[path_length - 1], &cb, NULL, NULL);
}

static int restore_ok(amber_engine *e, amber_decoder *app, void *ctx) {
    amber_keyed_value v = value("appNote", AMBER_VALUE_STRING);
    (void)e; (void)ctx;
    check_status(amber_decoder_decode_values(&v, 1, app), AMBER_OK, "the application decoder reads values in one call");
    check(v.found == 1 && v.string_value && strcmp(v.string_value, "from the application coder") == 0,
          "the application coder's value is back");
    return 1;
}

/* R6 R12: the state written in one call by one engine and read in one call by the next. */
static void test_r6_r12_values_in_one_call(void) {
    char dir[600];
    amber_engine *e = NULL;
    amber_engine_options opts;
    amber_delegate d;
    amber_object_callbacks cb;
    amber_object *root = NULL;
    amber_restoration_class rc;
    amber_report *report = NULL;
    amber_keyed_value v = value("late", AMBER_VALUE_INT64);
    int saved = 0;

    runner_dir(dir, sizeof dir, "state");
    printf("-- amber_coder_encode_values\n");
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.state_directory = dir;
    check_status(amber_engine_open(&e, "org.example.values", &opts), AMBER_OK, "open an engine");
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_save = save;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    cb = (amber_object_callbacks)AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = encode_root;
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "RootController", "Root", &cb, NULL, NULL);
    amber_object_set_restoration_class(root, "Roots");
    amber_engine_add_root(e, root);
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R6 preserve");
    check(saved == 1, "R5 saved");
    check_status(encode_status, AMBER_OK, "R6 the state written in one call (6 values, then 2)");
    check_status(amber_coder_encode_values(escaped, &v, 1), AMBER_MISUSE, "a coder used after its callback");
    amber_engine_close(e);

    printf("-- amber_decoder_decode_values\n");
    e = NULL;
    check_status(amber_engine_open(&e, "org.example.values", &opts), AMBER_OK, "open a second engine");
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_restore = restore_ok;
    amber_engine_set_delegate(e, &d, NULL, NULL);
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    rc.make = make_root;
    amber_engine_register_restoration_class(e, "Roots", &rc, NULL, NULL);
    check_status(amber_engine_launch(&report, e, AMBER_APP_INACTIVE), AMBER_OK, "R9 launch");
    check(decoded == 1 && amber_report_count(report) == 1, "R13 the root was made and decoded");
    check_status(amber_decoder_decode_values(&v, 1, escaped_decoder), AMBER_MISUSE, "a decoder used after its callback");
    amber_report_free(report);
    amber_engine_close(e);
}

/* ---- dates and index paths, one value a call ------------------------------------------------ */

static const int64_t path_written[3] = {3, -14, 15};
static const double date_written = 786297600.5; /* 2025-12-01T00:00:00.5Z */
static int dated_encoded = -1;

static int encode_dated(amber_object *object, amber_coder *coder, void *ctx) {
    (void)object; (void)ctx;
    check_status(amber_coder_encode_date(coder, "when", NAN), AMBER_INVALID_ARGUMENT, "R22 a date that is NaN");
    check_status(amber_coder_encode_date(coder, "when", 252423993600.0), AMBER_INVALID_ARGUMENT,
                 "R22 a date in year 10000");
    check_message("outside years 1 to 9999", "R22 a date in year 10000");
    check_status(amber_coder_encode_date(coder, "timestamp", 0), AMBER_RESERVED_KEY, "R7 a date under a reserved key");
    check_status(amber_coder_encode_date(coder, "", 0), AMBER_INVALID_ARGUMENT, "a date under an empty key");
    check_status(amber_coder_encode_index_path(coder, "rows", NULL, 2), AMBER_INVALID_ARGUMENT,
                 "an index path of NULL indexes and length 2");
    check_status(amber_coder_encode_index_path(NULL, "rows", path_written, 3), AMBER_INVALID_ARGUMENT, "a NULL coder");
    dated_encoded = amber_coder_encode_date(coder, "when", date_written);
    if (dated_encoded == AMBER_OK) dated_encoded = amber_coder_encode_index_path(coder, "row", path_written, 3);
    if (dated_encoded == AMBER_OK) dated_encoded = amber_coder_encode_index_path(coder, "none", NULL, 0);
    check_status(amber_coder_encode_date(coder, "when", 0), AMBER_DUPLICATE, "R6 a date's key written twice");
    return AMBER_OK;
}

static int dated_decoded;

static int decode_dated(amber_object *object, amber_decoder *decoder, void *ctx) {
    double when = 0;
    amber_index_path row = {NULL, 99}, none = {NULL, 99};
    amber_keyed_value batch[2];
    (void)object; (void)ctx;
    check_status(amber_decoder_decode_date(&when, decoder, "when"), AMBER_OK, "R12 a date");
    check(when == date_written, "R12 the date is the one written");
    check_status(amber_decoder_decode_index_path(&row, decoder, "row"), AMBER_OK, "R12 an index path");
    check(row.length == 3 && row.indexes && memcmp(row.indexes, path_written, sizeof path_written) == 0,
          "R12 the index path is the one written");
    check_status(amber_decoder_decode_index_path(&none, decoder, "none"), AMBER_OK, "R12 an empty index path");
    check(none.length == 0 && none.indexes == NULL, "R12 an empty index path: length 0, indexes NULL");
    check_status(amber_decoder_decode_date(&when, decoder, "row"), AMBER_TYPE_MISMATCH, "an index path read as a date");
    check_status(amber_decoder_decode_index_path(&row, decoder, "when"), AMBER_TYPE_MISMATCH, "a date read as an index path");
    check_status(amber_decoder_decode_date(&when, decoder, "missing"), AMBER_NOT_FOUND, "a missing date");
    check_status(amber_decoder_decode_date(&when, decoder, ""), AMBER_INVALID_ARGUMENT, "a date under an empty key");
    check_status(amber_decoder_decode_date(NULL, decoder, "when"), AMBER_INVALID_ARGUMENT, "a NULL out");
    /* The batch call reads what the single calls wrote, and the other way round is the same
     * value type (AMBER_VALUE_DATE, AMBER_VALUE_INDEX_PATH). */
    batch[0] = value("when", AMBER_VALUE_DATE);
    batch[1] = value("row", AMBER_VALUE_INDEX_PATH);
    check_status(amber_decoder_decode_values(batch, 2, decoder), AMBER_OK, "the batch call reads them");
    check(batch[0].double_value == date_written && batch[1].index_path_value.length == 3 &&
              batch[1].index_path_value.indexes[1] == -14, "the batch call reads the same values");
    dated_decoded = 1;
    return AMBER_OK;
}

/* R8: the application decoder's timestamp is a date, read with the date call. */
static int restore_dated(amber_engine *e, amber_decoder *app, void *ctx) {
    double saved_at = 0;
    (void)e; (void)ctx;
    check_status(amber_decoder_decode_date(&saved_at, app, "timestamp"), AMBER_OK, "R8 the archive's timestamp is a date");
    check(saved_at > 700000000.0, "R8 the timestamp is after 2023");
    return 1;
}

/* A root whose callbacks write and read the dated state. */
static amber_object *dated_root(amber_engine *e) {
    amber_object *root = NULL;
    amber_object_callbacks cb = AMBER_OBJECT_CALLBACKS_INIT;
    cb.encode = encode_dated;
    cb.decode = decode_dated;
    amber_object_new(&root, e, AMBER_KIND_CONTROLLER, "RootController", "Root", &cb, NULL, NULL);
    amber_engine_add_root(e, root);
    return root;
}

/* R12 R22: a date and an index path, each in its own call, saved by one engine and read by the
 * next; what a date or an index path may not be is refused. */
static void test_r12_dates_and_index_paths(void) {
    char dir[600];
    amber_engine *e = NULL;
    amber_engine_options opts = AMBER_ENGINE_OPTIONS_INIT;
    amber_delegate d = AMBER_DELEGATE_INIT;
    amber_report *report = NULL;
    int saved = 0;

    runner_dir(dir, sizeof dir, "dated");
    opts.state_directory = dir;
    d.should_save = yes_save;
    check_status(amber_engine_open(&e, "org.example.dated", &opts), AMBER_OK, "open an engine");
    amber_engine_set_delegate(e, &d, NULL, NULL);
    dated_root(e);
    check_status(amber_engine_preserve(&saved, e), AMBER_OK, "R6 preserve");
    check_status(dated_encoded, AMBER_OK, "R6 a date and two index paths written");
    amber_engine_close(e);

    e = NULL;
    d = (amber_delegate)AMBER_DELEGATE_INIT;
    d.should_restore = restore_dated;
    check_status(amber_engine_open(&e, "org.example.dated", &opts), AMBER_OK, "open a second engine");
    amber_engine_set_delegate(e, &d, NULL, NULL);
    dated_root(e);
    check_status(amber_engine_launch(&report, e, AMBER_APP_INACTIVE), AMBER_OK, "R9 launch");
    check(dated_decoded == 1, "R12 the root decoded its date and index paths");
    amber_report_free(report);
    amber_engine_close(e);
}

static const runner_test tests[] = {
    {"r6_r12_values_in_one_call", test_r6_r12_values_in_one_call},
    {"r12_dates_and_index_paths", test_r12_dates_and_index_paths},
};

int main(int argc, char **argv) {
    return runner_main("values", tests, RUNNER_COUNT(tests), argc, argv);
}

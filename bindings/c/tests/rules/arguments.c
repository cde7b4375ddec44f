/*
 * test_rules, R22: bad arguments give a status and a message, never a crash.
 *
 * R22 every function given NULL, an empty or over-long string, a handle of the wrong kind or a
 * coder used outside its callback answers with a status code and a message.
 */
#include "fixture.h"

/* ============================================================================================ */
/* R22 Bad arguments at the C ABI (the part issue 3 asks for)                                   */
/* ============================================================================================ */

static int bad_key_status[6], bad_value_status[3];

static void bad_encode_hook(node *n, amber_coder *c) {
    (void)n;
    bad_key_status[0] = amber_coder_encode_int64(c, NULL, 1);
    bad_key_status[1] = amber_coder_encode_int64(c, "\xc3\x28", 1);
    bad_key_status[2] = amber_coder_encode_int64(c, "", 1);
    bad_value_status[0] = amber_coder_encode_string(c, "k1", NULL);
    bad_value_status[1] = amber_coder_encode_string(c, "k2", "\xe2\x82");
    bad_value_status[2] = amber_coder_encode_bytes(c, "k3", NULL, 4);
    bad_key_status[3] = amber_coder_encode_int64(NULL, "k4", 1);
}

static void bad_decode_hook(node *n, amber_decoder *d) {
    int64_t v;
    (void)n;
    bad_key_status[4] = amber_decoder_decode_int64(&v, d, "\xff");
    bad_key_status[5] = amber_decoder_decode_int64(NULL, d, "value");
}

void test_bad_arguments(void) {
    mem_store ms = {0};
    amber_engine *e, *freed = NULL;
    amber_engine_options opts;
    amber_object *o = NULL, *root;
    amber_report *r = NULL;
    amber_restoration_class rc;
    amber_blueprint_factory bf;
    amber_buf s = AMBER_BUF_INIT;
    uint64_t t;
    node *n;

    printf("-- R22 bad arguments at the C ABI\n");
    reset();
    reset_app();
    e = open_mem(&ms, NULL, NULL);
    rc = (amber_restoration_class)AMBER_RESTORATION_CLASS_INIT;
    bf = (amber_blueprint_factory)AMBER_BLUEPRINT_FACTORY_INIT;

    /* NULL handles. */
    check_error(amber_engine_preserve(NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 preserve(NULL engine)");
    check_error(amber_engine_launch(&r, NULL, AMBER_APP_INACTIVE), AMBER_INVALID_ARGUMENT, "R22 launch(NULL engine)");
    check_error(amber_engine_discard(NULL), AMBER_INVALID_ARGUMENT, "R22 discard(NULL engine)");
    check_error(amber_engine_extend_restoration(&t, NULL), AMBER_INVALID_ARGUMENT, "R22 extend_restoration(NULL engine)");
    check_error(amber_engine_complete_restoration(NULL, 1), AMBER_INVALID_ARGUMENT, "R22 complete_restoration(NULL engine)");
    check_error(amber_engine_add_root(NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 add_root(NULL engine)");
    check_error(amber_engine_add_root(e, NULL), AMBER_INVALID_ARGUMENT, "R22 add_root(NULL root)");
    check_error(amber_engine_set_delegate(NULL, NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 set_delegate(NULL engine)");
    check_error(amber_engine_register_restoration_class(NULL, "X", &rc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(NULL engine)");
    check_error(amber_engine_register_restoration_class(e, "X", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(NULL class)");
    check_error(amber_engine_register_blueprint_factory(e, "F", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(NULL factory)");
    check_error(amber_engine_register_subclass(NULL, "A", "B"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(NULL engine)");
    check(last_duplicates(NULL) != NULL && last_duplicates(NULL)[0] == '\0' &&
              amber_error_last_code() == AMBER_INVALID_ARGUMENT,
          "R22 last_duplicates(NULL) is \"\" and records AMBER_INVALID_ARGUMENT");
    check_error(amber_object_new(&o, NULL, AMBER_KIND_CONTROLLER, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(NULL engine)");
    check_error(amber_object_set_identifier(NULL, "x"), AMBER_INVALID_ARGUMENT, "R22 set_identifier(NULL object)");
    check_error(amber_object_set_restoration_class(NULL, "x"), AMBER_INVALID_ARGUMENT, "R22 set_restoration_class(NULL object)");
    check_error(amber_object_set_blueprint(NULL, "x"), AMBER_INVALID_ARGUMENT, "R22 set_blueprint(NULL object)");
    check_error(amber_object_set_stack(NULL, 1), AMBER_INVALID_ARGUMENT, "R22 set_stack(NULL object)");
    root = ctl(e, "RootController", "Root", nn("Root", 1));
    check_error(amber_object_add_child(NULL, root), AMBER_INVALID_ARGUMENT, "R22 add_child(NULL parent)");
    check_error(amber_object_add_child(root, NULL), AMBER_INVALID_ARGUMENT, "R22 add_child(NULL child)");
    check_error(amber_object_add_view(root, NULL), AMBER_INVALID_ARGUMENT, "R22 add_view(NULL view)");
    check_error(amber_object_present(NULL, root), AMBER_INVALID_ARGUMENT, "R22 present(NULL presenter)");
    check_error(amber_object_set_restoration_parent(NULL, root), AMBER_INVALID_ARGUMENT, "R22 set_restoration_parent(NULL object)");
    check_error(amber_object_path(&s, NULL), AMBER_INVALID_ARGUMENT, "R22 object_path(NULL object)");
    check(amber_object_identifier(NULL) == NULL && amber_object_context(NULL) == NULL && amber_object_kind(NULL) == -1,
          "R22 getters on a NULL object: NULL, NULL, -1");
    check_error(amber_report_format(&s, NULL), AMBER_INVALID_ARGUMENT, "R22 report_format(NULL report)");
    check_error(amber_engine_load_plugin(NULL, "x.so"), AMBER_INVALID_ARGUMENT, "R22 load_plugin(NULL engine)");

    /* NULL out parameters. */
    check_error(amber_engine_launch(NULL, e, AMBER_APP_INACTIVE), AMBER_INVALID_ARGUMENT, "R22 launch(out NULL)");
    check_error(amber_object_new(NULL, e, AMBER_KIND_CONTROLLER, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(out NULL)");
    check_error(amber_object_path(NULL, root), AMBER_INVALID_ARGUMENT, "R22 object_path(out NULL)");
    check_error(amber_engine_extend_restoration(NULL, e), AMBER_INVALID_ARGUMENT, "R22 extend_restoration(out NULL)");

    /* NULL strings. */
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, NULL, "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(class_name NULL)");
    check_error(amber_engine_register_restoration_class(e, NULL, &rc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(name NULL)");
    check_error(amber_engine_register_blueprint_factory(e, NULL, &bf, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(name NULL)");
    check_error(amber_engine_register_subclass(e, NULL, "B"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(name NULL)");
    check_error(amber_engine_register_subclass(e, "A", NULL), AMBER_INVALID_ARGUMENT, "R22 register_subclass(superclass NULL)");
    check_error(amber_engine_load_plugin(e, NULL), AMBER_INVALID_ARGUMENT, "R22 load_plugin(path NULL)");
    check_error(amber_engine_open(&freed, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 engine_open(app_id NULL)");

    /* Invalid UTF-8. */
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "Bad\xff", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(class_name invalid UTF-8)");
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "C", "\xc0\xaf", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(restoration_id overlong UTF-8)");
    check_error(amber_object_set_identifier(root, "\xed\xa0\x80"), AMBER_INVALID_ARGUMENT, "R22 set_identifier(a UTF-16 surrogate)");
    check_error(amber_object_set_restoration_class(root, "\xfe"), AMBER_INVALID_ARGUMENT, "R22 set_restoration_class(invalid UTF-8)");
    check_error(amber_object_set_blueprint(root, "Main/\x80"), AMBER_INVALID_ARGUMENT, "R22 set_blueprint(invalid UTF-8)");
    check_error(amber_engine_register_restoration_class(e, "\xff", &rc, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_restoration_class(name invalid UTF-8)");
    check_error(amber_engine_register_subclass(e, "A", "\xc3"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(truncated UTF-8)");
    check_error(amber_engine_register_blueprint_factory(e, "\xff", &bf, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(name invalid UTF-8)");
    opts = (amber_engine_options)AMBER_ENGINE_OPTIONS_INIT;
    opts.memory_store = 1;
    opts.bundle_version = "1.\xff";
    check_error(amber_engine_open(&freed, "app", &opts), AMBER_INVALID_ARGUMENT, "R22 engine_open(bundle_version invalid UTF-8)");
    opts.bundle_version = NULL;
    opts.memory_store = 0;
    opts.state_directory = "/tmp/\xff";
    check_error(amber_engine_open(&freed, "app", &opts), AMBER_INVALID_ARGUMENT, "R22 engine_open(state_directory invalid UTF-8)");
    check(amber_object_identifier(root) && strcmp(amber_object_identifier(root), "Root") == 0,
          "R22 a refused set_identifier leaves the identifier as it was");

    /* Unknown class names and kinds. */
    check_error(amber_object_new(&o, e, 3, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 object_new(an unknown kind 3)");
    check_error(amber_object_new(&o, e, -1, "C", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT, "R22 object_new(kind -1)");
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "", "x", NULL, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 object_new(an empty class name)");
    check_error(amber_engine_register_subclass(e, "", "B"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(an empty class name)");
    check_error(amber_engine_register_subclass(e, "Same", "Same"), AMBER_INVALID_ARGUMENT, "R22 register_subclass(a class of itself)");
    check_error(amber_engine_register_blueprint_factory(e, "A/B", &bf, NULL, NULL), AMBER_INVALID_ARGUMENT,
                "R22 register_blueprint_factory(a name with '/')");
    check_error(amber_engine_load_plugin(e, "/nonexistent/libnothing.so"), AMBER_NOT_FOUND, "R22 load_plugin(a library that does not exist)");
    /* (An unregistered restoration class name at restore: R10; an unknown class in secure decoding: R12.) */

    /* Coders and decoders given bad arguments inside their callbacks. */
    n = (node *)amber_object_context(root);
    n->encode_hook = bad_encode_hook;
    amber_engine_add_root(e, root);
    check(preserve(e) == 1, "R22 preserve (bad coder calls fail one by one, the preservation does not)");
    check_status(bad_key_status[0], AMBER_INVALID_ARGUMENT, "R22 encode with key NULL");
    check_status(bad_key_status[1], AMBER_INVALID_ARGUMENT, "R22 encode with a key of invalid UTF-8");
    check_status(bad_key_status[2], AMBER_INVALID_ARGUMENT, "R22 encode with an empty key");
    check_status(bad_key_status[3], AMBER_INVALID_ARGUMENT, "R22 encode into a NULL coder");
    check_status(bad_value_status[0], AMBER_INVALID_ARGUMENT, "R22 encode_string with value NULL");
    check_status(bad_value_status[1], AMBER_INVALID_ARGUMENT, "R22 encode_string with a value of truncated UTF-8");
    check_status(bad_value_status[2], AMBER_INVALID_ARGUMENT, "R22 encode_bytes with bytes NULL and size 4");
    n->decode_hook = bad_decode_hook;
    r = launch(e);
    check_status(bad_key_status[4], AMBER_INVALID_ARGUMENT, "R22 decode with a key of invalid UTF-8");
    check_status(bad_key_status[5], AMBER_INVALID_ARGUMENT, "R22 decode with out NULL");
    check(n->got == 1 && outcome_of(r, "Root") == AMBER_OUTCOME_RESTORED, "R22 the object still restored (1)");
    amber_report_free(r);

    /* A freed engine handle used again. */
    amber_engine_close(e);
    check_error(amber_engine_preserve(NULL, e), AMBER_MISUSE, "R22 preserve on a closed engine");
    check_error(amber_engine_launch(&r, e, AMBER_APP_INACTIVE), AMBER_MISUSE, "R22 launch on a closed engine");
    check_error(amber_engine_discard(e), AMBER_MISUSE, "R22 discard on a closed engine");
    check_error(amber_object_new(&o, e, AMBER_KIND_CONTROLLER, "C", "x", NULL, NULL, NULL), AMBER_MISUSE,
                "R22 object_new on a closed engine");
    check(amber_error_last() != NULL, "R22 amber_error_last() never returns NULL");
    mem_store_clear(&ms);
}

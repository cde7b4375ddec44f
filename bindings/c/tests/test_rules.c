/*
 * The rules of docs/behaviour.md R1-R16, R28 and R29 through the C ABI alone (include/amber.h,
 * linked with -lamber), and the bad arguments of R22: the index of the rules suite. Each test is a
 * named function in the file of its rule group under rules/; what they share is in
 * rules/fixture.h.
 *
 * Each preserve runs in one engine and each restore in another one on the same store, as two
 * launches of a program would; the crash-loop test (R14) runs its launches in child processes
 * that are killed with SIGKILL while restoring. The log test (R29) runs this program again in a
 * child process with AMBER_LOG=debug ("test_rules --r29-log-child") and reads its standard error.
 *
 * Usage: test_rules [--list] [PREFIX...] (runner.h): "test_rules r10" runs the R10 tests
 * (bindings/c/run-tests.sh rules r10 builds and runs them). Prints one line per check, each
 * naming its rule, and "N passed, N failed"; exits non-zero if a check fails.
 */
#include "rules/fixture.h"

/* rules/tree.c: R1-R4 */
void test_r1(void);
void test_present(void);
void test_r2(void);
void test_r3(void);
void test_r3_identifiers(void);
void test_r4(void);
void test_r4_seeds(void);
/* rules/saving.c: R5-R8 */
void test_r5(void);
void test_r6(void);
void test_r7(void);
void test_r8(void);
/* rules/restoration.c: R9-R13 */
void test_r9(void);
void test_r10(void);
void test_r10_record_info(void);
void test_r10_declined_by_reference(void);
void test_r11(void);
void test_r12(void);
void test_r13(void);
/* rules/launches.c: R14-R16 */
void test_r14(void);
void test_r14_discard_next_process(void);
void test_r15(void);
void test_r15_unfinished(void);
void test_r16(void);
/* rules/reports.c: R28, R29 */
void test_r28(void);
void test_r29(void);
void test_r29_ctx_free(void);
int r29_log_child(void);
/* rules/arguments.c: R22 */
void test_bad_arguments(void);

/* In the order of the rules: a newcomer reads them top down. */
static const runner_test tests[] = {
    {"r1", test_r1},
    {"r1_present", test_present},
    {"r2", test_r2},
    {"r3", test_r3},
    {"r3_identifiers", test_r3_identifiers},
    {"r4", test_r4},
    {"r4_seeds", test_r4_seeds},
    {"r5", test_r5},
    {"r6", test_r6},
    {"r7", test_r7},
    {"r8", test_r8},
    {"r9", test_r9},
    {"r10", test_r10},
    {"r10_record_info", test_r10_record_info},
    {"r10_declined_by_reference", test_r10_declined_by_reference},
    {"r11", test_r11},
    {"r12", test_r12},
    {"r13", test_r13},
    {"r14", test_r14},
    {"r14_discard_next_process", test_r14_discard_next_process},
    {"r15", test_r15},
    {"r15_unfinished", test_r15_unfinished},
    {"r16", test_r16},
    {"r28", test_r28},
    {"r29", test_r29},
    {"r29_ctx_free", test_r29_ctx_free},
    {"r22_bad_arguments", test_bad_arguments},
};

int main(int argc, char **argv) {
    /* The child process of the AMBER_LOG test (R29): see run_log_child() in rules/reports.c. */
    if (argc > 1 && strcmp(argv[1], "--r29-log-child") == 0) return r29_log_child();
    return runner_main("rules", tests, RUNNER_COUNT(tests), argc, argv);
}

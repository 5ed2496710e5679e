/* The simulated driver's CUnit programs end the same way: register the suites, run them verbosely, and exit
 * 0, 1 when a test or a suite's set-up failed, 2 when CUnit itself could not start. */
#ifndef TESTS_INTEGRATION_CUNIT_RUN_H
#define TESTS_INTEGRATION_CUNIT_RUN_H

#include <CUnit/Basic.h>

static inline int cunit_run(CU_SuiteInfo *suites)
{
    if (CU_initialize_registry() != CUE_SUCCESS || CU_register_suites(suites) != CUE_SUCCESS)
        return 2;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned int failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}

#endif

// Swift Testing reads how many test cases may run at once from its environment when it starts,
// and `swift test` has no flag for it. Started all at once on two cores, this suite leaves a
// waiting task without a thread for many seconds, so a plain `swift test` gets the width the
// suite is tuned for unless the caller has set one.
#include <stdlib.h>

#if !defined(_WIN32)
__attribute__((constructor)) static void setDefaultParallelizationWidth(void) {
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", "16", 0);
}
#endif

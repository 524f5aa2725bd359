// The JSON Lines task-set reader: any bytes give tasks or errors, never a crash.
#include "TaskSetChecks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    conclave::fuzz::checkTaskSet(conclave::TaskSet::fromJsonLines(conclave::fuzz::text(data, size)));
    return 0;
}

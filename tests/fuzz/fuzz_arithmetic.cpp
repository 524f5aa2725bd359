// The arithmetic recogniser: any text gives an answer or none, never a crash
// or a recursion past its nesting limit; an answer is a finite number.
#include "FuzzCheck.h"

#include "conclave/local/ArithmeticQuestion.h"

#include <cmath>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    namespace fuzz = conclave::fuzz;
    const auto answer = conclave::ArithmeticQuestion::answer(fuzz::text(data, size));
    if (!answer)
        return 0;
    char* end = nullptr;
    const double value = std::strtod(answer->c_str(), &end);
    fuzz::check(!answer->empty() && end == answer->c_str() + answer->size(), "an answer is a number: " + *answer);
    fuzz::check(std::isfinite(value), "an answer is finite: " + *answer);
    return 0;
}

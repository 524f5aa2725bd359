#include "ClockLine.h"

#include <iomanip>
#include <sstream>

namespace conclave::cli {

std::string clockLine(ClockKind clock, int64_t cpuUs)
{
    std::ostringstream out;
    out << "clock: " << toString(clock) << (clock == ClockKind::Virtual ? " (simulated time)" : "") << ", CPU "
        << std::fixed << std::setprecision(2) << double(cpuUs) / 1000.0 << " ms";
    return out.str();
}

} // namespace conclave::cli

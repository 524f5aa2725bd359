#include "FanOutBreakdown.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace conclave::cli {

std::string fanOutBreakdown(const RunResult& result)
{
    int64_t routerEnd = 0, lastStart = 0, lastEnd = 0, joinStart = 0, joinEnd = 0;
    for (const auto& s : result.spans) {
        if (s.kind != SpanKind::Node)
            continue;
        const auto& id = s.node.str();
        if (id == "fan") {
            routerEnd = s.endUs;
        } else if (id == "join") {
            joinStart = s.startUs;
            joinEnd = s.endUs;
        } else if (id.starts_with("e")) {
            lastStart = std::max(lastStart, s.startUs);
            lastEnd = std::max(lastEnd, s.endUs);
        }
    }
    std::ostringstream out;
    out << std::fixed << std::setprecision(1);
    const auto ms = [](int64_t us) { return double(us) / 1000.0; };
    out << "router ended at " << ms(routerEnd) << " ms, last expert started at " << ms(lastStart) << " ms and ended at "
        << ms(lastEnd) << " ms, join ran " << ms(joinStart) << "-" << ms(joinEnd) << " ms, run ended at "
        << ms(result.wallUs) << " ms";
    return out.str();
}

} // namespace conclave::cli

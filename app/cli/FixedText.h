#pragma once

#include <iomanip>
#include <sstream>
#include <string>

namespace conclave::cli {

// A number with a fixed count of decimals, as the benches print them.
inline std::string fixed(double value, int digits)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << value;
    return out.str();
}

} // namespace conclave::cli

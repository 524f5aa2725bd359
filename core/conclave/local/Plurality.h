#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace conclave {

// The most common of some answers, as a meeting member reads the answers it
// is shown; a tie goes to the one shown first (the transcript's order), so
// the simulator and the calibration that fits it read a turn alike.
struct Plurality {
    static std::string of(const std::vector<std::string>& answers)
    {
        std::string best;
        long most = 0;
        for (const auto& a : answers) {
            const long n = long(std::count(answers.begin(), answers.end(), a));
            if (n > most) {
                most = n;
                best = a;
            }
        }
        return best;
    }
};

} // namespace conclave

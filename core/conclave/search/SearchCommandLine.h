#pragma once

#include "conclave/search/DesignSearch.h"

#include <string>
#include <vector>

namespace conclave {

// The `conclave search` command that reproduces a search, every option spelled out: what its report and its
// stored row carry, whether the CLI or the studio started it.
class SearchCommandLine {
public:
    struct Files {
        std::vector<std::string> bases;      // team files as typed ("TEAM.team.json" stands for one not saved)
        std::string space;                   // the space file
        std::string taskset;                 // as --taskset takes it
        std::string output;                  // -o DIR
        std::vector<std::string> references; // --reference
        std::string confirmOn;               // --confirm-on
        bool force = false;                  // --force
    };

    static std::string of(const Files& files, const DesignSearch::Options& options);
    // A word as a POSIX shell reads it back: as it is when it holds nothing the shell would act on, else in
    // single quotes (a quote inside written '\'').
    static std::string shellWord(const std::string& word);
};

} // namespace conclave

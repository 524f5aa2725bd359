#include "conclave/search/SearchCommandLine.h"

#include <cstdio>

namespace conclave {

std::string SearchCommandLine::shellWord(const std::string& word)
{
    if (!word.empty() && word.find_first_of(" \t\n'\"$`\\*?[]<>|&;(){}~#!") == std::string::npos)
        return word;
    std::string out = "'";
    for (const char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string SearchCommandLine::of(const Files& files, const DesignSearch::Options& options)
{
    const auto number = [](double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", value);
        return std::string(text);
    };
    std::string text = "conclave search";
    for (const auto& b : files.bases)
        text += " " + shellWord(b);
    if (!files.space.empty())
        text += " --space " + shellWord(files.space);
    text += " --taskset " + shellWord(files.taskset);
    if (options.budgetTrials)
        text += " --budget-trials " + std::to_string(*options.budgetTrials);
    if (options.budgetSeconds)
        text += " --budget-seconds " + number(*options.budgetSeconds);
    std::string objectives;
    for (const auto o : options.objectives)
        objectives += (objectives.empty() ? "" : ",") + std::string(toString(o));
    text += " --objectives " + objectives;
    for (const auto& c : options.constraints)
        text += " --constraint " + shellWord(c.text);
    std::string split;
    for (const double f : options.split)
        split += (split.empty() ? "" : "/") + number(f);
    text += " --split " + split + " --seed " + std::to_string(options.seed);
    if (options.trialSeeds.size() != 1)
        text += " --seeds " + std::to_string(options.trialSeeds.size());
    if (options.population > 0)
        text += " --population " + std::to_string(options.population);
    for (const auto& r : files.references)
        text += " --reference " + shellWord(r);
    text += " -o " + shellWord(files.output);
    if (files.force)
        text += " --force";
    if (!files.confirmOn.empty())
        text += " --confirm-on " + shellWord(files.confirmOn);
    return text;
}

} // namespace conclave

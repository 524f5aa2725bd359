#include "ExperimentOutput.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/io/FileIo.h"
#include "conclave/store/RunStore.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace conclave::cli {

int printExperiment(const CliContext& context, RunStore& store, const std::string& id, bool json,
                    const std::string& output, const EvalGates& gates, bool finished)
{
    std::string error;
    auto reader = store.reader(error);
    auto report = reader ? ExperimentReport::load(*reader, id, error) : std::nullopt;
    if (!report) {
        context.err << "eval: " << error << '\n';
        return kExitBadInput;
    }
    if (json)
        context.out << report->json().dump(2) << '\n';
    else
        context.out << "experiment " << report->record.id << ": " << report->record.name << " ("
                    << report->trials.size() << " of " << report->record.plannedTrials << " trials, "
                    << toString(report->record.status) << ")\n"
                    << report->table();

    if (!output.empty()) {
        const auto extension = std::filesystem::path(output).extension().string();
        const std::string format = extension == ".md" ? "md" : extension == ".csv" ? "csv" : "json";
        if (extension != ".md" && extension != ".csv" && extension != ".json") {
            context.err << "eval: -o " << output << ": expected a .md, .json or .csv file\n";
            return kExitBadInput;
        }
        if (const auto failed = writeFileAtomically(output, *report->text(format))) {
            context.err << "eval: -o " << output << ": " << *failed << '\n';
            return kExitBadInput;
        }
    }

    int code = finished ? kExitOk : kExitFailed;
    const auto& designs = report->summary.designs;
    for (size_t i = 0; i < designs.size(); ++i) {
        if (int(i) == report->summary.baseline)
            continue;
        const auto& d = designs[i];
        if (gates.minAccuracy && !(d.overall.accuracy >= *gates.minAccuracy)) {
            char text[160];
            std::snprintf(text, sizeof text, "eval: gate failed: %s has accuracy %.4f, below --min-accuracy %.4f\n",
                          d.name.c_str(), d.overall.accuracy, *gates.minAccuracy);
            context.err << text;
            code = kExitFailed;
        }
        if (gates.maxRegressions && d.vsBaseline && d.vsBaseline->regressions > *gates.maxRegressions) {
            context.err << "eval: gate failed: " << d.name << " has " << d.vsBaseline->regressions
                        << " regressions against the baseline, more than --max-regressions " << *gates.maxRegressions
                        << '\n';
            code = kExitFailed;
        }
    }
    return code;
}

} // namespace conclave::cli

#include "ExperimentOutput.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/io/FileIo.h"
#include "conclave/store/RunStore.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace conclave::cli {

int printExperiment(const CliContext& context, RunStore& store, const std::string& id, bool json,
                    const std::string& output, const EvalGates& gates, bool finished,
                    const PredictionOptions& predictions)
{
    std::string error;
    auto reader = store.reader(error);
    auto report = reader ? ExperimentReport::load(*reader, id, error) : std::nullopt;
    if (!report) {
        context.err << "eval: " << error << '\n';
        return kExitBadInput;
    }
    if (predictions.engine) {
        std::optional<ExperimentSpec> reloaded;
        if (!predictions.spec && context.resources) {
            auto setup = ExperimentSetup::resume(report->record, *context.resources);
            reloaded = std::move(setup.spec);
            if (!reloaded && !setup.errors.empty())
                error = setup.errors.front();
        }
        const ExperimentSpec* spec = predictions.spec ? predictions.spec : reloaded ? &*reloaded : nullptr;
        auto made = spec ? CalibrationUncertainty::predict(*predictions.engine, *spec, report->summary, reader.get(),
                                                           predictions.resamples, error)
                         : std::nullopt;
        if (made)
            report->setPredictions(std::move(*made));
        else
            context.err << "eval: calibrated designs' predictions not made: " << error << '\n';
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
    for (const auto& failure : gates.failures(report->summary)) {
        context.err << "eval: gate failed: " << failure << '\n';
        code = kExitFailed;
    }
    return code;
}

} // namespace conclave::cli

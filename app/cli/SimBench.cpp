#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Auroc.h"
#include "conclave/local/SimulatorAudit.h"

#include <algorithm>
#include <chrono>
#include <regex>

namespace conclave::cli {

namespace {

// "local/code-13b" -> 13; 0 when the name carries no size.
double sizeInBillions(const std::string& model)
{
    static const std::regex size("-([0-9]+(\\.[0-9]+)?)b$");
    std::smatch m;
    return std::regex_search(model, m, size) ? std::stod(m[1]) : 0;
}

std::string within(double value, double low, double high)
{
    return value >= low && value <= high ? "met" : "NOT MET";
}

std::string signedFixed(double value, int digits)
{
    return (value >= 0 ? "+" : "") + fixed(value, digits);
}

std::string joined(const std::vector<std::string>& models)
{
    std::string out;
    for (const auto& m : models)
        out += (out.empty() ? "" : ", ") + m;
    return out;
}

} // namespace

int simBench(const CliContext& context, Engine& engine, const BenchArgs& /*args*/)
{
    const auto& resources = engine.resources();
    if (!resources.tasks || resources.tasks->tasks().empty()) {
        context.err << "bench sim: the bundled task sets did not load\n";
        return kExitFailed;
    }
    auto resolved = LocalResponder::resolve(resources.localModels, {});
    const auto profiles = std::make_shared<const LocalResponder::Profiles>(std::make_move_iterator(resolved.begin()),
                                                                           std::make_move_iterator(resolved.end()));
    std::vector<std::string> midSize; // 7b to 13b
    for (const auto& [name, profile] : *profiles) {
        if (const double b = sizeInBillions(name); b >= 7 && b <= 13)
            midSize.push_back(name);
    }
    const std::vector<uint64_t> seeds{1, 2, 3};
    const auto start = std::chrono::steady_clock::now();
    const auto r = SimulatorAudit::run(profiles, resources.gate, resources.tasks, seeds, midSize);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    auto& out = context.out;
    out << "sim: the local-moe SIMULATOR (not real models) on " << resources.tasks->tasks().size()
        << " bundled tasks x " << profiles->size() << " models x " << seeds.size()
        << " seeds, each model alone: " << r.calls << " calls in " << fixed(seconds, 2) << " s\n";
    out << "  errors agree: two models both wrong on a 4-choice task give the same answer " << fixed(r.agreement, 3)
        << " of the time (" << r.agreeing << " of " << r.bothWrong << " pairs; target 0.50-0.70, "
        << within(r.agreement, 0.5, 0.7) << "; real models ~0.60, Kim et al. ICML 2025)\n";
    out << "  correctness correlates: mean pairwise r " << fixed(r.meanCorrelation, 3) << " over " << r.pairs
        << " model pairs, per (task, seed) (target 0.25-0.60, " << within(r.meanCorrelation, 0.25, 0.6)
        << "; frontier models 0.3-0.7, Miller arXiv 2411.00640)\n";
    // A skill is the accuracy on a typical task; the ~80 drawn difficulties
    // of a bundled domain do not average exactly 0, hence 0.05, not noise alone.
    out << "  accuracy against skill, " << r.cells.size() << " model x domain cells: mean |gap| "
        << fixed(r.meanAbsGap, 3) << ", largest " << signedFixed(r.maxAbsGap, 3) << " (target <= 0.050, "
        << (r.meanAbsGap <= 0.05 ? "met" : "NOT MET") << "); against the curve's mean over these tasks: mean |gap| "
        << fixed(r.meanAbsFromCurve, 3) << " (sampling noise)\n";

    // Stated confidence: right answers against wrong ones, per model and pooled.
    std::vector<double> allRight, allWrong;
    std::string perModel;
    for (const auto& c : r.confidences) {
        allRight.insert(allRight.end(), c.right.begin(), c.right.end());
        allWrong.insert(allWrong.end(), c.wrong.begin(), c.wrong.end());
        const auto auroc = Auroc::of(c.right, c.wrong);
        perModel += (perModel.empty() ? "" : ", ") + c.model + " " + (auroc ? fixed(*auroc, 3) : "-");
    }
    if (const auto pooled = Auroc::of(allRight, allWrong)) {
        out << "  stated confidence tells right from wrong: AUROC " << fixed(*pooled, 3) << " over "
            << allRight.size() << " right and " << allWrong.size() << " wrong answers (target 0.60-0.80, "
            << within(*pooled, 0.6, 0.8) << "; verbalised confidence of real LLMs 0.6-0.8, Xiong et al. ICLR 2024)\n";
        out << "    per model: " << perModel << "\n";
    }

    std::vector<std::string> domains;
    for (const auto& c : r.cells) {
        if (std::find(domains.begin(), domains.end(), c.domain) == domains.end())
            domains.push_back(c.domain);
    }
    size_t width = 6;
    for (const auto& [name, profile] : *profiles)
        width = std::max(width, name.size());
    out << "    " << std::string(width, ' ');
    for (const auto& d : domains)
        out << "  " << d << std::string(d.size() < 14 ? 14 - d.size() : 0, ' ');
    out << "\n";
    for (const auto& [name, profile] : *profiles) {
        out << "    " << name << std::string(width - name.size(), ' ');
        for (const auto& d : domains) {
            const auto c = std::find_if(r.cells.begin(), r.cells.end(),
                                        [&](const auto& cell) { return cell.model == name && cell.domain == d; });
            const std::string text = fixed(c->accuracy, 2) + " (" + signedFixed(c->accuracy - c->skill, 2) + ")";
            out << "  " << text << std::string(text.size() < 14 ? 14 - text.size() : 0, ' ');
        }
        out << "\n";
    }
    out << "    (accuracy over tasks x seeds, and its gap to the profile's skill)\n";

    if (midSize.size() >= 3) {
        out << "  majority votes of the " << midSize.size() << " mid-size models (7b-13b; plurality, ties to the "
            << "earliest model), pooled over every task and seed:\n";
        out << "    best single   " << fixed(r.bestSingle.accuracy, 3) << "  " << joined(r.bestSingle.models) << "\n";
        double mean = 0;
        const SimulatorAudit::Vote* best = &r.threeWay.front();
        for (const auto& v : r.threeWay) {
            mean += v.accuracy / double(r.threeWay.size());
            if (v.accuracy > best->accuracy)
                best = &v;
        }
        out << "    3-way         " << fixed(mean, 3) << "  mean of " << r.threeWay.size() << " triples; best "
            << fixed(best->accuracy, 3) << " (" << joined(best->models) << ")\n";
        out << "    " << midSize.size() << "-way         " << fixed(r.allVoters.accuracy, 3) << "  "
            << joined(r.allVoters.models) << " (" << signedFixed(r.allVoters.accuracy - r.bestSingle.accuracy, 3)
            << " against the best single)\n";
    }
    out << "\n";
    return kExitOk;
}

} // namespace conclave::cli

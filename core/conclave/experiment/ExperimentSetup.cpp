#include "conclave/experiment/ExperimentSetup.h"

#include "conclave/diagnostics/Problem.h"
#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/experiment/SweepDesigns.h"
#include "conclave/experiment/TeamCostBound.h"
#include "conclave/experiment/TrialRecordBuilder.h"
#include "conclave/io/TeamFile.h"
#include "conclave/model/DefaultValues.h"
#include "conclave/util/NumberText.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace conclave {

namespace {

std::optional<Team> loadTeam(const std::string& file, std::vector<std::string>& errors)
{
    auto loaded = loadTeamFile(file);
    for (const auto& p : loaded.problems) {
        if (p.isError())
            errors.push_back(formatProblem(p, file));
    }
    if (!loaded.team || hasErrors(loaded.problems))
        return std::nullopt;
    return std::move(*loaded.team);
}

struct LoadedTasks {
    std::optional<TaskSet> tasks;
    std::string name;
    bool bundled = false;
    std::string path; // a file's, absolute
};

LoadedTasks loadTasks(const std::string& nameOrFile, const std::filesystem::path& resourcesDir,
                      std::vector<std::string>& errors, std::vector<std::string>& warnings)
{
    LoadedTasks out;
    out.name = nameOrFile;
    std::filesystem::path path = nameOrFile;
    if (const auto bundled = TaskSet::bundled(resourcesDir, nameOrFile)) {
        path = *bundled;
        out.bundled = true;
    } else if (!std::filesystem::exists(path)) {
        std::string names;
        for (const auto& name : TaskSet::bundledNames(resourcesDir))
            names += (names.empty() ? "" : ", ") + name;
        errors.push_back("--taskset: \"" + nameOrFile + "\" is neither a bundled task set (" + names + ") nor a file");
        return out;
    }
    if (!out.bundled) {
        std::error_code ec;
        const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
        out.path = ec ? path.string() : absolute.string();
    }
    auto loaded = TaskSet::load(path);
    for (const auto& p : loaded.problems)
        (p.isError() ? errors : warnings).push_back(formatProblem(p, path.string()));
    if (loaded.tasks && !hasErrors(loaded.problems))
        out.tasks = std::move(*loaded.tasks);
    return out;
}

// The tasks named, in the set's order; an unknown id is an error.
std::optional<TaskSet> selectTasks(const TaskSet& all, const EvalRequest& request, std::vector<std::string>& errors)
{
    std::set<std::string, std::less<>> wanted(request.taskIds.begin(), request.taskIds.end());
    for (const auto& id : request.taskIds) {
        if (!all.byId(id))
            errors.push_back("--tasks: no task with id \"" + id + "\" in " + request.taskset);
    }
    if (!errors.empty())
        return std::nullopt;
    std::vector<const Task*> chosen;
    for (const auto& task : all.tasks()) {
        if (!wanted.empty() && !wanted.count(task.id))
            continue;
        if (!request.domain.empty() && task.domain != request.domain)
            continue;
        chosen.push_back(&task);
    }
    if (!request.domain.empty() && chosen.empty()) {
        errors.push_back("--domain: no task of domain \"" + request.domain + "\" in " + request.taskset);
        return std::nullopt;
    }
    if (request.sample && *request.sample < chosen.size()) {
        // A deterministic sample: the N tasks whose ids hash lowest under the sample seed, in set order.
        std::vector<std::pair<uint64_t, size_t>> keyed;
        for (size_t i = 0; i < chosen.size(); ++i)
            keyed.emplace_back(DeterministicRandom::key({"sample", chosen[i]->id}, request.sampleSeed), i);
        std::sort(keyed.begin(), keyed.end());
        std::vector<size_t> keep;
        for (size_t i = 0; i < *request.sample; ++i)
            keep.push_back(keyed[i].second);
        std::sort(keep.begin(), keep.end());
        std::vector<const Task*> sampled;
        for (const size_t i : keep)
            sampled.push_back(chosen[i]);
        chosen = std::move(sampled);
    }
    if (chosen.empty()) {
        errors.push_back("the task set " + request.taskset + " has no tasks to run");
        return std::nullopt;
    }
    return all.subset(chosen);
}

void checkScorable(const TaskSet& tasks, bool judged, std::vector<std::string>& errors)
{
    if (judged)
        return;
    for (const auto& task : tasks.tasks()) {
        if (task.answer.empty()) {
            errors.push_back("task \"" + task.id + "\" has no answer; give one, or score with --judge JUDGE.team.json");
            if (errors.size() >= 5)
                return;
        }
    }
}

// A stored sweep's variants made again from its file, where it was when the
// experiment started, and its flags; a sweep of a team not from a file is
// taken as stored.
std::optional<std::vector<ExperimentDesign>> regenerateSweep(const StoredSpec& stored, std::vector<std::string>& errors)
{
    const auto swept = SweepDesigns::swept(stored);
    if (swept.empty())
        return std::vector<ExperimentDesign>{};
    const auto& first = *swept.front();
    if (first.file.empty()) {
        std::vector<ExperimentDesign> asStored;
        for (const auto* design : swept)
            asStored.push_back(*design);
        return asStored;
    }
    const std::string& where = !first.path.empty() && std::filesystem::exists(first.path) ? first.path : first.file;
    auto team = loadTeam(where, errors);
    if (!team)
        return std::nullopt;
    std::string error;
    auto variants = SweepDesigns::regenerate(stored, *team, where, error);
    if (!variants)
        errors.push_back(error);
    return variants;
}

} // namespace

SetupResult ExperimentSetup::build(const EvalRequest& request, const std::filesystem::path& resourcesDir)
{
    SetupResult result;
    auto& errors = result.errors;
    if (request.designFiles.empty() && request.designTeams.empty())
        errors.push_back("eval: give at least one design (a team file)");
    if (request.seeds.empty())
        errors.push_back("eval: give at least one seed");
    std::set<uint64_t> seen;
    for (const auto seed : request.seeds) {
        if (!seen.insert(seed).second) {
            errors.push_back("--seed-list: seed " + std::to_string(seed) +
                             " is listed twice; each seed runs every design on every task once");
            break;
        }
    }

    std::optional<SweepSpec> sweep;
    if (!request.vary.empty()) {
        std::string error;
        sweep = SweepSpec::parse(request.vary, error);
        const auto designs = request.designTeams.size() + request.designFiles.size();
        if (!sweep)
            errors.push_back(error);
        else if (designs == 0)
            errors.push_back("--vary: give the design to sweep");
        else if (const auto count = sweep->variantCount(); count > SweepSpec::kMaxVariants)
            errors.push_back("--vary: more than " + groupThousands(SweepSpec::kMaxVariants) + " variants (" +
                             sweep->shape() + ") are too many for one experiment");
        else if (count > SweepSpec::kConfirmAbove && !request.manyVariants)
            errors.push_back("--vary: " + groupThousands(count) + " variants (" + sweep->shape() + ") are more than " +
                             groupThousands(SweepSpec::kConfirmAbove) + "; give --yes to run them all");
        if (!errors.empty())
            return result;
    }

    // Each design's source: a team given in memory (no file), or a file.
    struct Source {
        std::string file;
        const Team* team = nullptr;
    };
    std::vector<Source> sources;
    for (const auto& team : request.designTeams)
        sources.push_back({"", &team});
    for (const auto& file : request.designFiles)
        sources.push_back({file, nullptr});
    int baseline = 0;
    size_t sweptSource = 0; // with --vary: the first design given
    if (request.baselineFile) {
        const auto canonical = [](const std::string& f) {
            std::error_code ec;
            const auto c = std::filesystem::weakly_canonical(f, ec);
            return ec ? std::filesystem::path(f) : c;
        };
        const auto it = std::find_if(sources.begin(), sources.end(), [&](const Source& s) {
            return !s.team && canonical(s.file) == canonical(*request.baselineFile);
        });
        if (it == sources.end()) {
            sources.insert(sources.begin(), {*request.baselineFile, nullptr}); // the baseline is a design too
            sweptSource = 1;
        } else
            baseline = int(it - sources.begin());
    }

    std::vector<Team> teams;
    std::vector<std::string> files;
    std::vector<std::pair<std::string, std::string>> teamAndFile;
    for (const auto& source : sources) {
        auto team = source.team ? std::optional<Team>(*source.team) : loadTeam(source.file, errors);
        if (!team)
            continue;
        teamAndFile.emplace_back(team->name, source.file);
        files.push_back(source.file);
        teams.push_back(std::move(*team));
    }
    std::optional<Team> judge;
    if (request.judgeFile)
        judge = loadTeam(*request.judgeFile, errors);

    auto loaded = loadTasks(request.taskset, resourcesDir, errors, result.warnings);
    std::optional<TaskSet> selected;
    if (loaded.tasks)
        selected = selectTasks(*loaded.tasks, request, errors);
    if (selected)
        checkScorable(*selected, bool(request.judgeFile), errors);
    if (!errors.empty())
        return result;

    ExperimentSpec spec;
    spec.name = request.name;
    const auto names = nameDesigns(teamAndFile);
    size_t variantCount = 1;
    for (size_t i = 0; i < teams.size(); ++i) {
        // The swept design is the first one given (after a baseline file other than it, put first);
        // the other designs are evaluated as they are beside its variants.
        if (sweep && i == sweptSource) {
            std::string error;
            auto variants = SweepDesigns::make(names[i], files[i], teams[i], *sweep, error);
            if (!variants) {
                errors.push_back(error);
                return result;
            }
            variantCount = variants->size();
            for (auto& variant : *variants)
                spec.designs.push_back(std::move(variant));
            spec.vary = request.vary;
            continue;
        }
        spec.designs.push_back(makeDesign(names[i], files[i], std::move(teams[i])));
    }
    // A baseline after the swept design moves down by its variants but the first.
    spec.baseline = sweep && size_t(baseline) > sweptSource ? baseline + int(variantCount) - 1 : baseline;
    spec.tasksetName = loaded.name;
    spec.tasksetBundled = loaded.bundled;
    spec.tasksetPath = loaded.path;
    spec.tasks = std::make_shared<const TaskSet>(std::move(*selected));
    spec.seeds = request.seeds;
    if (judge)
        spec.judge = makeDesign(judge->name, *request.judgeFile, std::move(*judge));
    spec.clock = request.clock;
    if (spec.name.empty() && sweep) {
        spec.name = (size_t(baseline) != sweptSource ? names[size_t(baseline)] + " vs " : std::string()) +
                    names[sweptSource] + " swept over";
        for (const auto& axis : sweep->axes())
            spec.name += (&axis == &sweep->axes().front() ? " " : ", ") + axis.path;
        spec.name += " on " + spec.tasksetName;
    } else if (spec.name.empty()) {
        spec.name = spec.designs[size_t(baseline)].name;
        for (size_t i = 0; i < spec.designs.size(); ++i)
            if (int(i) != baseline)
                spec.name += " vs " + spec.designs[i].name;
        spec.name += " on " + spec.tasksetName;
    }
    result.spec = std::move(spec);
    return result;
}

SetupResult ExperimentSetup::resume(const ExperimentRecord& record, const std::filesystem::path& resourcesDir)
{
    SetupResult result;
    auto& errors = result.errors;
    std::string error;
    auto stored = StoredSpec::fromJson(record.specJson, error);
    if (!stored) {
        errors.push_back("experiment " + record.id + ": " + error);
        return result;
    }
    const auto reload = [&](const ExperimentDesign& design,
                            const std::string& what) -> std::optional<ExperimentDesign> {
        if (design.file.empty())
            return design;
        // Where it was when the experiment started, so a resume works from any folder.
        const std::string& where =
            !design.path.empty() && std::filesystem::exists(design.path) ? design.path : design.file;
        auto team = loadTeam(where, errors);
        if (!team)
            return std::nullopt;
        auto now = makeDesign(design.name, where, std::move(*team));
        now.file = design.file;
        if (now.hash != design.hash) {
            const bool modelsFile = std::any_of(now.team.backends.begin(), now.team.backends.end(),
                                                [](const auto& b) { return b.second.modelsFile.has_value(); });
            errors.push_back(what + ": " + design.file + (modelsFile ? " or a models_file it reads" : "") +
                             " changed since the experiment started (content hash " + design.hash + ", now " +
                             now.hash + "); start a new experiment, or restore the file");
            return std::nullopt;
        }
        return now;
    };
    ExperimentSpec spec;
    spec.name = record.name;
    const auto swept = regenerateSweep(*stored, errors);
    size_t nextVariant = 0;
    for (const auto& design : stored->designs) {
        if (!design.sweep.empty()) {
            if (swept && nextVariant < swept->size())
                spec.designs.push_back((*swept)[nextVariant++]);
            continue;
        }
        if (auto now = reload(design, "design \"" + design.name + "\""))
            spec.designs.push_back(std::move(*now));
    }
    if (stored->judge) {
        if (auto now = reload(*stored->judge, "the judge"))
            spec.judge = std::move(*now);
    }
    if (auto tasks = storedTasks(*stored, resourcesDir, errors, result.warnings))
        spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks));
    if (!errors.empty())
        return result;
    spec.baseline = stored->baseline;
    spec.tasksetName = stored->tasksetName;
    spec.tasksetBundled = stored->tasksetBundled;
    spec.tasksetPath = stored->tasksetPath;
    spec.seeds = stored->seeds;
    spec.clock = stored->clock;
    spec.vary = stored->vary;
    // Stored before ids left paths out: every content hash matched above, so it resumes under its own id.
    if (stored->format == 1)
        spec.storedId = record.id;
    if (spec.id() != record.id) {
        errors.push_back("experiment " + record.id + ": its spec reloads as " + spec.id() +
                         "; the stored experiment cannot be resumed by this version");
        return result;
    }
    result.spec = std::move(spec);
    return result;
}

std::optional<TaskSet> ExperimentSetup::taskSet(const std::string& nameOrFile,
                                                const std::filesystem::path& resourcesDir,
                                                std::vector<std::string>& errors, std::vector<std::string>& warnings)
{
    return loadTasks(nameOrFile, resourcesDir, errors, warnings).tasks;
}

std::optional<TaskSet> ExperimentSetup::storedTasks(const StoredSpec& stored, const std::filesystem::path& resourcesDir,
                                                    std::vector<std::string>& errors,
                                                    std::vector<std::string>& warnings)
{
    // A file from where it was when the experiment started, so a resume works from any folder.
    const bool fromName =
        stored.tasksetBundled || stored.tasksetPath.empty() || !std::filesystem::exists(stored.tasksetPath);
    auto loaded = loadTasks(fromName ? stored.tasksetName : stored.tasksetPath, resourcesDir, errors, warnings);
    if (!loaded.tasks)
        return std::nullopt;
    std::vector<const Task*> chosen;
    for (const auto& id : stored.taskIds) {
        if (const Task* task = loaded.tasks->byId(id))
            chosen.push_back(task);
    }
    auto subset = loaded.tasks->subset(chosen);
    if (chosen.size() != stored.taskIds.size() || subset.contentHash() != stored.tasksHash) {
        errors.push_back("the task set " + stored.tasksetName +
                         " changed since the experiment started (content hash of its tasks " + stored.tasksHash +
                         ", now " + subset.contentHash() + "); start a new experiment, or restore the file");
        return std::nullopt;
    }
    return subset;
}

ExperimentSetup::CostBound ExperimentSetup::costBound(const ExperimentSpec& spec)
{
    CostBound total;
    if (!spec.tasks)
        return total;
    const auto seeds = double(spec.seeds.size());
    std::optional<TeamCostBound> judge;
    if (spec.judge)
        judge.emplace(spec.judge->team);
    const bool judgePaid = judge && judge->paid();
    std::set<std::string> unpriced;
    std::set<std::string> uncapped;
    const auto note = [&](const std::string& design, const RunCostBound& bound) {
        for (const auto& model : bound.unpriced)
            unpriced.insert(design + ": " + model);
        for (const auto& node : bound.uncapped)
            uncapped.insert(design + ": " + node);
    };
    for (const auto& design : spec.designs) {
        const TeamCostBound team(design.team);
        if (!team.paid() && !judgePaid)
            continue;
        for (const auto& task : spec.tasks->tasks()) {
            const auto run = team.of(task.prompt.size());
            note(design.name, run);
            double typical = run.typicalUsd;
            double upper = run.upperUsd;
            bool paid = team.paid();
            if (judgePaid && TrialRecordBuilder::judges(task)) {
                const auto input = PromptBuilder::judgeInput({task.prompt, task.answer, ""}).size() + run.outputChars;
                const auto judged = judge->of(input);
                note(spec.judge->name, judged);
                typical += judged.typicalUsd;
                upper += judged.upperUsd;
                paid = true;
            }
            if (!paid)
                continue;
            total.paidTrials += int64_t(spec.seeds.size());
            total.typicalUsd += typical * seeds;
            total.upperUsd += upper * seeds;
        }
    }
    total.unpriced.assign(unpriced.begin(), unpriced.end());
    total.uncapped.assign(uncapped.begin(), uncapped.end());
    return total;
}

} // namespace conclave

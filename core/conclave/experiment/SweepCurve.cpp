#include "conclave/experiment/SweepCurve.h"

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/ModelOutcomes.h"
#include "conclave/experiment/TeamSweep.h"
#include "conclave/experiment/TrainedTasks.h"
#include "conclave/model/TeamGraph.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace conclave {

namespace {

namespace fs = std::filesystem;

std::string baseName(const std::string& designName)
{
    const auto bracket = designName.rfind(" [");
    return bracket == std::string::npos ? designName : designName.substr(0, bracket);
}

const Node* nodeNamed(const Team& team, const std::string& id)
{
    const auto it = std::find_if(team.nodes.begin(), team.nodes.end(), [&](const Node& n) { return n.id.str() == id; });
    return it == team.nodes.end() ? nullptr : &*it;
}

std::string expertModel(const Team& team, const std::string& id)
{
    const auto* node = nodeNamed(team, id);
    return node && node->kind == NodeKind::Expert ? node->config.call.model.value_or("") : std::string();
}

bool isCascade(const Node& node)
{
    return node.kind == NodeKind::Coordinator && node.config.mode &&
           (*node.config.mode == CoordinatorMode::Cascade || *node.config.mode == CoordinatorMode::Adaptive);
}

// What a swept node makes of its variants: its kind, and for a two-model one the
// node whose running marks a strong call with the two models.
struct Shape {
    std::string kind;
    std::string strongNode;
    std::string weak;
    std::string strong;
};

std::optional<Shape> shapeOf(const Team& team, const Node& node)
{
    if (node.kind == NodeKind::Router) {
        const auto& c = node.config;
        if (c.routerStrategy == RouterStrategy::Learned && c.routePolicy == "strong_weak" && c.strongRoute &&
            c.weakRoute)
            return Shape{"strong_weak router", *c.strongRoute, expertModel(team, *c.weakRoute),
                         expertModel(team, *c.strongRoute)};
        return Shape{"router", "", "", ""};
    }
    if (!isCascade(node))
        return std::nullopt;
    const TeamGraph graph(team);
    const auto index = graph.indexOf(node.id);
    const auto& members = graph.members(*index);
    if (members.size() == 2) {
        const auto first = graph.idOf(members[0]).str();
        const auto second = graph.idOf(members[1]).str();
        const auto weak = expertModel(team, first);
        const auto strong = expertModel(team, second);
        if (!weak.empty() && !strong.empty())
            return Shape{"two-member cascade", second, weak, strong};
    }
    return Shape{"cascade", "", "", ""};
}

// A design's trials on one task.
struct Cell {
    int64_t scored = 0;
    int64_t right = 0;
    int64_t trials = 0;
    int64_t strongRan = 0;
    int64_t withAgents = 0;
    double cost = 0;
};

std::vector<const TrialRecord*> trialsOf(const std::vector<TrialRecord>& trials, size_t design)
{
    std::vector<const TrialRecord*> out;
    for (const auto& t : trials)
        if (t.design == int(design))
            out.push_back(&t);
    return out;
}

} // namespace

std::optional<SweepCurve> SweepCurve::of(const std::vector<ExperimentDesign>& designs,
                                         const std::vector<TrialRecord>& trials)
{
    SweepCurve curve;
    std::vector<Shape> shapes;
    for (size_t d = 0; d < designs.size(); ++d) {
        const auto& design = designs[d];
        if (design.sweep.size() != 1) {
            if (design.sweep.empty()) {
                const auto model = ModelOutcomes::singleModel(design.team);
                if (!model.empty())
                    curve.references.push_back({d, model});
            }
            continue;
        }
        const auto& parameter = design.sweep.front();
        const auto id = TeamSweep::nodeOf(design.team, parameter.path);
        const Node* node = id ? nodeNamed(design.team, id->str()) : nullptr;
        const auto shape = node ? shapeOf(design.team, *node) : std::nullopt;
        if (!shape)
            continue;
        const auto team = baseName(design.name);
        auto it = std::find_if(curve.series.begin(), curve.series.end(),
                               [&](const Series& s) { return s.team == team && s.path == parameter.path; });
        if (it == curve.series.end()) {
            curve.series.push_back({team, parameter.path, id->str(), shape->kind, {}, {}, shape->weak, shape->strong});
            shapes.push_back(*shape);
            it = std::prev(curve.series.end());
        }
        it->designs.push_back(d);
        it->values.push_back(parameter.text);
    }
    std::vector<Shape> kept;
    std::vector<Series> curves;
    for (size_t s = 0; s < curve.series.size(); ++s) {
        if (curve.series[s].designs.size() >= 2) {
            curves.push_back(std::move(curve.series[s]));
            kept.push_back(shapes[s]);
        }
    }
    curve.series = std::move(curves);
    shapes = std::move(kept);
    if (curve.series.empty())
        return std::nullopt;

    // The tasks the variants' files were trained on.
    std::set<std::string> trained; // task ids
    std::set<std::string> read;
    for (const auto& s : curve.series) {
        for (const size_t d : s.designs) {
            const auto* node = nodeNamed(designs[d].team, s.node);
            const auto file = TrainedTasks::fileOf(
                *node, designs[d].path.empty() ? fs::path() : fs::path(designs[d].path).parent_path());
            if (!file || !read.insert(file->string()).second)
                continue;
            std::string why;
            const auto tasks = TrainedTasks::read(*file, node->kind == NodeKind::Router, why);
            if (!tasks) {
                curve.notes.push_back("cannot read " + file->string() + " (" + why +
                                      "): the tasks it was trained on are not left out");
                continue;
            }
            for (const auto& t : *tasks)
                trained.insert(t.id);
        }
    }

    std::vector<size_t> involved;
    for (const auto& r : curve.references)
        involved.push_back(r.design);
    for (const auto& s : curve.series)
        involved.insert(involved.end(), s.designs.begin(), s.designs.end());

    std::map<size_t, std::string> strongNodeOf; // a two-model variant → the node whose running is a strong call
    for (size_t s = 0; s < curve.series.size(); ++s)
        for (const size_t d : curve.series[s].designs)
            if (!shapes[s].strongNode.empty())
                strongNodeOf[d] = shapes[s].strongNode;
    std::map<std::string, std::map<size_t, Cell>> cells; // task → design → its trials there
    for (const auto& t : trials) {
        if (t.design < 0 || size_t(t.design) >= designs.size())
            continue;
        auto& cell = cells[t.task][size_t(t.design)];
        ++cell.trials;
        cell.cost += t.costUsd;
        if (ExperimentStats::scored(t)) {
            ++cell.scored;
            cell.right += ExperimentStats::right(t) ? 1 : 0;
        }
        if (!t.agents.empty())
            ++cell.withAgents;
        if (const auto strong = strongNodeOf.find(size_t(t.design)); strong != strongNodeOf.end()) {
            for (const auto& a : t.agents)
                if (a.ran && a.node == strong->second)
                    ++cell.strongRan;
        }
    }
    std::vector<std::string> tasks;
    for (const auto& entry : cells) {
        const auto& task = entry.first;
        const auto& byDesign = entry.second;
        const bool all = std::all_of(involved.begin(), involved.end(), [&byDesign](size_t d) {
            const auto it = byDesign.find(d);
            return it != byDesign.end() && it->second.scored > 0;
        });
        if (!all)
            continue;
        if (trained.count(task)) {
            ++curve.trainedOn;
            continue;
        }
        tasks.push_back(task);
    }
    curve.tasks = tasks.size();

    CallSources sources;
    for (const size_t d : involved)
        sources += callSources(designs[d].team, trialsOf(trials, d));
    curve.provenance = conclave::provenance(sources);

    if (curve.references.empty()) {
        curve.notes.push_back("no single-model design: evaluate each model alone beside the sweep to give the "
                              "curve its reference points and cost axis");
        return curve;
    }
    if (tasks.empty()) {
        curve.notes.push_back("no task that every design of the curve scored" +
                              std::string(curve.trainedOn ? " and no router or scorer file was trained on" : ""));
        return curve;
    }

    auto figuresOf = [&](size_t d, bool shares) {
        TaskFigures f;
        for (const auto& task : tasks) {
            const auto& cell = cells[task][d];
            f.quality.push_back(double(cell.right) / double(cell.scored));
            f.costUsd.push_back(cell.cost / double(cell.trials));
            if (shares)
                f.strongShare.push_back(double(cell.strongRan) / double(cell.trials));
        }
        return f;
    };
    auto referenceOf = [&](const std::string& model) -> std::optional<size_t> {
        for (size_t r = 0; r < curve.references.size(); ++r)
            if (curve.references[r].model == model)
                return r;
        return std::nullopt;
    };

    CurveBootstrapInput input;
    for (const auto& r : curve.references)
        input.references.push_back(figuresOf(r.design, false));
    for (size_t s = 0; s < curve.series.size(); ++s) {
        const auto& series = curve.series[s];
        CurveInput in;
        in.name = series.team + " (" + series.path + ")";
        bool twoModel = !series.weak.empty();
        if (twoModel) {
            in.weak = referenceOf(series.weak);
            in.strong = referenceOf(series.strong);
            std::vector<std::string> missing;
            for (const auto* model : {&series.weak, &series.strong})
                if (!referenceOf(*model))
                    missing.push_back(*model);
            if (!missing.empty()) {
                curve.notes.push_back(
                    in.name + ": APGR and CPT need a single-model design of " +
                    (missing.size() == 2 && missing[0] != missing[1] ? missing[0] + " and " + missing[1] : missing[0]));
                twoModel = false;
            }
            const bool recorded = std::all_of(series.designs.begin(), series.designs.end(), [&](size_t d) {
                return std::all_of(tasks.begin(), tasks.end(),
                                   [&](const std::string& t) { return cells[t][d].withAgents == cells[t][d].trials; });
            });
            if (twoModel && !recorded) {
                curve.notes.push_back(in.name + ": some trials do not record which agents ran, so the share of "
                                                "strong calls is unknown; APGR and CPT left out");
                twoModel = false;
            }
            if (!twoModel) {
                in.weak.reset();
                in.strong.reset();
            }
        }
        for (const size_t d : series.designs)
            in.variants.push_back(figuresOf(d, twoModel));
        input.curves.push_back(std::move(in));
    }
    std::string error;
    curve.figures = CurveBootstrap::compute(input, {kResamples, 1}, error);
    if (!curve.figures)
        curve.notes.push_back("no curve: " + error);
    return curve;
}

} // namespace conclave

#include "WhatIfBench.h"

#include "timeline/TimelineView.h"
#include "whatif/WhatIfController.h"
#include "whatif/WhatIfControls.h"
#include "whatif/WhatIfPanel.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/BenchTeams.h"
#include "conclave/resources/ResourceLocator.h"
#include "conclave/session/Engine.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/RunStore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSlider>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace conclave::studio {

namespace {

constexpr int kLayers = 6;
constexpr int kWidth = 16;

Node node(const std::string& id, NodeKind kind)
{
    Node n;
    n.id = NodeId(id);
    n.kind = kind;
    return n;
}

void connect(Team& team, const std::string& from, const std::string& to, std::optional<std::string> when = {})
{
    Edge e;
    e.from = NodeId(from);
    e.to = NodeId(to);
    e.when = std::move(when);
    team.edges.push_back(std::move(e));
}

// Runs the event loop until `signal` of `sender` or 60 s; false on the timeout.
template <typename Sender, typename Signal> bool waitFor(Sender* sender, Signal signal)
{
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    QObject::connect(sender, signal, &loop, [&loop] { loop.exit(0); });
    timeout.start(60000);
    return loop.exec() == 0;
}

int fail(const std::string& message)
{
    std::fprintf(stderr, "conclave-studio --bench-whatif: %s\n", message.c_str());
    return 2;
}

} // namespace

Team WhatIfBench::team()
{
    Team team;
    team.name = "What-if bench: 100 nodes";
    Backend local;
    local.kind = BackendKind::LocalMoe;
    local.seed = 1;
    local.timeScale = 1.0;
    local.maxConcurrency = 32;
    local.models = std::map<std::string, ModelProfile>{};
    for (int ms = 100; ms <= 850; ms += 50)
        (*local.models)["bench/" + std::to_string(ms) + "ms"] = BenchTeams::fixedProfile(ms, 1.0);
    team.backends.emplace(BackendName("local"), std::move(local));
    team.defaults = Defaults{};
    team.defaults->backend = BackendName("local");
    team.defaults->retries = 0;
    team.nodes.push_back(node("in", NodeKind::Input));
    auto fan = node("fan", NodeKind::Router);
    fan.config.routerStrategy = RouterStrategy::All;
    team.nodes.push_back(fan);
    connect(team, "in", "fan");
    const auto id = [](int layer, int k) { return "e" + std::to_string(layer) + "_" + std::to_string(k); };
    for (int l = 0; l < kLayers; ++l) {
        for (int k = 0; k < kWidth; ++k) {
            auto expert = node(id(l, k), NodeKind::Expert);
            expert.config.call.model = "bench/" + std::to_string(100 + 50 * ((k * 7 + l * 3) % 16)) + "ms";
            expert.config.call.prompt = "{{input}}";
            team.nodes.push_back(std::move(expert));
            if (l == 0) {
                connect(team, "fan", id(l, k), id(l, k));
            } else {
                connect(team, id(l - 1, k), id(l, k));
                connect(team, id(l - 1, (k + 5) % kWidth), id(l, k));
            }
        }
    }
    auto join = node("join", NodeKind::Aggregator);
    join.config.aggregatorStrategy = AggregatorStrategy::Concat;
    team.nodes.push_back(join);
    for (int k = 0; k < kWidth; ++k)
        connect(team, id(kLayers - 1, k), "join");
    team.nodes.push_back(node("out", NodeKind::Output));
    connect(team, "join", "out");
    return team;
}

int WhatIfBench::run(const QString& dbFile, int moves)
{
    const auto resourcesDir = findResourcesDir(QApplication::applicationFilePath().toStdString());
    std::vector<std::string> errors;
    auto resources = EngineResources::load(resourcesDir.value_or(std::filesystem::path()), errors);
    if (!errors.empty())
        return fail(errors.front());
    QTemporaryDir dir;
    const std::string db = dbFile.isEmpty() ? dir.filePath("whatif-bench.sqlite").toStdString() : dbFile.toStdString();

    // The run: stored on the simulated clock.
    const Team team = WhatIfBench::team();
    RunId id;
    {
        Engine engine(resources);
        auto opened = RunStore::open(db);
        if (!opened.store)
            return fail(opened.error);
        const auto prepared = engine.prepare(team);
        if (!prepared.team)
            return fail(prepared.error);
        auto started = startRecorded(engine, opened.store.get(), *prepared.team, "Calculate 323 + 460.",
                                     Engine::StartOptions{5, {}, ClockRequest::Virtual, {}, {}});
        if (!started.run)
            return fail(started.error);
        const auto result = started.run->wait();
        if (const auto error = started.recorder->waitUntilStored(); !error.empty())
            return fail(error);
        id = started.recorder->id();
        std::printf("run %s: %zu nodes, %zu spans, wall %.3f s (simulated)\n", id.str().substr(0, 12).c_str(),
                    team.nodes.size(), result.spans.size(), double(result.wallUs) / 1e6);
    }

    ui::WhatIfPanel panel(new ui::WhatIfController(resources, db), nullptr, {});
    panel.resize(1400, 900);
    panel.show();
    QElapsedTimer clock;
    clock.start();
    panel.open(id.str());
    if (!waitFor(&panel, &ui::WhatIfPanel::projectionShown))
        return fail("the first projection did not come");
    std::printf("open: loaded and first projection drawn in %lld ms\n", static_cast<long long>(clock.elapsed()));
    // The profile (4 projections per agent) runs on its own thread: measured apart, then the moves on a quiet machine.
    if (!panel.controller()->profile() && !waitFor(panel.controller(), &ui::WhatIfController::profiled))
        return fail("the speed-up profile did not come");
    std::printf("speed-up profile: %lld ms after opening (%zu agents x 4 speeds, 1 backend)\n",
                static_cast<long long>(clock.elapsed()), panel.controller()->profile()->rows.size());

    std::vector<double> total;
    std::vector<double> projection;
    std::vector<NodeId> agents;
    for (const auto& n : team.nodes)
        if (n.kind == NodeKind::Expert)
            agents.push_back(n.id);
    for (int i = 0; i < moves; ++i) {
        QSlider* slider = panel.controls()->speedSlider(agents[size_t(i * 7) % agents.size()]);
        const int value = slider->value() == 50 ? 0 : 50;
        clock.restart();
        slider->setValue(value);
        if (!waitFor(&panel, &ui::WhatIfPanel::projectionShown))
            return fail("a projection did not come");
        panel.timeline()->repaint(); // drawn now, not at the next event loop turn
        total.push_back(double(clock.nsecsElapsed()) / 1e6);
        projection.push_back(double(panel.controller()->current()->computeUs) / 1e3);
    }
    std::sort(total.begin(), total.end());
    std::sort(projection.begin(), projection.end());
    std::printf("%d slider moves: re-projection + redraw median %.1f ms, p95 %.1f ms (projection alone on its "
                "thread: median %.1f ms, p95 %.1f ms); target <= 50 ms\n",
                moves, Quantile::of(total, 0.5), Quantile::of(total, 0.95), Quantile::of(projection, 0.5),
                Quantile::of(projection, 0.95));
    return Quantile::of(total, 0.5) <= 50 ? 0 : 1;
}

} // namespace conclave::studio

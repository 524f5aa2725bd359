// `conclave-studio --bench-timeline`: how long a large stored run takes to
// open and draw, and a scrub step to redraw. Synthetic runs of 10,000 and
// 100,000 spans (a node span and an attempt span per call, spread over 40
// experts of a fan-out team) go through the real recorder into a store; each
// measurement reads them back from SQLite like the studio does.
#include "studio/RunViewCommand.h"

#include "timeline/ReplayView.h"
#include "timeline/RunView.h"
#include "timeline/TimeAxisView.h"
#include "timeline/TimelineView.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/BenchTeams.h"
#include "conclave/store/RunStore.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace conclave::studio {

namespace {

constexpr int kExperts = 40;

RunId storeSynthetic(RunStore& store, const Team& team, size_t spans)
{
    std::string error;
    auto recorder = store.record(team, error);
    if (!recorder)
        throw std::runtime_error(error);
    recorder->runStarted("bench timeline", 1, ClockKind::Real);
    std::vector<int64_t> laneTime(kExperts, 1000);
    uint64_t rng = 88172645463325252ull;
    auto next = [&rng] {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    };
    const Status statuses[] = {Status::Ok, Status::Ok, Status::Ok,     Status::Ok,      Status::Ok,
                               Status::Ok, Status::Ok, Status::Failed, Status::Timeout, Status::Cancelled};
    int64_t wall = 0;
    for (SpanId id = 1; id + 1 <= spans; id += 2) {
        const size_t lane = size_t(next() % kExperts);
        const int64_t start = laneTime[lane] + int64_t(next() % 20000);
        const int64_t duration = 5000 + int64_t(next() % 400000);
        Span node;
        node.id = id;
        node.node = NodeId("e" + std::to_string(lane));
        node.kind = SpanKind::Node;
        node.name = node.node.str();
        node.startUs = start;
        node.status = Status::Running;
        recorder->spanStarted(node);
        Span attempt = node;
        attempt.id = id + 1;
        attempt.parent = id;
        attempt.kind = SpanKind::Attempt;
        attempt.name = "attempt 1";
        attempt.attempt = 1;
        attempt.model = "bench/fixed";
        recorder->spanStarted(attempt);
        attempt.endUs = node.endUs = start + duration;
        attempt.status = node.status = statuses[next() % 10];
        attempt.tokensIn = 120;
        attempt.tokensOut = 40;
        attempt.costUsd = 0.00004;
        attempt.ttftUs = duration / 3;
        recorder->spanFinished(attempt);
        recorder->spanFinished(node);
        laneTime[lane] = start + duration;
        wall = std::max(wall, start + duration);
    }
    RunResult result;
    result.status = RunStatus::Ok;
    result.wallUs = wall;
    result.criticalPath.nodes = {NodeId("in"), NodeId("fan"), NodeId("e0"), NodeId("join"), NodeId("out")};
    recorder->runFinished(result);
    if (auto e = recorder->waitUntilStored(); !e.empty())
        throw std::runtime_error(e);
    return recorder->id();
}

StoredRun load(const RunStore& store, const RunId& id)
{
    std::string error;
    auto reader = store.reader(error);
    auto run = reader ? reader->load(id, false, error) : std::nullopt;
    if (!run)
        throw std::runtime_error(error);
    return std::move(*run);
}

void bench(const RunStore& store, const RunId& id, size_t spans, double targetMs)
{
    constexpr int kRuns = 5;
    std::vector<double> open, scrub, wheel;
    for (int r = 0; r < kRuns; ++r) {
        QElapsedTimer t;
        t.start();
        ui::RunView view;
        view.resize(1400, 900);
        view.setRun(load(store, id));
        view.show();
        QApplication::processEvents();
        const QPixmap first = view.grab();
        open.push_back(double(t.nsecsElapsed()) / 1e6);
        (void)first;
    }
    ui::ReplayView replay;
    replay.resize(1400, 900);
    replay.setRun(load(store, id));
    replay.show();
    QApplication::processEvents();
    auto* timeline = replay.timeline();
    // The ruler (the QtCharts time axis) moves its playhead or its range with every step: it is redrawn too.
    QWidget* ruler = replay.ruler()->viewport();
    const int64_t end = replay.controller()->durationUs();
    for (int step = 1; step <= 60; ++step) {
        QElapsedTimer t;
        t.start();
        replay.controller()->seek(end * step / 61);
        timeline->repaint();
        ruler->repaint();
        scrub.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    for (int step = 0; step < 20; ++step) {
        QElapsedTimer t;
        t.start();
        timeline->zoomAt(700, step < 10 ? 1.25 : 0.8);
        timeline->repaint();
        ruler->repaint();
        wheel.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::printf("  %zu spans: open + first draw %.1f ms (target <= %.0f ms); scrub step %.2f ms, zoom step %.2f ms "
                "(target <= 50 ms); medians of %d, 60 and 20\n",
                spans, Quantile::median(open), targetMs, Quantile::median(scrub), Quantile::median(wheel), kRuns);
    std::fflush(stdout);
}

} // namespace

int runTimelineBench(const QString& dbFile)
{
    namespace fs = std::filesystem;
    const fs::path file =
        dbFile.isEmpty() ? fs::temp_directory_path() /
                               ("conclave-bench-timeline-" + std::to_string(QApplication::applicationPid()) + ".sqlite")
                         : fs::path(dbFile.toStdString());
    try {
        auto opened = RunStore::open(file);
        if (!opened.store) {
            std::fprintf(stderr, "conclave-studio: %s\n", opened.error.c_str());
            return 2;
        }
        const Team team = BenchTeams::fanOut(kExperts, 100);
        std::printf("timeline (%s, 1400x900 window, %s)\n", file.string().c_str(),
                    qPrintable(QApplication::platformName()));
        const RunId small = storeSynthetic(*opened.store, team, 10000);
        const RunId large = storeSynthetic(*opened.store, team, 100000);
        bench(*opened.store, small, 10000, 1000);
        bench(*opened.store, large, 100000, 3000);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "conclave-studio: bench: %s\n", e.what());
        return 1;
    }
    if (dbFile.isEmpty()) {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(fs::path(file.string() + suffix), ec);
    }
    return 0;
}

} // namespace conclave::studio

#include "StudioBench.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "studio/MainWindow.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/io/TeamFile.h"
#include "conclave/layout/LayeredLayout.h"
#include "conclave/model/NodeFactory.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace conclave::studio {

Team StudioBench::largeTeam(size_t nodes, size_t edges)
{
    Team team;
    team.name = "Bench: " + std::to_string(nodes) + " nodes";
    Backend local;
    team.backends.emplace(BackendName("local"), local);
    const size_t experts = nodes - 4;
    const size_t layers = 8;
    const size_t width = (experts + layers - 1) / layers;
    const auto add = [&](NodeKind kind, const std::string& id, double x, double y) {
        team.nodes.push_back(NodeFactory::make(kind, NodeId(id), Position{x, y}));
    };
    const auto connect = [&](const std::string& from, const std::string& to, std::optional<std::string> when = {}) {
        Edge e;
        e.from = NodeId(from);
        e.to = NodeId(to);
        e.when = std::move(when);
        team.edges.push_back(std::move(e));
    };
    const double mid = double(width) * 40;
    add(NodeKind::Input, "in", 0, mid);
    add(NodeKind::Router, "fan", 220, mid);
    std::vector<std::vector<std::string>> layer(layers);
    for (size_t i = 0; i < experts; ++i) {
        const size_t l = i / width;
        const std::string id = "e" + std::to_string(i);
        add(NodeKind::Expert, id, 440 + double(l) * 220, double(i % width) * 80);
        layer[l].push_back(id);
    }
    add(NodeKind::Aggregator, "vote", 440 + double(layers) * 220, mid);
    add(NodeKind::Output, "out", 660 + double(layers) * 220, mid);
    connect("in", "fan");
    for (const auto& id : layer[0])
        connect("fan", id, id);
    // Two inputs for every expert after the first layer, then a third for some until the count is met.
    const size_t tail = layer[layers - 1].size() + 1;
    for (size_t pass = 0; pass < 3; ++pass) {
        for (size_t l = 1; l < layers; ++l) {
            const auto& prev = layer[l - 1];
            for (size_t k = 0; k < layer[l].size() && team.edges.size() + tail < edges; ++k)
                connect(prev[(k * 5 + pass * (prev.size() / 3 + 1)) % prev.size()], layer[l][k]);
        }
    }
    for (const auto& id : layer[layers - 1])
        connect(id, "vote");
    connect("vote", "out");
    return team;
}

int StudioBench::run(int repeats)
{
    const Team team = largeTeam(500, 1000);
    QTemporaryDir dir;
    const QString path = dir.filePath("bench.team.json");
    if (auto error = saveTeamFile(team, path.toStdString())) {
        std::fprintf(stderr, "conclave-studio --bench: %s\n", error->c_str());
        return 2;
    }
    std::printf("team: %zu nodes, %zu edges (%s)\n", team.nodes.size(), team.edges.size(), qPrintable(path));
    std::vector<double> open;
    std::vector<double> layout;
    std::vector<double> layoutCore;
    std::vector<double> loadOnly;
    for (int i = 0; i < repeats; ++i) {
        {
            ui::TeamDocument document;
            QElapsedTimer load;
            load.start();
            document.load(path);
            loadOnly.push_back(double(load.nsecsElapsed()) / 1e6);
        }
        ui::MainWindow window;
        window.show();
        QApplication::processEvents();
        QElapsedTimer timer;
        timer.start();
        if (!window.openFile(path, false)) {
            std::fprintf(stderr, "conclave-studio --bench: %s\n", qPrintable(window.lastError()));
            return 2;
        }
        window.canvas()->viewport()->repaint();
        QApplication::processEvents();
        open.push_back(double(timer.nsecsElapsed()) / 1e6);

        timer.restart();
        const auto result = LayeredLayout::compute(LayeredLayout::graphOf(window.document()->team()));
        layoutCore.push_back(double(timer.nsecsElapsed()) / 1e6);

        timer.restart();
        window.document()->requestAutoLayout();
        window.canvas()->viewport()->repaint();
        QApplication::processEvents();
        layout.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (i == 0)
            std::printf("layout: %zu crossings between adjacent layers\n", result.crossings);
    }
    std::printf("  of which load + validate:  median %.1f ms\n", Quantile::median(loadOnly));
    std::printf("open and show:             median %.1f ms (%d runs, limit 1000 ms)\n", Quantile::median(open),
                repeats);
    std::printf("auto layout (algorithm):   median %.1f ms\n", Quantile::median(layoutCore));
    std::printf("auto layout (applied, painted): median %.1f ms (limit 500 ms)\n", Quantile::median(layout));
    return Quantile::median(open) <= 1000 && Quantile::median(layout) <= 500 ? 0 : 1;
}

} // namespace conclave::studio

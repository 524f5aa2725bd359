#pragma once

// The run side of the studio without its window: the keyword-vote example in
// a document on a canvas, a RunController over a temporary store, the live
// canvas states, the output and history panels, the RunTabs below a splitter,
// and one StudioFeedback; for the suites of the studio's run controllers.
#include "document/TeamDocument.h"
#include "editor/TeamScene.h"
#include "run/CanvasRunStates.h"
#include "run/RunController.h"
#include "run/RunHistoryPanel.h"
#include "run/RunOutputPanel.h"
#include "studio/RunTabs.h"
#include "studio/StudioFeedback.h"

#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

struct StudioRunRig {
    static inline const QString kTeam = QStringLiteral(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json");
    static inline const QString kMathInput = QStringLiteral("Calculate 323 + 460.");

    // The team's local backend at 1/50 of its speed.
    StudioRunRig()
    {
        if (!document.load(kTeam).isEmpty())
            return;
        conclave::Team team = document.team();
        for (auto& [name, backend] : team.backends)
            backend.timeScale = 0.02;
        document.setTeam(team, kTeam);
    }

    // A run as tab titles and status messages name it.
    static QString shortId(const conclave::RunId& id) { return QString::fromStdString(id.str()).left(8); }

    QStringList tabTitles() const
    {
        QStringList out;
        for (int i = 0; i < tabs->count(); ++i)
            out << tabs->tabs()->tabText(i);
        return out;
    }

    // Runs the document's team on `input` and waits until it is stored.
    std::optional<conclave::RunId> run(const QString& input, uint64_t seed)
    {
        QSignalSpy finished(&runs, &conclave::ui::RunController::finished);
        if (!runs.start(document.team(), input.toStdString(), seed))
            return std::nullopt;
        if (!finished.wait(60000))
            return std::nullopt;
        return runs.currentRun();
    }

    QTemporaryDir dir;
    conclave::ui::TeamDocument document;
    conclave::ui::TeamScene scene{&document};
    conclave::ui::RunController runs{CONCLAVE_RESOURCES, dir.filePath("runs.sqlite").toStdString()};
    conclave::ui::CanvasRunStates states{&scene, &runs};
    conclave::ui::StudioFeedback feedback;
    // Owns the widgets and the controllers below, and goes before what they point to.
    QWidget window;
    QSplitter* split = new QSplitter(Qt::Vertical, &window);
    conclave::ui::RunOutputPanel* output = new conclave::ui::RunOutputPanel(&runs, &window);
    conclave::ui::RunHistoryPanel* history = new conclave::ui::RunHistoryPanel(&runs, &window);
    conclave::ui::RunTabs* tabs = new conclave::ui::RunTabs(&runs, &scene, &states, output, &feedback, split, &window);
};

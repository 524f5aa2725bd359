#pragma once

#include "conclave/experiment/RouterHeldoutShare.h"

#include <QObject>

#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

class QLabel;
class QWidget;

namespace conclave::ui {

// Under a learned router's fields: the router file it resolves to (its
// method and models) and how the router would split the file's held-out
// tasks (core's RouterHeldoutShare), or, after a warning sign, why it cannot
// say. Two word-wrapped labels the owner lays out (rows of its form, so they
// wrap and grow as the form's own notes do). Counting reads the router file
// (tens of milliseconds for the example), so it runs on a worker thread, one
// count at a time: requests made meanwhile collapse into the latest, a count
// for a request since replaced is never shown, and an unchanged request is
// not counted again. The destructor waits for a count in flight.
class LearnedRouterSummary : public QObject {
    Q_OBJECT

public:
    // The labels are children of `parent`.
    explicit LearnedRouterSummary(QWidget* parent);
    ~LearnedRouterSummary() override;

    QLabel* fileLabel() const { return m_file; }
    QLabel* predictionLabel() const { return m_prediction; }

    // What the counts read: the engine's resources (the gate, the local models) and the bundled task sets' folder.
    void setResources(std::shared_ptr<const EngineResources> resources, std::filesystem::path resourcesDir);
    // Says what router `id` of `team` would do; folder: the team file's, where a relative router_file is.
    void setRouter(const Team& team, const NodeId& id, const std::filesystem::path& folder);

    QString fileLine() const;
    QString predictionLine() const;
    bool isWarning() const { return m_warning; }
    bool isCounting() const { return m_busy; }

signals:
    // The lines say what the latest request gives.
    void updated();

private:
    struct Request {
        Team team;
        NodeId router;
        std::filesystem::path folder;
        friend bool operator==(const Request&, const Request&) = default;
    };
    void start(const Request& request);
    void finish(const RouterHeldoutShare::Result& result);
    void display(const RouterHeldoutShare::Result& result);

    std::shared_ptr<const EngineResources> m_resources;
    std::filesystem::path m_resourcesDir;
    std::optional<Request> m_latest; // what the lines say, or will once counted
    bool m_stale = false;            // m_latest changed while a count was running
    std::thread m_worker;
    bool m_busy = false;
    bool m_warning = false;
    QLabel* m_file;
    QLabel* m_prediction;
};

} // namespace conclave::ui

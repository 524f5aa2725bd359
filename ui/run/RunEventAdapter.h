#pragma once

#include "run/RunEvent.h"

#include "conclave/engine/RunObserver.h"

#include <QObject>

#include <mutex>
#include <vector>

namespace conclave::ui {

// The one place where engine events cross to the GUI thread.
//
// The observer calls (engine threads) only copy the event into a
// mutex-guarded queue; when the queue goes from empty to non-empty they post
// one queued drain() to this object's thread. drain() takes the whole queue,
// merges the streamed text of a node that arrived without another event of
// that node in between, and emits it as one batch. Events of one node keep
// their order, and state events (queued, started, finished) keep the order
// the engine produced. It never touches a widget; the receivers of delivered()
// run on the GUI thread. It must outlive the run it observes.
class RunEventAdapter : public QObject, public RunObserver {
    Q_OBJECT

public:
    explicit RunEventAdapter(QObject* parent = nullptr);
    ~RunEventAdapter() override;

    void runStarted(std::string_view runInput, uint64_t seed, ClockKind clock) override;
    void nodeQueued(const NodeId& node, int64_t atUs) override;
    void spanStarted(const Span& span) override;
    void nodeToken(const NodeId& node, SpanId span, std::string_view text, int64_t atUs) override;
    void spanFinished(const Span& span) override;
    void nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs) override;
    void runFinished(const RunResult& result) override;

    // Delivers what is queued now (drain() does this from the event loop).
    void drain();
    // How many drain calls were posted (for tests: far fewer than events).
    int postedDrains() const;

    // Merges consecutive streamed text of a node (see the class comment).
    static std::vector<RunEvent> coalesce(std::vector<RunEvent> events);

signals:
    void delivered(const std::vector<conclave::ui::RunEvent>& events);

private:
    void push(RunEvent event);

    mutable std::mutex m_mutex;
    std::vector<RunEvent> m_queue;
    int m_posted = 0;
};

} // namespace conclave::ui

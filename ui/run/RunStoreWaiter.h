#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <thread>

namespace conclave {
class RunRecorder;
}

namespace conclave::ui {

// Waits, on a thread of its own, until a finished run's recorder has
// committed everything, then reports stored() on the GUI thread (queued):
// the GUI never blocks on the run store at the end of a run. One wait at a
// time; the recorder must outlive it (join() before letting it go).
class RunStoreWaiter : public QObject {
    Q_OBJECT

public:
    explicit RunStoreWaiter(QObject* parent = nullptr);
    ~RunStoreWaiter() override;

    // Returns at once; stored() follows when everything `recorder` was given is committed.
    void wait(RunRecorder* recorder);
    // True from wait() until the commit (stored() may still be on its way).
    bool isWaiting() const { return m_waiting; }
    // Blocks until the current wait is over: for shutdown and before the recorder goes.
    void join();

signals:
    // The store's write error, or empty.
    void stored(const QString& error);

private:
    std::thread m_thread;
    std::atomic<bool> m_waiting{false};
};

} // namespace conclave::ui

#include "run/RunStoreWaiter.h"

#include "conclave/store/RunRecorder.h"

namespace conclave::ui {

RunStoreWaiter::RunStoreWaiter(QObject* parent) : QObject(parent) {}

RunStoreWaiter::~RunStoreWaiter()
{
    join();
}

void RunStoreWaiter::wait(RunRecorder* recorder)
{
    join();
    m_waiting = true;
    m_thread = std::thread([this, recorder] {
        const QString error = QString::fromStdString(recorder->waitUntilStored());
        m_waiting = false;
        // Delivered on this object's (the GUI) thread; dropped if it is gone by then.
        QMetaObject::invokeMethod(
            this, [this, error] { emit stored(error); }, Qt::QueuedConnection);
    });
}

void RunStoreWaiter::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace conclave::ui

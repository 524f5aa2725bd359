#pragma once
// What callbacks on other threads did, in the order they did it; a test waits
// for a number of entries, then reads them.

#include <QStringList>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace testsupport {

class OrderLog {
public:
    void add(std::string entry)
    {
        std::lock_guard lock(m_mutex);
        m_entries.push_back(std::move(entry));
        m_changed.notify_all();
    }
    bool waitFor(size_t count, std::chrono::milliseconds limit = std::chrono::seconds(30))
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, limit, [&] { return m_entries.size() >= count; });
    }
    QStringList entries() const
    {
        std::lock_guard lock(m_mutex);
        QStringList out;
        for (const auto& e : m_entries)
            out << QString::fromStdString(e);
        return out;
    }
    QString joined() const { return entries().join(QLatin1Char(' ')); }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::string> m_entries;
};

} // namespace testsupport

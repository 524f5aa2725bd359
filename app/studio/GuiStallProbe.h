#pragma once

#include <QElapsedTimer>
#include <QTimer>

#include <vector>

namespace conclave::studio {

// How long the GUI thread stalls while something runs: a precise timer ticks on it every tickMs, and each
// tick's lateness is a stall. What the studio's --bench… commands measure a long operation by.
class GuiStallProbe {
public:
    explicit GuiStallProbe(int tickMs);

    void start();
    void stop();

    int ticks() const { return int(m_stalls.size()); }
    double longestMs() const;
    double longestAtMs() const; // when the longest stall ended, after start()
    double p99Ms() const;

private:
    int m_tickMs;
    QTimer m_ticker;
    QElapsedTimer m_clock;
    qint64 m_lastTick = 0;
    std::vector<double> m_stalls;
    std::vector<double> m_at;
};

} // namespace conclave::studio

#include "GuiStallProbe.h"

#include "conclave/analysis/Quantile.h"

#include <algorithm>

namespace conclave::studio {

GuiStallProbe::GuiStallProbe(int tickMs) : m_tickMs(tickMs)
{
    m_ticker.setTimerType(Qt::PreciseTimer);
    m_ticker.setInterval(tickMs);
    QObject::connect(&m_ticker, &QTimer::timeout, [this] {
        const qint64 now = m_clock.nsecsElapsed();
        m_stalls.push_back(std::max(0.0, double(now - m_lastTick) / 1e6 - m_tickMs));
        m_at.push_back(double(now) / 1e6);
        m_lastTick = now;
    });
}

void GuiStallProbe::start()
{
    m_clock.start();
    m_lastTick = 0;
    m_ticker.start();
}

void GuiStallProbe::stop()
{
    m_ticker.stop();
}

double GuiStallProbe::longestMs() const
{
    return m_stalls.empty() ? 0 : *std::max_element(m_stalls.begin(), m_stalls.end());
}

double GuiStallProbe::longestAtMs() const
{
    if (m_stalls.empty())
        return 0;
    return m_at[size_t(std::max_element(m_stalls.begin(), m_stalls.end()) - m_stalls.begin())];
}

double GuiStallProbe::p99Ms() const
{
    auto sorted = m_stalls;
    std::sort(sorted.begin(), sorted.end());
    return Quantile::of(sorted, 0.99);
}

} // namespace conclave::studio

#include "ProgressLine.h"

#include "conclave/util/MoneyText.h"

namespace conclave::cli {

void ProgressLine::nodeFinished(const NodeId&, const NodeResult& result, int64_t atUs)
{
    if (result.status != Status::Skipped)
        m_running.fetch_sub(1);
    if (result.status == Status::Failed || result.status == Status::Timeout)
        m_failed.fetch_add(1);
    else if (result.status != Status::Skipped)
        m_done.fetch_add(1);
    m_elapsedUs.store(atUs);
}

void ProgressLine::spanFinished(const Span& span)
{
    if (span.kind == SpanKind::Attempt)
        m_costMicroUsd.fetch_add(static_cast<int64_t>(span.costUsd * 1e6));
}

void ProgressLine::print(std::FILE* out) const
{
    std::fprintf(out, "\r\033[K%d running, %d done, %d failed  %.1f s  %s", std::max(0, m_running.load()),
                 m_done.load(), m_failed.load(), double(m_elapsedUs.load()) / 1e6,
                 moneyText(double(m_costMicroUsd.load()) / 1e6).c_str());
    std::fflush(out);
}

void ProgressLine::clear(std::FILE* out)
{
    std::fprintf(out, "\r\033[K");
    std::fflush(out);
}

} // namespace conclave::cli

#include "run/RunEventAdapter.h"

#include <map>

namespace conclave::ui {

RunEventAdapter::RunEventAdapter(QObject* parent) : QObject(parent) {}

RunEventAdapter::~RunEventAdapter() = default;

void RunEventAdapter::push(RunEvent event)
{
    bool wasEmpty = false;
    {
        std::lock_guard lock(m_mutex);
        wasEmpty = m_queue.empty();
        m_queue.push_back(std::move(event));
        if (wasEmpty)
            ++m_posted;
    }
    // Posting is thread-safe; the drain runs on this object's (the GUI) thread.
    if (wasEmpty)
        QMetaObject::invokeMethod(this, &RunEventAdapter::drain, Qt::QueuedConnection);
}

int RunEventAdapter::postedDrains() const
{
    std::lock_guard lock(m_mutex);
    return m_posted;
}

void RunEventAdapter::drain()
{
    std::vector<RunEvent> batch;
    {
        std::lock_guard lock(m_mutex);
        batch.swap(m_queue);
    }
    if (!batch.empty())
        emit delivered(coalesce(std::move(batch)));
}

std::vector<RunEvent> RunEventAdapter::coalesce(std::vector<RunEvent> events)
{
    std::vector<RunEvent> out;
    out.reserve(events.size());
    std::map<NodeId, size_t> openText; // node -> its Token event in `out` that may still grow
    for (auto& e : events) {
        if (e.type == RunEvent::Type::Token) {
            const auto it = openText.find(e.node);
            if (it != openText.end() && out[it->second].spanId == e.spanId) {
                out[it->second].text += e.text;
                out[it->second].atUs = e.atUs;
                continue;
            }
            openText[e.node] = out.size();
        } else if (e.type == RunEvent::Type::RunStarted || e.type == RunEvent::Type::RunFinished) {
            openText.clear();
        } else {
            openText.erase(e.type == RunEvent::Type::SpanStarted || e.type == RunEvent::Type::SpanFinished ? e.span.node
                                                                                                           : e.node);
        }
        out.push_back(std::move(e));
    }
    return out;
}

void RunEventAdapter::runStarted(std::string_view runInput, uint64_t seed, ClockKind clock)
{
    RunEvent e;
    e.type = RunEvent::Type::RunStarted;
    e.text = std::string(runInput);
    e.seed = seed;
    e.clock = clock;
    push(std::move(e));
}

void RunEventAdapter::nodeQueued(const NodeId& node, int64_t atUs)
{
    RunEvent e;
    e.type = RunEvent::Type::NodeQueued;
    e.node = node;
    e.atUs = atUs;
    push(std::move(e));
}

void RunEventAdapter::spanStarted(const Span& span)
{
    RunEvent e;
    e.type = RunEvent::Type::SpanStarted;
    e.node = span.node;
    e.span = span;
    e.atUs = span.startUs;
    push(std::move(e));
}

void RunEventAdapter::nodeToken(const NodeId& node, SpanId span, std::string_view text, int64_t atUs)
{
    RunEvent e;
    e.type = RunEvent::Type::Token;
    e.node = node;
    e.spanId = span;
    e.text = std::string(text);
    e.atUs = atUs;
    push(std::move(e));
}

void RunEventAdapter::spanFinished(const Span& span)
{
    RunEvent e;
    e.type = RunEvent::Type::SpanFinished;
    e.node = span.node;
    e.span = span;
    e.atUs = span.endUs;
    push(std::move(e));
}

void RunEventAdapter::nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs)
{
    RunEvent e;
    e.type = RunEvent::Type::NodeFinished;
    e.node = node;
    e.result = result;
    e.atUs = atUs;
    push(std::move(e));
}

void RunEventAdapter::runFinished(const RunResult& result)
{
    RunEvent e;
    e.type = RunEvent::Type::RunFinished;
    e.run = std::make_shared<const RunResult>(result);
    e.atUs = result.wallUs;
    push(std::move(e));
}

} // namespace conclave::ui

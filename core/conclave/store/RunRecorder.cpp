#include "conclave/store/RunRecorder.h"

#include "conclave/io/TeamJson.h"
#include "conclave/store/ProcessIdentity.h"

#include <chrono>

namespace conclave {

namespace {

int64_t unixMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

RunRecorder::RunRecorder(RunId id, const Team& team, std::shared_ptr<RunStoreWriter> writer, size_t textCap)
    : m_id(std::move(id)), m_teamName(team.name), m_teamJson(teamToJsonText(team)), m_writer(std::move(writer)),
      m_progress(m_writer->track(m_id.str())), m_textCap(textCap)
{
}

RunRecorder::~RunRecorder()
{
    m_writer->flush();
    m_writer->untrack(m_id.str());
}

std::string RunRecorder::waitUntilStored()
{
    m_writer->flush();
    return m_writer->error();
}

void RunRecorder::runStarted(std::string_view runInput, uint64_t seed)
{
    const auto self = ProcessIdentity::current();
    m_writer->push(write_op::RunBegin{m_id.str(), m_teamName, std::move(m_teamJson), std::string(runInput), seed,
                                      unixMs(), self.host, self.pid, self.startTime});
}

void RunRecorder::nodeQueued(const NodeId& node, int64_t atUs)
{
    m_queuedAt.emplace(node, atUs);
}

void RunRecorder::spanStarted(const Span& span)
{
    m_writer->push(write_op::SpanRow{m_id.str(), span, false});
}

void RunRecorder::nodeToken(const NodeId& /*node*/, SpanId span, std::string_view text, int64_t /*atUs*/)
{
    auto& t = m_texts[span];
    if (t.truncated)
        return;
    if (t.text.size() + text.size() > m_textCap) {
        t.text.append(text.substr(0, m_textCap - t.text.size()));
        t.truncated = true;
    } else {
        t.text.append(text);
    }
}

void RunRecorder::spanFinished(const Span& span)
{
    m_writer->push(write_op::SpanRow{m_id.str(), span, true});
    const auto it = m_texts.find(span.id);
    if (it != m_texts.end()) {
        m_writer->push(write_op::SpanText{m_id.str(), span.id, std::move(it->second.text), it->second.truncated});
        m_texts.erase(it);
    }
}

void RunRecorder::nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs)
{
    const auto queued = m_queuedAt.find(node);
    m_writer->push(write_op::NodeRow{m_id.str(), node, result, queued == m_queuedAt.end() ? -1 : queued->second, atUs});
}

void RunRecorder::runFinished(const RunResult& result)
{
    write_op::RunEnd end;
    end.run = m_id.str();
    end.status = result.status;
    end.output = result.output;
    end.endedAtMs = unixMs();
    end.wallUs = result.wallUs;
    end.criticalPath = result.criticalPath.nodes;
    end.criticalPathUs = result.criticalPath.lengthUs;
    end.tokensIn = result.tokensIn;
    end.tokensOut = result.tokensOut;
    end.costUsd = result.costUsd;
    end.calls = result.calls;
    m_writer->push(std::move(end));
}

} // namespace conclave

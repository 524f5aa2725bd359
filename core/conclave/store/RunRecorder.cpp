#include "conclave/store/RunRecorder.h"

#include "conclave/io/ContentHash.h"
#include "conclave/io/TeamJson.h"
#include "conclave/store/ProcessIdentity.h"

#include <algorithm>
#include <chrono>

namespace conclave {

namespace {

int64_t unixMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A node's result as a run that keeps no text stores it: its figures, status and error.
NodeResult withoutText(const NodeResult& result)
{
    NodeResult figures = result;
    figures.text.clear();
    figures.answer.clear();
    return figures;
}

} // namespace

RunRecorder::RunRecorder(RunId id, const Team& team, std::shared_ptr<RunStoreWriter> writer, size_t textCap,
                         RunOrigin origin)
    : m_id(std::move(id)), m_teamName(team.name), m_teamJson(teamToJsonText(team)), m_origin(std::move(origin)),
      m_writer(std::move(writer)), m_feed(m_writer->attach(m_id.str())),
      m_textCap(textCap)
{
    m_texts.resize(team.nodes.size() * 2 + 1);
}

RunRecorder::~RunRecorder()
{
    m_writer->detach(m_feed);
}

std::string RunRecorder::waitUntilStored()
{
    m_writer->flush();
    return m_writer->error();
}

void RunRecorder::runStarted(std::string_view runInput, uint64_t seed, ClockKind clock)
{
    const auto self = ProcessIdentity::current();
    std::string hash = contentHash(m_teamJson);
    m_writer->push<write_op::RunBegin>(*m_feed, m_teamName, std::move(m_teamJson),
                                       m_origin.storeText ? std::string(runInput) : std::string(), seed, clock,
                                       unixMs(), self.host, self.pid, self.startTime, m_origin.experimentId,
                                       m_origin.source, std::move(hash), m_origin.keyName);
}

void RunRecorder::nodeQueued(const NodeId& node, int64_t atUs)
{
    m_writer->push<write_op::NodeQueued>(*m_feed, node, atUs);
}

void RunRecorder::spanStarted(const Span& span)
{
    if (!m_origin.storeText && !span.note.empty()) {
        Span figures = span;
        figures.note.clear();
        m_writer->push<write_op::SpanRow>(*m_feed, std::move(figures), false);
        return;
    }
    m_writer->push<write_op::SpanRow>(*m_feed, span, false);
}

void RunRecorder::nodeToken(const NodeId& /*node*/, SpanId span, std::string_view text, int64_t /*atUs*/)
{
    if (!m_origin.storeText)
        return;
    if (span >= m_texts.size())
        m_texts.resize(std::max<size_t>(span + 1, m_texts.size() * 2));
    auto& t = m_texts[span];
    t.streamed = true;
    if (t.truncated)
        return;
    if (t.text.size() + text.size() > m_textCap) {
        t.text.append(text.substr(0, m_textCap - t.text.size()));
        t.truncated = true;
    } else {
        t.text.append(text);
    }
}

void RunRecorder::attemptReplied(const NodeId& /*node*/, SpanId span, std::string_view text)
{
    if (!m_origin.storeText)
        return;
    // The whole reply replaces what streamed: a replay needs it even when nothing streamed.
    if (span >= m_texts.size())
        m_texts.resize(std::max<size_t>(span + 1, m_texts.size() * 2));
    auto& t = m_texts[span];
    t.streamed = true;
    t.truncated = text.size() > m_textCap;
    t.text.assign(text.substr(0, m_textCap));
}

void RunRecorder::spanFinished(const Span& span)
{
    if (!m_origin.storeText && !span.note.empty()) {
        Span figures = span;
        figures.note.clear();
        m_writer->push<write_op::SpanRow>(*m_feed, std::move(figures), true);
        return;
    }
    if (span.id >= m_texts.size() || !m_texts[span.id].streamed) {
        m_writer->push<write_op::SpanRow>(*m_feed, span, true);
        return;
    }
    auto& t = m_texts[span.id];
    m_writer->push<write_op::SpanRow>(*m_feed, span, true, true, t.truncated, std::move(t.text));
    t = Text{};
}

void RunRecorder::nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs)
{
    if (!m_origin.storeText) {
        m_writer->push<write_op::NodeRow>(*m_feed, node, withoutText(result), atUs);
        return;
    }
    m_writer->push<write_op::NodeRow>(*m_feed, node, result, atUs);
}

void RunRecorder::runFinished(const RunResult& result)
{
    write_op::RunEnd end;
    static_cast<RunTotals&>(end) = result;
    end.status = result.status;
    end.output = m_origin.storeText ? result.output : withoutText(result.output);
    end.endedAtMs = unixMs();
    end.criticalPath = result.criticalPath.nodes;
    end.criticalPathUs = result.criticalPath.lengthUs;
    m_writer->push<write_op::RunEnd>(*m_feed, std::move(end));
}

} // namespace conclave

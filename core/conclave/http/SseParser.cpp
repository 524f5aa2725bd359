#include "conclave/http/SseParser.h"

namespace conclave {

std::vector<SseEvent> SseParser::feed(std::string_view bytes)
{
    std::vector<SseEvent> out;
    for (const char c : bytes) {
        if (c == '\n' && m_afterCr) {
            m_afterCr = false;  // the LF of a CRLF whose CR ended the line
            continue;
        }
        m_afterCr = c == '\r';
        if (c == '\n' || c == '\r')
            takeLine(out);
        else
            m_line.push_back(c);
    }
    return out;
}

std::vector<SseEvent> SseParser::finish()
{
    std::vector<SseEvent> out;
    if (!m_line.empty())
        takeLine(out);
    dispatch(out);
    m_afterCr = false;
    return out;
}

void SseParser::takeLine(std::vector<SseEvent>& out)
{
    if (m_line.empty()) {
        dispatch(out);
        return;
    }
    if (m_line.front() == ':') {  // a comment, such as ": keep-alive"
        m_line.clear();
        return;
    }
    const auto colon = m_line.find(':');
    std::string_view field(m_line);
    std::string_view value;
    if (colon != std::string::npos) {
        field = std::string_view(m_line).substr(0, colon);
        value = std::string_view(m_line).substr(colon + 1);
        if (!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
    }
    if (field == "data") {
        if (m_hasData)
            m_data.push_back('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event.assign(value);
    }
    // id and retry mean nothing to a completion stream.
    m_line.clear();
}

void SseParser::dispatch(std::vector<SseEvent>& out)
{
    if (m_hasData)
        out.push_back(SseEvent{std::move(m_event), std::move(m_data)});
    m_event.clear();
    m_data.clear();
    m_hasData = false;
}

} // namespace conclave

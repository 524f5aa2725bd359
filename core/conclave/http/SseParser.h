#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// One server-sent event: its `event:` name (empty for the default "message")
// and its `data:` lines joined by '\n'.
struct SseEvent {
    std::string event;
    std::string data;

    friend bool operator==(const SseEvent&, const SseEvent&) = default;
};

// Splits a text/event-stream into events as bytes arrive, however the reads
// cut it: a line may end in LF, CRLF or CR and may arrive in pieces; `:`
// lines are comments (keep-alives) and are dropped; an event ends at a blank
// line. It never allocates more than the longest line plus one event.
class SseParser {
public:
    // Feeds the next bytes; returns the events they completed.
    std::vector<SseEvent> feed(std::string_view bytes);
    // At the end of the stream: an event whose blank line never came (some
    // servers end with "data: [DONE]\n"), if any.
    std::vector<SseEvent> finish();

    // Bytes of an unfinished line or event held so far.
    size_t pending() const { return m_line.size() + m_data.size(); }

private:
    void takeLine(std::vector<SseEvent>& out);
    void dispatch(std::vector<SseEvent>& out);

    std::string m_line;
    std::string m_event;
    std::string m_data;
    bool m_hasData = false;
    bool m_afterCr = false;  // the last byte was a CR, so an LF right after it ends nothing
};

} // namespace conclave

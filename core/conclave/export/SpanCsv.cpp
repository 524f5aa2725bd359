#include "conclave/export/RunExport.h"

#include <sstream>

namespace conclave {

namespace {

std::string field(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

} // namespace

std::string spansCsv(const StoredRun& run)
{
    std::ostringstream out;
    out.precision(10);
    out << "run_id,span_id,parent,node,kind,name,start_us,end_us,duration_us,status,attempt,round,model,tokens_in,"
           "tokens_out,cost_usd,ttft_us,error\r\n";
    for (const auto& s : run.spans) {
        out << field(run.summary.id.str()) << ',' << s.id << ',' << s.parent << ',' << field(s.node.str()) << ','
            << toString(s.kind) << ',' << field(s.name) << ',' << s.startUs << ',';
        if (s.endUs >= 0)
            out << s.endUs << ',' << s.durationUs();
        else
            out << ',';
        out << ',' << toString(s.status) << ',' << s.attempt << ',' << s.round << ',' << field(s.model) << ','
            << s.tokensIn << ',' << s.tokensOut << ',' << s.costUsd << ',';
        if (s.ttftUs >= 0)
            out << s.ttftUs;
        out << ',' << field(s.error) << "\r\n";
    }
    return out.str();
}

} // namespace conclave

#include "conclave/export/RunExport.h"

#include "conclave/io/CsvField.h"

#include <sstream>

namespace conclave {


std::string spansCsv(const StoredRun& run)
{
    std::ostringstream out;
    out.precision(10);
    out << "run_id,span_id,parent,node,kind,name,start_us,end_us,duration_us,status,attempt,round,model,tokens_in,"
           "tokens_out,cost_usd,ttft_us,error\r\n";
    for (const auto& s : run.spans) {
        out << csvField(run.summary.id.str()) << ',' << s.id << ',' << s.parent << ',' << csvField(s.node.str()) << ','
            << toString(s.kind) << ',' << csvField(s.name) << ',' << s.startUs << ',';
        if (s.endUs >= 0)
            out << s.endUs << ',' << s.durationUs();
        else
            out << ',';
        out << ',' << toString(s.status) << ',' << s.attempt << ',' << s.round << ',' << csvField(s.model) << ','
            << s.tokensIn << ',' << s.tokensOut << ',' << s.costUsd << ',';
        if (s.ttftUs >= 0)
            out << s.ttftUs;
        out << ',' << csvField(s.error) << "\r\n";
    }
    return out.str();
}

} // namespace conclave

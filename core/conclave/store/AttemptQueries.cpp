// RunQueries' reads for replay: stored call attempts with their replies.
#include "conclave/store/RunQueries.h"

#include <algorithm>

namespace conclave {

namespace {

// After the span's columns: the reply text and whether it was cut.
StoredAttempt readAttempt(const SqliteStatement& s, int textColumn, Span span)
{
    StoredAttempt a;
    a.span = std::move(span);
    // A reply cut at the cap is not the reply: it reads as not recorded. Of an attempt that
    // did not end ok, the text is what streamed before it ended.
    if (!s.isNull(textColumn) && s.int64(textColumn + 1) == 0)
        a.text = s.text(textColumn);
    return a;
}

} // namespace

std::optional<std::vector<StoredAttempt>> RunQueries::experimentAttempts(const std::vector<std::string>& experimentIds,
                                                                         std::string& error)
{
    std::vector<StoredAttempt> out;
    if (experimentIds.empty())
        return out;
    if (!begin(error))
        return std::nullopt;
    std::string placeholders;
    for (size_t i = 0; i < experimentIds.size(); ++i)
        placeholders += (i ? ", ?" : "?") + std::to_string(i + 1);
    // Each id must name an experiment here: a typo would otherwise replay nothing, silently.
    {
        auto known = m_db.prepare("SELECT id FROM experiments WHERE id IN (" + placeholders + ")");
        for (size_t i = 0; i < experimentIds.size(); ++i)
            known.bind(int(i + 1), std::string_view(experimentIds[i]));
        std::vector<std::string> found;
        while (known.step())
            found.push_back(known.text(0));
        for (const auto& id : experimentIds) {
            if (std::find(found.begin(), found.end(), id) == found.end()) {
                error = known.error().empty() ? "no experiment \"" + id + "\"" : known.error();
                end();
                return std::nullopt;
            }
        }
    }
    constexpr int kFirstSpanColumn = 6;
    auto s = m_db.prepare("SELECT tr.experiment_id, tr.design, tr.task, r.id, r.input, tr.seed, " + spanColumns("s.") +
                          ", t.text, t.truncated FROM trials tr JOIN runs r ON r.id IN (tr.run_id, tr.judge_run_id) "
                          "JOIN spans s ON s.run_id = r.id AND s.kind = 'attempt' "
                          "LEFT JOIN span_text t ON t.run_id = s.run_id AND t.span_id = s.id "
                          "WHERE tr.experiment_id IN (" +
                          placeholders + ") ORDER BY tr.experiment_id, tr.design, tr.task, tr.seed, s.id");
    for (size_t i = 0; i < experimentIds.size(); ++i)
        s.bind(int(i + 1), std::string_view(experimentIds[i]));
    constexpr int kTextColumn = kFirstSpanColumn + 21;
    while (s.step()) {
        auto a = readAttempt(s, kTextColumn, readSpan(s, kFirstSpanColumn));
        a.experimentId = s.text(0);
        a.design = int(s.int64(1));
        a.task = s.text(2);
        a.runId = RunId(s.text(3));
        a.input = s.text(4);
        a.seed = uint64_t(s.int64(5));
        out.push_back(std::move(a));
    }
    end();
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    return out;
}

std::optional<std::vector<StoredAttempt>> RunQueries::runAttempts(const RunId& id, std::string& error)
{
    if (!begin(error))
        return std::nullopt;
    {
        auto known = m_db.prepare("SELECT count(*) FROM runs WHERE id = ?1");
        known.bind(1, std::string_view(id.str()));
        if (!known.step() || known.int64(0) == 0) {
            error = known.error().empty() ? "no run \"" + id.str() + "\"" : known.error();
            end();
            return std::nullopt;
        }
    }
    constexpr int kFirstSpanColumn = 4;
    auto s = m_db.prepare("SELECT r.id, r.input, r.seed, coalesce(r.experiment_id, ''), " + spanColumns("s.") +
                          ", t.text, t.truncated FROM runs r "
                          "JOIN spans s ON s.run_id = r.id AND s.kind = 'attempt' "
                          "LEFT JOIN span_text t ON t.run_id = s.run_id AND t.span_id = s.id "
                          "WHERE r.id = ?1 ORDER BY s.id");
    s.bind(1, std::string_view(id.str()));
    constexpr int kTextColumn = kFirstSpanColumn + 21;
    std::vector<StoredAttempt> out;
    while (s.step()) {
        auto a = readAttempt(s, kTextColumn, readSpan(s, kFirstSpanColumn));
        a.runId = RunId(s.text(0));
        a.input = s.text(1);
        a.seed = uint64_t(s.int64(2));
        a.experimentId = s.text(3);
        out.push_back(std::move(a));
    }
    end();
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    return out;
}

} // namespace conclave

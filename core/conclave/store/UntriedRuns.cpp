// RunStore::removeUntriedRuns: an experiment's runs that no trial refers to (as its run or its judge's).
#include "conclave/store/RunStore.h"

namespace conclave {

RunStore::Deleted RunStore::removeUntriedRuns(const std::string& id)
{
    flush();
    std::vector<std::string> ids;
    auto s = m_db.prepare("SELECT id FROM runs WHERE experiment_id = ?1 AND status != 'running' AND id NOT IN "
                          "(SELECT run_id FROM trials WHERE experiment_id = ?1 AND run_id IS NOT NULL) AND id NOT IN "
                          "(SELECT judge_run_id FROM trials WHERE experiment_id = ?1 AND judge_run_id IS NOT NULL)");
    s.bind(1, std::string_view(id));
    while (s.step())
        ids.push_back(s.text(0));
    if (!s.error().empty())
        return {0, m_path.string() + ": " + s.error()};
    return removeWhere(ids);
}

} // namespace conclave

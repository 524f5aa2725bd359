#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// One API key a served endpoint accepts, with its limits. `name` is what logs,
// metrics and the store see; the secret itself never leaves this class.
struct ApiKey {
    std::string name;
    std::set<std::string> teams;  // empty: every team
    std::optional<int> rpm;       // requests admitted per minute
    std::optional<int> concurrency; // requests in flight or queued at once
    std::optional<double> budgetUsdPerDay; // spend per UTC day

    bool allows(const std::string& team) const { return teams.empty() || teams.count(team) > 0; }
};

// The keys `conclave serve` accepts (docs/serve.md, "Keys"): a keys file, one
// key a line — `KEY [name=N] [teams=a,b] [rpm=N] [concurrency=N]
// [budget_usd_per_day=X]`, `#` comments — refused when group or others may
// read it; or one key from an environment variable, named `env:VAR`.
// Presented keys are compared with every known key in time that does not
// depend on where they differ.
struct ApiKeysLoaded;

class ApiKeys {
public:
    using Loaded = ApiKeysLoaded;
    static Loaded loadFile(const std::filesystem::path& file);
    static Loaded parse(std::string_view text, const std::string& where);
    // `value` is the variable's value (null: unset).
    static Loaded fromEnvironment(const std::string& variable, const char* value);

    // The key presented, or null when none matches.
    const ApiKey* find(std::string_view presented) const;
    const std::vector<ApiKey>& keys() const { return m_keys; }
    size_t size() const { return m_keys.size(); }

    static constexpr size_t kMinKeyLength = 8;
    static constexpr size_t kMaxFileBytes = 4 * 1024 * 1024;

private:
    std::vector<ApiKey> m_keys;
    std::vector<std::string> m_secrets; // parallel to m_keys
};

struct ApiKeysLoaded {
    std::optional<ApiKeys> keys;
    std::string error; // FILE:LINE: what is wrong
};

} // namespace conclave

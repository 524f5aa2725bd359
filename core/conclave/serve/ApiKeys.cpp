#include "conclave/serve/ApiKeys.h"

#include "conclave/io/FileIo.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <sys/stat.h>

namespace conclave {

namespace {

std::vector<std::string> words(std::string_view line)
{
    std::vector<std::string> out;
    std::istringstream in{std::string(line)};
    std::string word;
    while (in >> word)
        out.push_back(word);
    return out;
}

std::optional<int> positiveInt(const std::string& text)
{
    int value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value <= 0)
        return std::nullopt;
    return value;
}

std::optional<double> positiveNumber(const std::string& text)
{
    double value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !(value > 0))
        return std::nullopt;
    return value;
}

// True when a and b are equal, in time that depends only on their lengths.
bool sameSecret(std::string_view a, std::string_view b)
{
    const size_t n = std::max(a.size(), b.size());
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (size_t i = 0; i < n; ++i) {
        const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
        const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
        diff = static_cast<unsigned char>(diff | (x ^ y));
    }
    return diff == 0;
}

} // namespace

ApiKeys::Loaded ApiKeys::loadFile(const std::filesystem::path& file)
{
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0)
        return {std::nullopt, file.string() + ": cannot read the keys file"};
    if (info.st_mode & (S_IRWXG | S_IRWXO)) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", unsigned(info.st_mode & 07777));
        return {std::nullopt, file.string() + ": group or others may read the keys file (mode " + mode +
                                  "); run: chmod 600 " + file.string()};
    }
    auto read = readFileText(file, kMaxFileBytes);
    if (!read.text)
        return {std::nullopt, file.string() + ": " + read.error};
    return parse(*read.text, file.string());
}

ApiKeys::Loaded ApiKeys::parse(std::string_view text, const std::string& where)
{
    ApiKeys keys;
    std::istringstream in{std::string(text)};
    std::string line;
    int number = 0;
    const auto fail = [&](const std::string& message) { return Loaded{std::nullopt, where + ":" + std::to_string(number) + ": " + message}; };
    while (std::getline(in, line)) {
        ++number;
        if (const auto hash = line.find('#'); hash != std::string::npos)
            line.resize(hash);
        const auto fields = words(line);
        if (fields.empty())
            continue;
        const auto& secret = fields[0];
        if (secret.find('=') != std::string::npos)
            return fail("a line starts with its key, then name=, teams=, rpm=, concurrency=, budget_usd_per_day=");
        if (secret.size() < kMinKeyLength)
            return fail("a key must be at least " + std::to_string(kMinKeyLength) + " characters");
        ApiKey key;
        key.name = "key-" + std::to_string(number);
        for (size_t i = 1; i < fields.size(); ++i) {
            const auto eq = fields[i].find('=');
            const std::string name = fields[i].substr(0, eq);
            const std::string value = eq == std::string::npos ? std::string() : fields[i].substr(eq + 1);
            if (eq == std::string::npos || value.empty())
                return fail("expected FIELD=VALUE, got \"" + fields[i] + "\"");
            if (name == "name") {
                key.name = value;
            } else if (name == "teams") {
                std::istringstream list(value);
                std::string team;
                while (std::getline(list, team, ','))
                    if (!team.empty())
                        key.teams.insert(team);
            } else if (name == "rpm" || name == "concurrency") {
                const auto n = positiveInt(value);
                if (!n)
                    return fail(name + ": expected a whole number above 0, got \"" + value + "\"");
                (name == "rpm" ? key.rpm : key.concurrency) = *n;
            } else if (name == "budget_usd_per_day") {
                const auto x = positiveNumber(value);
                if (!x)
                    return fail(name + ": expected a number above 0, got \"" + value + "\"");
                key.budgetUsdPerDay = *x;
            } else {
                return fail("unknown field \"" + name +
                            "\" (expected name, teams, rpm, concurrency or budget_usd_per_day)");
            }
        }
        for (size_t i = 0; i < keys.m_keys.size(); ++i) {
            if (sameSecret(keys.m_secrets[i], secret))
                return fail("the same key is on an earlier line");
            if (keys.m_keys[i].name == key.name)
                return fail("the name \"" + key.name + "\" is on an earlier line");
        }
        keys.m_keys.push_back(std::move(key));
        keys.m_secrets.push_back(secret);
    }
    if (keys.m_keys.empty())
        return {std::nullopt, where + ": no key in the file"};
    return {std::move(keys), {}};
}

ApiKeys::Loaded ApiKeys::fromEnvironment(const std::string& variable, const char* value)
{
    const std::string where = "--api-key-env " + variable;
    if (!value || !*value)
        return {std::nullopt, where + ": the variable is not set"};
    const std::string secret = value;
    if (secret.size() < kMinKeyLength)
        return {std::nullopt, where + ": a key must be at least " + std::to_string(kMinKeyLength) + " characters"};
    if (secret.find_first_of(" \t\r\n") != std::string::npos)
        return {std::nullopt, where + ": a key has no spaces"};
    ApiKeys keys;
    ApiKey key;
    key.name = "env:" + variable;
    keys.m_keys.push_back(std::move(key));
    keys.m_secrets.push_back(secret);
    return {std::move(keys), {}};
}

const ApiKey* ApiKeys::find(std::string_view presented) const
{
    const ApiKey* found = nullptr;
    // Every key is compared, so the time says nothing about which one matched.
    for (size_t i = 0; i < m_keys.size(); ++i) {
        if (sameSecret(m_secrets[i], presented) && !found)
            found = &m_keys[i];
    }
    return found;
}

} // namespace conclave

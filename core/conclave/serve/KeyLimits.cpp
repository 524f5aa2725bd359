#include "conclave/serve/KeyLimits.h"

#include "conclave/util/MoneyText.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

ServeError tooMany(std::string message, int retryAfterS)
{
    ServeError e;
    e.status = 429;
    e.message = std::move(message);
    e.type = "requests";
    e.code = "rate_limit_exceeded";
    e.retryAfterS = retryAfterS;
    return e;
}

} // namespace

KeyLimits::KeyLimits(StoredSpend storedSpend) : m_storedSpend(std::move(storedSpend)) {}

int64_t KeyLimits::utcDay(Clock::time_point t)
{
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    return ms >= 0 ? ms / 86'400'000 : (ms - 86'399'999) / 86'400'000;
}

std::variant<KeyLimits::Ticket, ServeError> KeyLimits::admit(const ApiKey& key, double reserveUsd,
                                                             Clock::time_point now)
{
    std::lock_guard lock(m_mutex);
    auto& s = m_states[key.name];
    while (!s.admitted.empty() && now - s.admitted.front() >= std::chrono::minutes(1))
        s.admitted.pop_front();
    if (key.rpm && int(s.admitted.size()) >= *key.rpm) {
        const auto wait = std::chrono::minutes(1) - (now - s.admitted.front());
        const int seconds = int(std::ceil(std::chrono::duration<double>(wait).count()));
        return tooMany("the key \"" + key.name + "\" may make " + std::to_string(*key.rpm) +
                           " requests a minute; retry in " + std::to_string(std::max(1, seconds)) + " s",
                       std::max(1, seconds));
    }
    if (key.concurrency && s.open >= *key.concurrency)
        return tooMany("the key \"" + key.name + "\" may have " + std::to_string(*key.concurrency) +
                           " requests in flight at once",
                       1);
    const int64_t day = utcDay(now);
    if (key.budgetUsdPerDay) {
        if (s.day != day) {
            const auto stored = m_storedSpend ? m_storedSpend(key.name, day * 86'400'000) : std::optional<double>(0.0);
            if (!stored) {
                return ServeError::server(503, "the key's spend today cannot be read from the run store", {}, 1);
            }
            s.day = day;
            s.spentUsd = *stored;
            s.reservedUsd = 0;
        }
        if (s.spentUsd >= *key.budgetUsdPerDay || s.spentUsd + s.reservedUsd + reserveUsd > *key.budgetUsdPerDay) {
            ServeError e;
            e.status = 429;
            e.type = "insufficient_quota";
            e.code = "insufficient_quota";
            e.message = "the key \"" + key.name + "\" has a budget of " + moneyText(*key.budgetUsdPerDay) +
                        " a day (UTC); spent " + moneyText(s.spentUsd) + ", held by runs in flight " +
                        moneyText(s.reservedUsd) + ", this request may cost up to " + moneyText(reserveUsd);
            return e;
        }
        s.reservedUsd += reserveUsd;
    }
    s.admitted.push_back(now);
    ++s.open;
    return Ticket{key.name, day, key.budgetUsdPerDay ? reserveUsd : 0.0};
}

void KeyLimits::release(const Ticket& ticket, double costUsd)
{
    std::lock_guard lock(m_mutex);
    auto& s = m_states[ticket.keyName];
    --s.open;
    if (s.day == ticket.day) {
        s.reservedUsd = std::max(0.0, s.reservedUsd - ticket.reservedUsd);
        s.spentUsd += costUsd;
    }
}

} // namespace conclave

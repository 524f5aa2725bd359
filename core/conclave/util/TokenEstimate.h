#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace conclave {

// Tokens ≈ characters / 4, rounded up: the one estimate of how many tokens a
// text is, wherever no tokenizer counted them (a reply without `usage`, the
// local simulator's prompts, a cost bound before a run).
inline int64_t estimateTokens(size_t characters)
{
    return int64_t((characters + 3) / 4);
}

inline int64_t estimateTokens(std::string_view text)
{
    return estimateTokens(text.size());
}

// The other way round: the characters `tokens` tokens stand for by the same
// estimate (a reply capped at max_tokens is taken to be at most this long).
inline size_t charactersOf(int64_t tokens)
{
    return tokens > 0 ? size_t(tokens) * 4 : 0;
}

} // namespace conclave

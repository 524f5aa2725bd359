#pragma once

#include "conclave/local/TaskSet.h"

#include <cstdint>

namespace conclave {

// Multiple-choice tasks written from a small vocabulary (about 150 words), so
// that every word recurs in dozens of prompts: the tasks `bench routing`'s
// worlds ask, where a router has enough examples of each word to learn how a
// world's readable difficulty (a sum of per-word weights) reads. The bundled
// sets' prompts share few words beyond the common ones, so on them that part
// of difficulty is readable in principle but not learnable from a few hundred
// tasks (docs/routing.md shows both). Each prompt: a verb, two or three
// adjective–noun phrases, a domain cue and four options A–D; the answer is
// one of the options, all drawn from (seed, index).
class WordyTasks {
public:
    static TaskSet generate(size_t count, uint64_t seed);
};

} // namespace conclave

#include "conclave/validate/Validator.h"

#include "conclave/validate/FieldChecks.h"

namespace conclave {

std::vector<Problem> validate(const Team& team, const ValidationContext& context)
{
    ProblemSink sink;
    checks::checkGraph(team, sink);
    checks::checkFields(team, context, sink);
    return sink.take();
}

} // namespace conclave

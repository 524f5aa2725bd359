#include "conclave/store/ExperimentRecords.h"

namespace conclave {

std::string_view toString(ExperimentStatus status)
{
    switch (status) {
    case ExperimentStatus::Running:
        return "running";
    case ExperimentStatus::Finished:
        return "finished";
    case ExperimentStatus::Interrupted:
        return "interrupted";
    case ExperimentStatus::Cancelled:
        return "cancelled";
    }
    return "running";
}

std::optional<ExperimentStatus> experimentStatusFromString(std::string_view text)
{
    for (const auto status : {ExperimentStatus::Running, ExperimentStatus::Finished, ExperimentStatus::Interrupted,
                              ExperimentStatus::Cancelled}) {
        if (toString(status) == text)
            return status;
    }
    return std::nullopt;
}

} // namespace conclave

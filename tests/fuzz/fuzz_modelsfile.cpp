// The models file (local-models.json, a backend's models_file): any bytes give
// profiles or errors; profiles that load save to text that loads as the same.
#include "FuzzCheck.h"

#include "conclave/io/ModelsFile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace conclave;
    const auto loaded = ModelsFile::fromJsonText(fuzz::text(data, size));
    if (!loaded.file) {
        fuzz::check(hasErrors(loaded.problems), "a models file is refused only with an error");
        return 0;
    }
    const auto again = ModelsFile::fromJsonText(ModelsFile::toJsonText(loaded.file->models()));
    fuzz::check(again.file.has_value(), "saved profiles load again");
    fuzz::check(again.file->models() == loaded.file->models(), "load -> save -> load gives equal profiles");
    return 0;
}

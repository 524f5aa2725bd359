#include "conclave/io/CanonicalJson.h"

#include <algorithm>

namespace conclave {

namespace {

constexpr size_t kInlineArrayWidth = 72;

bool isScalar(const nlohmann::ordered_json& v) { return !v.is_object() && !v.is_array(); }

void write(std::string& out, const nlohmann::ordered_json& value, int indent)
{
    const std::string pad(static_cast<size_t>(indent) * 2, ' ');
    const std::string innerPad(static_cast<size_t>(indent + 1) * 2, ' ');
    if (value.is_object()) {
        if (value.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        bool first = true;
        for (const auto& [key, child] : value.items()) {
            if (!first)
                out += ",\n";
            first = false;
            out += innerPad;
            out += nlohmann::ordered_json(key).dump();
            out += ": ";
            write(out, child, indent + 1);
        }
        out += '\n' + pad + '}';
        return;
    }
    if (value.is_array()) {
        if (value.empty()) {
            out += "[]";
            return;
        }
        if (std::all_of(value.begin(), value.end(), isScalar)) {
            std::string line = "[";
            for (size_t i = 0; i < value.size(); ++i)
                line += (i ? ", " : "") + value[i].dump();
            line += ']';
            if (line.size() <= kInlineArrayWidth) {
                out += line;
                return;
            }
        }
        out += "[\n";
        for (size_t i = 0; i < value.size(); ++i) {
            if (i)
                out += ",\n";
            out += innerPad;
            write(out, value[i], indent + 1);
        }
        out += '\n' + pad + ']';
        return;
    }
    out += value.dump();
}

} // namespace

std::string canonicalJsonText(const nlohmann::ordered_json& value)
{
    std::string out;
    write(out, value, 0);
    out += '\n';
    return out;
}

} // namespace conclave

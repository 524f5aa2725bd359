#pragma once

#include "conclave/model/NodeKind.h"
#include "conclave/model/TeamGraph.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The one reader of prompt templates: where the {{…}} placeholders are, what
// they are called, and which of them a node may use. The engine fills them
// in (PromptBuilder::render), the validator checks them, the editor renames
// and offers them, all through here.
//
// A placeholder is "{{", a name with optional spaces around it, and "}}"; a
// "{{" with no "}}" after it is plain text, and so is everything after it.
// A plain scan, not a regex: a regex engine recurses once per character of a
// long prompt.
class PromptTemplate {
public:
    struct Placeholder {
        std::string_view whole;  // "{{ from.x }}"
        std::string_view inside; // " from.x "
        std::string_view name;   // "from.x"
    };

    // Calls literal(text) for the text between placeholders (and after the
    // last) and placeholder(p) for each placeholder, in order; together they
    // cover the template exactly.
    template <class Literal, class Hole> static void scan(std::string_view tmpl, Literal&& literal, Hole&& placeholder)
    {
        size_t pos = 0;
        while (pos < tmpl.size()) {
            const size_t open = tmpl.find("{{", pos);
            const size_t close = open == std::string_view::npos ? open : tmpl.find("}}", open + 2);
            if (close == std::string_view::npos) {
                literal(tmpl.substr(pos));
                return;
            }
            if (open > pos)
                literal(tmpl.substr(pos, open - pos));
            const auto inside = tmpl.substr(open + 2, close - open - 2);
            placeholder(Placeholder{tmpl.substr(open, close + 2 - open), inside, trim(inside)});
            pos = close + 2;
        }
    }

    // The names of the placeholders, in order, as often as they appear.
    static std::vector<std::string> names(std::string_view tmpl);

    // `tmpl` with every {{from.OLD}} placeholder naming node `from` renamed to
    // `to`, spacing inside the braces kept; everything else exactly as it was.
    static std::string renameNode(std::string_view tmpl, std::string_view from, std::string_view to);

    // What a placeholder name means for a node.
    enum class Use {
        Allowed,     // input, inputs; a meeting's names in a meeting; from.X of a node upstream
        MeetingOnly, // transcript, round or task outside a coordinator and its members
        NotUpstream, // from.X where X is not upstream of the node
        Unknown,
    };
    // inMeeting: the node is a coordinator or a coordinator's member;
    // isUpstream(id): whether node `id` is upstream of it.
    static Use useOf(std::string_view name, bool inMeeting, const std::function<bool(std::string_view id)>& isUpstream);
    // Every name node `node` of `kind` may use, the fixed ones first, then
    // from.X for each node upstream of it, in node order.
    static std::vector<std::string> allowedFor(const TeamGraph& graph, NodeIndex node, NodeKind kind);

    static constexpr std::string_view kFromPrefix = "from.";

private:
    static std::string_view trim(std::string_view s)
    {
        while (!s.empty() && s.front() == ' ')
            s.remove_prefix(1);
        while (!s.empty() && s.back() == ' ')
            s.remove_suffix(1);
        return s;
    }
};

} // namespace conclave

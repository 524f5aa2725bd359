#pragma once

#include <QString>

namespace conclave::ui {

// How to call a served team, as text to copy (docs/serve.md): a `curl` line
// and a script for OpenAI's Python client, each with the endpoint's real URL
// and model id, and the header `Authorization: Bearer $KEY` (the key from the
// environment variable KEY) only when the server asks for a key. No newline
// ends them: pasted into a shell, nothing runs before the user says so.
class ServeSnippets {
public:
    static QString curl(const QString& url, const QString& model, const QString& input, bool withKey);
    static QString python(const QString& url, const QString& model, const QString& input, bool withKey);
};

} // namespace conclave::ui

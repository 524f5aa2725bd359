#include "run/ServeSnippets.h"

#include <nlohmann/json.hpp>

namespace conclave::ui {

namespace {

// A JSON string literal: also a valid Python string literal for what JSON can say.
QString jsonString(const QString& text)
{
    return QString::fromStdString(nlohmann::json(text.toStdString()).dump());
}

// Inside a shell's single quotes: each ' ends the quote, is escaped, and reopens it.
QString shellQuoted(const QString& text)
{
    return QString(text).replace(QLatin1Char('\''), QStringLiteral("'\\''"));
}

} // namespace

QString ServeSnippets::curl(const QString& url, const QString& model, const QString& input, bool withKey)
{
    const QString body = QStringLiteral(R"({"model": %1, "messages": [{"role": "user", "content": %2}]})")
                             .arg(jsonString(model), jsonString(input));
    QString text =
        QStringLiteral("curl -s %1/chat/completions \\\n  -H 'Content-Type: application/json' \\\n").arg(url);
    if (withKey)
        text += QStringLiteral("  -H \"Authorization: Bearer $KEY\" \\\n");
    return text + QStringLiteral("  -d '%1'").arg(shellQuoted(body));
}

QString ServeSnippets::python(const QString& url, const QString& model, const QString& input, bool withKey)
{
    QString text = withKey ? QStringLiteral("import os\n\nfrom openai import OpenAI\n\n")
                           : QStringLiteral("from openai import OpenAI\n\n");
    text += withKey ? QStringLiteral("client = OpenAI(base_url=%1, api_key=os.environ[\"KEY\"])\n").arg(jsonString(url))
                    : QStringLiteral("client = OpenAI(base_url=%1, api_key=\"none\")  # the server asks for no key\n")
                          .arg(jsonString(url));
    text += QStringLiteral("reply = client.chat.completions.create(\n"
                           "    model=%1,\n"
                           "    messages=[{\"role\": \"user\", \"content\": %2}],\n"
                           ")\n"
                           "print(reply.choices[0].message.content)")
                .arg(jsonString(model), jsonString(input));
    return text;
}

} // namespace conclave::ui

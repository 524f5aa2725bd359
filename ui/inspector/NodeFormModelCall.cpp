// NodeForm::addModelCall: the fields of a node that calls a model.
#include "inspector/NodeForm.h"

#include "inspector/PromptEditor.h"

#include "document/TeamDocument.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>

namespace conclave::ui {

namespace {

ModelParams& params(NodeConfig& c)
{
    if (!c.call.params)
        c.call.params.emplace();
    return *c.call.params;
}

// Stop sequences as one line: separated by " | ", newlines written \n.
QString stopText(const std::vector<std::string>& stops)
{
    QStringList parts;
    for (const auto& s : stops)
        parts << QString::fromStdString(s).replace('\\', QLatin1String("\\\\")).replace('\n', QLatin1String("\\n"));
    return parts.join(QLatin1String(" | "));
}

std::vector<std::string> stopsFrom(const QString& text)
{
    std::vector<std::string> out;
    for (QString part : text.split(QLatin1String(" | "))) {
        if (part.isEmpty())
            continue;
        part.replace(QLatin1String("\\n"), QLatin1String("\n")).replace(QLatin1String("\\\\"), QLatin1String("\\"));
        out.push_back(part.toStdString());
    }
    return out;
}

} // namespace

void NodeForm::addModelCall(bool withPrompts)
{
    auto* f = addSection(tr("Model"));
    m_backend = new QComboBox(this);
    m_backend->setEditable(true);
    m_backend->setInsertPolicy(QComboBox::NoInsert);
    m_backend->setToolTip(tr("Empty: the team's default backend"));
    f->addRow(tr("Backend"), m_backend);
    registerField(QStringLiteral("backend"), m_backend);
    connect(m_backend, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        commit(
            [&](NodeConfig& c) {
                if (text.trimmed().isEmpty())
                    c.call.backend.reset();
                else
                    c.call.backend = BackendName(text.trimmed().toStdString());
            },
            kBackendKey);
    });
    addLoader([this](const Node& n) {
        const QString value = QString::fromStdString(n.config.call.backend ? n.config.call.backend->str() : "");
        const QSignalBlocker block(m_backend);
        m_backend->setCurrentText(value);
    });
    addModel(
        f, tr("Model"), QStringLiteral("model"), [](NodeConfig & c) -> auto& { return c.call.model; });
    addModel(
        f, tr("Fallback model"), QStringLiteral("fallback_model"),
        [](NodeConfig & c) -> auto& { return c.call.fallbackModel; });
    if (withPrompts) {
        addPrompt(
            f, tr("System"), QStringLiteral("system"), [](NodeConfig & c) -> auto& { return c.call.system; });
        addPrompt(
            f, tr("Prompt"), QStringLiteral("prompt"), [](NodeConfig & c) -> auto& { return c.call.prompt; });
    }
    auto* p = addSection(tr("Call"));
    addDouble(
        p, tr("Temperature"), QStringLiteral("params/temperature"), 0, 2, 0.1,
        [](NodeConfig & c) -> auto& { return params(c).temperature; });
    addInt(
        p, tr("Max tokens"), QStringLiteral("params/max_tokens"), 1, 1000000,
        [](NodeConfig & c) -> auto& { return params(c).maxTokens; });
    addDouble(
        p, tr("Top p"), QStringLiteral("params/top_p"), 0, 1, 0.05,
        [](NodeConfig & c) -> auto& { return params(c).topP; });
    auto* stop = new QLineEdit(this);
    stop->setPlaceholderText(tr("e.g. \\n | END"));
    stop->setToolTip(tr("Stop sequences separated by \" | \"; write a newline as \\n"));
    p->addRow(tr("Stop"), stop);
    registerField(QStringLiteral("params/stop"), stop);
    connect(stop, &QLineEdit::textEdited, this, [this](const QString& text) {
        commit(
            [&](NodeConfig& c) {
                auto stops = stopsFrom(text);
                if (stops.empty())
                    params(c).stop.reset();
                else
                    params(c).stop = std::move(stops);
            },
            kStopKey);
    });
    addLoader([stop](const Node& n) {
        const auto& ps = n.config.call.params;
        const QString value = ps && ps->stop ? stopText(*ps->stop) : QString();
        if (stop->text() != value && !stop->hasFocus())
            stop->setText(value);
    });
    addInt(
        p, tr("Timeout"), QStringLiteral("timeout_ms"), 1, 3600000,
        [](NodeConfig & c) -> auto& { return c.call.timeoutMs; }, tr("ms"));
    addInt(
        p, tr("Retries"), QStringLiteral("retries"), 0, 20, [](NodeConfig & c) -> auto& { return c.call.retries; });
}

} // namespace conclave::ui

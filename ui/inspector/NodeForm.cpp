#include "inspector/NodeForm.h"

#include "inspector/PromptEditor.h"

#include "document/TeamDocument.h"

#include "conclave/model/PromptTemplate.h"
#include "conclave/model/TeamGraph.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

#include <set>

namespace conclave::ui {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

NodeForm::NodeForm(TeamDocument* document, NodeKind kind, QWidget* parent)
    : QWidget(parent), m_document(document), m_kind(kind), m_form(new QFormLayout)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(m_form);
    layout->addStretch();
    addCommon();
}

void NodeForm::addCommon()
{
    m_idEdit = new QLineEdit(this);
    m_idEdit->setToolTip(tr("Letters, digits, '_', '-' and '.'; referred to as {{from.ID}} in prompts"));
    m_form->addRow(tr("Id"), m_idEdit);
    registerField(QStringLiteral("id"), m_idEdit);
    connect(m_idEdit, &QLineEdit::editingFinished, this, [this] {
        const NodeId to(m_idEdit->text().trimmed().toStdString());
        QString reason;
        if (!(to == m_id) && !m_document->requestRename(m_id, to, &reason)) {
            m_idEdit->setText(q(m_id.str()));
            m_idEdit->setToolTip(tr("Not renamed: %1").arg(reason));
        }
    });
    addLoader([this](const Node& n) {
        if (!m_idEdit->hasFocus() || m_idEdit->text() != q(n.id.str()))
            m_idEdit->setText(q(n.id.str()));
    });
    addText(
        m_form, tr("Label"), QStringLiteral("label"), [](NodeConfig & c) -> auto& { return c.label; });
}

void NodeForm::load(const NodeId& id)
{
    m_id = id;
    const Node* n = m_document->node(id);
    if (!n)
        return;
    m_loading = true;
    if (m_backend) {
        const QSignalBlocker block(m_backend);
        const QString current = m_backend->currentText();
        m_backend->clear();
        m_backend->addItem(QString());
        for (const auto& [name, backend] : m_document->team().backends)
            m_backend->addItem(q(name.str()));
    }
    const QStringList models = modelNames();
    for (auto* picker : m_modelPickers) {
        const QSignalBlocker block(picker);
        const QString text = picker->currentText();
        picker->clear();
        picker->addItem(QString());
        picker->addItems(models);
        picker->setCurrentText(text);
    }
    for (const auto& loader : m_loaders)
        loader(*n);
    const QStringList names = placeholdersFor();
    for (auto* prompt : m_prompts)
        prompt->setPlaceholders(names);
    m_loading = false;
    showProblems();
}

void NodeForm::commit(const std::function<void(NodeConfig&)>& edit, int mergeKey)
{
    if (m_loading)
        return;
    const Node* n = m_document->node(m_id);
    if (!n)
        return;
    NodeConfig config = n->config;
    edit(config);
    // Clearing the last sampling parameter removes "params" rather than writing {}.
    auto& params = config.call.params;
    if (params && !params->temperature && !params->maxTokens && !params->topP && !params->stop && params->extra.empty())
        params.reset();
    m_document->requestSetConfig(m_id, config, mergeKey);
}

void NodeForm::registerField(const QString& key, QWidget* widget)
{
    m_fields.insert(key, widget);
    widget->setProperty("fieldKey", key);
}

QFormLayout* NodeForm::addSection(const QString& title)
{
    auto* heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), this);
    heading->setContentsMargins(0, 8, 0, 0);
    m_form->addRow(heading);
    return m_form;
}

void NodeForm::addNote(const QString& text)
{
    auto* label = new QLabel(text, this);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    m_form->addRow(label);
}

QSpinBox* NodeForm::addInt(QFormLayout* target, const QString& label, const QString& key, int min, int max,
                           Accessor<int64_t> field, const QString& unit)
{
    auto* spin = new QSpinBox(this);
    // One below the minimum means "not set": the team's default applies.
    spin->setRange(min - 1, max);
    spin->setSpecialValueText(tr("default"));
    if (!unit.isEmpty())
        spin->setSuffix(' ' + unit);
    spin->setKeyboardTracking(false);
    target->addRow(label, spin);
    registerField(key, spin);
    connect(spin, &QSpinBox::valueChanged, this, [this, field, min](int value) {
        commit([&](NodeConfig& c) {
            if (value < min)
                field(c).reset();
            else
                field(c) = value;
        });
    });
    addLoader([spin, field, min](const Node& n) {
        NodeConfig copy = n.config;
        const auto& value = field(copy);
        const QSignalBlocker block(spin);
        spin->setValue(value ? int(*value) : min - 1);
    });
    return spin;
}

QDoubleSpinBox* NodeForm::addDouble(QFormLayout* target, const QString& label, const QString& key, double min,
                                    double max, double step, Accessor<double> field)
{
    auto* spin = new QDoubleSpinBox(this);
    spin->setDecimals(3);
    spin->setSingleStep(step);
    spin->setRange(min - step, max);
    spin->setSpecialValueText(tr("default"));
    spin->setKeyboardTracking(false);
    target->addRow(label, spin);
    registerField(key, spin);
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, field, min](double value) {
        commit([&](NodeConfig& c) {
            if (value < min)
                field(c).reset();
            else
                field(c) = value;
        });
    });
    addLoader([spin, field, min, step](const Node& n) {
        NodeConfig copy = n.config;
        const auto& value = field(copy);
        const QSignalBlocker block(spin);
        spin->setValue(value ? *value : min - step);
    });
    return spin;
}

void NodeForm::commitText(const Accessor<std::string>& field, const QString& text, int mergeKey)
{
    commit(
        [&](NodeConfig& c) {
            if (text.isEmpty())
                field(c).reset();
            else
                field(c) = text.toStdString();
        },
        mergeKey);
}

QLineEdit* NodeForm::addText(QFormLayout* target, const QString& label, const QString& key, Accessor<std::string> field)
{
    auto* edit = new QLineEdit(this);
    edit->setClearButtonEnabled(true);
    target->addRow(label, edit);
    registerField(key, edit);
    const int merge = m_nextMergeKey++;
    connect(edit, &QLineEdit::textEdited, this,
            [this, field, merge](const QString& text) { commitText(field, text, merge); });
    addLoader([edit, field](const Node& n) {
        NodeConfig copy = n.config;
        const QString value = q(field(copy).value_or(std::string()));
        if (edit->text() != value)
            edit->setText(value);
    });
    return edit;
}

QComboBox* NodeForm::addModel(QFormLayout* target, const QString& label, const QString& key,
                              Accessor<std::string> field)
{
    auto* combo = new QComboBox(this);
    combo->setEditable(true);
    combo->setInsertPolicy(QComboBox::NoInsert);
    combo->setToolTip(tr("A local model from local-models.json, or any name an HTTP backend serves"));
    target->addRow(label, combo);
    registerField(key, combo);
    m_modelPickers.push_back(combo);
    const int merge = m_nextMergeKey++;
    connect(combo, &QComboBox::currentTextChanged, this, [this, field, merge](const QString& text) {
        commit(
            [&](NodeConfig& c) {
                if (text.trimmed().isEmpty())
                    field(c).reset();
                else
                    field(c) = text.trimmed().toStdString();
            },
            merge);
    });
    addLoader([combo, field](const Node& n) {
        NodeConfig copy = n.config;
        const QString value = q(field(copy).value_or(std::string()));
        if (combo->currentText() != value) {
            const QSignalBlocker block(combo);
            combo->setCurrentText(value);
        }
    });
    return combo;
}

PromptEditor* NodeForm::addPrompt(QFormLayout* target, const QString& label, const QString& key,
                                  Accessor<std::string> field)
{
    auto* editor = new PromptEditor(this);
    target->addRow(label, editor);
    registerField(key, editor->editor());
    m_prompts.push_back(editor);
    const int merge = m_nextMergeKey++;
    connect(editor, &PromptEditor::textEdited, this,
            [this, field, merge](const QString& text) { commitText(field, text, merge); });
    addLoader([editor, field](const Node& n) {
        NodeConfig copy = n.config;
        editor->setText(q(field(copy).value_or(std::string())));
    });
    return editor;
}

void NodeForm::showProblems()
{
    for (auto* widget : m_fields) {
        widget->setProperty("invalid", false);
        widget->setToolTip(QString());
    }
    const auto index = m_document->team().indexOf(m_id);
    if (!index)
        return;
    const std::string prefix = "/nodes/" + std::to_string(*index) + "/";
    for (const Problem* problem : m_document->problemsOf(m_id)) {
        if (!problem->pointer.starts_with(prefix))
            continue;
        const QString key = q(problem->pointer.substr(prefix.size()));
        // "routes/math/0" is flagged on "routes"; "params/temperature" has its own field.
        QWidget* widget = m_fields.value(key, m_fields.value(key.section('/', 0, 0)));
        if (!widget)
            continue;
        widget->setProperty("invalid", true);
        const QString tip = widget->toolTip();
        const QString line = (problem->isError() ? tr("Error: ") : tr("Warning: ")) + q(problem->message);
        widget->setToolTip(tip.isEmpty() ? line : tip + '\n' + line);
    }
    for (auto* widget : m_fields) {
        widget->style()->unpolish(widget);
        widget->style()->polish(widget);
    }
}

QStringList NodeForm::placeholdersFor() const
{
    const TeamGraph graph(m_document->team());
    QStringList names;
    if (const auto node = graph.indexOf(m_id)) {
        for (const auto& name : PromptTemplate::allowedFor(graph, *node, m_kind))
            names << q(name);
    }
    return names;
}

QStringList NodeForm::modelNames() const
{
    std::set<std::string> names = m_document->localModels();
    for (const auto& [name, backend] : m_document->team().backends) {
        if (backend.models) {
            for (const auto& [model, profile] : *backend.models)
                names.insert(model);
        }
    }
    QStringList out;
    for (const auto& n : names)
        out << q(n);
    return out;
}

} // namespace conclave::ui

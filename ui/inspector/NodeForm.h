#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/Node.h"

#include <QHash>
#include <QWidget>

#include <functional>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace conclave::ui {

class PromptEditor;
class TeamDocument;

// The base of the per-kind node forms. Each field is bound to one member of
// NodeConfig: editing the widget sends a request with only that member
// changed (so other values are never rewritten by a widget's rounding), and
// load() fills the widgets from the document. A field whose JSON key has a
// problem is flagged inline with the message as its tooltip.
class NodeForm : public QWidget {
    Q_OBJECT

public:
    NodeForm(TeamDocument* document, NodeKind kind, QWidget* parent = nullptr);

    NodeKind kind() const { return m_kind; }
    const NodeId& nodeId() const { return m_id; }
    // Shows node `id` (of this form's kind) and its problems.
    void load(const NodeId& id);
    // The widget bound to a JSON key ("model", "params/temperature"), for tests.
    QWidget* field(const QString& key) const { return m_fields.value(key); }

protected:
    template <class T> using Accessor = std::function<std::optional<T>&(NodeConfig&)>;

    QFormLayout* form() const { return m_form; }
    QFormLayout* addSection(const QString& title);
    // A short explanation under the fields, in the placeholder colour.
    void addNote(const QString& text);
    QSpinBox* addInt(QFormLayout* form, const QString& label, const QString& key, int min, int max,
                     Accessor<int64_t> field, const QString& unit = {});
    QDoubleSpinBox* addDouble(QFormLayout* form, const QString& label, const QString& key, double min, double max,
                              double step, Accessor<double> field);
    QLineEdit* addText(QFormLayout* form, const QString& label, const QString& key, Accessor<std::string> field);
    QComboBox* addModel(QFormLayout* form, const QString& label, const QString& key, Accessor<std::string> field);
    PromptEditor* addPrompt(QFormLayout* form, const QString& label, const QString& key, Accessor<std::string> field);
    template <class Enum>
    QComboBox* addEnum(QFormLayout* form, const QString& label, const QString& key, Accessor<Enum> field);
    // The fields every model-calling node has (backend, model, prompts, params, timeout, retries).
    void addModelCall(bool withPrompts);

    // Merge keys of the fields whose typing merges into one undo step; the
    // generic fields take 1, 2, 3... (m_nextMergeKey), so these stay far above.
    enum MergeKey : int { kBackendKey = 900, kStopKey = 901, kRoutesKey = 902 };

    // Sends `edit` applied to the current config; `mergeKey` >= 0 merges typing.
    void commit(const std::function<void(NodeConfig&)>& edit, int mergeKey = -1);
    // An optional text field: empty clears it.
    void commitText(const Accessor<std::string>& field, const QString& text, int mergeKey);
    void addLoader(std::function<void(const Node&)> loader) { m_loaders.push_back(std::move(loader)); }
    void registerField(const QString& key, QWidget* widget);
    const TeamDocument* document() const { return m_document; }

private:
    void addCommon();
    void showProblems();
    QStringList placeholdersFor() const;
    QStringList modelNames() const;

    TeamDocument* m_document;
    NodeKind m_kind;
    NodeId m_id;
    QFormLayout* m_form;
    QLineEdit* m_idEdit = nullptr;
    std::vector<std::function<void(const Node&)>> m_loaders;
    std::vector<PromptEditor*> m_prompts;
    std::vector<QComboBox*> m_modelPickers;
    QComboBox* m_backend = nullptr;
    QHash<QString, QWidget*> m_fields;
    bool m_loading = false;
    int m_nextMergeKey = 1;

    friend class NodeFormBindings;
};

} // namespace conclave::ui

#include "inspector/NodeFormEnum.h"

#pragma once

#include "inspector/NodeForm.h"

#include <vector>

namespace conclave {
struct RouterField;
}

namespace conclave::ui {

// A router: its strategy and that strategy's fields, all from the registry of
// strategies (RouterStrategies): the strategy list, one widget per field by
// its kind, each shown only when the router's strategy has it; a model for
// the strategies that call one.
class RouterForm : public NodeForm {
    Q_OBJECT

public:
    explicit RouterForm(TeamDocument* document, QWidget* parent = nullptr);

private:
    QWidget* addField(QFormLayout* form, const RouterField& field);
    QWidget* addRouteTable(QFormLayout* form, const RouterField& field);

    std::vector<std::pair<const RouterField*, QWidget*>> m_fields;
};

} // namespace conclave::ui

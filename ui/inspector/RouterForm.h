#pragma once

#include "inspector/NodeForm.h"

#include <filesystem>
#include <memory>
#include <vector>

namespace conclave {
struct EngineResources;
struct RouterField;
} // namespace conclave

namespace conclave::ui {

// A router: its strategy and that strategy's fields, all from the registry of
// strategies (RouterStrategies): the strategy list, one widget per field by
// its kind, each shown only when the router's strategy has it; a model for
// the strategies that call one. Under a learned router's fields, its file
// and how it would route the file's held-out tasks (LearnedRouterSummary).
class LearnedRouterSummary;

class RouterForm : public NodeForm {
    Q_OBJECT

public:
    explicit RouterForm(TeamDocument* document, QWidget* parent = nullptr);

    // What a learned router's held-out prediction reads (LearnedRouterSummary::setResources).
    void setResources(std::shared_ptr<const EngineResources> resources, std::filesystem::path resourcesDir);
    LearnedRouterSummary* learnedSummary() const { return m_summary; }

private:
    QWidget* addField(QFormLayout* form, const RouterField& field);
    QWidget* addRouteTable(QFormLayout* form, const RouterField& field);

    std::vector<std::pair<const RouterField*, QWidget*>> m_fields;
    LearnedRouterSummary* m_summary;
};

} // namespace conclave::ui

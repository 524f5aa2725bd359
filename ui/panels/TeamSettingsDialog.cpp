#include "panels/TeamSettingsDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace conclave::ui {

namespace {

enum Column {
    Name,
    Kind,
    BaseUrl,
    ApiKeyEnv,
    Seed,
    TimeScale,
    MaxConcurrency,
    RequestsPerMinute,
    Experiments,
    ExcludeDesigns,
    ColumnCount
};

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// A recorded backend's experiment ids or designs left out, as the table shows them: "e-1, e-2".
QString idList(const std::optional<std::vector<std::string>>& ids)
{
    QStringList out;
    for (const auto& id : ids.value_or(std::vector<std::string>{}))
        out << q(id);
    return out.join(QStringLiteral(", "));
}

// The list a cell of idList() text says; `shown` when the text is still what it showed,
// so that a name with a comma in it (a design's may have one) is kept whole.
std::optional<std::vector<std::string>> listIn(const QString& text, const std::optional<std::vector<std::string>>& shown)
{
    if (text == idList(shown))
        return shown;
    std::vector<std::string> items;
    for (const auto& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!item.trimmed().isEmpty())
            items.push_back(item.trimmed().toStdString());
    }
    return items.empty() ? std::nullopt : std::optional<std::vector<std::string>>(std::move(items));
}

template <class T> QString optionalText(const std::optional<T>& v)
{
    if (!v)
        return {};
    if constexpr (std::is_same_v<T, std::string>)
        return q(*v);
    else
        return QString::number(*v);
}

QSpinBox* optionalSpin(int max, const QString& suffix)
{
    auto* spin = new QSpinBox;
    spin->setRange(-1, max);
    spin->setSpecialValueText(QObject::tr("none"));
    if (!suffix.isEmpty())
        spin->setSuffix(' ' + suffix);
    return spin;
}

} // namespace

TeamSettingsDialog::TeamSettingsDialog(const TeamSettings& settings, QWidget* parent)
    : QDialog(parent), m_original(settings), m_name(new QLineEdit), m_description(new QPlainTextEdit),
      m_backends(new QTableWidget(0, ColumnCount)), m_defaultBackend(new QComboBox), m_defaultModel(new QLineEdit),
      m_timeout(optionalSpin(3600000, tr("ms"))), m_retries(optionalSpin(20, {})), m_maxCost(new QDoubleSpinBox),
      m_maxTokens(optionalSpin(2000000000, {})), m_maxWall(optionalSpin(86400000, tr("ms"))), m_problem(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    setWindowTitle(tr("Team settings"));
    resize(820, 620);
    auto* layout = new QVBoxLayout(this);
    auto* general = new QFormLayout;
    general->addRow(tr("Name"), m_name);
    m_description->setFixedHeight(70);
    general->addRow(tr("Description"), m_description);
    layout->addLayout(general);

    auto* backendsBox = new QGroupBox(tr("Backends"));
    auto* backendsLayout = new QVBoxLayout(backendsBox);
    m_backends->setHorizontalHeaderLabels({tr("Name"), tr("Kind"), tr("Base URL"), tr("API key variable"), tr("Seed"),
                                           tr("Time scale"), tr("Max concurrency"), tr("Requests/min"),
                                           tr("Experiments (recorded)"), tr("Designs left out (recorded)")});
    m_backends->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_backends->horizontalHeader()->setSectionResizeMode(BaseUrl, QHeaderView::Stretch);
    m_backends->verticalHeader()->hide();
    m_backends->setToolTip(tr("The API key variable is the NAME of an environment variable (e.g. OPENAI_API_KEY), "
                              "never the key itself"));
    m_backends->horizontalHeaderItem(ExcludeDesigns)
        ->setToolTip(tr("Designs of the experiments whose calls are not replayed, comma-separated: a design "
                        "predicted from the other designs' calls only"));
    backendsLayout->addWidget(m_backends);
    auto* row = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add backend"));
    auto* remove = new QPushButton(tr("Remove"));
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch();
    backendsLayout->addLayout(row);
    layout->addWidget(backendsBox);

    auto* bottom = new QHBoxLayout;
    auto* defaultsBox = new QGroupBox(tr("Defaults"));
    auto* defaults = new QFormLayout(defaultsBox);
    m_defaultBackend->setEditable(true);
    defaults->addRow(tr("Backend"), m_defaultBackend);
    defaults->addRow(tr("Model"), m_defaultModel);
    defaults->addRow(tr("Timeout"), m_timeout);
    defaults->addRow(tr("Retries"), m_retries);
    bottom->addWidget(defaultsBox);
    auto* budgetBox = new QGroupBox(tr("Budget"));
    auto* budget = new QFormLayout(budgetBox);
    m_maxCost->setRange(-0.01, 1e6);
    m_maxCost->setDecimals(2);
    m_maxCost->setSingleStep(0.05);
    m_maxCost->setPrefix(QStringLiteral("$"));
    m_maxCost->setSpecialValueText(tr("none"));
    budget->addRow(tr("Max cost"), m_maxCost);
    budget->addRow(tr("Max tokens"), m_maxTokens);
    budget->addRow(tr("Max wall time"), m_maxWall);
    bottom->addWidget(budgetBox);
    layout->addLayout(bottom);
    m_problem->setStyleSheet(QStringLiteral("color: #dc2626"));
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    m_name->setText(q(settings.name));
    m_description->setPlainText(q(settings.description.value_or("")));
    for (const auto& [name, backend] : settings.backends)
        addBackendRow(q(name.str()), backend);
    m_defaultBackend->addItem(QString());
    for (const auto& [name, backend] : settings.backends)
        m_defaultBackend->addItem(q(name.str()));
    const auto& d = settings.defaults;
    m_defaultBackend->setCurrentText(d && d->backend ? q(d->backend->str()) : QString());
    m_defaultModel->setText(d ? optionalText(d->model) : QString());
    m_timeout->setValue(d && d->timeoutMs ? int(*d->timeoutMs) : -1);
    m_retries->setValue(d && d->retries ? int(*d->retries) : -1);
    const auto& b = settings.budget;
    m_maxCost->setValue(b && b->maxCostUsd ? *b->maxCostUsd : -0.01);
    m_maxTokens->setValue(b && b->maxTokens ? int(*b->maxTokens) : -1);
    m_maxWall->setValue(b && b->maxWallMs ? int(*b->maxWallMs) : -1);

    connect(add, &QPushButton::clicked, this, [this] {
        Backend backend;
        backend.kind = BackendKind::OpenAi;
        backend.baseUrl = "https://api.openai.com/v1";
        backend.apiKeyEnv = "OPENAI_API_KEY";
        addBackendRow(QStringLiteral("openai"), backend);
        check();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_backends->currentRow() >= 0)
            m_backends->removeRow(m_backends->currentRow());
        check();
    });
    connect(m_backends, &QTableWidget::itemChanged, this, &TeamSettingsDialog::check);
    connect(m_name, &QLineEdit::textChanged, this, &TeamSettingsDialog::check);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    check();
}

void TeamSettingsDialog::addBackendRow(const QString& name, const Backend& backend)
{
    const int row = m_backends->rowCount();
    m_backends->insertRow(row);
    auto* nameItem = new QTableWidgetItem(name);
    nameItem->setData(Qt::UserRole, name); // the name it had, to keep the fields not shown here
    m_backends->setItem(row, Name, nameItem);
    auto* kind = new QComboBox;
    for (const BackendKind k : allValues<BackendKind>())
        kind->addItem(QString::fromUtf8(toString(k)));
    kind->setCurrentText(QString::fromUtf8(toString(backend.kind)));
    m_backends->setCellWidget(row, Kind, kind);
    m_backends->setItem(row, BaseUrl, new QTableWidgetItem(optionalText(backend.baseUrl)));
    m_backends->setItem(row, ApiKeyEnv, new QTableWidgetItem(optionalText(backend.apiKeyEnv)));
    m_backends->setItem(row, Seed, new QTableWidgetItem(optionalText(backend.seed)));
    m_backends->setItem(row, TimeScale, new QTableWidgetItem(optionalText(backend.timeScale)));
    m_backends->setItem(row, MaxConcurrency, new QTableWidgetItem(optionalText(backend.maxConcurrency)));
    m_backends->setItem(row, RequestsPerMinute, new QTableWidgetItem(optionalText(backend.requestsPerMinute)));
    m_backends->setItem(row, Experiments, new QTableWidgetItem(idList(backend.experiments)));
    m_backends->setItem(row, ExcludeDesigns, new QTableWidgetItem(idList(backend.excludeDesigns)));
    connect(kind, &QComboBox::currentTextChanged, this, &TeamSettingsDialog::check);
}

QString TeamSettingsDialog::problem() const
{
    if (m_name->text().trimmed().isEmpty())
        return tr("The team needs a name.");
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    std::set<QString> names;
    for (int row = 0; row < m_backends->rowCount(); ++row) {
        const QString name = m_backends->item(row, Name)->text().trimmed();
        if (name.isEmpty())
            return tr("Backend %1 needs a name.").arg(row + 1);
        if (!names.insert(name).second)
            return tr("Two backends are called \"%1\".").arg(name);
        const QString env = m_backends->item(row, ApiKeyEnv)->text().trimmed();
        if (!env.isEmpty() && !envName.match(env).hasMatch())
            return tr("Backend \"%1\": the API key variable must be the name of an environment variable "
                      "(letters, digits, _), not the key itself.")
                .arg(name);
        const QString url = m_backends->item(row, BaseUrl)->text().trimmed();
        if (!url.isEmpty() && !url.startsWith(QLatin1String("http://")) && !url.startsWith(QLatin1String("https://")))
            return tr("Backend \"%1\": the base URL must start with http:// or https://.").arg(name);
        const auto* kind = qobject_cast<QComboBox*>(m_backends->cellWidget(row, Kind));
        if (kind && kind->currentText() == QLatin1String("recorded") &&
            m_backends->item(row, Experiments)->text().trimmed().isEmpty())
            return tr("Backend \"%1\": a recorded backend needs the ids of the experiments it replays.").arg(name);
        for (const int column : {Seed, MaxConcurrency, RequestsPerMinute, TimeScale}) {
            const QString text = m_backends->item(row, column)->text().trimmed();
            bool ok = true;
            if (!text.isEmpty())
                column == TimeScale ? void(text.toDouble(&ok)) : void(text.toLongLong(&ok));
            if (!ok)
                return tr("Backend \"%1\": \"%2\" is not a number.").arg(name, text);
        }
    }
    return {};
}

void TeamSettingsDialog::check()
{
    const QString why = problem();
    m_problem->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

TeamSettings TeamSettingsDialog::settings() const
{
    TeamSettings s = m_original;
    s.name = m_name->text().trimmed().toStdString();
    const QString description = m_description->toPlainText();
    s.description = description.isEmpty() ? std::nullopt : std::optional<std::string>(description.toStdString());
    s.backends.clear();
    for (int row = 0; row < m_backends->rowCount(); ++row) {
        const auto text = [&](int column) { return m_backends->item(row, column)->text().trimmed(); };
        const auto original = m_original.backends.find(
            BackendName(m_backends->item(row, Name)->data(Qt::UserRole).toString().toStdString()));
        Backend b = original != m_original.backends.end() ? original->second : Backend{};
        const auto* kind = qobject_cast<QComboBox*>(m_backends->cellWidget(row, Kind));
        b.kind = enumFromString<BackendKind>(kind->currentText().toStdString()).value_or(BackendKind::LocalMoe);
        const auto str = [&](int column) {
            return text(column).isEmpty() ? std::nullopt : std::optional<std::string>(text(column).toStdString());
        };
        const auto integer = [&](int column) {
            return text(column).isEmpty() ? std::nullopt : std::optional<int64_t>(text(column).toLongLong());
        };
        b.baseUrl = str(BaseUrl);
        b.apiKeyEnv = str(ApiKeyEnv);
        b.seed = integer(Seed);
        b.timeScale = text(TimeScale).isEmpty() ? std::nullopt : std::optional<double>(text(TimeScale).toDouble());
        b.maxConcurrency = integer(MaxConcurrency);
        b.requestsPerMinute = integer(RequestsPerMinute);
        b.experiments = listIn(text(Experiments), b.experiments);
        b.excludeDesigns = listIn(text(ExcludeDesigns), b.excludeDesigns);
        s.backends[BackendName(text(Name).toStdString())] = b;
    }
    Defaults d = m_original.defaults.value_or(Defaults{});
    const QString backend = m_defaultBackend->currentText().trimmed();
    d.backend = backend.isEmpty() ? std::nullopt : std::optional<BackendName>(BackendName(backend.toStdString()));
    const QString model = m_defaultModel->text().trimmed();
    d.model = model.isEmpty() ? std::nullopt : std::optional<std::string>(model.toStdString());
    d.timeoutMs = m_timeout->value() < 0 ? std::nullopt : std::optional<int64_t>(m_timeout->value());
    d.retries = m_retries->value() < 0 ? std::nullopt : std::optional<int64_t>(m_retries->value());
    s.defaults = (d == Defaults{}) ? std::nullopt : std::optional<Defaults>(d);
    Budget b = m_original.budget.value_or(Budget{});
    b.maxCostUsd = m_maxCost->value() < 0 ? std::nullopt : std::optional<double>(m_maxCost->value());
    b.maxTokens = m_maxTokens->value() < 0 ? std::nullopt : std::optional<int64_t>(m_maxTokens->value());
    b.maxWallMs = m_maxWall->value() < 0 ? std::nullopt : std::optional<int64_t>(m_maxWall->value());
    s.budget = (b == Budget{}) ? std::nullopt : std::optional<Budget>(b);
    return s;
}

} // namespace conclave::ui

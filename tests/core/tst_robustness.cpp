// Damaged team files must give problems, never a crash, a hang or a throw:
// every prefix of each example, and seeded random byte mutations of each.

// Qt first: moc fails on <compare> when conclave/model/StrongId.h is the first header it meets.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QtTest>

#include "conclave/io/JsonText.h"
#include "conclave/io/TeamJson.h"
#include "conclave/validate/Validator.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

QString examplesDir()
{
    return QStringLiteral(CONCLAVE_RESOURCES "/examples");
}

QStringList exampleFiles()
{
    return QDir(examplesDir()).entryList({QStringLiteral("*.team.json")}, QDir::Files, QDir::Name);
}

std::string readExample(const QString& name)
{
    QFile file(examplesDir() + QLatin1Char('/') + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}

// ASan and TSan builds run the same checks on less input: every prefix near
// the end of a file but only every eighth before it, and fewer mutants.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONCLAVE_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CONCLAVE_TEST_SANITIZED 1
#endif
#endif
#ifdef CONCLAVE_TEST_SANITIZED
constexpr size_t kPrefixStep = 8;
constexpr int kMutantsPerExample = 250;
#else
constexpr size_t kPrefixStep = 1;
constexpr int kMutantsPerExample = 1000;
#endif

// One damaged file; a load that takes this long is taken for a hang.
constexpr qint64 kHangMs = 5000;

enum class Outcome { Refused, LoadedInvalid, LoadedValid };

struct Checked {
    Outcome outcome = Outcome::Refused;
    qint64 elapsedMs = 0;
    std::vector<conclave::Problem> loaderProblems;
    QString failure; // empty when every invariant held
};

// Loads and, when a team came back, validates and round-trips it, checking
// what must hold for any input at all.
Checked loadAndCheck(std::string_view text)
{
    Checked checked;
    QElapsedTimer timer;
    timer.start();
    auto result = conclave::teamFromJsonText(text);
    checked.loaderProblems = result.problems;
    if (!result.team) {
        if (!conclave::hasErrors(result.problems))
            checked.failure = QStringLiteral("refused without an error");
        checked.elapsedMs = timer.elapsed();
        return checked;
    }
    if (conclave::hasErrors(result.problems))
        checked.failure = QStringLiteral("a team came back with loader errors");
    const auto problems = conclave::validate(*result.team);
    checked.outcome = conclave::hasErrors(problems) ? Outcome::LoadedInvalid : Outcome::LoadedValid;
    // Load -> save -> load gives an equal team, whatever the team is.
    const auto again = conclave::teamFromJsonText(conclave::teamToJsonText(*result.team));
    if (!again.team)
        checked.failure = QStringLiteral("the saved team does not load again");
    else if (!(*again.team == *result.team))
        checked.failure = QStringLiteral("the saved team loads as a different team");
    checked.elapsedMs = timer.elapsed();
    return checked;
}

// Damages text in place, one of five ways, as a fuzzer would.
class Mutator {
public:
    explicit Mutator(uint32_t seed) : m_random(seed) {}

    void mutate(std::string& text)
    {
        if (text.empty()) {
            text.push_back(randomByte());
            return;
        }
        switch (below(5)) {
        case 0: { // flip one bit of one byte
            const size_t at = position(text);
            text[at] = static_cast<char>(text[at] ^ (1 << below(8)));
            break;
        }
        case 1: // insert a random byte
            text.insert(text.begin() + static_cast<std::ptrdiff_t>(below(text.size() + 1)), randomByte());
            break;
        case 2: // delete a byte
            text.erase(position(text), 1);
            break;
        case 3: { // duplicate a slice somewhere else
            const size_t start = position(text);
            const size_t length = 1 + below(std::min<size_t>(64, text.size() - start));
            const std::string slice = text.substr(start, length);
            text.insert(below(text.size() + 1), slice);
            break;
        }
        default: // swap two structural characters, or change one
            damageStructure(text);
            break;
        }
    }

private:
    static constexpr std::string_view kStructural = "{}[]\":,";

    // Plain modulo, not std::uniform_int_distribution, whose output differs
    // between standard libraries: a seed names the same mutants everywhere.
    size_t below(size_t bound) { return static_cast<size_t>(m_random()) % bound; }
    size_t position(const std::string& text) { return below(text.size()); }
    char randomByte() { return static_cast<char>(below(256)); }

    // A random position holding a structural character; structure is dense in
    // a team file, so a few tries nearly always find one.
    std::optional<size_t> structuralPosition(const std::string& text)
    {
        for (int attempt = 0; attempt < 32; ++attempt) {
            const size_t at = position(text);
            if (kStructural.find(text[at]) != std::string_view::npos)
                return at;
        }
        return std::nullopt;
    }

    void damageStructure(std::string& text)
    {
        const auto first = structuralPosition(text);
        const auto second = structuralPosition(text);
        if (!first || !second)
            return;
        if (text[*first] != text[*second]) {
            std::swap(text[*first], text[*second]);
            return;
        }
        const size_t current = kStructural.find(text[*first]);
        text[*first] = kStructural[(current + 1 + below(kStructural.size() - 1)) % kStructural.size()];
    }

    std::mt19937 m_random;
};

} // namespace

class TestRobustness : public QObject {
    Q_OBJECT

private slots:
    void examplesAreValid();
    void everyPrefix_data();
    void everyPrefix();
    void randomMutations_data();
    void randomMutations();

private:
    void addExampleRows();
};

void TestRobustness::addExampleRows()
{
    QTest::addColumn<QString>("example");
    QTest::addColumn<int>("index");
    const QStringList files = exampleFiles();
    for (int i = 0; i < files.size(); ++i)
        QTest::newRow(qPrintable(files[i])) << files[i] << i;
}

// The starting points must themselves be clean, or the counts below mean little.
void TestRobustness::examplesAreValid()
{
    const QStringList files = exampleFiles();
    QVERIFY(files.size() >= 3);
    for (const QString& name : files) {
        const std::string text = readExample(name);
        QVERIFY2(!text.empty(), qPrintable(name));
        const Checked checked = loadAndCheck(text);
        QVERIFY2(checked.failure.isEmpty(), qPrintable(name + QLatin1String(": ") + checked.failure));
        QVERIFY2(checked.outcome == Outcome::LoadedValid, qPrintable(name));
    }
}

void TestRobustness::everyPrefix_data()
{
    addExampleRows();
}

// A cut file is a syntax error at the cut, until the cut falls after the
// closing brace and only trailing whitespace is lost.
void TestRobustness::everyPrefix()
{
    QFETCH(QString, example);
    const std::string text = readExample(example);
    QVERIFY(!text.empty());
    const size_t closingBrace = text.rfind('}');
    QVERIFY(closingBrace != std::string::npos);

    size_t loaded = 0;
    qint64 slowest = 0;
    for (size_t length = 0; length < text.size(); ++length) {
        if (length % kPrefixStep != 0 && length < closingBrace)
            continue;
        const std::string_view prefix(text.data(), length);
        const Checked checked = loadAndCheck(prefix);
        const QString where = QStringLiteral("%1, first %2 bytes").arg(example).arg(length);
        QVERIFY2(checked.failure.isEmpty(), qPrintable(where + QLatin1String(": ") + checked.failure));
        slowest = std::max(slowest, checked.elapsedMs);
        if (checked.outcome != Outcome::Refused) {
            QVERIFY2(length > closingBrace, qPrintable(where + QLatin1String(" loaded")));
            ++loaded;
            continue;
        }
        QVERIFY2(length <= closingBrace, qPrintable(where + QLatin1String(" was refused")));
        // The error is a syntax error said at the end of the text, where it stops.
        const auto& problems = checked.loaderProblems;
        QCOMPARE(problems.size(), size_t(1));
        const auto& problem = problems.front();
        QVERIFY2(problem.line > 0, qPrintable(where));
        const auto atEnd = conclave::lineColumnAt(prefix, length);
        const auto atLast = conclave::lineColumnAt(prefix, length == 0 ? 0 : length - 1);
        const std::pair<int, int> at{problem.line, problem.column};
        QVERIFY2(at == atEnd || at == atLast,
                 qPrintable(where + QStringLiteral(": error at %1:%2, the text ends at %3:%4")
                                        .arg(problem.line)
                                        .arg(problem.column)
                                        .arg(atEnd.first)
                                        .arg(atEnd.second)));
    }
    QCOMPARE(loaded, text.size() - 1 - closingBrace);
    QVERIFY2(slowest < kHangMs, qPrintable(QStringLiteral("one prefix took %1 ms").arg(slowest)));
}

void TestRobustness::randomMutations_data()
{
    addExampleRows();
}

void TestRobustness::randomMutations()
{
    QFETCH(QString, example);
    QFETCH(int, index);
    const std::string original = readExample(example);
    QVERIFY(!original.empty());

    // A fixed seed per example: a failure names the mutant that shows it.
    const uint32_t seed = 20240611u + static_cast<uint32_t>(index);
    Mutator mutator(seed);
    std::mt19937 rounds(seed);
    int refused = 0;
    int loadedInvalid = 0;
    int loadedValid = 0;
    qint64 slowest = 0;
    for (int i = 0; i < kMutantsPerExample; ++i) {
        std::string text = original;
        const int mutations = 1 + static_cast<int>(rounds() % 3);
        for (int m = 0; m < mutations; ++m)
            mutator.mutate(text);
        const Checked checked = loadAndCheck(text);
        QVERIFY2(checked.failure.isEmpty(),
                 qPrintable(
                     QStringLiteral("%1, seed %2, mutant %3: %4").arg(example).arg(seed).arg(i).arg(checked.failure)));
        slowest = std::max(slowest, checked.elapsedMs);
        switch (checked.outcome) {
        case Outcome::Refused:
            ++refused;
            break;
        case Outcome::LoadedInvalid:
            ++loadedInvalid;
            break;
        case Outcome::LoadedValid:
            ++loadedValid;
            break;
        }
    }
    qInfo("%s: %d refused, %d loaded but invalid, %d still valid; slowest %lld ms", qPrintable(example), refused,
          loadedInvalid, loadedValid, slowest);
    QCOMPARE(refused + loadedInvalid + loadedValid, kMutantsPerExample);
    // Most damage breaks the syntax, but flipped bits inside strings often do not.
    QVERIFY(refused > kMutantsPerExample / 4);
    QVERIFY(loadedInvalid + loadedValid > 0);
    QVERIFY(loadedValid > 0);
    QVERIFY2(slowest < kHangMs, qPrintable(QStringLiteral("one mutant took %1 ms").arg(slowest)));
}

QTEST_GUILESS_MAIN(TestRobustness)
#include "tst_robustness.moc"

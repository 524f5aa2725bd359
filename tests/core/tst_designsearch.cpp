// DesignSearch on the simulator: the split keeps validation and test blind,
// a fixed-seed search finds an exact front, a tie is never dropped, a
// journaled search resumes to the same front, and the front's team files
// validate and find their files from where they are written.
#include <QtTest>

#include "support/QtStrings.h"
#include "support/SoloTeam.h"

#undef emit

#include "conclave/io/ModelsFile.h"
#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/search/DesignSearch.h"
#include "conclave/search/SearchJournal.h"
#include "conclave/search/SearchOutput.h"
#include "conclave/search/SearchReport.h"
#include "conclave/session/Engine.h"
#include "conclave/session/EngineResources.h"
#include "conclave/experiment/TaskSplit.h"
#include "conclave/validate/Validator.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>

using namespace conclave;
namespace fs = std::filesystem;

namespace {

const char* kSolo = testsupport::kSoloTeam;

const std::vector<std::string> kModels{
    "e.model=local/tiny-1b,local/generalist-7b,local/code-13b,local/math-13b,local/writer-7b,local/reasoner-34b,"
    "local/frontier-70b",
    "e.params.temperature=0,0.7"};

std::shared_ptr<const TaskSet> bundled(std::initializer_list<const char*> names)
{
    std::optional<TaskSet> all;
    for (const char* name : names) {
        auto loaded = TaskSet::load(std::string(CONCLAVE_RESOURCES) + "/tasksets/" + name + ".jsonl");
        if (!all)
            all = std::move(*loaded.tasks);
        else
            all->merge(*loaded.tasks);
    }
    return std::make_shared<const TaskSet>(std::move(*all));
}

// A journal in memory, as the store keeps one.
class MemoryJournal final : public SearchJournal {
public:
    std::map<std::string, std::vector<KeptTrial>> kept() override
    {
        std::lock_guard lock(m_mutex);
        std::map<std::string, std::vector<KeptTrial>> out;
        for (const auto& [id, rows] : m_trials)
            out[m_keys.at(id)].insert(out[m_keys.at(id)].end(), rows.begin(), rows.end());
        return out;
    }
    void candidates(const std::vector<const SearchCandidate*>& changed) override
    {
        std::lock_guard lock(m_mutex);
        for (const auto* c : changed)
            m_keys[c->id] = c->key;
    }
    void trials(const SearchCandidate& candidate, std::string_view, const std::vector<KeptTrial>& rows) override
    {
        std::lock_guard lock(m_mutex);
        auto& kept = m_trials[candidate.id];
        kept.insert(kept.end(), rows.begin(), rows.end());
    }
    size_t rows() const
    {
        size_t n = 0;
        for (const auto& [id, rows] : m_trials)
            n += rows.size();
        return n;
    }

private:
    std::mutex m_mutex;
    std::map<int, std::string> m_keys;
    std::map<int, std::vector<KeptTrial>> m_trials;
};

std::vector<std::string> names(const DesignSearch::Result& result, const std::vector<int>& ids)
{
    std::vector<std::string> out;
    for (const int id : ids)
        out.push_back("#" + std::to_string(id) + " " + result.candidates[size_t(id - 1)].name);
    return out;
}

QStringList qlist(const std::vector<std::string>& list)
{
    QStringList out;
    for (const auto& s : list)
        out << q(s);
    return out;
}

CandidateTrials trialsOf(const std::vector<std::pair<bool, double>>& rightAndCost)
{
    CandidateTrials t(rightAndCost.size(), 1);
    for (size_t i = 0; i < rightAndCost.size(); ++i) {
        TrialCell cell;
        cell.ran = cell.scored = true;
        cell.right = rightAndCost[i].first;
        cell.costUsd = rightAndCost[i].second;
        cell.wallMs = 100;
        t.set(i, 0, cell);
    }
    return t;
}

} // namespace

class TestDesignSearch : public QObject {
    Q_OBJECT

    std::unique_ptr<Engine> m_engine;
    QTemporaryDir m_dir;

    SearchSpace space(const std::vector<std::string>& flags)
    {
        std::string error;
        auto made = SearchSpace::fromFlags(flags, {{"", "", *teamFromJsonText(kSolo).team}}, error);
        if (!made)
            qFatal("%s", error.c_str());
        return std::move(*made);
    }

private slots:
    void initTestCase()
    {
        std::vector<std::string> errors;
        auto resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
        QVERIFY(errors.empty());
        m_engine = std::make_unique<Engine>(std::move(resources));
    }

    void theSplitNeverLetsATestTaskIntoSearchOrValidation_data()
    {
        QTest::addColumn<QString>("split");
        QTest::addColumn<int>("seed");
        QTest::newRow("halves and quarters, seed 1") << "0.5/0.25/0.25" << 1;
        QTest::newRow("halves and quarters, seed 9") << "0.5/0.25/0.25" << 9;
        QTest::newRow("mostly test") << "0.2/0.2/0.6" << 3;
        QTest::newRow("thirds") << "0.34/0.33/0.33" << 17;
    }

    void theSplitNeverLetsATestTaskIntoSearchOrValidation()
    {
        QFETCH(QString, split);
        QFETCH(int, seed);
        const auto tasks = bundled({"code", "facts", "math", "reasoning", "writing"});
        std::string error;
        const auto splitter = TaskSplit::parse(split.toStdString(), uint64_t(seed), error);
        QVERIFY(splitter);
        // Tasks a router file was trained on: kept in the search part.
        std::set<std::string> trained;
        for (size_t t = 0; t < tasks->tasks().size(); t += 7)
            trained.insert(tasks->tasks()[t].id);
        const auto parts = DesignSearch::split(*tasks, splitter->fractions(), uint64_t(seed), trained, error);
        QVERIFY2(parts, error.c_str());
        std::set<size_t> seen;
        for (const auto* part : {&parts->search, &parts->validation, &parts->test}) {
            for (const size_t t : *part)
                QVERIFY(seen.insert(t).second); // in one part only
        }
        QCOMPARE(seen.size(), tasks->tasks().size());
        const auto hash = tasks->contentHash();
        for (const size_t t : parts->test) {
            QCOMPARE(splitter->partOf(hash, tasks->tasks()[t].id), size_t(2));
            QVERIFY(!trained.count(tasks->tasks()[t].id));
        }
        for (const size_t t : parts->validation) {
            QCOMPARE(splitter->partOf(hash, tasks->tasks()[t].id), size_t(1));
            QVERIFY(!trained.count(tasks->tasks()[t].id));
        }
        // Each part in the order of its tasks' positions: a rung's prefix is a fixed sample.
        for (size_t i = 1; i < parts->search.size(); ++i)
            QVERIFY(splitter->position(hash, tasks->tasks()[parts->search[i - 1]].id) <
                    splitter->position(hash, tasks->tasks()[parts->search[i]].id));
        QVERIFY(parts->trainedOn > 0);
        QCOMPARE(q(parts->notes.front()),
                 QString::number(parts->trainedOn) + " tasks a router or scorer file was trained on kept in the search part");
    }

    void fittedDifficultiesStayOutOfTheTestOrSaySo()
    {
        std::string jsonl;
        for (int i = 0; i < 40; ++i)
            jsonl += "{\"id\": \"t" + std::to_string(i) + "\", \"prompt\": \"What is " + std::to_string(i) +
                     " + 1?\", \"answer\": \"" + std::to_string(i + 1) + "\", \"domain\": \"math\"" +
                     (i % 2 ? ", \"difficulty\": 0.5" : "") + "}\n";
        auto half = TaskSet::fromJsonLines(jsonl);
        std::string error;
        auto parts = DesignSearch::split(*half.tasks, {0.5, 0.25, 0.25}, 1, {}, error);
        QVERIFY2(parts, error.c_str());
        for (const auto* part : {&parts->validation, &parts->test}) {
            for (const size_t t : *part)
                QVERIFY(!half.tasks->tasks()[t].difficulty);
        }
        QCOMPARE(parts->fitted, size_t(8));
        QVERIFY(parts->blindNote.empty());
        // Every task fitted: they stay where the split put them, and the report says the test is not blind.
        std::string all;
        for (int i = 0; i < 40; ++i)
            all += "{\"id\": \"t" + std::to_string(i) + "\", \"prompt\": \"What is " + std::to_string(i) +
                   " + 2?\", \"answer\": \"" + std::to_string(i + 2) + "\", \"difficulty\": 0.1}\n";
        auto fitted = TaskSet::fromJsonLines(all);
        parts = DesignSearch::split(*fitted.tasks, {0.5, 0.25, 0.25}, 1, {}, error);
        QVERIFY(parts);
        QCOMPARE(q(parts->blindNote), QString("the test is not blind: 18 validation and test tasks have difficulties "
                                              "fitted from measurements"));
        // Too few tasks for a paired interval.
        auto few = TaskSet::fromJsonLines("{\"id\": \"a\", \"prompt\": \"1+1?\", \"answer\": \"2\"}\n"
                                          "{\"id\": \"b\", \"prompt\": \"1+2?\", \"answer\": \"3\"}\n");
        QVERIFY(!DesignSearch::split(*few.tasks, {0.5, 0.25, 0.25}, 1, {}, error));
        QCOMPARE(q(error), QString("the search part has 1 task of 2; a paired interval needs at least 2 (use "
                                   "more tasks, or another --split)"));
    }

    void aFixedSeedSearchFindsAnExactFront()
    {
        const auto s = space(kModels);
        DesignSearch::Options options;
        options.budgetTrials = 4000;
        DesignSearch search(*m_engine, s, bundled({"math", "reasoning", "facts"}), options);
        const auto result = search.run();
        QVERIFY2(result.status == DesignSearch::Status::Finished, result.error.c_str());
        QCOMPARE(result.parts.search.size(), size_t(127));
        QCOMPARE(result.parts.validation.size(), size_t(63));
        QCOMPARE(result.parts.test.size(), size_t(54));
        QCOMPARE(result.rungTasks, (std::vector<size_t>{43, 127}));
        QCOMPARE(result.level, 0.975);
        QCOMPARE(result.candidates.size(), size_t(24));
        QVERIFY(result.exhausted);
        QCOMPARE(qlist(names(result, result.front)),
                 (QStringList{"#8 solo [e.model=local/frontier-70b, e.params.temperature=0.7]",
                              "#4 solo [e.model=local/reasoner-34b, e.params.temperature=0]",
                              "#2 solo [e.model=local/math-13b, e.params.temperature=0]",
                              "#3 solo [e.model=local/generalist-7b, e.params.temperature=0.7]", "#1 solo"}));
        QCOMPARE(result.searchTrials, int64_t(2544));
        QCOMPARE(result.validationTrials, int64_t(315));
        QCOMPARE(result.testTrials, int64_t(270));
        // Dropped with its evidence: writer-7b answers fewer right than generalist-7b at rung 0, code-13b
        // no more than it, at six times its cost.
        const auto& writer = result.candidates[5];
        QVERIFY(writer.status == CandidateStatus::Dropped);
        QCOMPARE(writer.droppedBy, 3);
        QCOMPARE(q(writer.why), QString("rung 0: #3 accuracy +23.3 pt [8.1, 38.4] at 97.5 % over 43 tasks"));
        QCOMPARE(q(result.candidates[6].why), QString("rung 0: #3 cost x0.165 [0.128, 0.216] at 97.5 % over 43 tasks"));
        // Measured once on test beside the base as drawn, the baseline of every delta.
        QVERIFY(result.test);
        QCOMPARE(qlist(result.testDesigns),
                 (QStringList{"solo (as drawn)", "solo [e.model=local/frontier-70b, e.params.temperature=0.7]",
                              "solo [e.model=local/reasoner-34b, e.params.temperature=0]",
                              "solo [e.model=local/math-13b, e.params.temperature=0]",
                              "solo [e.model=local/generalist-7b, e.params.temperature=0.7]"}));
        const auto& frontier = result.test->designs[1];
        QCOMPARE(frontier.overall.correct, int64_t(49));
        QCOMPARE(frontier.overall.scored, int64_t(54));
        QCOMPARE(QString::number(frontier.vsBaseline->accuracyDelta, 'f', 4), QString("0.6111"));
        QCOMPARE(QString::number(frontier.vsBaseline->accuracyDeltaCi.lo, 'f', 4), QString("0.4768"));
        QCOMPARE(QString::number(frontier.vsBaseline->accuracyDeltaCi.hi, 'f', 4), QString("0.7454"));
    }

    void aCandidateTiedWithTheBestIsNeverDropped()
    {
        // Temperature changes nothing the simulator draws: each model's two temperatures tie exactly.
        const auto s = space(kModels);
        DesignSearch::Options options;
        options.budgetTrials = 4000;
        DesignSearch search(*m_engine, s, bundled({"math", "reasoning", "facts"}), options);
        const auto result = search.run();
        const auto& frontier = result.candidates[7];
        QVERIFY(frontier.status == CandidateStatus::Front);
        for (const auto& c : result.candidates) {
            if (c.twinOf == 0 || result.candidates[size_t(c.twinOf - 1)].status == CandidateStatus::Dropped)
                continue;
            QVERIFY(c.status == CandidateStatus::Alive);
            QCOMPARE(c.droppedBy, 0);
            QVERIFY(q(c.why).startsWith("came out exactly as #"));
        }
        QCOMPARE(result.candidates[15].twinOf, 8); // frontier-70b at temperature 0
        // A twin of a dropped candidate goes with it.
        QVERIFY(result.candidates[11].status == CandidateStatus::Dropped);
        QCOMPARE(q(result.candidates[11].why),
                 QString("came out exactly as #6, dropped: rung 0: #3 accuracy +23.3 pt [8.1, 38.4] at 97.5 % over 43 tasks"));
        // Equal figures from different trials: neither is shown better, either way.
        const auto a = trialsOf({{true, 1}, {false, 1}, {true, 1}, {false, 1}});
        const auto b = trialsOf({{false, 1}, {true, 1}, {false, 1}, {true, 1}});
        const std::vector<size_t> tasks{0, 1, 2, 3};
        const std::vector<Objective> objectives{Objective::Accuracy, Objective::Cost};
        QVERIFY(!CandidateDominance::shown(a, b, tasks, objectives, 0.95, 1));
        QVERIFY(!CandidateDominance::shown(b, a, tasks, objectives, 0.95, 1));
        QVERIFY(!CandidateDominance::dominates(a.figures(tasks), b.figures(tasks), objectives));
        // Better on accuracy, within noise: not shown; at the same cost and clearly better: shown.
        const auto c = trialsOf({{true, 1}, {true, 1}, {true, 1}, {false, 1}});
        QVERIFY(CandidateDominance::dominates(c.figures(tasks), a.figures(tasks), objectives));
        QVERIFY(!CandidateDominance::shown(c, a, tasks, objectives, 0.95, 1));
        std::vector<std::pair<bool, double>> cheap;
        std::vector<std::pair<bool, double>> dear;
        std::vector<size_t> many;
        for (size_t i = 0; i < 20; ++i) {
            cheap.emplace_back(i % 2 == 0, 1.0 + 0.01 * double(i));
            dear.emplace_back(i % 2 == 0, 2.0);
            many.push_back(i);
        }
        const auto evidence = CandidateDominance::shown(trialsOf(cheap), trialsOf(dear), many, objectives, 0.975, 3);
        QVERIFY(evidence);
        QCOMPARE(q(*evidence), QString("cost x0.547 [0.532, 0.561] at 97.5 % over 20 tasks"));
    }

    void aJournaledSearchResumesToTheSameFront()
    {
        const auto s = space(kModels);
        const auto tasks = bundled({"math", "reasoning", "facts"});
        DesignSearch::Options options;
        options.budgetTrials = 3000;
        DesignSearch whole(*m_engine, s, tasks, options);
        const auto uninterrupted = whole.run();

        // Stopped after its first rung, then run again on the same journal.
        MemoryJournal journal;
        DesignSearch first(*m_engine, s, tasks, options);
        first.setJournal(&journal);
        first.setProgressHandler([&](const DesignSearch::Progress&) { first.stop("stopped by the test"); });
        const auto stopped = first.run();
        QVERIFY(stopped.status == DesignSearch::Status::Stopped);
        QCOMPARE(q(stopped.note), QString("stopped by the test"));
        QVERIFY(stopped.front.empty());
        QVERIFY(!stopped.test);
        const size_t keptRows = journal.rows();
        QVERIFY(keptRows > 0);

        DesignSearch second(*m_engine, s, tasks, options);
        second.setJournal(&journal);
        const auto resumed = second.run();
        QVERIFY(resumed.status == DesignSearch::Status::Finished);
        QCOMPARE(qlist(names(resumed, resumed.front)), qlist(names(uninterrupted, uninterrupted.front)));
        QCOMPARE(resumed.searchTrials, uninterrupted.searchTrials);
        QCOMPARE(resumed.keptTrials, int64_t(keptRows));
        QCOMPARE(resumed.test->designs[1].overall.correct, uninterrupted.test->designs[1].overall.correct);

        // A third run reads every trial back and runs none.
        DesignSearch third(*m_engine, s, tasks, options);
        third.setJournal(&journal);
        const auto again = third.run();
        QCOMPARE(again.keptTrials, again.searchTrials + again.validationTrials + again.testTrials);
        QCOMPARE(qlist(names(again, again.front)), qlist(names(uninterrupted, uninterrupted.front)));
    }

    void refusesAPaidBase()
    {
        auto team = *teamFromJsonText(kSolo).team;
        team.backends.begin()->second.kind = BackendKind::OpenAi;
        QCOMPARE(q(*DesignSearch::refusal({"paid.team.json", "", team})),
                 QString("paid.team.json: backend \"local\" calls a paid endpoint (openai), and a search never "
                         "spends money: calibrate its models (conclave calibrate) and search a local-moe copy, or "
                         "replay recorded calls (a recorded backend)"));
        QVERIFY(!DesignSearch::refusal({"solo.team.json", "", *teamFromJsonText(kSolo).team}));
    }

    void writtenTeamFilesValidateAndFindTheirFiles()
    {
        const fs::path dir = m_dir.path().toStdString();
        fs::create_directories(dir / "design" / "models");
        fs::copy_file(std::string(CONCLAVE_RESOURCES) + "/models/local-models.json",
                      dir / "design" / "models" / "mine.json", fs::copy_options::overwrite_existing);
        auto json = nlohmann::json::parse(kSolo);
        json["backends"]["local"]["models_file"] = "models/mine.json";
        const auto baseFile = (dir / "design" / "solo.team.json").string();
        std::ofstream(baseFile) << json.dump(2);
        auto loaded = loadTeamFile(baseFile);
        QVERIFY(loaded.team);
        std::string error;
        auto s = SearchSpace::fromFlags({"e.model=local/math-13b,local/frontier-70b"},
                                        {{baseFile, baseFile, *loaded.team}}, error);
        QVERIFY2(s, error.c_str());
        DesignSearch::Options options;
        options.budgetTrials = 2000;
        DesignSearch search(*m_engine, *s, bundled({"math"}), options);
        const auto result = search.run();
        QVERIFY(!result.front.empty());
        const auto out = dir / "out" / "front";
        QVERIFY(!SearchOutput::prepare(out, false));
        auto report = SearchReport::toJson(result, options, "s-test", "conclave search ...");
        const auto files = SearchOutput::fileNames(out, report, {baseFile}, {"solo"});
        QCOMPARE(q(fs::path(files.front()).filename().string()), QString("01-solo-c2.team.json"));
        report = SearchReport::toJson(result, options, "s-test", "conclave search ...", files);
        QVERIFY(!SearchOutput::write(out, report, {baseFile}));
        for (const auto& file : files) {
            auto written = loadTeamFile(file);
            QVERIFY2(written.team, file.c_str());
            QCOMPARE(q(*written.team->backends.begin()->second.modelsFile), QString("../../design/models/mine.json"));
            ValidationContext context;
            context.teamFolder = out;
            for (const auto& problem : validate(*written.team, context))
                QVERIFY2(!problem.isError(), problem.message.c_str());
            QVERIFY(fs::exists(ModelsFile::resolve(*written.team->backends.begin()->second.modelsFile, out)));
            QVERIFY(q(written.team->description.value_or("")).startsWith("Found by conclave search s-test (on the simulator)"));
        }
        // A folder with files in it needs --force.
        QCOMPARE(q(*SearchOutput::prepare(out, false)),
                 q(out.string() + ": not empty; give --force to write the front's team files into it anyway"));
        QVERIFY(!SearchOutput::prepare(out, true));
    }
};

QTEST_GUILESS_MAIN(TestDesignSearch)
#include "tst_designsearch.moc"

// Every run ends, on thousands of generated teams: a RapidCheck property over
// batches of generated teams (tests/support/TeamGenerator.h), each run checked
// against the engine's invariants (tests/support/RunInvariants.h) and against
// its stored copy. A failing batch is shrunk to one small team, printed as a
// team file with its seed, input and cancellation time, ready for
// `conclave run` and for tests/data/generated/.
//
// CONCLAVE_GEN_SEED=N explores other seeds; CONCLAVE_GEN_RUNS=N changes how many runs.
#include <QtTest>

#include "support/ClockComparison.h"
#include "support/EngineTestKit.h"
#include "support/RunInvariants.h"
#include "support/TeamGenerator.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/routing/ScorerFile.h"
#include "conclave/store/RunStore.h"

#include <QTemporaryDir>

#include <rapidcheck.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <sstream>

using namespace enginetest;
using teamgen::GeneratedCase;

namespace {

#if defined(__SANITIZE_THREAD__)
constexpr int kTargetRuns = 1000;
#elif defined(__SANITIZE_ADDRESS__)
constexpr int kTargetRuns = 2000;
#else
constexpr int kTargetRuns = 10000;
#endif
constexpr int kBatch = 40; // cases started at once, at most
constexpr uint64_t kSeed = 20261201;
constexpr int kShrinkSeconds = 240;

int envInt(const char* name, int fallback)
{
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

} // namespace

class TestGeneratedTeams : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    std::unique_ptr<RunQueries> m_reader;
    std::atomic<int> m_passedRuns{0};
    std::atomic<int> m_runs{0};
    std::atomic<int> m_timingFree{0};
    std::atomic<int> m_cancelled{0};
    std::atomic<int> m_agreementSkips{0}; // synthesize nodes that answered without their model
    std::atomic<int> m_memberMeetings{0}; // meetings held as another meeting's member
    std::atomic<int> m_scoredRounds{0};   // rounds whose stop was decided by a scorer
    std::atomic<int> m_learnedRoutes{0};  // routes a learned router chose
    // The case of the last failure, and when the first failure was seen:
    // shrinking stops after kShrinkSeconds, keeping the smallest failing team found by then.
    std::optional<GeneratedCase> m_failed;
    std::optional<std::chrono::steady_clock::time_point> m_firstFailure;

    struct Trial {
        const GeneratedCase* c = nullptr;
        size_t index = 0; // in the batch
        bool simulated = false; // on the virtual clock
        int copy = 0;           // of the virtual runs of its case
        std::shared_ptr<const RunPlan> plan;
        invariants::EventLog log;
        std::unique_ptr<RunRecorder> recorder; // the real run and the first virtual copy are stored
        std::shared_ptr<Run> run;
        RunResult result;
        double watchdogMs = 0;
        bool ended = false;
    };

    // Runs one batch at once: each case twice on the virtual clock and once on
    // the real one. The broken invariants of the first bad case, or empty.
    std::string runBatch(const std::vector<GeneratedCase>& batch)
    {
        struct Prepared {
            Team team;
            std::shared_ptr<const RunPlan> plan;
            double watchdogMs = 0;
        };
        // Everything is loaded before anything starts, so a bad case leaves no run behind.
        std::vector<Prepared> prepared;
        for (size_t i = 0; i < batch.size(); ++i) {
            auto loaded = teamFromJson(batch[i].team);
            if (!loaded.team) {
                std::string why;
                for (const auto& p : loaded.problems)
                    why += p.message + "; ";
                m_failed = batch[i];
                return "case " + std::to_string(i) + ": the generated team does not load: " + why;
            }
            std::string error;
            auto plan = RunPlan::make(*loaded.team, error);
            if (!plan) {
                m_failed = batch[i];
                return "case " + std::to_string(i) + ": " + error;
            }
            const auto& block = loaded.team->backends.begin()->second;
            const auto profiles = LocalResponder::resolve(m_h.engine().resources().localModels,
                                                          block.models.value_or(std::map<std::string, ModelProfile>{}));
            const double worst = invariants::worstPathMs(*plan, profiles);
            prepared.push_back(
                {std::move(*loaded.team), std::move(plan), std::max(5000.0, 50.0 * worst * teamgen::kTimeScale)});
        }
        std::vector<std::unique_ptr<Trial>> trials;
        std::string failure;
        for (size_t i = 0; i < batch.size() && failure.empty(); ++i) {
            const auto& c = batch[i];
            for (int kind = 0; kind < 3; ++kind) {
                auto t = std::make_unique<Trial>();
                t->c = &c;
                t->index = i;
                t->simulated = kind > 0;
                t->copy = kind - 1;
                t->plan = prepared[i].plan;
                t->watchdogMs = prepared[i].watchdogMs;
                Engine::StartOptions options{
                    c.seed, {&t->log}, t->simulated ? ClockRequest::Virtual : ClockRequest::Real, {}, {}};
                if (kind < 2) {
                    std::string error;
                    t->recorder = m_store->record(prepared[i].team, error);
                    if (!t->recorder) {
                        failure = "the store refuses the run: " + error;
                        break;
                    }
                    options.observers.push_back(t->recorder.get());
                }
                // A stop on the virtual clock happens at its exact simulated moment; on the real one, below.
                if (t->simulated && c.cancelAtMs)
                    options.cancelAfterMs = double(*c.cancelAtMs);
                auto started = m_h.engine().start(prepared[i].team, c.input, std::move(options));
                if (!started.run) {
                    m_failed = c;
                    failure = "case " + std::to_string(i) + ": the generated team does not start: " + started.error;
                    break;
                }
                t->run = started.run;
                trials.push_back(std::move(t));
            }
        }
        const auto begin = std::chrono::steady_clock::now();
        // The real runs' cancellations in time order, from this thread.
        std::vector<Trial*> toCancel;
        for (auto& t : trials) {
            if (t->c->cancelAtMs && !t->simulated)
                toCancel.push_back(t.get());
        }
        std::sort(toCancel.begin(), toCancel.end(),
                  [](const Trial* a, const Trial* b) { return *a->c->cancelAtMs < *b->c->cancelAtMs; });
        for (Trial* t : toCancel) {
            std::this_thread::sleep_until(
                begin + std::chrono::microseconds(int64_t(*t->c->cancelAtMs * teamgen::kTimeScale * 1000.0)));
            t->run->cancel();
        }
        for (auto& t : trials) {
            const auto limit = begin + std::chrono::microseconds(int64_t(t->watchdogMs * 1000.0));
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(limit - std::chrono::steady_clock::now());
            t->ended = t->run->waitFor(std::max(left, std::chrono::milliseconds(0)));
            if (!t->ended) {
                if (failure.empty()) {
                    m_failed = *t->c;
                    failure = "case " + std::to_string(t->index) + (t->simulated ? " (virtual clock)" : "") +
                              ": the run did not end within " + std::to_string(int64_t(t->watchdogMs)) +
                              " ms (50 x its longest possible path)";
                }
                t->run->cancel();
                if (!t->run->waitFor(10s)) {
                    // Not even a cancel ends it: say which team, then stop rather than hang ctest.
                    std::ostringstream os;
                    teamgen::showValue(*t->c, os);
                    std::fprintf(stderr, "%s\nand cancelling it did not end it either:\n%s\n", failure.c_str(),
                                 os.str().c_str());
                    std::fflush(stderr);
                    std::_Exit(3);
                }
            }
            t->result = t->run->wait();
        }
        m_runs += int(trials.size());
        if (!failure.empty())
            return failure;

        m_store->flush();
        // Per case: its first virtual run, which the other two are held to.
        std::map<size_t, const Trial*> reference;
        for (auto& t : trials) {
            if (t->simulated && t->copy == 0)
                reference[t->index] = t.get();
        }
        for (auto& t : trials) {
            auto broken = invariants::check(*t->plan, t->result, t->log);
            if (t->recorder) {
                std::string error;
                const auto stored = m_reader->load(t->recorder->id(), false, error);
                if (!stored)
                    broken.push_back("the stored run does not load: " + error);
                else {
                    const auto more = invariants::checkStored(t->result, *stored);
                    broken.insert(broken.end(), more.begin(), more.end());
                }
            }
            const Trial& first = *reference.at(t->index);
            if (t->simulated && t->copy == 1) {
                // The virtual clock is exact: the same case gives byte-identical spans, whatever its shape.
                if (!(t->result.spans == first.result.spans))
                    broken.push_back("two runs on the virtual clock have different spans:\n" +
                                     invariants::spanDiff(first.result, t->result));
                if (invariants::outcome(t->result) != invariants::outcome(first.result))
                    broken.push_back("two runs on the virtual clock differ:\n" + invariants::outcome(first.result) +
                                     "--- and ---\n" + invariants::outcome(t->result));
            }
            if (!t->simulated && t->c->timingFree &&
                invariants::outcome(t->result) != invariants::outcome(first.result))
                broken.push_back("a timing-free case ends differently on the real clock:\n" +
                                 invariants::outcome(first.result) + "--- virtual, real ---\n" +
                                 invariants::outcome(t->result));
            if (!broken.empty()) {
                std::string out = "case " + std::to_string(t->index) + (t->simulated ? " (virtual clock)" : "") + " (" +
                                  std::string(toString(t->result.status)) + "):";
                for (const auto& b : broken)
                    out += "\n  - " + b;
                m_failed = *t->c;
                return out;
            }
        }
        m_passedRuns += int(trials.size());
        for (const auto& t : trials) {
            for (const auto& [id, result] : t->result.results)
                m_agreementSkips += result.skippedModel.empty() ? 0 : 1;
            // A member meeting's node span is under a round; its first round under that span.
            for (const auto& s : t->result.spans)
                m_memberMeetings += s.kind == SpanKind::Round && s.round == 1 && s.parent > 0 &&
                                            t->result.spans[s.parent - 1].parent > 0
                                        ? 1
                                        : 0;
            for (const auto& s : t->result.spans) {
                m_scoredRounds += s.kind == SpanKind::Round && s.note.find("score ") != std::string::npos ? 1 : 0;
                m_learnedRoutes += s.kind == SpanKind::Node && s.note.starts_with("route ") ? 1 : 0;
            }
        }
        for (const auto& c : batch) {
            m_timingFree += c.timingFree ? 1 : 0;
            m_cancelled += c.cancelAtMs ? 1 : 0;
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        QVERIFY(m_dir.isValid());
        auto opened = RunStore::open(m_dir.filePath(QStringLiteral("generated.sqlite")).toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        m_store = std::move(opened.store);
        std::string error;
        m_reader = m_store->reader(error);
        QVERIFY2(m_reader, error.c_str());
        // Every generated model scored: p rises with stated confidence, from a base that differs by model.
        const auto& gate = *m_h.engine().resources().gate;
        ScorerModel scorer;
        scorer.buckets = uint32_t(gate.buckets());
        scorer.domains = gate.domains();
        const double bases[] = {-2.0, -0.5, 1.0};
        for (const auto& name : teamgen::generatedModelNames()) {
            const double bias = bases[scorer.models.size() % 3];
            scorer.models.push_back(name);
            scorer.answers.push_back(100);
            scorer.baseRates.push_back(0.5);
            scorer.linear.push_back({1, bias, {{scorer.promptDimension() + 4, 2.5}}});
        }
        const auto path = m_dir.filePath(QStringLiteral("scorer.json")).toStdString();
        QVERIFY(!writeFileAtomically(path, ScorerFile::toJsonText(scorer)));
        teamgen::generatedScorerFile() = path;
        // A router over every generated model: p falls with the prompt's digits, from a base that differs by model.
        RouterModel router;
        router.buckets = uint32_t(gate.buckets());
        router.domains = gate.domains();
        for (const auto& name : teamgen::generatedModelNames()) {
            router.models.push_back(name);
            router.answers.push_back(100);
            router.baseRates.push_back(0.5);
            router.linear.push_back({1, bases[router.models.size() % 3], {{router.buckets + 1, -3.0}}});
        }
        const auto routerPath = m_dir.filePath(QStringLiteral("router.json")).toStdString();
        QVERIFY(!writeFileAtomically(routerPath, RouterFile::toJsonText(router)));
        teamgen::generatedRouterFile() = routerPath;
    }

    void everyRunEndsAndKeepsItsInvariants()
    {
        const int target = envInt("CONCLAVE_GEN_RUNS", kTargetRuns);
        const uint64_t seed = uint64_t(envInt("CONCLAVE_GEN_SEED", int(kSeed)));
        const auto begin = std::chrono::steady_clock::now();
        int rounds = 0;
        while (m_passedRuns < target) {
            rc::detail::TestParams params;
            params.seed = seed + uint64_t(rounds++);
            params.maxSuccess = 50;
            params.maxSize = 100;
            rc::detail::TestMetadata metadata;
            metadata.id = "generated teams";
            metadata.description = "every generated run ends and keeps the engine's invariants";
            const auto result = rc::detail::checkTestable(
                [this] {
                    const auto batch = *rc::gen::resize(kBatch, rc::gen::container<std::vector<GeneratedCase>>(
                                                                    rc::gen::resize(100, teamgen::generatedCase())));
                    if (m_firstFailure &&
                        std::chrono::steady_clock::now() - *m_firstFailure > std::chrono::seconds(kShrinkSeconds))
                        return; // enough shrinking: what failed last is small enough to read
                    const auto broken = runBatch(batch);
                    if (broken.empty())
                        return;
                    if (!m_firstFailure) {
                        // Said at once, in case shrinking is cut short.
                        m_firstFailure = std::chrono::steady_clock::now();
                        std::ostringstream os;
                        teamgen::showValue(*m_failed, os);
                        std::fprintf(stderr, "A generated run broke an invariant (shrinking it next):\n%s\n%s\n",
                                     broken.c_str(), os.str().c_str());
                    }
                    RC_FAIL(broken);
                },
                metadata, params);
            if (!result.template is<rc::detail::SuccessResult>() || m_firstFailure) {
                std::ostringstream os;
                rc::detail::printResultMessage(result, os);
                if (m_failed) {
                    os << "\nThe smallest failing case found, as a team file for `conclave run FILE --input INPUT "
                          "--seed SEED` (a timing-dependent failure may need its cancellation time too):\n";
                    teamgen::showValue(*m_failed, os);
                }
                QFAIL(("RapidCheck seed " + std::to_string(params.seed) + ":\n" + os.str()).c_str());
            }
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        qInfo("%d generated runs passed (each case twice on the virtual clock and once on the real one; %d "
              "timing-free cases, %d cancelled; %d synthesize skips on agreement, %d member meetings held, %d rounds "
              "decided by a scorer, %d routes chosen by a learned router) in %.1f s, %d RapidCheck rounds",
              m_passedRuns.load(), m_timingFree.load(), m_cancelled.load(), m_agreementSkips.load(),
              m_memberMeetings.load(), m_scoredRounds.load(), m_learnedRoutes.load(), seconds, rounds);
        QVERIFY(m_passedRuns >= target);
        QVERIFY(m_agreementSkips > 0);  // the generator reaches the skip
        QVERIFY(m_memberMeetings > 0);  // and meetings as members
        QVERIFY(m_scoredRounds > 0);    // and scorers
        QVERIFY(m_learnedRoutes > 0);   // and learned routers
    }

    // Timing-free generated teams on both clocks, the real one slowed to a
    // scale where jitter is small beside the latencies: the same outcomes,
    // and span times apart by no more than the real clock's jitter.
    void timingFreeTeamsKeepTheirTimesOnTheRealClock()
    {
        constexpr double kRealScale = 0.2;
        constexpr double kLongestMs = 20000; // simulated: at most 4 s of real time each
        const auto gen =
            rc::gen::suchThat(teamgen::generatedCase(), [](const GeneratedCase& c) { return c.timingFree; });
        struct Case {
            GeneratedCase c;
            Team team;
            std::shared_ptr<const RunPlan> plan;
            std::shared_ptr<Run> real;
        };
        std::vector<Case> cases;
        rc::Random random(kSeed);
        for (int drawn = 0; cases.size() < 40 && drawn < 2000; ++drawn) {
            auto c = gen(random.split(), 60).value();
            auto loaded = teamFromJson(c.team);
            QVERIFY(loaded.team);
            std::string error;
            auto plan = RunPlan::make(*loaded.team, error);
            QVERIFY2(plan, error.c_str());
            const auto& block = loaded.team->backends.begin()->second;
            const auto profiles = LocalResponder::resolve(m_h.engine().resources().localModels,
                                                          block.models.value_or(std::map<std::string, ModelProfile>{}));
            if (invariants::worstPathMs(*plan, profiles) > kLongestMs)
                continue;
            for (auto& [name, backend] : loaded.team->backends)
                backend.timeScale = kRealScale;
            cases.push_back({std::move(c), std::move(*loaded.team), std::move(plan), {}});
        }
        QCOMPARE(cases.size(), size_t(40));
        for (auto& c : cases) {
            auto started =
                m_h.engine().start(c.team, c.c.input, Engine::StartOptions{c.c.seed, {}, ClockRequest::Real, {}, {}});
            QVERIFY2(started.run, started.error.c_str());
            c.real = started.run;
        }
        int64_t worst = 0;
        for (auto& c : cases) {
            const auto simulated = m_h.runVirtual(c.team, c.c.input, c.c.seed);
            QVERIFY(c.real->waitFor(60s));
            const auto real = c.real->wait();
            std::ostringstream shown;
            teamgen::showValue(c.c, shown);
            QVERIFY2(
                invariants::outcome(real) == invariants::outcome(simulated),
                (invariants::outcome(simulated) + "--- virtual, real ---\n" + invariants::outcome(real) + shown.str())
                    .c_str());
            const auto times = clockcompare::compareTimes(simulated, real, kRealScale);
            if (!times.unmatched.empty())
                QFAIL((times.unmatched.front() + "\n" + shown.str()).c_str());
            QVERIFY2(times.worstUs <= clockcompare::kJitterToleranceUs,
                     (times.worstSpan + " is " + std::to_string(times.worstUs) + " us off\n" + shown.str()).c_str());
            worst = std::max(worst, times.worstUs);
        }
        qInfo("40 timing-free teams: the same outcomes on both clocks, span times at most %.2f ms apart (team time)",
              double(worst) / 1000.0);
    }

    // Shrunk cases the generator found, kept as fixed teams (tests/data/generated).
    void regressions_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("input");
        QTest::addColumn<int>("seed");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<bool>("timingFree");
        // A debate behind an llm router's untaken route: its member was never settled.
        QTest::newRow("meeting behind an untaken route")
            << "meeting-behind-an-untaken-route.team.json" << "Write a haiku about the sea." << 1
            << "in=ok r1=ok a2=ok e3=ok c4=skipped e5=skipped e6=skipped out=ok" << false;
        // A decompose member solving two subtasks at once took the answer of
        // whichever reply came back last (found under ASan, where timing varies most).
        QTest::newRow("decompose member answers in part order")
            << "decompose-member-answers-in-part-order.team.json" << "What is the capital city of France?" << 35
            << "in=ok e1=ok c2=ok e3=ok e4=ok out=ok" << true;
    }
    void regressions()
    {
        QFETCH(QString, file);
        QFETCH(QString, input);
        QFETCH(int, seed);
        QFETCH(QString, outcome);
        QFETCH(bool, timingFree);
        GeneratedCase c;
        c.team = json::parse(readFile(QStringLiteral(CONCLAVE_TEST_DATA "/generated/") + file));
        c.input = input.toStdString();
        c.seed = uint64_t(seed);
        c.timingFree = timingFree;
        // More copies of a timing-free case give timing more chances to differ on the real clock.
        const std::vector<GeneratedCase> batch(timingFree ? 8 : 1, c);
        const auto broken = runBatch(batch);
        QVERIFY2(broken.empty(), broken.c_str());
        auto loaded = teamFromJson(c.team);
        QVERIFY(loaded.team);
        const auto result = m_h.run(*loaded.team, c.input, c.seed);
        QStringList nodes;
        for (const auto& n : loaded.team->nodes)
            nodes << q(n.id.str());
        QCOMPARE(statuses(result, nodes), outcome);
    }

    void cleanupTestCase()
    {
        m_reader.reset();
        m_h.reset();
        m_store.reset();
    }
};

QTEST_GUILESS_MAIN(TestGeneratedTeams)
#include "tst_generatedteams.moc"

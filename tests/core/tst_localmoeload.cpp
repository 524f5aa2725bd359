// The simulator's load (docs/simulator.md): max_concurrency queues a run's
// calls in order, the wait in waitUs; a call's inflight is the run's calls
// being served plus background_inflight, fixed at admission; its times grow
// by 1 + load_slope·(inflight − 1). Exact times on the virtual clock.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/local/LocalMoeBackend.h"
#include "conclave/local/LocalResponder.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

// Every call: a first token at 40 ms, the reply at 100 ms, on an idle backend.
class FixedResponder : public CallResponder {
public:
    explicit FixedResponder(double slope) : m_slope(slope) {}
    SimulatedCall respond(const ModelRequest& request) const override
    {
        SimulatedCall call;
        call.reply.ok = true;
        call.reply.text = "Answer: " + request.model;
        call.reply.plannedMs = 100;
        call.ttftMs = 40;
        call.totalMs = 100;
        call.firstChunk = "Answer:";
        call.loadSlope = m_slope;
        return call;
    }
    double costOf(std::string_view, int64_t, int64_t) const override { return 0; }

private:
    double m_slope;
};

struct Heard {
    std::mutex mutex;
    std::condition_variable changed;
    std::map<std::string, std::pair<int64_t, ModelReply>> replies;

    CallCallbacks callbacks(const std::string& name, RunClock& clock)
    {
        return {[](std::string_view) {},
                [this, name, &clock](ModelReply reply) {
                    std::lock_guard lock(mutex);
                    replies[name] = {clock.nowUs(), std::move(reply)};
                    changed.notify_all();
                }};
    }
    bool waitFor(size_t count)
    {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, 10s, [&] { return replies.size() >= count; });
    }
    QString summary(const std::string& name)
    {
        std::lock_guard lock(mutex);
        const auto& [at, reply] = replies.at(name);
        return QString("%1@%2 wait %3 inflight %4 planned %5%6")
            .arg(q(name))
            .arg(at)
            .arg(reply.waitUs)
            .arg(reply.inflight)
            .arg(reply.plannedMs)
            .arg(reply.cancelled ? " cancelled" : "");
    }
};

ModelRequest request(const std::string& model)
{
    ModelRequest r;
    r.model = model;
    r.runInput = "Q";
    return r;
}

struct Bench {
    ThreadPool pool{2};
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(pool);
    std::shared_ptr<LocalMoeBackend> backend;
    Heard heard;

    Bench(double slope, SimulatedLoad load)
        : backend(std::make_shared<LocalMoeBackend>(std::make_shared<FixedResponder>(slope), clock, 1.0, load))
    {
    }
    // Starts the calls at one instant, and cancels the one at `cancelled` (if any) at that instant too.
    void startAll(const std::vector<std::string>& names, std::optional<size_t> cancelled = std::nullopt)
    {
        std::vector<CallId> ids;
        RunClock::Hold hold(*clock);
        for (const auto& name : names)
            ids.push_back(backend->start(request(name), heard.callbacks(name, *clock)));
        if (cancelled)
            backend->cancel(ids[*cancelled]);
    }
};

} // namespace

class TestLocalMoeLoad : public QObject {
    Q_OBJECT

private slots:
    // Without a slope, load changes nothing: both end at 100 ms.
    void noSlopeNoLoad()
    {
        Bench b(0, {});
        b.startAll({"a", "b"});
        QVERIFY(b.heard.waitFor(2));
        QCOMPARE(b.heard.summary("a"), QString("a@100000 wait 0 inflight 1 planned 100"));
        QCOMPARE(b.heard.summary("b"), QString("b@100000 wait 0 inflight 2 planned 100"));
    }

    // load_slope 0.5: the second of two simultaneous calls is admitted with
    // two in flight and takes exactly 1.5 × 100 ms; the first, admitted
    // alone, 100 ms.
    void slopeStretchesACallByTheCallsInFlight()
    {
        Bench b(0.5, {});
        b.startAll({"a", "b"});
        QVERIFY(b.heard.waitFor(2));
        QCOMPARE(b.heard.summary("a"), QString("a@100000 wait 0 inflight 1 planned 100"));
        QCOMPARE(b.heard.summary("b"), QString("b@150000 wait 0 inflight 2 planned 150"));
    }

    // background_inflight 2 adds to every call's inflight: 3 and 4 calls, × 2 and × 2.5.
    void backgroundCallsAddToTheLoad()
    {
        Bench b(0.5, {0, 2});
        b.startAll({"a", "b"});
        QVERIFY(b.heard.waitFor(2));
        QCOMPARE(b.heard.summary("a"), QString("a@200000 wait 0 inflight 3 planned 200"));
        QCOMPARE(b.heard.summary("b"), QString("b@250000 wait 0 inflight 4 planned 250"));
    }

    // max_concurrency 1: three calls at one instant are served one after
    // another, in order; each waits for the one before.
    void maxConcurrencyQueuesInOrder()
    {
        Bench b(0, {1, 0});
        b.startAll({"a", "b", "c"});
        QVERIFY(b.heard.waitFor(3));
        QCOMPARE(b.heard.summary("a"), QString("a@100000 wait 0 inflight 1 planned 100"));
        QCOMPARE(b.heard.summary("b"), QString("b@200000 wait 100000 inflight 1 planned 100"));
        QCOMPARE(b.heard.summary("c"), QString("c@300000 wait 200000 inflight 1 planned 100"));
    }

    // max_concurrency 2 with a slope: the third call waits for a slot, then
    // is served beside the second (inflight 2).
    void queueAndSlopeTogether()
    {
        Bench b(0.5, {2, 1});
        b.startAll({"a", "b", "c"});
        QVERIFY(b.heard.waitFor(3));
        // a: inflight 1 + 1 background → 150 ms; b: 2 + 1 → 200 ms; c admitted at 150 ms beside b: 2 + 1 → 200 ms.
        QCOMPARE(b.heard.summary("a"), QString("a@150000 wait 0 inflight 2 planned 150"));
        QCOMPARE(b.heard.summary("b"), QString("b@200000 wait 0 inflight 3 planned 200"));
        QCOMPARE(b.heard.summary("c"), QString("c@350000 wait 150000 inflight 3 planned 200"));
    }

    // A waiting call that is cancelled leaves the queue and says so at once;
    // the call after it takes its turn.
    void cancellingAWaitingCall()
    {
        Bench b(0, {1, 0});
        b.startAll({"a", "b", "c"}, 1);
        QVERIFY(b.heard.waitFor(3));
        QCOMPARE(b.heard.summary("b"), QString("b@0 wait -1 inflight 0 planned 0 cancelled"));
        QCOMPARE(b.heard.summary("a"), QString("a@100000 wait 0 inflight 1 planned 100"));
        QCOMPARE(b.heard.summary("c"), QString("c@200000 wait 100000 inflight 1 planned 100"));
    }

    // LocalResponder hands the profile's load_slope to the backend.
    void responderSetsTheSlopeFromTheProfile()
    {
        ModelProfile sloped;
        sloped.skills = std::map<std::string, double>{{"math", 0.5}};
        sloped.loadSlope = 0.25;
        const auto profiles = LocalResponder::resolve({{"m", sloped}, {"flat", ModelProfile{}}}, {});
        LocalResponder responder(profiles, nullptr, nullptr, 1);
        QCOMPARE(responder.respond(request("m")).loadSlope, 0.25);
        QCOMPARE(responder.respond(request("flat")).loadSlope, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestLocalMoeLoad)
#include "tst_localmoeload.moc"

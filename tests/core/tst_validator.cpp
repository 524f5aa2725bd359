// Tests conclave::validate() on whole teams and on the rules of FieldChecks:
// valid teams, teams built in C++, the examples, the format version, prompt
// templates, ranges, model profiles, backends, secrets, unknown keys and
// models; each row asserts the exact list of problems (severity, pointer,
// message, node, edge).
#include <QtTest>

#include "support/ValidatorTestKit.h"

using namespace validatortest;

class TestValidator : public QObject, private ValidatorRows {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(loadCatalog()); }

    void validTeams_data();
    void validTeams() { verifyRow(); }
    void minimalCppTeam();
    void cppTeams_data();
    void cppTeams();
    void examples_data();
    void examples();
    void formatVersion_data();
    void formatVersion();

    void templates_data();
    void templates() { verifyRow(); }
    void ranges_data();
    void ranges() { verifyRow(); }
    void profiles_data();
    void profiles() { verifyRow(); }
    void openAiBackend_data();
    void openAiBackend() { verifyRow(); }
    void secrets_data();
    void secrets() { verifyRow(); }
    void unknownKeys_data();
    void unknownKeys() { verifyRow(); }
    void models_data();
    void models() { verifyRow(); }
    void backendResolution_data();
    void backendResolution() { verifyRow(); }
};

void TestValidator::validTeams_data()
{
    addColumns();
    row("minimal", unchanged(minimal), {}, kModels);
    row("coordinator", unchanged(coordinatorTeam), {}, kModels);
    row("router", unchanged(routerTeam), {}, kModels);
    row("aggregator", unchanged(aggregatorTeam), {}, kModels);
    row("keyword router", unchanged(keywordTeam), {}, kModels);
    row("every field set", unchanged(richTeam), {}, kModels);
    row("no local model catalog", unchanged(richTeam), {});
}

void TestValidator::minimalCppTeam()
{
    const Team team = minimalTeam();
    compareProblems(render(validate(team)), {});
    ValidationContext context;
    context.localModels = catalogModels();
    compareProblems(render(validate(team, context)), {});

    // The C++ helper and the JSON team it stands for are the same team.
    const auto loaded = teamFromJson(minimal());
    QVERIFY(loaded.team);
    QVERIFY(*loaded.team == team);
}

// Teams an editor can hold that no JSON file can express.
void TestValidator::cppTeams_data()
{
    QTest::addColumn<TeamEdit>("change");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("unchanged") << TeamEdit([](Team&) {}) << QStringList();
    QTest::newRow("NaN temperature") << TeamEdit([](Team& t) {
        t.nodes[1].config.call.params = ModelParams{};
        t.nodes[1].config.call.params->temperature = std::numeric_limits<double>::quiet_NaN();
    }) << QStringList{err("/nodes/1/params/temperature", "expected a number from 0 to 2, got nan", {.node = "e"})};
    QTest::newRow("infinite weight") << TeamEdit([](Team& t) {
        t.nodes[1].config.weight = std::numeric_limits<double>::infinity();
    }) << QStringList{err("/nodes/1/weight", "expected a non-negative number, got inf", {.node = "e"})};
    QTest::newRow("edge to a removed node")
        << TeamEdit([](Team& t) { t.nodes.erase(t.nodes.begin() + 1); })
        << QStringList{err("/edges/0/to", "unknown node \"e\"", {.edge = 0}),
                       err("/edges/1/from", "unknown node \"e\"", {.edge = 1}),
                       err("/nodes/1", "an output node needs exactly one incoming edge, has 0", {.node = "out"}),
                       warn("/nodes/1", "\"out\" is not reachable from the input", {.node = "out"}),
                       err("/nodes", "no output node is reachable from the input")};
}

void TestValidator::cppTeams()
{
    QFETCH(TeamEdit, change);
    QFETCH(QStringList, expected);
    Team team = minimalTeam();
    change(team);
    compareProblems(render(validate(team)), expected);
}

void TestValidator::examples_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(QStringLiteral(CONCLAVE_RESOURCES "/examples"));
    const auto names = dir.entryList({QStringLiteral("*.team.json")}, QDir::Files, QDir::Name);
    QVERIFY(names.size() >= 6);
    for (const auto& name : names)
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
}

// Every shipped example is valid against the shipped local models, without a warning.
void TestValidator::examples()
{
    QFETCH(QString, path);
    const auto loaded = loadTeamFile(path.toStdString());
    QCOMPARE(render(loaded.problems), QStringList());
    QVERIFY(loaded.team);
    ValidationContext context;
    context.localModels = catalogModels();
    compareProblems(render(validate(*loaded.team, context)), {});
}

// "conclave" is the one FieldRule key the reader enforces rather than validate().
void TestValidator::formatVersion_data()
{
    QTest::addColumn<int>("version");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("0") << 0 << QStringList{err("/conclave", "expected format version 1 to 3, got 0")};
    QTest::newRow("-1") << -1 << QStringList{err("/conclave", "expected format version 1 to 3, got -1")};
    QTest::newRow("1") << 1 << QStringList();
    QTest::newRow("2") << 2 << QStringList();
    QTest::newRow("3") << 3 << QStringList();
    QTest::newRow("4") << 4
                       << QStringList{err("/conclave", "format version 4 is newer than this Conclave understands (3); "
                                                       "upgrade Conclave to open this team")};
    QTest::newRow("5") << 5
                       << QStringList{err("/conclave", "format version 5 is newer than this Conclave understands (3); "
                                                       "upgrade Conclave to open this team")};
}

void TestValidator::formatVersion()
{
    QFETCH(int, version);
    QFETCH(QStringList, expected);
    auto doc = minimal();
    doc["conclave"] = version;
    const auto loaded = teamFromJsonText(doc.dump());
    compareProblems(render(loaded.problems), expected);
    QCOMPARE(loaded.team.has_value(), expected.isEmpty());
}

void TestValidator::templates_data()
{
    addColumns();
    const auto prompt = [](const std::string& text) { return setAt(minimal, "/nodes/1/prompt", text); };
    const std::string member = "{{transcript}} is only filled in for a coordinator's members";
    row("input and inputs", prompt("{{input}} {{inputs}}"), {});
    row("spaces inside braces", prompt("{{ input }} {{  inputs }}"), {});
    row("from an upstream node", prompt("{{from.in}}"), {});
    row("from a node two hops up",
        edit(aggregatorTeam,
             [](json& t) {
                 t["nodes"][3]["strategy"] = "synthesize";
                 t["nodes"][3]["model"] = "local/math-13b";
                 t["nodes"][3]["prompt"] = "{{from.in}} {{from.a}} {{from.b}}";
             }),
        {});
    row("from a sibling", setAt(aggregatorTeam, "/nodes/1/prompt", "{{from.b}}"),
        {err("/nodes/1/prompt", "{{from.b}} refers to \"b\", which is not upstream of \"a\"", {.node = "a"})});
    row("from a downstream node", prompt("{{from.out}}"),
        {err("/nodes/1/prompt", "{{from.out}} refers to \"out\", which is not upstream of \"e\"", {.node = "e"})});
    row("from itself", prompt("{{from.e}}"),
        {err("/nodes/1/prompt", "{{from.e}} refers to \"e\", which is not upstream of \"e\"", {.node = "e"})});
    row("from an unknown node", prompt("{{from.ghost}}"),
        {err("/nodes/1/prompt", "{{from.ghost}} refers to \"ghost\", which is not upstream of \"e\"", {.node = "e"})});
    row("in the system prompt", setAt(minimal, "/nodes/1/system", "{{from.out}}"),
        {err("/nodes/1/system", "{{from.out}} refers to \"out\", which is not upstream of \"e\"", {.node = "e"})});
    row("system and prompt",
        edit(minimal,
             [](json& t) {
                 t["nodes"][1]["system"] = "{{colour}}";
                 t["nodes"][1]["prompt"] = "{{size}}";
             }),
        {warn("/nodes/1/system", "unknown placeholder {{colour}}", {.node = "e"}),
         warn("/nodes/1/prompt", "unknown placeholder {{size}}", {.node = "e"})});
    row("unknown placeholder", prompt("Answer {{question}}"),
        {warn("/nodes/1/prompt", "unknown placeholder {{question}}", {.node = "e"})});
    row("unknown placeholder with spaces", prompt("{{ question }}"),
        {warn("/nodes/1/prompt", "unknown placeholder {{question}}", {.node = "e"})});
    // One problem per placeholder and field, however often it is repeated.
    row("the same unknown placeholder twice", prompt("{{question}} and {{question}}"),
        {warn("/nodes/1/prompt", "unknown placeholder {{question}}", {.node = "e"})});
    row("the same bad reference twice", prompt("{{from.out}} {{from.out}}"),
        {err("/nodes/1/prompt", "{{from.out}} refers to \"out\", which is not upstream of \"e\"", {.node = "e"})});
    row("transcript outside a meeting", prompt("{{transcript}}"), {warn("/nodes/1/prompt", member, {.node = "e"})});
    row("round outside a meeting", prompt("{{round}}"),
        {warn("/nodes/1/prompt", "{{round}} is only filled in for a coordinator's members", {.node = "e"})});
    row("task outside a meeting", prompt("{{task}}"),
        {warn("/nodes/1/prompt", "{{task}} is only filled in for a coordinator's members", {.node = "e"})});
    row("meeting placeholders in a member",
        setAt(coordinatorTeam, "/nodes/2/prompt", "{{task}} {{round}} {{transcript}} {{input}} {{inputs}}"), {});
    row("member reading its coordinator's input", setAt(coordinatorTeam, "/nodes/2/prompt", "{{from.in}}"), {});
    // The coordinator's own result does not exist yet while its members speak.
    row("member reading its coordinator", setAt(coordinatorTeam, "/nodes/2/prompt", "{{from.c}}"),
        {err("/nodes/2/prompt", "{{from.c}} refers to \"c\", which is not upstream of \"m\"", {.node = "m"})});
    row("templates are not checked on a cycle",
        edit(minimal,
             [](json& t) {
                 t["nodes"][1]["prompt"] = "{{from.out}}";
                 t["edges"].push_back(edgeJson("e", "e"));
             }),
        {err("/edges/2", "cycle: e -> e", {.node = "e", .edge = 2})});
}

void TestValidator::ranges_data()
{
    addColumns();
    // One row per key of the FieldRule table at a bad value, and at the boundary that is still good.
    struct Range {
        const char* name;
        std::string pointer;
        json value;
        std::string expected; // empty: valid
        std::optional<std::string> node = {};
    };
    const std::vector<Range> ranges{
        {"timeout_ms 0 (node)", "/nodes/2/timeout_ms", 0, "expected a positive integer, got 0", "e"},
        {"timeout_ms 1 (node)", "/nodes/2/timeout_ms", 1, "", {}},
        {"timeout_ms 0 (defaults)", "/defaults/timeout_ms", 0, "expected a positive integer, got 0", {}},
        {"timeout_ms 1 (defaults)", "/defaults/timeout_ms", 1, "", {}},
        {"deadline_ms 0", "/nodes/5/deadline_ms", 0, "expected a positive integer, got 0", "v"},
        {"deadline_ms 1", "/nodes/5/deadline_ms", 1, "", {}},
        {"max_wall_ms 0", "/budget/max_wall_ms", 0, "expected a positive integer, got 0", {}},
        {"max_wall_ms 1", "/budget/max_wall_ms", 1, "", {}},
        {"connect_timeout_ms 0", "/backends/oa/connect_timeout_ms", 0, "expected a positive integer, got 0", {}},
        {"connect_timeout_ms 1", "/backends/oa/connect_timeout_ms", 1, "", {}},
        {"max_tokens 0 (node params)", "/nodes/2/params/max_tokens", 0, "expected a positive integer, got 0", "e"},
        {"max_tokens 1 (node params)", "/nodes/2/params/max_tokens", 1, "", {}},
        {"max_tokens 0 (default params)", "/defaults/params/max_tokens", 0, "expected a positive integer, got 0", {}},
        {"max_tokens 1 (default params)", "/defaults/params/max_tokens", 1, "", {}},
        {"max_tokens 0 (budget)", "/budget/max_tokens", 0, "expected a positive integer, got 0", {}},
        {"max_tokens 1 (budget)", "/budget/max_tokens", 1, "", {}},
        {"context_tokens 0", kProfile + "/context_tokens", 0, "expected a positive integer, got 0", {}},
        {"context_tokens 1", kProfile + "/context_tokens", 1, "", {}},
        {"max_concurrency 0", "/backends/oa/max_concurrency", 0, "expected a positive integer, got 0", {}},
        {"max_concurrency 1", "/backends/oa/max_concurrency", 1, "", {}},
        {"requests_per_minute 0", "/backends/oa/requests_per_minute", 0, "expected a positive integer, got 0", {}},
        {"requests_per_minute 1", "/backends/oa/requests_per_minute", 1, "", {}},
        {"retries -1", "/nodes/2/retries", -1, "expected an integer from 0 to 10, got -1", "e"},
        {"retries 0", "/nodes/2/retries", 0, "", {}},
        {"retries 10", "/nodes/2/retries", 10, "", {}},
        {"retries 11", "/nodes/2/retries", 11, "expected an integer from 0 to 10, got 11", "e"},
        {"retries 11 (defaults)", "/defaults/retries", 11, "expected an integer from 0 to 10, got 11", {}},
        {"top_k 0", "/nodes/1/top_k", 0, "expected an integer of at least 1, got 0", "r"},
        {"top_k 1", "/nodes/1/top_k", 1, "", {}},
        {"quorum 0", "/nodes/5/quorum", 0, "expected an integer of at least 1, got 0", "v"},
        {"quorum 1", "/nodes/5/quorum", 1, "", {}},
        {"max_rounds 0", "/nodes/3/max_rounds", 0, "expected an integer from 1 to 100, got 0", "c"},
        {"max_rounds 1", "/nodes/3/max_rounds", 1, "", {}},
        {"max_rounds 100", "/nodes/3/max_rounds", 100, "", {}},
        {"max_rounds 101", "/nodes/3/max_rounds", 101, "expected an integer from 1 to 100, got 101", "c"},
        {"seed -1", "/backends/local/seed", -1, "expected a non-negative integer, got -1", {}},
        {"seed 0", "/backends/local/seed", 0, "", {}},
        {"temperature -0.5", "/nodes/2/params/temperature", -0.5, "expected a number from 0 to 2, got -0.5", "e"},
        {"temperature 0", "/nodes/2/params/temperature", 0, "", {}},
        {"temperature 2", "/nodes/2/params/temperature", 2, "", {}},
        {"temperature 2.5", "/nodes/2/params/temperature", 2.5, "expected a number from 0 to 2, got 2.5", "e"},
        {"temperature 2.5 (defaults)",
         "/defaults/params/temperature",
         2.5,
         "expected a number from 0 to 2, got 2.5",
         {}},
        {"top_p -0.1", "/nodes/2/params/top_p", -0.1, "expected a number from 0 to 1, got -0.1", "e"},
        {"top_p 0", "/nodes/2/params/top_p", 0, "", {}},
        {"top_p 1", "/nodes/2/params/top_p", 1, "", {}},
        {"top_p 1.5", "/nodes/2/params/top_p", 1.5, "expected a number from 0 to 1, got 1.5", "e"},
        {"top_p 1.5 (defaults)", "/defaults/params/top_p", 1.5, "expected a number from 0 to 1, got 1.5", {}},
        {"min_weight -0.1", "/nodes/1/min_weight", -0.1, "expected a number from 0 to 1, got -0.1", "r"},
        {"min_weight 0", "/nodes/1/min_weight", 0, "", {}},
        {"min_weight 1", "/nodes/1/min_weight", 1, "", {}},
        {"min_weight 1.5", "/nodes/1/min_weight", 1.5, "expected a number from 0 to 1, got 1.5", "r"},
        {"min_confidence -0.1", "/nodes/5/min_confidence", -0.1, "expected a number from 0 to 1, got -0.1", "v"},
        {"min_confidence 0", "/nodes/5/min_confidence", 0, "", {}},
        {"min_confidence 1", "/nodes/5/min_confidence", 1, "", {}},
        {"min_confidence 1.5", "/nodes/5/min_confidence", 1.5, "expected a number from 0 to 1, got 1.5", "v"},
        {"threshold -0.1", "/nodes/3/threshold", -0.1, "expected a number from 0 to 1, got -0.1", "c"},
        {"threshold 0", "/nodes/3/threshold", 0, "", {}},
        {"threshold 1", "/nodes/3/threshold", 1, "", {}},
        {"threshold 1.5", "/nodes/3/threshold", 1.5, "expected a number from 0 to 1, got 1.5", "c"},
        {"failure_rate -0.1", kProfile + "/failure_rate", -0.1, "expected a number from 0 to 1, got -0.1", {}},
        {"failure_rate 0", kProfile + "/failure_rate", 0, "", {}},
        {"failure_rate 1", kProfile + "/failure_rate", 1, "", {}},
        {"failure_rate 1.5", kProfile + "/failure_rate", 1.5, "expected a number from 0 to 1, got 1.5", {}},
        {"skill -0.1", kProfile + "/skills/math", -0.1, "expected a number from 0 to 1, got -0.1", {}},
        {"skill 0", kProfile + "/skills/math", 0, "", {}},
        {"skill 1", kProfile + "/skills/math", 1, "", {}},
        {"skill 1.5", kProfile + "/skills/math", 1.5, "expected a number from 0 to 1, got 1.5", {}},
        {"consensus 0", "/nodes/3/consensus", 0, "expected a number above 0 and at most 1, got 0", "c"},
        {"consensus 0.01", "/nodes/3/consensus", 0.01, "", {}},
        {"consensus 1", "/nodes/3/consensus", 1, "", {}},
        {"consensus 1.5", "/nodes/3/consensus", 1.5, "expected a number above 0 and at most 1, got 1.5", "c"},
        {"weight -1", "/nodes/2/weight", -1, "expected a non-negative number, got -1", "e"},
        {"weight 0", "/nodes/2/weight", 0, "", {}},
        {"time_scale 0", "/backends/local/time_scale", 0, "expected a positive number, got 0", {}},
        {"time_scale -1", "/backends/local/time_scale", -1, "expected a positive number, got -1", {}},
        {"time_scale 0.001", "/backends/local/time_scale", 0.001, "", {}},
        {"max_cost_usd 0", "/budget/max_cost_usd", 0, "expected a positive number, got 0", {}},
        {"max_cost_usd 0.01", "/budget/max_cost_usd", 0.01, "", {}},
        // The value in the message is the value in the file, not a rounded or scientific form of it.
        {"temperature 2.0000001", "/nodes/2/params/temperature", 2.0000001,
         "expected a number from 0 to 2, got 2.0000001", "e"},
        {"retries 1000000", "/nodes/2/retries", 1000000, "expected an integer from 0 to 10, got 1000000", "e"},
        {"timeout_ms -1234567", "/nodes/2/timeout_ms", -1234567, "expected a positive integer, got -1234567", "e"},
    };
    for (const auto& r : ranges) {
        QStringList expected;
        if (!r.expected.empty())
            expected << err(r.pointer, r.expected, {.node = r.node});
        row(r.name, setAt(richTeam, r.pointer, r.value), expected, kModels);
    }
}

void TestValidator::profiles_data()
{
    addColumns();
    const auto profile = [](const std::string& key, const json& value) {
        return setAt(richTeam, kProfile + "/" + key, value);
    };
    const auto median = [](double m, double p) { return json{{"median", m}, {"p95", p}}; };
    row("ttft p95 below the median", profile("ttft_ms", median(200, 100)),
        {err(kProfile + "/ttft_ms/p95", "p95 (100) must not be below the median (200)")});
    row("ttft p95 equal to the median", profile("ttft_ms", median(200, 200)), {});
    row("negative ttft", profile("ttft_ms", median(-1, 5)),
        {err(kProfile + "/ttft_ms", "expected non-negative median and p95")});
    row("tokens_per_s p95 above the median", profile("tokens_per_s", median(60, 80)),
        {err(kProfile + "/tokens_per_s/p95", "p95 (80) is the slow tail and must not exceed the median (60)")});
    row("tokens_per_s p95 equal to the median", profile("tokens_per_s", median(50, 50)), {});
    row("tokens_per_s p95 of 0", profile("tokens_per_s", median(10, 0)),
        {err(kProfile + "/tokens_per_s/p95", "expected a positive speed, got 0")});
    // One cause, one problem.
    row("negative tokens_per_s", profile("tokens_per_s", median(10, -1)),
        {err(kProfile + "/tokens_per_s", "expected non-negative median and p95")});
    row("output_tokens p95 below the median", profile("output_tokens", median(100, 50)),
        {err(kProfile + "/output_tokens/p95", "p95 (50) must not be below the median (100)")});
    row("negative price", profile("price_per_mtok", {{"input", -1}, {"output", 1}}),
        {err(kProfile + "/price_per_mtok", "prices must not be negative")});
    row("free model", profile("price_per_mtok", {{"input", 0}, {"output", 0}}), {});
    row("empty inline profile", setAt(richTeam, kProfile, json::object()), {}, kModels);
    row("negative openai price", setAt(richTeam, "/backends/oa/prices/gpt-x", {{"input", -1}, {"output", 2}}),
        {err("/backends/oa/prices/gpt-x", "prices must not be negative")});
}

void TestValidator::openAiBackend_data()
{
    addColumns();
    const auto set = [](const std::string& key, const json& value) {
        return setAt(richTeam, "/backends/oa/" + key, value);
    };
    row("no base_url", edit(richTeam, [](json& t) { t["backends"]["oa"].erase("base_url"); }),
        {err("/backends/oa/base_url", "an openai backend needs a base_url")});
    row("empty base_url", set("base_url", ""), {err("/backends/oa/base_url", "an openai backend needs a base_url")});
    row("ftp base_url", set("base_url", "ftp://example.com/v1"),
        {err("/backends/oa/base_url", "expected an http:// or https:// URL, got \"ftp://example.com/v1\"")});
    row("base_url without a scheme", set("base_url", "api.example.com/v1"),
        {err("/backends/oa/base_url", "expected an http:// or https:// URL, got \"api.example.com/v1\"")});
    row("http base_url", set("base_url", "http://localhost:8080/v1"), {});
    row("empty api_key_env", set("api_key_env", ""),
        {err("/backends/oa/api_key_env", "expected the name of an environment variable")});
    row("no api_key_env", edit(richTeam, [](json& t) { t["backends"]["oa"].erase("api_key_env"); }), {});
    // A key pasted where the variable's name belongs must not pass silently (nor be echoed back).
    row("api_key_env holding a key", set("api_key_env", "sk-proj-abc123"),
        {err("/backends/oa/api_key_env", "expected the name of an environment variable")});
    row("unknown max_tokens_param", set("max_tokens_param", "max_new_tokens"),
        {err("/backends/oa/max_tokens_param", "expected max_tokens or max_completion_tokens, got \"max_new_tokens\"")});
    row("max_completion_tokens", set("max_tokens_param", "max_completion_tokens"), {});
    const auto header = [&](const char* name, const std::string& key, const std::string& value, bool secret) {
        row(name, set("headers", {{key, value}}),
            secret ? QStringList{err("/backends/oa/headers/" + key, kSecret)} : QStringList());
    };
    header("Authorization header", "Authorization", "Token abc", true);
    header("authorization header", "authorization", "abc", true);
    header("Bearer header value", "X-Auth", "Bearer abc", true);
    header("bearer header value", "X-Auth", "bearer abc", true);
    header("api-key header", "api-key", "abc", true);
    header("x-api-key header", "x-api-key", "abc", true);
    header("harmless header", "X-Trace", "on", false);
}

void TestValidator::secrets_data()
{
    addColumns();
    row("api_key in an openai backend", setAt(richTeam, "/backends/oa/api_key", "sk-abc"),
        {err("/backends/oa/api_key", kSecret)});
    row("apiKey in a local backend", setAt(richTeam, "/backends/local/apiKey", "sk-abc"),
        {err("/backends/local/apiKey", kSecret)});
    row("Authorization in the team", setAt(richTeam, "/Authorization", "Bearer abc"), {err("/Authorization", kSecret)});
    row("bearer_token in a node", setAt(richTeam, "/nodes/2/bearer_token", "abc"),
        {err("/nodes/2/bearer_token", kSecret, {.node = "e"})});
    row("api-key in params", setAt(richTeam, "/nodes/2/params/api-key", "abc"),
        {err("/nodes/2/params/api-key", kSecret, {.node = "e"})});
    row("API_KEY in defaults", setAt(richTeam, "/defaults/API_KEY", "abc"), {err("/defaults/API_KEY", kSecret)});
    row("api_key in a budget", setAt(richTeam, "/budget/api_key", "abc"), {err("/budget/api_key", kSecret)});
    row("api_key in an edge", setAt(richTeam, "/edges/0/api_key", "abc"),
        {err("/edges/0/api_key", kSecret, {.edge = 0})});
    row("api_key in a model profile", setAt(richTeam, kProfile + "/api_key", "abc"),
        {err(kProfile + "/api_key", kSecret)});
    // Nested inside unknown keys: the same message, and the same node or edge as the key holding it.
    row("nested in a team key", setAt(richTeam, "/x-meta", {{"auth", {{"api_key", "abc"}}}}),
        {warn("/x-meta", "unknown key for a team; it is kept as is"), err("/x-meta/auth/api_key", kSecret)});
    row("nested in an array", setAt(richTeam, "/x-meta", json::array({{{"note", 1}}, {{"Authorization", "abc"}}})),
        {warn("/x-meta", "unknown key for a team; it is kept as is"), err("/x-meta/1/Authorization", kSecret)});
    row("nested in a node key", setAt(richTeam, "/nodes/2/extra", {{"api_key", "abc"}}),
        {warn("/nodes/2/extra", "unknown key for an expert node; it is kept as is", {.node = "e"}),
         err("/nodes/2/extra/api_key", kSecret, {.node = "e"})});
    row("nested in an edge key", setAt(richTeam, "/edges/0/meta", {{"api_key", "abc"}}),
        {warn("/edges/0/meta", "unknown key for an edge; it is kept as is", {.edge = 0}),
         err("/edges/0/meta/api_key", kSecret, {.edge = 0})});
    row("nested in a backend key", setAt(richTeam, "/backends/local/auth", {{"bearer_token", "abc"}}),
        {warn("/backends/local/auth", "unknown key for a local-moe backend; it is kept as is"),
         err("/backends/local/auth/bearer_token", kSecret)});
    row("harmless nested keys", setAt(richTeam, "/x-meta", {{"owner", {{"team", "research"}}}}),
        {warn("/x-meta", "unknown key for a team; it is kept as is")});
}

void TestValidator::unknownKeys_data()
{
    addColumns();
    const auto kept = [](const std::string& owner) { return "unknown key for " + owner + "; it is kept as is"; };
    row("team", setAt(richTeam, "/colour", "red"), {warn("/colour", kept("a team"))});
    row("team without a name", setAt(richTeam, "/name", ""), {warn("/name", "the team has no name")});
    row("input node", setAt(richTeam, "/nodes/0/colour", "red"),
        {warn("/nodes/0/colour", kept("an input node"), {.node = "in"})});
    row("quorum on a router", setAt(richTeam, "/nodes/1/quorum", 2),
        {warn("/nodes/1/quorum", kept("a router node"), {.node = "r"})});
    row("quorum on an expert", setAt(richTeam, "/nodes/2/quorum", 2),
        {warn("/nodes/2/quorum", kept("an expert node"), {.node = "e"})});
    row("strategy on a coordinator", setAt(richTeam, "/nodes/3/strategy", "majority"),
        {warn("/nodes/3/strategy", kept("a coordinator node"), {.node = "c"})});
    row("mode on an aggregator", setAt(richTeam, "/nodes/5/mode", "debate"),
        {warn("/nodes/5/mode", kept("an aggregator node"), {.node = "v"})});
    row("model on an output", setAt(richTeam, "/nodes/6/model", "local/tiny-1b"),
        {warn("/nodes/6/model", kept("an output node"), {.node = "out"})});
    row("edge", setAt(richTeam, "/edges/0/weight", 1), {warn("/edges/0/weight", kept("an edge"), {.edge = 0})});
    row("local-moe backend", setAt(richTeam, "/backends/local/base_url", "http://x"),
        {warn("/backends/local/base_url", kept("a local-moe backend"))});
    row("openai backend", setAt(richTeam, "/backends/oa/seed", 1),
        {warn("/backends/oa/seed", kept("an openai backend"))});
    row("node params", setAt(richTeam, "/nodes/2/params/frequency_penalty", 0.5),
        {warn("/nodes/2/params/frequency_penalty", kept("params"), {.node = "e"})});
    row("default params", setAt(richTeam, "/defaults/params/frequency_penalty", 0.5),
        {warn("/defaults/params/frequency_penalty", kept("params"))});
    row("defaults", setAt(richTeam, "/defaults/colour", "red"), {warn("/defaults/colour", kept("defaults"))});
    row("budget", setAt(richTeam, "/budget/max_calls", 5), {warn("/budget/max_calls", kept("a budget"))});
    row("model profile", setAt(richTeam, kProfile + "/vram_gb", 16),
        {warn(kProfile + "/vram_gb", kept("a model profile"))});
    row("key with a slash", setAt(richTeam, "/a~1b", 1), {warn("/a~1b", kept("a team"))});
}

void TestValidator::models_data()
{
    addColumns();
    row("known model", unchanged(minimal), {}, kModels);
    row("unknown model", setAt(minimal, "/nodes/1/model", "local/nope"),
        {err("/nodes/1/model", unknownModel("local/nope"), {.node = "e"})}, kModels);
    row("inline profile",
        edit(minimal,
             [](json& t) {
                 t["backends"]["local"]["models"] = {{"my-model", json::object()}};
                 t["nodes"][1]["model"] = "my-model";
             }),
        {}, kModels);
    row("inline profile as fallback",
        edit(minimal,
             [](json& t) {
                 t["backends"]["local"]["models"] = {{"my-model", json::object()}};
                 t["nodes"][1]["fallback_model"] = "my-model";
             }),
        {}, kModels);
    row("known fallback_model", setAt(minimal, "/nodes/1/fallback_model", "local/math-13b"), {}, kModels);
    row("unknown fallback_model", setAt(minimal, "/nodes/1/fallback_model", "local/nope"),
        {err("/nodes/1/fallback_model", unknownModel("local/nope"), {.node = "e"})}, kModels);
    row("unknown model and fallback_model",
        edit(minimal,
             [](json& t) {
                 t["nodes"][1]["model"] = "local/a";
                 t["nodes"][1]["fallback_model"] = "local/b";
             }),
        {err("/nodes/1/model", unknownModel("local/a"), {.node = "e"}),
         err("/nodes/1/fallback_model", unknownModel("local/b"), {.node = "e"})},
        kModels);
    row("model from defaults",
        edit(minimal,
             [](json& t) {
                 t["nodes"][1].erase("model");
                 t["defaults"] = {{"model", "local/math-13b"}};
             }),
        {}, kModels);
    // A wrong default is one mistake, reported once at /defaults/model, however many nodes use it.
    row("unknown model in defaults",
        edit(aggregatorTeam,
             [](json& t) {
                 t["nodes"][1].erase("model");
                 t["nodes"][2].erase("model");
                 t["defaults"] = {{"model", "local/nope"}};
             }),
        {err("/defaults/model", unknownModel("local/nope"))}, kModels);
    row("without a catalog nothing is checked", setAt(minimal, "/nodes/1/model", "anything"), {});
    row("openai models are not checked",
        edit(minimal,
             [](json& t) {
                 t["backends"]["oa"] = {{"kind", "openai"}, {"base_url", "https://api.example.com/v1"}};
                 t["nodes"][1]["backend"] = "oa";
                 t["nodes"][1]["model"] = "gpt-4o";
                 t["nodes"][1]["fallback_model"] = "gpt-4o-mini";
             }),
        {}, kModels);
    row("no model", edit(minimal, [](json& t) { t["nodes"][1].erase("model"); }),
        {err("/nodes/1/model", "an expert needs a model", {.node = "e"})}, kModels);
    row("empty model", setAt(minimal, "/nodes/1/model", ""),
        {err("/nodes/1/model", "an expert needs a model", {.node = "e"})}, kModels);
}

void TestValidator::backendResolution_data()
{
    addColumns();
    row("unknown backend on a node", setAt(minimal, "/nodes/1/backend", "nope"),
        {err("/nodes/1/backend", "unknown backend \"nope\"", {.node = "e"})});
    row("unknown default backend", setAt(minimal, "/defaults/backend", "nope"),
        {err("/defaults/backend", "unknown backend \"nope\"")});
    row("unknown default backend, two experts", setAt(aggregatorTeam, "/defaults/backend", "nope"),
        {err("/defaults/backend", "unknown backend \"nope\"")});
    row("several backends without a default", setAt(minimal, "/backends/other", {{"kind", "local-moe"}}),
        {err("/nodes/1/backend", "the team has several backends; set backend here or in defaults", {.node = "e"})});
    row("several backends with a default",
        edit(minimal,
             [](json& t) {
                 t["backends"]["other"] = {{"kind", "local-moe"}};
                 t["defaults"] = {{"backend", "other"}};
             }),
        {});
    row("several backends, the node names one",
        edit(minimal,
             [](json& t) {
                 t["backends"]["other"] = {{"kind", "local-moe"}};
                 t["nodes"][1]["backend"] = "other";
             }),
        {});
    row("no backends", setAt(minimal, "/backends", json::object()),
        {err("/nodes/1", "\"e\" calls a model but the team has no backends", {.node = "e"})});
    row("no backends key", edit(minimal, [](json& t) { t.erase("backends"); }),
        {err("/nodes/1", "\"e\" calls a model but the team has no backends", {.node = "e"})});
    row("no backends and no model calls", graph({inputNode(), outputNode()}, {{"in", "out"}}), {});
    row("no backends, no model: both said",
        edit(minimal,
             [](json& t) {
                 t.erase("backends");
                 t["nodes"][1].erase("model");
             }),
        {err("/nodes/1", "\"e\" calls a model but the team has no backends", {.node = "e"}),
         err("/nodes/1/model", "an expert needs a model", {.node = "e"})});
}

QTEST_GUILESS_MAIN(TestValidator)
#include "tst_validator.moc"

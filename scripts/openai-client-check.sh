#!/usr/bin/env bash
# OpenAI's own clients, unchanged, against `conclave serve` (docs/serve.md):
# Python's `openai` package when python3 has it (Debian's python3-openai),
# and the npm `openai` package when the npm registry is reachable. Each asks
# for the models, a whole completion and a stream with usage, through a key.
# Usage: scripts/openai-client-check.sh [BUILD_DIR]
# Exit 0: every client that ran passed; 77: no client could run here (ctest: skipped).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
conclave="$build/bin/conclave"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

export CONCLAVE_CHECK_KEY="sk-client-check-$$-$RANDOM"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The triage example, its simulated models twenty times faster: the same team, quicker to check.
python3 - "$root/resources/examples/triage.team.json" "$work/triage.team.json" <<'PY'
import json, sys
team = json.load(open(sys.argv[1]))
for backend in team.get("backends", {}).values():
    if backend.get("kind") == "local-moe":
        backend["time_scale"] = 0.05
json.dump(team, open(sys.argv[2], "w"), indent=2)
PY
"$conclave" serve "$work/triage.team.json" --port "$port" --db "$work/runs.sqlite" \
    --api-key-env CONCLAVE_CHECK_KEY >"$work/access.log" 2>"$work/serve.err" &
server_pid=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
done
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { cat "$work/serve.err"; echo "the server did not start" >&2; exit 1; }
export OPENAI_BASE_URL="http://127.0.0.1:$port/v1" OPENAI_API_KEY="$CONCLAVE_CHECK_KEY"
ran=0

if python3 -c 'import openai' 2>/dev/null; then
    python3 - <<'PY'
import openai
client = openai.OpenAI()
assert [m.id for m in client.models.list()] == ["triage"]
question = [{"role": "user", "content": "Calculate 323 + 460."}]
whole = client.chat.completions.create(model="triage", messages=question, seed=7)
assert whole.id.startswith("chatcmpl-") and whole.choices[0].message.content, whole
text, usage = "", None
for chunk in client.chat.completions.create(model="triage", messages=question, seed=7, stream=True,
                                            stream_options={"include_usage": True}):
    if chunk.choices:
        text += chunk.choices[0].delta.content or ""
    if chunk.usage:
        usage = chunk.usage
assert text == whole.choices[0].message.content, (text, whole.choices[0].message.content)
assert usage.total_tokens == whole.usage.total_tokens, (usage, whole.usage)
try:
    openai.OpenAI(api_key="sk-wrong-key-0000").models.list()
    raise SystemExit("a wrong key was accepted")
except openai.AuthenticationError:
    pass
print("python openai", openai.__version__, "ok:", whole.choices[0].message.content.splitlines()[-1])
PY
    ran=$((ran + 1))
else
    echo "python: skipped (python3 has no openai package: Debian 12 ships none; Debian 13's python3-openai has it)"
fi

node_dir="$build/openai-client-check"
if command -v node >/dev/null && { [[ -d "$node_dir/node_modules/openai" ]] ||
    (mkdir -p "$node_dir" && cd "$node_dir" && timeout 120 npm install --silent --no-audit --no-fund openai@4 >/dev/null 2>&1); }; then
    cat >"$node_dir/check.mjs" <<'JS'
import OpenAI from "openai";
import { readFileSync } from "node:fs";
const version = JSON.parse(readFileSync("node_modules/openai/package.json", "utf8")).version;
const client = new OpenAI();
const models = [];
for await (const m of client.models.list()) models.push(m.id);
if (models.join() !== "triage") throw new Error("models: " + models);
const messages = [{ role: "user", content: "Calculate 323 + 460." }];
const whole = await client.chat.completions.create({ model: "triage", messages, seed: 7 });
let text = "", usage = null;
const stream = await client.chat.completions.create({ model: "triage", messages, seed: 7, stream: true,
                                                      stream_options: { include_usage: true } });
for await (const chunk of stream) {
  if (chunk.choices.length) text += chunk.choices[0].delta.content ?? "";
  if (chunk.usage) usage = chunk.usage;
}
if (text !== whole.choices[0].message.content) throw new Error("stream and whole differ");
if (usage.total_tokens !== whole.usage.total_tokens) throw new Error("usage differs");
const content = whole.choices[0].message.content.trim().split("\n");
console.log("npm openai", version, "ok:", content[content.length - 1]);
JS
    (cd "$node_dir" && node check.mjs)
    ran=$((ran + 1))
else
    echo "node: skipped (no node, or the npm registry is not reachable)"
fi

if grep -q "$CONCLAVE_CHECK_KEY" "$work/access.log" "$work/serve.err"; then
    echo "the key reached the log" >&2
    exit 1
fi
kill -TERM "$server_pid"
wait "$server_pid"
server_pid=""
[[ $ran -gt 0 ]] || { echo "no OpenAI client could run here" >&2; exit 77; }
echo "openai-client-check: $ran client(s) passed"

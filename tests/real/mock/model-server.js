#!/usr/bin/env node
// The project's mock model server for the real-CLI test tier (host/tests/it/real_cli).
//
// One loopback HTTP/1.1 server (127.0.0.1 only) that speaks both wire protocols the real CLIs use,
// as ../../../docs/offline-vendor-clis.md describes them:
// - the Anthropic Messages API, streamed (SSE), with tool use: POST /v1/messages?beta=true
//   (Claude Code 2.1.332, ANTHROPIC_BASE_URL=http://127.0.0.1:PORT);
// - the OpenAI Responses API, streamed, with `exec_command` function calls: POST /v1/responses
//   (Codex 0.171.0, provider base_url http://127.0.0.1:PORT/v1).
//
// Usage: node model-server.js <dir> [port]. The test owns <dir>:
// - <dir>/script.json, read at every request (so a test may change it between turns):
//     {"root": "<abs checkout>",            // resolves a relative drop path for Claude's Read
//      "rules": [{"when": "<text in the turn's user prompt>", "steps": [<step>, ...]}, ...],
//      "drops": true,                        // false: a trigger line gets no built-in drop rule
//      "drop_hold": "<gate>"}                // the built-in drop rule's read waits for that gate
//   A step answers one model request of the turn: the k-th step answers the request that follows
//   k tool results (a stateless count over the request, so retries get the same answer):
//     {"text": "..."}                         an answer that ends the turn
//     {"bash": "<command>"}                   Claude: a Bash tool_use; Codex: an exec_command call
//       + "tty": true, "yield_ms": n          (Codex exec_command arguments)
//       + "escalated": "<why>"               (Codex: sandbox_permissions require_escalated)
//     {"read": "<path>"}                      Claude: a Read tool_use; Codex: exec_command cat
//                                             ("@trigger": the path the turn's trigger line names)
//     {"tool": "<name>", "input": {...}}      a call of any tool the CLI offers by that name (an
//       + "namespace": "<ns>"                 MCP server's: Claude mcp__<server>__<tool>); Codex:
//                                             a function_call in that tool namespace
//     + "hold": "<gate>" on any step          the stream opens, then waits until <dir>/gates/<gate>
//                                             exists before it answers ("work slowly")
//   In a "tool" step's input, a string that is exactly one of these is replaced when the step is
//   answered, so a model may name an id the test cannot know when it writes the script:
//     "@trigger-id"                           the file name (a message's id) of the drop the
//                                             turn's trigger line names
//     "@result:<k>:<pointer>"                 the value at the JSON pointer in the turn's k-th tool
//                                             output (from 1; Codex's after its "Output:" line),
//                                             e.g. "@result:1:/items/0/id" from a team_inbox
//   (one it cannot resolve becomes "<unresolved ...>", which the tool refuses as it should).
//   Past the last step the turn ends with the text "done". A prompt that is a team trigger line
//   ("Please read the team message at <path>") and matches no rule reads <path>, then ends.
// - <dir>/requests.jsonl: one line per request, appended before it is answered:
//     {"n", "at": <ms since the epoch, when the request was whole>, "api": "anthropic"|"openai"|"other",
//      "method", "path", "kind": "main"|"side", "prompt": <the turn's user prompt text>,
//      "results": [<tool outputs since that prompt>], "headers", "body"}
// - <dir>/ready: written once listening, holding the port.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
const port = Number(process.argv[3] || 8765);
if (!dir) {
  console.error('usage: model-server.js <dir> [port]');
  process.exit(2);
}
let n = 0;

function script() {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'script.json'), 'utf8'));
  } catch (e) {
    return { rules: [] };
  }
}

function log(entry) {
  fs.appendFileSync(path.join(dir, 'requests.jsonl'), JSON.stringify(entry) + '\n');
}

// --- what a request asks -------------------------------------------------------------------

function blockText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => b && (b.type === 'text' || b.type === 'input_text'))
    .map((b) => b.text)
    .join('\n');
}

// Anthropic: the last user message that is not a tool result is the turn's prompt; the tool
// results after it are the turn's steps so far. `role: "system"` messages are skipped.
function anthropicTurn(body) {
  const msgs = (body.messages || []).filter((m) => m.role !== 'system');
  let at = -1;
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    const isResult = Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result');
    if (m.role === 'user' && !isResult) {
      at = i;
      break;
    }
  }
  const prompt = at >= 0 ? blockText(msgs[at].content) : '';
  const results = [];
  for (const m of msgs.slice(at + 1)) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_result') results.push(typeof b.content === 'string' ? b.content : blockText(b.content));
    }
  }
  return { prompt, results };
}

// OpenAI Responses: the last user message item is the prompt; function_call_output items after it.
function openaiTurn(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  let at = -1;
  for (let i = input.length - 1; i >= 0; i--) {
    const it = input[i];
    if (it.type === 'message' && it.role === 'user') {
      at = i;
      break;
    }
  }
  const prompt = at >= 0 ? blockText(input[at].content) : '';
  const results = input
    .slice(at + 1)
    .filter((it) => it.type === 'function_call_output')
    .map((it) => (typeof it.output === 'string' ? it.output : JSON.stringify(it.output)));
  return { prompt, results };
}

const TRIGGER = /Please read the team message at (\S+)/;

// The value at JSON pointer `ptr` in a tool output (Codex's: the text after its "Output:" line).
function fromResult(out, ptr) {
  try {
    const text = typeof out === 'string' && out.includes('Output:\n') ? out.split('Output:\n')[1] : out;
    let v = JSON.parse(text);
    for (const key of ptr.split('/').slice(1)) v = v[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (v === undefined) throw new Error('no such value');
    return v;
  } catch (e) {
    return `<unresolved ${ptr}: ${e.message}>`;
  }
}

// A tool step's input with "@trigger-id" and "@result:<k>:<pointer>" replaced (see the header).
function fill(v, trigger, results) {
  if (typeof v === 'string') {
    if (v === '@trigger-id') return trigger ? path.basename(trigger) : '<unresolved @trigger-id: no trigger line>';
    const m = v.match(/^@result:(\d+):(\/.*)$/);
    return m ? fromResult(results[Number(m[1]) - 1], m[2]) : v;
  }
  if (Array.isArray(v)) return v.map((x) => fill(x, trigger, results));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([key, x]) => [key, fill(x, trigger, results)]));
  }
  return v;
}

// The step that answers this request (`results`: the turn's tool outputs so far).
function stepFor(sc, prompt, results) {
  const k = results.length;
  const m = prompt.match(TRIGGER);
  for (const r of sc.rules || []) {
    if (r.when && prompt.includes(r.when)) {
      let step = r.steps[k] || { text: 'done' };
      // "@trigger": the file the turn's trigger line names (known only once it was sent)
      if (step.read === '@trigger' && m) step = Object.assign({}, step, { read: m[1] });
      if (step.tool !== undefined) step = Object.assign({}, step, { input: fill(step.input || {}, m && m[1], results) });
      return step;
    }
  }
  if (sc.drops === false) return k === 0 ? { text: 'Hello from the mock model.' } : { text: 'done' };
  if (m) {
    return [{ read: m[1], hold: sc.drop_hold }, { text: 'I read the team message.' }][k] || { text: 'done' };
  }
  return k === 0 ? { text: 'Hello from the mock model.' } : { text: 'done' };
}

// --- holding ("work slowly") ----------------------------------------------------------------

function whenGate(step, go) {
  if (!step.hold) return go();
  const gate = path.join(dir, 'gates', step.hold);
  const tick = () => (fs.existsSync(gate) ? go() : setTimeout(tick, 50));
  tick();
}

// --- the two wire protocols ------------------------------------------------------------------

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function openStream(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
}

function anthropicAnswer(res, step, num, sc) {
  openStream(res);
  const id = `msg_mock_${num}`;
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [],
      stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  whenGate(step, () => {
    let stop = 'end_turn';
    if (step.bash !== undefined || step.read !== undefined || step.tool !== undefined) {
      let name, input;
      if (step.tool !== undefined) {
        name = step.tool;
        input = step.input || {};
      } else if (step.bash !== undefined) {
        name = 'Bash';
        input = { command: step.bash, description: step.description || 'Run the command' };
      } else {
        name = 'Read';
        input = { file_path: path.isAbsolute(step.read) ? step.read : path.join(sc.root || '/', step.read) };
      }
      sse(res, 'content_block_start', {
        type: 'content_block_start', index: 0,
        content_block: { type: 'tool_use', id: `toolu_mock_${num}`, name, input: {} },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
      });
      stop = 'tool_use';
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: String(step.text) },
      });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
    sse(res, 'message_delta', {
      type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 },
    });
    sse(res, 'message_stop', { type: 'message_stop' });
    res.end();
  });
}

function openaiAnswer(res, step, num) {
  openStream(res);
  const rid = `resp_mock_${num}`;
  sse(res, 'response.created', { type: 'response.created', response: { id: rid } });
  whenGate(step, () => {
    let item;
    if (step.tool !== undefined) {
      item = {
        type: 'function_call', id: `fc_mock_${num}`, call_id: `call_mock_${num}`,
        name: step.tool, arguments: JSON.stringify(step.input || {}),
      };
      if (step.namespace) item.namespace = step.namespace;
      sse(res, 'response.output_item.added', { type: 'response.output_item.added', output_index: 0, item });
    } else if (step.bash !== undefined || step.read !== undefined) {
      const args = { cmd: step.bash !== undefined ? step.bash : `cat ${step.read}` };
      if (step.tty) args.tty = true;
      if (step.yield_ms) args.yield_time_ms = step.yield_ms;
      if (step.escalated) {
        args.sandbox_permissions = 'require_escalated';
        args.justification = step.escalated;
      }
      item = {
        type: 'function_call', id: `fc_mock_${num}`, call_id: `call_mock_${num}`,
        name: 'exec_command', arguments: JSON.stringify(args),
      };
      sse(res, 'response.output_item.added', { type: 'response.output_item.added', output_index: 0, item });
    } else {
      const mid = `msg_mock_${num}`;
      sse(res, 'response.output_item.added', {
        type: 'response.output_item.added', output_index: 0,
        item: { type: 'message', role: 'assistant', id: mid, content: [] },
      });
      sse(res, 'response.output_text.delta', {
        type: 'response.output_text.delta', item_id: mid, output_index: 0, content_index: 0, delta: String(step.text),
      });
      item = {
        type: 'message', role: 'assistant', id: mid,
        content: [{ type: 'output_text', text: String(step.text), annotations: [] }],
      };
    }
    sse(res, 'response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
    sse(res, 'response.completed', {
      type: 'response.completed',
      response: {
        id: rid,
        usage: {
          input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5,
          output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15,
        },
      },
    });
    res.end();
  });
}

// A side request (no tools: the session-title request) gets a title and nothing else.
function sideAnswer(res, api, num) {
  const title = JSON.stringify({ title: 'Team test' });
  if (api === 'anthropic') anthropicAnswer(res, { text: title }, num, {});
  else openaiAnswer(res, { text: title }, num);
}

// --- the server ---------------------------------------------------------------------------------

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const num = ++n;
    const raw = Buffer.concat(chunks).toString('utf8');
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch (e) {
      body = raw;
    }
    const p = req.url.split('?')[0];
    const api = p === '/v1/messages' ? 'anthropic' : p === '/v1/responses' ? 'openai' : 'other';
    const main = !!(body && Array.isArray(body.tools) && body.tools.length > 0);
    const turn = api === 'anthropic' && body ? anthropicTurn(body) : api === 'openai' && body ? openaiTurn(body) : {};
    log({
      n: num, at: Date.now(), api, method: req.method, path: req.url, kind: main ? 'main' : 'side',
      prompt: turn.prompt || '', results: turn.results || [], headers: req.headers, body,
    });
    if (api === 'other' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not served by the mock' } }));
      return;
    }
    if (!main) return sideAnswer(res, api, num);
    const sc = script();
    const step = stepFor(sc, turn.prompt, turn.results);
    if (api === 'anthropic') anthropicAnswer(res, step, num, sc);
    else openaiAnswer(res, step, num);
  });
});

server.listen(port, '127.0.0.1', () => {
  fs.writeFileSync(path.join(dir, 'ready.tmp'), String(port));
  fs.renameSync(path.join(dir, 'ready.tmp'), path.join(dir, 'ready'));
});

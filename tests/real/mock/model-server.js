#!/usr/bin/env node
// The project's mock model server for the real-CLI test tier (host/tests/it/real_cli).
//
// One loopback HTTP/1.1 server (127.0.0.1 only) that speaks both wire protocols the real CLIs use,
// as ../../../docs/offline-vendor-clis.md describes them:
// - the Anthropic Messages API, streamed (SSE), with tool use: POST /v1/messages?beta=true
//   (Claude Code 2.1.332, ANTHROPIC_BASE_URL=http://127.0.0.1:PORT);
// - the OpenAI Responses API, streamed, with `exec_command` function calls: POST /v1/responses
//   (Codex 0.171.0, provider base_url http://127.0.0.1:PORT/v1);
// - OpenAI Chat Completions, streamed (or whole when `stream` is false), with `tool_calls`:
//   POST /v1/chat/completions (Qwen Code 0.24.4, GitHub Copilot CLI 1.0.102, opencode 1.18.33,
//   grok-cli: base URL http://127.0.0.1:PORT/v1); the shell and read tools are the ones the
//   request offers (`run_shell_command`, `bash`, `read_file`, `view`, `read`, ...), their
//   arguments named by the tool's own schema;
// - the Gemini API: POST /v1beta/models/<model>:streamGenerateContent?alt=sse (the turn),
//   :generateContent (Gemini CLI's router call, and the summary it asks for a session at the
//   next start: side requests) and
//   :countTokens (Gemini CLI 0.61.0, GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT).
// ../../../docs/more-vendors.md says what each of those CLIs sends.
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
//     {"bash": "<command>"}                   Claude: a Bash tool_use; Codex: an exec_command call;
//                                             Chat Completions and Gemini: a call of the shell tool
//                                             the request offers (`run_shell_command`, `bash`)
//       + "tty": true, "yield_ms": n          (Codex exec_command arguments)
//       + "escalated": "<why>"               (Codex: sandbox_permissions require_escalated)
//     {"read": "<path>"}                      Claude: a Read tool_use; Codex: exec_command cat;
//                                             the others: their read tool (`read_file`, `view`,
//                                             `read`) with the absolute path
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
//   ("Please read the team message at <path>") and matches no rule reads <path>, then ends; on
//   Chat Completions and Gemini, a read its tool refused (`refused`) is read again with the
//   shell (`cat <path>`) before the turn ends.
// - <dir>/requests.jsonl: one line per request, appended before it is answered:
//     {"n", "at": <ms since the epoch, when the request was whole>,
//      "api": "anthropic"|"openai"|"chat"|"gemini"|"other", "method", "path",
//      "kind": "main"|"side", "prompt": <the turn's user prompt text>,
//      "results": [<tool outputs since that prompt>], "headers", "body"}
//   `main` is a model step of the turn; `side` is any other request the CLI makes on its own:
//   a title request (no tools), Gemini CLI's router and summary calls (`:generateContent`) and
//   token counts, Qwen Code's next-prompt suggestion and memory runs (they carry tools: told
//   apart by their text, `SIDE_MARKS`). A side request is answered by its kind, never by a rule.
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

// Chat Completions: the last `user` message is the prompt — its last text block when it is an
// array (Qwen Code sends its reminders as earlier blocks of the first prompt); the `tool`
// messages after it are the turn's tool outputs.
function chatTurn(body) {
  const msgs = Array.isArray(body.messages) ? body.messages : [];
  let at = -1;
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i].role === 'user') {
      at = i;
      break;
    }
  }
  let prompt = '';
  if (at >= 0) {
    const c = msgs[at].content;
    if (typeof c === 'string') prompt = c;
    else if (Array.isArray(c)) {
      const texts = c.filter((b) => b && b.type === 'text').map((b) => b.text);
      prompt = texts.length ? texts[texts.length - 1] : '';
    }
  }
  const results = msgs
    .slice(at + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : blockText(m.content)));
  return { prompt, results };
}

// Gemini: the last `user` content with a text part is the prompt (Gemini CLI sends its
// `<session_context>` as an earlier content); the functionResponse parts after it are the turn's
// tool outputs (a response's `output` when it is text, else the response as JSON).
function geminiTurn(body) {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const texts = (c) => (Array.isArray(c.parts) ? c.parts.filter((p) => typeof p.text === 'string').map((p) => p.text) : []);
  let at = -1;
  for (let i = contents.length - 1; i >= 0; i--) {
    if (contents[i].role === 'user' && texts(contents[i]).length) {
      at = i;
      break;
    }
  }
  const prompt = at >= 0 ? texts(contents[at]).join('\n') : '';
  const results = [];
  for (const c of contents.slice(at + 1)) {
    for (const p of Array.isArray(c.parts) ? c.parts : []) {
      if (!p.functionResponse) continue;
      const r = p.functionResponse.response || {};
      results.push(typeof r.output === 'string' ? r.output : JSON.stringify(r));
    }
  }
  return { prompt, results };
}

// Side requests that carry tools, told apart by the text of their prompt (Qwen Code 0.24.4:
// the next-prompt suggestion after a turn, the managed-memory extraction run).
const SIDE_MARKS = ['[SUGGESTION MODE:', 'Managed memory has TWO directories'];

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

// A read tool's output that is a refusal, not the file: Gemini CLI 0.61.0's read_file answers
// {"error": "File path '…' is ignored by configured ignore patterns."} for a path its ignore files
// name — `team init`'s .agents/.gitignore names send-drops/.
function refused(result) {
  return typeof result === 'string' && result.startsWith('{"error":');
}

// The step that answers this request (`results`: the turn's tool outputs so far).
function stepFor(sc, prompt, results, api) {
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
    const steps = [{ read: m[1], hold: sc.drop_hold }];
    // Refused by the read tool, the model reads the file with the shell, as a model does.
    if ((api === 'chat' || api === 'gemini') && k >= 1 && refused(results[0])) steps.push({ bash: `cat ${m[1]}` });
    steps.push({ text: 'I read the team message.' });
    return steps[k] || { text: 'done' };
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

// --- Chat Completions and Gemini: the tools a request offers ----------------------------------

// The tools a request offers, as {name, props, required} (Chat Completions `tools[].function`,
// Gemini `tools[].functionDeclarations[]`).
function offered(api, body) {
  const out = [];
  for (const t of (body && Array.isArray(body.tools) ? body.tools : [])) {
    const decls = api === 'gemini' ? t.functionDeclarations || [] : [t.function || t];
    for (const d of decls) {
      const schema = d.parameters || d.parametersJsonSchema || {};
      out.push({ name: d.name, props: schema.properties || {}, required: schema.required || [] });
    }
  }
  return out;
}

// Each CLI's own names: its shell tool and its file-read tool.
const SHELL_TOOLS = ['run_shell_command', 'bash', 'shell', 'execute_bash'];
// (grok-cli 0.0.34 reads with `view_file`, which asks no confirmation)
const READ_TOOLS = ['read_file', 'view', 'read', 'view_file'];
const PATH_PROPS = ['file_path', 'absolute_path', 'filePath', 'path'];

// A value for a required argument the step does not give, by its schema's type.
function filler(prop) {
  if (prop && Array.isArray(prop.enum) && prop.enum.length) return prop.enum[0];
  const type = prop && String(prop.type || '').toLowerCase();
  if (type === 'boolean') return false;
  if (type === 'integer' || type === 'number') return 0;
  return 'Run the command';
}

// The {name, args} a bash or read step calls, from the tools the request offers.
function callFor(api, body, step, sc) {
  const tools = offered(api, body);
  if (step.tool !== undefined) return { name: step.tool, args: step.input || {} };
  const pick = (names) => names.map((n) => tools.find((t) => t.name === n)).find(Boolean);
  let tool, args;
  if (step.bash !== undefined) {
    tool = pick(SHELL_TOOLS);
    args = { command: step.bash };
    if (tool && 'description' in tool.props) args.description = step.description || 'Run the command';
  } else {
    tool = pick(READ_TOOLS);
    const file = path.isAbsolute(step.read) ? step.read : path.join(sc.root || '/', step.read);
    const key = tool ? PATH_PROPS.find((k) => k in tool.props) || 'file_path' : 'file_path';
    args = { [key]: file };
  }
  if (!tool) {
    const want = step.bash !== undefined ? SHELL_TOOLS : READ_TOOLS;
    return { name: `<none of ${want.join(', ')} is offered>`, args };
  }
  for (const r of tool.required) if (!(r in args)) args[r] = filler(tool.props[r]);
  return { name: tool.name, args };
}

function dataLine(res, data) {
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

// Chat Completions: streamed as the CLIs measured take it (docs/more-vendors.md): a role chunk,
// the text or the tool call (its name, then its arguments), the finish, the usage, [DONE].
function chatAnswer(res, body, step, num, sc) {
  const call = step.text === undefined ? callFor('chat', body, step, sc) : null;
  const base = { id: `chatcmpl-mock-${num}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: (body && body.model) || 'mock-model' };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const finish = call ? 'tool_calls' : 'stop';
  if (body && body.stream === false) {
    const message = { role: 'assistant', content: call ? null : String(step.text) };
    if (call) {
      message.tool_calls = [{ id: `call_mock_${num}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }];
    }
    return whenGate(step, () => {
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(Object.assign({}, base, { object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage })));
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  const chunk = (delta, reason) => dataLine(res, Object.assign({}, base, { choices: [{ index: 0, delta, finish_reason: reason }] }));
  chunk({ role: 'assistant', content: '' }, null);
  whenGate(step, () => {
    if (call) {
      chunk({ tool_calls: [{ index: 0, id: `call_mock_${num}`, type: 'function', function: { name: call.name, arguments: '' } }] }, null);
      chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(call.args) } }] }, null);
    } else {
      chunk({ content: String(step.text) }, null);
    }
    chunk({}, finish);
    dataLine(res, Object.assign({}, base, { choices: [], usage }));
    dataLine(res, '[DONE]');
    res.end();
  });
}

// Gemini: one candidate holding the text or the function call; streamed as SSE data lines for
// :streamGenerateContent, one JSON body for :generateContent.
function geminiAnswer(res, body, step, num, sc, streamed) {
  const call = step.text === undefined ? callFor('gemini', body, step, sc) : null;
  const parts = call ? [{ functionCall: { name: call.name, args: call.args } }] : [{ text: String(step.text) }];
  const answer = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'mock-model', responseId: `mock-${num}`,
  };
  if (!streamed) {
    return whenGate(step, () => {
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(answer));
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  whenGate(step, () => {
    dataLine(res, answer);
    res.end();
  });
}

// A JSON value the request's response schema accepts (Gemini CLI's router asks for
// {complexity_reasoning, complexity_score}; an enum takes its first word).
function fromSchema(schema) {
  const type = schema && String(schema.type || '').toLowerCase();
  if (type === 'object') {
    const o = {};
    for (const [k, v] of Object.entries(schema.properties || {})) o[k] = fromSchema(v);
    return o;
  }
  if (type === 'array') return [];
  return filler(schema);
}

// A Gemini side request: a token count, the router's JSON, or a short text (the summary).
function geminiSide(res, body, method, num) {
  if (method === 'countTokens') {
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    return res.end(JSON.stringify({ totalTokens: 10 }));
  }
  const cfg = (body && body.generationConfig) || {};
  const schema = cfg.responseJsonSchema || cfg.responseSchema;
  const text = schema ? JSON.stringify(fromSchema(schema)) : 'Team test';
  geminiAnswer(res, body, { text }, num, {}, method === 'streamGenerateContent');
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
    const gemini = p.match(/^\/v1(?:beta|alpha)?\/models\/[^:/]+:(streamGenerateContent|generateContent|countTokens)$/);
    const api = p === '/v1/messages' ? 'anthropic' : p === '/v1/responses' ? 'openai'
      : p === '/v1/chat/completions' ? 'chat' : gemini ? 'gemini' : 'other';
    const turns = { anthropic: anthropicTurn, openai: openaiTurn, chat: chatTurn, gemini: geminiTurn };
    const turn = body && typeof body === 'object' && turns[api] ? turns[api](body) : {};
    const tools = api === 'chat' || api === 'gemini' ? offered(api, body).length > 0
      : !!(body && Array.isArray(body.tools) && body.tools.length > 0);
    let main = tools;
    if (api === 'gemini') main = tools && gemini[1] === 'streamGenerateContent';
    if (api === 'chat') main = tools && !SIDE_MARKS.some((m) => (turn.prompt || '').includes(m));
    log({
      n: num, at: Date.now(), api, method: req.method, path: req.url, kind: main ? 'main' : 'side',
      prompt: turn.prompt || '', results: turn.results || [], headers: req.headers, body,
    });
    if (api === 'other' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not served by the mock' } }));
      return;
    }
    if (!main && api === 'gemini') return geminiSide(res, body, gemini[1], num);
    if (!main && api === 'chat') return chatAnswer(res, body, { text: 'Team test' }, num, {});
    if (!main) return sideAnswer(res, api, num);
    const sc = script();
    const step = stepFor(sc, turn.prompt, turn.results, api);
    if (api === 'anthropic') anthropicAnswer(res, step, num, sc);
    else if (api === 'openai') openaiAnswer(res, step, num);
    else if (api === 'chat') chatAnswer(res, body, step, num, sc);
    else geminiAnswer(res, body, step, num, sc, true);
  });
});

server.listen(port, '127.0.0.1', () => {
  fs.writeFileSync(path.join(dir, 'ready.tmp'), String(port));
  fs.renameSync(path.join(dir, 'ready.tmp'), path.join(dir, 'ready'));
});

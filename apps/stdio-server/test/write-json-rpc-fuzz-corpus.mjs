#!/usr/bin/env node
// Writes json-rpc-fuzz-corpus.json: malformed and odd JSON-RPC lines for the stdio server, each with the one answer
// JSON-RPC 2.0 and MCP require. Run it after changing the cases below: node test/write-json-rpc-fuzz-corpus.mjs
//
// An entry is { name, line, expect } where expect is one of
//   { "error": <code>, "id": "<id source text or null>" }  one error response, the id exactly as sent
//   { "result": true, "id": "<id source text>" }            one result response
//   { "none": true }                                        no response at all (notifications, responses, blank lines)
// Ids are unique across entries, so every answer can be told apart.
import { writeFileSync } from 'node:fs';

const entries = [];
let next = 1000;
const uniqueId = () => {
  next += 1;
  return String(next);
};
const add = (name, line, expect) => entries.push({ name, line, expect });
const request = (id, method, params, extra = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id: '@ID@', method, ...(params !== undefined ? { params } : {}), ...extra }).replace(
    '"@ID@"',
    id,
  );

// -32700: not JSON at all.
const notJson = [
  '{',
  '}',
  '{"jsonrpc":"2.0"',
  '{"jsonrpc":"2.0",}',
  "{'jsonrpc':'2.0','id':1,'method':'ping'}",
  'ping',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '{"id":NaN}',
  '{"id":Infinity}',
  '{"a":}',
  '{"a" 1}',
  '{a:1}',
  '[1,2,]',
  '"unterminated',
  '{"s":"tab\there"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping"} trailing',
  '{"jsonrpc":"2.0","id":1,"method":"ping"}}',
  '0x10',
  '01',
  '+1',
  '.5',
  '1.',
  '1e',
  '--1',
  '{"x":tru}',
  '{"x":nul}',
  '// a comment',
  '/* comment */ {}',
  '\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping"',
  'true false',
  '{"x":"\\q"}',
  '{"x":"\\u12"}',
  '{"x":\'single\'}',
  '{,}',
  '[,]',
  '{"a":1 "b":2}',
  '\u0000',
];
for (const [index, line] of notJson.entries())
  add(`not JSON #${index + 1}: ${JSON.stringify(line).slice(0, 40)}`, line, { error: -32700, id: 'null' });

// -32600 with id null: JSON, but not a message object, or no usable id.
const notAnObject = [
  'null',
  'true',
  'false',
  '0',
  '1.5',
  '"ping"',
  '""',
  '[]',
  '[1]',
  '[[]]',
  '[{}]',
  '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
  '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
  `${'['.repeat(2000)}${']'.repeat(2000)}`,
];
for (const [index, line] of notAnObject.entries())
  add(`not an object #${index + 1}: ${line.slice(0, 40)}`, line, { error: -32600, id: 'null' });
for (const [index, id] of ['null', 'true', 'false', '{}', '[]', '[1]', '{"id":1}'].entries())
  add(`request id of a wrong type #${index + 1}: ${id}`, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`, {
    error: -32600,
    id: 'null',
  });
add('no id, method not a string', '{"jsonrpc":"2.0","method":1,"params":"bar"}', { error: -32600, id: 'null' });
add('empty object', '{}', { error: -32600, id: 'null' });
add('object without any JSON-RPC member', '{"foo":"boo"}', { error: -32600, id: 'null' });
add('no jsonrpc, no id', '{"method":"ping"}', { error: -32600, id: 'null' });

// -32600 with the id echoed: a request object that is not valid.
const badRequests = [
  ['method a number', (id) => `{"jsonrpc":"2.0","id":${id},"method":42}`],
  ['method null', (id) => `{"jsonrpc":"2.0","id":${id},"method":null}`],
  ['method an object', (id) => `{"jsonrpc":"2.0","id":${id},"method":{"name":"ping"}}`],
  ['method an array', (id) => `{"jsonrpc":"2.0","id":${id},"method":["ping"]}`],
  ['method a boolean', (id) => `{"jsonrpc":"2.0","id":${id},"method":true}`],
  ['jsonrpc missing', (id) => `{"id":${id},"method":"ping"}`],
  ['jsonrpc "1.0"', (id) => `{"jsonrpc":"1.0","id":${id},"method":"ping"}`],
  ['jsonrpc the number 2.0', (id) => `{"jsonrpc":2.0,"id":${id},"method":"ping"}`],
  ['jsonrpc "2"', (id) => `{"jsonrpc":"2","id":${id},"method":"ping"}`],
  ['jsonrpc null', (id) => `{"jsonrpc":null,"id":${id},"method":"ping"}`],
  ['jsonrpc "2.0 "', (id) => `{"jsonrpc":"2.0 ","id":${id},"method":"ping"}`],
  ['params a string (ping)', (id) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":"x"}`],
  ['params an empty string', (id) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":""}`],
  ['params an array (ping)', (id) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":[]}`],
  ['params a number', (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":1}`],
  ['params null', (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":null}`],
  ['params true', (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":true}`],
  ['params an array (tools/call)', (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":["echo",{}]}`],
  ['params a string (tools/call)', (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":"echo"}`],
  ['params an array (initialize)', (id) => `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":[]}`],
  ['params a string (initialize)', (id) => `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":"2025-06-18"}`],
  ['no method, no result, no error', (id) => `{"jsonrpc":"2.0","id":${id}}`],
  ['only an id', (id) => `{"id":${id}}`],
  ['params but no method', (id) => `{"jsonrpc":"2.0","id":${id},"params":{}}`],
];
for (const [name, make] of badRequests) {
  const id = uniqueId();
  add(`invalid request: ${name}`, make(id), { error: -32600, id });
}
// The same with ids a client may use that the SDK does not: each must come back exactly as written.
const oddIds = [
  '1.25',
  '1e301',
  '-0.0',
  '3.0',
  '12345678901234567891',
  '1E3',
  '4e-3',
  '-2.5e-10',
  '"\\u0042cd"',
  '"c\\"d"',
  '"\\ud83d\\ude01"',
  '0.2',
  '9007199254740995',
  '-9007199254740995',
  '1e-401',
  '1e998',
];
for (const [index, id] of oddIds.entries()) {
  add(`invalid request with an odd id ${id}`, `{"jsonrpc":"2.0","id":${id},"method":"ping","params":"x${index}"}`, {
    error: -32600,
    id,
  });
}

// -32601: requests for methods Search MCP does not serve.
const unknownMethods = [
  'nope',
  '',
  'rpc.discover',
  'tools/List',
  'TOOLS/LIST',
  'tools/list ',
  ' ping',
  'sampling/createMessage',
  'notifications/initialized',
  'notifications/cancelled',
  'initialize/',
  '検索',
  'tools/call/extra',
  'a'.repeat(1000),
  'elicitation/create',
  'roots/list',
  'tools\u0000list',
];
for (const method of unknownMethods) {
  const id = uniqueId();
  add(`unknown method ${JSON.stringify(method).slice(0, 30)}`, request(id, method, {}), { error: -32601, id });
}

// -32602: a request of a known method with params that do not fit it.
const badParams = [
  ['initialize without params', 'initialize', undefined],
  ['initialize with empty params', 'initialize', {}],
  [
    'initialize with a numeric protocolVersion',
    'initialize',
    { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  ],
  ['initialize without clientInfo', 'initialize', { protocolVersion: '2025-06-18', capabilities: {} }],
  [
    'initialize with clientInfo a string',
    'initialize',
    { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: 'x' },
  ],
  [
    'initialize with capabilities an array',
    'initialize',
    { protocolVersion: '2025-06-18', capabilities: [], clientInfo: { name: 'x', version: '1' } },
  ],
  [
    'initialize with clientInfo without a version',
    'initialize',
    { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x' } },
  ],
  ['tools/list with a numeric cursor', 'tools/list', { cursor: 1 }],
  // tools/list is answered in one page: a cursor can only be one we never gave.
  ['tools/list with a cursor we never gave', 'tools/list', { cursor: 'abc' }],
  // Forwarded MCP methods (resources, prompts, completions, logging) check their params as the spec says.
  ['resources/read without a uri', 'resources/read', {}],
  ['prompts/get without a name', 'prompts/get', {}],
  ['completion/complete without ref and argument', 'completion/complete', {}],
  ['logging/setLevel without a level', 'logging/setLevel', {}],
  ['tools/list with an object cursor', 'tools/list', { cursor: {} }],
  ['tools/list with _meta a number', 'tools/list', { _meta: 5 }],
  ['tools/list with _meta a string', 'tools/list', { _meta: 'x' }],
  ['tools/list with an object progress token', 'tools/list', { _meta: { progressToken: {} } }],
  ['tools/list with a null progress token', 'tools/list', { _meta: { progressToken: null } }],
  ['tools/list with a boolean progress token', 'tools/list', { _meta: { progressToken: true } }],
  ['tools/list with a bad related task', 'tools/list', { _meta: { 'io.modelcontextprotocol/related-task': 5 } }],
  ['tools/call without params', 'tools/call', undefined],
  ['tools/call with empty params', 'tools/call', {}],
  ['tools/call with a numeric name', 'tools/call', { name: 42 }],
  ['tools/call with an empty name', 'tools/call', { name: '' }],
  ['tools/call with a null name', 'tools/call', { name: null }],
  ['tools/call with an array name', 'tools/call', { name: ['tool_discovery'] }],
  ['tools/call with arguments an array', 'tools/call', { name: 'tool_discovery', arguments: ['x'] }],
  ['tools/call with arguments a string', 'tools/call', { name: 'tool_discovery', arguments: 'x' }],
  ['tools/call with arguments a number', 'tools/call', { name: 'tool_execute', arguments: 1 }],
  ['tools/call with arguments null', 'tools/call', { name: 'tool_execute', arguments: null }],
  ['tools/call of an unknown tool', 'tools/call', { name: 'nowhere:tool', arguments: {} }],
  ['tools/call of an unknown listed name', 'tools/call', { name: 'nowhere__tool' }],
  ['tools/call with _meta a number', 'tools/call', { name: 'tool_discovery', arguments: { query: 'x' }, _meta: 1 }],
  ['ping with _meta an array', 'ping', { _meta: [] }],
];
for (const [name, method, params] of badParams) {
  const id = uniqueId();
  add(`invalid params: ${name}`, request(id, method, params), { error: -32602, id });
}

// Results: well-formed requests, many with ids the SDK alone would drop.
const goodIds = [
  '0',
  '-1',
  '2147483648',
  '""',
  '"x y"',
  '"\\u00e9"',
  '"😀"',
  `"${'i'.repeat(1000)}"`,
  '"null"',
  '"1"',
  '1.5',
  '1e300',
  '-0',
  '1.0',
  '12345678901234567890',
  '1E2',
  '2e-3',
  '"\\u0041"',
  '9007199254740993',
  '1e999',
  '-1e300',
  '"\\u0000search-mcp:1"',
  '"\\/"',
];
for (const id of goodIds)
  add(`ping with id ${id.slice(0, 30)}`, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`, { result: true, id });
const goodRequests = [
  ['ping with empty params', (id) => request(id, 'ping', {})],
  ['ping with _meta', (id) => request(id, 'ping', { _meta: { note: 'x' } })],
  ['ping with extra top-level members', (id) => request(id, 'ping', undefined, { extra: true, more: [1] })],
  ['ping with members in another order', (id) => `{"method":"ping","id":${id},"jsonrpc":"2.0"}`],
  ['ping with white space around members', (id) => ` { "jsonrpc" : "2.0" , "id" : ${id} , "method" : "ping" } `],
  ['ping ending in CRLF', (id) => `${request(id, 'ping')}\r`],
  ['a duplicated id (the last counts)', (id) => `{"jsonrpc":"2.0","id":"discarded","id":${id},"method":"ping"}`],
  ['tools/list', (id) => request(id, 'tools/list', {})],
  ['tools/list without params', (id) => request(id, 'tools/list')],
  ['resources/list', (id) => request(id, 'resources/list', {})],
  ['prompts/list', (id) => request(id, 'prompts/list', {})],
  ['tasks/list', (id) => request(id, 'tasks/list', {})],
  ['tools/list with a float progress token', (id) => request(id, 'tools/list', { _meta: { progressToken: 0.5 } })],
  ['tools/list with a string progress token', (id) => request(id, 'tools/list', { _meta: { progressToken: 'p' } })],
  ['tools/list with a project', (id) => request(id, 'tools/list', { _meta: { projectId: 'nobody' } })],
  [
    'tool_discovery',
    (id) => request(id, 'tools/call', { name: 'tool_discovery', arguments: { query: 'read a file' } }),
  ],
  ['tool_discovery without arguments (isError result)', (id) => request(id, 'tools/call', { name: 'tool_discovery' })],
  [
    'tool_discovery with a bad maxResults (isError result)',
    (id) => request(id, 'tools/call', { name: 'tool_discovery', arguments: { query: 'x', maxResults: 0 } }),
  ],
  [
    'tool_discovery with CJK and emoji',
    (id) => request(id, 'tools/call', { name: 'tool_discovery', arguments: { query: ['ファイルを読む', '😀'] } }),
  ],
  [
    'tool_discovery with a 10 kB query',
    (id) => request(id, 'tools/call', { name: 'tool_discovery', arguments: { query: 'read '.repeat(2000) } }),
  ],
  [
    'tool_discovery with query syntax characters',
    (id) => request(id, 'tools/call', { name: 'tool_discovery', arguments: { query: '+-*:^~"()[]{}\\' } }),
  ],
  [
    'tool_execute of an unknown key (isError result)',
    (id) => request(id, 'tools/call', { name: 'tool_execute', arguments: { toolKey: 'nowhere:tool' } }),
  ],
  [
    'tool_execute without a key (isError result)',
    (id) => request(id, 'tools/call', { name: 'tool_execute', arguments: {} }),
  ],
  [
    'tool_execute with arguments as bad JSON text (isError result)',
    (id) => request(id, 'tools/call', { name: 'tool_execute', arguments: { toolKey: 'a:b', arguments: '{' } }),
  ],
  [
    'tools/call with a float progress token',
    (id) =>
      request(id, 'tools/call', { name: 'tool_discovery', arguments: { query: 'x' }, _meta: { progressToken: 1.25 } }),
  ],
  [
    'initialize again',
    (id) =>
      request(id, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'again', version: '1' },
      }),
  ],
  [
    'initialize with an unknown protocol version',
    (id) =>
      request(id, 'initialize', {
        protocolVersion: '1999-01-01',
        capabilities: {},
        clientInfo: { name: 'old', version: '1' },
      }),
  ],
  [
    'initialize with extra capabilities',
    (id) =>
      request(id, 'initialize', {
        protocolVersion: '2025-03-26',
        capabilities: { roots: { listChanged: true }, x: {} },
        clientInfo: { name: 'x', version: '1', title: 't' },
      }),
  ],
];
for (const [name, make] of goodRequests) {
  const id = uniqueId();
  add(`well-formed: ${name}`, make(id), { result: true, id });
}

// Nothing: notifications (never answered, even when malformed), responses, blank lines.
const silent = [
  ['initialized notification', '{"jsonrpc":"2.0","method":"notifications/initialized"}'],
  ['initialized notification with params', '{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}'],
  ['notification with params a string', '{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}'],
  ['notification with params an array', '{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}'],
  ['notification with _meta a number', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":1}}'],
  ['unknown notification', '{"jsonrpc":"2.0","method":"no/such/notification"}'],
  [
    'cancellation of a request never made',
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":424242}}',
  ],
  [
    'cancellation with a float request id',
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}',
  ],
  ['cancellation without a request id', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}'],
  [
    'progress notification of an unknown token',
    '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}',
  ],
  ['roots list changed', '{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}'],
  ['ping as a notification', '{"jsonrpc":"2.0","method":"ping"}'],
  ['tools/list as a notification', '{"jsonrpc":"2.0","method":"tools/list","params":{"cursor":1}}'],
  ['notification with extra members', '{"jsonrpc":"2.0","method":"notifications/initialized","extra":1}'],
  ['result for an unknown id', '{"jsonrpc":"2.0","id":987654,"result":{}}'],
  ['result null for an unknown id', '{"jsonrpc":"2.0","id":987655,"result":null}'],
  ['result a string', '{"jsonrpc":"2.0","id":987656,"result":"ok"}'],
  ['error for an unknown id', '{"jsonrpc":"2.0","id":987657,"error":{"code":-32000,"message":"x"}}'],
  ['error without a message', '{"jsonrpc":"2.0","id":987658,"error":{"code":-32000}}'],
  ['error without a code', '{"jsonrpc":"2.0","id":987659,"error":{"message":"x"}}'],
  ['error with a float code', '{"jsonrpc":"2.0","id":987660,"error":{"code":1.5,"message":"x"}}'],
  ['error with id null', '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'],
  ['result without an id', '{"jsonrpc":"2.0","result":{}}'],
  ['result without jsonrpc', '{"id":987661,"result":{}}'],
  ['result and error at once', '{"jsonrpc":"2.0","id":987662,"result":{},"error":{"code":1,"message":"x"}}'],
  ['empty line', ''],
  ['spaces', '    '],
  ['a tab', '\t'],
  ['a carriage return', '\r'],
];
for (const [name, line] of silent) add(`no answer: ${name}`, line, { none: true });

writeFileSync(new URL('./json-rpc-fuzz-corpus.json', import.meta.url), `${JSON.stringify(entries, null, 1)}\n`);
process.stdout.write(`${entries.length} entries\n`);

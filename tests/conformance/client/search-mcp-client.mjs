#!/usr/bin/env node
// The client under test for the official MCP conformance suite's client scenarios: `@search-mcp/client-manager`
// (its built `dist/`) connecting to the scenario's server as one backend, the way Search MCP reaches every backend
// (`protocol: "auto"`: the `server/discover` probe, then 2026-07-28 or 2025). The runner starts it as
//   conformance client --command "node tests/conformance/client/search-mcp-client.mjs" --scenario <name>
// and appends the scenario server's URL as the last argument (`MCP_CONFORMANCE_SCENARIO` names the scenario).
//
// One program for every scenario: it connects, lists the tools and calls each one, then lists and reads the
// resources and lists and gets the prompts the server offers. The manager hands a 2026-07-28 backend's
// `input_required` answer back as it is; this program fulfils it (the role a host plays) and retries with the
// answers and the `requestState` echoed. A 2025 backend's requests to the client (elicitation, sampling, roots)
// reach the same answers through the manager's reverse-request router. A step the server refuses (some scenario
// servers answer only the requests they test) is logged to stderr and the next one runs; the exit code is 1 only
// when the connection could not be made (the suite's checks decide pass or fail).
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const { McpClientManager } = await import(`${root}packages/client-manager/dist/index.js`);

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const serverId = 'conformance';
/** Rounds of input one request may take before this client gives up (the suite's flows take one or two). */
const maxRounds = 8;

/** What this client can answer (every request declares it). */
const capabilities = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } };

function log(message, fields = {}) {
  process.stderr.write(`${JSON.stringify({ client: 'search-mcp', scenario, message, ...fields })}\n`);
}

const logger = {
  debug: () => {},
  info: (message, fields) => log(message, fields),
  warn: (message, fields) => log(message, fields),
  error: (message, fields) => log(message, fields),
  child: () => logger,
};

/** A value for one JSON Schema property: its default, else its first enum member, else a plain value of its type. */
function valueFor(schema) {
  if (!schema || typeof schema !== 'object') return 'value';
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema);
    default:
      return 'value';
  }
}

/** Arguments for a tool: every required property (and every property with a default). */
function argumentsFor(schema) {
  const properties = schema?.properties && typeof schema.properties === 'object' ? schema.properties : {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const args = {};
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name) || (property && typeof property === 'object' && 'default' in property)) {
      args[name] = valueFor(property);
    }
  }
  return args;
}

/**
 * http-custom-headers: values for the optional `x-mcp-header` properties too, each of the kind its name asks for
 * (non-ASCII, surrounding or inner spaces, control characters), so every header encoding the suite checks is sent.
 */
function headerSamples(schema) {
  const samples = {
    non_ascii_val: 'Grüße',
    whitespace_val: '  padded  ',
    leading_space_val: ' leading',
    trailing_space_val: 'trailing ',
    internal_space_val: 'inner space',
    control_char_val: 'bell\u0007',
    crlf_val: 'line\r\nbreak',
    tab_val: '\ttabbed',
  };
  const args = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property?.['x-mcp-header'] === undefined || property.type === 'null') continue;
    if (name in samples) args[name] = samples[name];
  }
  return args;
}

/** The host's answer to a request for the client (elicitation accepted with the form's defaults, …). */
function answer(method, params = {}) {
  switch (method) {
    case 'elicitation/create': {
      const schema = params.requestedSchema;
      const content = {};
      for (const [name, property] of Object.entries(schema?.properties ?? {})) content[name] = valueFor(property);
      return { action: 'accept', content };
    }
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'conformance' }, model: 'search-mcp-conformance' };
    case 'roots/list':
      return { roots: [] };
    default:
      throw Object.assign(new Error(`Method not found: ${method}`), { code: -32601 });
  }
}

/**
 * One request that may ask for input: each `input_required` answer is fulfilled and the request sent again with
 * the answers and the `requestState` exactly as the server sent it (none when it sent none).
 */
async function withInput(send) {
  let retry = {};
  for (let round = 0; round < maxRounds; round += 1) {
    const result = await send(retry);
    if (result?.resultType !== 'input_required') return result;
    const inputResponses = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      inputResponses[key] = answer(request.method, request.params);
    }
    retry = {
      inputResponses,
      ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
    };
  }
  throw new Error(`still asking for input after ${maxRounds} rounds`);
}

const manager = new McpClientManager(
  { mcpServers: { [serverId]: { url, startupTimeoutMs: 20_000, timeoutMs: 20_000 } } },
  {
    logger,
    clientInfo: { name: 'search-mcp-conformance-client', version: '1.0.0' },
    restartPolicy: { maxAttempts: 1 },
    reverseRequests: {
      clientCapabilities: () => capabilities,
      route: async (request) => answer(request.method, request.params),
    },
  },
);

let failures = 0;
async function step(what, run) {
  try {
    const result = await run();
    log('ok', { step: what });
    return result;
  } catch (error) {
    log('failed', { step: what, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

try {
  await manager.start(serverId);
  const status = manager.status().find((entry) => entry.id === serverId);
  log('connected', { protocolVersion: status?.protocolVersion, era: status?.protocolEra });
  const features = new Set(status?.features ?? []);
  const tools = (await step('tools/list', () => manager.listTools(serverId))) ?? [];
  for (const tool of tools) {
    const args = argumentsFor(tool.inputSchema);
    // json-schema-2020-12-preservation asks the client to send back, unchanged, the input schema it was given for
    // the scenario's other tool: what the manager kept of it is what the suite compares.
    if (tool.toolName === 'json_schema_echo') {
      const focal = tools.find((other) => other.toolName !== tool.toolName);
      if (focal) args.schema = focal.inputSchema;
    }
    if (scenario === 'http-custom-headers') Object.assign(args, headerSamples(tool.inputSchema));
    await step(`tools/call ${tool.toolName}`, () =>
      withInput((retry) => manager.callTool(serverId, tool.toolName, args, retry)),
    );
  }
  if (features.has('resources')) {
    const page = await step('resources/list', () => manager.listResources(serverId));
    for (const resource of page?.resources ?? []) {
      await step(`resources/read ${resource.uri}`, () =>
        withInput((retry) => manager.readResource(serverId, resource.uri, retry)),
      );
    }
  }
  if (features.has('prompts')) {
    const page = await step('prompts/list', () => manager.listPrompts(serverId));
    for (const prompt of page?.prompts ?? []) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, 'value']));
      await step(`prompts/get ${prompt.name}`, () =>
        withInput((retry) => manager.getPrompt(serverId, prompt.name, args, retry)),
      );
    }
  }
} catch (error) {
  failures += 1;
  log('could not connect', { error: error instanceof Error ? error.message : String(error) });
} finally {
  await manager.close();
}
process.exit(failures === 0 ? 0 : 1);

// The client under test for the official MCP conformance suite's client scenarios: `@search-mcp/client-manager` (its
// built `dist/`) connecting to the scenario's server as one backend, the way Search MCP reaches every backend
// (`protocol: "auto"`: the `server/discover` probe, then 2026-07-28 or 2025). The suite starts it as
//   <node 20> --import <tsx> src/client/search-mcp-client.ts <scenario server URL>
// (`src/harness/client-scenario-runner.ts` builds that command); `MCP_CONFORMANCE_SCENARIO` names the scenario.
//
// One program for every scenario: it connects, lists the tools and calls each one, then lists and reads the resources
// and lists and gets the prompts the server offers. The manager hands a 2026-07-28 backend's `input_required` answer
// back as it is; this program fulfils it (the role a host plays) and retries with the answers and the `requestState`
// echoed. A 2025 backend's requests to the client (elicitation, sampling, roots) reach the same answers through the
// manager's reverse-request router. A step the server refuses (some scenario servers answer only the requests they
// test) is logged to stderr and the next one runs; the exit code is 1 only when the connection could not be made for another reason than a refused OAuth authorization (the
// suite's checks decide pass or fail).
import { createMemoryOAuthStore, McpClientManager, type McpClientManagerOptions } from '@search-mcp/client-manager';

type Json = Record<string, unknown>;
type Logger = NonNullable<McpClientManagerOptions['logger']>;

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const serverId = 'conformance';
/** Rounds of input one request may take before this client gives up (the suite's flows take one or two). */
const maxRounds = 8;

/** What this client can answer (every request declares it). */
const capabilities = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } };

function log(message: string, fields: object = {}): void {
  process.stderr.write(`${JSON.stringify({ client: 'search-mcp', scenario, message, ...fields })}\n`);
}

const logger: Logger = {
  debug: () => {},
  info: (message, fields) => log(message, fields),
  warn: (message, fields) => log(message, fields),
  error: (message, fields) => log(message, fields),
  child: () => logger,
};

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertiesOf(schema: unknown): Json {
  return isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
}

/** A value for one JSON Schema property: its default, else its first enum member, else a plain value of its type. */
function valueFor(schema: unknown): unknown {
  if (!isRecord(schema)) return 'value';
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
function argumentsFor(schema: unknown): Json {
  const required = new Set(isRecord(schema) && Array.isArray(schema.required) ? schema.required : []);
  const args: Json = {};
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    if (required.has(name) || (isRecord(property) && 'default' in property)) args[name] = valueFor(property);
  }
  return args;
}

/**
 * http-custom-headers: values for the optional `x-mcp-header` properties too, each of the kind its name asks for
 * (non-ASCII, surrounding or inner spaces, control characters), so every header encoding the suite checks is sent.
 * The suite describes these samples in the scenario; they are this client's input, as a host's user would give it.
 */
const headerSampleValues: Record<string, string> = {
  non_ascii_val: 'Grüße',
  whitespace_val: '  padded  ',
  leading_space_val: ' leading',
  trailing_space_val: 'trailing ',
  internal_space_val: 'inner space',
  control_char_val: 'bell\u0007',
  crlf_val: 'line\r\nbreak',
  tab_val: '\ttabbed',
};

function headerSamples(schema: unknown): Json {
  const args: Json = {};
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    if (!isRecord(property) || property['x-mcp-header'] === undefined || property.type === 'null') continue;
    const sample = headerSampleValues[name];
    if (sample !== undefined) args[name] = sample;
  }
  return args;
}

/** The host's answer to a request for the client (elicitation accepted with the form's defaults, …). */
function answer(method: unknown, params: unknown): Json {
  switch (method) {
    case 'elicitation/create': {
      const content: Json = {};
      const schema = isRecord(params) ? params.requestedSchema : undefined;
      for (const [name, property] of Object.entries(propertiesOf(schema))) content[name] = valueFor(property);
      return { action: 'accept', content };
    }
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'conformance' }, model: 'search-mcp-conformance' };
    case 'roots/list':
      return { roots: [] };
    default:
      throw Object.assign(new Error(`Method not found: ${String(method)}`), { code: -32601 });
  }
}

interface InputRetry {
  inputResponses?: Json;
  requestState?: string;
}

/**
 * One request that may ask for input: each `input_required` answer is fulfilled and the request sent again with the
 * answers and the `requestState` exactly as the server sent it (none when it sent none).
 */
async function withInput(send: (retry: InputRetry) => Promise<unknown>): Promise<unknown> {
  let retry: InputRetry = {};
  for (let round = 0; round < maxRounds; round += 1) {
    const result = await send(retry);
    if (!isRecord(result) || result.resultType !== 'input_required') return result;
    const inputResponses: Json = {};
    for (const [key, request] of Object.entries(isRecord(result.inputRequests) ? result.inputRequests : {})) {
      inputResponses[key] = isRecord(request) ? answer(request.method, request.params) : undefined;
    }
    retry = {
      inputResponses,
      ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
    };
  }
  throw new Error(`still asking for input after ${maxRounds} rounds`);
}

async function step<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    const result = await run();
    log('ok', { step: what });
    return result;
  } catch (error) {
    log('failed', { step: what, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

if (!url) {
  log('no server URL: the suite passes it as the last argument');
  process.exit(1);
}

/**
 * OAuth as a user would configure it (docs/oauth.md): the client ID metadata document URL the suite's servers accept
 * (used only where the authorization server supports such documents, else the manager registers dynamically), and
 * what the suite hands the scenario in `MCP_CONFORMANCE_CONTEXT`: a pre-registered client's ID and secret, a
 * private key (`private_key_jwt`), a workload identity token, the enterprise identity provider and its ID token. The grant and DPoP are what a user of such a server
 * writes in its entry: the scenario's name says which server it is.
 */
function oauthSettings(): Json {
  const settings: Json = { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
  const context = process.env.MCP_CONFORMANCE_CONTEXT;
  const parsed: unknown = context ? JSON.parse(context) : undefined;
  if (isRecord(parsed) && typeof parsed.client_id === 'string') {
    settings.clientId = parsed.client_id;
    if (typeof parsed.client_secret === 'string') settings.clientSecret = parsed.client_secret;
    if (typeof parsed.private_key_pem === 'string') settings.privateKey = parsed.private_key_pem;
    if (typeof parsed.signing_algorithm === 'string') settings.signingAlgorithm = parsed.signing_algorithm;
  }
  if (scenario.startsWith('auth/client-credentials-')) settings.grant = 'client_credentials';
  if (scenario === 'auth/wif-jwt-bearer' && isRecord(parsed) && typeof parsed.valid_jwt === 'string') {
    settings.grant = 'jwt-bearer';
    settings.assertion = parsed.valid_jwt;
  }
  if (scenario === 'auth/dpop' || scenario === 'auth/dpop-nonce') settings.dpop = true;
  if (scenario === 'auth/enterprise-managed-authorization' && isRecord(parsed)) {
    settings.grant = 'enterprise-managed';
    settings.identityProvider = {
      issuer: parsed.idp_issuer,
      tokenEndpoint: parsed.idp_token_endpoint,
      clientId: parsed.idp_client_id,
      idToken: parsed.idp_id_token,
    };
  }
  return settings;
}

/**
 * The person in front of the browser: the suite's authorization endpoint answers at once with a redirect to the
 * manager's loopback listener, so following the URL with `fetch` is what a browser would do.
 */
async function followInBrowser(authorizationUrl: URL): Promise<void> {
  log('opening the authorization URL');
  const response = await fetch(authorizationUrl, { redirect: 'follow' });
  await response.body?.cancel();
}

const manager = new McpClientManager(
  { mcpServers: { [serverId]: { url, startupTimeoutMs: 20_000, timeoutMs: 20_000, oauth: oauthSettings() } } },
  {
    logger,
    // Each run's credentials stay in memory: nothing of one scenario reaches the next (or the user's keyring).
    oauth: { openAuthorizationUrl: followInBrowser, store: createMemoryOAuthStore() },
    clientInfo: { name: 'search-mcp-conformance-client', version: '1.0.0' },
    restartPolicy: { maxAttempts: 1 },
    reverseRequests: {
      clientCapabilities: () => capabilities,
      route: async (request) => answer(request.method, request.params),
    },
  },
);

let failed = false;
try {
  await manager.start(serverId);
  const status = manager.status().find((entry) => entry.id === serverId);
  log('connected', { protocolVersion: status?.protocolVersion, era: status?.protocolEra });
  const features = new Set(status?.features ?? []);
  const tools = (await step('tools/list', () => manager.listTools(serverId))) ?? [];
  for (const tool of tools) {
    const args = argumentsFor(tool.inputSchema);
    // json-schema-2020-12-preservation asks the client to send back, unchanged, the input schema it was given for the
    // scenario's other tool: what the manager kept of it is what the suite compares.
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
      const uri = resource.uri;
      if (typeof uri !== 'string') continue;
      await step(`resources/read ${uri}`, () => withInput((retry) => manager.readResource(serverId, uri, retry)));
    }
  }
  if (features.has('prompts')) {
    const page = await step('prompts/list', () => manager.listPrompts(serverId));
    for (const prompt of page?.prompts ?? []) {
      const name = prompt.name;
      if (typeof name !== 'string') continue;
      const declared = Array.isArray(prompt.arguments) ? prompt.arguments : [];
      const args: Record<string, string> = {};
      for (const argument of declared)
        if (isRecord(argument) && typeof argument.name === 'string') args[argument.name] = 'value';
      await step(`prompts/get ${name}`, () => withInput((retry) => manager.getPrompt(serverId, name, args, retry)));
    }
  }
} catch (error) {
  // The manager refusing an authorization it must not complete (an issuer or resource that does not match, a
  // server that keeps asking for more scope) is the behaviour the suite tests there, not a crash: it judges that by
  // its own checks. Anything else that kept the connection from being made is this client failing.
  const refusedAuthorization = (error as { code?: unknown }).code === 'BACKEND_AUTHORIZATION_ERROR';
  failed = !refusedAuthorization;
  log(refusedAuthorization ? 'refused the authorization' : 'could not connect', {
    error: error instanceof Error ? error.message : String(error),
  });
} finally {
  await manager.close();
}
process.exit(failed ? 1 : 0);

// Test helpers shared by the Search MCP packages (see README.md). Private: tests import it by name as a
// devDependency; nothing published depends on it.

export {
  type FixtureServerName,
  fixtureServer,
  fixtureServerNames,
  fixtureServerPath,
  fixtureServersDirectory,
  startHttpFixture,
  startRawHttpFixture,
} from './fixture-servers/fixture-server-paths.js';
export {
  loadRealServerTools,
  readRealServerDefinitions,
  realServerFixturesDirectory,
  realServerNames,
} from './real-servers/real-server-tools.js';
export {
  type ConnectProtocolEraClientOptions,
  connectProtocolEraClient,
  type ElicitationAnswer,
  fillForm,
  latestLegacyProtocolVersion,
  type ListedTool,
  type ListedTools,
  type ListenStream,
  modernProtocolVersion,
  type ProtocolEra,
  type ProtocolEraClientDescription,
  type ProtocolEraClientHandlers,
  type ProtocolEraClientKind,
  protocolEraClients,
  type ProtocolEraSession,
  type ProtocolEraTarget,
  type RawRequestOptions,
  type ReceivedNotification,
  type SamplingAnswer,
  type ToolCallOptions,
  type ToolCallOutcome,
} from './protocol-eras/protocol-era-clients.js';
export {
  type JsonRpcAnswer,
  modernRequestMeta,
  type RawStdioPeer,
  type RawStdioTarget,
  startRawStdioPeer,
} from './protocol-eras/raw-stdio-peer.js';
export { collectStderr, type StderrCollector } from './protocol-eras/stderr-collector.js';
export {
  citedOutput,
  defaultCitations,
  type FakeChatAnswer,
  type FakeCitation,
  type FakeFault,
  type FakeOpenAiServer,
  type FakeOpenAiServerOptions,
  type FakeOutputText,
  type FakeRoute,
  type FakeStatus,
  openAiErrorBody,
  type RecordedRequest,
  startFakeOpenAiServer,
  type WebSearchScenario,
} from './fake-openai/fake-openai-server.js';
export { type LoopbackWebServer, listenWebHandler } from './oauth/web-request-bridge.js';
export { freePort } from './network/free-port.js';
export {
  descendantsOf,
  isProcessRunning,
  isRunning,
  type ProcessRow,
  processOf,
  processTable,
} from './processes/process-table.js';

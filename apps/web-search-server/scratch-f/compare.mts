import { startFakeOpenAiServer } from '../../../packages/openai/test/fake-openai-server.js';
import { connectProtocolEraClient } from '../test/protocol-era-clients.js';
const apiKey = 'sk-proj-compare-123456789';
const fake = await startFakeOpenAiServer({ apiKey });
const env = { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: fake.baseUrl, WEB_SEARCH_POLL_INTERVAL_MS: '1', LOG_LEVEL: 'warn' };
const paths = {
  'old 1.x server, 1.x client': await connectProtocolEraClient('sdk1', { transport: 'stdio', command: process.execPath, args: ['old/dist/cli.js'], env }),
  'new 2.x server, 1.x client': await connectProtocolEraClient('sdk1', { transport: 'stdio', command: process.execPath, args: ['../dist/cli.js'], env }),
  'new 2.x server, 2.x pinned 2026': await connectProtocolEraClient('sdk2-2026', { transport: 'stdio', command: process.execPath, args: ['../dist/cli.js'], env }),
};
const N = Number(process.argv[2] ?? 300), warm = 30;
const times: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
for (const s of Object.values(paths)) await s.listTools();
for (let i = 0; i < N + warm; i++) {
  for (const [name, s] of Object.entries(paths)) {
    const t = performance.now();
    const r = await s.callTool('chatgpt_o3_search', { query: 'q' + i });
    if (r.isError) throw new Error(JSON.stringify(r));
    if (i >= warm) times[name]!.push(performance.now() - t);
  }
}
for (const [name, list] of Object.entries(times)) { list.sort((a, b) => a - b); console.log(name.padEnd(34), 'p50', list[list.length >> 1]!.toFixed(2), 'ms  p95', list[Math.floor(list.length * 0.95)]!.toFixed(2), 'ms'); }
for (const s of Object.values(paths)) await s.close();
await fake.close();

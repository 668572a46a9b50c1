import { Client } from '@modelcontextprotocol/client';
import { Server, InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { Server as Server1 } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport as IM1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const N = 3000;
const tool = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };
function s2() { const s = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } }); s.setRequestHandler('tools/list', () => ({ tools: [tool] })); s.setRequestHandler('tools/call', (r) => ({ content: [{ type: 'text', text: String(r.params.arguments?.text) }] })); return s; }
async function measure(label: string, call: () => Promise<unknown>) {
  for (let i = 0; i < 300; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < N; i++) { const t = performance.now(); await call(); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(label.padEnd(34), 'p50', (times[N >> 1]! * 1000).toFixed(0), 'µs  p95', (times[Math.floor(N * 0.95)]! * 1000).toFixed(0), 'µs');
}
{ const s = new Server1({ name: 's', version: '1' }, { capabilities: { tools: {} } }); s.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] })); s.setRequestHandler(CallToolRequestSchema, (r) => ({ content: [{ type: 'text', text: String(r.params.arguments?.text) }] }));
  const [a, b] = IM1.createLinkedPair(); await s.connect(b); const c = new Client1({ name: 'c', version: '1' }); await c.connect(a); await c.listTools();
  await measure('1.x Client → 1.x Server', () => c.callTool({ name: 'echo', arguments: { text: 'hi' } })); await c.close(); }
for (const mode of ['legacy', { pin: '2026-07-28' }] as const) {
  const [a, b] = InMemoryTransport.createLinkedPair(); const h = serveStdio(s2, { transport: b });
  const c = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: mode as never } }); await c.connect(a); await c.listTools();
  await measure(`2.x Client(${JSON.stringify(mode)}) → 2.x`, () => c.callTool({ name: 'echo', arguments: { text: 'hi' } }));
  await measure(`  same, client.request(tools/call)`, () => c.request({ method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }));
  await c.close(); await h.close(); }
{ const [a, b] = InMemoryTransport.createLinkedPair(); const h = serveStdio(s2, { transport: b });
  const c = new Client1({ name: 'c', version: '1' }); await c.connect(a as never); await c.listTools();
  await measure('1.x Client → 2.x Server (legacy)', () => c.callTool({ name: 'echo', arguments: { text: 'hi' } })); await c.close(); await h.close(); }

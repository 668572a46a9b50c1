import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as T1 } from '@modelcontextprotocol/sdk/client/stdio.js';
const bin = '/work/main/node_modules/.pnpm/@modelcontextprotocol+server-everything@2026.8.31/node_modules/@modelcontextprotocol/server-everything/dist/index.js';
for (const mode of ['legacy', 'auto', { pin: '2026-07-28' }] as const) {
  const t = new StdioClientTransport({ command: process.execPath, args: [bin, 'stdio'], stderr: 'ignore' });
  const c = new Client({ name: 'x', version: '1' }, { versionNegotiation: { mode: mode as never } });
  const t0 = performance.now();
  try {
    await c.connect(t, { timeout: 20000 });
    const ms = performance.now() - t0;
    const tools = await c.listTools();
    console.log(JSON.stringify(mode), 'connect ms', ms.toFixed(0), 'era', c.getProtocolEra(), c.getNegotiatedProtocolVersion(), 'tools', tools.tools.length);
  } catch (e: any) { console.log(JSON.stringify(mode), 'failed after', (performance.now() - t0).toFixed(0), 'ms:', e.constructor.name, e.code, String(e.message).slice(0, 200)); }
  await c.close().catch(() => {});
}
// 1.x client against a modern-only stdio server (2.x serveStdio legacy reject)
const t = new T1({ command: process.execPath, args: ['--import', 'tsx', 'reject.mts'], stderr: 'inherit' });
const c1 = new Client1({ name: 'x', version: '1' });
try { await c1.connect(t, { timeout: 10000 }); console.log('1.x connected?!'); } catch (e: any) { console.log('1.x vs modern-only:', e.code, String(e.message).slice(0, 200)); }
await c1.close().catch(() => {});

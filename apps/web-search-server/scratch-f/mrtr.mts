import { Client } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Server, InMemoryTransport, inputRequired, acceptedContent, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const log: string[] = [];
function factory(ctx: { era: string }) {
  const server = new Server({ name: 'mrtr', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'ask', inputSchema: { type: 'object' } }] }));
  server.setRequestHandler('tools/call', async (_req, c) => {
    log.push(`handler entered era=${ctx.era} responses=${JSON.stringify(c.mcpReq.inputResponses)} state=${c.mcpReq.requestState()}`);
    const name = acceptedContent(c.mcpReq.inputResponses, 'who');
    if (!name) return inputRequired({ inputRequests: { who: inputRequired.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as never }) }, requestState: 'round-1' });
    return { content: [{ type: 'text', text: `hello ${name.name}` }] };
  });
  return server;
}

async function viaStdioEntry(kind: string) {
  log.length = 0;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(factory as never, { transport: serverSide });
  const wire: string[] = [];
  const origSend = clientSide.send.bind(clientSide);
  clientSide.send = async (m: any, o?: any) => { wire.push('C→S ' + (m.method ?? 'response') ); return origSend(m, o); };
  let result: unknown;
  if (kind === 'sdk1') {
    const c = new Client1({ name: 'c1', version: '1' }, { capabilities: { elicitation: {} } });
    c.setRequestHandler(ElicitRequestSchema, async (r) => { wire.push('client elicitation handler: ' + r.params.message); return { action: 'accept', content: { name: 'Ada' } }; });
    await c.connect(clientSide as never);
    result = await c.callTool({ name: 'ask', arguments: {} });
    await c.close();
  } else {
    const c = new Client({ name: 'c2', version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: kind === 'modern' ? { pin: '2026-07-28' } : 'legacy' } });
    c.setRequestHandler('elicitation/create', async (r: any) => { wire.push('client elicitation handler: ' + r.params.message); return { action: 'accept', content: { name: 'Ada' } }; });
    await c.connect(clientSide);
    result = await c.callTool({ name: 'ask', arguments: {} });
    await c.close();
  }
  await handle.close();
  console.log(`--- ${kind}`, JSON.stringify(result), '\n ', log.join('\n  '), '\n ', wire.join(' | '));
}
await viaStdioEntry('modern');
await viaStdioEntry('legacy2');
await viaStdioEntry('sdk1');

// HTTP handler: headers and stateless legacy
const http = createMcpHandler(factory as never, {});
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
async function post(body: unknown, headers: Record<string, string>) {
  const r = await http.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) }));
  const text = await r.text();
  return `${r.status} ${[...r.headers].filter(([k]) => /mcp|content-type/i.test(k)).map(([k, v]) => `${k}=${v}`).join(',')} ${text.slice(0, 260)}`;
}
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: meta } };
console.log('http ok     :', await post(call, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ask' }));
console.log('http no hdr :', await post(call, { 'mcp-protocol-version': '2026-07-28' }));
console.log('http bad nm :', await post(call, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'other' }));
console.log('http list   :', await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }));
console.log('http legacy init:', await post({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, {}));
console.log('http legacy list no init:', await post({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }, { 'mcp-protocol-version': '2025-11-25' }));
console.log('isLegacyRequest(init)=', await isLegacyRequest(new Request('http://x/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'initialize', params: {} }) })));
console.log('isLegacyRequest(modern)=', await isLegacyRequest(new Request('http://x/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28' }, body: JSON.stringify(call) })));
await http.close?.();

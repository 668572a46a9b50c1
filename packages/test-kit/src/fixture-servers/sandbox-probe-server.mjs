#!/usr/bin/env node
// Tries what a sandbox must refuse, and reports what happened: each tool answers one JSON text,
// `{ "ok": true, … }` or `{ "ok": false, "code": "<errno>" }`. Tools: `read_file { path }`, `write_file { path, text }`,
// `connect { host, port }` (a TCP connection, closed at once), `process_visible { pid }` (whether `/proc/<pid>`
// exists, and how many processes `/proc` lists). Flags: any (e.g. `--marker <text>`, to find the process by its
// command line).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = ['read_file', 'write_file', 'connect', 'process_visible'];
const server = new Server({ name: 'sandbox-probe', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((name) => ({ name, description: `tries ${name}`, inputSchema: { type: 'object' } })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  const outcome = await attempt(() => run(request.params.name, args));
  return { content: [{ type: 'text', text: JSON.stringify(outcome) }] };
});
await server.connect(new StdioServerTransport());

async function run(name, args) {
  if (name === 'read_file') return { text: readFileSync(String(args.path), 'utf8') };
  if (name === 'write_file') {
    writeFileSync(String(args.path), String(args.text ?? ''));
    return {};
  }
  if (name === 'connect') return tcpConnect(String(args.host), Number(args.port));
  if (name === 'process_visible') {
    const count = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).length;
    return { visible: existsSync(`/proc/${Number(args.pid)}`), count };
  }
  throw Object.assign(new Error(`unknown tool ${name}`), { code: 'ENOSYS' });
}

async function attempt(action) {
  try {
    return { ok: true, ...(await action()) };
  } catch (error) {
    return { ok: false, code: error.code ?? 'UNKNOWN', message: error.message };
  }
}

function tcpConnect(host, port) {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setTimeout(5000, () => socket.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    socket.once('connect', () => {
      socket.end();
      resolve({});
    });
    socket.once('error', reject);
  });
}

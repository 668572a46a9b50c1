import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
serveStdio(() => { const s = new Server({ name: 'modern-only', version: '1' }, { capabilities: { tools: {} } }); s.setRequestHandler('tools/list', () => ({ tools: [] })); return s; }, { legacy: 'reject' });

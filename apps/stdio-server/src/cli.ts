// The entry of `search-mcp`. Its only static import loads Node built-ins alone: a `call` spawns its server first, and
// everything else (the runtime, the SDKs, ~400 ms) loads while that server starts.
import { prestartCallServer } from './prestart-call-server.js';

const prestarted = prestartCallServer(process.argv.slice(2), process.env, process.cwd());
const { main } = await import('./cli-main.js');
await main(prestarted);
// A command that ended here without its runtime adopting the server (a usage error): the server goes too, or its
// pipes would keep this process alive.
for (const server of prestarted) server.discard();

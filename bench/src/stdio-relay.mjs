// A bare byte relay: one extra node process between an MCP client and a stdio server that only copies bytes both
// ways, never parsing them. Its cost over a direct connection is the physical price of one more hop (a process and
// two pipes): the floor any stdio proxy such as search-mcp is measured against (bench/forwarding-overhead-bench.ts).
//
//   node bench/src/stdio-relay.mjs <command> [args…]
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node stdio-relay.mjs <command> [args…]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', () => process.exit(0));
process.stdin.on('end', () => child.kill());

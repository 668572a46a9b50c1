// @ts-check
/**
 * The supervisor of one stdio MCP server. `StdioProcessTransport` runs this script (with the host's own `node`) and
 * the supervisor runs the server, so that no server outlives Search MCP, even when Search MCP is killed with
 * SIGKILL and cannot clean up after itself.
 *
 * How:
 * - The server gets the supervisor's stdin, stdout and stderr (inherited file descriptors): protocol bytes flow
 *   between Search MCP and the server without passing through this process.
 * - The server runs in its own process group, so a launcher (`npx`, `sh -c`, `uvx`) and everything it starts are
 *   ended together.
 * - Search MCP holds the other end of an IPC channel. The kernel closes it the moment Search MCP dies, for whatever
 *   reason: the supervisor then sends SIGTERM to the server's process group, SIGKILL after `orphanGraceMs`, and
 *   exits. It also checks every second whether it has been handed to another parent (a second way to notice).
 * - It reports the server's pid and exit to Search MCP. On Linux it also finds the process that actually serves
 *   (behind `sh -c "node server.js; sleep 600"` that is `node`, while `sh` lives on) and reports its death, so a
 *   crash behind a wrapper is noticed at once instead of after every later call has timed out.
 * - When the server's direct child ends, whatever is left in its group would be an orphan: it is killed.
 *
 * Protocol (JSON messages over the Node IPC channel):
 *   parent → supervisor  { type: 'spawn', command, args, env, cwd?, orphanGraceMs }   first and once
 *                        { type: 'watch-server' }   the server has answered: find the process that serves (Linux)
 *   supervisor → parent  { type: 'spawned', pid } | { type: 'spawn-error', code?, message }
 *                        { type: 'server-exit', pid }   the serving process ended while its launcher still ran
 *                        { type: 'exit', code, signal }   the direct child ended
 *
 * Plain JavaScript with Node built-ins only: it is run as it is, from `dist/supervisor.js` (or from `src/` in the
 * package's own tests).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const isWindows = process.platform === 'win32';
const parentPid = process.ppid;
/** How often a tracked serving process is checked for life. */
const serverPollMs = 100;

/** @type {import('node:child_process').ChildProcess | undefined} */
let child;
let childExited = false;
let shuttingDown = false;
let orphanGraceMs = 1000;
/** @type {NodeJS.Timeout | undefined} */
let serverPoll;
/** Messages handed to the IPC channel and not yet written. */
let unsent = 0;
let exitRequested = false;

if (!process.send || !process.connected) {
  process.stderr.write('search-mcp supervisor: must be started by @search-mcp/client-manager (no IPC channel)\n');
  process.exit(2);
}

process.on('message', (/** @type {any} */ message) => {
  if (message?.type === 'spawn' && !child) start(message);
  else if (message?.type === 'watch-server') watchServer();
});
// The parent died (or let go): nothing may outlive it.
process.on('disconnect', () => shutDown());
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) process.on(signal, () => shutDown());
setInterval(() => {
  if (process.ppid !== parentPid) shutDown();
}, 1000).unref();

/** @param {{ command: string, args: string[], env: Record<string, string>, cwd?: string, orphanGraceMs?: number }} message */
function start(message) {
  if (typeof message.orphanGraceMs === 'number') orphanGraceMs = message.orphanGraceMs;
  try {
    child = spawn(message.command, message.args, {
      env: message.env,
      cwd: message.cwd,
      stdio: 'inherit',
      // Its own process group on POSIX, so the whole tree can be signalled at once.
      detached: !isWindows,
      // Windows needs a shell to run `npx.cmd` and friends.
      shell: isWindows,
      windowsHide: true,
    });
  } catch (error) {
    reportSpawnError(/** @type {NodeJS.ErrnoException} */ (error));
    return;
  }
  child.once('spawn', () => send({ type: 'spawned', pid: child?.pid }));
  // Spawn failures (ENOENT, EACCES, a missing cwd) arrive here instead of 'spawn'.
  child.once('error', (error) => {
    if (child?.pid === undefined) reportSpawnError(error);
  });
  child.once('exit', (code, signal) => {
    childExited = true;
    send({ type: 'exit', code, signal });
    // The direct child is gone; anything it left in its group would be an orphan.
    signalGroup('SIGKILL');
    exitSoon();
  });
}

/** @param {NodeJS.ErrnoException} error */
function reportSpawnError(error) {
  send({ type: 'spawn-error', code: error.code, message: error.message });
  exitSoon();
}

/**
 * Finds the process that serves: from the direct child, follow the only child process that holds the same stdout,
 * as long as there is exactly one (a launcher's chain: `npx` → `sh` → `node`). Reports its death.
 */
function watchServer() {
  const pid = child?.pid;
  if (pid === undefined || childExited || serverPoll || process.platform !== 'linux') return;
  let served;
  try {
    served = findServingProcess(pid);
  } catch {
    return; // /proc unreadable: the direct child's exit still counts.
  }
  if (!served) return;
  const { pid: servingPid, startTime } = served;
  serverPoll = setInterval(() => {
    const stat = readStat(servingPid);
    if (stat && stat.state !== 'Z' && stat.state !== 'X' && stat.startTime === startTime) return;
    clearInterval(serverPoll);
    if (childExited || shuttingDown) return;
    send({ type: 'server-exit', pid: servingPid });
    // The server is gone; its launcher and anything else in the group serve nobody now.
    signalGroup('SIGKILL');
  }, serverPollMs);
}

/** @param {number} rootPid */
function findServingProcess(rootPid) {
  const stdout = readlinkSync('/proc/self/fd/1');
  /** @type {Map<number, number[]>} */
  const childrenOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    const siblings = childrenOf.get(stat.ppid) ?? [];
    siblings.push(Number(entry));
    childrenOf.set(stat.ppid, siblings);
  }
  let current = rootPid;
  for (;;) {
    const holders = (childrenOf.get(current) ?? []).filter((pid) => linkOf(`/proc/${pid}/fd/1`) === stdout);
    if (holders.length !== 1 || holders[0] === undefined) break;
    current = holders[0];
  }
  if (current === rootPid) return undefined;
  const stat = readStat(current);
  return stat ? { pid: current, startTime: stat.startTime } : undefined;
}

/** @param {number} pid */
function readStat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields are counted after the last `)`.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
}

/** @param {string} path */
function linkOf(path) {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function shutDown() {
  if (shuttingDown) return;
  shuttingDown = true;
  if (!child || childExited || child.pid === undefined) {
    process.exit(0);
  }
  signalGroup('SIGTERM');
  setTimeout(() => {
    signalGroup('SIGKILL');
    process.exit(0);
  }, orphanGraceMs).unref();
  // If the server ends within the grace period, the 'exit' handler kills the rest of its group and exits.
}

/** @param {NodeJS.Signals} signal */
function signalGroup(signal) {
  const pid = child?.pid;
  if (pid === undefined) return;
  try {
    if (isWindows) spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    else process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** @param {unknown} message */
function send(message) {
  if (!process.connected || !process.send) return;
  unsent += 1;
  try {
    process.send(message, undefined, {}, () => {
      unsent -= 1;
      if (exitRequested && unsent === 0) process.exit(0);
    });
  } catch {
    // The parent is gone; 'disconnect' handles that.
    unsent -= 1;
  }
}

/** Exits once every message is written, so the parent learns the exit before the pipes close. */
function exitSoon() {
  if (serverPoll) clearInterval(serverPoll);
  exitRequested = true;
  if (unsent === 0 || !process.connected) process.exit(0);
}

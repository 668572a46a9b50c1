// @ts-check
/**
 * The process watchdog: one small process per Search MCP process that ends every stdio server's process group when
 * Search MCP dies, for whatever reason, SIGKILL included, when Search MCP cannot clean up after itself.
 *
 * How:
 * - Search MCP spawns its servers itself (each in its own process group, stdin/stdout/stderr straight to Search MCP:
 *   no byte passes through here) and tells this process the group of each one.
 * - Search MCP holds the other end of an IPC channel. The kernel closes it the moment Search MCP dies: the watchdog
 *   then sends SIGTERM to every group it watches, SIGKILL after the grace period (`--grace MS`, default 1000) to
 *   those still alive, and exits as soon as none is left (at once after a clean shutdown). It also checks every
 *   second whether it has been handed to another parent (a second way to notice), and does the same on SIGTERM,
 *   SIGINT and SIGHUP.
 * - On Linux it watches the process that actually serves in a group (behind `sh -c "node server.js; sleep 600"`
 *   that is `node`, while `sh` lives on), which Search MCP finds when the server first answers (serving-process.ts),
 *   and reports its death, so a crash behind a wrapper is noticed at once instead of after every later call has
 *   timed out.
 * One watchdog serves every server: starting a server waits for nothing, and it costs one process, not one each.
 *
 * Protocol (JSON messages over the Node IPC channel):
 *   Search MCP → watchdog  { type: 'watch', group }         end this group if Search MCP dies
 *                          { type: 'watch-server', group, pid, startTime }   report the death of this process of it
 *                          { type: 'forget', group }        the group has ended; stop watching it
 *   watchdog → Search MCP  { type: 'server-exit', group, pid }   the serving process of `group` has ended
 *
 * Plain CommonJS with Node built-ins only, run as it is from `dist/watchdog.cjs` (or `src/process/` in the package's
 * own tests). CommonJS on purpose: its listeners are attached before the event loop first reads the IPC channel, so
 * messages sent while it boots, and the channel's closing, are never missed (an ES module loads asynchronously, and
 * Node drops IPC messages that arrive before a 'message' listener exists).
 */
const { spawn } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');

const isWindows = process.platform === 'win32';
const parentPid = process.ppid;
/** How often a serving process is checked for life. */
const serverPollMs = 100;
const graceIndex = process.argv.indexOf('--grace');
const graceMs = graceIndex === -1 ? 1000 : Number(process.argv[graceIndex + 1] ?? 1000);

/** Watched process groups, each with the serving process found in it (if any). */
/** @type {Map<number, { pid: number, startTime: string } | undefined>} */
const groups = new Map();
let shuttingDown = false;

if (!process.send || !process.connected) {
  process.stderr.write('search-mcp watchdog: must be started by @search-mcp/client-manager (no IPC channel)\n');
  process.exit(2);
}

process.on('message', (/** @type {any} */ message) => {
  const group = Number(message?.group);
  if (!Number.isInteger(group) || group <= 0) return;
  if (message.type === 'watch') groups.set(group, undefined);
  else if (message.type === 'forget') groups.delete(group);
  else if (message.type === 'watch-server' && groups.has(group) && Number.isInteger(message.pid)) {
    groups.set(group, { pid: message.pid, startTime: String(message.startTime) });
  }
});
// Search MCP died (or let go): nothing it started may outlive it.
process.on('disconnect', () => shutDown());
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) process.on(signal, () => shutDown());
setInterval(() => {
  if (process.ppid !== parentPid) shutDown();
}, 1000).unref();
setInterval(checkServingProcesses, serverPollMs);

function checkServingProcesses() {
  for (const [group, serving] of groups) {
    if (!serving) continue;
    const stat = readStat(serving.pid);
    if (stat && stat.state !== 'Z' && stat.state !== 'X' && stat.startTime === serving.startTime) continue;
    groups.set(group, undefined);
    send({ type: 'server-exit', group, pid: serving.pid });
  }
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
  return { state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]), startTime: fields[19] };
}

function shutDown() {
  if (shuttingDown) return;
  shuttingDown = true;
  // On a clean shutdown the groups have ended (or are ending) already: go as soon as they are gone, not after the
  // grace period, so the watchdog never outlives Search MCP by more than its servers do.
  for (const group of groups.keys()) {
    if (!signalGroup(group, 'SIGTERM')) groups.delete(group);
  }
  if (groups.size === 0) process.exit(0);
  const deadline = Date.now() + graceMs;
  setInterval(() => {
    for (const group of groups.keys()) {
      if (!groupAlive(group)) groups.delete(group);
    }
    if (groups.size > 0 && Date.now() < deadline) return;
    for (const group of groups.keys()) signalGroup(group, 'SIGKILL');
    process.exit(0);
  }, 25);
}

/**
 * @param {number} group
 * @param {NodeJS.Signals} signal
 * @returns {boolean} false when the group is already gone
 */
function signalGroup(group, signal) {
  try {
    if (!isWindows) process.kill(-group, signal);
    else if (signal === 'SIGKILL') spawn('taskkill', ['/pid', String(group), '/T', '/F'], { windowsHide: true });
    else process.kill(group, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone.
  }
}

/**
 * Whether any process of the group still runs. On Linux zombies do not count: killed members whose parent (Search
 * MCP) is gone wait for init to reap them, which may take a while, and they hold nothing.
 * @param {number} group
 */
function groupAlive(group) {
  if (process.platform === 'linux') {
    try {
      return readdirSync('/proc').some((entry) => {
        if (!/^\d+$/.test(entry)) return false;
        const stat = readStat(Number(entry));
        return stat !== undefined && stat.pgrp === group && stat.state !== 'Z' && stat.state !== 'X';
      });
    } catch {
      // /proc unreadable: ask the kernel (zombies count there).
    }
  }
  try {
    process.kill(isWindows ? group : -group, 0);
    return true;
  } catch {
    return false;
  }
}

/** @param {unknown} message */
function send(message) {
  if (!process.connected || !process.send) return;
  process.send(message, undefined, {}, () => {
    // A failed send means Search MCP is gone; 'disconnect' handles that.
  });
}

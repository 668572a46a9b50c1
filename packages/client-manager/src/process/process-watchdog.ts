import { type ChildProcess, spawn } from 'node:child_process';
import { isRecord } from '@search-mcp/shared';
import { isWindows } from './process-group.js';
import { findServingProcess, type ServingProcess } from './serving-process.js';

/** One server's process group, registered with the watchdog. */
export interface WatchedGroup {
  /** The server has answered: find its serving process now and have its death reported (Linux). */
  findServer(): void;
  /** The group has ended: stop watching it. */
  forget(): void;
}

interface GroupEntry {
  onServerExit: (pid: number) => void;
  /** Looked for once, at the first answer. */
  searched: boolean;
  /** The process serving behind a wrapper, when the leader does not serve itself. */
  server?: ServingProcess;
}

/** A watchdog that dies this soon after its start is not restarted more than `maxQuickDeaths` times in a row. */
const quickDeathMs = 1000;
const maxQuickDeaths = 3;

/**
 * The host's side of `watchdog.cjs` (see there for why and how): one watchdog process per script, started on the
 * first server, told the process group of every server. It never delays a start (messages are queued on its IPC
 * channel while it boots), never keeps the host alive (unref'd), and is started again if something kills it.
 */
export class ProcessWatchdog {
  private child?: ChildProcess;
  /** Watchdogs let go on purpose (`releaseIfIdle`): their exit is no death to count or recover from. */
  private readonly released = new WeakSet<ChildProcess>();
  private readonly groups = new Map<number, GroupEntry>();
  private startedAt = 0;
  private quickDeaths = 0;

  constructor(
    private readonly script: string,
    private readonly graceMs: number,
  ) {}

  /** Watches the group led by `group` (a server's pid); `onServerExit` hears of its serving process's death. */
  watch(group: number, onServerExit: (pid: number) => void): WatchedGroup {
    this.groups.set(group, { onServerExit, searched: false });
    this.send({ type: 'watch', group });
    return {
      findServer: () => {
        const entry = this.groups.get(group);
        if (!entry || entry.searched) return;
        entry.searched = true;
        // Here and now, not in the watchdog, which may still be booting: see serving-process.ts.
        entry.server = findServingProcess(group);
        if (entry.server) this.send({ type: 'watch-server', group, ...entry.server });
      },
      forget: () => {
        if (this.groups.delete(group)) this.send({ type: 'forget', group });
      },
    };
  }

  /** The watchdog's pid while one runs (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * When no group is watched any more (this host's last server has ended), lets the watchdog go and resolves once it
   * has exited (it exits at once with nothing to watch; at most `graceMs` + 1 s is waited). Why: a host that exits
   * while its watchdog still runs hands it to init, and the watchdog, exiting a moment later, stays a zombie until
   * init reaps it — 1–2 s in some containers, never under an init that does not reap — so the host's process tree
   * is not gone when the host is. Ended while the host lives, it is reaped by the host at once. The next server
   * starts a new one. With groups still watched (another manager's servers) nothing happens.
   */
  async releaseIfIdle(): Promise<void> {
    const watchdog = this.child;
    if (watchdog === undefined || this.groups.size > 0) return;
    this.child = undefined;
    this.released.add(watchdog);
    if (watchdog.exitCode !== null || watchdog.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        watchdog.off('exit', done);
        resolve();
      };
      // Not unref'd: a host with nothing else left to do must still wait for the exit it is here to reap.
      const timer = setTimeout(done, this.graceMs + 1000);
      watchdog.once('exit', done);
      // The closed channel is the watchdog's signal to end what it watches (nothing) and exit.
      if (watchdog.connected) watchdog.disconnect();
      else watchdog.kill('SIGTERM');
    });
  }

  private send(message: { type: string; group: number; pid?: number; startTime?: string }): void {
    const child = this.running();
    if (!child?.connected) return;
    child.send(message, () => {
      // A failed send means the watchdog died; its 'exit' starts a new one, which is told every group again.
    });
  }

  private running(): ChildProcess | undefined {
    if (this.child) return this.child;
    if (this.quickDeaths >= maxQuickDeaths) return undefined;
    const child = spawn(process.execPath, [this.script, '--grace', String(this.graceMs)], {
      // stdout belongs to the MCP protocol in stdio hosts: the watchdog never writes there.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: minimalEnvironment(),
      // Its own session, so a terminal's Ctrl-C or hang-up reaches the host, which then stops servers politely.
      detached: !isWindows,
      windowsHide: true,
    });
    this.child = child;
    this.startedAt = Date.now();
    child.on('message', (message: unknown) => {
      if (!isRecord(message) || message.type !== 'server-exit') return;
      this.groups.get(Number(message.group))?.onServerExit(Number(message.pid));
    });
    child.on('error', () => {
      // Spawning node itself failed (a broken install); 'exit' follows or nothing can be done.
    });
    child.once('exit', () => {
      if (this.released.has(child)) return;
      if (this.child === child) this.child = undefined;
      this.quickDeaths = Date.now() - this.startedAt < quickDeathMs ? this.quickDeaths + 1 : 0;
      this.rewatch();
    });
    child.unref();
    child.channel?.unref();
    return child;
  }

  /** A new watchdog learns every group still watched. */
  private rewatch(): void {
    for (const [group, entry] of this.groups) {
      this.send({ type: 'watch', group });
      if (entry.server) this.send({ type: 'watch-server', group, ...entry.server });
    }
  }
}

const watchdogs = new Map<string, ProcessWatchdog>();

/** The watchdog of this host process for `script` (one for every manager of the process). */
export function processWatchdog(script: string, graceMs = 1000): ProcessWatchdog {
  let watchdog = watchdogs.get(script);
  if (!watchdog) {
    watchdog = new ProcessWatchdog(script, graceMs);
    watchdogs.set(script, watchdog);
  }
  return watchdog;
}

/** Only what node needs: the watchdog must not pick up the host's NODE_OPTIONS (loaders, inspectors). */
function minimalEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of ['PATH', 'SystemRoot', 'TEMP', 'TMP']) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}

import { inheritedEnvironment } from './inherited-environment.js';
import type { ProcessWatchdog } from './process-watchdog.js';
import { ServerProcess } from './server-process.js';

/** What a stdio server runs as: the command of its config entry, with the entry's own variables. */
export interface StdioLaunch {
  command: string;
  args: readonly string[];
  /** The entry's `env`; the inherited variables are added as for any stdio server. */
  env?: Readonly<Record<string, string>>;
  /** Absolute. */
  cwd?: string;
}

/** A stdio server started before its client manager existed, waiting to be adopted by it (`prestarted`). */
export interface PrestartedServer {
  /** The id of the config entry it was started for. */
  readonly serverId: string;
  /** Its pid, once spawned. */
  readonly pid: number | undefined;
  /** Ends it unless a manager has adopted it (a manager ends every one it did not adopt when it closes). */
  discard(): void;
}

/** The complete launch, as the manager computes it for a stdio entry without a sandbox. */
interface FullLaunch {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string;
}

/**
 * Prestarted servers not yet adopted or discarded. They run in their own process group, which nothing else ends
 * while they wait (the process watchdog takes over only at adoption: a host killed with SIGKILL or crashing while
 * it still loads leaves them running): the host's `exit` ends them, and so do SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * (Ctrl-C while the host still loads), after which the signal is raised again when nobody else listens for it, so
 * the host ends as it would have.
 */
const waiting = new Set<PrestartedServerProcess>();
const endingSignals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;
const endWaiting = () => {
  for (const prestarted of waiting) prestarted.discard();
};
const endWaitingOnSignal = (signal: NodeJS.Signals) => {
  endWaiting();
  if (globalThis.process.listenerCount(signal) > 0) return;
  try {
    globalThis.process.kill(globalThis.process.pid, signal);
  } catch {
    // A signal this platform cannot raise (Windows): exit as its default action would have.
    globalThis.process.exit(128 + (signalNumbers[signal] ?? 0));
  }
};
const signalNumbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };

/** Installed while a server waits (and during the spawn of the first one): `waiting` tells whether they are. */
function watchHost(): void {
  globalThis.process.once('exit', endWaiting);
  for (const signal of endingSignals) globalThis.process.once(signal, endWaitingOnSignal);
}

function unwatchHost(): void {
  globalThis.process.removeListener('exit', endWaiting);
  for (const signal of endingSignals) globalThis.process.removeListener(signal, endWaitingOnSignal);
}

class PrestartedServerProcess implements PrestartedServer {
  private state: 'waiting' | 'adopted' | 'discarded' = 'waiting';

  constructor(
    readonly serverId: string,
    private readonly launch: FullLaunch,
    private readonly process: ServerProcess,
  ) {
    waiting.add(this);
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  discard(): void {
    if (this.state !== 'waiting') return;
    this.state = 'discarded';
    this.forget();
    // It has had no request: nothing to lose by ending its group at once.
    this.process.signalGroup('SIGKILL');
  }

  /** Resolves once its process has exited, or after `withinMs`, whichever comes first. */
  exited(withinMs: number): Promise<void> {
    if (this.process.exit || this.state === 'adopted') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, withinMs);
      this.process.onexit = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * Its process, when it still runs and `launch` is the one it was started with; otherwise it is discarded and the
   * reason returned.
   */
  adopt(launch: FullLaunch, watchdog: ProcessWatchdog | undefined): ServerProcess | DiscardReason {
    if (this.state !== 'waiting') return 'ended';
    const reason = this.process.exit ? 'ended' : sameLaunch(this.launch, launch) ? undefined : 'launch';
    if (reason) {
      this.discard();
      return reason;
    }
    this.state = 'adopted';
    this.forget();
    if (watchdog) this.process.watchWith(watchdog);
    return this.process;
  }

  private forget(): void {
    if (waiting.delete(this) && waiting.size === 0) unwatchHost();
  }
}

/**
 * Spawns a stdio server now, before the client manager that will talk to it exists: a one-shot command (`search-mcp
 * call server:tool`) starts its server while its own modules still load, instead of after. The manager given it in
 * `prestarted` adopts the process on that server's first start only if the launch it computes from the validated
 * config is exactly this one (command, arguments, environment, working directory); otherwise it ends the process
 * unused and spawns its own. Nothing is written to the server before it is adopted.
 */
export function prestartStdioServer(serverId: string, launch: StdioLaunch): PrestartedServer {
  const full: FullLaunch = {
    command: launch.command,
    args: [...launch.args],
    env: { ...inheritedEnvironment(), ...launch.env },
    ...(launch.cwd !== undefined ? { cwd: launch.cwd } : {}),
  };
  // The host's handlers are in place before the spawn. A signal that arrives while the spawn returns (the server
  // already runs: a Ctrl-C sent as soon as it shows, on a loaded machine) would otherwise meet no handler and end the
  // host by its default action, leaving the server running in its own group. A handler installed first runs only
  // once this function has returned, when the server is among the waiting ones it ends. With a server already
  // waiting, they are in place.
  if (waiting.size === 0) watchHost();
  let process: ServerProcess;
  try {
    process = new ServerProcess({
      command: full.command,
      args: [...full.args],
      env: { ...full.env },
      ...(full.cwd !== undefined ? { cwd: full.cwd } : {}),
    });
  } catch (error) {
    if (waiting.size === 0) unwatchHost();
    throw error;
  }
  return new PrestartedServerProcess(serverId, full, process);
}

/**
 * Why a prestarted process was not adopted: it had already ended (the manager starts its own, whose failure is then
 * reported like any start's), its launch is not the config's, the entry's era is pinned (such a server is spawned by
 * its client's connect, which must hear an exit during start-up), or another copy of this package made it.
 */
export type DiscardReason = 'ended' | 'launch' | 'pinned' | 'foreign';

/** What became of the process prestarted for a server (none: nothing was waiting for it). */
export type Adoption =
  | { outcome: 'adopted'; process: ServerProcess }
  | { outcome: 'none' }
  | { outcome: 'discarded'; reason: DiscardReason; exited: Promise<void> };

/** How long a start waits for a discarded process to exit (a lock or port it held is free again). */
const discardedExitWaitMs = 250;

/**
 * Takes the process prestarted for `serverId` out of `prestarted`: adopted when it still runs, was started with
 * `launch` and the connection probes the era (`auto`); otherwise ended unused (`discarded`, with a promise of its
 * exit, bounded, to await before starting another process of the same server).
 */
export function adoptPrestartedServer(
  prestarted: PrestartedServer[],
  serverId: string,
  launch: FullLaunch,
  settings: { watchdog: ProcessWatchdog | undefined; probesEra: boolean },
): Adoption {
  const index = prestarted.findIndex((entry) => entry.serverId === serverId);
  if (index === -1) return { outcome: 'none' };
  const [entry] = prestarted.splice(index, 1);
  if (!(entry instanceof PrestartedServerProcess)) {
    entry?.discard();
    return { outcome: 'discarded', reason: 'foreign', exited: Promise.resolve() };
  }
  const adopted = settings.probesEra ? entry.adopt(launch, settings.watchdog) : 'pinned';
  if (typeof adopted !== 'string') return { outcome: 'adopted', process: adopted };
  entry.discard();
  return { outcome: 'discarded', reason: adopted, exited: entry.exited(discardedExitWaitMs) };
}

function sameLaunch(a: FullLaunch, b: FullLaunch): boolean {
  if (a.command !== b.command || a.cwd !== b.cwd || a.args.length !== b.args.length) return false;
  if (a.args.some((argument, index) => argument !== b.args[index])) return false;
  const keys = Object.keys(a.env);
  if (keys.length !== Object.keys(b.env).length) return false;
  return keys.every((key) => Object.hasOwn(b.env, key) && a.env[key] === b.env[key]);
}

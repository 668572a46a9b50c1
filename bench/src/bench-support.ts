/**
 * Helpers the benchmark scripts in bench/ share: machine info, statistics, package lookup, GC, /proc readings,
 * leftover-process checks, report formatting and writing bench/results/.
 *
 * Node built-ins only, so that importing it loads no package into a process whose start-up or memory a benchmark
 * measures (search-bench.ts, for one, loads no MCP SDK). The MCP-client helpers that need the SDK stay in the scripts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import type { Stream } from 'node:stream';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** bench/results/, beside this folder. */
const resultsDirectory = fileURLToPath(new URL('../results/', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Progress and timing

/** A progress logger: stderr, so that stdout carries only the markdown report. */
export function progressLog(tag: string): (message: string) => void {
  return (message) => {
    process.stderr.write(`[${tag}] ${message}\n`);
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// Numbers

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export const bytesToMb = (bytes: number) => bytes / (1024 * 1024);
export const kbToMb = (kb: number) => kb / 1024;

export interface Summary {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** The middle value, or the mean of the two middle ones (NaN when empty). */
export function median(values: readonly number[]): number {
  const sorted = sortedCopy(values);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Nearest-rank percentile of ascending values: always one of the measured values, never interpolated. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = sortedCopy(values);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    count: sorted.length,
    min: sorted[0] ?? Number.NaN,
    p50: median(sorted),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sum / sorted.length,
  };
}

/** A rounded copy for the JSON results; ratios are taken from the unrounded summary. */
export function roundSummary(summary: Summary): Summary {
  return {
    count: summary.count,
    min: round(summary.min),
    p50: round(summary.p50),
    p90: round(summary.p90),
    p99: round(summary.p99),
    max: round(summary.max),
    mean: round(summary.mean),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Machine and packages

/** What every result records of the machine, since numbers are only comparable within one machine and load. */
export interface MachineInfo {
  date: string;
  node: string;
  platform: string;
  arch: string;
  cpus: number;
  cpuModel: string;
  totalMemoryGb: number;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
}

/** The 1, 5 and 15 minute load averages, rounded: the machine is shared, so the load is part of every result. */
export function loadAverage(): number[] {
  return os.loadavg().map((value) => round(value, 2));
}

/** Without `loadAverageAtEnd`: the caller sets it when the run is over (and it then comes last in the JSON). */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    totalMemoryGb: round(os.totalmem() / 1024 ** 3, 1),
    loadAverageAtStart: loadAverage(),
  };
}

/** The start of each report's machine line: date, Node, platform and CPUs. */
export function machineSummary(machine: MachineInfo): string {
  return `${machine.date} · Node ${machine.node} · ${machine.platform}/${machine.arch} · ${machine.cpus} × ${machine.cpuModel}`;
}

/** The absolute path of a package's (first) bin entry, to run with `process.execPath` (no npx, no network). */
export function packageBinEntry(packageName: string, from: NodeJS.Require): string {
  const manifestPath = from.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error(`${packageName} has no bin entry`);
  return join(dirname(manifestPath), bin);
}

/** A package's version: walks up from its resolved entry (the SDK's `exports` hide its package.json). */
export function packageVersion(packageName: string, from: NodeJS.Require, entry = packageName): string {
  let directory = dirname(from.resolve(entry));
  for (;;) {
    const manifestPath = join(directory, 'package.json');
    if (existsSync(manifestPath)) {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === packageName && manifest.version) return manifest.version;
    }
    const parent = dirname(directory);
    if (parent === directory) return 'unknown';
    directory = parent;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Garbage collection

export type GarbageCollectorSource = 'global.gc' | 'v8.setFlagsFromString' | 'none';

/** A way to force a GC: `global.gc` when node runs with --expose-gc, else the V8 flag set at runtime. */
export function findGarbageCollector(): { gc?: () => void; source: GarbageCollectorSource } {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return { gc: existing as () => void, source: 'global.gc' };
  try {
    v8.setFlagsFromString('--expose-gc');
    const fromContext: unknown = runInNewContext('gc');
    if (typeof fromContext === 'function') return { gc: fromContext as () => void, source: 'v8.setFlagsFromString' };
  } catch {
    // No GC available; the memory numbers are then noisier.
  }
  return { source: 'none' };
}

/** Several GCs with pauses between them, so that memory freed late (finalizers, weak refs) is gone before a reading. */
export async function settleMemory(gc: (() => void) | undefined): Promise<void> {
  for (let i = 0; i < 3; i += 1) {
    gc?.();
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Processes (Linux /proc)

export interface ProcessInfo {
  pid: number;
  command: string;
}

/** A /proc/<pid>/status field in kB (VmRSS, VmHWM), or undefined when unreadable. */
export function processStatusFieldKb(pid: number, field: string): number | undefined {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Proportional set size (shared pages split between the processes that map them), in kB. */
export function proportionalSetSizeKb(pid: number): number | undefined {
  try {
    const match = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)\s+kB/m);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Every process on the machine with its parent (Linux /proc). */
export function processTable(): Map<number, { ppid: number; command: string }> {
  const table = new Map<number, { ppid: number; command: string }>();
  if (!existsSync('/proc')) return table;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid ...; comm may contain spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      table.set(Number(name), { ppid: Number(fields[1]), command });
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

/** The direct children of `pid`, tsx's esbuild service included. */
export function childProcessesOf(pid: number, table = processTable()): ProcessInfo[] {
  return [...table]
    .filter(([, entry]) => entry.ppid === pid)
    .map(([child, entry]) => ({ pid: child, command: entry.command }));
}

/** The processes below `pid` (children, grandchildren, …). */
export function descendantsOf(pid: number): ProcessInfo[] {
  const table = processTable();
  const found: ProcessInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, entry] of table) {
      if (entry.ppid !== parent) continue;
      found.push({ pid: child, command: entry.command });
      queue.push(child);
    }
  }
  return found;
}

/** `pid` and every process below it. */
export function processTreeIds(pid: number): number[] {
  return [pid, ...descendantsOf(pid).map((entry) => entry.pid)];
}

/** tsx's esbuild service lives as long as the process that loaded tsx: it is not ours to count. */
export function isEsbuildService(child: ProcessInfo): boolean {
  return /\besbuild\b.*--service/.test(child.command);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls until none of `pids` is alive, or `attempts` polls have passed. */
export async function waitForExit(pids: readonly number[], attempts: number, intervalMs: number): Promise<void> {
  for (let i = 0; i < attempts && pids.some(isProcessAlive); i += 1) await sleep(intervalMs);
}

/** `pgrep -f pattern`, without this process. */
export function processIdsMatching(pattern: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch {
    // pgrep exits 1 when nothing matches (or is missing).
    return [];
  }
}

function hasWorkingDirectoryIn(pid: number, directory: string): boolean {
  try {
    return readlinkSync(`/proc/${pid}/cwd`).startsWith(directory);
  } catch {
    return false;
  }
}

/**
 * What is left at the end of a run of the processes it started: the seen ones still alive, our own children, and
 * `pgrep -f` per pattern (all matches, and the ones that are ours: seen by this run, or running on or in the run's
 * temp `directory`, since other people's processes may match the patterns too).
 */
export async function leftoverProcesses<Name extends string>(
  seenPids: ReadonlySet<number>,
  directory: string,
  patterns: Record<Name, string>,
) {
  await waitForExit([...seenPids], 40, 100);
  const aliveSeenPids = [...seenPids].filter(isProcessAlive);
  const table = processTable();
  const childProcesses = childProcessesOf(process.pid, table).filter((child) => !isEsbuildService(child));
  const names = Object.keys(patterns) as Name[];
  const matches = Object.fromEntries(names.map((name) => [name, processIdsMatching(patterns[name])])) as Record<
    Name,
    number[]
  >;
  const ours = (pids: number[]) =>
    pids.filter(
      (pid) =>
        seenPids.has(pid) ||
        (table.get(pid)?.command.includes(directory) ?? false) ||
        hasWorkingDirectoryIn(pid, directory),
    );
  return {
    processesSeen: seenPids.size,
    aliveSeenPids,
    childProcesses,
    pgrep: matches,
    pgrepOurs: Object.fromEntries(names.map((name) => [name, ours(matches[name])])) as Record<Name, number[]>,
  };
}

/** The last `maximumLines` non-empty lines a child wrote to stderr, to explain a failed start. */
export function collectStderrTail(stderr: Stream | null, maximumLines = 40): string[] {
  const tail: string[] = [];
  stderr?.on('data', (chunk: Buffer) => {
    tail.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== ''),
    );
    if (tail.length > maximumLines) tail.splice(0, tail.length - maximumLines);
  });
  return tail;
}

// ---------------------------------------------------------------------------------------------------------------
// MCP results (structural: no SDK import here, see the top of the file)

/** The text blocks of a `tools/call` result, joined by newlines. */
export function textContentOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result['content'])
    ? (result['content'] as Array<{ type?: string; text?: string }>)
    : [];
  return content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Report

export function formatMs(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(3)} ms`;
}

export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}

export function formatMb(mb: number): string {
  return `${mb.toFixed(1)} MB`;
}

/** The Goal cell of a "lower is better" ratio: met, or by how many percent it was missed. */
export function ratioGoalCell(ratio: number, goalRatio: number): string {
  if (ratio <= goalRatio) return `≤ ${goalRatio} — met`;
  return `≤ ${goalRatio} — **missed by ${((ratio / goalRatio - 1) * 100).toFixed(1)} %**`;
}

/** The Section | Metric | Value | Goal table of the client-manager and proxy reports. */
export function metricTableLines(rows: ReadonlyArray<readonly string[]>): string[] {
  return [
    '| Section | Metric | Value | Goal |',
    '| --- | --- | ---: | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/** Writes bench/results/<name>.json and <name>.md; returns the JSON's path (for the progress log). */
export async function writeResults(
  name: string,
  result: unknown,
  markdown: string,
  jsonIndentation = 2,
): Promise<string> {
  const jsonPath = join(resultsDirectory, `${name}.json`);
  await mkdir(resultsDirectory, { recursive: true });
  await writeFile(jsonPath, `${JSON.stringify(result, null, jsonIndentation)}\n`);
  await writeFile(join(resultsDirectory, `${name}.md`), markdown);
  return jsonPath;
}

// ---------------------------------------------------------------------------------------------------------------
// CPU time of processes (Linux /proc)

let clockTicksPerSecond: number | undefined;

/** `getconf CLK_TCK` (the unit of /proc/<pid>/stat's utime and stime), 100 when it cannot be read. */
function clockTicks(): number {
  if (clockTicksPerSecond === undefined) {
    try {
      clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicksPerSecond = 100;
    }
  }
  return clockTicksPerSecond;
}

/**
 * The CPU time (user + system) a process has used so far, in ms, or undefined when it is gone. The resolution is one
 * clock tick (10 ms on Linux): divide a difference over many calls, never read one call.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "pid (comm) ": state is [0], utime [11], stime [12] (fields 14 and 15 of proc(5)).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

/** Now on the clock V8's CPU profiles use (CLOCK_MONOTONIC), in µs: to cut a window out of a child's profile. */
export function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

// ---------------------------------------------------------------------------------------------------------------
// V8 CPU profiles (`node --cpu-prof`)

/** The parts of a `.cpuprofile` (Chrome DevTools `Profiler.Profile`) the summary reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  /** µs on CLOCK_MONOTONIC. */
  startTime: number;
  endTime: number;
  samples: number[];
  /** µs since the previous sample (the first: since `startTime`). */
  timeDeltas: number[];
}

export interface SelfTime {
  /** `function (where:line)`, or a V8 pseudo-frame such as `(garbage collector)`. */
  name: string;
  /** The package or area the code belongs to (see `codeArea`). */
  area: string;
  selfMs: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface CpuProfileSummary {
  /** The part of the profile summarised, in ms. */
  windowMs: number;
  /** Time not idle: code, GC and V8 `(program)` time. */
  busyMs: number;
  idleMs: number;
  samples: number;
  functions: SelfTime[];
  areas: SelfTime[];
  /** Time with the function anywhere on the stack (its callees included; counted once per sample), busiest first. */
  inclusive: SelfTime[];
}

/**
 * Where a script's URL belongs: a package under node_modules (`zod`, `@modelcontextprotocol/sdk`), a workspace
 * package or app of ours (`packages/catalog`, `apps/stdio-server`), Node's own JavaScript (`node:internal/streams`),
 * or `(native)` for V8 built-ins without a script.
 */
export function codeArea(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) {
    const parts = url.slice('node:'.length).split('/');
    return `node:${parts[0] === 'internal' ? `internal/${parts[1] ?? ''}` : parts[0]}`;
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? url);
  }
  const workspace = url.match(/\/((?:packages|apps)\/[^/]+)\//);
  return workspace?.[1] ?? url.replace(/^file:\/\//, '');
}

function shortLocation(url: string, lineNumber: number): string {
  if (url === '') return '';
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  const shown =
    modules !== -1
      ? file.slice(modules + '/node_modules/'.length)
      : (file.match(/\/((?:packages|apps)\/.*)$/)?.[1] ?? file);
  // Profile line numbers are 0-based.
  return `${shown}:${lineNumber + 1}`;
}

/**
 * Self time per function and per area of a CPU profile, busiest first, over the samples taken between
 * `window.startUs` and `window.endUs` (CLOCK_MONOTONIC µs, see `monotonicMicroseconds`), or over all of it.
 * Each sample counts for the time since the one before it.
 */
export function summarizeCpuProfile(
  profile: CpuProfile,
  window?: { startUs: number; endUs: number },
  top = 25,
): CpuProfileSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const nameOf = (frame: CpuProfile['nodes'][number]['callFrame']) => {
    const location = shortLocation(frame.url, frame.lineNumber);
    return location ? `${frame.functionName || '(anonymous)'} (${location})` : frame.functionName;
  };
  const byFunction = new Map<string, { area: string; us: number }>();
  const inclusive = new Map<string, { area: string; us: number }>();
  const byArea = new Map<string, number>();
  let time = profile.startTime;
  let windowUs = 0;
  let idleUs = 0;
  let samples = 0;
  for (let index = 0; index < profile.samples.length; index += 1) {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    if (window && (time < window.startUs || time > window.endUs)) continue;
    const frame = frames.get(profile.samples[index] as number);
    if (!frame) continue;
    samples += 1;
    windowUs += delta;
    if (frame.functionName === '(idle)') {
      idleUs += delta;
      continue;
    }
    const area = codeArea(frame.url, frame.functionName);
    const name = nameOf(frame);
    const entry = byFunction.get(name) ?? { area, us: 0 };
    entry.us += delta;
    byFunction.set(name, entry);
    byArea.set(area, (byArea.get(area) ?? 0) + delta);
    const onStack = new Set<string>();
    for (let id: number | undefined = profile.samples[index]; id !== undefined; id = parents.get(id)) {
      const stackFrame = frames.get(id);
      if (!stackFrame || stackFrame.functionName === '(root)') continue;
      const stackName = nameOf(stackFrame);
      if (onStack.has(stackName)) continue;
      onStack.add(stackName);
      const total = inclusive.get(stackName) ?? { area: codeArea(stackFrame.url, stackFrame.functionName), us: 0 };
      total.us += delta;
      inclusive.set(stackName, total);
    }
  }
  const busyUs = windowUs - idleUs;
  const entry = (name: string, area: string, us: number): SelfTime => ({
    name,
    area,
    selfMs: round(us / 1000),
    share: round(busyUs > 0 ? us / busyUs : 0, 4),
  });
  return {
    windowMs: round(windowUs / 1000),
    busyMs: round(busyUs / 1000),
    idleMs: round(idleUs / 1000),
    samples,
    functions: [...byFunction]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([name, { area, us }]) => entry(name, area, us)),
    areas: [...byArea].sort((a, b) => b[1] - a[1]).map(([area, us]) => entry(area, area, us)),
    inclusive: [...inclusive]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([name, { area, us }]) => entry(name, area, us)),
  };
}

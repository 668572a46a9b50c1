import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { median, processCpuMs, round } from './bench-support.js';

/**
 * An app's start, measured from outside: spawn → the first stderr output that contains `readyText`, the wall time and
 * the process's CPU time (user + system, `processCpuMs`) at that moment; the process is then ended. The start benchmarks
 * (http-start-bench.ts, web-search-start-bench.ts) compare an app's published bundle with the same source built with
 * its packages left to node_modules, interleaved.
 */
export interface Start {
  wallMs: number;
  cpuMs: number;
}

/** Starts `node cli ...args` and resolves at its first stderr output containing `readyText`. */
export function startOnce(cli: string, args: readonly string[], readyText: string): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // stdin stays open (a pipe): a stdio server reads its end as the client leaving.
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    let start: Start | undefined;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (start !== undefined || !stderr.includes(readyText)) return;
      start = { wallMs: performance.now() - started, cpuMs: processCpuMs(child.pid ?? -1) ?? Number.NaN };
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (start !== undefined) resolve(start);
      else reject(new Error(`${cli} exited (${code}) before "${readyText}":\n${stderr}`));
    });
  });
}

export interface StartComparison {
  runs: number;
  bundled: Start;
  unbundled: Start;
  ratio: { wall: number; cpu: number };
}

/**
 * Medians of `runs` interleaved starts of each build, after one uncounted start of each (the file cache warm for
 * both); `onRun` reports progress.
 */
export async function compareStarts(
  builds: { bundled: string; unbundled: string },
  start: (cli: string) => Promise<Start>,
  runs: number,
  onRun: (run: number) => void,
): Promise<StartComparison> {
  const starts: Record<keyof typeof builds, Start[]> = { bundled: [], unbundled: [] };
  for (const cli of Object.values(builds)) await start(cli);
  for (let run = 0; run < runs; run++) {
    for (const [name, cli] of Object.entries(builds) as Array<[keyof typeof builds, string]>) {
      starts[name].push(await start(cli));
    }
    onRun(run + 1);
  }
  const summary = (list: Start[]): Start => ({
    wallMs: round(median(list.map((entry) => entry.wallMs)), 1),
    cpuMs: round(median(list.map((entry) => entry.cpuMs)), 1),
  });
  const bundled = summary(starts.bundled);
  const unbundled = summary(starts.unbundled);
  return {
    runs,
    bundled,
    unbundled,
    ratio: { wall: round(bundled.wallMs / unbundled.wallMs), cpu: round(bundled.cpuMs / unbundled.cpuMs) },
  };
}

/** The markdown table of a comparison; `readyLine` names the log line a start waited for ("listening"). */
export function startTable(comparison: StartComparison, readyLine: string): string[] {
  const { bundled, unbundled, ratio } = comparison;
  return [
    `| build | to ${readyLine} | CPU at ${readyLine} |`,
    '| --- | --- | --- |',
    `| one bundle (dist/cli.js, published) | ${bundled.wallMs} ms | ${bundled.cpuMs} ms |`,
    `| packages left to node_modules (before) | ${unbundled.wallMs} ms | ${unbundled.cpuMs} ms |`,
    `| ratio | ${ratio.wall}× | ${ratio.cpu}× |`,
  ];
}

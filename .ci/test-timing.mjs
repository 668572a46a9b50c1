// Prints how long a `.ci/run` took, by phase and by package, from turbo's run summary (TURBO_RUN_SUMMARY=true writes
// each task's start and end to .turbo/runs/<id>.json). Usage: node .ci/test-timing.mjs <folder with the marks>, where
// the folder holds `started` and `installed` (seconds since the epoch, written by .ci/run).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The suites against real outside services, which turbo runs after every package's tests (turbo.json): the packages'
// files that start an authorization server, Redis or bubblewrap (tooling/real-service-tests.ts), then conformance,
// browser and cluster.
const realServiceSuites = new Set([
  '@search-mcp/real-service-tests',
  '@search-mcp/conformance-tests',
  '@search-mcp/browser-tests',
  '@search-mcp/cluster-tests',
]);
// Issue 25's goal for everything before them: install, builds, the packages' tests and the linter.
const goalSeconds = 4 * 60;

const marks = process.argv[2];
const runs = '.turbo/runs';
if (!marks || !existsSync(runs)) process.exit(1);
const newest = readdirSync(runs)
  .filter((name) => name.endsWith('.json'))
  .map((name) => join(runs, name))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) process.exit(1);

const summary = JSON.parse(readFileSync(newest, 'utf8'));
const started = Number(readFileSync(join(marks, 'started'), 'utf8')) * 1000;
const installedMark = join(marks, 'installed');
const installed = existsSync(installedMark) ? Number(readFileSync(installedMark, 'utf8')) * 1000 : started;

const tasks = summary.tasks
  .filter((task) => task.execution?.startTime)
  .map((task) => ({
    id: task.taskId,
    package: task.package,
    task: task.task,
    start: task.execution.startTime,
    end: task.execution.endTime,
  }));
const span = (list) =>
  list.length === 0 ? 0 : Math.max(...list.map((task) => task.end)) - Math.min(...list.map((task) => task.start));
const seconds = (milliseconds) => {
  const total = Math.round(milliseconds / 1000);
  return total >= 60 ? `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s` : `${total}s`;
};

const before = tasks.filter((task) => !realServiceSuites.has(task.package));
const realService = tasks.filter((task) => realServiceSuites.has(task.package));
const beforeEnd = before.length === 0 ? installed : Math.max(...before.map((task) => task.end));
const beforeTotal = beforeEnd - started;
const builds = tasks.filter((task) => task.task === 'build');
const tests = before.filter((task) => task.task === 'test').sort((a, b) => b.end - b.start - (a.end - a.start));

console.log('timing, per package (test task, wall clock; turbo runs several at once):');
for (const task of tests) console.log(`  ${task.package} ${seconds(task.end - task.start)}`);
for (const task of realService) console.log(`  ${task.package} ${seconds(task.end - task.start)} (real-service suite)`);
console.log(
  `timing: install ${seconds(installed - started)}, builds ${seconds(span(builds))}, until the last package test and lint ended ` +
    `${seconds(beforeTotal)} from the start (goal ≤ ${seconds(goalSeconds * 1000)}: ${beforeTotal <= goalSeconds * 1000 ? 'met' : 'not met'}), ` +
    `real-service suites ${seconds(span(realService))}`,
);

/**
 * 2026-07-28 tasks through search-mcp-http (README, "Tasks"): a call of the fixture's `job` tool from a client that
 * declares the tasks extension answers `resultType: "task"` at once; `tasks/get` follows it to `completed` with the
 * result inline.
 */
import { type ModernAnswer, modernRequest } from './modern-requests.js';

export interface StartedTask {
  taskId: string;
  /** The replica that created it (HAProxy's header), when started through the balancer. */
  replica: string | undefined;
}

export async function startJob(
  url: string,
  headers: Record<string, string>,
  job: { steps: number; stepMs: number },
): Promise<StartedTask> {
  const answer = await modernRequest(
    url,
    headers,
    'tools/call',
    { name: 'fixture__job', arguments: job },
    { tasks: true },
  );
  const taskId = answer.result?.taskId;
  if (answer.result?.resultType !== 'task' || typeof taskId !== 'string') {
    throw new Error(`the job did not start as a task: ${answer.status} ${answer.text}`);
  }
  return { taskId, replica: answer.replica };
}

export function getTask(url: string, headers: Record<string, string>, taskId: string): Promise<ModernAnswer> {
  return modernRequest(url, headers, 'tasks/get', { taskId }, { tasks: true });
}

/** Polls `tasks/get` at `url` until the task is no longer `working`; the last answer. */
export async function waitForTaskEnd(
  url: string,
  headers: Record<string, string>,
  taskId: string,
  timeoutMs = 30_000,
): Promise<ModernAnswer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await getTask(url, headers, taskId);
    const status = answer.result?.status;
    if (answer.error !== undefined || (status !== 'working' && status !== 'input_required')) return answer;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(status)} after ${timeoutMs} ms`);
    const interval = typeof answer.result?.pollIntervalMs === 'number' ? answer.result.pollIntervalMs : 100;
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, 200)));
  }
}

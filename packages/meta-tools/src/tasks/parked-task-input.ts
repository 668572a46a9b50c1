import type { Logger } from '@search-mcp/shared';
import type { EmbeddedRequest, ParkedCall } from '../input/parked-call.js';
import { pendingInputs } from '../input/pending-inputs.js';
import type { RequestExtra } from '../search-mcp-server-options.js';
import type { ClientOrigin, ClientSession } from '../sessions/client-session.js';
import type { ExposedTask } from './task-table.js';

/** How long a `tasks/get` waits for the requests a 2025 backend pushes once its `tasks/result` is open. */
const lookMs = 1000;
/** The relay's attachment is never cancelled by a client request: a poll that is cancelled must not end the task's wait. */
const neverAborted = new AbortController().signal;
/** Open relays by our task id, process-wide: a 2026 client's polls over HTTP reach a new server instance each time. */
const relays = new Map<string, ParkedCall<Record<string, unknown>>>();

export interface TaskInputLook {
  /** The session that owns the task, if it is still open, else the polling one (where the backend's requests park). */
  session: ClientSession;
  /** The polling request: what its envelope says the client can answer. */
  extra: RequestExtra;
  /** Opens the backend's `tasks/result` with this origin (the parked call rides on it) and signal. */
  openResult(options: { signal: AbortSignal; origin: ClientOrigin }): Promise<Record<string, unknown>>;
  logger: Logger;
}

/**
 * The input a 2025 backend's task in `input_required` waits for, as `inputRequests` for a 2026-07-28 client. A 2025
 * backend asks by pushing requests (elicitation, sampling, roots) while a `tasks/result` of the task is open; so the
 * first look opens one, as a parked call of the pending-input registry (`input/parked-call.ts`): the pushed requests
 * are parked in it under keys of ours (`elicitation-1`, `elicitation-2`, …, never reused while it is open) and shown
 * until `tasks/update` answers them (`answerTaskInput`). It stays open until the task ends (its `tasks/result`
 * answers), the client cancels the task, or the backend's wait for it runs out; a request the backend withdraws (its
 * own timeout) is no longer shown. Each look waits at most 1 s for the requests; none yet (or the task ended
 * meanwhile): undefined, and the task shows as `working`.
 */
export async function lookAtTaskInput(
  task: ExposedTask,
  look: TaskInputLook,
): Promise<Record<string, EmbeddedRequest> | undefined> {
  let relay = relays.get(task.exposedId);
  if (!relay?.open) {
    relay = pendingInputs.create<Record<string, unknown>>();
    if (!pendingInputs.hold(relay)) {
      relay.drop('too many calls wait for input');
      look.logger.warn('a task waits for input, but too many calls already do; it shows as working', {
        server: task.serverId,
        task: task.exposedId,
      });
      return undefined;
    }
    const opened = relay;
    relays.set(task.exposedId, opened);
    attach(opened, look.extra);
    const result = look.openResult({
      signal: opened.signal,
      origin: { session: look.session, extra: look.extra, parked: opened },
    });
    opened.run(result);
    const closed = () => {
      if (relays.get(task.exposedId) === opened) relays.delete(task.exposedId);
      pendingInputs.forget(opened);
    };
    result.then(closed, closed);
  } else {
    attach(relay, look.extra);
  }
  const outcome = await within(relay.outcome(), lookMs);
  return outcome?.kind === 'input' ? outcome.inputRequests : undefined;
}

/**
 * A 2026 client's `tasks/update` of a 2025 backend's task: its `inputResponses` answer the requests parked under those
 * keys (the backend gets each answer to its pushed request); keys not outstanding are ignored, as the extension says.
 */
export function answerTaskInput(task: ExposedTask, extra: RequestExtra, responses: Record<string, unknown>): void {
  const relay = relays.get(task.exposedId);
  if (!relay?.open) return;
  attach(relay, extra);
  relay.answer(responses);
}

/** The task was cancelled: its parked requests are refused and its `tasks/result` is closed. */
export function closeTaskInput(task: ExposedTask, reason: string): void {
  relays.get(task.exposedId)?.drop(reason);
}

/** The latest request of the client says what it can answer; the relay is never released (no drop timer). */
function attach(relay: ParkedCall<Record<string, unknown>>, extra: RequestExtra): void {
  relay.attach({ signal: neverAborted, clientCapabilities: extra.clientCapabilities, onProgress: undefined });
}

/** The promise's value, or undefined when it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

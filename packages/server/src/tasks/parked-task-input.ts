import type { Logger } from '@search-mcp/shared';
import type { EmbeddedRequest, ParkedCall } from '../input/parked-call.js';
import type { PendingInputs } from '../input/pending-inputs.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientOrigin, ClientSession } from '../sessions/client-session.js';
import type { ExposedTask } from './task-table.js';

/** How long a `tasks/get` waits for the requests a 2025 backend pushes once its `tasks/result` is open. */
const lookMs = 1000;
/**
 * How long a relay stays open with no `tasks/get` or `tasks/update` of its task: the longest a question waits for a
 * 2026 client's retry (elicitation's 10 min). Then its requests are refused and its `tasks/result` is closed, so a
 * task nobody follows does not hold a place among the held calls for good.
 */
const idleMs = 600_000;
/** The relay's attachment, never aborted: a client cancelling one poll must not end the task's wait for input. */
const neverAborted = new AbortController().signal;

interface Relay {
  readonly call: ParkedCall<Record<string, unknown>>;
  idle: NodeJS.Timeout | undefined;
}

export interface TaskInputLook {
  /** The registry the relay's call is held in (counted against its cap, as a parked call is). */
  inputs: PendingInputs;
  /** The session that owns the task, if it is still open, else the polling one (where the backend's requests park). */
  session: ClientSession;
  /** The polling request: what its envelope says the client can answer. */
  extra: RequestExtra;
  /** Opens the backend's `tasks/result` with this origin (the parked call rides on it) and signal. */
  openResult(options: { signal: AbortSignal; origin: ClientOrigin }): Promise<Record<string, unknown>>;
  logger: Logger;
}

/**
 * The input 2025 backends' tasks in `input_required` wait for, as `inputRequests` for 2026-07-28 clients: one per
 * runtime (`ClientSessions.taskInputs`, next to the task table), as every server instance must find a task's relay. A 2025
 * backend asks by pushing requests (elicitation, sampling, roots) while a `tasks/result` of the task is open; so the
 * first look opens one, as a parked call of the pending-input registry (`input/parked-call.ts`): the pushed requests
 * are parked in it under keys of ours (`elicitation-1`, `elicitation-2`, …, never reused while it is open) and shown
 * until `tasks/update` answers them (`answer`). It stays open until the task ends (its `tasks/result`
 * answers), the client cancels the task, the backend's wait for it runs out, or nobody looks at the task for 10 min;
 * a request the backend withdraws (its own timeout) is no longer shown. Each look waits at most 1 s for the requests;
 * none yet (or the task ended meanwhile): undefined, and the task shows as `working`.
 */
export class TaskInputRelays {
  /** Open relays by our task id: a 2026 client's polls over HTTP reach a new server instance each time. */
  private readonly relays = new Map<string, Relay>();

  /** A look at the task's input (`tasks/get`): its pushed requests, or undefined when none came within 1 s. */
  async look(task: ExposedTask, look: TaskInputLook): Promise<Record<string, EmbeddedRequest> | undefined> {
    const { relays } = this;
    let relay = relays.get(task.exposedId);
    if (!relay?.call.open) {
      const { inputs } = look;
      const call = inputs.create<Record<string, unknown>>();
      if (!inputs.hold(call)) {
        call.drop('too many calls wait for input');
        look.logger.warn('a task waits for input, but too many calls already do; it shows as working', {
          server: task.serverId,
          task: task.exposedId,
        });
        return undefined;
      }
      const opened: Relay = { call, idle: undefined };
      relays.set(task.exposedId, opened);
      touch(opened, look.extra);
      const result = look.openResult({
        signal: call.signal,
        origin: { session: look.session, extra: look.extra, parked: call },
      });
      call.run(result);
      const closed = () => {
        clearTimeout(opened.idle);
        if (relays.get(task.exposedId) === opened) relays.delete(task.exposedId);
        inputs.forget(call);
      };
      result.then(closed, closed);
      relay = opened;
    } else {
      touch(relay, look.extra);
    }
    const outcome = await within(relay.call.outcome(), lookMs);
    return outcome?.kind === 'input' ? outcome.inputRequests : undefined;
  }

  /**
   * A 2026 client's `tasks/update` of a 2025 backend's task: its `inputResponses` answer the requests parked under those
   * keys (the backend gets each answer to its pushed request); keys not outstanding are ignored, as the extension says.
   */
  answer(task: ExposedTask, extra: RequestExtra, responses: Record<string, unknown>): void {
    const relay = this.relays.get(task.exposedId);
    if (!relay?.call.open) return;
    touch(relay, extra);
    relay.call.answer(responses);
  }

  /** The task was cancelled: its parked requests are refused and its `tasks/result` is closed. */
  close(task: ExposedTask, reason: string): void {
    this.relays.get(task.exposedId)?.call.drop(reason);
  }
}

/**
 * A request of the client follows the task: its envelope says what the client can answer now (the call stays attached
 * to it between requests, so a request the backend pushes meanwhile is asked too), and the idle wait starts again.
 */
function touch(relay: Relay, extra: RequestExtra): void {
  relay.call.attach({ signal: neverAborted, clientCapabilities: extra.clientCapabilities, onProgress: undefined });
  clearTimeout(relay.idle);
  relay.idle = setTimeout(() => relay.call.drop(`no tasks/get or tasks/update of the task for ${idleMs} ms`), idleMs);
  relay.idle.unref();
}

/** The promise's value, or undefined when it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

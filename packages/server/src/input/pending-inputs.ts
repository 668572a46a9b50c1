import { EventEmitter } from 'node:events';
import type { ToolCallResult } from '@search-mcp/shared';
import { ParkedCall } from './parked-call.js';
import { createRequestStateCodec, type RequestStateCodec } from './request-state-codec.js';

export interface PendingInputsEvents {
  /** A parked call was given up (no retry in time): its backend call was cancelled. */
  dropped: [callId: string, reason: string];
}

/**
 * The calls of 2026-07-28 clients that wait for a retry (a 2025 backend's push request parked in them), and the codec
 * of the `requestState` that names them. One per process by default (`pendingInputs`): a retry may reach any server
 * instance (Streamable HTTP builds one per 2026 request), and the state is signed with a per-process key, so only
 * this process can resume what it parked.
 */
export class PendingInputs extends EventEmitter<PendingInputsEvents> {
  readonly codec: RequestStateCodec;
  /** Held calls of every kind (tool calls, prompts, reads); a retry's sealed state says which call it continues. */
  private readonly calls = new Map<string, ParkedCall<unknown>>();

  /**
   * @param maxHeld how many calls may wait for a retry at once (each holds a backend call open); beyond it a call
   * asking for input fails instead of waiting
   */
  constructor(
    codec: RequestStateCodec = createRequestStateCodec(),
    readonly maxHeld = 1000,
  ) {
    super();
    this.codec = codec;
  }

  /** A new call that may be parked; known by its id only once `hold` is called. `T`: what the backend call gives. */
  create<T = ToolCallResult>(): ParkedCall<T> {
    return new ParkedCall<T>((parked, reason) => {
      if (this.calls.get(parked.id) === parked) this.calls.delete(parked.id);
      this.emit('dropped', parked.id, reason);
    });
  }

  /** The call waits for a retry; false when `maxHeld` calls already do (it is not held). */
  hold<T>(call: ParkedCall<T>): boolean {
    if (!this.calls.has(call.id) && this.calls.size >= this.maxHeld) return false;
    this.calls.set(call.id, call);
    return true;
  }

  /**
   * The call a retry names, if it still waits. `T` is the caller's word: the retry's state was sealed for one kind of
   * call (its binding names the tool, prompt or uri), so only a request of that kind opens it.
   */
  get<T = ToolCallResult>(callId: string): ParkedCall<T> | undefined {
    const call = this.calls.get(callId);
    return call?.open ? (call as ParkedCall<T>) : undefined;
  }

  /** The call's outcome went to the client (or the client cancelled it). */
  forget<T>(call: ParkedCall<T>): void {
    call.finish();
    if (this.calls.get(call.id) === call) this.calls.delete(call.id);
  }

  /** How many calls wait for a retry now. */
  get size(): number {
    return this.calls.size;
  }
}

/** The process's registry: what every server instance of every runtime in this process shares. */
export const pendingInputs = new PendingInputs();

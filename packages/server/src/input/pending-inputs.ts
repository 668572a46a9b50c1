import { EventEmitter } from 'node:events';
import type { ToolCallResult } from '@search-mcp/shared';
import { ParkedCall } from './parked-call.js';
import { createRequestStateCodec, type RequestStateCodec } from './request-state-codec.js';

export interface PendingInputsEvents {
  /** A parked call was given up (no retry in time): its backend call was cancelled. */
  dropped: [callId: string, reason: string];
}

export interface PendingInputsOptions {
  /**
   * The HMAC-SHA256 key (at least 32 bytes) that seals our `requestState`. Default: a random key of this registry's
   * own, so a state is refused by every other registry (another runtime in the process, another process). Replicas
   * that must accept each other's states of 2026-07-28 backends pass the same key; a parked call still lives only in
   * the registry that holds it.
   */
  requestStateKey?: Uint8Array;
  /**
   * How many calls may wait for a retry at once (each holds a backend call open); beyond it a call asking for input
   * fails instead of waiting. Default 1,000.
   */
  maxHeld?: number;
}

/**
 * The calls of 2026-07-28 clients that wait for a retry (a 2025 backend's push request parked in them), and the codec
 * of the `requestState` that names them. One per runtime (`createSearchMcpRuntime` makes it and gives it to every
 * server instance it builds): a retry may reach another server instance (Streamable HTTP builds one per 2026
 * request), and only the registry that sealed a state can open it.
 */
export class PendingInputs extends EventEmitter<PendingInputsEvents> {
  readonly codec: RequestStateCodec;
  readonly maxHeld: number;
  /** Held calls of every kind (tool calls, prompts, reads); a retry's sealed state says which call it continues. */
  private readonly calls = new Map<string, ParkedCall<unknown>>();

  constructor(options: PendingInputsOptions = {}) {
    super();
    this.codec = createRequestStateCodec(options.requestStateKey ? { key: options.requestStateKey } : {});
    this.maxHeld = options.maxHeld ?? 1000;
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

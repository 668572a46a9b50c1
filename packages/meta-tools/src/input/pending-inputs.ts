import { EventEmitter } from 'node:events';
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
  private readonly calls = new Map<string, ParkedCall>();

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

  /** A new call that may be parked; known by its id only once `hold` is called. */
  create(): ParkedCall {
    return new ParkedCall((parked, reason) => {
      if (this.calls.get(parked.id) === parked) this.calls.delete(parked.id);
      this.emit('dropped', parked.id, reason);
    });
  }

  /** The call waits for a retry; false when `maxHeld` calls already do (it is not held). */
  hold(call: ParkedCall): boolean {
    if (!this.calls.has(call.id) && this.calls.size >= this.maxHeld) return false;
    this.calls.set(call.id, call);
    return true;
  }

  /** The call a retry names, if it still waits. */
  get(callId: string): ParkedCall | undefined {
    const call = this.calls.get(callId);
    return call?.open ? call : undefined;
  }

  /** The call's outcome went to the client (or the client cancelled it). */
  forget(call: ParkedCall): void {
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

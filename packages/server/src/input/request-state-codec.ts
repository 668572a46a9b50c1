import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Caller } from '@search-mcp/catalog';
import { isRecord } from '@search-mcp/shared';
import { JsonRpcWireError } from '../wire-errors.js';

/**
 * What our `requestState` carries between a client's rounds of one tool call (protocol revision 2026-07-28 and the
 * 2.x SDK's legacy shim):
 *
 * - `parked`: a 2025 backend's call held here while the client answers its push request (`callId` names it);
 * - `backend`: a 2026 backend answered `input_required`; its own `requestState` goes back to it with the answers.
 *
 * Both name the caller and the call (tool key + arguments digest), so a state is good for that caller's retry of
 * that call only.
 */
export type RequestStatePayload =
  | { kind: 'parked'; callId: string; caller: string; call: string }
  | { kind: 'backend'; server: string; backendState: string | undefined; caller: string; call: string };

export interface RequestStateCodecSettings {
  /**
   * HMAC-SHA256 key, at least 32 bytes. Default: a random key of this codec's own, so a state is good only where it
   * was sealed (each runtime has its own `PendingInputs`, hence its own codec).
   */
  key?: Uint8Array;
  /** How long a state stays valid. Default 10 minutes (a person may be answering). */
  ttlMs?: number;
  now?: () => number;
}

export interface RequestStateCodec {
  seal(payload: RequestStatePayload): string;
  /** The payload of a state sealed with this codec's key, unexpired; else a `-32602` wire error (one line, no reason). */
  open(state: string): RequestStatePayload;
}

const prefix = 'smcp1';
const defaultTtlMs = 600_000;

/** The wire error of every bad `requestState`: the same line whatever was wrong (no oracle for forgers). */
export function invalidRequestState(): JsonRpcWireError {
  return new JsonRpcWireError(-32602, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
}

/**
 * Signs our `requestState` (HMAC-SHA256, `smcp1.<payload>.<mac>`, base64url). Signed, not encrypted: the client can
 * read the payload, so it holds nothing secret (ids, a digest, the backend's own state, which it sent in clear).
 */
export function createRequestStateCodec(settings: RequestStateCodecSettings = {}): RequestStateCodec {
  const key = settings.key ?? randomBytes(32);
  if (key.byteLength < 32) throw new RangeError('requestState key must be at least 32 bytes');
  const ttlMs = settings.ttlMs ?? defaultTtlMs;
  const now = settings.now ?? Date.now;
  const mac = (body: string) => createHmac('sha256', key).update(`${prefix}.${body}`).digest();
  return {
    seal(payload) {
      const body = Buffer.from(JSON.stringify({ ...payload, exp: now() + ttlMs })).toString('base64url');
      return `${prefix}.${body}.${mac(body).toString('base64url')}`;
    },
    open(state) {
      const [head, body, signature, ...rest] = state.split('.');
      if (head !== prefix || body === undefined || signature === undefined || rest.length > 0)
        throw invalidRequestState();
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidRequestState();
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw invalidRequestState();
      }
      if (!isRecord(decoded) || typeof decoded.exp !== 'number' || decoded.exp < now()) throw invalidRequestState();
      const { exp: _exp, ...payload } = decoded;
      return payload as RequestStatePayload;
    },
  };
}

/** Who may retry: the token and project of the caller (a state minted for one is refused to another). */
export function callerIdentity(caller: Caller): string {
  return JSON.stringify([caller.tokenId ?? null, caller.projectId ?? null]);
}

/** Which call a state belongs to: the tool key and a digest of the arguments (key order does not matter). */
export function callIdentity(toolKey: string, args: Record<string, unknown>): string {
  return `${toolKey}#${createHash('sha256').update(canonicalJson(args)).digest('base64url').slice(0, 22)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

import type { Caller } from '@search-mcp/catalog';
import { SearchMcpError } from '@search-mcp/shared';
import type { RequestExtra } from '../request-extra-types.js';
import { peerErrorOf } from '../wire-errors.js';
import type { AuditRecord, AuditSink } from './audit-record.js';

export type AuditFields = Omit<AuditRecord, 'ts' | 'requestId' | 'durationMs'>;

/** Records one line for a request, timed from `started` (`performance.now()`); does nothing without a sink. */
export type RequestAudit = (fields: AuditFields, extra: RequestExtra, started: number) => void;

export function createRequestAudit(sink: AuditSink | undefined): RequestAudit {
  if (!sink) return () => {};
  return (fields, extra, started) =>
    sink.record({
      ts: new Date().toISOString(),
      requestId: extra.sessionId ? `${extra.sessionId}:${String(extra.requestId)}` : String(extra.requestId),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...fields,
    });
}

/** The project, token and subject of a caller, as audit fields. */
export function callerFields(caller: Caller): Pick<AuditRecord, 'projectId' | 'tokenId' | 'subject'> {
  return {
    ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
    ...(caller.tokenId !== undefined ? { tokenId: caller.tokenId } : {}),
    ...(caller.subject !== undefined ? { subject: caller.subject } : {}),
  };
}

/** The code of a failure, as an audit field: our error codes, a JSON-RPC code, else `INTERNAL_ERROR`. */
export function errorFields(error: unknown): Pick<AuditRecord, 'errorCode'> {
  if (SearchMcpError.isInstance(error)) return { errorCode: error.code };
  const wire = peerErrorOf(error);
  if (wire) return { errorCode: String(wire.code) };
  return { errorCode: 'INTERNAL_ERROR' };
}

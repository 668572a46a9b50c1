import type { FastifyRequest } from 'fastify';
import type { SessionEventStore } from './session-event-store.js';

/**
 * In a session rebuilt here, a GET that resumes a stream this replica does not hold (the old replica's, or one already
 * forgotten) gets a new stream rather than the SDK's 400 "Invalid event ID": the spec lets a server start a fresh
 * stream, and the client keeps its session; what the old stream still had to send is lost
 * (apps/http-server/README.md, "Replicas"). A session opened here keeps the 400 for an id it forgot. Done by taking
 * `Last-Event-ID` off the request before the transport reads it.
 */
export async function forgetUnknownLastEventId(request: FastifyRequest, events: SessionEventStore): Promise<void> {
  const lastEventId = request.headers['last-event-id'];
  if (request.method !== 'GET' || typeof lastEventId !== 'string') return;
  if ((await events.getStreamIdForEventId(lastEventId)) !== undefined) return;
  delete request.raw.headers['last-event-id'];
  const raw = request.raw.rawHeaders;
  for (let index = raw.length - 2; index >= 0; index -= 2) {
    if (raw[index]?.toLowerCase() === 'last-event-id') raw.splice(index, 2);
  }
}

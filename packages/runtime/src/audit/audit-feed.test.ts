import type { AuditRecord, AuditSink } from '@search-mcp/server';
import { describe, expect, it } from 'vitest';
import { createAuditFeed } from './audit-feed.js';

const record = (requestId: string): AuditRecord => ({
  ts: new Date(0).toISOString(),
  requestId,
  event: 'tool_execute',
  toolKey: 'everything__echo',
  durationMs: 3,
  outcome: 'ok',
});

describe('createAuditFeed', () => {
  it('writes each record to the sink, then to every listener; unsubscribing stops one listener only', () => {
    const written: string[] = [];
    const sink: AuditSink = { record: (r) => written.push(`file:${r.requestId}`) };
    const feed = createAuditFeed(sink);
    const stopFirst = feed.subscribe((r) => written.push(`first:${r.requestId}`));
    feed.subscribe((r) => written.push(`second:${r.requestId}`));
    feed.record(record('1'));
    stopFirst();
    feed.record(record('2'));
    expect(written).toEqual(['file:1', 'first:1', 'second:1', 'file:2', 'second:2']);
    expect(feed.listenerCount).toBe(1);
  });

  it('a listener that throws loses nothing for the file or the other listeners, and is reported', () => {
    const written: string[] = [];
    const failures: unknown[] = [];
    const feed = createAuditFeed({ record: (r) => written.push(`file:${r.requestId}`) }, (error) =>
      failures.push(error),
    );
    feed.subscribe(() => {
      throw new Error('listener broke');
    });
    feed.subscribe((r) => written.push(`other:${r.requestId}`));
    feed.record(record('1'));
    expect(written).toEqual(['file:1', 'other:1']);
    expect(failures).toHaveLength(1);
  });

  it('works without a sink (no audit.file) and closes the sink it has once listeners are gone', async () => {
    const heard: string[] = [];
    const bare = createAuditFeed(undefined);
    bare.subscribe((r) => heard.push(r.requestId));
    bare.record(record('1'));
    expect(heard).toEqual(['1']);
    let closed = false;
    const feed = createAuditFeed({
      record: () => {},
      close: async () => {
        closed = true;
      },
    });
    feed.subscribe(() => {});
    await feed.close();
    expect(closed).toBe(true);
    expect(feed.listenerCount).toBe(0);
  });
});

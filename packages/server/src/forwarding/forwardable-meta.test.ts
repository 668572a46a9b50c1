import { describe, expect, it } from 'vitest';
import { forwardableMeta } from './forwardable-meta.js';

describe('forwardableMeta', () => {
  it('passes trace context and vendor keys, takes out token, project and progress token', () => {
    const meta = { traceparent: '00-abc-def-01', 'vendor/x': 1, token: 's3cret', projectId: 'p', progressToken: 7 };
    expect(forwardableMeta(meta)).toEqual({ traceparent: '00-abc-def-01', 'vendor/x': 1 });
    expect(meta.token).toBe('s3cret');
  });

  it('is undefined when nothing is left to send', () => {
    expect(forwardableMeta(undefined)).toBeUndefined();
    expect(forwardableMeta({ progressToken: 1, token: 't' })).toBeUndefined();
  });
});

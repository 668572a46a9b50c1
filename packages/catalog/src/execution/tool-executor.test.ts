import { BackendError, RateLimitError, ServerNotRunningError, TimeoutError } from '@search-mcp/shared';
import { describe, expect, it, vi } from 'vitest';
import { ToolExecutor } from './tool-executor.js';

const ok = { content: [{ type: 'text', text: 'ok' }] };

describe('ToolExecutor', () => {
  it('retries retryable failures until one succeeds', async () => {
    let attempts = 0;
    const result = await new ToolExecutor({ retries: 2, retryDelayMs: 5 }).execute(async () => {
      attempts += 1;
      if (attempts === 1) throw new ServerNotRunningError({ serverId: 'fs' });
      if (attempts === 2) throw new RateLimitError();
      return ok;
    });
    expect(result).toBe(ok);
    expect(attempts).toBe(3);
  });

  it('gives up after the configured retries with the last error', async () => {
    let attempts = 0;
    const run = new ToolExecutor({ retries: 1, retryDelayMs: 5 }).execute(async () => {
      attempts += 1;
      throw new ServerNotRunningError({ serverId: 'fs' });
    });
    await expect(run).rejects.toThrow(ServerNotRunningError);
    expect(attempts).toBe(2);
  });

  it('never retries a failure that may have run the tool', async () => {
    for (const failure of [
      new BackendError({ serverId: 'fs', message: 'bad' }),
      new TimeoutError({ timeoutMs: 1 }),
      new Error('plain'),
    ]) {
      let attempts = 0;
      await expect(
        new ToolExecutor({ retries: 3, retryDelayMs: 1 }).execute(async () => {
          attempts += 1;
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(attempts).toBe(1);
    }
  });

  it('limits the whole execution with timeoutMs and passes the signal to the run', async () => {
    let seen: AbortSignal | undefined;
    const run = new ToolExecutor().execute(
      (signal) => {
        seen = signal;
        return new Promise(() => {});
      },
      { timeoutMs: 50 },
    );
    await expect(run).rejects.toThrow(TimeoutError);
    expect(seen?.aborted).toBe(true);
  });

  it("rejects with the caller's reason on cancel, also while waiting to retry", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      let attempts = 0;
      const run = new ToolExecutor({ retries: 5, retryDelayMs: 10_000 }).execute(
        async () => {
          attempts += 1;
          throw new ServerNotRunningError({ serverId: 'fs' });
        },
        { signal: controller.signal },
      );
      const outcome = run.catch((error: unknown) => error);
      // The first attempt failed and the 10 s wait before the retry is pending: cancel inside it.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      controller.abort(new Error('stop'));
      expect(await outcome).toEqual(new Error('stop'));
      expect(attempts).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

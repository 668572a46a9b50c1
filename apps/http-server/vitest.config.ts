import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Real servers are spawned; one test waits for a server that takes 10 s to start.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

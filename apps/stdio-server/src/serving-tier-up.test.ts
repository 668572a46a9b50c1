import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { servingInterruptBudgetFlag, servingTierUpFlag } from './serving-tier-up.js';

/**
 * How many calls a small hot function takes to be optimised in a fresh node, with `flag` set at run time as `serve`
 * sets it. `--allow-natives-syntax` reads V8's optimisation status; `--no-concurrent-recompilation` makes the
 * optimisation happen at the call that triggers it, so the count is exact.
 */
function callsUntilOptimised(flag?: string): number {
  const script = `
    import { setFlagsFromString } from 'node:v8';
    ${flag ? `setFlagsFromString(${JSON.stringify(flag)});` : ''}
    function hot(x) { let sum = 0; for (let i = 0; i < 4; i++) sum += x * i; return sum; }
    let calls = 0;
    while (calls < 100000 && !(%GetOptimizationStatus(hot) & 16)) hot(calls++);
    process.stdout.write(String(calls));`;
  const child = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--no-concurrent-recompilation', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return Number(child.stdout);
}

describe('the V8 budget serve lowers once started', () => {
  it('makes this Node optimise a hot function after far fewer calls than its default', () => {
    const byDefault = callsUntilOptimised();
    const lowered = callsUntilOptimised(servingInterruptBudgetFlag);
    expect(byDefault).toBeLessThan(100000);
    expect(lowered * 5).toBeLessThan(byDefault);
  });

  it('is left alone when node was started with a budget of its own', () => {
    expect(servingTierUpFlag([])).toBe(servingInterruptBudgetFlag);
    expect(servingTierUpFlag(['--enable-source-maps'])).toBe(servingInterruptBudgetFlag);
    expect(servingTierUpFlag(['--interrupt-budget=65536'])).toBeUndefined();
    expect(servingTierUpFlag(['--interrupt_budget', '65536'])).toBeUndefined();
  });
});

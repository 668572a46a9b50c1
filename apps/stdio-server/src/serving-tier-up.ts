import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flag `serve` sets once it is connected to its client: a function is optimised after 4 KB of bytecode budget
 * instead of V8's default (132 KB in Node 20's V8 11.3). A stdio server forwards a few thousand calls before the
 * default budget has optimised its forwarding path; until then each call ran ~30 % slower than a byte relay's
 * (`pnpm bench:forwarding-overhead`, fresh rows of interleaved runs: 1.28–1.43× the relay with the default, 0.98–1.08×
 * with this; the warm rows, after 3,000 calls, 1.10–1.13× and 1.07–1.10×).
 * Set after the client connection, before the backends start: the code that connects them is the forwarding path's
 * (the SDK clients), and a function gets the new budget only once it has spent the one it started with. That costs
 * `serve` ~40 ms more CPU to start (0.81 s against 0.77 s with one backend); set after the backends settled instead,
 * the fresh rows read 1.06–1.17×. Never set for a one-shot command: there it optimises run-once start-up code, ~50 %
 * more CPU (0.62 s against 0.40 s for `search`).
 */
export const servingInterruptBudgetFlag = '--interrupt-budget=4096';

/**
 * The flag to set, or undefined when the process was started with its own `--interrupt-budget` (`node
 * --interrupt-budget=… search-mcp …`): the person who set that meant it.
 */
export function servingTierUpFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((argument) => /^--interrupt[-_]budget(=|$)/.test(argument))
    ? undefined
    : servingInterruptBudgetFlag;
}

/** Lowers V8's optimisation budget for the rest of this process (see `servingInterruptBudgetFlag`). */
export function optimiseServingSooner(execArgv: readonly string[] = process.execArgv): void {
  const flag = servingTierUpFlag(execArgv);
  if (flag) setFlagsFromString(flag);
}

import type { ExpectedFailure } from './expected-failures.js';
import type { ScenarioResult } from './scenario-results.js';

function describeFailures(result: ScenarioResult): string {
  return result.failures.map((check) => `${check.id}: ${check.errorMessage ?? '(no message)'}`).join('\n  ');
}

/**
 * Whether a scenario's result is what it should be, and if not, why (the assertion message). A scenario listed as an
 * expected failure must still fail, and only in the listed checks: a listed scenario that passes now, or fails in a
 * check nobody listed, is reported so the list stays true. Otherwise it must pass when `mustPass`.
 */
export function expectationProblem(
  result: ScenarioResult | undefined,
  expected: ExpectedFailure | undefined,
  mustPass: boolean,
  listName: string,
): string | undefined {
  if (!result) return 'the suite wrote no checks.json for this scenario';
  if (expected) {
    if (result.failures.length === 0) {
      return `listed in ${listName} (${expected.reason}) but passes now: remove its entry`;
    }
    const unlisted = result.failures.filter((check) => !expected.checks.includes(check.id));
    if (unlisted.length > 0) {
      return `fails in checks ${listName} does not list:\n  ${describeFailures({ ...result, failures: unlisted })}`;
    }
    return undefined;
  }
  if (mustPass && result.failures.length > 0) return `failing checks:\n  ${describeFailures(result)}`;
  return undefined;
}

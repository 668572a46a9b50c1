import { isRecord } from '@search-mcp/shared';
import type { ProtocolErrors } from './protocol-errors.js';

/**
 * What was wrong with a backend's answer that its SDK refused, or undefined when `error` is no such refusal. Two
 * kinds: the 2.x client's own refusal of a result (`SdkError` `INVALID_RESULT`, `UNSUPPORTED_RESULT_TYPE`), and a
 * zod error, which is how the 1.x SDK's HTTP transports refuse a response that is no JSON-RPC message (`result:
 * null`). Either says the answer was bad, never that the connection is: the request fails, the connection stays.
 */
export function badAnswerOf(error: unknown, errors: ProtocolErrors): string | undefined {
  const modern = errors.badResultOf(error);
  if (modern !== undefined) return summarize(modern);
  const zodIssues = error instanceof Error && error.name === 'ZodError' ? (error as { issues?: unknown }).issues : 0;
  if (Array.isArray(zodIssues)) {
    const issues = leafIssues(zodIssues);
    return `not a JSON-RPC response${issues ? ` (${issues})` : ''}`;
  }
  return undefined;
}

/** The SDK's message without its zod dump: `Invalid result for tools/call: [...]` → the issues, one line. */
function summarize(message: string): string {
  const start = message.indexOf(': [');
  if (start === -1) return message;
  try {
    const issues: unknown = JSON.parse(message.slice(start + 2));
    const leaves = Array.isArray(issues) ? leafIssues(issues) : '';
    return leaves || message;
  } catch {
    return message;
  }
}

/** Zod issues as `` `path`: message `` joined by `; ` (a union: the branch about `result`, else its first). */
function leafIssues(issues: unknown[]): string {
  const lines: string[] = [];
  for (const issue of issues) {
    if (!isRecord(issue)) continue;
    const branches = issue.errors;
    if (issue.code === 'invalid_union' && Array.isArray(branches) && Array.isArray(branches[0])) {
      const branch = branches.find(aboutResult) ?? branches[0];
      const inner = leafIssues(branch as unknown[]);
      if (inner) lines.push(inner);
      continue;
    }
    const path = Array.isArray(issue.path) && issue.path.length > 0 ? `\`${issue.path.join('.')}\`: ` : '';
    lines.push(`${path}${String(issue.message)}`);
  }
  return lines.slice(0, 5).join('; ');
}

/** A union branch whose issues concern `result` (the JSON-RPC message union's response branch). */
function aboutResult(branch: unknown): boolean {
  return (
    Array.isArray(branch) &&
    branch.some((issue) => isRecord(issue) && Array.isArray(issue.path) && issue.path[0] === 'result')
  );
}

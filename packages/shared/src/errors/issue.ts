/** One problem found in a config file or in tool arguments, with the JSON path it concerns. */
export interface Issue {
  /** JSON path, e.g. `mcpServers.github.env.TOKEN` or `arguments.path`. Empty for the root. */
  path: string;
  message: string;
}

/** `path: message; path: message` — the one way a list of issues is written on one line. */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
}

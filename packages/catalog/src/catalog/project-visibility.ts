/**
 * Which servers a project sees (docs/projects-and-tokens.md, "Visibility"), the one place for this rule: with
 * project P a caller sees the servers whose `projects` contains P; with no project, the servers without `projects`.
 * The catalog filters tools with it, and the MCP server's `instructions` list servers with it, so both always agree.
 */
export function isServerVisibleToProject(
  serverProjects: readonly string[] | undefined,
  projectId: string | undefined,
): boolean {
  if (projectId === undefined) return serverProjects === undefined;
  return serverProjects?.includes(projectId) === true;
}

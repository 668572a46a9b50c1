/**
 * turbo.json starts a bundled app's build once the builds of the libraries it inlines are done, and no later: each
 * app's `build` lists those libraries' `build` tasks by name (README, "Development"), rather than waiting for
 * everything the app depends on, its test kit included. A library the bundle starts to inline must join the list, or
 * the app could bundle that library's previous build, or fail for want of one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlinedWorkspacePackages } from './bundle-contents.js';
import { repositoryRoot, workspacePackages } from './workspace.js';

const turbo = JSON.parse(readFileSync(join(repositoryRoot, 'turbo.json'), 'utf8')) as {
  tasks: Record<string, { dependsOn?: string[] }>;
};

describe("turbo.json's order of the bundled apps' builds", () => {
  it.each(['@search-mcp/cli', '@search-mcp/http', '@search-mcp/web-search-server'])(
    '%s builds after exactly the libraries its bundle inlines (and search-mcp-http after the console it copies)',
    (name) => {
      const app = workspacePackages().find((entry) => entry.name === name);
      expect(app).toBeDefined();
      const inlined = app ? inlinedWorkspacePackages(app, workspacePackages()) : [];
      // Not a vacuous pass: every bundle inlines at least the shared package.
      expect(inlined).toContain('@search-mcp/shared');
      const copied = name === '@search-mcp/http' ? ['@search-mcp/console'] : [];
      const waitsFor = (turbo.tasks[`${name}#build`]?.dependsOn ?? []).map((task) => task.replace(/#build$/, ''));
      expect([...waitsFor].sort()).toEqual([...inlined, ...copied].sort());
    },
  );
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realServiceTestFiles, realServiceTestsIn } from '../../../tooling/real-service-tests.js';
import { repositoryRoot, workspacePackages } from './workspace.js';

// tooling/real-service-tests.ts: the files the packages' own runs leave out and tests/real-services runs.
describe('the real-service test list', () => {
  it('names test files that exist, once each, each inside a workspace package', () => {
    expect(realServiceTestFiles.length).toBeGreaterThan(10);
    expect(new Set(realServiceTestFiles).size).toBe(realServiceTestFiles.length);
    const packages = workspacePackages().map((entry) => `${entry.relativeDirectory}/`);
    for (const file of realServiceTestFiles) {
      expect(existsSync(join(repositoryRoot, file)), file).toBe(true);
      expect(file, file).toMatch(/\.test\.ts$/);
      expect(
        packages.some((directory) => file.startsWith(directory)),
        file,
      ).toBe(true);
    }
  });

  it("gives each package's run its own files of it, relative to the package, and no other package's", () => {
    expect(realServiceTestsIn('packages/client-manager')).toContain('src/oauth/oauth-login.test.ts');
    expect(realServiceTestsIn('apps/http-server')).toContain('test/oauth-in-front-http.test.ts');
    expect(realServiceTestsIn('packages/catalog')).toEqual([]);
    // A package whose folder name begins another's gets nothing of the other one.
    expect(realServiceTestsIn('packages/client')).toEqual([]);
  });
});

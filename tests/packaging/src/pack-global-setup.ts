import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { type PackResult, packPublishedPackages } from './packed-packages.js';

declare module 'vitest' {
  export interface ProvidedContext {
    packResult: PackResult;
  }
}

/** Packs once for every test file (packing takes seconds; the checks and the npm install share the tarballs). */
export default function setup(project: TestProject) {
  const result = packPublishedPackages();
  project.provide('packResult', result);
  return () => rmSync(result.directory, { recursive: true, force: true });
}

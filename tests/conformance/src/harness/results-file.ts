import { readFile, writeFile } from 'node:fs/promises';

/** The sections of `results/conformance-table.md`, in this order; each test file writes its own. */
export const resultsSections = ['Server scenarios', 'Client scenarios'] as const;
export type ResultsSection = (typeof resultsSections)[number];

/**
 * Writes one `## <section>` of the results file, keeping the other's as the last run left it (the server and the
 * client scenarios run in separate test files, one after the other).
 */
export async function writeResultsSection(file: string, section: ResultsSection, body: string): Promise<void> {
  let existing = '';
  try {
    existing = await readFile(file, 'utf8');
  } catch {
    // First run: no file yet.
  }
  const bodies = new Map<string, string>();
  let current: string | undefined;
  for (const line of existing.split('\n')) {
    const heading = /^## (.+)$/.exec(line)?.[1];
    if (heading !== undefined) {
      current = heading;
      bodies.set(current, '');
    } else if (current !== undefined) bodies.set(current, `${bodies.get(current)}${line}\n`);
  }
  bodies.set(section, `\n${body.trim()}\n\n`);
  const text = resultsSections
    .filter((name) => bodies.has(name))
    .map((name) => `## ${name}\n${bodies.get(name)?.trimEnd()}\n`)
    .join('\n');
  await writeFile(file, text);
}

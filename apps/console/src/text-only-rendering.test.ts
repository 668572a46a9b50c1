import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 22, "Bad input": HTML in tool descriptions, results and errors is shown as text, never run. Preact renders
 * strings as text nodes; the only ways around that are `dangerouslySetInnerHTML` and writing `innerHTML` (or
 * `outerHTML`, `insertAdjacentHTML`, `document.write`) by hand, so no source file of the console may use them.
 * No DOM library (happy-dom, jsdom, preact-render-to-string) is a dependency of this package, so the rendered check
 * of a `<script>` payload is the browser suite's (tests/browser, console test).
 */
const source = dirname(fileURLToPath(import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('text from servers', () => {
  it('is never written as HTML by any console source file', () => {
    const files = sourceFiles(source);
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) =>
      /dangerouslySetInnerHTML|\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function\(/.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(offenders).toEqual([]);
  });
});

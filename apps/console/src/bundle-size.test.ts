import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * Issue 22, "Front end": the first load is at most 150 KB compressed, and the page runs under the CSP search-mcp-http
 * sends (`script-src 'self'`: no inline script). Reads the built `dist`; turbo builds it before `test`
 * (turbo.json).
 */
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const limitBytes = 150 * 1024;

function gzippedSize(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

describe('the built console', () => {
  it('exists (run `pnpm build` in apps/console first)', () => {
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
  });

  it('loads at most 150 KB compressed on first load: index.html and every script and style it names', () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const loaded = [...html.matchAll(/(?:src|href)="\/ui\/([^"]+)"/g)].map((match) => match[1]!);
    expect(loaded.some((file) => file.endsWith('.js'))).toBe(true);
    expect(loaded.some((file) => file.endsWith('.css'))).toBe(true);
    const total = [join(dist, 'index.html'), ...loaded.map((file) => join(dist, file))].reduce(
      (sum, file) => sum + gzippedSize(file),
      0,
    );
    expect(total).toBeLessThanOrEqual(limitBytes);
    // The Usage page's chunk (uPlot) loads only when opened; even everything at once stays under the limit.
    const everything = readdirSync(join(dist, 'assets')).reduce(
      (sum, file) => sum + gzippedSize(join(dist, 'assets', file)),
      gzippedSize(join(dist, 'index.html')),
    );
    expect(everything).toBeLessThanOrEqual(limitBytes);
  });

  it('has no inline script and loads nothing from another origin', () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      expect(script[1]).toMatch(/\ssrc="\/ui\//);
      expect(script[2]!.trim()).toBe('');
    }
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});

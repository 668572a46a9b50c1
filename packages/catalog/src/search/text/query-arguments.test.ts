import { describe, expect, it } from 'vitest';
import { splitQueryArguments } from './query-arguments.js';

describe('splitQueryArguments', () => {
  it('finds URLs, domains, paths and file names', () => {
    const { rest, arguments: found } = splitQueryArguments(
      'fetch https://example.com/a?b=1 and www.foo.org, open example.com, save to /root/out/report.md, read ~/notes, edit config.yaml or C:\\tmp\\x.txt',
    );
    expect(found).toEqual([
      { kind: 'url', text: 'https://example.com/a?b=1' },
      { kind: 'url', text: 'www.foo.org' },
      { kind: 'url', text: 'example.com' },
      { kind: 'file', text: '/root/out/report.md' },
      { kind: 'path', text: '~/notes' },
      { kind: 'file', text: 'C:\\tmp\\x.txt' },
      { kind: 'file', text: 'config.yaml' },
    ]);
    expect(rest.replace(/\s+/g, ' ').trim()).toBe('fetch and , open , save to , read , edit or');
    expect(splitQueryArguments('see https://a.io/x.').arguments).toEqual([{ kind: 'url', text: 'https://a.io/x' }]);
  });

  it('leaves ordinary words alone', () => {
    for (const text of [
      'and/or',
      'I/O errors',
      'Next.js docs',
      'Node.js',
      'read the file',
      'ファイルを読む',
      'e.g. this',
    ]) {
      expect(splitQueryArguments(text).arguments).toEqual([]);
    }
  });

  it('never throws', () => {
    for (const text of ['', '/', '//', 'http://', '\ud800/x', '/'.repeat(10_000), 'a.'.repeat(5_000)]) {
      expect(() => splitQueryArguments(text)).not.toThrow();
    }
  });
});

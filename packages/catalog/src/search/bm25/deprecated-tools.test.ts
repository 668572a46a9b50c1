import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { tool } from '../../../test/search-test-tools.js';
import { deprecationOf, findDeprecatedTools, NO_REPLACEMENT, NOT_DEPRECATED } from './deprecated-tools.js';

describe('deprecationOf', () => {
  it.each([
    ['Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.', 'read_text_file'],
    ['(Deprecated) Lists the files.', undefined],
    ['[deprecated] old search', undefined],
    ['Deprecated. Use search_v2.', 'search_v2'],
    ['This tool is deprecated; use `list_items` instead.', 'list_items'],
    ['Creates a page. Deprecated in favour of create_page_v2.', 'create_page_v2'],
    ['Deprecated: replaced by files:read.', 'files:read'],
  ])('marks %j (replacement %j)', (description, replacement) => {
    expect(deprecationOf(tool('s', 'old', description))).toEqual(replacement === undefined ? {} : { replacement });
  });

  it.each([
    'Check if packages are deprecated',
    'List the deprecated APIs of a library',
    'Use read_text_file instead of this for large files',
    'Returns whether an npm version is deprecated.',
  ])('does not mark a tool that is about deprecation or merely points elsewhere: %j', (description) => {
    expect(deprecationOf(tool('s', 'tool', description))).toBeUndefined();
  });

  it('reads the title too, and survives malformed tools', () => {
    expect(deprecationOf(tool('s', 'x', 'Does x', { title: 'X (deprecated)' }))).toEqual({});
    expect(deprecationOf({ toolKey: 's:y', description: 42 } as unknown as ToolInfo)).toBeUndefined();
  });
});

describe('findDeprecatedTools', () => {
  it('finds the replacement on the same server first, then the only tool of that name', () => {
    const tools = [
      tool('fs', 'read_file', 'DEPRECATED: Use read_text_file instead.'),
      tool('other', 'read_text_file', 'Reads text elsewhere.'),
      tool('fs', 'read_text_file', 'Read a file as text.'),
      tool('fs', 'old_list', 'Deprecated: use list_directory instead.'),
      tool('fs', 'list_directory', 'List a directory.'),
      tool('fs', 'legacy', '(deprecated) does something'),
      tool('fs', 'gone', 'DEPRECATED: use nothing_like_this instead.'),
    ];
    expect(Array.from(findDeprecatedTools(tools))).toEqual([
      2,
      NOT_DEPRECATED,
      NOT_DEPRECATED,
      4,
      NOT_DEPRECATED,
      NO_REPLACEMENT,
      NO_REPLACEMENT,
    ]);
  });
});

import { isRecord } from '@search-mcp/shared';

/**
 * What is wrong with a `tools/call` result, or undefined when it has the shape MCP defines for `CallToolResult`.
 * Results are otherwise passed on unchanged (unknown fields included), so only the fields a client reads are
 * checked: `content` an array of blocks with a string `type`, `structuredContent` and `_meta` objects, `isError` a
 * boolean. `content` may be missing (a task result has none). One pass over the blocks, nothing deeper: a 50 MB
 * result costs no more than its number of blocks.
 */
export function callToolResultProblem(result: Record<string, unknown>): string | undefined {
  const { content, structuredContent, isError, _meta } = result;
  if (content !== undefined) {
    if (!Array.isArray(content)) return `\`content\` is ${describeType(content)} (expected an array of content blocks)`;
    for (let index = 0; index < content.length; index += 1) {
      const block: unknown = content[index];
      if (!isRecord(block) || typeof block.type !== 'string') {
        return `\`content[${index}]\` is ${isRecord(block) ? 'an object without a string `type`' : describeType(block)} (expected a content block)`;
      }
    }
  }
  if (structuredContent !== undefined && !isRecord(structuredContent)) {
    return `\`structuredContent\` is ${describeType(structuredContent)} (expected an object)`;
  }
  if (isError !== undefined && typeof isError !== 'boolean') {
    return `\`isError\` is ${describeType(isError)} (expected a boolean)`;
  }
  if (_meta !== undefined && !isRecord(_meta)) return `\`_meta\` is ${describeType(_meta)} (expected an object)`;
  return undefined;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

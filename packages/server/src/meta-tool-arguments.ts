import { configDefaults, formatIssues, isRecord } from '@search-mcp/shared';
import { z } from 'zod';

/**
 * The arguments of the two meta-tools, written once: requests are validated with these schemas, and the
 * `inputSchema` a client sees is generated from them (`meta-tool-definitions.ts`). Descriptions are what the model
 * reads, so they are short.
 */
export const toolDiscoveryArguments = z.object({
  query: z
    .union([z.string(), z.array(z.string())])
    .describe('What you want to do, e.g. ["read a file", "show file contents"].'),
  context: z.string().describe('The overall task, to rank better.').optional(),
  maxResults: z.number().int().min(1).max(configDefaults.maxResultsLimit).optional(),
  detail: z
    .enum(['minimal', 'summary', 'full'])
    .describe('minimal: names only; summary (default): + input schema; full: + output schema and annotations.')
    .optional(),
});

export type ToolDiscoveryArguments = z.infer<typeof toolDiscoveryArguments>;

export type DiscoveryDetail = NonNullable<ToolDiscoveryArguments['detail']>;

export const toolExecuteArguments = z.object({
  // A refinement, not `.min(1)`: a blank key is refused too, and the advertised schema stays as small as it was.
  toolKey: z
    .string()
    .refine((key) => key.trim() !== '', 'must not be empty')
    .describe('e.g. "filesystem:read_text_file"'),
  arguments: z.record(z.string(), z.unknown()).describe("The tool's arguments. Default {}.").optional(),
});

export type ToolExecuteArguments = z.infer<typeof toolExecuteArguments>;

/**
 * `tool_execute`'s arguments when they plainly fit `toolExecuteArguments` (nearly every call), checked without a zod
 * parse, which would also copy the tool's arguments on every forwarded call; undefined when zod must say what is
 * wrong. The tool's arguments are passed on as received.
 */
export function plainToolExecuteArguments(args: Record<string, unknown>): ToolExecuteArguments | undefined {
  const { toolKey, arguments: toolArguments } = args;
  if (typeof toolKey !== 'string' || toolKey.trim() === '') return undefined;
  if (toolArguments === undefined) return { toolKey };
  return isRecord(toolArguments) ? { toolKey, arguments: toolArguments } : undefined;
}

/** Zod issues on one line (`query: expected string; maxResults: too big`); the root is called `rootName`. */
export function describeZodIssues(error: z.ZodError, rootName: string): string {
  return formatIssues(
    error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || rootName, message: issue.message })),
  );
}

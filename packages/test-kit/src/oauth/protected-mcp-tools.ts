import { type CallToolResult, McpServer, requireScopes, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** The tools of the protected MCP server and the scopes a call of each needs beyond the server's required ones. */
export type ToolScopes = Record<string, readonly string[]>;

export const defaultToolScopes: ToolScopes = { write_note: ['mcp:write'] };

/** The claims of the bearer token the request came with (the gate put them in `authInfo.extra.claims`). */
function claimsOf(context: ServerContext): Record<string, unknown> {
  return (context.http?.authInfo?.extra?.claims as Record<string, unknown> | undefined) ?? {};
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/**
 * One instance of the protected server's MCP surface:
 * - `whoami` answers the token's `sub`, `scope`, `aud` and `client_id` as JSON text;
 * - `write_note {text}` answers `noted: <text>`.
 * A tool named in `toolScopes` carries the SDK's scope challenge (`requireScopes`): a call whose token lacks one of
 * them is answered 403 `insufficient_scope` by the SDK's transport before the tool runs (the MCP authorization spec's
 * step-up); the challenge names the complete set the call needs (the server's required scopes and the tool's).
 */
export function createProtectedMcpServer(requiredScopes: readonly string[], toolScopes: ToolScopes): McpServer {
  const server = new McpServer({ name: 'oauth-protected-fixture', version: '1.0.0' });
  const challengeFor = (tool: string) => {
    const needed = [...new Set([...requiredScopes, ...(toolScopes[tool] ?? [])])];
    const [first, ...rest] = needed;
    return (toolScopes[tool]?.length ?? 0) > 0 && first !== undefined
      ? { scopeChallenge: requireScopes(first, ...rest) }
      : {};
  };

  server.registerTool(
    'whoami',
    { description: "The access token's subject, scopes and audience.", ...challengeFor('whoami') },
    (context) => {
      const { sub, scope, aud, client_id } = claimsOf(context);
      return text(JSON.stringify({ sub, scope, aud, client_id }));
    },
  );
  server.registerTool(
    'write_note',
    {
      description: 'Writes a note (needs a write scope).',
      inputSchema: z.object({ text: z.string() }),
      ...challengeFor('write_note'),
    },
    ({ text: note }) => text(`noted: ${note}`),
  );
  return server;
}

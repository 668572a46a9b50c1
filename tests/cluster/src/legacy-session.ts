/**
 * A 2025 client as agents run it today: the 1.x SDK's `Client` over Streamable HTTP with an `Mcp-Session-Id`
 * session, through the load balancer. `call` makes one tool call and, when it fails, retries it once (what a client
 * does after a dropped connection); the counts say how many calls needed that retry and how many failed even so.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface LegacySession {
  /** The session id the client was given at `initialize`. */
  sessionId: string | undefined;
  /** Calls that succeeded at once. */
  succeeded: number;
  /** Calls that failed once and succeeded on their retry. */
  retried: number;
  /** The errors of calls that failed on their retry too. */
  failures: string[];
  /** Whether the last call succeeded (at once or on its retry). */
  lastSucceeded: boolean;
  call(message: string): Promise<void>;
  close(): Promise<void>;
}

export async function openLegacySession(url: string, headers: Record<string, string>, name: string) {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  const session: LegacySession = {
    sessionId: transport.sessionId,
    succeeded: 0,
    retried: 0,
    failures: [],
    lastSucceeded: true,
    call: async (message) => {
      const once = async () => {
        const result = await client.callTool({ name: 'fixture__echo', arguments: { message } }, undefined, {
          timeout: 20_000,
        });
        const text = JSON.stringify(result.content);
        if (result.isError === true || !text.includes(`Echo: ${message}`)) throw new Error(`answered ${text}`);
      };
      try {
        await once();
        session.succeeded += 1;
        session.lastSucceeded = true;
      } catch {
        try {
          await once();
          session.retried += 1;
          session.lastSucceeded = true;
        } catch (error) {
          session.failures.push(error instanceof Error ? error.message : String(error));
          session.lastSucceeded = false;
        }
      }
    },
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
  return session;
}

/**
 * Whether a service can search: its client, or the message its searches answer with while it cannot (no key, a key
 * that cannot be one, a wrong setting). The server still starts and lists its tool (a client would otherwise show
 * only "server disconnected"); every call answers with these steps instead.
 */
import { realpathSync } from 'node:fs';
import { ConfigError, formatIssues, type Logger } from '@search-mcp/shared';
import type OpenAI from 'openai';
import { apiKeyProblem } from '../client/api-key.js';
import { createOpenAiClient } from '../client/openai-client.js';
import { WebSearchError } from './web-search-error.js';
import type { WebSearchServiceSettings } from './web-search-service-settings.js';

/**
 * The config entry that starts this very server, for the setup steps: `node` and the script running now (the bin or
 * `dist/cli.js` of apps/web-search-server, in a clone or an install), since the package is not on the npm registry
 * yet (README, "Install"). Outside that server (a library use) a placeholder path says where the script lives.
 */
export function webSearchServerEntry(script: string | undefined = process.argv[1]): string {
  const own = script !== undefined && /web-search/.test(script) ? (realPath(script) ?? script) : undefined;
  const args = [own ?? '/path/to/search-mcp/apps/web-search-server/dist/cli.js'];
  return `"web-search": { "command": "node", "args": ${JSON.stringify(args)}, "env": { "OPENAI_API_KEY": "sk-…" } }`;
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The error every search returns while the key is missing or unusable; undefined when the key is usable. */
export function apiKeySetupError(apiKey: string | undefined): WebSearchError | undefined {
  const problem = apiKeyProblem(apiKey);
  if (!problem) return undefined;
  const missing = apiKey === undefined || apiKey === '';
  return new WebSearchError({
    kind: missing ? 'missing-api-key' : 'invalid-api-key',
    message:
      `OPENAI_API_KEY ${problem}, so this server cannot search yet. To set it up:\n` +
      '1. Create an API key at https://platform.openai.com/api-keys (the project needs access to the model, o3 by default).\n' +
      "2. Put it in the env of this server's entry in your MCP client's config. For Claude Desktop " +
      `(claude_desktop_config.json, under "mcpServers"): ${webSearchServerEntry()}\n` +
      '3. Restart the MCP client.',
  });
}

/** The error every search returns while settings are wrong (each names the variable, never its value). */
export function settingsSetupError(problems: readonly string[]): WebSearchError {
  return new WebSearchError({
    kind: 'invalid-setting',
    message: `This server's settings are wrong, so it cannot search: ${problems.join('; ')}. Fix them in the env of this server's entry in your MCP client's config and restart the client.`,
  });
}

export interface WebSearchClientState {
  client?: OpenAI;
  setupError?: WebSearchError;
}

/** The client of a service, or the error its searches answer with while it cannot search. */
export function resolveWebSearchClient(settings: WebSearchServiceSettings, logger: Logger): WebSearchClientState {
  const problems = settings.setupProblems ?? [];
  const keyError = settings.client ? undefined : apiKeySetupError(settings.openai?.apiKey);
  if (keyError) {
    if (problems.length === 0) return { setupError: keyError };
    const message = `${keyError.message}\nAlso fix: ${problems.join('; ')}.`;
    return { setupError: new WebSearchError({ kind: keyError.kind, message }) };
  }
  if (problems.length > 0) return { setupError: settingsSetupError(problems) };
  if (settings.client) return { client: settings.client };
  try {
    return { client: createOpenAiClient({ ...settings.openai, apiKey: settings.openai?.apiKey ?? '', logger }) };
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    return { setupError: settingsSetupError([formatIssues(error.issues)]) };
  }
}

/**
 * `@search-mcp/http/local-console`: the web console for a local config on 127.0.0.1, what `search-mcp ui` starts
 * (docs/console.md, "Signing in"). One function: load the config as every command does, start the runtime and the
 * HTTP app with an admin token of its own (in memory only), and hand back the address to open with a one-time code.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createSearchMcpRuntime, startHotReload } from '@search-mcp/runtime';
import { collectConfigSecrets, createGrowingSecretRedactor, createJsonLineLogger } from '@search-mcp/shared';
import { findAndLoadConfig } from '@search-mcp/shared/node';
import { serverProcessOAuth } from './backend-oauth/oauth-redirect-url.js';
import { buildHttpApp } from './http-app.js';
import { packageVersion } from './version.js';

export interface LocalConsoleOptions {
  /** The config file (`--config`); default: found as every command finds it (`$SEARCH_MCP_CONFIG`, …). */
  configPath?: string;
  /** The port on 127.0.0.1; default 0, a free one. */
  port?: number;
  /**
   * Default `warn`. The shared package's `LogLevel`, spelt out: this package inlines its libraries, so its one
   * declaration file names no other package.
   */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Where log lines go; default stderr. */
  writeLog?: (line: string) => void;
  /** Watch the config file and apply its edits live; default true (`SEARCH_MCP_WATCH=0` turns it off too). */
  watch?: boolean;
  /** For `${VAR}` in the config and the config search; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where a relative config path and the project config are looked for; default `process.cwd()`. */
  cwd?: string;
}

export interface LocalConsole {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `<url>/ui/#code=<one-time code>`: what to open; the code works once, within 10 minutes. */
  consoleUrl: string;
  configPath: string;
  /** A new one-time address (the first one is used or expired). */
  newConsoleUrl(): string;
  /** Answers what is in flight, stops the app and every backend. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the console on 127.0.0.1. Backends start in the background (the console shows them starting).
 * @throws ConfigError when the config cannot be loaded; an Error when the port cannot be listened on.
 */
export async function startLocalConsole(options: LocalConsoleOptions = {}): Promise<LocalConsole> {
  const env = options.env ?? process.env;
  const { config, path: configPath } = await findAndLoadConfig({
    ...(options.configPath !== undefined ? { cliPath: options.configPath } : {}),
    env,
    cwd: options.cwd ?? process.cwd(),
  });
  // An admin token that lives as long as this process: nothing is written anywhere.
  const token = { id: 'console', token: randomBytes(32).toString('base64url') };
  const redactor = createGrowingSecretRedactor([...collectConfigSecrets(config), token.token]);
  const logger = createJsonLineLogger({
    level: options.logLevel ?? 'warn',
    write: options.writeLog ?? ((line) => process.stderr.write(line)),
    redactor,
  });
  let callbackBase: string | undefined;
  const runtime = createSearchMcpRuntime({
    config,
    logger,
    tokens: [{ id: token.id }],
    serverInfo: { name: 'search-mcp', version: packageVersion },
    manager: {
      redactor,
      // As search-mcp-http: authorized from the console, redirecting to this app's /oauth/callback.
      oauth: serverProcessOAuth(() => callbackBase),
    },
  });
  const http = await buildHttpApp({
    runtime,
    logger,
    redactor,
    tokens: [token],
    allowAnonymous: false,
    configPath,
  });
  try {
    await http.app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    await http.close();
    await runtime.close();
    throw error;
  }
  const { port } = http.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  callbackBase = url;
  void runtime.startBackends();
  const reloader = startHotReload(runtime, {
    configPath,
    logger,
    redactor,
    fixedByHost: ['auth'],
    ...(options.watch !== undefined ? { watch: options.watch } : {}),
    processEnvironment: env,
    onReloaded: (reload) => http.console.reloaded(reload),
    onReloadFailed: (reason) => http.console.reloadFailed(reason),
  });
  const newConsoleUrl = () => `${url}/ui/#code=${http.console.createSignInCode(token.token)}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    consoleUrl: newConsoleUrl(),
    configPath,
    newConsoleUrl,
    close: () => {
      closing ??= (async () => {
        await reloader?.close();
        await http.close();
        await runtime.close();
      })();
      return closing;
    },
  };
}

import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import { followingOpener, plainServer, textOf, useOAuthFixtures } from '../../test/oauth-harness.js';
import { createDefaultOAuthStore, createFileOAuthStore, defaultOAuthFilePath } from '../index.js';

/**
 * The file `OAuthStore` (docs/oauth.md, "Storage"): one JSON file readable by its owner only, every write kept when
 * writes come together, a file that is not ours never overwritten; the default store uses the file
 * `SEARCH_MCP_OAUTH_FILE` names (tests, containers) instead of the keyring or the user's config folder.
 */
// Fixtures first: hooks run in reverse, so every manager is closed before the servers it talks to.
const fixtures = useOAuthFixtures();
const { createManager, temporaryDirectory } = useManagers();

describe('the file store', () => {
  it('writes a 0600 file in a 0700 folder and reads back what it wrote', async () => {
    const directory = await temporaryDirectory('oauth-store-');
    const path = join(directory, 'nested', 'oauth-credentials.json');
    const store = createFileOAuthStore(path);
    expect(store.description).toBe(path);
    expect(await store.get('oauth:a:http://a')).toBeUndefined();
    await store.set('oauth:a:http://a', '{"x":1}');
    expect(await store.get('oauth:a:http://a')).toBe('{"x":1}');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(directory, 'nested'))).mode & 0o777).toBe(0o700);
    // A new store over the same file (another process, a restart) sees it.
    expect(await createFileOAuthStore(path).get('oauth:a:http://a')).toBe('{"x":1}');
    await store.delete('oauth:a:http://a');
    expect(await store.get('oauth:a:http://a')).toBeUndefined();
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({});
  });

  it('keeps every key when writes come together, from one store or several over the same file', async () => {
    const path = join(await temporaryDirectory('oauth-store-'), 'oauth-credentials.json');
    const stores = [createFileOAuthStore(path), createFileOAuthStore(path), createFileOAuthStore(path)];
    const keys = Array.from({ length: 30 }, (_, index) => `oauth:server-${index}:http://s${index}`);
    await Promise.all(keys.map((key, index) => (stores[index % stores.length] ?? stores[0])?.set(key, `v${index}`)));
    const all = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
    expect(Object.keys(all).sort()).toEqual([...keys].sort());
    for (const [index, key] of keys.entries()) expect(await stores[0]?.get(key)).toBe(`v${index}`);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('refuses a corrupt file with a clear error and never overwrites it', async () => {
    const path = join(await temporaryDirectory('oauth-store-'), 'oauth-credentials.json');
    await writeFile(path, '{ not json', { mode: 0o600 });
    const store = createFileOAuthStore(path);
    await expect(store.get('oauth:a:http://a')).rejects.toThrow(
      `the OAuth credentials file ${path} is not a JSON object; move it away to start afresh`,
    );
    await expect(store.set('oauth:a:http://a', 'value')).rejects.toThrow('is not a JSON object');
    await expect(store.delete('oauth:a:http://a')).rejects.toThrow('is not a JSON object');
    expect(await readFile(path, 'utf8')).toBe('{ not json');
    // A JSON value that is not an object is not ours either.
    await writeFile(path, '["a"]');
    await expect(createFileOAuthStore(path).set('k', 'v')).rejects.toThrow('is not a JSON object');
    expect(await readFile(path, 'utf8')).toBe('["a"]');
  });
});

describe('the default store', () => {
  it('uses the file SEARCH_MCP_OAUTH_FILE names', async () => {
    const path = join(await temporaryDirectory('oauth-store-'), 'from-env.json');
    const store = createDefaultOAuthStore({ env: { SEARCH_MCP_OAUTH_FILE: path }, homeDirectory: '/nonexistent' });
    expect(store.description).toBe(path);
    await store.set('k', 'v');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ k: 'v' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('names the file under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(defaultOAuthFilePath({ env: { XDG_CONFIG_HOME: '/xdg' }, homeDirectory: '/home/u' })).toBe(
      '/xdg/search-mcp/oauth-credentials.json',
    );
    expect(defaultOAuthFilePath({ env: {}, homeDirectory: '/home/u' })).toBe(
      '/home/u/.config/search-mcp/oauth-credentials.json',
    );
  });

  it('is what a manager uses without oauth.store: tokens land in SEARCH_MCP_OAUTH_FILE and survive a restart', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const path = join(await temporaryDirectory('oauth-store-'), 'oauth-credentials.json');
    const env = { SEARCH_MCP_OAUTH_FILE: path };
    const config = { remote: { url: mcpServer.url.href } };
    const first = createManager(config, { env, oauth: { openAuthorizationUrl: followingOpener() } }).manager;
    await first.startAll();
    expect(statusOf(first, 'remote')?.state).toBe('running');
    await first.close();
    const stored = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
    expect(Object.keys(stored)).toEqual([`oauth:remote:${mcpServer.url.href}`]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const opener = followingOpener();
    const { manager } = createManager(config, { env, oauth: { openAuthorizationUrl: opener } });
    await manager.startAll();
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('test-user');
    expect(opener.urls).toHaveLength(0);
    expect(authorizationServer.activity.authorizations).toBe(1);
  });

  it('over a corrupt file: the OAuth server fails naming the file, which is kept; the others run', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair();
    const path = join(await temporaryDirectory('oauth-store-'), 'oauth-credentials.json');
    await writeFile(path, '{ corrupt', { mode: 0o600 });
    const { manager } = createManager(
      { remote: { url: mcpServer.url.href }, plain: plainServer },
      { env: { SEARCH_MCP_OAUTH_FILE: path }, oauth: { openAuthorizationUrl: followingOpener() } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state).not.toBe('running');
    expect(statusOf(manager, 'remote')?.lastError).toContain(
      `the OAuth credentials file ${path} is not a JSON object; move it away to start afresh`,
    );
    expect(await readFile(path, 'utf8')).toBe('{ corrupt');
    expect(authorizationServer.activity.authorizations).toBe(0);
    expect(textOf(await manager.callTool('plain', 'echo', { message: 'still here' }))).toContain('still here');
  });
});

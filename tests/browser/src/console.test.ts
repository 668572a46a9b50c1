/**
 * The web console (docs/console.md) in headless Chromium against the built `search-mcp-http` with real servers
 * behind it (server-everything, server-memory and the hostile fixture of `fixtures/`): signing in, every page, the
 * search playground, a try-call from the generated form, the live Activity stream, a restart, Usage and Config; and
 * the bad input of issue 22: HTML in a tool's description and result stays text, a schema the form cannot render
 * falls back to the JSON editor, a caller without the admin role (a token limited to a project, an OAuth caller
 * without the admin role) is told so (`search-mcp ui`: console-local-ui.test.ts).
 * One search-mcp-http and one browser serve the whole file; each case that signs in differently has its own context.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './chromium-executable.js';
import { type ConsoleAppProcess, adminToken, projectToken, startConsoleApp } from './console-app-process.js';
import {
  type ConsolePage,
  consolePages,
  waitForCell,
  goTo,
  noteServerStates,
  openConsole,
  shownText,
  signInWithToken,
  fieldLabelled,
  searchHits,
  waitForRow,
  waitForServerState,
  waitForText as waitForShownText,
} from './console-page.js';
import { startViewerIssuer, type ViewerIssuer } from './oauth-viewer.js';
import { restRequest } from './rest-request.js';

/** Generous: a cold Chromium and four processes on 2 busy CI cores. */
const stepTimeoutMs = 60_000;

let issuer: ViewerIssuer;
let app: ConsoleAppProcess;
let browser: Browser;
/** The admin's page, signed in once and shared by the cases in order. */
let admin: ConsolePage;
const extraPages: ConsolePage[] = [];

function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  return restRequest(app.url, path, { ...init, token: init.token ?? adminToken });
}

/** What went wrong on the way, for a failing assertion's message. */
async function diagnostics(consolePage: ConsolePage): Promise<string> {
  return [
    `page ${consolePage.page.url()}:\n${await shownText(consolePage.page)}`,
    ...consolePage.problems(),
    `search-mcp-http:\n${app.output().slice(-2000)}`,
  ].join('\n');
}

/** Waits until the page's text holds `text`. */
async function waitForText(consolePage: ConsolePage, text: string, timeout = stepTimeoutMs): Promise<void> {
  await waitForShownText(consolePage.page, text, timeout).catch(async (error: unknown) => {
    throw new Error(`the page never showed "${text}": ${String(error)}\n${await diagnostics(consolePage)}`);
  });
}

/** The search playground's query field on the Tools page: fills it with `query` and submits. */
async function search(consolePage: ConsolePage, query: string): Promise<void> {
  const field = await consolePage.page.waitForSelector('::-p-aria([name="Search query"][role="searchbox"])');
  await field?.click({ count: 3 });
  await field?.type(query);
  await field?.press('Enter');
}

/** Opens the tool page of `toolKey` from the search playground's answer to `query`. */
async function openTool(consolePage: ConsolePage, query: string, toolKey: string): Promise<void> {
  await goTo(consolePage, 'Tools');
  await search(consolePage, query);
  await (await consolePage.page.waitForSelector(`::-p-aria([name="${toolKey}"][role="link"])`))?.click();
  await consolePage.page.waitForSelector('::-p-aria([name="Try a call"][role="heading"])');
}

/** Presses the tool page's call button (`Call <tool name>`) and waits for the call's answer. */
async function callFromToolPage(consolePage: ConsolePage, toolName: string): Promise<void> {
  const answered = consolePage.page.waitForResponse(
    (response) => response.request().method() === 'POST' && /\/v1\/tools\/([^/]+\/)?call$/.test(response.url()),
  );
  await (await consolePage.page.waitForSelector(`::-p-aria([name="Call ${toolName}"][role="button"])`))?.click();
  expect((await answered).status()).toBe(200);
}

beforeAll(async () => {
  // First, so a machine without Chromium fails here with how to install it, before anything else starts.
  const executablePath = findChromium();
  issuer = await startViewerIssuer();
  app = await startConsoleApp({ oauthIssuer: issuer.issuer });
  browser = await puppeteer.launch({
    executablePath,
    // As root (CI runs as root) Chromium starts only without its sandbox.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  admin = await openConsole(browser, `${app.url}/ui/`);
  await signInWithToken(admin, adminToken);
}, stepTimeoutMs * 2);

afterAll(async () => {
  for (const consolePage of [admin, ...extraPages]) await consolePage?.close().catch(() => {});
  await browser?.close();
  await app?.close();
  await issuer?.close();
});

describe('the web console, signed in with an admin token', () => {
  it('loads every page: its heading shows, with no console error and no failed request', async () => {
    admin.clearProblems();
    for (const name of consolePages) {
      await goTo(admin, name);
      // The page's data has arrived once nothing is loading any more.
      await admin.page.waitForNetworkIdle({ idleTime: 300, concurrency: 1 });
    }
    expect(admin.problems(), await diagnostics(admin)).toEqual([]);
  });

  it('Servers shows every server running', async () => {
    await goTo(admin, 'Servers');
    for (const serverId of ['everything', 'memory', 'hostile']) {
      await waitForServerState(admin.page, serverId, 'running', stepTimeoutMs);
    }
  });

  it('the search playground ranks: echo first with its relevance and matched terms; nonsense gets the notice', async () => {
    await goTo(admin, 'Tools');
    await search(admin, 'echo a message');
    await admin.page.waitForSelector('::-p-aria([name="everything:echo"][role="link"])');
    const ranked = await searchHits(admin.page);
    expect(ranked[0], await diagnostics(admin)).toMatchObject({ rank: '1', tool: 'everything:echo' });
    // Relevance 1 (the best hit) as a number beside its bar, and the words it matched.
    expect(ranked[0]?.relevance).toContain('1.00');
    expect(await admin.page.$('::-p-aria([name="Relevance of everything:echo"])')).toBeTruthy();
    expect(ranked[0]?.matched).toMatch(/echo/);
    expect(ranked[0]?.matched).toMatch(/message/);
    await search(admin, 'zxqv blorptang');
    await waitForText(admin, "no tool matches 'zxqv blorptang'");
  });

  it('a try-call runs from the generated form and shows the result', async () => {
    await openTool(admin, 'echo a message', 'everything:echo');
    const message = await admin.page.waitForSelector(fieldLabelled('message'));
    await message?.type('hello from the browser');
    await callFromToolPage(admin, 'echo');
    await waitForText(admin, 'Echo: hello from the browser');
  });

  it('Activity lists that call and shows a new one live, without a reload', async () => {
    await goTo(admin, 'Activity');
    await waitForRow(admin.page, 'everything:echo', stepTimeoutMs);
    // A mark on the window: a reload would lose it.
    await admin.page.evaluate(() => {
      (window as unknown as { consoleNotReloaded: boolean }).consoleNotReloaded = true;
    });
    const call = await api('/v1/tools/call', { body: { name: 'memory:read_graph', parameters: {} } });
    expect(call.status).toBe(200);
    const row = await waitForRow(admin.page, 'memory:read_graph', stepTimeoutMs);
    expect(row).toContain('ok');
    expect(
      await admin.page.evaluate(() => (window as unknown as { consoleNotReloaded?: boolean }).consoleNotReloaded),
    ).toBe(true);
  });

  it('a restart button restarts the server: starting, then running again with a new connection', async () => {
    const before = (await api('/v1/servers/memory')).body;
    const eventsBefore = (await api('/v1/events')).body.events.length as number;
    await goTo(admin, 'Servers');
    await waitForServerState(admin.page, 'memory', 'running', stepTimeoutMs);
    const statesShown = await noteServerStates(admin.page, 'memory');
    const restarted = admin.page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/v1/servers/memory/restart'),
    );
    await (await admin.page.waitForSelector('::-p-aria([name="Restart memory"][role="button"])'))?.click();
    const answer = await restarted;
    expect(answer.status()).toBe(200);
    const after = (await api('/v1/servers/memory')).body;
    expect(after.state).toBe('running');
    expect(after.connectedAt !== before.connectedAt || after.restarts > before.restarts).toBe(true);
    // The event log saw it go through starting and back to running.
    const events = (await api('/v1/events')).body.events as Array<{ serverId?: string; to?: string }>;
    const states = events.slice(eventsBefore).filter((event) => event.serverId === 'memory');
    // (A restart stops the server first: `stopped` may come before.)
    expect(states.map((event) => event.to).slice(-2)).toEqual(['starting', 'running']);
    // And the page showed it live, without a reload: from running through starting back to running.
    await waitForServerState(admin.page, 'memory', 'running', stepTimeoutMs);
    const shown = await statesShown();
    expect(shown[0]).toBe('running');
    expect(shown).toContain('starting');
    expect(shown.at(-1)).toBe('running');
  });

  it('Usage shows the call counts per tool', async () => {
    await goTo(admin, 'Usage');
    // The try-call of echo and the REST call of read_graph so far: one each, no error.
    const usage = (rowKey: string, column: string, expected: string) =>
      waitForCell(admin.page, { table: 'Usage per tool', rowKey, column, expected }, stepTimeoutMs);
    expect(await usage('everything:echo', 'Calls', '^1$')).toBe('1');
    expect(await usage('everything:echo', 'Errors', '^0$')).toBe('0');
    expect(await usage('memory:read_graph', 'Calls', '^1$')).toBe('1');
  });

  it('Config shows the config with every token masked', async () => {
    await goTo(admin, 'Config');
    await waitForText(admin, 'everything');
    const text = await shownText(admin.page);
    const html = await admin.page.content();
    expect(html).not.toContain(adminToken);
    expect(html).not.toContain(projectToken);
    expect(text).toContain('••••');
  });
});

describe('bad input', () => {
  it('HTML in a tool description and result is shown as text and never runs', async () => {
    await openTool(admin, 'formats a report', 'hostile:html-description');
    await waitForText(admin, '<img src=x onerror=');
    await waitForText(admin, '<script>window.__consoleXss=2');
    await callFromToolPage(admin, 'html-description');
    // The result holds the same markup: text again.
    await admin.page.waitForFunction(
      // The description and the result: the markup shown twice, as text.
      // biome-ignore lint/performance/useDomNodeTextContent: what the page shows, not hidden text.
      () => document.body.innerText.split('<script>window.__consoleXss=2').length > 2,
      { timeout: stepTimeoutMs },
    );
    expect(admin.dialogs()).toEqual([]);
    expect(await admin.page.evaluate(() => (window as unknown as { __consoleXss?: number }).__consoleXss)).toBe(
      undefined,
    );
    expect(await admin.page.$$('img[src="x"]')).toHaveLength(0);
  });

  it('a schema the form cannot render (oneOf) falls back to the JSON editor, and the call runs from it', async () => {
    await openTool(admin, 'draws a circle or a square', 'hostile:choose-shape');
    // The form is not offered: the JSON editor is, with the reason.
    const editor = await admin.page.waitForSelector('::-p-aria([name="Arguments (JSON)"][role="textbox"])');
    expect(await admin.page.$('::-p-aria([name="Edit as form"][role="button"])')).toBeNull();
    expect(editor).toBeTruthy();
    await editor?.click({ count: 3 });
    await admin.page.keyboard.down('Control');
    await admin.page.keyboard.press('a');
    await admin.page.keyboard.up('Control');
    await admin.page.keyboard.press('Delete');
    await editor?.type('{"shape":{"radius":2}}');
    await callFromToolPage(admin, 'choose-shape');
    await waitForText(admin, '{"shape":{"radius":2}}');
  });

  it('a token limited to a project is told that a restart needs an admin, on a working page', async () => {
    const limited = await openConsole(browser, `${app.url}/ui/`);
    extraPages.push(limited);
    await signInWithToken(limited, projectToken, 'alpha');
    await goTo(limited, 'Servers');
    await waitForServerState(limited.page, 'alpha-tools', 'running', stepTimeoutMs);
    const refused = limited.page.waitForResponse((response) =>
      response.url().endsWith('/v1/servers/alpha-tools/restart'),
    );
    await (await limited.page.waitForSelector('::-p-aria([name="Restart alpha-tools"][role="button"])'))?.click();
    expect((await refused).status()).toBe(403);
    // Where the action was: in the server's row (the events list above may say so too, for its own request).
    await waitForServerState(limited.page, 'alpha-tools', 'needs an admin', stepTimeoutMs);
    // Still the console: the page's heading and the project's server, no uncaught error.
    expect(await limited.page.$('::-p-aria([name="Servers"][role="heading"])')).toBeTruthy();
    await waitForServerState(limited.page, 'alpha-tools', 'running', stepTimeoutMs);
    expect(limited.problems().filter((problem) => problem.startsWith('page error'))).toEqual([]);
  });

  it('a caller without the admin role is told that a restart needs an admin, on a working page', async () => {
    const viewer = await openConsole(browser, `${app.url}/ui/`);
    extraPages.push(viewer);
    await signInWithToken(viewer, await issuer.viewerToken(`${app.url}/mcp`));
    await goTo(viewer, 'Servers');
    await waitForServerState(viewer.page, 'memory', 'running', stepTimeoutMs);
    const refused = viewer.page.waitForResponse((response) => response.url().endsWith('/v1/servers/memory/restart'));
    await (await viewer.page.waitForSelector('::-p-aria([name="Restart memory"][role="button"])'))?.click();
    expect((await refused).status()).toBe(403);
    await waitForServerState(viewer.page, 'memory', 'needs an admin', stepTimeoutMs);
    // Still the console: the page's heading and the servers, no uncaught error.
    expect(await viewer.page.$('::-p-aria([name="Servers"][role="heading"])')).toBeTruthy();
    await waitForServerState(viewer.page, 'everything', 'running', stepTimeoutMs);
    expect(viewer.problems().filter((problem) => problem.startsWith('page error'))).toEqual([]);
  });
});

/**
 * `search-mcp ui` (docs/console.md, "Signing in"): the stdio app's console command serves the console for a local
 * config on 127.0.0.1 and prints a URL with a one-time code; that URL signs the browser in with no token form, the
 * code leaves the address bar, and a second use of it is refused. Needs the built `search-mcp` (`@search-mcp/cli`).
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findChromium } from './chromium-executable.js';
import { type ConsolePage, fieldLabelled, openConsole, shownText, waitForServerState } from './console-page.js';
import { type SearchMcpUiProcess, startSearchMcpUi } from './search-mcp-ui-process.js';

/** Generous: a cold Chromium and two processes on 2 busy CI cores. */
const stepTimeoutMs = 60_000;

let browser: Browser;
let ui: SearchMcpUiProcess;
let local: ConsolePage | undefined;

beforeAll(async () => {
  const executablePath = findChromium();
  ui = await startSearchMcpUi();
  browser = await puppeteer.launch({ executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}, stepTimeoutMs * 2);

afterAll(async () => {
  await local?.close().catch(() => {});
  await browser?.close();
  await ui?.close();
});

it('search-mcp ui --no-open prints a one-time URL that signs in without the token form', async () => {
  local = await openConsole(browser, ui.consoleUrl);
  const { page } = local;
  await page
    .waitForSelector('::-p-aria([name="Servers"][role="heading"])', { timeout: stepTimeoutMs })
    .catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await shownText(page)}\n${ui.output()}`);
    });
  expect(await page.$(fieldLabelled('Token'))).toBeNull();
  await waitForServerState(page, 'everything', 'running', stepTimeoutMs);
  // The code left the address bar, and a second use of it is refused.
  expect(page.url()).not.toContain('code=');
  const code = new URL(ui.consoleUrl).hash.replace('#code=', '');
  const second = await fetch(new URL('/ui/session', ui.consoleUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(second.status).toBe(401);
  expect(local.problems(), `${await shownText(page)}\n${ui.output()}`).toEqual([]);
});

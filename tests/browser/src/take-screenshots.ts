/**
 * Screenshots of the web console for the docs (`docs/console/*.png`, 1280×800): the same set-up as the browser suite
 * (the built search-mcp-http with server-everything, server-memory and the hostile fixture), a few calls and searches
 * so Usage and Activity have something to show, then every page in the light theme and the Servers page in the dark
 * one. Run with `pnpm --filter @search-mcp/browser-tests screenshots` after building `@search-mcp/http`.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { findChromium } from './chromium-executable.js';
import { adminToken, startConsoleApp } from './console-app-process.js';
import {
  type ConsolePage,
  type ConsolePageName,
  fieldLabelled,
  goTo,
  openConsole,
  signInWithToken,
  waitForRow,
  waitForServerState,
  waitForText,
} from './console-page.js';
import { restRequest } from './rest-request.js';

const outputDirectory = fileURLToPath(new URL('../../../docs/console/', import.meta.url));

/** Calls and searches for the Usage and Activity pages: a mix of tools, one error. */
const calls: Array<{ toolKey: string; arguments: Record<string, unknown>; times: number }> = [
  { toolKey: 'everything:echo', arguments: { message: 'hello' }, times: 6 },
  { toolKey: 'everything:get-sum', arguments: { a: 2, b: 3 }, times: 3 },
  { toolKey: 'memory:read_graph', arguments: {}, times: 4 },
  { toolKey: 'memory:search_nodes', arguments: { query: 'console' }, times: 2 },
  { toolKey: 'hostile:choose-shape', arguments: { shape: { side: 2 } }, times: 1 },
  { toolKey: 'everything:get-sum', arguments: { a: 'not a number' }, times: 1 },
];
const searches = ['echo a message', 'add two numbers', 'remember a fact about a person', 'zxqv blorptang'];

/** Lets the page settle (its data arrived, its charts drawn), then writes `<name>.png`. */
async function shoot(consolePage: ConsolePage, name: string): Promise<void> {
  await consolePage.page.waitForNetworkIdle({ idleTime: 500, concurrency: 1 });
  const path = `${outputDirectory}${name}.png`;
  await consolePage.page.screenshot({ path, type: 'png' });
  process.stdout.write(`wrote ${path}\n`);
}

/** Scrolls the page so the first place it shows `text` is near the top (the Config page's masked tokens). */
async function scrollToText(consolePage: ConsolePage, text: string): Promise<void> {
  await waitForText(consolePage.page, text);
  await consolePage.page.evaluate((wanted: string) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.nodeValue?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      // The text may sit in a box that scrolls itself (the config's <pre>): scroll it there first, then the page.
      const box = node.parentElement;
      if (box && box.scrollHeight > box.clientHeight) {
        box.scrollTop += range.getBoundingClientRect().top - box.getBoundingClientRect().top - 16;
      }
      window.scrollBy(0, (box ?? range).getBoundingClientRect().top - 100);
      return;
    }
  }, text);
}

async function main(): Promise<void> {
  const executablePath = findChromium();
  const app = await startConsoleApp();
  const browser = await puppeteer.launch({
    executablePath,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  try {
    await mkdir(outputDirectory, { recursive: true });
    const light = await openConsole(browser, `${app.url}/ui/`, { colorScheme: 'light' });
    await signInWithToken(light, adminToken);
    await goTo(light, 'Servers');
    for (const serverId of ['everything', 'memory', 'hostile'])
      await waitForServerState(light.page, serverId, 'running');
    // Activity first, so its live stream is open while the calls below are made.
    await goTo(light, 'Activity');
    for (const call of calls) {
      for (let time = 0; time < call.times; time += 1) {
        await restRequest(app.url, '/v1/tools/call', {
          token: adminToken,
          body: { name: call.toolKey, parameters: call.arguments },
        });
      }
    }
    for (const query of searches) {
      await restRequest(app.url, '/v1/tools/search', { token: adminToken, body: { query, limit: 5 } });
    }
    await waitForRow(light.page, 'hostile:choose-shape');
    await shoot(light, 'activity');
    const pages: ConsolePageName[] = ['Servers', 'Usage', 'Config'];
    for (const name of pages) {
      await goTo(light, name);
      if (name === 'Config') await scrollToText(light, '"auth"');
      await shoot(light, name.toLowerCase());
    }
    // The Tools page with the search playground's answer, then a tool page with its generated form.
    await goTo(light, 'Tools');
    const query = await light.page.waitForSelector('::-p-aria([name="Search query"][role="searchbox"])');
    await query?.type('echo a message');
    await query?.press('Enter');
    const hit = await light.page.waitForSelector('::-p-aria([name="everything:echo"][role="link"])');
    await shoot(light, 'tools');
    await hit?.click();
    await (await light.page.waitForSelector(fieldLabelled('message')))?.type('hello from the docs');
    await (await light.page.waitForSelector('::-p-aria([name="Call echo"][role="button"])'))?.click();
    await waitForText(light.page, 'Echo: hello from the docs');
    // The form and its result in view rather than the page's top.
    await (await light.page.waitForSelector('::-p-aria([name="Try a call"][role="heading"])'))?.scrollIntoView();
    await shoot(light, 'tool');
    await light.close();

    const dark = await openConsole(browser, `${app.url}/ui/`, { colorScheme: 'dark' });
    await signInWithToken(dark, adminToken);
    await goTo(dark, 'Servers');
    for (const serverId of ['everything', 'memory', 'hostile'])
      await waitForServerState(dark.page, serverId, 'running');
    await shoot(dark, 'servers-dark');
    await dark.close();
  } finally {
    await browser.close();
    await app.close();
  }
}

await main();

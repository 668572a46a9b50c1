/**
 * Drives the web console (docs/console.md) as a person would: open `/ui/`, sign in with a token in the sign-in form
 * (or through a `#code=` URL), move between pages with the navigation links, and read what a page shows. Elements are
 * found by their role and accessible name or their text (`::-p-aria(…)`, `::-p-text(…)`), as a screen reader would;
 * every wait is for something on the page or the network, never for a fixed time.
 */
import type { Browser, Dialog, HTTPResponse, Page } from 'puppeteer-core';

export interface ConsolePage {
  page: Page;
  /** Console errors, uncaught page errors, failed requests and HTTP answers ≥ 400 so far. */
  problems(): string[];
  /** Dialogs (`alert`, `confirm` …) the page opened so far: server text run as HTML would open one. */
  dialogs(): string[];
  /** Forgets the problems so far (before a step whose own problems are checked). */
  clearProblems(): void;
  close(): Promise<void>;
}

/** The console's pages, by the name of their navigation link and their heading. */
export const consolePages = ['Servers', 'Tools', 'Activity', 'Usage', 'Config'] as const;
export type ConsolePageName = (typeof consolePages)[number];

export async function openConsole(
  browser: Browser,
  url: string,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<ConsolePage> {
  // A context of its own per page: no token in session storage leaks from another case.
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  if (options.colorScheme) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: options.colorScheme }]);
  }
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error instanceof Error ? error.message : error}`));
  page.on('requestfailed', (request) => {
    // A live stream (Activity's fetch of /v1/activity/stream) is aborted when the page leaves it: not a failure.
    if (request.failure()?.errorText === 'net::ERR_ABORTED' && request.url().includes('/stream')) return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  page.on('response', (response: HTTPResponse) => {
    if (response.status() >= 400) {
      problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
    }
  });
  page.on('dialog', (dialog: Dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url);
  return {
    page,
    problems: () => [...problems],
    dialogs: () => [...dialogs],
    clearProblems: () => {
      problems.length = 0;
    },
    close: () => context.close(),
  };
}

/** The page's text as a person reads it, for failure messages. */
export async function shownText(page: Page): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the page as a person reads it, one line per element.
  return page.evaluate(() => document.body.innerText.slice(0, 3000)).catch(() => '(no page)');
}

/**
 * Signs in through the sign-in form: the token field (a password input labelled "Token"), the project field when a
 * project is given (for a token limited to projects), then Enter.
 */
export async function signInWithToken(consolePage: ConsolePage, token: string, project?: string): Promise<void> {
  const { page } = consolePage;
  if (project !== undefined) await (await page.waitForSelector(fieldLabelled('Project')))?.type(project);
  const field = await page.waitForSelector(fieldLabelled('Token'));
  await field?.focus();
  // Inserted at once, as a paste would: an OAuth access token is hundreds of characters, slow to type key by key.
  await page.keyboard.sendCharacter(token);
  await field?.press('Enter');
  // Signed in (the navigation shows), or refused (the sign-in form says why, in an alert). Only the form's alert: once
  // signed in, a page may show alerts of its own (a viewer's events list says it needs an admin), sometimes before the
  // navigation has rendered.
  const settled = await page.waitForSelector('::-p-aria([name="Servers"][role="link"]), main.sign-in [role="alert"]');
  if ((await settled?.evaluate((element) => element.getAttribute('role'))) === 'alert') {
    throw new Error(`the console refused the token: ${await settled?.evaluate((element) => element.textContent)}`);
  }
}

/** Follows the navigation link to `name` and waits for the page's heading. */
export async function goTo(consolePage: ConsolePage, name: ConsolePageName): Promise<void> {
  const { page } = consolePage;
  await (await page.waitForSelector(`::-p-aria([name="${name}"][role="link"])`))?.click();
  await page.waitForSelector(`::-p-aria([name="${name}"][role="heading"])`);
}

/**
 * The row of a table (`role=row`) whose text holds `text`, once there is one, as the row's text. Waits up to
 * `timeout` ms.
 */
export async function waitForRow(page: Page, text: string, timeout?: number): Promise<string> {
  const row = await page.waitForFunction(
    (wanted: string) =>
      [...document.querySelectorAll<HTMLElement>('tr, [role="row"]')]
        // biome-ignore lint/performance/useDomNodeTextContent: what the row shows, not hidden text.
        .map((element) => element.innerText)
        .find((shown) => shown.includes(wanted)),
    timeout === undefined ? {} : { timeout },
    text,
  );
  return (await row.jsonValue()) ?? '';
}

/** Waits until the page shows `text` (visible text: hidden elements and `<script>` contents do not count). */
export async function waitForText(page: Page, text: string, timeout?: number): Promise<void> {
  await page.waitForFunction(
    // biome-ignore lint/performance/useDomNodeTextContent: what the page shows, not hidden text.
    (wanted: string) => document.body.innerText.includes(wanted),
    timeout === undefined ? {} : { timeout },
    text,
  );
}

/**
 * Waits until the Servers table's row of `serverId` (the first line of its first cell) shows `state`, or any text
 * (a notice under its action buttons).
 */
export async function waitForServerState(page: Page, serverId: string, state: string, timeout?: number) {
  await page.waitForFunction(
    (id: string, wanted: string) =>
      [...document.querySelectorAll('tr')].some(
        // biome-ignore lint/performance/useDomNodeTextContent: what the row shows, not hidden text.
        (row) => row.cells[0]?.innerText.split('\n')[0]?.trim() === id && row.innerText.includes(wanted),
      ),
    timeout === undefined ? {} : { timeout },
    serverId,
    state,
  );
}

/** The form field (input, select or textarea) whose label starts with `label` (a required mark may follow). */
export function fieldLabelled(label: string): string {
  return `::-p-xpath(//*[@id=//label[starts-with(normalize-space(.), "${label}")]/@for])`;
}

export interface SearchHit {
  rank: string;
  tool: string;
  relevance: string;
  matched: string;
}

/** The search playground's hits as shown: the table under the "Search playground" heading, in order. */
export async function searchHits(page: Page): Promise<SearchHit[]> {
  return page.$$eval('section[aria-labelledby="playground-heading"] tbody tr', (rows) =>
    rows.map((row) => {
      // biome-ignore lint/performance/useDomNodeTextContent: what the cell shows, not hidden text.
      const cell = (index: number) => ((row as HTMLTableRowElement).cells[index]?.innerText ?? '').trim();
      return { rank: cell(0), tool: cell(1).split('\n')[0] ?? '', relevance: cell(2), matched: cell(3) };
    }),
  );
}

/**
 * Waits until the table named `table` (its `aria-label`) has a row whose first cell starts with `rowKey` and whose
 * cell under the column headed `column` (a sort mark may follow) matches `expected` (a regular expression's
 * source); returns that cell's text.
 */
export async function waitForCell(
  page: Page,
  where: { table: string; rowKey: string; column: string; expected: string },
  timeout?: number,
): Promise<string> {
  const cell = await page.waitForFunction(
    ({ table, rowKey, column, expected }) => {
      const element = document.querySelector<HTMLTableElement>(`table[aria-label="${table}"]`);
      if (!element) return undefined;
      // biome-ignore lint/performance/useDomNodeTextContent: what the table shows, not hidden text.
      const shown = (node: Element | undefined) => (node as HTMLElement | undefined)?.innerText.trim() ?? '';
      const headers = [...(element.tHead?.rows[0]?.cells ?? [])].map((header) => shown(header));
      const index = headers.findIndex((header) => header === column || header.startsWith(`${column} `));
      if (index < 0) return undefined;
      const row = [...element.tBodies[0]!.rows].find((candidate) => shown(candidate.cells[0]).startsWith(rowKey));
      const text = shown(row?.cells[index]);
      return row && new RegExp(expected).test(text) ? text : undefined;
    },
    timeout === undefined ? {} : { timeout },
    where,
  );
  return (await cell.jsonValue()) ?? '';
}

/**
 * Starts noting every state the Servers table's row of `serverId` shows (its State cell), as the page changes it;
 * the returned function reads the states noted so far, in order, repeats folded. For a change that may pass quickly.
 */
export async function noteServerStates(page: Page, serverId: string): Promise<() => Promise<string[]>> {
  const key = `consoleStates:${serverId}`;
  await page.evaluate(
    (id: string, storeKey: string) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[storeKey] = seen;
      const note = () => {
        const row = [...document.querySelectorAll('tr')].find(
          // biome-ignore lint/performance/useDomNodeTextContent: what the row shows, not hidden text.
          (candidate) => candidate.cells[0]?.innerText.split('\n')[0]?.trim() === id,
        );
        const state = row?.cells[1]?.textContent?.trim();
        if (state && seen.at(-1) !== state) seen.push(state);
      };
      note();
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    serverId,
    key,
  );
  return () =>
    page.evaluate((storeKey: string) => (window as unknown as Record<string, string[]>)[storeKey] ?? [], key);
}

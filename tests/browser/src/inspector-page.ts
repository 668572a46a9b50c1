/**
 * Drives the MCP Inspector's page as a person would: open it with the server URL filled in, press Connect, and read
 * what the page shows. Every wait is for something on the page (a status text, a button, a tool name), never for a
 * fixed time; the OAuth redirects (to the authorization server and back to the Inspector's `/oauth/callback`) happen
 * inside those waits.
 */
import type { Browser, Page } from 'puppeteer-core';

export interface InspectorPage {
  page: Page;
  /** The page's console errors and failed requests so far, for failure messages. */
  problems(): string[];
}

export async function openInspectorPage(browser: Browser, url: string): Promise<InspectorPage> {
  // A context of its own per page: no OAuth client, token or setting of another case leaks in.
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error instanceof Error ? error.message : error}`));
  await page.goto(url);
  return { page, problems: () => [...problems] };
}

/**
 * Presses Connect and waits until the page settles on a connection status: `Connected` once the OAuth flow (when
 * the server asks for one) has run and the MCP session is up, or the error the Inspector shows.
 */
export async function connect(inspector: InspectorPage, timeout: number): Promise<string> {
  const { page } = inspector;
  const button = await page.waitForSelector('::-p-xpath(//button[normalize-space()="Connect"])');
  await button?.click();
  // The status line under the button (a coloured dot, then `Connected`, `Disconnected` or an error sentence).
  // waitForSelector survives the navigations of the OAuth flow: the page that ends it is the Inspector's again.
  const status = await page
    .waitForSelector(
      `::-p-xpath(//div[contains(@class,"rounded-full")]/following-sibling::span[text()="Connected" or starts-with(text(),"Connection Error") or starts-with(text(),"Error Connecting")])`,
      { timeout },
    )
    .catch(async (error: unknown) => {
      // biome-ignore lint/performance/useDomNodeTextContent: the page as a person reads it, one line per element.
      const shown = await page.evaluate(() => document.body.innerText.slice(0, 2000)).catch(() => '(no page)');
      throw new Error(
        `the Inspector settled on no connection status: ${String(error)}\npage ${page.url()}:\n${shown}\n` +
          inspector.problems().join('\n'),
      );
    });
  return (await status?.evaluate((element) => element.textContent ?? '')) ?? '';
}

/**
 * Opens the Tools tab, presses List Tools and returns what the list shows (each tool's title, or its name when it has
 * none) once `expected` is among them.
 */
export async function listTools(inspector: InspectorPage, expected: string, timeout: number): Promise<string[]> {
  const { page } = inspector;
  await (await page.waitForSelector('::-p-xpath(//button[@role="tab"][normalize-space()="Tools"])'))?.click();
  await (await page.waitForSelector('::-p-xpath(//button[normalize-space()="List Tools"])'))?.click();
  const panel = '//div[@role="tabpanel"][@data-state="active"]';
  await page.waitForSelector(`::-p-xpath(${panel}//span[@class="truncate"][normalize-space()="${expected}"])`, {
    timeout,
  });
  return page.$$eval(`::-p-xpath(${panel}//span[@class="truncate"])`, (spans) =>
    spans.map((span) => span.textContent?.trim() ?? ''),
  );
}

/**
 * The access token the Inspector keeps for `serverUrl` after its log-in (the page's session storage, where the
 * Inspector's OAuth provider saves the token response).
 */
export async function storedAccessToken(inspector: InspectorPage, serverUrl: string): Promise<string | undefined> {
  const stored = await inspector.page.evaluate((key) => sessionStorage.getItem(key), `[${serverUrl}] mcp_tokens`);
  if (stored === null) return undefined;
  return (JSON.parse(stored) as { access_token?: string }).access_token;
}

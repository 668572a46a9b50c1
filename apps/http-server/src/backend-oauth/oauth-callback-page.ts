/**
 * The small page a browser shows at the end of an OAuth authorization (`GET /oauth/callback`): plain words, and
 * nothing taken from the redirect's query (an attacker could craft it). The server id it names is a configured one,
 * found by the `state` Search MCP made.
 */
export type CallbackStatus = 200 | 400 | 500 | 502 | 504;

export interface CallbackPage {
  status: CallbackStatus;
  html: string;
}

export function callbackPage(status: CallbackStatus, title: string, paragraphs: readonly string[]): CallbackPage {
  const body = paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('');
  return {
    status,
    html:
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
      `<title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

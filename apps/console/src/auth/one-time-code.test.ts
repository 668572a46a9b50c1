import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressWithoutCode, codeFromHash, exchangeCode } from './one-time-code.js';

/** A real HTTP server answering `POST /ui/session` as docs/console.md describes: a code works once. */
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const unused = new Set(['code-1']);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { code } = JSON.parse(body) as { code: string };
      const valid = request.method === 'POST' && request.url === '/ui/session' && unused.delete(code);
      response.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          valid
            ? { token: 'the-token' }
            : { success: false, error: 'This sign-in code was already used', code: 'AUTHENTICATION_ERROR' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the one-time sign-in code', () => {
  it('is read from the hash and left out of the address kept', () => {
    expect(codeFromHash('#code=abc%2Bd')).toBe('abc+d');
    expect(codeFromHash('#code=')).toBeUndefined();
    expect(codeFromHash('')).toBeUndefined();
    expect(addressWithoutCode({ pathname: '/ui/', search: '?x=1' })).toBe('/ui/?x=1');
  });

  it('is traded once for the token; a second use gets the server message', async () => {
    expect(await exchangeCode(baseUrl, 'code-1')).toBe('the-token');
    await expect(exchangeCode(baseUrl, 'code-1')).rejects.toThrow('This sign-in code was already used');
  });
});

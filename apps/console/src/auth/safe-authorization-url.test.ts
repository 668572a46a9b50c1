import { describe, expect, it } from 'vitest';
import { safeAuthorizationUrl } from './safe-authorization-url.js';

describe('safeAuthorizationUrl', () => {
  it('keeps http and https URLs', () => {
    expect(safeAuthorizationUrl('https://auth.example.com/authorize?client_id=a&state=b')).toBe(
      'https://auth.example.com/authorize?client_id=a&state=b',
    );
    expect(safeAuthorizationUrl('http://127.0.0.1:8080/authorize')).toBe('http://127.0.0.1:8080/authorize');
  });

  it('refuses every other scheme and what does not parse', () => {
    for (const url of [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'search-ms:query=x',
      '//evil.example.com/authorize',
      'not a url',
    ]) {
      expect(safeAuthorizationUrl(url), url).toBeUndefined();
    }
  });
});

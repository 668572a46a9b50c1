import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AccessToken } from './token-verifier.js';

export interface GeneratedToken {
  token: AccessToken;
  file: string;
  /** True when this start created it (print it once); false when it was read from the file. */
  created: boolean;
}

export const generatedTokenId = 'generated';

/**
 * When a config has no tokens and does not allow anonymous access, the HTTP app makes one at first start and keeps
 * it next to the config in a file only the user can read, so the quick start is secure and still one command.
 */
export function loadOrCreateToken(configPath: string): GeneratedToken {
  const file = join(dirname(configPath), '.search-mcp-http-token');
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 32) return { token: { id: generatedTokenId, token }, file, created: false };
  }
  const token = `smcp_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token: { id: generatedTokenId, token }, file, created: true };
}

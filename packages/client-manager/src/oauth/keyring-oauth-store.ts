import type { OAuthStore } from './oauth-store.js';

/** The keyring service name the entries are filed under (one entry per server key). */
const service = 'search-mcp';

interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(value: string): void;
  deletePassword(): boolean | undefined;
}

type EntryConstructor = new (service: string, account: string) => KeyringEntry;

/**
 * The OS keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) through
 * `@napi-rs/keyring`, or undefined when there is none that answers (a headless Linux without a Secret Service, a
 * platform without a prebuilt binary): the caller then uses a file. Probed once with a write, a read and a delete.
 */
export async function openKeyringOAuthStore(): Promise<OAuthStore | undefined> {
  let Entry: EntryConstructor;
  try {
    ({ Entry } = (await import('@napi-rs/keyring')) as unknown as { Entry: EntryConstructor });
  } catch {
    return undefined;
  }
  try {
    const probe = new Entry(service, 'probe');
    probe.setPassword('probe');
    const readBack = probe.getPassword();
    probe.deletePassword();
    if (readBack !== 'probe') return undefined;
  } catch {
    return undefined;
  }
  return {
    description: 'the OS keyring',
    get: async (key) => new Entry(service, key).getPassword() ?? undefined,
    set: async (key, value) => new Entry(service, key).setPassword(value),
    delete: async (key) => {
      try {
        new Entry(service, key).deletePassword();
      } catch {
        // Nothing stored under that key.
      }
    },
  };
}

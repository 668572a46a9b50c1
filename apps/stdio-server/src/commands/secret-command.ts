import {
  deleteKeyringSecret,
  KEYRING_SERVICE,
  KeyringSecretIndex,
  KeyringUnavailableError,
  readKeyringSecret,
  writeKeyringSecret,
} from '@search-mcp/shared/node';
import type { CliArguments } from '../cli-arguments.js';
import { readSecretValue } from './read-secret-value.js';

/**
 * `search-mcp secret set|list|delete` (docs/trust.md, "Secrets in the OS keyring"): secrets for `${keyring:NAME}`
 * in the config, kept in the OS keyring under the service `search-mcp`. Values are never printed and never taken
 * from the command line (which other users can read in the process list). The names are also kept in the state
 * folder, because not every keyring can list its entries.
 */
export async function secretCommand(cli: CliArguments): Promise<number> {
  const [action, name = ''] = cli.positionals;
  const index = new KeyringSecretIndex();
  try {
    if (action === 'set') return await setSecret(name, index);
    if (action === 'delete') return await deleteSecret(name, index);
    return await listSecrets(index, cli.json);
  } catch (error) {
    if (!(error instanceof KeyringUnavailableError)) throw error;
    process.stderr.write(`search-mcp: ${error.message}.\n${fallbackAdvice(name || 'NAME')}\n`);
    return 1;
  }
}

async function setSecret(name: string, index: KeyringSecretIndex): Promise<number> {
  const value = await readSecretValue(`Value of ${name} (not shown): `);
  if (value === '') {
    process.stderr.write(`search-mcp: the value of ${name} is empty: nothing was stored\n`);
    return 1;
  }
  writeKeyringSecret(name, value);
  await index.add(name);
  process.stdout.write(
    `Stored ${name} in the OS keyring (service "${KEYRING_SERVICE}"): write \${keyring:${name}} in the config.\n`,
  );
  return 0;
}

async function deleteSecret(name: string, index: KeyringSecretIndex): Promise<number> {
  const deleted = deleteKeyringSecret(name);
  await index.remove(name);
  if (!deleted) {
    process.stderr.write(`search-mcp: the OS keyring has no secret ${name} (service "${KEYRING_SERVICE}")\n`);
    return 1;
  }
  process.stdout.write(`Deleted ${name} from the OS keyring.\n`);
  return 0;
}

/** The names from the index, each checked against the keyring (a kernel keyring forgets at the session's end). */
async function listSecrets(index: KeyringSecretIndex, json: boolean): Promise<number> {
  const names = await index.names();
  const secrets = names.map((name) => ({ name, inKeyring: readKeyringSecret(name) !== undefined }));
  if (json) {
    process.stdout.write(`${JSON.stringify(secrets, null, 2)}\n`);
    return 0;
  }
  if (secrets.length === 0) {
    process.stdout.write('No secrets stored with search-mcp secret set.\n');
    return 0;
  }
  for (const secret of secrets) {
    process.stdout.write(`${secret.name}${secret.inKeyring ? '' : '   (no longer in the OS keyring)'}\n`);
  }
  return 0;
}

/** What to do without a keyring: the environment variable always works. */
export function fallbackAdvice(name: string): string {
  return (
    `Without a keyring, keep the secret in an environment variable and write \${${name}} in the config (or set it ` +
    `in the server's "env"). On Linux a keyring is a Secret Service (GNOME Keyring, KWallet, KeePassXC) on the ` +
    `session's D-Bus, or the kernel keyring of a login session (keyctl session).`
  );
}

/**
 * What an API key must look like before it is sent. Only what cannot be a key is rejected: today's OpenAI keys
 * (`sk-proj-…`, `sk-svcacct-…`) vary in length and alphabet, and OpenAI-compatible servers issue keys of their own,
 * so a check such as `^sk-[a-zA-Z0-9]{48}$` would turn working keys away. Messages never contain the key.
 */

/** Why `key` cannot be an API key, as a phrase to follow its name (`OPENAI_API_KEY is not set`); undefined if usable. */
export function apiKeyProblem(key: string | undefined): string | undefined {
  if (key === undefined || key === '') return 'is not set';
  if (key.trim() === '') return 'is only whitespace';
  if (/\s/.test(key)) return 'contains whitespace (a space or line break copied with the key?)';
  if (/["'`]/.test(key)) return 'contains quotes (write the key without quotes around it)';
  // Header values are sent as bytes; anything outside printable ASCII makes every request fail before it leaves.
  if (/[^\x21-\x7e]/.test(key)) return 'contains characters that cannot be sent in an HTTP header';
  return undefined;
}

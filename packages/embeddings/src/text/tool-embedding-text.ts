/**
 * The sentence a tool is embedded as: `server words, name words: title. description, parameter names`
 * (`slack, slack post message: Post a new message to a Slack channel, channel id, text`).
 *
 * Why this shape: MiniLM was trained on sentences, so identifiers become words (`slack_post_message` → slack post
 * message, `getUserProfile` → get user profile); the server says which product the tool belongs to; the parameter
 * names say what it acts on. Measured against name + description alone, this gained on every benchmark set.
 * Descriptions in Chinese or Japanese are replaced by the English of their vocabulary words (MiniLM reads only
 * English), when a translator is given.
 *
 * The text is cut to a length the model reads anyway (it truncates at 128 word pieces), so hashing and tokenizing a
 * pathological 1 MB description costs nothing.
 */
import { isRecord, type ToolInfo } from '@search-mcp/shared';
import { containsCjk, glossWith, type QueryTranslator } from './english-gloss.js';

/** Characters of a description kept (well past the 128 word pieces the model reads). */
const MAX_DESCRIPTION_LENGTH = 600;
const MAX_PARAMETERS = 12;
const MAX_NAME_LENGTH = 200;

function text(value: unknown, limit: number): string {
  return typeof value === 'string' ? value.slice(0, limit) : '';
}

/** `read_text_file` → read text file, `getUserProfile` → get user profile, `HTMLParser` → HTML Parser. */
export function identifierWords(identifier: string): string {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function parameterNames(schema: unknown): string {
  if (!isRecord(schema) || !isRecord(schema['properties'])) return '';
  return Object.keys(schema['properties'])
    .slice(0, MAX_PARAMETERS)
    .map((name) => identifierWords(name.slice(0, MAX_NAME_LENGTH)))
    .filter((words) => words.length > 0)
    .join(', ');
}

/** The server's config description, when it says more than the server id does. */
function serverWords(tool: ToolInfo): string {
  const id = identifierWords(text(tool.serverName, MAX_NAME_LENGTH));
  const description = text(tool.serverDescription, MAX_NAME_LENGTH).trim();
  if (description.length === 0) return id;
  const known = new Set(id.toLowerCase().split(' '));
  const adds = identifierWords(description)
    .toLowerCase()
    .split(' ')
    .some((word) => word.length > 0 && !known.has(word));
  return adds ? `${id} (${description})` : id;
}

/** The text a tool is embedded as. Never throws, whatever the tool object holds. */
export function toolEmbeddingText(tool: ToolInfo, translate?: QueryTranslator): string {
  if (!isRecord(tool)) return '';
  const name = identifierWords(text(tool.toolName, MAX_NAME_LENGTH));
  const title = text(tool.title, MAX_NAME_LENGTH) || text(tool.annotations?.title, MAX_NAME_LENGTH);
  let description = text(tool.description, MAX_DESCRIPTION_LENGTH);
  if (translate !== undefined && containsCjk(description)) description = glossWith(translate, description).text;
  const body = [title.length > 0 ? `${title}.` : '', description].filter((part) => part.length > 0).join(' ');
  const parameters = parameterNames(tool.inputSchema);
  // Nothing says what the tool does: no text, so a zero vector (a server name alone would match its siblings).
  if (name.length === 0 && body.trim().length === 0 && parameters.length === 0) return '';
  const head = `${serverWords(tool)}, ${name}:`;
  const sentence = body.length > 0 && parameters.length > 0 ? `${body}, ${parameters}` : body || parameters;
  return `${head} ${sentence}`.replace(/\s+/g, ' ').trim();
}

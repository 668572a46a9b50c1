/**
 * Which server each document belongs to, and which index terms name a server (from the server ids), for the
 * server-mention factor: "add a comment to a Notion page" favours the tools of the server `notion`.
 */
import type { ToolInfo } from '@search-mcp/shared';
import { analyzeText } from '../text/text-tokenizer.js';
import type { Bm25fIndex } from './bm25f-index.js';

/** A word of a server id that names a server, not a kind of thing: shared by at most this many servers. */
const MAX_SERVERS_PER_NAME_WORD = 3;

const ID_SEPARATORS = /[-_.]+/;

export interface ServerNames {
  /** Server number of each document. */
  serverOfDocument: Int32Array;
  /** Index term → the servers whose id contains it (distinctive id words only). */
  serversByTerm: Map<number, number[]>;
}

export function indexServerNames(tools: readonly ToolInfo[], index: Bm25fIndex): ServerNames {
  const serverNumbers = new Map<string, number>();
  const serverOfDocument = new Int32Array(tools.length).fill(-1);
  tools.forEach((tool, doc) => {
    const name = typeof tool?.serverName === 'string' ? tool.serverName : '';
    let number = serverNumbers.get(name);
    if (number === undefined) {
      number = serverNumbers.size;
      serverNumbers.set(name, number);
    }
    serverOfDocument[doc] = number;
  });
  const serversByTerm = new Map<number, number[]>();
  /** Terms shared by too many servers to name one (`-r2` of replicated ids, `server`): no longer collected. */
  const common = new Set<number>();
  // The index terms of each word of the ids, analyzed once: ids repeat their words (`github`, `-r2` of replicas).
  const termsOfWord = new Map<string, number[]>();
  const termIdsOf = (word: string): number[] => {
    let termIds = termsOfWord.get(word);
    if (termIds === undefined) {
      termIds = [];
      for (const { term } of analyzeText(word)) {
        const termId = index.termId(term);
        if (termId !== undefined) termIds.push(termId);
      }
      termsOfWord.set(word, termIds);
    }
    return termIds;
  };
  for (const [name, number] of serverNumbers) {
    // The separators of an id separate words for the tokenizer too: a word at a time gives the same terms.
    for (const word of name.split(ID_SEPARATORS)) {
      for (const termId of termIdsOf(word)) {
        if (common.has(termId)) continue;
        const servers = serversByTerm.get(termId);
        if (servers === undefined) serversByTerm.set(termId, [number]);
        // Servers come in ascending number: a repeat of this server's word is the last entry.
        else if (servers[servers.length - 1] !== number) {
          servers.push(number);
          if (servers.length > MAX_SERVERS_PER_NAME_WORD) {
            serversByTerm.delete(termId);
            common.add(termId);
          }
        }
      }
    }
  }
  return { serverOfDocument, serversByTerm };
}

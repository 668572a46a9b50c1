/**
 * Which server each document belongs to, and which index terms name a server (from the server ids), for the
 * server-mention factor: "add a comment to a Notion page" favours the tools of the server `notion`.
 */
import type { ToolInfo } from '@search-mcp/shared';
import { analyzeText } from '../text/text-tokenizer.js';
import type { Bm25fIndex } from './bm25f-index.js';

/** A word of a server id that names a server, not a kind of thing: shared by at most this many servers. */
const MAX_SERVERS_PER_NAME_WORD = 3;

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
  for (const [name, number] of serverNumbers) {
    for (const { term } of analyzeText(name.replace(/[-_.]+/g, ' '))) {
      const termId = index.termId(term);
      if (termId === undefined) continue;
      const servers = serversByTerm.get(termId) ?? [];
      if (!servers.includes(number)) servers.push(number);
      serversByTerm.set(termId, servers);
    }
  }
  for (const [termId, servers] of serversByTerm)
    if (servers.length > MAX_SERVERS_PER_NAME_WORD) serversByTerm.delete(termId);
  return { serverOfDocument, serversByTerm };
}

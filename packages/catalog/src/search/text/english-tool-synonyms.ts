/**
 * A small table of English synonyms of the tool domain: the verbs tools are named with (get/fetch/retrieve,
 * create/make/add, delete/remove, list/show, search/find/query, send/post, update/edit/modify, …) and the
 * abbreviations users type (repo, pr, k8s, db, dir, img, msg). A query word pulls in its group at a lower weight,
 * so "fetch the page" still finds `get_page`, and "remove a pod" finds `kubectl_delete`.
 *
 * Groups are general, not per dataset. A one-word member expands to every other member; a multi-word member
 * ("pull request") is only a target: `pr` → pull, request, but `request` alone expands to nothing.
 */
import { analyzeText, type AnalyzedToken } from './text-tokenizer.js';

const SYNONYM_GROUPS: readonly string[] = [
  'get, fetch, retrieve, obtain',
  'read, view, load',
  'create, make, add, new, generate',
  'delete, remove, erase, destroy',
  'list, enumerate, show, display',
  'search, find, query, lookup, look up',
  'send, post, publish, deliver',
  'reply, respond',
  'update, edit, modify, change, patch',
  'write, save, store, put',
  'run, execute, exec, invoke',
  'start, begin, launch',
  'stop, halt, terminate, kill, cancel',
  'close, exit, quit',
  'move, rename',
  'copy, duplicate',
  'navigate, go to, visit, open',
  'click, press, tap',
  'type, input, fill',
  'screenshot, capture, screen capture',
  'image, picture, photo, img',
  'directory, folder, dir',
  'repository, repo',
  'pull request, pr',
  'merge request, mr',
  'issue, ticket, bug',
  'kubernetes, k8s, kube',
  'database, db',
  'message, msg',
  'documentation, document, doc, docs',
  'configuration, config, settings',
  'credentials, credential, secret, token',
  'statistics, stats, metrics',
  'summary, summarize',
  'location, place, address',
  'url, link',
  'website, site, webpage, web page',
  'remember, memory, memorize',
  'user, account, member',
  'error, failure, exception',
  'dialog, popup, modal',
  'elevation, altitude',
  'directions, route, itinerary',
  'nearby, near, around',
  'weather, forecast',
  'video, clip',
  'music, song, audio',
  'email, mail, e-mail',
  'calendar, schedule',
  'spreadsheet, sheet, excel, workbook',
  'presentation, slides, ppt, powerpoint',
  'note, memo',
  'task, todo',
  'translate, translation',
  'chart, graph, plot, diagram',
  'stock, ticker',
  'price, cost',
  'news, headlines',
  'paper, publication',
  'recipe, dish, meal',
  'coordinates, latitude, longitude, geocode',
  'currency, forex',
  'deploy, release',
  'rollback, revert, undo',
  'container, docker',
  'comment, remark',
  'thread, conversation',
  'channel, room',
  'compress, zip, gzip',
  'decompress, unzip',
  'convert, transform',
  'analyze, analysis, inspect',
  'monitor, watch, track',
  'login, authenticate, sign in',
  'think, reason, reasoning',
  'calculate, compute, calculator, math',
];

/** A synonym: its index term (stemmed) and the word as written in the table (for explanations). */
export interface Synonym {
  term: string;
  surface: string;
}

/** Term → the other terms of its groups. */
let synonymMap: Map<string, readonly Synonym[]> | undefined;

function buildSynonymMap(): Map<string, readonly Synonym[]> {
  const map = new Map<string, Map<string, string>>();
  for (const group of SYNONYM_GROUPS) {
    const members = group.split(',').map((member) => analyzeText(member.trim()));
    for (const member of members) {
      // Only one-word members trigger expansion: "request" alone must not pull in "pull request"'s "pull".
      if (member.length !== 1) continue;
      const term = (member[0] as AnalyzedToken).term;
      let related = map.get(term);
      if (related === undefined) {
        related = new Map();
        map.set(term, related);
      }
      for (const other of members) {
        for (const token of other)
          if (token.term !== term && !related.has(token.term)) related.set(token.term, token.surface);
      }
    }
  }
  const frozen = new Map<string, readonly Synonym[]>();
  for (const [term, related] of map)
    frozen.set(
      term,
      Array.from(related, ([t, surface]) => ({ term: t, surface })),
    );
  return frozen;
}

/** The synonyms of an (already stemmed) index term, not including itself. */
export function synonymsOf(term: string): readonly Synonym[] {
  synonymMap ??= buildSynonymMap();
  return synonymMap.get(term) ?? [];
}

/** Every term of the synonym table (each word of every group). */
export function synonymTableTerms(): Iterable<string> {
  synonymMap ??= buildSynonymMap();
  const terms = new Set<string>();
  for (const [term, related] of synonymMap) {
    terms.add(term);
    for (const synonym of related) terms.add(synonym.term);
  }
  return terms;
}

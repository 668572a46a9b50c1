/**
 * The words we know to name what tools do or work on: the English of the ja→en tool vocabulary and of the synonym
 * table (email, calendar, fork, deploy, weather, …). A query word that no tool contains means something different
 * depending on whether it is one of them: `email` missing from every tool is a capability the catalog lacks, while
 * `nginx`, `src` or `Denver` missing is an argument or a name that no tool needs to mention.
 */
import { synonymTableTerms } from './english-tool-synonyms.js';
import { JA_EN_TOOL_VOCABULARY } from './ja-en-tool-vocabulary.js';
import { analyzeText } from './text-tokenizer.js';

let lexicon: ReadonlySet<string> | undefined;

function buildLexicon(): ReadonlySet<string> {
  const terms = new Set<string>(synonymTableTerms());
  for (const [, english] of JA_EN_TOOL_VOCABULARY) {
    for (const { term } of analyzeText(english.replace(';', ' '))) terms.add(term);
  }
  return terms;
}

/** Whether an index term (stemmed) is a word of the tool domain. */
export function isToolDomainTerm(term: string): boolean {
  lexicon ??= buildLexicon();
  return lexicon.has(term);
}

/** Splits a long task description into its clauses (sentences, "…, then …", "… and then …"). */
export function splitClauses(query: string): string[] {
  return query
    .split(/[.;!?。！？\n]+(?:\s+|$)|,\s*(?:and\s+)?then\s+|\s+and\s+then\s+|\s+then\s+/i)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}

/**
 * One line of at most `limit` characters: white space runs fold to one space, and a cut ends in `…`.
 * Used wherever free text (descriptions, errors, stderr) is shown in a table, an instruction or a log line.
 */
export function truncateText(text: string, limit: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= limit) return line;
  return limit <= 1 ? '…'.slice(0, limit) : `${line.slice(0, limit - 1)}…`;
}

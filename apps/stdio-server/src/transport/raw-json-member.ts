/**
 * The source text of a top-level member's value in a JSON object text, e.g. `1e300` for `{"id":1e300,…}`, which
 * `JSON.parse` would turn into a number written differently (`1e+300`). The text must be valid JSON (parse it first):
 * the scan relies on that and takes linear time. Like `JSON.parse`, the last of duplicate members wins. Undefined
 * when the text is not an object or has no such member.
 */
export function rawJsonMember(text: string, name: string): string | undefined {
  let index = skipWhitespace(text, 0);
  if (text[index] !== '{') return undefined;
  index += 1;
  let found: string | undefined;
  for (;;) {
    index = skipWhitespace(text, index);
    if (text[index] !== '"') return found;
    const keyEnd = stringEnd(text, index);
    const key = JSON.parse(text.slice(index, keyEnd)) as string;
    index = skipWhitespace(text, keyEnd);
    index = skipWhitespace(text, index + 1); // the ':'
    const valueEnd = valueEndAt(text, index);
    if (key === name) found = text.slice(index, valueEnd);
    index = skipWhitespace(text, valueEnd);
    if (text[index] !== ',') return found;
    index += 1;
  }
}

function skipWhitespace(text: string, index: number): number {
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) break;
    index += 1;
  }
  return index;
}

/** The index after the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  for (;;) {
    const quote = text.indexOf('"', index);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let before = quote - 1; text[before] === '\\'; before -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    index = quote + 1;
  }
}

/** The index after the value starting at `start`. */
function valueEndAt(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first === '{' || first === '[') {
    // Jumps from one bracket or quote to the next with a native search, so large nested params cost little.
    const structural = /["{}[\]]/g;
    let depth = 0;
    structural.lastIndex = start;
    for (let match = structural.exec(text); match; match = structural.exec(text)) {
      const character = match[0];
      if (character === '"') {
        structural.lastIndex = stringEnd(text, match.index);
        continue;
      }
      depth += character === '{' || character === '[' ? 1 : -1;
      if (depth === 0) return match.index + 1;
    }
    return text.length;
  }
  // A number, true, false or null: up to the next delimiter.
  let index = start;
  while (index < text.length && !',}] \t\n\r'.includes(text[index] as string)) index += 1;
  return index;
}

/**
 * The source text of a top-level member's value in a JSON object text, e.g. `1e300` for `{"id":1e300,…}`, which
 * `JSON.parse` would turn into a number written differently (`1e+300`). The text must be valid JSON (parse it first):
 * the search relies on that. It takes constant time when the member is plainly the last one (how the TypeScript SDK
 * writes a request's id), else linear time. Like `JSON.parse`, the last of duplicate members wins. Undefined when the
 * text is not an object or has no such member.
 */
export function rawJsonMember(text: string, name: string): string | undefined {
  const last = lastMemberValue(text, name);
  if (last !== undefined) return last;
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

/**
 * The member's value text when it is plainly the object's last member (`…,"id":12}` or `…,"id":"abc"}`: no
 * whitespace around it, a number or a string without escapes), found from the end in constant time; else undefined.
 * The TypeScript SDK writes every request's id last, so most lines never need the scan, however large their params.
 * In valid JSON text the member just before the final `}` belongs to the top-level object and is its last one, which
 * is also the one `JSON.parse` keeps among duplicates. `name` must need no escaping in JSON.
 */
function lastMemberValue(text: string, name: string): string | undefined {
  let end = text.length - 1;
  while (end > 0 && isWhitespace(text.charCodeAt(end))) end -= 1;
  if (text.charCodeAt(end) !== closeBraceCode) return undefined;
  let start = end;
  if (text.charCodeAt(end - 1) === quoteCode) {
    start = text.lastIndexOf('"', end - 2);
    // A backslash anywhere in the string (or right before its quote) could mean an escaped quote: leave it to the scan.
    if (start <= 0 || text.charCodeAt(start - 1) === backslashCode) return undefined;
    const backslashAt = text.indexOf('\\', start);
    if (backslashAt !== -1 && backslashAt < end) return undefined;
  } else {
    while (start > 0 && isNumberCharacter(text.charCodeAt(start - 1))) start -= 1;
    if (start === end) return undefined;
  }
  const keyStart = start - name.length - 3;
  if (keyStart < 1 || !text.startsWith(`"${name}":`, keyStart)) return undefined;
  // A ',' or '{' before the key's quote is structural: inside a string it would leave invalid JSON behind it.
  const before = text.charCodeAt(keyStart - 1);
  return before === commaCode || before === openBraceCode ? text.slice(start, end) : undefined;
}

const quoteCode = 0x22;
const commaCode = 0x2c;
const backslashCode = 0x5c;
const openBraceCode = 0x7b;
const closeBraceCode = 0x7d;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Digits, sign, decimal point and exponent: the characters of a JSON number. */
function isNumberCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45
  );
}

function skipWhitespace(text: string, index: number): number {
  while (index < text.length && isWhitespace(text.charCodeAt(index))) index += 1;
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

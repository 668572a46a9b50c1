/**
 * JSON with `//` and `/* *\/` comments and trailing commas (JSONC), the format of config files of editors and MCP
 * clients. No I/O; exported from the `./node` entry beside the loaders that use it.
 */

/** A JSON syntax error with its 1-based line and column; the message never quotes the file's text. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly description: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`invalid JSON at line ${line}, column ${column}: ${description}`);
    this.name = 'JsonSyntaxError';
  }
}

/**
 * JSON with `//` and `/* *\/` comments and trailing commas (JSONC, as in the contract's example and in editor
 * settings files). A parser rather than comment stripping plus `JSON.parse`, because `JSON.parse` in Node 20 gives
 * no position and quotes the text around the error, which may hold a secret.
 */
export function parseJsonWithComments(text: string): unknown {
  return new JsoncParser(text).parseDocument();
}

const NUMBER_PATTERN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX_DIGITS = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

class JsoncParser {
  private index = 0;

  constructor(private readonly text: string) {
    // A byte order mark is not part of the document.
    if (text.charCodeAt(0) === 0xfeff) this.index = 1;
  }

  parseDocument(): unknown {
    this.skipTrivia();
    const value = this.parseValue();
    this.skipTrivia();
    if (this.index < this.text.length) this.fail('unexpected content after the end of the document');
    return value;
  }

  private parseValue(): unknown {
    const character = this.text[this.index];
    if (character === '{') return this.parseObject();
    if (character === '[') return this.parseArray();
    if (character === '"') return this.parseString();
    if (character === '-' || (character !== undefined && character >= '0' && character <= '9')) {
      return this.parseNumber();
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return value;
      }
    }
    return this.fail(character === undefined ? 'unexpected end of file, expected a value' : 'expected a value');
  }

  private parseObject(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.index += 1;
    this.skipTrivia();
    if (this.consume('}')) return result;
    for (;;) {
      if (this.text[this.index] !== '"') this.fail('expected a property name in double quotes');
      const key = this.parseString();
      this.skipTrivia();
      if (!this.consume(':')) this.fail('expected ":" after a property name');
      this.skipTrivia();
      // defineProperty keeps "__proto__" an ordinary key, as JSON.parse does.
      Object.defineProperty(result, key, {
        value: this.parseValue(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipTrivia();
      if (this.consume('}')) return result;
      if (!this.consume(',')) this.fail('expected "," or "}"');
      this.skipTrivia();
      if (this.consume('}')) return result; // trailing comma
    }
  }

  private parseArray(): unknown[] {
    const result: unknown[] = [];
    this.index += 1;
    this.skipTrivia();
    if (this.consume(']')) return result;
    for (;;) {
      result.push(this.parseValue());
      this.skipTrivia();
      if (this.consume(']')) return result;
      if (!this.consume(',')) this.fail('expected "," or "]"');
      this.skipTrivia();
      if (this.consume(']')) return result; // trailing comma
    }
  }

  private parseString(): string {
    const start = this.index;
    this.index += 1;
    for (;;) {
      const character = this.text[this.index];
      if (character === undefined) return this.fail('unterminated string', start);
      if (character === '"') break;
      if (character === '\\') {
        const escaped = this.text[this.index + 1];
        if (escaped === 'u') {
          if (!HEX_DIGITS.test(this.text.slice(this.index + 2, this.index + 6))) this.fail('invalid \\u escape');
          this.index += 6;
        } else if (escaped !== undefined && SIMPLE_ESCAPES.has(escaped)) {
          this.index += 2;
        } else {
          this.fail('invalid escape in string');
        }
        continue;
      }
      if (character < ' ') this.fail('control character in string (use an escape such as \\n)');
      this.index += 1;
    }
    this.index += 1;
    // Validated above, so JSON.parse only decodes the escapes.
    return JSON.parse(this.text.slice(start, this.index)) as string;
  }

  private parseNumber(): number {
    NUMBER_PATTERN.lastIndex = this.index;
    const match = NUMBER_PATTERN.exec(this.text);
    if (match === null) return this.fail('invalid number');
    this.index += match[0].length;
    return Number(match[0]);
  }

  private skipTrivia(): void {
    for (;;) {
      const character = this.text[this.index];
      if (character === ' ' || character === '\t' || character === '\n' || character === '\r') {
        this.index += 1;
      } else if (this.text.startsWith('//', this.index)) {
        const end = this.text.indexOf('\n', this.index);
        this.index = end === -1 ? this.text.length : end + 1;
      } else if (this.text.startsWith('/*', this.index)) {
        const end = this.text.indexOf('*/', this.index + 2);
        if (end === -1) this.fail('unterminated comment');
        this.index = end + 2;
      } else {
        return;
      }
    }
  }

  private consume(character: string): boolean {
    if (this.text[this.index] !== character) return false;
    this.index += 1;
    return true;
  }

  private fail(description: string, offset = this.index): never {
    const before = this.text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - (before.lastIndexOf('\n') + 1) + 1;
    throw new JsonSyntaxError(description, line, column);
  }
}

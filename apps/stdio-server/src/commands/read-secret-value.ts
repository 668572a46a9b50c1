/**
 * The value for `search-mcp secret set`: from a terminal, a prompt that does not echo what is typed; otherwise all
 * of stdin (`printf %s "$TOKEN" | search-mcp secret set NAME`), without its final line break.
 */
export async function readSecretValue(prompt: string): Promise<string> {
  if (process.stdin.isTTY) return readHidden(prompt);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Raw mode: every key arrives as typed and nothing is echoed; Enter ends, Ctrl-C and Ctrl-D give up. */
function readHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (text: string): void => {
      for (const character of text) {
        if (character === '\r' || character === '\n') {
          finish();
          return;
        }
        if (character === '\u0003' || character === '\u0004') {
          finish(new Error('cancelled: nothing was stored'));
          return;
        }
        if (character === '\u007f' || character === '\b') value = value.slice(0, -1);
        else value += character;
      }
    };
    input.on('data', onData);
  });
}

/** What to do about the common reasons a server fails, for `doctor`. */
const hints: ReadonlyArray<[pattern: RegExp, hint: (match: RegExpMatchArray) => string]> = [
  [
    /environment variable (\w+) is not set/,
    (match) =>
      `set ${match[1]} where the MCP client starts search-mcp, or give a default in the config: \${${match[1]}:-value}`,
  ],
  // npm 10 prints `npm error 404 …` on every line (npm 6–9: `npm ERR! 404`); the last lines of stderr kept are often
  // only those lines, without the `E404` code line.
  [
    /\bE404\b|404 Not Found|npm (?:error|ERR!) 404\b|is not in this registry/,
    () => 'npm has no such package: check the package name in "args"',
  ],
  [
    /spawn \S+ ENOENT|ENOENT.*spawn|command not found|not found on PATH/i,
    () => 'the command is not on PATH: install it, or write its full path in "command"',
  ],
  // OAuth's own messages name the command already (docs/oauth.md): no second hint that would say less.
  [/run `(search-mcp auth [^`]+)`/, (match) => `log in with ${match[1]} (a browser opens), then run doctor again`],
  [/ECONNREFUSED/, () => 'nothing listens at that address: is the server running, and is the URL right?'],
  [/ENOTFOUND|EAI_AGAIN/, () => 'the host name does not resolve: check the URL (and the network)'],
  [/certificate|CERT_|SSL|TLS/i, () => 'the TLS connection failed: check the certificate (or the URL scheme)'],
  [/protocol version/i, () => 'the server speaks an MCP version Search MCP does not: update the server'],
  [
    /\b401\b|\b403\b|unauthori[sz]ed|forbidden/i,
    () => 'the server refused the credentials: check the token or headers',
  ],
];

/**
 * A hint for a failure reason, when it is one of the common ones. A remote server's connection failure already says
 * what to do after its ` — ` (the client manager explains refused, DNS, TLS, 404 and 401): no second hint.
 */
export function failureHint(reason: string): string | undefined {
  if (/(?:cannot connect: |HTTP \d{3} at \S+: ).* — /.test(reason)) return undefined;
  for (const [pattern, hint] of hints) {
    const match = reason.match(pattern);
    if (match) return hint(match);
  }
  return undefined;
}

/** `text` broken into lines of at most `width` characters at spaces (a longer word stays whole). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

import type { ClientConfigScope, McpClientName } from '@search-mcp/shared/node';
import { clientDisplayNames } from '@search-mcp/shared/node';

/** Everything `search-mcp init` found and did: printed as text, or as it is with `--json`. */
export interface InitReport {
  platform: NodeJS.Platform;
  homeDirectory: string;
  projectDirectory: string;
  /** Every place looked at, found or not. */
  lookedAt: Array<{ client: McpClientName; scope: ClientConfigScope; path: string; found: boolean }>;
  /** One entry per server list found (a file may hold two: Claude Code's user and local scopes). */
  clients: InitClientFile[];
  /** The Search MCP config: its servers, and its content with secret values hidden. */
  merged: { servers: string[]; config: Record<string, unknown> };
  /** Merged, renamed and skipped entries (Search MCP itself), each naming the client file and JSON path. */
  warnings: string[];
  target: InitTarget;
  /**
   * The shell words that run this Search MCP again (`search-mcp`, or `/usr/bin/node /…/dist/cli.js` when it is not
   * on PATH): the start of the commands the report suggests.
   */
  command?: string;
  /** Per client: what makes Search MCP its only server. */
  snippets: Array<{ client: McpClientName; format: 'json' | 'shell'; files: string[]; text: string }>;
  /** Client files `--replace-in` rewrote, or left alone and why. */
  replaced: Array<{
    client: McpClientName;
    path: string;
    outcome: 'replaced' | 'skipped';
    backupPath?: string;
    reason?: string;
  }>;
}

export interface InitClientFile {
  client: McpClientName;
  scope: ClientConfigScope;
  path: string;
  /** The entries' names in that file. */
  servers: string[];
  /** For each entry merged under another name, that name. */
  renamed: Record<string, string>;
  /** What kept the file, or an entry, from being read (it is then left out of the merge). */
  problems: string[];
}

export interface InitTarget {
  path: string;
  /** Whether a file was there before this run. */
  existed: boolean;
  /** After a dry run: the command that writes it. */
  writeCommand?: string;
  /** `dry-run`: nothing written (no `--write`). */
  action: 'dry-run' | 'written' | 'replaced';
  backupPath?: string;
}

const scopeWords: Record<ClientConfigScope, string> = {
  user: 'user',
  project: 'project',
  local: 'this project, local',
};

/** The report for a person: what was found, what the config holds, what was (or would be) written, what to paste. */
export function formatInitReport(report: InitReport): string {
  const out: string[] = [];
  out.push(`Found ${report.clients.length} MCP client config${report.clients.length === 1 ? '' : 's'}:`);
  for (const file of report.clients) {
    out.push(`  ${clientDisplayNames[file.client]} (${scopeWords[file.scope]}): ${file.path}`);
    if (file.problems.length > 0) for (const problem of file.problems) out.push(`      cannot read it: ${problem}`);
    if (file.servers.length > 0) {
      const names = file.servers.map((name) =>
        file.renamed[name] !== undefined ? `${name} (as ${file.renamed[name]})` : name,
      );
      out.push(`      servers: ${names.join(', ')}`);
    } else if (file.problems.length === 0) out.push('      servers: none');
  }
  out.push('');
  if (report.warnings.length > 0) {
    out.push('Warnings:', ...report.warnings.map((warning) => `  ${warning}`), '');
  }
  const { target } = report;
  out.push(`Search MCP config with ${report.merged.servers.length} servers: ${report.merged.servers.join(', ')}`);
  if (target.action === 'dry-run') {
    out.push(
      `Nothing was written. It would go to ${target.path}${target.existed ? ' (which exists: add --force to replace it, a backup is kept)' : ''}:`,
      indent(`${JSON.stringify(report.merged.config, null, 2)}`, 2),
      `Write it with: ${target.writeCommand ?? 'search-mcp init --write'}`,
    );
  } else {
    out.push(
      target.action === 'written'
        ? `Wrote ${target.path}`
        : `Replaced ${target.path} (the previous file is kept as ${target.backupPath ?? 'a backup'})`,
    );
  }
  out.push('');
  if (report.replaced.length > 0) {
    for (const change of report.replaced) {
      const name = clientDisplayNames[change.client];
      out.push(
        change.outcome === 'replaced'
          ? `${name}: ${change.path} now starts only Search MCP (backup: ${change.backupPath})`
          : `${name}: ${change.path} left as it is: ${change.reason}`,
      );
    }
    out.push('');
  }
  const pending = report.snippets.filter(
    (snippet) => !report.replaced.some((change) => change.client === snippet.client && change.outcome === 'replaced'),
  );
  if (pending.length > 0) {
    out.push('To make Search MCP the only MCP server of a client (restart the client afterwards):');
    for (const snippet of pending) {
      const name = clientDisplayNames[snippet.client];
      out.push(
        snippet.format === 'shell'
          ? `  ${name}: run`
          : `  ${name}: in ${snippet.files.join(' and ')}, replace the server list with`,
        indent(snippet.text.trimEnd(), 4),
      );
    }
    const rewritable = pending.filter((snippet) => snippet.format === 'json').map((snippet) => snippet.client);
    if (rewritable.length > 0) {
      out.push(
        `Or let init do it, keeping a backup next to each file: ${report.command ?? 'search-mcp'} init --write --replace-in ${rewritable[0]}` +
          (rewritable.length > 1 ? ' (or --replace-in all)' : ''),
      );
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Where init looked, for the "nothing found" answer. */
export function formatLookedAt(report: Pick<InitReport, 'lookedAt' | 'platform' | 'homeDirectory'>): string {
  const lines = report.lookedAt.map(
    (place) => `  ${clientDisplayNames[place.client]} (${scopeWords[place.scope]}): ${place.path}`,
  );
  return (
    `No MCP client config found (${report.platform}, home ${report.homeDirectory}). Looked at:\n${lines.join('\n')}\n` +
    'Run init in your project directory to include project files, or point at another home with --home DIR.'
  );
}

function indent(text: string, width: number): string {
  const pad = ' '.repeat(width);
  return text
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n');
}

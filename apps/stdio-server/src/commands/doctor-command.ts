import { authorizeCommand, findDuplicateServers, type ServerStatus, truncateText } from '@search-mcp/shared';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { connectWithProgress, loadRuntime } from '../startup.js';
import { formatTable } from '../terminal-output.js';
import { measureContextCost } from './context-cost.js';
import { backendProcessesOf, formatBackendProcesses } from './doctor-backend-processes.js';
import { checkHybridSearch, formatHybridCheck } from './doctor-hybrid-check.js';
import { formatSandboxes, sandboxesOf } from './doctor-sandboxes.js';
import { formatTrust, trustReport } from './doctor-trust.js';
import { failureHint, wrapText } from './failure-hints.js';

/** Validates the config, connects each server, and shows its state and the context Search MCP saves. */
export async function doctorCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<number> {
  const { runtime, config, configPath } = await loadRuntime(cli, 'error', lifecycle);
  // Nothing to connect or measure: say so, and how to add servers, rather than "All servers are running" and a
  // context saving below zero (the meta tools cost tokens where there is nothing to save).
  if (runtime.manager.serverIds.length === 0) return reportNoServers(cli, configPath, config.warnings);
  await connectWithProgress(runtime);
  const statuses = runtime.manager.status();
  const caller = cli.project !== undefined ? { projectId: cli.project } : {};
  const cost = await measureContextCost(runtime, caller);
  const failed = statuses.filter((status) => status.state === 'failed');
  // Waiting for a person to log in (OAuth): not broken, but not usable until `search-mcp auth <server>`.
  const waiting = statuses.filter((status) => status.state === 'needs-auth');
  const hybrid = await checkHybridSearch(runtime, caller);
  // Two entries that start the same program (or reach the same URL) are one server twice: double tools, double cost.
  const duplicates = findDuplicateServers(config);
  const duplicateWarnings = duplicates.map(
    (ids) =>
      `mcpServers: ${ids.map((id) => JSON.stringify(id)).join(', ')} are the same server (same command and args, or ` +
      'the same URL); keep one',
  );
  // Two servers listing the same resource URI: reads go to the first in config order (the forwarding rule), so the
  // other's resource is unreachable under that URI. Known only once the servers answered `resources/list`.
  const resourceDuplicates = await runtime.hub.duplicates();
  const resourceWarnings = resourceDuplicates.map(
    ({ uri, serverIds }) =>
      `resources: ${JSON.stringify(uri)} is listed by ${serverIds.map((id) => JSON.stringify(id)).join(' and ')}; ` +
      `${JSON.stringify(serverIds[0])} answers it (first in config order)`,
  );
  // Tool names: renames not applied (the name was taken), overrides of tools no server lists, and with
  // `exposure.names: "original"` the names several servers share (listed as `server__name`). Known once servers listed.
  const namingWarnings = await runtime.catalog.namingWarnings(caller);
  const trust = await trustReport(runtime.catalog);
  const warnings = [...config.warnings, ...duplicateWarnings, ...resourceWarnings, ...namingWarnings];
  if (cli.json) {
    process.stdout.write(
      `${JSON.stringify(
        {
          config: configPath,
          warnings,
          duplicates,
          resourceDuplicates,
          sandboxes: sandboxesOf(config),
          backendProcesses: backendProcessesOf(config),
          quarantined: trust.quarantined,
          flaggedDescriptions: trust.flagged,
          servers: statuses.map((status) => {
            const hint = status.lastError ? failureHint(status.lastError) : undefined;
            return hint ? { ...status, hint } : status;
          }),
          contextCost: cost,
          ...(hybrid ? { hybridSearch: hybrid } : {}),
        },
        null,
        2,
      )}\n`,
    );
    return failed.length + waiting.length > 0 ? 1 : 0;
  }
  const out: string[] = [];
  const names = config.exposure.names === 'original' ? ', original tool names' : '';
  out.push(
    `Config: ${configPath} (${statuses.length} ${statuses.length === 1 ? 'server' : 'servers'}, mode ${runtime.mode}${names})`,
    '',
  );
  // Every warning whole (unknown keys with "did you mean", Search MCP itself skipped, duplicates), wrapped.
  const warningWidth = Math.max(60, Math.min(process.stdout.columns ?? 100, 120)) - 4;
  if (warnings.length > 0)
    out.push(
      'Warnings:',
      ...warnings.flatMap((warning) =>
        wrapText(warning, warningWidth).map((line, index) => `${index ? '    ' : '  '}${line}`),
      ),
      '',
    );
  out.push(
    formatTable(
      ['server', 'state', 'tools', 'connect', 'protocol', 'last error'],
      statuses.map((status) => [
        status.id,
        describeState(status),
        String(status.toolCount),
        status.connectMs !== undefined ? `${Math.round(status.connectMs)} ms` : '',
        status.protocolVersion
          ? `${status.protocolVersion}${status.protocolEra ? ` (${status.protocolEra})` : ''}`
          : '',
        truncateText(status.lastError ?? '', 50),
      ]),
    ),
    '',
  );
  out.push(...formatBackendProcesses(backendProcessesOf(config)));
  out.push(...formatSandboxes(sandboxesOf(config)));
  out.push(...formatTrust(trust));
  // The whole reason of each failure, wrapped, and what to do about the common ones.
  const width = Math.max(60, Math.min(process.stdout.columns ?? 100, 120)) - 4;
  const problems = statuses.filter((status) => status.state !== 'running' && status.lastError);
  if (problems.length > 0) {
    out.push('Why:');
    for (const status of problems) {
      const reason = status.lastError ?? '';
      out.push(`  ${status.id}:`, ...wrapText(reason, width).map((line) => `    ${line}`));
      const hint = failureHint(reason);
      if (hint) out.push(...wrapText(`fix: ${hint}`, width).map((line) => `    ${line}`));
    }
    out.push('');
  }
  const number = (value: number) => value.toLocaleString('en-US');
  const rows = [
    ['every server connected directly', `${number(cost.directTokens)} tokens`, `${cost.directTools} tools`],
    ['search-mcp, proxy mode', `${number(cost.proxyTokens)} tokens`, `${cost.proxyTools} tools`],
    [
      'search-mcp, meta mode',
      `${number(cost.metaTokens)} tokens`,
      `${cost.metaTools} tools, ${(cost.metaSavings * 100).toFixed(1)} % less than direct`,
    ],
  ];
  out.push(
    'Context a client loads before the first message (Claude tokens of the tools/list JSON):',
    formatTable(['', 'size', ''], rows),
    '',
  );
  if (hybrid) out.push(...formatHybridCheck(hybrid), '');
  if (failed.length > 0)
    out.push(`${failed.length} server(s) failed: fix the errors above, then run search-mcp doctor again.`);
  if (waiting.length > 0) {
    const commands = waiting.map((status) => authorizeCommand(status.id)).join(', ');
    out.push(`${waiting.length} server(s) wait for OAuth authorization: ${commands}.`);
  }
  if (failed.length + waiting.length === 0) out.push('All servers are running.');
  process.stdout.write(`${out.join('\n')}\n`);
  return failed.length + waiting.length > 0 ? 1 : 0;
}

/** `doctor` on a config with no servers (exit 1: there is nothing a client could use). */
function reportNoServers(cli: CliArguments, configPath: string, warnings: readonly string[]): number {
  const advice = noServersAdvice(configPath);
  if (cli.json) {
    process.stdout.write(
      `${JSON.stringify({ config: configPath, warnings, servers: [], problem: advice }, null, 2)}\n`,
    );
    return 1;
  }
  const out = [`Config: ${configPath} (0 servers)`, ''];
  if (warnings.length > 0) out.push('Warnings:', ...warnings.map((warning) => `  ${warning}`), '');
  out.push(advice);
  process.stdout.write(`${out.join('\n')}\n`);
  return 1;
}

/** What to do about a config without servers (README, "Quick start"). */
function noServersAdvice(configPath: string): string {
  return (
    `There are no servers in ${configPath}. Add some: search-mcp init imports the servers of the AI clients on ` +
    'this machine (add --write to save them there), or write them under "mcpServers" in that file.'
  );
}

/** The state, and for an OAuth server how it is authorized (`running, oauth until 14:05`); never a token. */
function describeState(status: ServerStatus): string {
  const oauth = status.oauth;
  if (!oauth || status.state === 'needs-auth') return status.state;
  if (oauth.state !== 'authorized') return `${status.state}, oauth ${oauth.state}`;
  const until = oauth.expiresAt ? ` until ${oauth.expiresAt.slice(11, 16)} UTC` : '';
  return `${status.state}, oauth${until}${oauth.refreshable ? ' (refreshable)' : ''}`;
}

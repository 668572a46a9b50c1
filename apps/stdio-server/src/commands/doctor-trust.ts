import {
  approveCommand,
  describeQuarantine,
  type QuarantineEntry,
  type ScanWarning,
  type ToolCatalog,
} from '@search-mcp/catalog';

/** What `doctor` shows of pinning and scanning (docs/trust.md): the tools that wait for approval, the flagged ones. */
export interface TrustReport {
  quarantined: QuarantineEntry[];
  flagged: readonly ScanWarning[];
}

export async function trustReport(catalog: ToolCatalog): Promise<TrustReport> {
  return { quarantined: await catalog.quarantined(), flagged: await catalog.scanWarnings() };
}

/** `doctor`'s lines: each held tool with its change and the command that approves it; nothing when all is clear. */
export function formatTrust(report: TrustReport): string[] {
  const out: string[] = [];
  if (report.quarantined.length > 0) {
    out.push('Quarantined (hidden and refused until approved):');
    for (const entry of report.quarantined) {
      out.push(...describeQuarantine(entry, 200).map((line) => `  ${line}`));
      out.push(`    approve: ${approveCommand(entry.toolKey)}`);
    }
    out.push('');
  }
  if (report.flagged.length > 0) {
    out.push('Flagged descriptions (kept: security.onSuspicious is "warn"):');
    for (const warning of report.flagged) {
      out.push(`  ${warning.toolKey}:`, ...warning.findings.map((finding) => `    ${finding}`));
    }
    out.push('');
  }
  return out;
}

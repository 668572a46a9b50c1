/**
 * How a held tool is described to people: the refusal a caller gets, and the field-by-field diff the CLI, the REST
 * API, the console and `doctor` show (docs/trust.md, "Pinning and quarantine").
 */
import { canonicalJson, type PinnedDefinition, type PinnedField } from './tool-pin.js';
import type { QuarantineReason } from './tool-pin-store.js';

/** What `describeQuarantine` and `quarantineMessage` need of a held tool. */
export interface QuarantinedTool {
  toolKey: string;
  reason: QuarantineReason;
  changedFields?: readonly PinnedField[];
  findings?: readonly string[];
  pinned?: PinnedDefinition;
  proposed: PinnedDefinition;
}

/** The command that approves a held tool. */
export function approveCommand(toolKey: string): string {
  return `search-mcp approve ${toolKey}`;
}

/** One line: why the tool is held. */
export function quarantineSummary(tool: QuarantinedTool): string {
  if (tool.reason === 'changed') {
    const fields = tool.changedFields?.length ? tool.changedFields.join(', ') : 'its definition';
    return `its definition changed since it was pinned (${fields})`;
  }
  if (tool.reason === 'new-server') return 'its server was never approved (security.quarantineNewServers)';
  return `its description looks suspicious: ${(tool.findings ?? []).join('; ')}`;
}

/** The refusal of a call to a held tool: what changed and the exact command that approves it. */
export function quarantineMessage(tool: QuarantinedTool): string {
  return `quarantined: ${quarantineSummary(tool)}; review and approve with \`${approveCommand(tool.toolKey)}\``;
}

/**
 * The change, field by field, old → new; a tool never pinned shows its whole definition as new. Long values are
 * cut at `maxLength` characters per side so a terminal stays readable.
 */
export function describeQuarantine(tool: QuarantinedTool, maxLength = 600): string[] {
  const lines: string[] = [`${tool.toolKey}: ${quarantineSummary(tool)}`];
  const fields = (tool.pinned ? (tool.changedFields ?? []) : Object.keys(tool.proposed)) as PinnedField[];
  for (const field of fields) {
    const before = tool.pinned ? shown(tool.pinned[field], maxLength) : undefined;
    const after = shown(tool.proposed[field], maxLength);
    if (before === undefined) lines.push(`  ${field}: ${after}`);
    else lines.push(`  ${field}:`, `    - ${before}`, `    + ${after}`);
  }
  for (const finding of tool.pinned && tool.reason === 'changed' ? (tool.findings ?? []) : []) {
    lines.push(`  finding: ${finding}`);
  }
  return lines;
}

function shown(value: unknown, maxLength: number): string {
  if (value === undefined) return '(none)';
  const text = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length > maxLength ? `${text.slice(0, maxLength)}… (${text.length} characters)` : text;
}

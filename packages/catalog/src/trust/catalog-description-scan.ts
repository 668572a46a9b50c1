/**
 * The description scanner (docs/trust.md, "Description scanning") where tools enter the catalog: each listed tool is
 * scanned, and the cleaned copy (invisible and bidi characters stripped) is what is pinned, listed, searched and
 * passed through in proxy mode; the findings, in words, decide a quarantine (`security.onSuspicious`).
 */
import type { ToolDefinition, ToolInfo } from '@search-mcp/shared';
import { describeFindings } from './describe-findings.js';
import { scanToolDefinition } from './description-scan.js';
import type { ScannedTool } from './scanned-tool.js';

export function scanListedTool(tool: ToolInfo, otherTools: ReadonlyMap<string, readonly string[]>): ScannedTool {
  const result = scanToolDefinition(tool, { serverId: tool.serverName, otherServersToolNames: otherTools });
  const findings = describeFindings(result.findings);
  if (result.tool === tool) return { tool, findings };
  const cleaned = result.tool;
  // The definition as received is what proxy mode passes through: it gets the cleaned texts too.
  const definition: ToolDefinition | undefined = tool.definition
    ? {
        ...tool.definition,
        ...(cleaned.title !== undefined ? { title: cleaned.title } : {}),
        ...(tool.definition.description !== undefined ? { description: cleaned.description } : {}),
        inputSchema: cleaned.inputSchema,
        ...(cleaned.outputSchema !== undefined ? { outputSchema: cleaned.outputSchema } : {}),
        ...(cleaned.annotations !== undefined ? { annotations: cleaned.annotations } : {}),
      }
    : undefined;
  return { tool: { ...cleaned, ...(definition ? { definition } : {}) }, findings };
}

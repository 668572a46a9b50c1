/** What the description scanner hands the quarantine (docs/trust.md, "Description scanning"). Types only. */
import type { ToolInfo } from '@search-mcp/shared';

/** What the description scanner made of a tool: the cleaned tool (shown and pinned) and its findings. */
export interface ScannedTool {
  tool: ToolInfo;
  /** One sentence per finding; empty when clean. */
  findings: string[];
}

/** Scans a listed tool; `otherTools` are the other servers' tool names (for shadowing). */
export type DescriptionScanHook = (tool: ToolInfo, otherTools: ReadonlyMap<string, readonly string[]>) => ScannedTool;

/**
 * Where pins are kept (types only; docs/trust.md, "Pinning and quarantine"). The catalog asks the store what is
 * pinned, tells it what it saw first and what now waits, and listens for changes made elsewhere (an approval by
 * the CLI while an app runs). `@search-mcp/runtime`'s `FilePinStore` keeps them in `<state folder>/pins.json`.
 */
import type { PinnedDefinition, PinnedField } from './tool-pin.js';

export interface ToolPin {
  hash: string;
  definition: PinnedDefinition;
  /** ISO time of pinning or approval. */
  pinnedAt: string;
}

/** Why a tool waits for approval. */
export type QuarantineReason = 'changed' | 'new-server' | 'suspicious';

export interface PendingTool {
  /** The definition as now listed: what an approval pins. */
  hash: string;
  definition: PinnedDefinition;
  reason: QuarantineReason;
  /** For `changed`: the fields that differ from the pin. */
  changedFields?: PinnedField[];
  /** For `suspicious`: the scanner's reasons, one sentence each. */
  findings?: string[];
  /** ISO time it was first held. */
  since: string;
}

/** One server's pins and what waits, by the backend's tool name. */
export interface ServerPins {
  tools: Record<string, ToolPin>;
  pending: Record<string, PendingTool>;
}

/** What a listing found for one server. */
export interface PinObservation {
  /** Definitions seen for the first time and accepted: pin them. */
  pin?: Record<string, ToolPin>;
  /** Definitions held: record them (an approval pins them). */
  hold?: Record<string, PendingTool>;
  /** Tools that no longer wait (their definition is the pinned one again). */
  release?: string[];
}

/** What an approval may pin. */
export interface ApproveOptions {
  /**
   * The hash of each tool's pending definition as it was shown (backend tool name → `PendingTool.hash`). Given: the
   * approval pins only when every tool it would pin still waits with that hash (a tool missing here was not shown),
   * else it pins nothing and rejects with `ApprovalChangedError`.
   */
  expected?: Readonly<Record<string, string>>;
}

export interface ToolPinStore {
  /** The server's pins as last read; undefined: a server never seen. Synchronous: the catalog asks at each listing. */
  server(serverId: string): ServerPins | undefined;
  /** Records what a listing found (in memory at once; on disk in the background). */
  observe(serverId: string, observation: PinObservation): void;
  /**
   * Pins what waits for the server (one tool, or all of them); resolves with the tool names approved. With
   * `options.expected`, only what was shown (see `ApproveOptions`).
   */
  approve(serverId: string, toolName?: string, options?: ApproveOptions): Promise<string[]>;
  /** Calls `listener` when the pins change other than by `observe` (an approval, here or by another process). */
  onChange(listener: () => void): () => void;
}

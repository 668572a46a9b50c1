/**
 * The catalog's pinning and quarantine (docs/trust.md, "Pinning and quarantine"). At each listing, every tool of a
 * configured MCP server is compared with its pin: a tool seen for the first time is pinned; one whose definition
 * differs from its pin is held back (not listed, not searched, calls refused with what changed and how to approve);
 * with `security.quarantineNewServers` every tool of a server never seen is held; with `security.onSuspicious:
 * "quarantine"` a tool the description scanner flags is held with its reasons. In-process registry tools are not
 * pinned: they are the host's own code.
 */
import { type Logger, parseToolKey, type ResolvedConfig, type ToolInfo } from '@search-mcp/shared';
import { isToolAllowed } from '../catalog/caller-access.js';
import type { Caller } from '../catalog/catalog-types.js';
import { configuredServer } from '../catalog/config-lookup.js';
import { isServerVisibleToProject } from '../catalog/project-visibility.js';
import { configuredOriginalName } from '../catalog/tool-overrides.js';
import { scanListedTool } from './catalog-description-scan.js';
import { quarantineMessage } from './quarantine-description.js';
import {
  changedFields,
  definitionHash,
  type PinnedDefinition,
  type PinnedField,
  pinnedDefinition,
} from './tool-pin.js';
import type { DescriptionScanHook } from './scanned-tool.js';
import type { PendingTool, PinObservation, QuarantineReason, ToolPinStore } from './tool-pin-store.js';

/** A tool held back, with what an approval would pin. */
export interface QuarantineEntry {
  serverId: string;
  /** The backend's own name. */
  toolName: string;
  toolKey: string;
  reason: QuarantineReason;
  changedFields: PinnedField[];
  findings: string[];
  /** The pinned definition (absent for a tool never approved). */
  pinned?: PinnedDefinition;
  /** The definition as now listed. */
  proposed: PinnedDefinition;
  /** Its hash: what an approval passes back in `expected`, so it pins only what was shown. */
  hash: string;
  since: string;
  serverProjects?: readonly string[];
}

/** A tool kept in the lists although the scanner flagged it (`onSuspicious: "warn"`, or approved). */
export interface ScanWarning {
  toolKey: string;
  findings: string[];
}

export class ToolQuarantine {
  private held = new Map<string, QuarantineEntry>();
  private warned: ScanWarning[] = [];
  private readonly hashes = new WeakMap<ToolInfo, string>();
  private readonly logged = new Set<string>();

  constructor(
    readonly store: ToolPinStore,
    private readonly logger: Logger,
    /** Default: `scanListedTool` (the description scanner); `false`: none. */
    scan?: DescriptionScanHook | false,
  ) {
    this.scan = scan === false ? undefined : (scan ?? scanListedTool);
  }

  private readonly scan: DescriptionScanHook | undefined;

  /** The tools held back by the latest listing, sorted by key. */
  get entries(): QuarantineEntry[] {
    return [...this.held.values()].sort((a, b) => a.toolKey.localeCompare(b.toolKey));
  }

  /** The flagged tools the latest listing kept. */
  get warnings(): readonly ScanWarning[] {
    return this.warned;
  }

  /** The listed tools minus those held back (cleaned by the scanner when there is one). Records pins and holds. */
  filter(tools: readonly ToolInfo[], config: ResolvedConfig): ToolInfo[] {
    const now = new Date().toISOString();
    const held = new Map<string, QuarantineEntry>();
    const warned: ScanWarning[] = [];
    const observations = new Map<string, PinObservation>();
    const otherTools = this.scan ? toolNamesByServer(tools) : new Map<string, string[]>();
    const kept: ToolInfo[] = [];
    for (const listed of tools) {
      const serverId = listed.serverName;
      if (!configuredServer(config, serverId)) {
        kept.push(listed);
        continue;
      }
      const scanned = this.scan?.(listed, otherTools);
      const tool = scanned?.tool ?? listed;
      const findings = scanned?.findings ?? [];
      const definition = pinnedDefinition(tool);
      const hash = this.hashOf(tool, definition);
      const name = definition.name;
      const pins = this.store.server(serverId);
      const pin = pins?.tools[name];
      const waiting = pins?.pending[name];
      const observation = observations.get(serverId) ?? {};
      observations.set(serverId, observation);
      if (pin?.hash === hash) {
        if (waiting) observation.release = [...(observation.release ?? []), name];
        if (findings.length > 0) warned.push(this.flagged(listed.toolKey, findings, hash));
        kept.push(tool);
        continue;
      }
      // A server is known once one of its tools was pinned: a server whose tools all wait is still new.
      const serverKnown = pins !== undefined && Object.keys(pins.tools).length > 0;
      const reason = holdReason(pin !== undefined, waiting, hash, findings, serverKnown, config);
      if (reason === undefined) {
        observation.pin = { ...observation.pin, [name]: { hash, definition, pinnedAt: now } };
        if (findings.length > 0) warned.push(this.flagged(listed.toolKey, findings, hash));
        kept.push(tool);
        continue;
      }
      const fields = pin ? changedFields(pin.definition, definition) : [];
      const pending: PendingTool = {
        hash,
        definition,
        reason,
        ...(fields.length > 0 ? { changedFields: fields } : {}),
        ...(findings.length > 0 ? { findings } : {}),
        since: waiting?.hash === hash ? waiting.since : now,
      };
      if (waiting?.hash !== hash || waiting.reason !== reason)
        observation.hold = { ...observation.hold, [name]: pending };
      const entry: QuarantineEntry = {
        serverId,
        toolName: name,
        toolKey: `${serverId}:${name}`,
        reason,
        changedFields: fields,
        findings,
        ...(pin ? { pinned: pin.definition } : {}),
        proposed: definition,
        hash,
        since: pending.since,
        ...(listed.serverProjects ? { serverProjects: listed.serverProjects } : {}),
      };
      held.set(heldKey(serverId, name), entry);
      this.logOnce(entry, hash);
    }
    for (const [serverId, observation] of observations) {
      if (observation.pin || observation.hold || observation.release) this.store.observe(serverId, observation);
    }
    this.held = held;
    this.warned = warned;
    return kept;
  }

  /**
   * The refusal for a held tool the caller could otherwise use, or undefined. The same visibility rules as a listed
   * tool (docs/projects-and-tokens.md, "Visibility"): a caller who may not see the server learns nothing.
   */
  refusal(toolKey: unknown, caller: Caller, config: ResolvedConfig): string | undefined {
    if (this.held.size === 0 || typeof toolKey !== 'string') return undefined;
    const parsed = parseToolKey(toolKey.trim());
    if (!parsed) return undefined;
    const server = configuredServer(config, parsed.serverId);
    if (!server?.enabled || !isServerVisibleToProject(server.projects, caller.projectId)) return undefined;
    const original = configuredOriginalName(server, parsed.toolName) ?? parsed.toolName;
    const entry = this.held.get(heldKey(parsed.serverId, original));
    if (!entry) return undefined;
    if (!isToolAllowed(caller.access, caller.projectId, parsed.serverId, `${parsed.serverId}:${parsed.toolName}`)) {
      return undefined;
    }
    return quarantineMessage(entry);
  }

  /**
   * The refusal of a call to a configured server's tool that the pin store holds, whatever the listing shows: a
   * server not running now lists nothing, so its held tools are not in the latest listing, yet a call would reach
   * the source (which starts or reconnects it). Held: the tool has a pending definition, or, under
   * `security.quarantineNewServers`, its server has no pin yet. `toolName` is the backend's own name; the caller's
   * visibility was checked by the resolution.
   */
  heldInStore(serverId: string, toolName: string, config: ResolvedConfig): string | undefined {
    if (!configuredServer(config, serverId)) return undefined;
    const pins = this.store.server(serverId);
    const toolKey = `${serverId}:${toolName}`;
    const pending = pins && Object.hasOwn(pins.pending, toolName) ? pins.pending[toolName] : undefined;
    if (pending) {
      const pin = pins && Object.hasOwn(pins.tools, toolName) ? pins.tools[toolName] : undefined;
      return quarantineMessage({
        toolKey,
        reason: pending.reason,
        ...(pending.changedFields ? { changedFields: pending.changedFields } : {}),
        ...(pending.findings ? { findings: pending.findings } : {}),
        ...(pin ? { pinned: pin.definition } : {}),
        proposed: pending.definition,
      });
    }
    const serverKnown = pins !== undefined && Object.keys(pins.tools).length > 0;
    if (!serverKnown && config.security.quarantineNewServers) {
      return quarantineMessage({ toolKey, reason: 'new-server', proposed: { name: toolName } });
    }
    return undefined;
  }

  /**
   * True when every tool of the server is held (none pinned: a new server under `security.quarantineNewServers`, or
   * one whose only tools wait): its resources and prompts are held back with them.
   */
  serverHeld(serverId: string, config: ResolvedConfig): boolean {
    const pins = this.store.server(serverId);
    if (pins && Object.keys(pins.tools).length > 0) return false;
    return config.security.quarantineNewServers || Object.keys(pins?.pending ?? {}).length > 0;
  }

  private hashOf(tool: ToolInfo, definition: PinnedDefinition): string {
    const known = this.hashes.get(tool);
    if (known !== undefined) return known;
    const hash = definitionHash(definition);
    this.hashes.set(tool, hash);
    return hash;
  }

  /** A flagged tool kept in the lists: logged once per definition (`security.onSuspicious: "warn"`). */
  private flagged(toolKey: string, findings: string[], hash: string): ScanWarning {
    const key = `${toolKey}\u0000${hash}\u0000warn`;
    if (!this.logged.has(key)) {
      this.logged.add(key);
      this.logger.warn('tool description flagged by the scanner', { toolKey, findings });
    }
    return { toolKey, findings };
  }

  private logOnce(entry: QuarantineEntry, hash: string): void {
    const key = `${entry.toolKey}\u0000${hash}`;
    if (this.logged.has(key)) return;
    this.logged.add(key);
    this.logger.warn('tool quarantined', {
      toolKey: entry.toolKey,
      reason: entry.reason,
      ...(entry.changedFields.length > 0 ? { changedFields: entry.changedFields } : {}),
      ...(entry.findings.length > 0 ? { findings: entry.findings } : {}),
      approve: `search-mcp approve ${entry.toolKey}`,
    });
  }
}

/**
 * Why a tool not matching its pin (or without one) is held, or undefined to pin it now. A tool already waiting with
 * the same definition keeps waiting: only an approval releases it (approving one tool of a new server does not
 * approve the others).
 */
function holdReason(
  hasPin: boolean,
  waiting: PendingTool | undefined,
  hash: string,
  findings: readonly string[],
  serverKnown: boolean,
  config: ResolvedConfig,
): QuarantineReason | undefined {
  if (hasPin) return 'changed';
  if (findings.length > 0 && config.security.onSuspicious === 'quarantine') return 'suspicious';
  if (waiting?.hash === hash) return waiting.reason;
  if (!serverKnown && config.security.quarantineNewServers) return 'new-server';
  return undefined;
}

function heldKey(serverId: string, toolName: string): string {
  return `${serverId}\u0000${toolName}`;
}

function toolNamesByServer(tools: readonly ToolInfo[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const tool of tools) {
    const list = names.get(tool.serverName) ?? [];
    list.push(tool.originalName ?? tool.toolName);
    names.set(tool.serverName, list);
  }
  return names;
}

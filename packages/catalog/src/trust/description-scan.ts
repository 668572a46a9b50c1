/**
 * The description scanner (docs/trust.md, "Description scanning"): reads every text of a tool definition a model
 * sees (the title, `annotations.title`, the description, and inside the input and output schemas at any depth each
 * `title`, `description`, string `default` and `const`, the strings of `enum` and `examples`, and property names), strips invisible characters and reports them, and flags instruction-like text with its
 * reason. Pure: no I/O and no state, so the catalog can run it on every `tools/list` and `doctor` on demand; what to
 * do with findings (`security.onSuspicious`) is the caller's choice.
 */
import { type InvisibleCharacterKind, scanInvisibleCharacters } from './invisible-characters.js';
import {
  type InstructionKind,
  instructionPatterns,
  normalizeForMatching,
  squashForMatching,
  squashedPhrases,
} from './instruction-patterns.js';
import { findToolShadowing } from './tool-shadowing.js';

/** What a finding is about: an invisible-character kind, an instruction-like kind, or shadowing of another tool. */
export type DescriptionFindingKind = InvisibleCharacterKind | InstructionKind | 'tool-shadowing';

/** One thing the scanner found in one field. */
export interface DescriptionFinding {
  kind: DescriptionFindingKind;
  /** Where: `description`, `title`, `annotations.title`, `inputSchema.properties.path.description`, `title+description`. */
  field: string;
  /** Why it is suspicious, in words for a person. */
  reason: string;
  /** The text concerned, with invisible characters shown as `<U+XXXX>` (for tag characters: the text they hide). */
  excerpt: string;
}

/** The fields of a tool definition the scanner reads (`ToolDefinition` of `@search-mcp/shared` has them). */
export interface ScannableToolDefinition {
  /** The tool's name (a `ToolDefinition`); a `ToolInfo` carries it as `toolName` instead. */
  name?: string;
  toolName?: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: { title?: string } & Record<string, unknown>;
}

export interface DescriptionScanContext {
  /** The scanned tool's server id. */
  serverId: string;
  /**
   * The scanned server's own tool names (naming those is ordinary). The tool's own name, and the server's entry in
   * `otherServersToolNames` when it has one, are always included.
   */
  serverToolNames?: readonly string[];
  /**
   * Every server's tool names, by server id, for shadowing (the scanned server's own entry is not "other"). Pass the
   * same map for all the tools of one listing: the names are compiled once per map.
   */
  otherServersToolNames?: ReadonlyMap<string, readonly string[]>;
}

export interface DescriptionScanResult<Tool extends ScannableToolDefinition> {
  /** The definition with invisible characters stripped from every scanned text (the same object when none were). */
  tool: Tool;
  findings: DescriptionFinding[];
}

const invisibleReasons: Readonly<Record<InvisibleCharacterKind, string>> = {
  'tag-characters': 'Unicode tag characters (invisible, they mirror ASCII) hide text',
  'zero-width': 'zero-width characters',
  'bidi-control': 'bidirectional controls (they reorder how text is shown)',
  'variation-selectors': 'variation selectors without a base character (they can carry hidden bytes)',
  'invisible-character': 'invisible (default-ignorable) characters',
  'private-use': 'private-use characters (no standard meaning)',
  'control-character': 'control characters (an ESC can hide text in a terminal)',
};

const hiddenExcerptLimit = 200;
const noOtherServers: ReadonlyMap<string, readonly string[]> = new Map();

function truncate(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function excerptAt(text: string, index: number, length: number): string {
  const from = Math.max(0, index - 40);
  const to = Math.min(text.length, index + length + 40);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

/** Instruction-like findings in one text (already stripped of invisible characters). */
function findInstructions(text: string, field: string, context: ShadowingContext): DescriptionFinding[] {
  const normalized = normalizeForMatching(text);
  const findings: DescriptionFinding[] = [];
  const seenKinds = new Set<string>();
  for (const { kind, reason, pattern } of instructionPatterns) {
    const match = pattern.exec(normalized);
    if (match === null) continue;
    findings.push({ kind, field, reason, excerpt: excerptAt(normalized, match.index, match[0].length) });
    seenKinds.add(kind);
  }
  const squashed = squashForMatching(normalized);
  for (const { kind, reason, phrase } of squashedPhrases) {
    if (seenKinds.has(kind) || !squashed.includes(phrase)) continue;
    findings.push({ kind, field, reason, excerpt: truncate(normalized, hiddenExcerptLimit) });
    seenKinds.add(kind);
  }
  const shadowing = findToolShadowing(
    normalized,
    context.serverId,
    context.ownToolNames,
    context.otherServersToolNames,
  );
  for (const { reason, excerpt } of shadowing) {
    findings.push({ kind: 'tool-shadowing', field, reason, excerpt });
  }
  return findings;
}

interface ShadowingContext {
  serverId: string;
  /** Normalized as `normalizeForMatching` does. */
  ownToolNames: ReadonlySet<string>;
  otherServersToolNames: ReadonlyMap<string, readonly string[]>;
}

/** Scans one text: returns it cleaned, and adds its findings (invisible ones first, then instruction-like ones). */
function scanText(text: string, field: string, context: ShadowingContext, findings: DescriptionFinding[]): string {
  const { cleaned, runs } = scanInvisibleCharacters(text);
  for (const run of runs) {
    const codePoints = run.codePoints.slice(0, 6).join(', ') + (run.codePoints.length > 6 ? ', …' : '');
    const hidden =
      run.hiddenText === undefined ? '' : `; hidden text: "${truncate(run.hiddenText, hiddenExcerptLimit)}"`;
    findings.push({
      kind: run.kind,
      field,
      reason: `${run.count} ${invisibleReasons[run.kind]} (${codePoints})${hidden}; stripped`,
      excerpt: run.hiddenText === undefined ? run.excerpt : truncate(run.hiddenText, hiddenExcerptLimit),
    });
  }
  findings.push(...findInstructions(cleaned, field, context));
  for (const run of runs) {
    if (run.hiddenText === undefined) continue;
    for (const finding of findInstructions(run.hiddenText, `${field} (hidden text)`, context)) findings.push(finding);
  }
  return cleaned;
}

/** Schema keywords whose string value reaches the model as text. */
const textKeywords = new Set(['title', 'description', 'default', 'const']);
/** Schema keywords whose array of values reaches the model as text, one value each. */
const textListKeywords = new Set(['enum', 'examples']);
/** Schema keywords whose object keys are property names (read by the model as words too). */
const propertyMapKeywords = new Set(['properties', 'patternProperties']);

/** Scans each string of a value list (`enum`, `examples`), returning a cleaned copy when one changed. */
function scanTextList(values: unknown[], path: string, context: ShadowingContext, findings: DescriptionFinding[]) {
  let copy: unknown[] | undefined;
  values.forEach((value, index) => {
    if (typeof value !== 'string') return;
    const scanned = scanText(value, `${path}[${index}]`, context, findings);
    if (scanned === value) return;
    copy ??= [...values];
    copy[index] = scanned;
  });
  return copy ?? values;
}

/**
 * Walks a JSON Schema and scans each text a model reads: string `title`, `description`, `default` and `const`, the
 * strings of `enum` and `examples`, and property names (reported only: renaming one would change the arguments).
 * Returns a cleaned copy when a text changed.
 */
function scanSchema(schema: unknown, path: string, context: ShadowingContext, findings: DescriptionFinding[]): unknown {
  if (Array.isArray(schema)) {
    let changed = false;
    const items = schema.map((item, index) => {
      const scanned = scanSchema(item, `${path}[${index}]`, context, findings);
      if (scanned !== item) changed = true;
      return scanned;
    });
    return changed ? items : schema;
  }
  if (schema === null || typeof schema !== 'object') return schema;
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(schema)) {
    const childPath = `${path}.${key}`;
    if (propertyMapKeywords.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const name of Object.keys(value)) scanText(name, `${childPath}.${name} (name)`, context, findings);
    }
    const scanned =
      textKeywords.has(key) && typeof value === 'string'
        ? scanText(value, childPath, context, findings)
        : textListKeywords.has(key) && Array.isArray(value)
          ? scanTextList(value, childPath, context, findings)
          : scanSchema(value, childPath, context, findings);
    if (scanned !== value) {
      copy ??= { ...(schema as Record<string, unknown>) };
      copy[key] = scanned;
    }
  }
  return copy ?? schema;
}

/** The server's own names, normalized: those of its entry in the names map are cached with the map. */
const ownNamesByMap = new WeakMap<ReadonlyMap<string, readonly string[]>, Map<string, ReadonlySet<string>>>();

function ownToolNames(
  name: string,
  serverId: string,
  serverToolNames: readonly string[] | undefined,
  namesMap: ReadonlyMap<string, readonly string[]>,
): ReadonlySet<string> {
  let byServer = ownNamesByMap.get(namesMap);
  if (byServer === undefined) {
    byServer = new Map();
    ownNamesByMap.set(namesMap, byServer);
  }
  let fromMap = byServer.get(serverId);
  if (fromMap === undefined) {
    fromMap = new Set((namesMap.get(serverId) ?? []).map((own) => normalizeForMatching(own)));
    byServer.set(serverId, fromMap);
  }
  const normalizedName = normalizeForMatching(name);
  if (fromMap.has(normalizedName) && (serverToolNames === undefined || serverToolNames.length === 0)) return fromMap;
  return new Set([...fromMap, normalizedName, ...(serverToolNames ?? []).map((own) => normalizeForMatching(own))]);
}

/**
 * Scans one tool definition (see the file comment). Invisible characters are stripped from the returned copy;
 * instruction-like text is only reported (removing words would change what the tool says). The name is checked for
 * invisible characters but never changed, since it is how the tool is called.
 */
export function scanToolDefinition<Tool extends ScannableToolDefinition>(
  tool: Tool,
  context: DescriptionScanContext,
): DescriptionScanResult<Tool> {
  const name = tool.name ?? tool.toolName ?? '';
  const otherServersToolNames = context.otherServersToolNames ?? noOtherServers;
  const shadowing: ShadowingContext = {
    serverId: context.serverId,
    ownToolNames: ownToolNames(name, context.serverId, context.serverToolNames, otherServersToolNames),
    otherServersToolNames,
  };
  const findings: DescriptionFinding[] = [];
  for (const run of scanInvisibleCharacters(name).runs) {
    findings.push({
      kind: run.kind,
      field: 'name',
      reason: `${run.count} ${invisibleReasons[run.kind]} in the name (kept: the name is how the tool is called)`,
      excerpt: run.excerpt,
    });
  }
  let cleaned: Tool = tool;
  const update = (key: string, value: unknown): void => {
    if (cleaned === tool) cleaned = { ...tool };
    (cleaned as Record<string, unknown>)[key] = value;
  };

  const title = tool.title === undefined ? undefined : scanText(tool.title, 'title', shadowing, findings);
  if (title !== tool.title) update('title', title);
  const description =
    tool.description === undefined ? undefined : scanText(tool.description, 'description', shadowing, findings);
  if (description !== tool.description) update('description', description);
  const annotationTitle = tool.annotations?.title;
  if (typeof annotationTitle === 'string') {
    const scanned = scanText(annotationTitle, 'annotations.title', shadowing, findings);
    if (scanned !== annotationTitle) update('annotations', { ...tool.annotations, title: scanned });
  }
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    if (tool[key] === undefined) continue;
    const scanned = scanSchema(tool[key], key, shadowing, findings);
    if (scanned !== tool[key]) update(key, scanned);
  }

  // A payload split between the title and the description ("Ignore all previous" + "instructions and …") only reads
  // as one when joined; report what the join shows that neither field showed alone.
  if (title !== undefined && description !== undefined && title.length > 0 && description.length > 0) {
    const known = new Set(findings.map((finding) => finding.kind));
    for (const finding of findInstructions(`${title} ${description}`, 'title+description', shadowing)) {
      if (!known.has(finding.kind)) findings.push(finding);
    }
  }
  return { tool: cleaned, findings };
}

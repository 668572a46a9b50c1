/**
 * `tools` of a server entry: per-tool overrides keyed by the backend's own tool name (see `ToolOverride`). Checked
 * more strictly than the rest of the entry: an unknown key inside an override is an error with "did you mean", not a
 * warning, because no other client writes these and a misspelt `descripton` would silently show the backend's text.
 * The one foreign form, a list of tool names (GitHub Copilot CLI's allow-list), is ignored with a warning.
 */
import { isRecord } from '../text/is-record.js';
import type { ConfigPath } from './config-path.js';
import { toolAnnotationsOverrideSchema, toolOverrideSchema } from './config-schema.js';
import { mapRecord } from './config-values.js';
import type { ParseContext } from './parse-context.js';
import type { ToolOverride } from './resolved-config.js';
import { suggestKey } from './unknown-keys.js';

const overrideKeys = Object.keys(toolOverrideSchema.shape);
const annotationKeys = Object.keys(toolAnnotationsOverrideSchema.shape);

/**
 * The entry as validation should see it: a `tools` list of another client removed (with a warning), and every
 * unknown key inside an override reported under its path. Never changes `entry` itself.
 */
export function checkToolOverrides(entry: unknown, path: ConfigPath, context: ParseContext): unknown {
  if (!isRecord(entry) || !Object.hasOwn(entry, 'tools')) return entry;
  const tools = entry['tools'];
  const toolsPath = [...path, 'tools'];
  if (Array.isArray(tools)) {
    context.warn(
      toolsPath,
      'a list of tool names is another client\'s setting, not read by Search MCP; per-tool overrides are an object keyed by tool name ({ "<tool>": { "name": …, "description": …, "enabled": false } })',
    );
    const { tools: _foreign, ...rest } = entry;
    return rest;
  }
  if (!isRecord(tools)) return entry;
  for (const [tool, override] of Object.entries(tools)) {
    if (tool === '') context.report([...toolsPath, tool], 'expected the tool\'s name on its server, got ""');
    reportUnknownKeys(override, overrideKeys, [...toolsPath, tool], context);
    if (isRecord(override)) {
      reportUnknownKeys(override['annotations'], annotationKeys, [...toolsPath, tool, 'annotations'], context);
    }
  }
  return entry;
}

/** The validated overrides as a record without prototype (tool names are any string); undefined when there are none. */
export function resolveToolOverrides(
  tools: Record<string, ToolOverride> | undefined,
): Record<string, ToolOverride> | undefined {
  if (tools === undefined || Object.keys(tools).length === 0) return undefined;
  return mapRecord(tools, (_tool, override) => ({
    ...override,
    ...(override.annotations ? { annotations: { ...override.annotations } } : {}),
  }));
}

function reportUnknownKeys(value: unknown, known: readonly string[], path: ConfigPath, context: ParseContext): void {
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const suggestion = suggestKey(key, known);
    const hint = suggestion === undefined ? `; expected one of ${known.join(', ')}` : `; did you mean "${suggestion}"?`;
    context.report([...path, key], `unknown key${hint}`);
  }
}

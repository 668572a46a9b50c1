import type { CatalogSearchHit } from '@search-mcp/catalog';
import type { ToolInfo } from '@search-mcp/shared';
import { loadRealServerTools } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { toDiscoveryResults } from './discovery-response.js';

// The five largest input schemas among the 22 recorded real servers (Notion, kubectl, firecrawl).
const recorded = loadRealServerTools({ withDefinitions: true });
function tool(server: string, name: string): ToolInfo {
  const found = recorded.find((entry) => entry.toolKey === `${server}:${name}`);
  if (!found) throw new Error(`${server}:${name} is not in the fixtures`);
  return found;
}
const largest = [
  tool('notion', 'API-update-page-markdown'),
  tool('notion', 'API-post-search'),
  tool('kubernetes', 'kubectl_create'),
  tool('notion', 'API-patch-page'),
  tool('firecrawl', 'firecrawl_search'),
];
const hits: CatalogSearchHit[] = largest.map((entry, index) => ({
  toolKey: entry.toolKey,
  toolName: entry.toolName,
  serverName: entry.serverName,
  relevance: 1 - index / 10,
  explanation: 'matched: page',
  tool: entry,
}));

/** A schema cut to parameter names and types (and `required`). */
function isNamesOnly(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  const properties = Object.values((schema.properties ?? {}) as Record<string, Record<string, unknown>>);
  return (
    Object.keys(schema).every((key) => ['type', 'properties', 'required'].includes(key)) &&
    properties.every((property) => Object.keys(property).every((key) => key === 'type'))
  );
}

describe('toDiscoveryResults', () => {
  it('keeps a summary of five of the largest real tools small, the top hit whole', () => {
    const { results, shortened } = toDiscoveryResults(hits, 'summary');
    expect(shortened).toBe(true);
    // Within the budget, or every lower hit is already down to parameter names and types (it goes no further).
    const lowerHitsNamesOnly = results.slice(1).every((result) => isNamesOnly(result.inputSchema));
    expect(JSON.stringify(results).length <= 7500 || lowerHitsNamesOnly).toBe(true);
    expect(JSON.stringify(results).length).toBeLessThan(
      JSON.stringify(toDiscoveryResults(hits, 'full').results).length / 3,
    );
    expect(JSON.stringify(hits.map((hit) => hit.tool.inputSchema)).length).toBeGreaterThan(20_000);
    // The best hit keeps every parameter with its description and requirements.
    const top = results[0]?.inputSchema as {
      properties: Record<string, { description?: string }>;
      required?: string[];
    };
    expect(Object.keys(top.properties)).toEqual(Object.keys((largest[0]?.inputSchema.properties ?? {}) as object));
    expect(top.required).toEqual(largest[0]?.inputSchema.required);
    expect(results.map((result) => result.toolKey)).toEqual(hits.map((hit) => hit.toolKey));
  });

  it('never drops the inputSchema at summary detail, however large the answer', () => {
    // Ten of the largest schemas: far over the budget even with every lower hit cut to names and types.
    const many = [...hits, ...hits].map((hit, index) => ({
      ...hit,
      toolKey: `${hit.toolKey}-${index}`,
      relevance: 1 - index / 20,
    }));
    const { results, shortened } = toDiscoveryResults(many, 'summary');
    expect(shortened).toBe(true);
    expect(JSON.stringify(results).length).toBeGreaterThan(7500);
    for (const [index, result] of results.entries()) {
      expect(result.inputSchema, result.toolKey).toBeDefined();
      const names = Object.keys((many[index]?.tool.inputSchema.properties ?? {}) as object);
      expect(Object.keys((result.inputSchema?.properties ?? {}) as object), result.toolKey).toEqual(names);
      if (index > 0) expect(isNamesOnly(result.inputSchema), result.toolKey).toBe(true);
    }
  });

  it('leaves small answers whole and drops only what validators need', () => {
    const small: CatalogSearchHit = {
      ...hits[0]!,
      tool: {
        ...hits[0]!.tool,
        inputSchema: {
          $schema: 'x',
          type: 'object',
          additionalProperties: false,
          properties: { path: { type: 'string', title: 'Path', description: 'Where' } },
          required: ['path'],
        },
      },
    };
    const { results, shortened } = toDiscoveryResults([small], 'summary');
    expect(shortened).toBe(false);
    expect(results[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'Where' } },
      required: ['path'],
    });
  });

  it('passes full detail unchanged and keeps minimal to names', () => {
    const full = toDiscoveryResults(hits, 'full').results;
    expect(full[1]?.inputSchema).toBe(largest[1]?.inputSchema);
    expect(full[1]?.description).toBe(largest[1]?.description);
    const minimal = toDiscoveryResults(hits, 'minimal').results;
    expect(minimal.every((result) => result.inputSchema === undefined && result.explanation === undefined)).toBe(true);
  });
});

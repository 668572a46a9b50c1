/**
 * Pinning and quarantine over REST (docs/trust.md, "Pinning and quarantine"), admin only: `GET /v1/quarantine` lists
 * the tools held back with what changed, `POST /v1/servers/:serverId/approve` (optional body `{ "tool": "<name>", "hashes": { "<name>":
 * "<hash>" } }`) pins what waits for a server, as `search-mcp approve` does; with `hashes` (what the list showed; the
 * console always sends them) only those definitions, so nothing changed since is pinned unseen. The catalog lists its tools again at the next request.
 */
import {
  ApprovalChangedError,
  approveCommand,
  describeQuarantine,
  pinnedFields,
  type QuarantineEntry,
  type ToolCatalog,
} from '@search-mcp/catalog';
import { z } from 'zod';
import { assertAdmin } from '../access/admin-access.js';
import type { AdminActionReplicas } from '../http-app-options.js';
import { conflict, notFound } from '../http-errors.js';
import { errorResponses } from '../openapi/documented-responses.js';
import type { ZodFastifyInstance } from './rest-route-context.js';
import { serverIdParamsSchema } from './rest-schemas.js';

const definitionSchema = z.record(z.string(), z.unknown()).describe('The pinned fields of a tool definition');

const quarantinedToolSchema = z.object({
  toolKey: z.string().describe('`server:tool`, the tool under its backend name'),
  serverId: z.string(),
  toolName: z.string(),
  reason: z.enum(['changed', 'new-server', 'suspicious']),
  changedFields: z.array(z.enum(pinnedFields)),
  findings: z.array(z.string()).describe("The description scanner's reasons"),
  pinned: definitionSchema.optional().describe('The approved definition (absent: never approved)'),
  proposed: definitionSchema.describe('The definition as the server lists it now: what an approval pins'),
  hash: z
    .string()
    .describe("The hash of `proposed`: pass it back in the approval's `hashes` to pin only what was shown"),
  since: z.string().describe('When it was first held (ISO 8601)'),
  diff: z.array(z.string()).describe('The change in words, field by field (old → new), as the CLI shows it'),
  approve: z.string().describe('The CLI command that approves it'),
});

const quarantineListSchema = z.object({ tools: z.array(quarantinedToolSchema) });
const approveBodySchema = z
  .object({
    tool: z.string().min(1).optional().describe('One tool (its backend name); absent: all that wait'),
    hashes: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        'Tool name → the `hash` that `GET /v1/quarantine` showed. Given (recommended), only those definitions are ' +
          'pinned: one that changed since, or a tool not named here, is refused with 409 and nothing is approved',
      ),
  })
  .nullish();
const approveResultSchema = z.object({
  serverId: z.string(),
  approved: z.array(z.string()),
  appliedTo: z
    .literal('every-replica')
    .optional()
    .describe(
      'Present with replicas sharing a store: every replica pins the same reviewed definitions (docs/scale-out.md)',
    ),
});

export interface QuarantineRoutesContext {
  catalog: ToolCatalog;
  /** The other replicas, told of each approval (the runtime's `replicas`); absent or not shared: this replica only. */
  replicas?: AdminActionReplicas | undefined;
}

export function registerQuarantineRoutes(app: ZodFastifyInstance, context: QuarantineRoutesContext): void {
  const { catalog } = context;
  app.get(
    '/v1/quarantine',
    {
      schema: {
        summary: 'The tools held back until approved, with what changed (admin)',
        response: { 200: quarantineListSchema, ...errorResponses() },
      },
    },
    async (request) => {
      assertAdmin(request, 'The quarantine list');
      return { tools: (await catalog.quarantined()).map(quarantineBody) };
    },
  );
  app.post(
    '/v1/servers/:serverId/approve',
    {
      schema: {
        summary: 'Pin what waits for a server, or one of its tools (admin): it is listed and callable again',
        params: serverIdParamsSchema,
        body: approveBodySchema,
        response: { 200: approveResultSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { serverId } = request.params;
      const tool = request.body?.tool;
      const hashes = request.body?.hashes;
      request.auditFields = { serverId };
      assertAdmin(request, 'Approving a quarantined tool');
      // What is held now (listing first), so a tool that waits only on disk from an earlier run is found too.
      const waiting = await catalog.quarantined();
      let approved: string[];
      try {
        approved = await catalog.approve(serverId, tool, hashes ? { expected: hashes } : {});
      } catch (error) {
        if (ApprovalChangedError.isInstance(error)) throw conflict(error.message);
        throw error;
      }
      if (approved.length === 0) {
        throw notFound(`Nothing waits for approval for ${tool === undefined ? serverId : `${serverId}:${tool}`}`);
      }
      // Each replica approves the same reviewed hashes in its own catalog; one whose definitions differ approves none.
      const everyReplica = context.replicas?.shared === true;
      if (everyReplica) {
        await context.replicas?.publish({
          kind: 'approve',
          serverId,
          ...(tool !== undefined ? { tool } : {}),
          // What was pinned here, by hash: another replica pins only these definitions, never one it holds unseen.
          hashes: hashes ?? reviewedHashes(waiting, serverId, approved),
        });
      }
      return { serverId, approved, ...(everyReplica ? { appliedTo: 'every-replica' as const } : {}) };
    },
  );
}

function reviewedHashes(
  waiting: readonly QuarantineEntry[],
  serverId: string,
  approved: readonly string[],
): Record<string, string> {
  const names = new Set(approved);
  return Object.fromEntries(
    waiting
      .filter((entry) => entry.serverId === serverId && names.has(entry.toolName))
      .map((entry) => [entry.toolName, entry.hash]),
  );
}

function quarantineBody(entry: QuarantineEntry) {
  return {
    toolKey: entry.toolKey,
    serverId: entry.serverId,
    toolName: entry.toolName,
    reason: entry.reason,
    changedFields: entry.changedFields,
    findings: entry.findings,
    ...(entry.pinned ? { pinned: { ...entry.pinned } } : {}),
    proposed: { ...entry.proposed },
    hash: entry.hash,
    since: entry.since,
    diff: describeQuarantine(entry),
    approve: approveCommand(entry.toolKey),
  };
}

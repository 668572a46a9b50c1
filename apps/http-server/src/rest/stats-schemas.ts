/**
 * The schemas of `GET /v1/stats` (docs/console.md, `UsageReport`), in the style of rest-schemas.ts: the route
 * validates and serializes with them, and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import { openApiComponents } from './rest-schemas.js';

export const statsQuerySchema = z.object({
  window: z
    .enum(['1h', '24h', '7d'], { error: 'window must be one of 1h, 24h, 7d' })
    .default('24h')
    .describe('The period: the last hour in minute buckets, the last 24 hours or 7 days in hour buckets'),
  serverId: z.string().min(1).optional().describe('Only the tools of this server'),
  toolKey: z.string().min(1).optional().describe('Only this tool (`server:tool`)'),
});

const figures = {
  calls: z.number().int(),
  errors: z.number().int().describe('Calls whose outcome was `error` or `tool_error`'),
  p50Ms: z.number().optional().describe('Median duration (ms); absent without calls'),
  p95Ms: z.number().optional().describe('95th percentile duration (ms); absent without calls'),
};

export const usageFiguresSchema = z.object(figures).register(openApiComponents, { id: 'UsageFigures' });

export const usageReportSchema = z
  .object({
    window: z.enum(['1h', '24h', '7d']),
    from: z.string().describe('ISO 8601, inclusive'),
    to: z.string().describe('ISO 8601, exclusive'),
    bucketMs: z.number().int().describe('60000 for 1h, 3600000 for 24h and 7d'),
    persisted: z.boolean().describe('Whether these figures survive a restart (an `audit.file` is configured)'),
    totals: usageFiguresSchema,
    servers: z.array(z.object({ serverId: z.string(), ...figures })),
    tools: z.array(
      z.object({
        toolKey: z.string(),
        serverId: z.string(),
        lastCallAt: z.string().optional().describe('ISO 8601'),
        ...figures,
      }),
    ),
    series: z
      .array(z.object({ at: z.string().describe("ISO 8601: the bucket's start"), ...figures }))
      .describe('The totals per bucket, oldest first, every bucket present (zeros included)'),
    searches: z
      .object({
        count: z.number().int(),
        noMatch: z.number().int().describe('Searches that found no tool'),
        p50Ms: z.number().optional(),
        p95Ms: z.number().optional(),
      })
      .describe('tool_discovery and the REST searches'),
  })
  .register(openApiComponents, { id: 'UsageReport' });

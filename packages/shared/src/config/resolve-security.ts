/** The `security` section (docs/trust.md): what is pinned and quarantined, how descriptions are judged, rate limits. */
import { parseToolKey } from '../keys/tool-key.js';
import { configFileSchema, securitySchema } from './config-schema.js';
import type { ParseContext } from './parse-context.js';
import type { RateConfig, SecurityConfig } from './resolved-config.js';
import { warnUnknownKeys } from './unknown-keys.js';

export function resolveSecurity(value: unknown, context: ParseContext): SecurityConfig | undefined {
  warnUnknownKeys(value, Object.keys(securitySchema.shape), ['security'], context);
  const security = context.validate(configFileSchema.shape.security, value, ['security']);
  if (security === undefined) return undefined;
  const { rateLimits } = security;
  const rate = (input: { requestsPerMinute: number; burst?: number | undefined }): RateConfig => ({
    requestsPerMinute: input.requestsPerMinute,
    burst: input.burst ?? input.requestsPerMinute,
  });
  const tools: Record<string, RateConfig> = Object.create(null);
  for (const [key, limit] of Object.entries(rateLimits?.tools ?? {})) {
    // `server:*` is a whole server; anything else must be a tool key.
    const wholeServer = /^[^:]+:\*$/.test(key);
    if (!wholeServer && parseToolKey(key) === undefined) {
      context.report(
        ['security', 'rateLimits', 'tools', key],
        'expected a tool key "server:tool" or a whole server "server:*"',
      );
      continue;
    }
    tools[key] = rate(limit);
  }
  return {
    quarantineNewServers: security.quarantineNewServers,
    onSuspicious: security.onSuspicious,
    ...(rateLimits
      ? {
          rateLimits: {
            ...(rateLimits.perToken ? { perToken: rate(rateLimits.perToken) } : {}),
            ...(rateLimits.perProject ? { perProject: rate(rateLimits.perProject) } : {}),
            ...(rateLimits.perTool ? { perTool: rate(rateLimits.perTool) } : {}),
            tools,
          },
        }
      : {}),
  };
}

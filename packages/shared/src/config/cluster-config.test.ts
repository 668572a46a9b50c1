import { describe, expect, it } from 'vitest';
import { collectConfigSecrets } from '../secrets/config-secrets.js';
import { parseConfig } from './parse-config.js';

describe('parseConfig: cluster', () => {
  it('is absent by default: every process keeps its own state', () => {
    expect(parseConfig({ mcpServers: {} }).cluster).toBeUndefined();
  });

  it('reads the Redis URL with ${VAR} expanded, and its password is a secret to mask', () => {
    const config = parseConfig(
      { mcpServers: {}, cluster: { redis: { url: 'redis://:${REDIS_PASSWORD}@redis:6379/2', keyPrefix: 'team-a:' } } },
      { env: { REDIS_PASSWORD: 's3cret-pass' } },
    );
    expect(config.cluster).toEqual({ redis: { url: 'redis://:s3cret-pass@redis:6379/2', keyPrefix: 'team-a:' } });
    expect(collectConfigSecrets(config)).toContain('s3cret-pass');
  });

  it('refuses a URL that is not redis:// or rediss://, without printing it', () => {
    expect(() =>
      parseConfig({ mcpServers: {}, cluster: { redis: { url: 'http://user:hunter2@redis:6379' } } }),
    ).toThrow(
      /cluster\.redis\.url: expected a redis:\/\/ or rediss:\/\/ URL \(e\.g\. redis:\/\/redis\.internal:6379\/0\), not http:\/\//,
    );
    expect(() => parseConfig({ mcpServers: {}, cluster: { redis: { url: 'http://user:hunter2@redis' } } })).not.toThrow(
      /hunter2/,
    );
    expect(() => parseConfig({ mcpServers: {}, cluster: { redis: {} } })).toThrow(/cluster\.redis\.url/);
  });

  it('reports an unset variable in the URL, and warns about unknown keys', () => {
    expect(() => parseConfig({ mcpServers: {}, cluster: { redis: { url: '${NO_SUCH_REDIS}' } } }, { env: {} })).toThrow(
      /cluster\.redis\.url: environment variable NO_SUCH_REDIS is not set/,
    );
    const config = parseConfig({ mcpServers: {}, cluster: { redis: { url: 'rediss://redis:6380', keyPrefx: 'x' } } });
    expect(config.warnings.join('\n')).toMatch(
      /cluster\.redis\.keyPrefx: unknown key, ignored; did you mean "keyPrefix"\?/,
    );
  });
});

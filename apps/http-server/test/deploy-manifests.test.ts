/**
 * The deployment examples (deploy/compose, deploy/kubernetes; docs/scale-out.md) agree with the app: every file
 * parses, the probes name routes the app answers without a token, ports are the app's, the shutdown budget covers the
 * drain and the grace, and HAProxy accepts its config (`haproxy -c`).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfig } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseCommandLine } from '../src/command-line.js';
import { httpAppDefaults } from '../src/http-app-options.js';
import { repoRoot, request, type Running, startApp } from './http-test-support.js';

const haproxy = '/usr/sbin/haproxy';
const composeDirectory = join(repoRoot, 'deploy/compose');
const kubernetesDirectory = join(repoRoot, 'deploy/kubernetes');

// biome-ignore lint/suspicious/noExplicitAny: manifests are read as plain data
type Manifest = Record<string, any>;

async function readYamlFile(path: string): Promise<Manifest[]> {
  const documents = parseAllDocuments(await readFile(path, 'utf8'));
  for (const document of documents)
    expect(
      document.errors.map((error) => error.message),
      path,
    ).toEqual([]);
  return documents.map((document) => document.toJS() as Manifest).filter((value) => value !== null);
}

/** The value after `--name` in a command line, as a number. */
function numberOption(command: string[], name: string): number | undefined {
  const index = command.indexOf(name);
  return index === -1 ? undefined : Number(command[index + 1]);
}

const defaultPort = parseCommandLine([]).port;

describe('deploy/kubernetes', () => {
  let manifests: Manifest[];
  const byKind = (kind: string) => manifests.filter((manifest) => manifest.kind === kind);

  beforeAll(async () => {
    const files = (await readdir(kubernetesDirectory)).filter((file) => file.endsWith('.yaml'));
    manifests = (await Promise.all(files.map((file) => readYamlFile(join(kubernetesDirectory, file))))).flat();
  });

  it('has every kind the setup needs, each with a name', () => {
    expect(new Set(manifests.map((manifest) => manifest.kind))).toEqual(
      new Set([
        'ConfigMap',
        'Secret',
        'Deployment',
        'Service',
        'PodDisruptionBudget',
        'StatefulSet',
        'NetworkPolicy',
        'Kustomization',
      ]),
    );
    for (const manifest of manifests) {
      if (manifest.kind !== 'Kustomization') expect(manifest.metadata?.name, manifest.kind).toEqual(expect.any(String));
    }
  });

  it('lists every manifest in the kustomization', async () => {
    const [kustomization] = byKind('Kustomization');
    const files = (await readdir(kubernetesDirectory)).filter(
      (file) => file.endsWith('.yaml') && file !== 'kustomization.yaml',
    );
    expect([...(kustomization?.resources ?? [])].sort()).toEqual(files.sort());
  });

  it('runs 3 replicas probed on /readyz and /healthz at the port the app listens on', () => {
    const [deployment] = byKind('Deployment');
    expect(deployment?.spec.replicas).toBe(3);
    const pod = deployment?.spec.template.spec;
    const [container] = pod.containers;
    const command = container.command as string[];
    expect(command[0]).toBe('search-mcp-http');
    const port = numberOption(command, '--port');
    expect(port).toBe(defaultPort);
    expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
    expect(container.readinessProbe.httpGet).toMatchObject({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits).toMatchObject({ memory: expect.any(String) });
    // SIGKILL must not come before the drain, the grace for calls in flight and the backends' stop are over.
    const drainMs = numberOption(command, '--drain-ms') ?? httpAppDefaults.drainMs;
    const graceMs = numberOption(command, '--shutdown-grace-ms') ?? httpAppDefaults.shutdownGraceMs;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs + graceMs + 10_000);
    // The config and the secrets it expands come from the ConfigMap and the Secret.
    const [configMap] = byKind('ConfigMap');
    const [secret] = byKind('Secret');
    expect(pod.volumes[0].configMap.name).toBe(configMap?.metadata.name);
    const secretNames = (container.env as Manifest[])
      .filter((variable) => variable.valueFrom)
      .map((variable) => variable.valueFrom.secretKeyRef);
    for (const reference of secretNames) {
      expect(reference.name).toBe(secret?.metadata.name);
      expect(Object.keys(secret?.stringData)).toContain(reference.key);
    }
  });

  it('selects the pods with its Service and a PodDisruptionBudget of minAvailable 2', () => {
    const [deployment] = byKind('Deployment');
    const labels = deployment?.spec.template.metadata.labels;
    const service = byKind('Service').find((manifest) => manifest.metadata.name === deployment?.metadata.name);
    expect(service?.spec.selector).toEqual(labels);
    expect(service?.spec.ports[0].targetPort).toBe('http');
    const [budget] = byKind('PodDisruptionBudget');
    expect(budget?.spec.minAvailable).toBe(2);
    expect(budget?.spec.selector.matchLabels).toEqual(labels);
  });

  it('runs Redis with the password of the Secret, which the replicas URL carries', () => {
    const [secret] = byKind('Secret');
    const [redis = {}] = byKind('StatefulSet');
    const [container] = redis.spec.template.spec.containers;
    const passwordIndex = (container.args as string[]).indexOf('--requirepass');
    expect(passwordIndex).toBeGreaterThan(-1);
    const variable = /^\$\((\w+)\)$/.exec(container.args[passwordIndex + 1])?.[1];
    const passwordSource = (container.env as Manifest[]).find((entry) => entry.name === variable);
    expect(passwordSource?.valueFrom.secretKeyRef).toEqual({ name: secret?.metadata.name, key: 'redis-password' });
    // The readiness probe's redis-cli authenticates too.
    expect(
      (container.env as Manifest[]).find((entry) => entry.name === 'REDISCLI_AUTH')?.valueFrom.secretKeyRef,
    ).toEqual(passwordSource?.valueFrom.secretKeyRef);
    const [deployment] = byKind('Deployment');
    const environment = deployment?.spec.template.spec.containers[0].env as Manifest[];
    const url = environment.find((entry) => entry.name === 'SEARCH_MCP_REDIS_URL')?.value as string;
    const urlPassword = /^redis:\/\/:\$\((\w+)\)@/.exec(url)?.[1];
    // Kubernetes expands $(NAME) only from variables defined before it.
    const passwordPosition = environment.findIndex((entry) => entry.name === urlPassword);
    expect(passwordPosition).toBeGreaterThan(-1);
    expect(passwordPosition).toBeLessThan(environment.findIndex((entry) => entry.name === 'SEARCH_MCP_REDIS_URL'));
    expect(environment[passwordPosition]?.valueFrom.secretKeyRef).toEqual(passwordSource?.valueFrom.secretKeyRef);
  });

  it('lets only the search-mcp pods reach Redis', () => {
    const [policy] = byKind('NetworkPolicy');
    const [redis] = byKind('StatefulSet');
    const [deployment] = byKind('Deployment');
    expect(policy?.spec.podSelector.matchLabels).toEqual(redis?.spec.template.metadata.labels);
    expect(policy?.spec.policyTypes).toEqual(['Ingress']);
    expect(policy?.spec.ingress).toEqual([
      {
        from: [{ podSelector: { matchLabels: deployment?.spec.template.metadata.labels } }],
        ports: [{ protocol: 'TCP', port: 6379 }],
      },
    ]);
  });

  it('ships a config the app reads without warnings', () => {
    const [configMap] = byKind('ConfigMap');
    const config = parseConfig(JSON.parse(configMap?.data['mcp-servers.json']), {
      env: { SEARCH_MCP_TOKEN: 'a-token-long-enough-0123456789', SEARCH_MCP_REDIS_URL: 'redis://127.0.0.1:6379/0' },
    });
    expect(config.warnings).toEqual([]);
    expect(config.auth.tokens).toHaveLength(1);
  });
});

describe('deploy/compose', () => {
  let compose: Manifest;

  beforeAll(async () => {
    [compose = {}] = await readYamlFile(join(composeDirectory, 'docker-compose.yml'));
  });

  it('runs 3 search-mcp-http replicas from the repository Dockerfile, Redis 7 and HAProxy', () => {
    const replica = compose.services['search-mcp-http'];
    expect(replica.deploy.replicas).toBe(3);
    expect(existsSync(join(composeDirectory, replica.build.context, replica.build.dockerfile))).toBe(true);
    expect(numberOption(replica.command, '--port')).toBe(defaultPort);
    expect(replica.healthcheck.test.join(' ')).toContain(`127.0.0.1:${defaultPort}/healthz`);
    expect(compose.services.redis.image).toMatch(/^redis:7/);
    expect(compose.services.haproxy.image).toMatch(/^haproxy:/);
    expect(replica.volumes).toContain('./config:/config:ro');
  });

  it('runs Redis with a password the replicas URL carries, and publishes no Redis port', () => {
    const redis = compose.services.redis;
    const password = '${SEARCH_MCP_REDIS_PASSWORD:?';
    const command = redis.command as string[];
    expect(command[command.indexOf('--requirepass') + 1]).toContain(password);
    expect(redis.environment.REDISCLI_AUTH).toContain(password);
    expect(compose.services['search-mcp-http'].environment.SEARCH_MCP_REDIS_URL).toMatch(
      /^redis:\/\/:\$\{SEARCH_MCP_REDIS_PASSWORD:\?[^}]*\}@redis:6379\/0$/,
    );
    expect(redis.ports).toBeUndefined();
  });

  it('ships a config the app reads without warnings', async () => {
    const text = await readFile(join(composeDirectory, 'config/mcp-servers.json'), 'utf8');
    const config = parseConfig(JSON.parse(text), {
      env: { SEARCH_MCP_TOKEN: 'a-token-long-enough-0123456789', SEARCH_MCP_REDIS_URL: 'redis://redis:6379/0' },
    });
    expect(config.warnings).toEqual([]);
  });

  it('health-checks /readyz in HAProxy, on the replicas port, with the retries a killed replica needs', async () => {
    const text = await readFile(join(composeDirectory, 'haproxy.cfg'), 'utf8');
    expect(text).toMatch(/http-check send meth GET uri \/readyz/);
    expect(text).toMatch(new RegExp(`server-template \\S+ 3 search-mcp-http:${defaultPort}\\b`));
    expect(text).toMatch(/^\s*balance roundrobin$/m);
    expect(text).toMatch(/^\s*retry-on conn-failure empty-response$/m);
    expect(text).toMatch(/^\s*option redispatch$/m);
  });

  it('has an HAProxy config that haproxy -c accepts', async () => {
    if (!existsSync(haproxy)) {
      throw new Error(`${haproxy} is missing: install it with "sudo apt-get install haproxy" (Debian/Ubuntu)`);
    }
    const result = await new Promise<{ code: number; output: string }>((done) => {
      execFile(haproxy, ['-c', '-f', join(composeDirectory, 'haproxy.cfg')], (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        done({ code: typeof code === 'number' ? code : -1, output: stdout + stderr });
      });
    });
    expect(result.output).toContain('Configuration file is valid');
    expect(result.code).toBe(0);
    // Outside Docker the service name does not resolve: the one warning expected (servers start without an address).
    const warnings = result.output.split('\n').filter((line) => line.includes('[WARNING]'));
    for (const warning of warnings) expect(warning).toMatch(/could not resolve address 'search-mcp-http'/);
  });
});

describe('the probes the manifests name', () => {
  let running: Running;

  beforeAll(async () => {
    running = await startApp({ backends: 'none', app: { drainMs: 0 } });
  });

  afterAll(async () => {
    await running.close();
  });

  it('answer 200 without a token', async () => {
    for (const path of ['/readyz', '/healthz']) {
      expect(await request(running.url, path, { token: null }), path).toMatchObject({
        status: 200,
      });
    }
  });
});

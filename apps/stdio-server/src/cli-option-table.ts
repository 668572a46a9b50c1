/**
 * The command line's options, for `parseArgs`: one table for the full parse (`cli-arguments.ts`) and for the early
 * look at a `call` (`prestart-call-server.ts`), which must know which options take a value. No imports: the early
 * look runs before anything else loads.
 */
export const cliOptions = {
  config: { type: 'string', short: 'c' },
  mode: { type: 'string' },
  project: { type: 'string' },
  'log-level': { type: 'string' },
  json: { type: 'boolean', default: false },
  'no-watch': { type: 'boolean', default: false },
  limit: { type: 'string', short: 'n' },
  server: { type: 'string' },
  strategy: { type: 'string' },
  write: { type: 'boolean', default: false },
  force: { type: 'boolean', default: false },
  'replace-in': { type: 'string', multiple: true },
  home: { type: 'string' },
  platform: { type: 'string' },
  logout: { type: 'boolean', default: false },
  port: { type: 'string' },
  'no-open': { type: 'boolean', default: false },
  yes: { type: 'boolean', short: 'y', default: false },
  fresh: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

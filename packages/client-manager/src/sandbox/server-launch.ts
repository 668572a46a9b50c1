/** What is spawned for a stdio server: its own command, or the sandbox's command that runs it. Types only. */
export interface ServerLaunch {
  command: string;
  args: string[];
  /** The complete environment of the spawned process. */
  env: Record<string, string>;
  cwd?: string;
  /** The server's own `env` from its config: what a docker container is given (the host's environment is not). */
  configuredEnv?: Record<string, string>;
  /** The server's id in the config: names the sandbox's own npm cache. */
  serverId?: string;
}

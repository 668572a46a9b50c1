import type { ExposedNameStyle } from '@search-mcp/shared';
import { ExposedNames } from '../exposed-names.js';
import type { Listed } from '../forwarding/backend-gateway.js';

/** A backend prompt under the name clients see. */
export interface ListedPrompt {
  serverId: string;
  /** The backend's own name. */
  name: string;
  /** The prompt as the backend listed it, with `name` set to the exposed name. */
  definition: Listed & { name: string };
}

/**
 * The prompts of the servers a caller sees, under exposed names like tools (`server__prompt`, at most 64 safe
 * characters, hashed when it had to change; with `original`, the prompt's own name unless two servers share it):
 * in the backends' own order (servers in config order, as tools are listed), and resolvable by that name or
 * `server:prompt`.
 */
export class PromptTable {
  readonly prompts: ListedPrompt[];
  private readonly names: ExposedNames;
  private readonly byKey = new Map<string, { serverId: string; name: string }>();

  constructor(
    lists: ReadonlyArray<{ serverId: string; prompts: ReadonlyArray<Listed & { name: string }> }>,
    style: ExposedNameStyle = 'prefixed',
  ) {
    const entries = lists.flatMap(({ serverId, prompts }) =>
      prompts.map((prompt) => ({ key: `${serverId}:${prompt.name}`, serverId, name: prompt.name, prompt })),
    );
    this.names = new ExposedNames(entries, { style });
    for (const entry of entries) this.byKey.set(entry.key, { serverId: entry.serverId, name: entry.name });
    this.prompts = entries.map((entry) => {
      const exposed = this.names.nameOf(entry.key) ?? entry.key;
      return { serverId: entry.serverId, name: entry.name, definition: { ...entry.prompt, name: exposed } };
    });
  }

  /** The server and backend name of a prompt, by exposed name or `server:prompt`. */
  resolve(name: string): { serverId: string; name: string } | undefined {
    const key = this.names.keyOf(name) ?? name;
    return this.byKey.get(key);
  }
}

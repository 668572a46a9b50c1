/** A module imported on first use: `load()` imports it once, `loaded()` hands it over synchronously afterwards. */
export interface LazyModule<M> {
  load(): Promise<M>;
  /** @throws Error when `load()` has not finished yet. */
  loaded(): M;
}

/**
 * A module whose import costs start-up time a host may never need to pay (an SDK generation no backend speaks yet).
 * Process-wide (Node caches a module anyway); what a manager keeps of it (how its errors are read) is that
 * manager's own (`ProtocolErrors`).
 */
export function lazyModule<M>(
  settings: { name: string; loadFirst: string },
  importModule: () => Promise<M>,
): LazyModule<M> {
  let module: M | undefined;
  return {
    async load() {
      if (module) return module;
      const imported = await importModule();
      module = imported;
      return imported;
    },
    loaded() {
      if (!module) throw new Error(`${settings.name} is not loaded yet (${settings.loadFirst}() first)`);
      return module;
    },
  };
}

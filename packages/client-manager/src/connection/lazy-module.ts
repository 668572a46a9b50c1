/** A module imported on first use: `load()` imports it once, `loaded()` hands it over synchronously afterwards. */
export interface LazyModule<M> {
  load(): Promise<M>;
  /** @throws Error when `load()` has not finished yet. */
  loaded(): M;
}

/**
 * A module whose import costs start-up time a host may never need to pay (an SDK generation no backend speaks yet).
 * `onLoad` runs once, before the module is handed out (e.g. registering how its errors are read).
 */
export function lazyModule<M>(
  settings: { name: string; loadFirst: string },
  importModule: () => Promise<M>,
  onLoad: (module: M) => void,
): LazyModule<M> {
  let module: M | undefined;
  return {
    async load() {
      if (module) return module;
      const imported = await importModule();
      onLoad(imported);
      module = imported;
      return imported;
    },
    loaded() {
      if (!module) throw new Error(`${settings.name} is not loaded yet (${settings.loadFirst}() first)`);
      return module;
    },
  };
}

import type { EntityManager } from '@mikro-orm/postgresql';

/** Builds one DataLoader (or any per-request cache) for an organization's request. */
export type LoaderFactory<T> = (em: EntityManager, orgId: string) => T;

/**
 * The per-request set of loaders. Modules declare their loaders as factories; the first use in a
 * request creates the loader, so a request only pays for the loaders it touches.
 */
export class Loaders {
  private readonly made = new Map<LoaderFactory<unknown>, unknown>();

  constructor(
    private readonly em: EntityManager,
    private readonly orgId: string,
  ) {}

  get<T>(factory: LoaderFactory<T>): T {
    let loader = this.made.get(factory) as T | undefined;
    if (loader === undefined) {
      loader = factory(this.em, this.orgId);
      this.made.set(factory, loader);
    }
    return loader;
  }
}

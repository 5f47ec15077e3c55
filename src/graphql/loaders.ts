import type { EntityManager } from '@mikro-orm/postgresql';
import { batchingReads } from '../db/statement-batch';

/** Builds one DataLoader (or any per-request cache) for an organization's request. */
export type LoaderFactory<T> = (em: EntityManager, orgId: string) => T;

/**
 * The per-request set of loaders. Modules declare their loaders as factories; the first use in a
 * request creates the loader, so a request only pays for the loaders it touches.
 */
/** A loader that depends on field arguments (a filter, a limit): one loader per distinct argument set. */
export type KeyedLoaderFactory<A, T> = (em: EntityManager, orgId: string, args: A) => T;

export class Loaders {
  private readonly made = new Map<LoaderFactory<unknown>, unknown>();
  private readonly keyed = new Map<KeyedLoaderFactory<never, unknown>, Map<string, unknown>>();

  /** the request's reads through its statement batch */
  readonly em: EntityManager;

  /**
   * Loaders read through one statement batch: the batches that loaders of a request dispatch
   * together (an episode page's context lists) reach PostgreSQL as one statement.
   */
  constructor(
    em: EntityManager,
    private readonly orgId: string,
  ) {
    this.em = batchingReads(em);
  }

  get<T>(factory: LoaderFactory<T>): T {
    let loader = this.made.get(factory) as T | undefined;
    if (loader === undefined) {
      loader = factory(this.em, this.orgId);
      this.made.set(factory, loader);
    }
    return loader;
  }

  /** The loader of `factory` for these arguments (episodes selecting the same arguments share it). */
  getFor<A, T>(factory: KeyedLoaderFactory<A, T>, args: A): T {
    let byArgs = this.keyed.get(factory);
    if (!byArgs) {
      byArgs = new Map();
      this.keyed.set(factory, byArgs);
    }
    const key = JSON.stringify(args ?? null);
    let loader = byArgs.get(key) as T | undefined;
    if (loader === undefined) {
      loader = factory(this.em, this.orgId, args);
      byArgs.set(key, loader);
    }
    return loader;
  }
}

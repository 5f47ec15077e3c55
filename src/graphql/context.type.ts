import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../core/logger';
import type { StepAside } from '../core/running';
import type { Viewer } from '../modules/orgs';
import type { Loaders } from './loaders';
import type { Services } from './services';

/** What every resolver gets: the caller, its organization, a forked EntityManager and fresh loaders. */
export interface Context {
  requestId: string;
  viewer: Viewer;
  orgId: string;
  em: EntityManager;
  /**
   * A shared EntityManager for plain SQL reads that never use an identity map (no `find`, no
   * `persist`): the loaders read through it, and so may read-only queries; it is never in a
   * transaction, and every statement read through it is scoped to the organization by its own text.
   */
  reader: EntityManager;
  loaders: Loaders;
  log: Logger;
  services: Services;
  /** gives up the request's running slot on this instance while a wait off the event loop and the database pool is pending */
  aside: StepAside;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../core/logger';
import type { Viewer } from '../modules/orgs';
import type { Loaders } from './loaders';
import type { Services } from './services';

/** What every resolver gets: the caller, its organization, a forked EntityManager and fresh loaders. */
export interface Context {
  requestId: string;
  viewer: Viewer;
  orgId: string;
  em: EntityManager;
  loaders: Loaders;
  log: Logger;
  services: Services;
}

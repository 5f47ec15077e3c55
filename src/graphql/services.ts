import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import type { EventBus } from '../core/event-bus';
import type { Logger } from '../core/logger';

/** Process-wide parts a resolver may need besides its request context. */
export interface Services {
  config: Config;
  orm: MikroORM;
  bus: EventBus;
  log: Logger;
}

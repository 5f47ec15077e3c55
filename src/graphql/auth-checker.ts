import type { AuthChecker } from 'type-graphql';
import { forbidden } from '../core/errors';
import type { Role } from '../modules/orgs';
import type { Context } from './context.type';

/**
 * The role table (`CAN` in modules/orgs/role.ts) is enforced here and only here: a resolver names
 * the roles that may run it (`@Authorized(CAN.agentWrite)`); authentication already happened when
 * the context was made.
 */
export const authChecker: AuthChecker<Context, Role> = ({ context }, roles) => {
  if (roles.length === 0 || roles.includes(context.viewer.role)) return true;
  throw forbidden(`role ${context.viewer.role} may not do this; allowed: ${roles.join(', ')}`);
};

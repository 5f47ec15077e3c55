import type { Role } from './generated/graphql';

/** What every view is given: the signed-in key and its role. */
export interface ViewProps {
  apiKey: string;
  role: Role;
}

/** what each role may see; the server refuses the rest anyway, this keeps it out of sight */
export const canSeeLearning = (role: Role) => role === 'ADMIN' || role === 'INTEGRATOR';
export const canForget = (role: Role) => role === 'ADMIN';
export const canErase = (role: Role) => role === 'ADMIN';

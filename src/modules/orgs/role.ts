import { registerEnumType } from 'type-graphql';

export const ROLES = ['ADMIN', 'INTEGRATOR', 'OPERATOR', 'AGENT', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

/** GraphQL enum of the roles an API key can have. */
export const RoleEnum = Object.fromEntries(ROLES.map((r) => [r, r])) as { [K in Role]: K };
registerEnumType(RoleEnum, {
  name: 'Role',
  description: 'What an API key may do. Every role may query; writes follow the role table of the README.',
  valuesConfig: {
    ADMIN: { description: 'Everything, including API keys, forgetting and purging.' },
    INTEGRATOR: { description: 'Every write of agents and operators, and learning analytics.' },
    OPERATOR: { description: 'Feedback, corrections, judgements and mapping decisions.' },
    AGENT: { description: 'Agent runtime writes: episodes, canvas actions, facts, signals, feedback.' },
    VIEWER: { description: 'Read only.' },
  },
});

/** Who may run each group of writes. The one place the role table lives. */
export const CAN = {
  manageKeys: ['ADMIN'],
  analytics: ['ADMIN', 'INTEGRATOR'],
  erase: ['ADMIN', 'INTEGRATOR'],
  agentWrite: ['ADMIN', 'INTEGRATOR', 'AGENT'],
  feedbackWrite: ['ADMIN', 'INTEGRATOR', 'OPERATOR', 'AGENT'],
} satisfies Record<string, Role[]>;

import { DEFAULT_BUDGETS } from '../src/config';

const OUT_OF_REACH = '1000000,1000000000,1000,1000000000000';

/**
 * Budget settings no load reaches: for measuring the server rather than its budgets, and for
 * tests that are not about budgets (how fast a machine sends must not decide whether they pass).
 */
export const UNBOUNDED_BUDGETS: Record<string, string> = {
  ...Object.fromEntries(Object.keys(DEFAULT_BUDGETS.roles).map((role) => [`BUDGET_${role}`, OUT_OF_REACH])),
  BUDGET_ORG: OUT_OF_REACH,
};

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type ValidateArg = (
  argValue: unknown,
  argType: unknown,
  resolverData: unknown,
  globalValidate: unknown,
  argValidate: unknown,
  globalValidateFn: unknown,
  argValidateFn: unknown,
) => unknown;

/** The module of type-graphql that checks each argument of a resolver before the resolver runs. */
const argModule = (): { validateArg: ValidateArg } => {
  // not among the package's exports, so it is found next to its entry point (the version is pinned)
  const load = createRequire(__filename);
  return load(join(dirname(load.resolve('type-graphql')), 'resolvers', 'validate-arg.js')) as { validateArg: ValidateArg };
};

let installed = false;

/**
 * Arguments of resolvers reach them in the same turn when nothing would validate them.
 *
 * type-graphql checks every argument of every resolver call with an async function, even when
 * validation is off (as it is here): each argument becomes a promise, and the call waits for all of
 * them before it runs. An episode page resolves its context lists through resolvers with three
 * arguments each, 60 calls a page, which came to about 600 promises of the page's 1,200 and about
 * a tenth of its CPU. This hands back the argument itself wherever the async check would have
 * resolved to it without looking at it (no validation function, validation off for the argument,
 * or a value that is not an object), and leaves every other case to type-graphql. The answers are
 * the same; only the promises are gone.
 */
export function resolveArgumentsInTurn(): void {
  if (installed) return;
  const mod = argModule();
  const checked = mod.validateArg;
  if (typeof checked !== 'function') throw new Error('type-graphql has no argument check where it was expected');
  mod.validateArg = (argValue, argType, resolverData, globalValidate, argValidate, globalValidateFn, argValidateFn) => {
    if (typeof (argValidateFn ?? globalValidateFn) !== 'function') {
      const validate = argValidate !== undefined ? argValidate : globalValidate;
      if (validate === false || argValue === null || typeof argValue !== 'object') return argValue;
    }
    return checked(argValue, argType, resolverData, globalValidate, argValidate, globalValidateFn, argValidateFn);
  };
  installed = true;
}

/** type-graphql's argument check as resolvers call it (for tests). */
export const argumentCheck = (): ValidateArg => argModule().validateArg;

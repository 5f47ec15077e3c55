import { type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildAppSchema } from '../src/graphql/build-schema';
import { argumentCheck } from '../src/graphql/sync-args';
import { resolverBeforeGuard } from '../src/graphql/response-size';

describe('arguments of resolvers', () => {
  it('reach a resolver in the same turn when nothing validates them: no promise is made for them', () => {
    const schema = buildAppSchema();
    // a resolver whose only argument is a limit (nothing validates it) and that reads nothing of `info`
    const outputs = resolverBeforeGuard((schema.getType('Episode') as GraphQLObjectType).getFields().outputs.resolve)!;
    const answer = ['the loader answer'];
    const limits: unknown[] = [];
    const context = {
      loaders: {
        getFor: (_factory: unknown, args: { limit: number }) => {
          limits.push(args.limit);
          return { load: () => answer };
        },
      },
    };
    // the resolver's own value comes back as it is, not wrapped in a promise
    const value = outputs({ id: 'e1' }, { limit: 3 }, context, {} as GraphQLResolveInfo);
    expect(value).toBe(answer);
    expect(limits).toEqual([3]);
  });

  it('are still checked by type-graphql when a validation function applies', async () => {
    buildAppSchema();
    const check = argumentCheck();
    expect(check(5, Number, {}, false, undefined, undefined, undefined)).toBe(5);
    expect(check({ a: 1 }, Object, {}, false, undefined, undefined, undefined)).toEqual({ a: 1 });
    const seen: unknown[] = [];
    const validated = check({ a: 1 }, Object, {}, false, undefined, undefined, (v: unknown) => void seen.push(v));
    expect(validated).toBeInstanceOf(Promise);
    expect(await validated).toEqual({ a: 1 });
    expect(seen).toEqual([{ a: 1 }]);
    const refused = check({ a: 1 }, Object, {}, false, undefined, () => Promise.reject(new Error('no')), undefined);
    await expect(refused).rejects.toThrow('no');
  });
});

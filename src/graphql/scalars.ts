import { DateTimeResolver } from 'graphql-scalars';
import { GraphQLScalarType } from 'graphql';

/** ISO-8601 UTC timestamps. */
export const DateTimeScalar = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  description: 'A UTC date and time, ISO-8601 (e.g. `2026-11-22T10:00:00.000Z`).',
});

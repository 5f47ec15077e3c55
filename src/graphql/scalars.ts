import { DateTimeResolver } from 'graphql-scalars';
import { GraphQLScalarType } from 'graphql';

const dateTime = DateTimeResolver.toConfig();

/**
 * ISO-8601 UTC timestamps. Values are validated as graphql-scalars' DateTime validates them and
 * leave the executor as ISO strings rather than Date objects: the answer then holds only strings,
 * numbers and booleans, which JSON serialises without calling back into JavaScript for each
 * timestamp (a 20-episode page carries about 200 of them). The text on the wire is the same.
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...dateTime,
  description: 'A UTC date and time, ISO-8601 (e.g. `2026-11-22T10:00:00.000Z`).',
  serialize: (value) => dateTime.serialize(value).toISOString(),
});

import { DateTimeResolver } from 'graphql-scalars';
import { GraphQLScalarType } from 'graphql';
import { isIsoTime } from '../core/instant';

const dateTime = DateTimeResolver.toConfig();

/**
 * ISO-8601 UTC timestamps. Values are validated as graphql-scalars' DateTime validates them and
 * leave the executor as ISO strings rather than Date objects: the answer then holds only strings,
 * numbers and booleans, which JSON serialises without calling back into JavaScript for each
 * timestamp (a 20-episode page carries about 200 of them). A string already in that ISO form (a
 * timestamp a read kept as text, see `Instant`) is its own serialization and is answered as it is,
 * without a `Date` in between. The text on the wire is the same.
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...dateTime,
  description: 'A UTC date and time, ISO-8601 (e.g. `2026-11-22T10:00:00.000Z`).',
  serialize: (value) => (typeof value === 'string' && isIsoTime(value) ? value : dateTime.serialize(value).toISOString()),
});

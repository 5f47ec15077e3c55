import 'reflect-metadata';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildSchemaSync } from 'type-graphql';
import { resolvers } from '../modules';
import { authChecker } from './auth-checker';
import { guardResponseSize } from './response-size';
import { DateTimeScalar } from './scalars';
import { resolveArgumentsInTurn } from './sync-args';

let built: GraphQLSchema | undefined;

/** The executable schema, built once per process from the type-graphql classes. */
export function buildAppSchema(): GraphQLSchema {
  if (built) return built;
  resolveArgumentsInTurn();
  built = buildSchemaSync({
    resolvers,
    authChecker,
    authMode: 'error',
    validate: false,
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    // every subscription reads the event bus from its context (`subscribe` functions), so one schema
    // serves several server instances in a process; type-graphql still insists on a pubSub here
    pubSub: createPubSub(),
  });
  guardResponseSize(built);
  return built;
}

/** The schema as checked in at `schema.graphql` (sorted, so the file diffs cleanly). */
export const printAppSchema = (): string => printSchema(lexicographicSortSchema(buildAppSchema())) + '\n';

// Writes schema.graphql from the type-graphql classes (a test fails when the file drifts).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/db/paths';
import { printAppSchema } from '../src/graphql/build-schema';

writeFileSync(join(projectRoot, 'schema.graphql'), printAppSchema());
process.stdout.write('wrote schema.graphql\n');

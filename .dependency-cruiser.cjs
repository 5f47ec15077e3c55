// Import boundaries, checked by `npm run check:imports` (part of `npm run check` and of CI).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No file takes part in an import cycle of code (a cycle through type-only imports is erased at compile time).',
      from: { path: '^(src|bench|scripts)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'module-front-door',
      severity: 'error',
      comment: "A module's files are its own: other modules, the server and the benchmark use what its index.ts exports.",
      from: { path: '^(src|bench|scripts)/', pathNot: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.+', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'module-front-door-between-modules',
      severity: 'error',
      comment: "A module reaches another module only through that module's index.ts.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.+', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'shared-stays-below',
      severity: 'error',
      comment: 'The shared module holds vocabulary the domain modules use; it imports none of them.',
      from: { path: '^src/modules/shared/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/shared/' },
    },
    {
      name: 'no-upward-imports',
      severity: 'error',
      comment: 'Domain, core and database code do not depend on the HTTP or GraphQL server layers, except for types.',
      from: { path: '^src/(modules|core|db)/' },
      to: { path: '^src/(http|graphql|app\\.ts|main\\.ts)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-and-db-below-modules',
      severity: 'error',
      comment: 'core/ and db/ are below the domain modules.',
      from: { path: '^src/(core|db)/' },
      to: { path: '^src/modules/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(dist|test|dashboard|migrations)/' },
  },
};

/**
 * Layer rules from ../shared/DESIGN.md ("Layout"), checked by `npm run layers`.
 * Type-only imports count (tsPreCompilationDeps): a circle through types is still a circle.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type imports included: move what both sides need one layer down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'client-not-server',
      comment: 'The console talks to the service only over the wire; both import src/shared.',
      severity: 'error',
      // Exception: src/client/test/ is test support that starts the real local portal in a Node
      // process for the client tests (no hand-written mock of the service); it is never bundled.
      from: { path: '^src/client/', pathNot: '^src/client/test/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-not-client',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/client/' },
    },
    {
      name: 'shared-is-the-bottom',
      comment: 'src/shared is the wire contract and vocabulary of both halves: it imports neither.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(client|server)/' },
    },
    {
      name: 'client-api-only-shared',
      comment: 'client/api is the thin API module: no React, no UI, nothing above it.',
      severity: 'error',
      from: { path: '^src/client/api/' },
      to: { path: '^src/client/(lib|components|features|app)/' },
    },
    {
      name: 'client-lib-components-below-features',
      comment: 'Shared UI and lib are used by features, never the other way round.',
      severity: 'error',
      from: { path: '^src/client/(lib|components)/' },
      to: { path: '^src/client/(features|app)/' },
    },
    {
      name: 'client-features-below-app',
      severity: 'error',
      from: { path: '^src/client/features/' },
      to: { path: '^src/client/app/' },
    },
    {
      name: 'client-features-independent',
      comment: 'A feature never imports another feature; app composes them, shared parts go to components or lib.',
      severity: 'error',
      from: { path: '^src/client/features/([^/]+)/' },
      to: { path: '^src/client/features/', pathNot: '^src/client/features/$1/' },
    },
    {
      name: 'server-store-is-the-bottom',
      comment: 'store (Db interface, adapters, migrations, blobs, outbox) knows no area, route or job.',
      severity: 'error',
      // Tests of the store may start the whole app to check a restart end to end.
      from: { path: '^src/server/store/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/server/(areas|http|jobs|seed|app\\.ts|main\\.ts)' },
    },
    {
      name: 'server-repo-below-service',
      // http/search-query.ts (the search `q` language and its compiler to SQL conditions) is used by
      // the repos that search; it is not request handling, so repo → http/search-query is allowed.
      comment: 'A repository (repo.ts, or a file of a repo/ folder) is SQL only: it does not call services or routes.',
      severity: 'error',
      from: { path: '^src/server/areas/[^/]+/repo(\\.ts$|/)' },
      to: { path: '^src/server/(areas/[^/]+/(service|routes)\\.ts$|http/(?!search-query\\.ts$))' },
    },
    {
      name: 'server-service-below-routes',
      comment: 'Services hold the rules; routes decode requests and call them, never the reverse.',
      severity: 'error',
      from: { path: '^src/server/areas/[^/]+/service\\.ts$' },
      to: { path: '^src/server/areas/[^/]+/routes\\.ts$' },
    },
    {
      name: 'server-routes-through-service',
      // Routes declare operations and decode requests; what they read or change goes through the
      // area's service, the area's one surface (a list read is often the repository's function,
      // re-exported there). Row types may still be imported from the repository.
      comment: "An area's routes call its service, not its repository.",
      severity: 'error',
      from: { path: '^src/server/areas/([^/]+)/routes\\.ts$' },
      to: { path: '^src/server/areas/$1/repo(\\.ts$|/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-areas-not-jobs',
      // A request that queues work raises a signal (core/signals.ts); the runner listening in jobs/
      // picks it up. Tests may drive a runner directly.
      comment: 'Areas do not import jobs: jobs are runners that call areas, never the reverse.',
      severity: 'error',
      from: { path: '^src/server/areas/', pathNot: '\\.test(-support)?\\.tsx?$' },
      to: { path: '^src/server/jobs/' },
    },
    {
      name: 'server-jobs-through-services',
      // A runner decides when work runs; what the work does to an area's rows is that area's
      // service's to say.
      comment: 'Jobs call an area through its service.ts (types aside), never its repository or internals.',
      severity: 'error',
      from: { path: '^src/server/jobs/', pathNot: '\\.test(-support)?\\.tsx?$' },
      to: {
        path: '^src/server/areas/[^/]+/(?!service\\.ts$)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'server-http-no-areas',
      // Request handling (auth, CORS, the operation wrapper) sits below the areas: what it needs of
      // one (the allowed origins) the app hands it. Type-only imports of row shapes are allowed;
      // they vanish at run time.
      comment: 'http/ imports no area: the app wires areas into it.',
      severity: 'error',
      from: { path: '^src/server/http/', pathNot: '\\.test(-support)?\\.tsx?$' },
      to: { path: '^src/server/areas/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-core-is-below-areas',
      comment: 'core/ holds what every area shares; it imports no area, route, job or http module.',
      severity: 'error',
      from: { path: '^src/server/core/' },
      to: { path: '^src/server/(areas|http|jobs|seed|app\\.ts|main\\.ts)' },
    },
    {
      name: 'server-areas-through-services',
      // An area's service.ts is its one public surface: what other areas use of it (often the repo
      // function or a helper module's function itself, re-exported) it exports, so the owning area
      // decides what it offers. Where going through a service would close a circle, the shared piece
      // moves down a layer (a pure helper to core/ or http/: core/passwords.ts, http/sendFile.ts) or
      // into a module of its own that the service re-exports and that does not import the service
      // (items/orgVerification.ts, groups/visible.ts). Type-only imports (row shapes, option types)
      // are allowed: they vanish at run time and call nothing. Tests may seed another area's rows.
      comment: 'An area imports another area only through its service.ts (types aside), never its repo, routes or internals.',
      severity: 'error',
      from: { path: '^src/server/areas/([^/]+)/', pathNot: '\\.test\\.tsx?$' },
      to: {
        path: '^src/server/areas/[^/]+/',
        pathNot: '^src/server/areas/($1/|[^/]+/service\\.ts$)',
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};

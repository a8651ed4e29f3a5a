/**
 * The walls between the parts of src/ (docs/architecture.md, "Architecture in one picture"), checked by
 * dependency-cruiser on every `npm test` (npm run test:layers). One named rule per wall; the
 * name is what a violation reports, and tests/unit/layers.test.ts proves each one can fail.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-not-node',
      comment:
        'src/domain runs in the browser as well as on the server: a Node built-in (node:fs, path, ...) would break the client bundle.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-not-react-or-dom',
      comment:
        'src/domain is plain logic shared by browser and server: React, React Router, rjsf or a DOM library belong to src/client.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '(^|/)node_modules/(react|react-dom|react-router|react-router-dom|@rjsf/[^/]+|jsdom|@testing-library/[^/]+)/' },
    },
    {
      name: 'domain-only-domain',
      comment: 'src/domain is what client and server share, so it cannot lean on either of them (or on the CLI).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(client|server|cli)/' },
    },
    {
      name: 'client-not-server',
      comment:
        'The browser bundle must not pull in server code (secrets, the database, Node); what both need goes to src/domain.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-not-client',
      comment: 'The server does not run React screens; what both need goes to src/domain.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/client/' },
    },
    {
      name: 'cli-is-entry-only',
      comment:
        'src/cli holds entry points (npm run operator, seed, flows:check, ...): logic they share lives in src/server or src/domain, so nothing but src/cli imports them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'runtime-not-screens',
      comment:
        'The flow runtime (src/client/runtime) is generic: main.tsx hands it the screen registry (FlowRouter screens prop), so it never imports a concrete screen.',
      severity: 'error',
      from: { path: '^src/client/runtime/' },
      to: { path: '^src/client/screens/' },
    },
    {
      name: 'flow-tools-apart',
      comment:
        'src/flow-tools (the flow lint, the diagram, the statechart analysis) are build and start-up tools: the browser bundle and the shared domain code never carry them.',
      severity: 'error',
      from: { path: '^src/(client|domain)/' },
      to: { path: '^src/flow-tools/' },
    },
    {
      name: 'server-flow-tools-at-start-check',
      comment:
        'The server runs the flow lint only in its start-up and build check of the product files (src/server/flows/); no route, plugin or form handler reaches into the flow tools.',
      severity: 'error',
      from: { path: '^src/server/', pathNot: '^src/server/flows/' },
      to: { path: '^src/flow-tools/' },
    },
    {
      name: 'flow-tools-only-domain',
      comment:
        'The flow tools read a flow the way the runtime does, through src/domain; they never lean on the client, the server or the CLI (the CLI and src/server/flows call them).',
      severity: 'error',
      from: { path: '^src/flow-tools/' },
      to: { path: '^src/(client|server|cli)/' },
    },
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one in all but name: neither can be understood, tested or moved alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment:
        'An import the checker cannot resolve is an edge it cannot check: fail rather than pass silently.',
      severity: 'error',
      from: {},
      // Vite's asset suffixes (pica/pica_worker?url) are not modules and are exempt.
      to: { couldNotResolve: true, pathNot: '[?](url|raw|worker|inline)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a domain type that names a server module still ties the two.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      // Resolve packages by their "exports" as Vite and Node do (dependency-cruiser's default
      // ignores them, and @rjsf/* and pica/pica_main only resolve through them).
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.json'],
    },
    cache: false,
  },
};

// The import rules of src/ (docs/architecture.md, "Layers"), checked by `npm run check` with
// dependency-cruiser. `.dependency-cruiser-known-violations.json` lists the arrows that broke them
// when the check came in (issue 26 removes them); anything new fails.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import cycle: move what both sides share to a module both import, or pass it in.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'foundations-stay-below',
      comment:
        'template, graph, store, resources, openstack, auth, config, util, client and the sandbox never import the engine, the views, the API or the CLI.',
      severity: 'error',
      from: { path: '^src/(template|graph|store|resources|openstack|auth|config|util|client|sandbox)/' },
      to: { path: '^src/(engine|views|api|cli)/' },
    },
    {
      name: 'resources-not-store',
      comment: 'Resource types reach state only through the plugin context the engine gives them.',
      severity: 'error',
      from: { path: '^src/resources/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'engine-not-frontends',
      comment: 'The engine knows nothing of the views, the API or the CLI.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/(views|api|cli)/' },
    },
    {
      name: 'views-below-frontends',
      comment: "Heat's JSON shapes (src/views/) serve the API and the CLI alike and import neither.",
      severity: 'error',
      from: { path: '^src/views/' },
      to: { path: '^src/(api|cli)/' },
    },
    {
      name: 'api-not-cli',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'cli-api-entry-points-only',
      comment:
        'The CLI starts the API server (hearth serve) and nothing else of it; views both print live in a module both import.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/api/', pathNot: '^src/api/(server|authenticator|credentials|logging)[.]ts$' },
    },
    {
      name: 'store-backends-behind-contract',
      comment: 'Only the store opens a backend; everything else uses the contract (src/store/contract.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/(sqlite|postgres)/' },
    },
    // The engine's own layers (src/engine/*/): see docs/architecture.md.
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|bench|scripts|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a cycle of types is still a cycle a reader has to untangle.
    tsPreCompilationDeps: true,
  },
};

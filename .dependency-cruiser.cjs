// The import rules of src/ (the layer pictures of docs/architecture.md), checked by `npm run check` with
// dependency-cruiser (`npm run check:imports`): any cycle or arrow against the layers fails it.
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
        'template, graph, store, resources, software, openstack, auth, config, util, client and the sandbox never import the engine, the views, the API or the CLI.',
      severity: 'error',
      from: {
        path: '^src/(template|graph|store|resources|software|openstack|auth|config|util|client|sandbox)/',
      },
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
    // Bottom to top: core, runtime and context, nodes, legacy, operations, reality; engine.ts and
    // work-kinds.ts wire them. Each folder may import those below it only.
    {
      name: 'engine-core-alone',
      comment:
        'The traversal core (plan, sync points, propagation, finishing) knows nothing of what runs on it.',
      severity: 'error',
      from: { path: '^src/engine/core/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/core/' },
    },
    {
      name: 'engine-runtime-knows-no-meaning',
      comment:
        'The worker runs the unit kinds it is given (work-kinds.ts): it imports no node, operation or context.',
      severity: 'error',
      from: { path: '^src/engine/runtime/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/(core|runtime)/' },
    },
    {
      name: 'engine-context-below-nodes',
      comment: 'What a unit of work sees (scope, inputs, outputs, plugin context) uses the core only.',
      severity: 'error',
      from: { path: '^src/engine/context/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/(core|context)/' },
    },
    {
      name: 'engine-nodes-below-operations',
      comment:
        'A node reconciles one resource: it never starts an operation, walks legacy stacks or observes.',
      severity: 'error',
      from: { path: '^src/engine/nodes/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/(core|context|nodes)/' },
    },
    {
      name: 'engine-legacy-below-operations',
      severity: 'error',
      from: { path: '^src/engine/legacy/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/(core|runtime|context|nodes|legacy)/' },
    },
    {
      name: 'engine-operations-below-reality',
      comment: 'Operations start traversals; the observer (reality/) starts operations, not the other way.',
      severity: 'error',
      from: { path: '^src/engine/operations/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/(core|context|nodes|legacy|operations)/' },
    },
    {
      name: 'engine-reality-on-operations',
      severity: 'error',
      from: { path: '^src/engine/reality/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/(core|context|nodes|operations|reality)/' },
    },
    {
      name: 'engine-facade-on-top',
      comment: 'engine.ts and work-kinds.ts wire the layers together: no layer imports them.',
      severity: 'error',
      from: { path: '^src/engine/[^/]+/' },
      to: { path: '^src/engine/[^/]+[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|bench|scripts|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a cycle of types is still a cycle a reader has to untangle.
    tsPreCompilationDeps: true,
  },
};

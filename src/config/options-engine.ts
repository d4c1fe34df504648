import { availableParallelism } from 'node:os';
import type { OptionTable } from './config.js';

/** Heat's engine options, under Heat's names (heat.conf's `[DEFAULT]`). */
export const ENGINE_OPTIONS = {
  action_retry_limit: {
    type: 'int',
    default: 5,
    min: 0,
    help: 'Times to retry bringing a resource to a non-error state; 0 disables retries.',
    heat: { name: 'action_retry_limit', default: '5' },
  },
  client_retry_limit: {
    type: 'int',
    default: 2,
    min: 0,
    help: 'Times to retry when a client meets an expected intermittent error; 0 disables retries.',
    heat: { name: 'client_retry_limit', default: '2' },
  },
  max_resources_per_stack: {
    type: 'int',
    default: 1_000_000,
    min: -1,
    help: 'Most resources allowed in one top-level stack, nested stacks included; -1 means unlimited.',
    heat: {
      name: 'max_resources_per_stack',
      default: '1000',
      note: 'Hearth is built for million-resource stacks, so its default is 1000000.',
    },
  },
  max_nested_stack_depth: {
    type: 'int',
    default: 5,
    min: 0,
    help: 'Deepest chain of nested stacks (template resources and OS::Heat::Stack).',
    heat: { name: 'max_nested_stack_depth', default: '5' },
  },
  max_template_size: {
    type: 'int',
    default: 524_288,
    min: 1,
    unit: 'bytes',
    help: 'Largest template or environment document, in bytes.',
    heat: {
      name: 'max_template_size',
      default: '524288',
      note: 'Raise it (and max_json_body_size) for very large stacks: a million-resource template is about 100 MB.',
    },
  },
  max_json_body_size: {
    type: 'int',
    default: 1_048_576,
    min: 1,
    unit: 'bytes',
    help: 'Largest API request body, in bytes; should be larger than max_template_size.',
    heat: { name: 'max_json_body_size', default: '1048576' },
  },
  max_json_body_depth: {
    type: 'int',
    default: 128,
    min: 1,
    help: 'Deepest nesting of maps and lists in an API request body (the template, environment and parameters it carries included).',
    heat: null,
  },
  max_events_per_stack: {
    type: 'int',
    default: 1000,
    min: 0,
    help: 'Rough number of events kept per stack (older ones are purged); 0 means unlimited.',
    heat: { name: 'max_events_per_stack', default: '1000' },
  },
  event_purge_batch_size: {
    type: 'int',
    default: 200,
    min: 1,
    help: "How many events are removed whenever a stack's events are purged.",
    heat: { name: 'event_purge_batch_size', default: '200' },
  },
  stack_action_timeout: {
    type: 'int',
    default: 3600,
    min: 1,
    unit: 'seconds',
    help: 'Timeout of a stack action (create, update, delete, ...) when the request gives none, in seconds.',
    heat: { name: 'stack_action_timeout', default: '3600' },
  },
  convergence_engine: {
    type: 'bool',
    default: true,
    help: 'Create new stacks with the convergence engine; false creates them in legacy mode.',
    heat: {
      name: 'convergence_engine',
      default: 'true',
      note: 'Deprecated in Heat, together with its legacy engine.',
    },
  },
  observe_on_update: {
    type: 'bool',
    default: false,
    help: "On update, read resources' live properties and converge them to the updated template.",
    heat: { name: 'observe_on_update', default: 'false' },
  },
  convergence_migrate_on_update: {
    type: 'bool',
    default: false,
    help: 'Migrate a legacy stack to the convergence engine when it is next updated.',
    heat: {
      name: 'heat-manage migrate_convergence_1',
      note: 'A command, not an option: Heat migrates one stack at a time, by hand.',
    },
  },
  num_engine_workers: {
    type: 'int',
    default: () => Math.max(4, availableParallelism()),
    defaultText: 'the larger of 4 and the number of CPUs',
    min: 1,
    help: 'Number of engine workers to run.',
    heat: { name: 'num_engine_workers', default: 'the larger of 4 and the number of CPUs' },
  },
  periodic_interval: {
    type: 'int',
    default: 60,
    min: 1,
    unit: 'seconds',
    help: 'Seconds between runs of periodic tasks (e.g. the observer, purges).',
    heat: { name: 'periodic_interval', default: '60' },
  },
  engine_life_check_timeout: {
    type: 'int',
    default: 2,
    min: 1,
    unit: 'seconds',
    help: 'Seconds allowed for the liveness check of an engine that holds a stack lock.',
    heat: {
      name: 'engine_life_check_timeout',
      default: '2',
      note: 'Heat times out an RPC call; Hearth checks the engine heartbeat in the store.',
    },
  },
  enable_stack_adopt: {
    type: 'bool',
    default: false,
    help: 'Allow `stack adopt`: a stack made from an abandon document, its physical resources taken over as they are (each adopted id checked to be the adopting project’s own).',
    heat: {
      name: 'enable_stack_adopt',
      default: 'false',
    },
  },
} satisfies OptionTable;

import type { ResourceDrift, StackDrift } from '../engine/reality/drift.js';
import type { Engine } from '../engine/engine.js';
import type { StackRecord } from '../store/contract.js';
import type { Json, JsonObject } from '../util/json.js';
import { redactJson, redactorFor } from './redact.js';
import { heatTime } from './time.js';

/**
 * A stack's drift results as the API answers them (Hearth's own resource: Heat has none), with
 * Heat's field names where they exist. Hidden parameters' values are masked wherever they show
 * (a property computed from one), on top of the secret-named properties the engine masks.
 */
export async function driftJSON(engine: Engine, stack: StackRecord, drift: StackDrift): Promise<JsonObject> {
  const document: JsonObject = {
    stack_id: drift.stackId,
    stack_name: drift.stackName,
    detected_time: heatTime(drift.summary.detectedAt),
    summary: { ...drift.summary.counts },
    resources: drift.resources.map(resourceJSON),
  };
  return redactJson(document, await redactorFor(engine, stack)) as JsonObject;
}

function resourceJSON(r: ResourceDrift): JsonObject {
  return {
    resource_name: r.resourceName,
    resource_type: r.resourceType,
    physical_resource_id: r.physicalId ?? '',
    stack_id: r.stackId,
    stack_name: r.stackName,
    drift_status: r.status,
    property_diff: r.diff.map((d) => ({ property: d.name, expected: d.expected, actual: d.actual }) as Json),
    drift_status_reason: r.reason ?? '',
    detected_time: heatTime(r.detectedAt),
  };
}

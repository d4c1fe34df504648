import type { HeatDrift } from '../../client/types.js';
import type { DriftInfo } from '../backend.js';

/** The API's drift document in the CLI's terms (the embedded engine renders the same document). */
export function driftInfo(drift: HeatDrift): DriftInfo {
  return {
    stackName: drift.stack_name,
    detectedTime: drift.detected_time,
    counts: drift.summary,
    resources: drift.resources.map((r) => ({
      name: r.resource_name,
      stackName: r.stack_name,
      type: r.resource_type,
      physicalId: r.physical_resource_id,
      status: r.drift_status,
      diff: r.property_diff,
      reason: r.drift_status_reason,
      detectedTime: r.detected_time,
    })),
  };
}

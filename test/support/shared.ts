import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The shared material beside the repository (the template corpus, a real Heat's API samples):
 * HEARTH_SHARED when set, else `../shared` next to the checkout, else /work/shared (a clone made
 * elsewhere, e.g. a clean-checkout check in /tmp). Tests that need it fail when it is absent: a
 * corpus test that skipped itself silently once hid 91 tests from a clean-checkout run.
 */
function locate(): string {
  const candidates = [
    process.env.HEARTH_SHARED,
    resolve(import.meta.dirname, '../../../shared'),
    '/work/shared',
  ].filter((c): c is string => c !== undefined && c !== '');
  for (const dir of candidates) {
    try {
      if (statSync(dir).isDirectory()) return dir;
    } catch {
      // next candidate
    }
  }
  throw new Error(`the shared folder is absent (tried ${candidates.join(', ')}); set HEARTH_SHARED`);
}

export const SHARED = locate();
export const CORPUS = resolve(SHARED, 'corpus/heat-templates');
export const API_SAMPLES = resolve(SHARED, 'heat-api-samples');

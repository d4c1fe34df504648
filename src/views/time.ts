/** Heat's timestamps: ISO 8601 in UTC to the second, `Z`-suffixed. */
export function heatTime(iso: string | null): string | null {
  if (iso === null) return null;
  return `${iso.slice(0, 19)}Z`;
}

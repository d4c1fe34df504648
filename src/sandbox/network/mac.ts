/**
 * MAC addresses as Neutron takes them (neutron-lib's validate_mac_address: netaddr's EUI-48
 * spellings, except all zeros and the broadcast address). Neutron keeps the spelling it was
 * given, so the sandbox stores the text as sent and compares the 48-bit values.
 */

const HEX = '[0-9A-Fa-f]';
const groups = (size: string, count: number, sep: string) =>
  new RegExp(`^${Array.from({ length: count }, () => `(${HEX}{${size}})`).join(sep)}$`);

/** netaddr's EUI-48 formats: each group's digits, and how many bits a group holds. */
const FORMATS: readonly { re: RegExp; bits: number }[] = [
  { re: groups('1,2', 6, ':'), bits: 8 },
  { re: groups('1,2', 6, '-'), bits: 8 },
  { re: groups('1,4', 3, ':'), bits: 16 },
  { re: groups('1,4', 3, '-'), bits: 16 },
  { re: groups('1,4', 3, '\\.'), bits: 16 },
  { re: groups('5,6', 2, '-'), bits: 24 },
  { re: groups('5,6', 2, ':'), bits: 24 },
  { re: new RegExp(`^(${HEX}{11,12})$`), bits: 48 },
];

const INVALID = new Set([0n, 0xffffffffffffn]);

/** The address's 48-bit value, or undefined when Neutron would refuse it. */
export function macValue(text: string): bigint | undefined {
  for (const { re, bits } of FORMATS) {
    const m = re.exec(text);
    if (!m) continue;
    let value = 0n;
    for (const group of m.slice(1)) value = (value << BigInt(bits)) | BigInt(`0x${group}`);
    return INVALID.has(value) ? undefined : value;
  }
  return undefined;
}

import { timingSafeEqual } from 'node:crypto';

/**
 * What signal tokens and agent credentials share: `<prefix><payload>.<signature>`, the payload a
 * base64url JSON array of strings, the signature an HMAC of it with the deployment key.
 */

/** The payload of a token whose signature is `sign(payload)` (compared in constant time), else undefined. */
export function signedPayload(
  token: string,
  prefix: string,
  sign: (payload: string) => string,
): string | undefined {
  if (!token.startsWith(prefix)) return undefined;
  const [payload, signature, extra] = token.slice(prefix.length).split('.');
  if (payload === undefined || signature === undefined || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : undefined;
}

/** The payload for `parts`. */
export function encodePayload(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The `length` strings a payload holds, or undefined when it holds anything else. */
export function decodePayload(payload: string, length: number): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== length || parsed.some((p) => typeof p !== 'string'))
      return undefined;
    return parsed as string[];
  } catch {
    return undefined;
  }
}

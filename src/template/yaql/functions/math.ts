import { type Call, define, type FunctionDef } from './types.js';

/**
 * yaql's math functions beyond the operators: Python's round(), pow(), bitwise operations on
 * integers, sign() and random(). Integers are JavaScript numbers, so bitwise results and powers
 * must stay within 2^53 to be exact (and within the double range at all).
 */

function exactInt(c: Call, result: bigint): number {
  const n = Number(result);
  if (!Number.isSafeInteger(n)) return c.fail(`the result ${result} is too large for an exact integer`);
  return n;
}

function bitwise(op: (a: bigint, b: bigint) => bigint) {
  return (c: Call): number => exactInt(c, op(BigInt(c.int(0)), BigInt(c.int(1))));
}

function shift(left: boolean) {
  return (c: Call): number => {
    const value = BigInt(c.int(0));
    const bits = c.int(1);
    if (bits < 0) return c.fail('negative shift count');
    if (!left) return exactInt(c, value >> BigInt(Math.min(bits, 64)));
    if (bits > 64 && value !== 0n) return c.fail('the result is too large for an exact integer');
    return exactInt(c, value << BigInt(bits));
  };
}

/** Python's round(): ties go to the even digit, decided on the number's exact binary value. */
function round(c: Call): number {
  const number = c.number(0);
  const digits = c.intOr(1, 0);
  if (!Number.isFinite(number)) return c.fail(`cannot round ${number}`);
  if (digits < 0) {
    const scale = 10 ** -digits;
    if (!Number.isFinite(scale)) return 0;
    return roundHalfEven(number / scale) * scale;
  }
  if (Number.isInteger(number) || digits > 100 || Math.abs(number) >= 1e21) return number;
  // toFixed(100) writes the double's exact decimal expansion (for numbers this size it ends well
  // before 100 digits), so a true tie is a 5 followed by zeros only.
  const exact = Math.abs(number).toFixed(100);
  const cut = exact.indexOf('.') + 1 + digits;
  const tie = exact[cut] === '5' && /^0*$/.test(exact.slice(cut + 1));
  if (!tie) return Number(number.toFixed(digits)) + 0;
  const kept = exact.slice(0, cut).replace(/\.$/, '');
  const lastDigit = Number(kept[kept.length - 1]);
  const magnitude = lastDigit % 2 === 0 ? Number(kept) : Number(kept) + 10 ** -digits;
  const rounded = Number(magnitude.toFixed(digits));
  return (number < 0 ? -rounded : rounded) + 0;
}

function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** pow(a, b, c => null): Python's pow, exact for integers, modular when c is given. */
function pow(c: Call): number {
  const base = c.number(0);
  const exponent = c.number(1);
  const modulo = c.value(2);
  if (modulo !== null) {
    const m = c.int(2);
    if (!Number.isInteger(base) || !Number.isInteger(exponent)) {
      return c.fail('3-argument pow() needs integers');
    }
    if (m === 0) return c.fail('pow() 3rd argument cannot be 0');
    if (exponent < 0) return c.fail('a negative exponent with a modulo is not supported');
    return exactInt(c, modPow(BigInt(base), BigInt(exponent), BigInt(m)));
  }
  if (base === 0 && exponent < 0) return c.fail('0.0 cannot be raised to a negative power');
  if (base < 0 && !Number.isInteger(exponent)) {
    return c.fail('a negative number to a fractional power is a complex number');
  }
  if (Number.isInteger(base) && Number.isInteger(exponent) && exponent >= 0) {
    // Beyond 2^53 the answer cannot be exact anyway; BigInt keeps the exact range exact.
    if (Math.abs(base) <= 1 || exponent * Math.log2(Math.abs(base)) < 53) {
      return Number(BigInt(base) ** BigInt(exponent));
    }
  }
  const result = base ** exponent;
  if (!Number.isFinite(result)) return c.fail('the result is too large');
  return result;
}

function modPow(base: bigint, exponent: bigint, m: bigint): bigint {
  const positive = m < 0n ? -m : m;
  let result = 1n % positive;
  let b = ((base % positive) + positive) % positive;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % positive;
    b = (b * b) % positive;
    e >>= 1n;
  }
  // Python gives the result the modulo's sign.
  return m < 0n && result !== 0n ? result + m : result;
}

/** random() in [0, 1), or random(from, to) an integer in [from, to]; a new value every evaluation. */
function random(c: Call): number {
  if (!c.has(0)) return Math.random();
  if (!c.has(1)) return c.fail('takes no arguments, or from and to');
  const from = c.int(0);
  const to = c.int(1);
  if (to < from) return c.fail('empty range for random(from, to)');
  return from + Math.floor(Math.random() * (to - from + 1));
}

export const MATH_FUNCTIONS: readonly FunctionDef[] = [
  define(
    'bitwiseAnd',
    ['left', 'right'],
    bitwise((a, b) => a & b),
  ),
  define(
    'bitwiseOr',
    ['left', 'right'],
    bitwise((a, b) => a | b),
  ),
  define(
    'bitwiseXor',
    ['left', 'right'],
    bitwise((a, b) => a ^ b),
  ),
  define('bitwiseNot', ['arg'], (c) => exactInt(c, ~BigInt(c.int(0)))),
  define('shiftBitsLeft', ['value', 'bitsNumber'], shift(true)),
  define('shiftBitsRight', ['value', 'bitsNumber'], shift(false)),
  define('pow', ['a', 'b', 'c?'], pow),
  define('round', ['number', 'ndigits?'], round),
  define('sign', ['num'], (c) => Math.sign(c.number(0)) + 0),
  define('random', ['from?', 'to?'], random),
];

import { jsonEqual } from '../../util/json.js';
import { type DocPath, TemplateError } from '../../template/errors.js';
import { containsUnknown, type Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { type PluginContext, ResourceFailure } from '../contract.js';
import { physicalResourceName } from './physical-name.js';
import { rowReality } from './row-reality.js';

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();

/** Heat's named character classes (heat.common.password_gen). */
const CHARACTER_CLASSES: Readonly<Record<string, string>> = {
  lettersdigits: LOWER + UPPER + DIGITS,
  letters: LOWER + UPPER,
  lowercase: LOWER,
  uppercase: UPPER,
  digits: DIGITS,
  hexdigits: `${DIGITS}ABCDEF`,
  octdigits: '01234567',
};
const CLASS_NAMES = Object.keys(CHARACTER_CLASSES);

const DEFAULT_CLASSES = [{ class: 'lettersdigits', min: 1 }];

/** A set of characters and how many of them, at least, the string must contain. */
export interface CharClass {
  chars: readonly string[];
  min: number;
}

/** A random index below `n` from a source of numbers in [0, 1). */
function pick(random: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/**
 * Heat's generate_password: `min` characters from each class in turn, the rest from the union of
 * all classes, then shuffled. The caller guarantees the minimums fit in `length` and that every
 * class with a minimum has characters.
 */
export function generateString(length: number, classes: readonly CharClass[], random: () => number): string {
  const chosen: string[] = [];
  const all = new Set<string>();
  for (const c of classes) {
    for (const ch of c.chars) all.add(ch);
    for (let i = 0; i < c.min; i++) chosen.push(c.chars[pick(random, c.chars.length)]!);
  }
  const union = [...all].sort();
  while (chosen.length < length) chosen.push(union[pick(random, union.length)]!);
  // Fisher-Yates, as random.sample(selected, length) shuffles.
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = pick(random, i + 1);
    [chosen[i], chosen[j]] = [chosen[j]!, chosen[i]!];
  }
  return chosen.slice(0, length).join('');
}

type Entry = Record<string, Value>;

function entries(value: Value | undefined): Entry[] {
  return Array.isArray(value) ? (value.filter((e) => e !== null && typeof e === 'object') as Entry[]) : [];
}

/**
 * The character classes the properties ask for: the sequences first, then the named classes.
 * The hidden `sequence` property (deprecated) becomes one more named class with min 1, as Heat's
 * translation rule does; given alongside the default `character_classes`, it replaces them (the
 * default cannot be told apart from the same value written out).
 */
export function charClasses(properties: Record<string, Value>): CharClass[] {
  let named = entries(properties.character_classes);
  const sequence = properties.sequence;
  if (typeof sequence === 'string') {
    if (jsonEqual(properties.character_classes, DEFAULT_CLASSES)) named = [];
    named = [...named, { class: sequence, min: 1 }];
  }
  const out: CharClass[] = [];
  for (const s of entries(properties.character_sequences)) {
    out.push({ chars: [...new Set(String(s.sequence ?? ''))].sort(), min: Number(s.min ?? 1) });
  }
  for (const c of named) {
    const members = CHARACTER_CLASSES[String(c.class ?? 'lettersdigits')] ?? '';
    out.push({ chars: [...members], min: Number(c.min ?? 1) });
  }
  return out;
}

/** Why these properties cannot produce a string, or undefined when they can. */
function problem(properties: Record<string, Value>): string | undefined {
  const length = Number(properties.length ?? 32);
  const classes = charClasses(properties);
  const minimum = classes.reduce((sum, c) => sum + c.min, 0);
  if (minimum > length) {
    return 'Length property cannot be smaller than combined character class and character sequence minimums';
  }
  if (classes.some((c) => c.min > 0 && c.chars.length === 0)) return 'A character sequence cannot be empty';
  if (classes.every((c) => c.chars.length === 0)) return 'No characters to generate the random string from';
  return undefined;
}

/**
 * OS::Heat::RandomString: a random string (a password, a secret) of `length` characters from the
 * given classes and sequences, honouring each one's minimum count. No property updates in place,
 * so any change (typically `salt`) replaces the resource with a freshly generated string. The
 * string is kept in the resource's data: it is the `value` attribute and the reference id, stable
 * across retries and reloads.
 */
export const randomStringPlugin: CatalogPlugin = {
  type: 'OS::Heat::RandomString',
  inRow: true,
  description:
    'A resource which generates a random string. This is useful for configuring passwords and ' +
    'secrets on services. Random string can be generated from specified character sequences, ' +
    'which means that all characters will be randomly chosen from specified sequences, or with ' +
    'some classes, e.g. letterdigits, which means that all character will be randomly chosen from ' +
    "union of ascii letters and digits. Output string will be randomly generated string with specified length (or with length of 32, if length property doesn't specified).",
  supportStatus: { version: '2014.1' },
  properties: {
    length: P.integer({
      description: 'Length of the string to generate.',
      default: 32,
      constraints: [C.range({ min: 1, max: 512 })],
    }),
    sequence: P.string({
      description: 'Sequence of characters to build the random string from.',
      constraints: [C.allowedValues(CLASS_NAMES)],
      supportStatus: {
        status: 'HIDDEN',
        version: '5.0.0',
        previousStatus: {
          status: 'DEPRECATED',
          message: 'Use property character_classes.',
          version: '2014.2',
        },
      },
    }),
    character_classes: P.list({
      description: 'A list of character class and their constraints to generate the random string from.',
      items: P.map({
        schema: {
          class: P.string({
            description:
              'A character class and its corresponding min constraint to generate the random string from.',
            constraints: [C.allowedValues(CLASS_NAMES)],
            default: 'lettersdigits',
          }),
          min: P.integer({
            description:
              'The minimum number of characters from this character class that will be in the generated string.',
            default: 1,
            constraints: [C.range({ min: 1, max: 512 })],
          }),
        },
      }),
      default: DEFAULT_CLASSES,
    }),
    character_sequences: P.list({
      description: 'A list of character sequences and their constraints to generate the random string from.',
      items: P.map({
        schema: {
          sequence: P.string({
            description:
              'A character sequence and its corresponding min constraint to generate the random string from.',
            required: true,
          }),
          min: P.integer({
            description:
              'The minimum number of characters from this sequence that will be in the generated string.',
            default: 1,
            constraints: [C.range({ min: 1, max: 512 })],
          }),
        },
      }),
    }),
    salt: P.string({
      description:
        'Value which can be set or changed on stack update to trigger the resource for replacement ' +
        'with a new random string. The salt value itself is ignored by the random generator.',
    }),
  },
  attributes: {
    value: attr(
      'The random string generated by this resource. This value is also available by referencing the resource.',
      'string',
    ),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    // Whether the minimums fit is known only once every part they depend on is.
    const { length, sequence, character_classes, character_sequences } = properties;
    if (containsUnknown([length, sequence, character_classes, character_sequences].map((v) => v ?? null))) {
      return;
    }
    const why = problem(properties);
    if (why !== undefined) throw new TemplateError('property', why, path);
  },

  async create(ctx: PluginContext, properties: Record<string, Value>) {
    // A retried create keeps the string an earlier attempt stored.
    const kept = ctx.data.value;
    let value: string;
    if (typeof kept === 'string') {
      value = kept;
    } else {
      const why = problem(properties);
      if (why !== undefined) throw new ResourceFailure(why);
      value = generateString(Number(properties.length ?? 32), charClasses(properties), () => ctx.random());
    }
    return { physicalId: physicalResourceName(ctx), data: { value } };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute(ctx: PluginContext, name: string) {
    const value = ctx.data.value;
    return name === 'value' && typeof value === 'string' ? value : null;
  },

  referenceId(ctx: PluginContext): string | null {
    if (ctx.physicalId === null) return ctx.resourceName;
    const value = ctx.data.value;
    return typeof value === 'string' ? value : null;
  },
};

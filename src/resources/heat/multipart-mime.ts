import type { Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import { isPlainObject } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import type { PluginContext } from '../contract.js';
import { type MimePart, multipartMessage, parseMultipart } from './mime-message.js';
import { uuidFrom } from './physical-name.js';
import { dropConfig, storeConfig } from './software-config.js';
import { rowReality } from './row-reality.js';

/** Only a UUID-shaped part is looked up as a config id (Heat's is_uuid_like); anything else is text. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Heat's os.path.splitext(name)[0]: the name without its last extension (a leading dot is kept). */
function withoutExtension(name: string): string {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  if (dot <= slash) return name;
  const base = name.slice(slash + 1, dot);
  return /[^.]/.test(base) ? name.slice(0, dot) : name;
}

/** A part's content: the config of the config it names by id, else the text as given. */
async function contentOf(ctx: PluginContext, config: string): Promise<string> {
  if (!UUID.test(config)) return config;
  // An id no config has is text, as Heat ignores a config that is not found.
  const found = await ctx.softwareConfig(config.toLowerCase());
  if (!found) return config;
  return typeof found.config === 'string' ? found.config : JSON.stringify(found.config);
}

/** The parts of the message, in order: a `multipart` part's own parts are appended one by one. */
async function partsOf(ctx: PluginContext, properties: Record<string, Value>): Promise<MimePart[]> {
  const parts: MimePart[] = [];
  for (const item of Array.isArray(properties.parts) ? properties.parts : []) {
    if (!isPlainObject(item)) continue;
    const text = await contentOf(ctx, String(item.config ?? ''));
    if (item.type === 'multipart') {
      // Not a multipart message: nothing is appended (as Heat).
      parts.push(...(parseMultipart(text) ?? []));
      continue;
    }
    const filename = typeof item.filename === 'string' ? item.filename : '';
    // Heat derives a missing subtype from the filename without its extension ("cfg.sh" -> text/cfg).
    const given = typeof item.subtype === 'string' ? item.subtype : '';
    const subtype = given || (filename ? withoutExtension(filename) : '');
    parts.push({ text, subtype, filename });
  }
  return parts;
}

/**
 * OS::Heat::MultipartMime: a software config whose config is a MIME multipart message of its
 * parts, each inline text or the id of another config (SoftwareConfig, CloudConfig,
 * StructuredConfig, or another MultipartMime, whose parts are then taken one by one with type
 * `multipart`). Built once at create, like every config immutable: any change replaces it.
 */
export const multipartMimePlugin: CatalogPlugin = {
  type: 'OS::Heat::MultipartMime',
  inRow: true,
  isSoftwareConfig: true,
  description:
    'Assembles a collection of software configurations as a multi-part mime message. Parts in ' +
    'the message can be populated with inline configuration or references to other config ' +
    'resources. If the referenced resource is itself a valid multi-part mime message, that will ' +
    'be broken into parts and those parts appended to this message.',
  supportStatus: { version: '2014.1' },
  properties: {
    parts: P.list({
      description: 'Parts belonging to this message.',
      default: [],
      items: P.map({
        schema: {
          config: P.string({
            description:
              'Content of part to attach, either inline or by referencing the ID of another ' +
              'software config resource.',
            required: true,
          }),
          filename: P.string({ description: 'Optional filename to associate with part.' }),
          type: P.string({
            description: 'Whether the part content is text or multipart.',
            default: 'text',
            constraints: [C.allowedValues(['text', 'multipart'])],
          }),
          subtype: P.string({ description: 'Optional subtype to specify with the type.' }),
        },
      }),
    }),
    group: P.string({
      description:
        'Namespace to group this multi-part configs by when delivered to a server. This may imply ' +
        'what configuration tool is going to perform the configuration.',
      default: 'Heat::Ungrouped',
    }),
  },
  attributes: { config: attr('The config value of the software config.', 'string') },

  async create(ctx, properties) {
    const message = multipartMessage(await partsOf(ctx, properties), ctx.idempotencyKey);
    const id = uuidFrom(ctx.idempotencyKey);
    const physicalId = await storeConfig(ctx, { group: properties.group ?? null }, message, id);
    return { physicalId, data: { config: message } };
  },

  async adopt(ctx, properties) {
    const message =
      typeof ctx.data.config === 'string'
        ? ctx.data.config
        : multipartMessage(await partsOf(ctx, properties), ctx.idempotencyKey);
    await storeConfig(ctx, { group: properties.group ?? null }, message);
  },

  async update() {
    // No property is update_allowed: the engine replaces instead of calling this.
    return {};
  },

  async delete(ctx) {
    await dropConfig(ctx);
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute(ctx, name) {
    return name === 'config' ? (ctx.data.config ?? null) : null;
  },
};

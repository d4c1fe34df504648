import {
  ACTION_OF,
  AuthenticationUnavailableError,
  C,
  CHANGES,
  CHECK_NODE,
  ClaimLostError,
  DEFAULT_LIMITS,
  EMPTY_CATALOG,
  HEARTH_VERSION,
  HOOK_TYPES,
  NESTED_STUBS,
  NoActionRequired,
  OperationError,
  P,
  ROLLBACK,
  ResourceFailure,
  ResourceInError,
  SIGNAL,
  SignalSigner,
  TemplateCache,
  TemplateError,
  UNKNOWN,
  UpdateReplace,
  VISITS,
  abandonStack,
  actionFailed,
  afterAction,
  afterDelete,
  allVersions,
  attr,
  cancelStack,
  checkStack,
  childStackOf,
  containsUnknown,
  createProject,
  createStack,
  createToken,
  createUser,
  decide,
  defineStackFromText,
  definitionFor,
  deleteFailed,
  deleteStack,
  doneChanges,
  engineAlive,
  environmentToJSON,
  errorMessage,
  failIfTimedOut,
  findStack,
  findVersion,
  getResource,
  hasHook,
  hasTimedOut,
  hashToken,
  heatTime,
  holderOf,
  inputsOf,
  isNestedPlugin,
  isPlainObject,
  isTemplateError,
  isTemplateType,
  isUnknown,
  jsonEqual,
  keystoneAuthenticator,
  knownValue,
  markUnhealthy,
  mergeEnvironments,
  noauthAuthenticator,
  outputsOf,
  parseEnvironment,
  parseNodeKey,
  parseSource,
  payloadOf,
  pendingHook,
  pluginContext,
  pluginToDelete,
  previewStackCreate,
  previewStackUpdate,
  propagateMany,
  pyJsonDumps,
  registryTemplateUrls,
  removeDeadEngines,
  resolveProperties,
  resolveTemplateUrl,
  resourceEvent,
  resultChanges,
  resumeNested,
  retryLater,
  rollbackStack,
  runAction,
  runCheckNode,
  runCleanupNode,
  runSignal,
  runSuspendNode,
  runUpdateNode,
  setOwn,
  signalCredentials,
  signalError,
  signalResource,
  signalSettled,
  stackOutputs,
  standaloneAuthenticator,
  startChanges,
  suspendOrResume,
  toDot,
  toJSON,
  typeInfo,
  typeName,
  updateStack,
  validateProperties,
  validateResult
} from "./chunk-DJHPI5HD.js";

// src/cli/main.ts
import { Command, CommanderError } from "commander";

// src/resources/heat/autoscaling-group.ts
import { createHash as createHash2 } from "node:crypto";

// src/resources/heat/batches.ts
import { createHash } from "node:crypto";
var PAUSE_PREFIX = "batch-pause-";
function int(value, fallback) {
  return typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : fallback;
}
function batching(updatePolicy, creating, count) {
  if (!isPlainObject(updatePolicy)) return void 0;
  const policy = creating ? updatePolicy.batch_create : updatePolicy.rolling_update;
  if (!isPlainObject(policy)) return void 0;
  let size = Math.max(1, int(policy.max_batch_size, 1));
  if (!creating) size = Math.max(1, Math.min(size, count - Math.max(0, int(policy.min_in_service, 0))));
  const pauseSecs = typeof policy.pause_time === "number" ? Math.max(0, policy.pause_time) : 0;
  return { size, pauseSecs };
}
function isPause(name) {
  return name.startsWith(PAUSE_PREFIX);
}
function addBatches(resources, names2, batches, definition) {
  const tag = createHash("sha256").update(JSON.stringify(definition)).digest("hex").slice(0, 8);
  for (let i = batches.size; i < names2.length; i++) {
    const batch = Math.floor(i / batches.size);
    const previous = names2.slice((batch - 1) * batches.size, batch * batches.size);
    let dependsOn = previous;
    if (batches.pauseSecs > 0) {
      const pause = `${PAUSE_PREFIX}${batch}-${tag}`;
      if (!Object.hasOwn(resources, pause)) {
        setOwn(resources, pause, {
          type: "OS::Heat::Delay",
          properties: { min_wait: batches.pauseSecs },
          depends_on: previous
        });
      }
      dependsOn = [pause];
    }
    resources[names2[i]].depends_on = dependsOn;
  }
}

// src/resources/heat/member-attributes.ts
var MEMBER_NAMES = "OS::member_names";
function byIndex(a, b) {
  const [x, y] = [Number(a), Number(b)];
  if (Number.isInteger(x) && Number.isInteger(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}
var positions = /* @__PURE__ */ new WeakMap();
function positionOf(names2, name) {
  let index = positions.get(names2);
  if (!index) positions.set(names2, index = new Map(names2.map((n, i) => [String(n), i])));
  return index.get(name);
}
function memberAttributes(ownKeys) {
  const notLists = /* @__PURE__ */ new Set(["refs", "OS::stack_id", MEMBER_NAMES, ...ownKeys]);
  function cache(view, own = {}) {
    const members4 = [...view.members].sort((a, b) => byIndex(a.name, b.name));
    const out = {};
    const names2 = /* @__PURE__ */ new Set();
    for (const m of members4) for (const name of Object.keys(m.attributes)) names2.add(name);
    for (const name of names2) {
      if (notLists.has(name)) continue;
      setOwn(
        out,
        name,
        members4.map((m) => Object.hasOwn(m.attributes, name) ? m.attributes[name] : null)
      );
    }
    out.refs = members4.map((m) => m.refId);
    for (const [key, value] of Object.entries(own)) setOwn(out, key, value);
    out["OS::stack_id"] = view.childId;
    out[MEMBER_NAMES] = members4.map((m) => m.name);
    return out;
  }
  function read(cached, name) {
    const names2 = cached[MEMBER_NAMES];
    if (!Array.isArray(names2)) return name === void 0 ? cached : void 0;
    const refs = Array.isArray(cached.refs) ? cached.refs : [];
    const lists = Object.keys(cached).filter((k) => !notLists.has(k) && Array.isArray(cached[k]));
    const zip = (values) => {
      const map = {};
      names2.forEach((n, i2) => setOwn(map, String(n), values[i2] ?? null));
      return map;
    };
    if (name === void 0) {
      const all = {};
      for (const [key, value] of Object.entries(cached)) if (key !== MEMBER_NAMES) setOwn(all, key, value);
      for (const key of ["refs_map", "attributes", ...names2.map((n) => `resource.${String(n)}`)])
        setOwn(all, key, read(cached, key) ?? null);
      for (const n of names2)
        for (const list2 of lists)
          setOwn(all, `resource.${String(n)}.${list2}`, read(cached, `resource.${String(n)}.${list2}`) ?? null);
      return all;
    }
    if (name === "refs_map") return zip(refs);
    if (name === "attributes") {
      const map = {};
      for (const list2 of lists) setOwn(map, list2, zip(cached[list2]));
      return map;
    }
    if (!name.startsWith("resource.")) return void 0;
    const rest = name.slice("resource.".length);
    const dot = rest.indexOf(".");
    const member = dot < 0 ? rest : rest.slice(0, dot);
    const i = positionOf(names2, member);
    if (i === void 0) return void 0;
    if (dot < 0) return refs[i] ?? null;
    const list = cached[rest.slice(dot + 1)];
    return Array.isArray(list) && lists.includes(rest.slice(dot + 1)) ? list[i] ?? null : void 0;
  }
  return { cache, read };
}

// src/resources/heat/scaling.ts
var ADJUSTMENT_TYPES = [
  "change_in_capacity",
  "exact_capacity",
  "percent_change_in_capacity"
];
var CAPACITY_KEY = "capacity";
var DESIRED_SEEN_KEY = "desired_capacity_seen";
function newCapacity(current2, adjustment, type, minStep, minimum, maximum) {
  let capacity;
  if (type === "change_in_capacity") capacity = current2 + adjustment;
  else if (type === "exact_capacity") capacity = adjustment;
  else {
    const delta = current2 * adjustment / 100;
    let rounded = Math.abs(delta) < 1 ? delta > 0 ? Math.ceil(delta) : Math.floor(delta) : Math.trunc(delta);
    if (minStep && minStep > Math.abs(rounded)) rounded = rounded > 0 ? minStep : -minStep;
    capacity = current2 + rounded;
  }
  return Math.min(maximum, Math.max(minimum, capacity));
}
function int2(value) {
  return typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : void 0;
}
function bounds(properties) {
  const min = int2(properties.min_size) ?? 0;
  return { min, max: Math.max(min, int2(properties.max_size) ?? min) };
}
function groupCapacity(properties, data) {
  const { min, max } = bounds(properties);
  const desired = int2(properties.desired_capacity);
  const scaled = int2(data[CAPACITY_KEY]);
  const followed = data[DESIRED_SEEN_KEY] ?? null;
  let capacity = scaled ?? desired ?? min;
  if (desired !== void 0 && followed !== desired) capacity = desired;
  return Math.min(max, Math.max(min, capacity));
}

// src/resources/heat/autoscaling-group.ts
var TYPE = "OS::Heat::AutoScalingGroup";
var MEMBERS_KEY = "members";
var NEXT_KEY = "next_member";
var OWN = ["outputs", "outputs_list", "current_size", "refs", "refs_map"];
var members = memberAttributes(["current_size"]);
function memberName(n) {
  return createHash2("sha256").update(`member ${n}`).digest("hex").slice(0, 12);
}
function names(data) {
  const list = data[MEMBERS_KEY];
  return Array.isArray(list) ? list.filter((n) => typeof n === "string") : [];
}
function readAttribute(cached, name) {
  if (name === "outputs") return members.read(cached, "attributes");
  if (name === "outputs_list") {
    const out = {};
    for (const [key, value] of Object.entries(cached)) {
      if (Array.isArray(value) && !OWN.includes(key) && !key.startsWith("OS::")) setOwn(out, key, value);
    }
    return out;
  }
  return members.read(cached, name);
}
function checkBounds(properties, path) {
  const { min_size: min, max_size: max, desired_capacity: desired } = properties;
  if (typeof min === "number" && typeof max === "number" && min > max) {
    throw new TemplateError("property", "min_size can not be greater than max_size", [...path, "min_size"]);
  }
  if (typeof desired === "number" && !isUnknown(min) && !isUnknown(max)) {
    const { min: lo, max: hi } = bounds(properties);
    if (desired < lo || desired > hi) {
      throw new TemplateError("property", `desired_capacity must be between ${lo} and ${hi}, inclusive`, [
        ...path,
        "desired_capacity"
      ]);
    }
  }
}
var autoScalingGroupPlugin = {
  ...NESTED_STUBS,
  type: TYPE,
  description: "An autoscaling group that can scale arbitrary resources.",
  supportStatus: { version: "2014.1" },
  properties: {
    resource: P.map({
      description: "Resource definition for the resources in the group, in HOT format.",
      required: true,
      updateAllowed: true
    }),
    max_size: P.integer({
      description: "Maximum number of resources in the group.",
      required: true,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })]
    }),
    min_size: P.integer({
      description: "Minimum number of resources in the group.",
      required: true,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })]
    }),
    cooldown: P.integer({ description: "Cooldown period, in seconds.", updateAllowed: true }),
    desired_capacity: P.integer({ description: "Desired initial number of resources.", updateAllowed: true }),
    rolling_updates: P.map({
      description: "Policy for rolling updates for this scaling group.",
      updateAllowed: true,
      schema: {
        min_in_service: P.integer({ description: "The minimum number of resources in service.", default: 0 }),
        max_batch_size: P.integer({
          description: "The maximum number of resources to replace at once.",
          default: 1
        }),
        pause_time: P.number({ description: "The number of seconds to wait between batches.", default: 0 })
      }
    })
  },
  attributes: {
    outputs: attr("A map of resource names to the specified attribute of each individual resource.", "map"),
    outputs_list: attr("A list of the specified attribute of each individual resource.", "list"),
    current_size: attr("The current size of AutoscalingResourceGroup.", "integer"),
    refs: attr("A list of resource IDs for the resources in the group.", "list"),
    refs_map: attr("A map of resource names to IDs for the resources in the group.", "map")
  },
  dynamicAttribute: (name) => !OWN.includes(name),
  readAttribute,
  validate(properties, path) {
    checkBounds(properties, path);
  },
  nested: {
    child(properties, data, options = {}) {
      const capacity = groupCapacity(properties, data);
      let next = typeof data[NEXT_KEY] === "number" ? data[NEXT_KEY] : 0;
      let kept = names(data);
      if (kept.length > capacity) kept = kept.slice(kept.length - capacity);
      while (kept.length < capacity) kept.push(memberName(next++));
      const def = isPlainObject(properties.resource) ? properties.resource : {};
      const resources = {};
      for (const name of kept) {
        const member = { type: def.type };
        for (const key of ["properties", "metadata"]) {
          if (isPlainObject(def[key])) member[key] = def[key];
        }
        setOwn(resources, name, member);
      }
      const batches = batching(
        { rolling_update: properties.rolling_updates ?? null },
        options.creating ?? false,
        kept.length
      );
      if (batches) addBatches(resources, kept, batches, def);
      const template = { heat_template_version: "2015-04-30", resources };
      const desired = typeof properties.desired_capacity === "number" ? properties.desired_capacity : null;
      return {
        template: JSON.stringify(template),
        parameters: {},
        data: {
          [MEMBERS_KEY]: kept,
          [NEXT_KEY]: next,
          [CAPACITY_KEY]: capacity,
          [DESIRED_SEEN_KEY]: desired
        }
      };
    },
    attributes: (view) => {
      const kept = view.members.filter((m) => !isPause(m.name));
      return members.cache({ ...view, members: kept }, { current_size: kept.length });
    }
  }
};

// src/resources/heat/cloud-config.ts
import { stringify } from "yaml";

// src/resources/heat/physical-name.ts
import { createHash as createHash3 } from "node:crypto";
var BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
function shortId(seed) {
  const bytes = createHash3("sha256").update(seed).digest();
  let bits = 0n;
  for (let i = 0; i < 8; i++) bits = bits << 8n | BigInt(bytes[i]);
  bits >>= 4n;
  let out = "";
  for (let i = 11; i >= 0; i--) out += BASE32[Number(bits >> BigInt(i * 5) & 31n)];
  return out;
}
function physicalResourceName(ctx) {
  return `${ctx.stackName.replace(/\*+$/, "")}-${ctx.resourceName}-${shortId(ctx.idempotencyKey)}`;
}
function uuidFrom(seed) {
  const hex = createHash3("sha256").update(`uuid:${seed}`).digest("hex");
  const variant = (parseInt(hex[16], 16) & 3 | 8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// src/resources/heat/row-reality.ts
async function rowReality(ctx) {
  if (ctx.physicalId === null) return { state: "gone" };
  return { state: "present", properties: { ...ctx.storedProperties ?? {} } };
}

// src/resources/heat/software-config.ts
var IO_TYPES = ["String", "Number", "CommaDelimitedList", "Json", "Boolean"];
var CONFIG_SCHEMA_PROPERTIES = {
  group: P.string({
    description: "Namespace to group this software config by when delivered to a server. This may imply what configuration tool is going to perform the configuration.",
    default: "Heat::Ungrouped"
  }),
  options: P.map({
    description: "Map containing options specific to the configuration management tool used by this resource."
  }),
  inputs: P.list({
    description: "Schema representing the inputs that this software config is expecting.",
    items: P.map({
      schema: {
        name: P.string({ description: "Name of the input.", required: true }),
        description: P.string({ description: "Description of the input." }),
        type: P.string({
          description: "Type of the value of the input.",
          default: "String",
          constraints: [C.allowedValues(IO_TYPES)]
        }),
        default: P.any({ description: "Default value for the input if none is specified." }),
        replace_on_change: P.boolean({
          description: "Replace the deployment instead of updating it when the input value changes.",
          default: false
        })
      }
    })
  }),
  outputs: P.list({
    description: "Schema representing the outputs that this software config will produce.",
    items: P.map({
      schema: {
        name: P.string({ description: "Name of the output.", required: true }),
        description: P.string({ description: "Description of the output." }),
        type: P.string({
          description: "Type of the value of the output.",
          default: "String",
          constraints: [C.allowedValues(IO_TYPES)]
        }),
        error_output: P.boolean({
          description: "Denotes that the deployment is in an error state if this output has a value.",
          default: false
        })
      }
    })
  })
};
function configPlugin(spec2) {
  return {
    type: spec2.type,
    inRow: true,
    isSoftwareConfig: true,
    description: spec2.description,
    supportStatus: { version: "2014.1" },
    properties: spec2.properties,
    attributes: { config: attr("The config value of the software config.") },
    async create(ctx) {
      return { physicalId: uuidFrom(ctx.idempotencyKey) };
    },
    async update() {
      return {};
    },
    async delete() {
      return {};
    },
    getReality: rowReality,
    async attribute(_ctx, name, properties) {
      return name === "config" ? spec2.render(properties) : null;
    }
  };
}
var softwareConfigPlugin = configPlugin({
  type: "OS::Heat::SoftwareConfig",
  description: "A resource for describing and storing software configuration. The software_configs API which backs this resource creates immutable configs, so any change to the template resource definition will result in a new config being created, and the old one being deleted.",
  properties: {
    ...CONFIG_SCHEMA_PROPERTIES,
    config: P.string({
      description: "Configuration script or manifest which specifies what actual configuration is performed."
    })
  },
  render: (properties) => properties.config ?? null
});

// src/resources/heat/cloud-config.ts
var cloudConfigPlugin = configPlugin({
  type: "OS::Heat::CloudConfig",
  description: "A configuration resource for representing cloud-init cloud-config. This resource allows cloud-config YAML to be defined and stored by the config API.",
  properties: {
    cloud_config: P.map({
      description: "Map representing the cloud-config data structure which will be formatted as YAML."
    })
  },
  render: (properties) => `#cloud-config
${stringify(properties.cloud_config ?? {})}`
});

// src/resources/heat/delay.ts
var ACTIONS = ["CREATE", "DELETE", "SUSPEND", "RESUME"];
function num(value, fallback) {
  return typeof value === "number" ? value : fallback;
}
function waitMs(ctx, properties, action) {
  const actions = Array.isArray(properties.actions) ? properties.actions : ["CREATE"];
  if (!actions.includes(action)) return 0;
  const jitter = num(properties.max_jitter, 0) * num(properties.jitter_multiplier, 1);
  return Math.round((num(properties.min_wait, 0) + jitter * ctx.random()) * 1e3);
}
function begin(ctx, ms2, result = {}) {
  if (ms2 <= 0) return result;
  const wait = { deadline: ctx.now() + ms2 };
  return { ...result, progress: wait, pollAfterMs: ms2 };
}
function waitAfterCreate(ctx, action) {
  return ctx.storedProperties ? begin(ctx, waitMs(ctx, ctx.storedProperties, action)) : {};
}
function check(ctx, progress) {
  const deadline = progress?.deadline;
  if (typeof deadline !== "number") return { done: true };
  const remaining = deadline - ctx.now();
  return remaining <= 0 ? { done: true } : { done: false, pollAfterMs: remaining };
}
var delayPlugin = {
  type: "OS::Heat::Delay",
  inRow: true,
  description: "A resource that pauses for a configurable delay. By manipulating the dependency relationships between resources in the template, a delay can be inserted at an arbitrary point during e.g. stack creation or deletion.",
  supportStatus: { version: "11.0.0" },
  properties: {
    min_wait: P.number({
      description: "Minimum time in seconds to wait during the specified actions.",
      default: 0,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })]
    }),
    max_jitter: P.number({
      description: "Maximum jitter to add to the minimum wait time.",
      default: 0,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })]
    }),
    jitter_multiplier: P.number({
      description: "Number of seconds to multiply the maximum jitter value by.",
      default: 1,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })]
    }),
    actions: P.list({
      description: "Actions during which the delay will occur.",
      default: ["CREATE"],
      updateAllowed: true,
      constraints: [C.allowedValues(ACTIONS)]
    })
  },
  attributes: {},
  async create(ctx, properties) {
    return begin(ctx, waitMs(ctx, properties, "CREATE"), { physicalId: uuidFrom(ctx.idempotencyKey) });
  },
  async checkCreateComplete(ctx, progress) {
    return check(ctx, progress);
  },
  delete: async (ctx) => waitAfterCreate(ctx, "DELETE"),
  checkDeleteComplete: async (ctx, progress) => check(ctx, progress),
  suspend: async (ctx) => waitAfterCreate(ctx, "SUSPEND"),
  checkSuspendComplete: async (ctx, progress) => check(ctx, progress),
  resume: async (ctx) => waitAfterCreate(ctx, "RESUME"),
  checkResumeComplete: async (ctx, progress) => check(ctx, progress),
  getReality: rowReality,
  async attribute() {
    return null;
  }
};

// src/resources/heat/mime-message.ts
import { createHash as createHash4 } from "node:crypto";
function isAscii(text) {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}
function quoted(value) {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
function base64Lines(text) {
  const encoded = Buffer.from(text, "utf8").toString("base64");
  let out = "";
  for (let i = 0; i < encoded.length; i += 76) out += `${encoded.slice(i, i + 76)}
`;
  return out;
}
function renderPart(part) {
  const ascii = isAscii(part.text);
  const headers = [
    `Content-Type: text/${part.subtype || "plain"}; charset="${ascii ? "us-ascii" : "utf-8"}"`,
    "MIME-Version: 1.0",
    `Content-Transfer-Encoding: ${ascii ? "7bit" : "base64"}`
  ];
  if (part.filename) headers.push(`Content-Disposition: attachment; filename=${quoted(part.filename)}`);
  return `${headers.join("\n")}

${ascii ? part.text : base64Lines(part.text)}`;
}
function boundaryFor(seed, bodies) {
  const digest = createHash4("sha256").update(`mime:${seed}`).digest();
  const digits = (digest.readBigUInt64BE(0) % 10n ** 19n).toString().padStart(19, "0");
  const base = `===============${digits}==`;
  const lines = new Set(bodies.flatMap((b) => b.split("\n")));
  let boundary = base;
  for (let n = 0; lines.has(`--${boundary}`) || lines.has(`--${boundary}--`); n++) boundary = `${base}.${n}`;
  return boundary;
}
function multipartMessage(parts, seed) {
  const bodies = parts.map(renderPart);
  const boundary = boundaryFor(seed, bodies);
  const head = `Content-Type: multipart/mixed; boundary="${boundary}"
MIME-Version: 1.0

`;
  return `${head}--${boundary}
${bodies.join(`
--${boundary}
`)}
--${boundary}--
`;
}
function splitMessage(text) {
  const normal = text.replace(/\r\n/g, "\n");
  const end = normal.indexOf("\n\n");
  const head = end < 0 ? normal : normal.slice(0, end);
  const headers = /* @__PURE__ */ new Map();
  let last;
  for (const line of head.split("\n")) {
    if (/^[ \t]/.test(line) && last !== void 0) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    headers.set(last, line.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? "" : normal.slice(end + 2) };
}
function parseHeader(value) {
  const params = /* @__PURE__ */ new Map();
  if (value === void 0) return { value: "", params };
  const [first = "", ...rest] = value.split(";");
  for (const m of rest.join(";").matchAll(/([^\s=;]+)\s*=\s*("((?:\\.|[^"\\])*)"|[^;]*)/g)) {
    const raw = m[3] !== void 0 ? m[3].replace(/\\(.)/g, "$1") : m[2].trim();
    params.set(m[1].toLowerCase(), raw);
  }
  return { value: first.trim().toLowerCase(), params };
}
function parseMultipart(text) {
  const { headers, body } = splitMessage(text);
  const type = parseHeader(headers.get("content-type"));
  const boundary = type.params.get("boundary");
  if (!type.value.startsWith("multipart/") || !boundary) return void 0;
  const parts = [];
  let current2;
  for (const line of body.split("\n")) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}` || trimmed === `--${boundary}--`) {
      if (current2) parts.push(partOf(current2.join("\n")));
      if (trimmed.endsWith("--") && trimmed !== `--${boundary}`) return parts;
      current2 = [];
    } else current2?.push(line);
  }
  return parts;
}
function partOf(text) {
  const { headers, body } = splitMessage(text);
  const type = parseHeader(headers.get("content-type"));
  const encoding = (headers.get("content-transfer-encoding") ?? "").toLowerCase();
  const filename = parseHeader(headers.get("content-disposition")).params.get("filename") ?? "";
  return {
    text: encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body,
    subtype: type.value.includes("/") ? type.value.slice(type.value.indexOf("/") + 1) : "plain",
    filename
  };
}

// src/resources/heat/multipart-mime.ts
var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function withoutExtension(name) {
  const slash = name.lastIndexOf("/");
  const dot = name.lastIndexOf(".");
  if (dot <= slash) return name;
  const base = name.slice(slash + 1, dot);
  return /[^.]/.test(base) ? name.slice(0, dot) : name;
}
async function contentOf(ctx, config) {
  if (!UUID.test(config)) return config;
  const found = await ctx.softwareConfig(config.toLowerCase());
  if (!found) return config;
  return typeof found.config === "string" ? found.config : JSON.stringify(found.config);
}
async function partsOf(ctx, properties) {
  const parts = [];
  for (const item of Array.isArray(properties.parts) ? properties.parts : []) {
    if (!isPlainObject(item)) continue;
    const text = await contentOf(ctx, String(item.config ?? ""));
    if (item.type === "multipart") {
      parts.push(...parseMultipart(text) ?? []);
      continue;
    }
    const filename = typeof item.filename === "string" ? item.filename : "";
    const given = typeof item.subtype === "string" ? item.subtype : "";
    const subtype = given || (filename ? withoutExtension(filename) : "");
    parts.push({ text, subtype, filename });
  }
  return parts;
}
var multipartMimePlugin = {
  type: "OS::Heat::MultipartMime",
  inRow: true,
  isSoftwareConfig: true,
  description: "Assembles a collection of software configurations as a multi-part mime message. Parts in the message can be populated with inline configuration or references to other config resources. If the referenced resource is itself a valid multi-part mime message, that will be broken into parts and those parts appended to this message.",
  supportStatus: { version: "2014.1" },
  properties: {
    parts: P.list({
      description: "Parts belonging to this message.",
      default: [],
      items: P.map({
        schema: {
          config: P.string({
            description: "Content of part to attach, either inline or by referencing the ID of another software config resource.",
            required: true
          }),
          filename: P.string({ description: "Optional filename to associate with part." }),
          type: P.string({
            description: "Whether the part content is text or multipart.",
            default: "text",
            constraints: [C.allowedValues(["text", "multipart"])]
          }),
          subtype: P.string({ description: "Optional subtype to specify with the type." })
        }
      })
    }),
    group: P.string({
      description: "Namespace to group this multi-part configs by when delivered to a server. This may imply what configuration tool is going to perform the configuration.",
      default: "Heat::Ungrouped"
    })
  },
  attributes: { config: attr("The config value of the software config.") },
  async create(ctx, properties) {
    const message = multipartMessage(await partsOf(ctx, properties), ctx.idempotencyKey);
    return { physicalId: uuidFrom(ctx.idempotencyKey), data: { config: message } };
  },
  async update() {
    return {};
  },
  async delete() {
    return {};
  },
  getReality: rowReality,
  async attribute(ctx, name) {
    return name === "config" ? ctx.data.config ?? null : null;
  }
};

// src/resources/heat/none.ts
var nonePlugin = {
  type: "OS::Heat::None",
  inRow: true,
  description: "Enables easily disabling certain resources via the resource_registry. It does nothing, but can effectively stub out any other resource because it will accept any properties and return any attribute (as None). Note this resource always does nothing on update (e.g it is not replaced even if a change to the stubbed resource properties would cause replacement).",
  supportStatus: { version: "5.0.0" },
  properties: {},
  attributes: {},
  anyProperties: true,
  dynamicAttribute: () => true,
  async create(ctx) {
    return { physicalId: uuidFrom(ctx.idempotencyKey), data: { is_placeholder: "True" } };
  },
  async delete() {
    return {};
  },
  getReality: rowReality,
  async attribute() {
    return null;
  }
};

// src/resources/heat/random-string.ts
var DIGITS = "0123456789";
var LOWER = "abcdefghijklmnopqrstuvwxyz";
var UPPER = LOWER.toUpperCase();
var CHARACTER_CLASSES = {
  lettersdigits: LOWER + UPPER + DIGITS,
  letters: LOWER + UPPER,
  lowercase: LOWER,
  uppercase: UPPER,
  digits: DIGITS,
  hexdigits: `${DIGITS}ABCDEF`,
  octdigits: "01234567"
};
var CLASS_NAMES = Object.keys(CHARACTER_CLASSES);
var DEFAULT_CLASSES = [{ class: "lettersdigits", min: 1 }];
function pick(random, n) {
  return Math.min(n - 1, Math.floor(random() * n));
}
function generateString(length, classes, random) {
  const chosen = [];
  const all = /* @__PURE__ */ new Set();
  for (const c of classes) {
    for (const ch of c.chars) all.add(ch);
    for (let i = 0; i < c.min; i++) chosen.push(c.chars[pick(random, c.chars.length)]);
  }
  const union = [...all].sort();
  while (chosen.length < length) chosen.push(union[pick(random, union.length)]);
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = pick(random, i + 1);
    [chosen[i], chosen[j]] = [chosen[j], chosen[i]];
  }
  return chosen.slice(0, length).join("");
}
function entries(value) {
  return Array.isArray(value) ? value.filter((e) => e !== null && typeof e === "object") : [];
}
function charClasses(properties) {
  let named = entries(properties.character_classes);
  const sequence = properties.sequence;
  if (typeof sequence === "string") {
    if (jsonEqual(properties.character_classes, DEFAULT_CLASSES)) named = [];
    named = [...named, { class: sequence, min: 1 }];
  }
  const out = [];
  for (const s of entries(properties.character_sequences)) {
    out.push({ chars: [...new Set(String(s.sequence ?? ""))].sort(), min: Number(s.min ?? 1) });
  }
  for (const c of named) {
    const members4 = CHARACTER_CLASSES[String(c.class ?? "lettersdigits")] ?? "";
    out.push({ chars: [...members4], min: Number(c.min ?? 1) });
  }
  return out;
}
function problem(properties) {
  const length = Number(properties.length ?? 32);
  const classes = charClasses(properties);
  const minimum = classes.reduce((sum, c) => sum + c.min, 0);
  if (minimum > length) {
    return "Length property cannot be smaller than combined character class and character sequence minimums";
  }
  if (classes.some((c) => c.min > 0 && c.chars.length === 0)) return "A character sequence cannot be empty";
  if (classes.every((c) => c.chars.length === 0)) return "No characters to generate the random string from";
  return void 0;
}
var randomStringPlugin = {
  type: "OS::Heat::RandomString",
  inRow: true,
  description: "A resource which generates a random string. This is useful for configuring passwords and secrets on services. Random string can be generated from specified character sequences, which means that all characters will be randomly chosen from specified sequences, or with some classes, e.g. letterdigits, which means that all character will be randomly chosen from union of ascii letters and digits. Output string will be randomly generated string with specified length (or with length of 32, if length property doesn't specified).",
  supportStatus: { version: "2014.1" },
  properties: {
    length: P.integer({
      description: "Length of the string to generate.",
      default: 32,
      constraints: [C.range({ min: 1, max: 512 })]
    }),
    sequence: P.string({
      description: "Sequence of characters to build the random string from.",
      constraints: [C.allowedValues(CLASS_NAMES)],
      supportStatus: {
        status: "HIDDEN",
        version: "5.0.0",
        previousStatus: {
          status: "DEPRECATED",
          message: "Use property character_classes.",
          version: "2014.2"
        }
      }
    }),
    character_classes: P.list({
      description: "A list of character class and their constraints to generate the random string from.",
      items: P.map({
        schema: {
          class: P.string({
            description: "A character class and its corresponding min constraint to generate the random string from.",
            constraints: [C.allowedValues(CLASS_NAMES)],
            default: "lettersdigits"
          }),
          min: P.integer({
            description: "The minimum number of characters from this character class that will be in the generated string.",
            default: 1,
            constraints: [C.range({ min: 1, max: 512 })]
          })
        }
      }),
      default: DEFAULT_CLASSES
    }),
    character_sequences: P.list({
      description: "A list of character sequences and their constraints to generate the random string from.",
      items: P.map({
        schema: {
          sequence: P.string({
            description: "A character sequence and its corresponding min constraint to generate the random string from.",
            required: true
          }),
          min: P.integer({
            description: "The minimum number of characters from this sequence that will be in the generated string.",
            default: 1,
            constraints: [C.range({ min: 1, max: 512 })]
          })
        }
      })
    }),
    salt: P.string({
      description: "Value which can be set or changed on stack update to trigger the resource for replacement with a new random string. The salt value itself is ignored by the random generator."
    })
  },
  attributes: {
    value: attr(
      "The random string generated by this resource. This value is also available by referencing the resource.",
      "string"
    )
  },
  validate(properties, path) {
    const { length, sequence, character_classes, character_sequences } = properties;
    if (containsUnknown([length, sequence, character_classes, character_sequences].map((v) => v ?? null))) {
      return;
    }
    const why = problem(properties);
    if (why !== void 0) throw new TemplateError("property", why, path);
  },
  async create(ctx, properties) {
    const kept = ctx.data.value;
    let value;
    if (typeof kept === "string") {
      value = kept;
    } else {
      const why = problem(properties);
      if (why !== void 0) throw new ResourceFailure(why);
      value = generateString(Number(properties.length ?? 32), charClasses(properties), () => ctx.random());
    }
    return { physicalId: physicalResourceName(ctx), data: { value } };
  },
  async delete() {
    return {};
  },
  getReality: rowReality,
  async attribute(ctx, name) {
    const value = ctx.data.value;
    return name === "value" && typeof value === "string" ? value : null;
  },
  referenceId(ctx) {
    if (ctx.physicalId === null) return ctx.resourceName;
    const value = ctx.data.value;
    return typeof value === "string" ? value : null;
  }
};

// src/resources/heat/resource-chain.ts
var TYPE2 = "OS::Heat::ResourceChain";
var OWN2 = ["refs", "refs_map", "attributes"];
var members2 = memberAttributes([]);
function typesOf(properties) {
  return Array.isArray(properties.resources) ? properties.resources : [];
}
function checkTypes(properties, path, types2) {
  typesOf(properties).forEach((type, i) => {
    if (isUnknown(type)) return;
    if (typeof type !== "string" || type === "") {
      throw new TemplateError("property", 'each entry of "resources" must be a resource type name', [
        ...path,
        "resources",
        i
      ]);
    }
    if (isTemplateType(type) || types2.get(type)) return;
    throw new TemplateError("unknown_type", `the resource type "${type}" is not known`, [
      ...path,
      "resources",
      i
    ]);
  });
}
var resourceChainPlugin = {
  ...NESTED_STUBS,
  type: TYPE2,
  description: "Creates one or more resources with the same configuration. The types of resources to be created are passed into the chain through the `resources` property. One resource will be created for each type listed. Each is passed the configuration specified under `resource_properties`.",
  supportStatus: { version: "6.0.0" },
  properties: {
    resources: P.list({
      description: "The list of resource types to create. This list may contain type names or aliases defined in the resource registry. Specific template names are not supported.",
      required: true,
      updateAllowed: true
    }),
    concurrent: P.boolean({
      description: "If true, the resources in the chain will be created concurrently. If false or omitted, each resource will be treated as having a dependency on the previous resource in the list.",
      default: false
    }),
    resource_properties: P.map({
      description: "Properties to pass to each resource being created in the chain."
    })
  },
  attributes: {
    refs: attr("A list of resource IDs for the resources in the chain.", "list"),
    refs_map: attr("A map of resource names to IDs for the resources in the chain.", "map"),
    attributes: attr(
      "A map of resource names to the specified attribute of each individual resource.",
      "map"
    )
  },
  dynamicAttribute: (name) => !OWN2.includes(name),
  readAttribute: members2.read,
  validate(properties, path, types2) {
    if (types2) checkTypes(properties, path, types2);
  },
  nested: {
    child(properties) {
      const shared = isPlainObject(properties.resource_properties) ? properties.resource_properties : void 0;
      const resources = {};
      typesOf(properties).forEach((type, i) => {
        const member = { type: String(type) };
        if (shared) member.properties = shared;
        if (i > 0 && properties.concurrent !== true) member.depends_on = [String(i - 1)];
        setOwn(resources, String(i), member);
      });
      const template = { heat_template_version: "2015-04-30", resources };
      return { template: JSON.stringify(template), parameters: {}, data: {} };
    },
    attributes: (view) => members2.cache(view)
  }
};

// src/resources/heat/resource-group.ts
var TYPE3 = "OS::Heat::ResourceGroup";
var REMOVED_KEY = "removed_members";
var OWN3 = ["refs", "refs_map", "attributes", "removed_rsrc_list"];
function removedOf(data) {
  const list = data[REMOVED_KEY];
  return Array.isArray(list) ? list.filter((n) => typeof n === "string") : [];
}
function policyNames(policies) {
  const names2 = [];
  if (!Array.isArray(policies)) return names2;
  for (const policy of policies) {
    const list = isPlainObject(policy) ? policy.resource_list : void 0;
    if (!Array.isArray(list)) continue;
    for (const item of list)
      if (typeof item === "string" || typeof item === "number") names2.push(String(item));
  }
  return names2;
}
function memberNames(count, removed) {
  const names2 = [];
  for (let i = 0; names2.length < count; i++) if (!removed.has(String(i))) names2.push(String(i));
  return names2;
}
function substitute(value, indexVar, index) {
  if (typeof value === "string") return value.split(indexVar).join(index);
  if (Array.isArray(value)) return value.map((v) => substitute(v, indexVar, index));
  if (isPlainObject(value)) {
    const out = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, substitute(v, indexVar, index));
    return out;
  }
  return value;
}
var members3 = memberAttributes(["removed_rsrc_list"]);
var readGroupAttribute = members3.read;
function checkMemberType(properties, path, types2) {
  const def = properties.resource_def;
  if (!isPlainObject(def)) return;
  const type = def.type;
  if (typeof type !== "string" || isUnknown(type)) return;
  if (type === TYPE3 || isTemplateType(type) || types2.get(type)) return;
  throw new TemplateError("unknown_type", `the resource type "${type}" is not known`, [
    ...path,
    "resource_def",
    "type"
  ]);
}
var resourceGroupPlugin = {
  ...NESTED_STUBS,
  type: TYPE3,
  description: "Creates one or more identically configured nested resources. In addition to the `refs` attribute, this resource implements synthetic attributes that mirror those of the resources in the group.",
  supportStatus: { version: "2014.1" },
  properties: {
    count: P.integer({
      description: "The number of resources to create.",
      default: 1,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })]
    }),
    index_var: P.string({
      description: "A variable that this resource will use to replace with the current index of a given resource in the group.",
      default: "%index%",
      updateAllowed: true,
      constraints: [C.length({ min: 3 })]
    }),
    resource_def: P.map({
      description: "Resource definition for the resources in the group.",
      required: true,
      updateAllowed: true,
      schema: {
        type: P.string({ description: "The type of the resources in the group.", required: true }),
        properties: P.map({ description: "Property values for the resources in the group." }),
        metadata: P.map({ description: "Supplied metadata for the resources in the group." })
      }
    }),
    removal_policies: P.list({
      description: "Policies for removal of resources on update.",
      default: [],
      updateAllowed: true,
      items: P.map({
        schema: {
          resource_list: P.list({
            description: "List of resources to be removed when doing an update.",
            default: []
          })
        }
      })
    }),
    removal_policies_mode: P.string({
      description: "How to handle changes to removal_policies on update.",
      default: "append",
      updateAllowed: true,
      constraints: [C.allowedValues(["append", "update"])]
    })
  },
  attributes: {
    refs: attr("A list of resource IDs for the resources in the group.", "list"),
    refs_map: attr("A map of resource names to IDs for the resources in the group.", "map"),
    attributes: attr("A map of resource names to the specified attribute of each resource.", "map"),
    removed_rsrc_list: attr("A list of removed resource names.", "list")
  },
  dynamicAttribute: (name) => !OWN3.includes(name),
  readAttribute: readGroupAttribute,
  validate(properties, path, types2) {
    if (types2) checkMemberType(properties, path, types2);
  },
  nested: {
    child(properties, data, options = {}) {
      const count = typeof properties.count === "number" ? properties.count : 1;
      const indexVar = typeof properties.index_var === "string" ? properties.index_var : "%index%";
      const def = isPlainObject(properties.resource_def) ? properties.resource_def : {};
      const asked = policyNames(properties.removal_policies ?? []);
      const kept = properties.removal_policies_mode === "update" ? [] : removedOf(data);
      const removed = [.../* @__PURE__ */ new Set([...kept, ...asked])].sort(byIndex);
      const resources = {};
      const names2 = memberNames(count, new Set(removed));
      for (const name of names2) {
        const member = { type: def.type };
        for (const key of ["properties", "metadata"]) {
          const v = def[key];
          if (isPlainObject(v)) member[key] = substitute(v, indexVar, name);
        }
        setOwn(resources, name, member);
      }
      const batches = batching(options.updatePolicy, options.creating ?? false, names2.length);
      if (batches) addBatches(resources, names2, batches, def);
      const template = { heat_template_version: "2015-04-30", resources };
      return { template: JSON.stringify(template), parameters: {}, data: { [REMOVED_KEY]: removed } };
    },
    attributes: (view) => members3.cache(
      { ...view, members: view.members.filter((m) => !isPause(m.name)) },
      { removed_rsrc_list: removedOf(view.data).sort(byIndex) }
    )
  }
};

// src/resources/heat/scaling-policy.ts
var LAST_SCALED_KEY = "last_scaled";
function notAlarming(details) {
  const current2 = details?.current;
  if (typeof current2 !== "string" || current2.toLowerCase() === "alarm") return void 0;
  return current2;
}
var scalingPolicyPlugin = {
  type: "OS::Heat::ScalingPolicy",
  inRow: true,
  description: "A resource to manage scaling of `OS::Heat::AutoScalingGroup`.",
  supportStatus: { version: "2014.1" },
  properties: {
    auto_scaling_group_id: P.string({
      description: "AutoScaling group ID to apply policy to.",
      required: true
    }),
    adjustment_type: P.string({
      description: "Type of adjustment (absolute or percentage).",
      required: true,
      updateAllowed: true,
      constraints: [C.allowedValues([...ADJUSTMENT_TYPES])]
    }),
    scaling_adjustment: P.number({ description: "Size of adjustment.", required: true, updateAllowed: true }),
    cooldown: P.number({ description: "Cooldown period, in seconds.", updateAllowed: true }),
    min_adjustment_step: P.integer({
      description: "Minimum number of resources that are added or removed when the AutoScaling group scales up or down. This can be used only when specifying percent_change_in_capacity for the adjustment_type property.",
      updateAllowed: true,
      constraints: [C.range({ min: 0 })]
    })
  },
  attributes: {
    alarm_url: attr("A signed url to handle the alarm: a POST to it needs no credentials."),
    signal_url: attr(
      "A url to handle the alarm using native API (a POST with a token, e.g. a signal token)."
    )
  },
  async create(ctx) {
    return { physicalId: uuidFrom(ctx.idempotencyKey) };
  },
  async delete() {
    return {};
  },
  getReality: rowReality,
  async attribute(ctx, name) {
    const credentials = ctx.signalCredentials();
    if (!credentials) return null;
    if (name === "alarm_url") return credentials.alarmUrl;
    if (name === "signal_url") return credentials.endpoint;
    return null;
  },
  async handleSignal(ctx, details) {
    const state = notAlarming(details);
    if (state !== void 0) throw new NoActionRequired(`alarm state is ${state}`);
    const props = ctx.storedProperties ?? {};
    const cooldown = typeof props.cooldown === "number" ? props.cooldown : 0;
    const last = ctx.data[LAST_SCALED_KEY];
    if (cooldown > 0 && typeof last === "number" && ctx.now() < last + cooldown * 1e3) {
      throw new NoActionRequired("the policy is in cooldown");
    }
    const type = props.adjustment_type;
    const adjustment = Number(props.scaling_adjustment);
    const minStep = typeof props.min_adjustment_step === "number" ? props.min_adjustment_step : void 0;
    ctx.adjustResource(String(props.auto_scaling_group_id), (group) => {
      const current2 = groupCapacity(group.properties, group.data);
      const { min, max } = bounds(group.properties);
      return { [CAPACITY_KEY]: newCapacity(current2, adjustment, type, minStep, min, max) };
    });
    ctx.setData({ [LAST_SCALED_KEY]: ctx.now() });
    return `${type} ${adjustment}`;
  }
};

// src/resources/heat/stack.ts
var stackPlugin = {
  ...NESTED_STUBS,
  type: "OS::Heat::Stack",
  description: "A resource for managing stacks.",
  supportStatus: { version: "2014.2" },
  properties: {
    context: P.map({
      description: "Context for this stack (only a local stack is supported).",
      schema: { region_name: P.string({ description: "Region name in which this stack will be created." }) }
    }),
    template: P.string({
      description: "Template that specifies the stack to be created as a resource.",
      required: true,
      updateAllowed: true
    }),
    timeout: P.integer({
      description: "Number of minutes to wait for this stack creation.",
      updateAllowed: true
    }),
    parameters: P.map({
      description: "Set of parameters passed to this stack.",
      default: {},
      updateAllowed: true
    })
  },
  attributes: {
    stack_name: attr("Name of the stack.", "string"),
    outputs: attr("A dict of key-value pairs output from the stack.", "map")
  },
  // Each output of the child is also an attribute by name (the template is known only at run time).
  dynamicAttribute: () => true,
  nested: {
    child(properties) {
      const parameters = {};
      const given = properties.parameters;
      if (isPlainObject(given)) {
        for (const [k, v] of Object.entries(given)) if (v !== null) setOwn(parameters, k, v);
      }
      return { template: String(properties.template ?? ""), parameters };
    },
    attributes(view) {
      const outputs = {};
      for (const [k, v] of Object.entries(view.outputs)) if (k !== "OS::stack_id") setOwn(outputs, k, v);
      return { ...outputs, outputs, stack_name: view.childName, "OS::stack_id": view.childId };
    }
  }
};

// src/resources/heat/structured-config.ts
var structuredConfigPlugin = configPlugin({
  type: "OS::Heat::StructuredConfig",
  description: "A resource which has same logic with OS::Heat::SoftwareConfig, but whose config is a map serialized to JSON format when delivered.",
  properties: {
    ...CONFIG_SCHEMA_PROPERTIES,
    config: P.map({
      description: "Map representing the configuration data structure which will be serialized to JSON format."
    })
  },
  render: (properties) => properties.config ?? null
});

// src/resources/heat/test-resource.ts
var TYPE4 = "OS::Heat::TestResource";
var MAX_POLL_MS = 1e3;
function waitSecs(properties, action) {
  const perAction = properties.action_wait_secs;
  if (isPlainObject(perAction)) {
    const secs2 = Object.hasOwn(perAction, action) ? perAction[action] : void 0;
    if (typeof secs2 === "number") return secs2;
  }
  const secs = properties.wait_secs;
  return typeof secs === "number" ? secs : 0;
}
function failure(ctx) {
  return new ResourceFailure(`Test Resource failed ${ctx.resourceName}`);
}
function waitThen(ctx, result, action, secs, fail) {
  if (secs === 0) {
    if (fail && action !== "delete") throw failure(ctx);
    return result;
  }
  const waiting = { action, deadline: secs < 0 ? null : ctx.now() + secs * 1e3, fail };
  const pollAfterMs = secs < 0 ? MAX_POLL_MS : Math.min(secs * 1e3, MAX_POLL_MS);
  return { ...result, progress: { ...waiting }, pollAfterMs };
}
function readWaiting(progress) {
  if (!isPlainObject(progress)) throw new Error(`${TYPE4}: malformed progress ${JSON.stringify(progress)}`);
  const { action, deadline, fail } = progress;
  if (action !== "create" && action !== "update" && action !== "delete" || deadline !== null && typeof deadline !== "number" || typeof fail !== "boolean") {
    throw new Error(`${TYPE4}: malformed progress ${JSON.stringify(progress)}`);
  }
  return { action, deadline, fail };
}
async function findObject(ctx) {
  if (ctx.physicalId !== null) return ctx.reality.get(TYPE4, ctx.physicalId);
  return ctx.reality.findByKey(TYPE4, ctx.idempotencyKey);
}
function failIfInError(object) {
  if (object?.status === "ERROR") throw new ResourceInError(`${TYPE4} ${object.id} went to status ERROR`);
}
async function removeObject(ctx) {
  const object = await findObject(ctx);
  if (object !== void 0) await ctx.reality.delete(TYPE4, object.id);
}
async function checkComplete(ctx, progress) {
  const waiting = readWaiting(progress);
  if (waiting.action !== "delete") failIfInError(await findObject(ctx));
  const now = ctx.now();
  if (waiting.deadline !== null && now >= waiting.deadline) {
    if (waiting.action === "delete") {
      await removeObject(ctx);
    } else if (waiting.fail) {
      throw failure(ctx);
    }
    return { done: true };
  }
  const pollAfterMs = waiting.deadline === null ? MAX_POLL_MS : Math.min(waiting.deadline - now, MAX_POLL_MS);
  return { done: false, progress: { ...waiting }, pollAfterMs };
}
var testResourcePlugin = {
  type: TYPE4,
  description: "A resource which stores the string value that was provided. This resource is to be used only for testing. It has control knobs such as 'update_replace', 'fail', 'wait_secs'.",
  supportStatus: { version: "5.0.0" },
  properties: {
    constraint_prop_secs: P.number({
      description: "Number value for delay during resolve constraint.",
      default: 0,
      updateAllowed: true,
      constraints: [C.custom("test_constr")],
      supportStatus: { version: "6.0.0" }
    }),
    attr_wait_secs: P.number({
      description: "Number value for timeout during resolving output value.",
      default: 0,
      updateAllowed: true,
      supportStatus: { version: "6.0.0" }
    }),
    value: P.string({
      description: "The input string to be stored.",
      default: "test_string",
      updateAllowed: true
    }),
    update_replace_value: P.string({
      description: "Some value that can be stored but can not be updated.",
      supportStatus: { version: "7.0.0" }
    }),
    fail: P.boolean({
      description: "Value which can be set to fail the resource operation to test failure scenarios.",
      updateAllowed: true,
      default: false
    }),
    update_replace: P.boolean({
      description: "Value which can be set to trigger update replace for the particular resource.",
      updateAllowed: true,
      default: false
    }),
    wait_secs: P.number({
      description: "Seconds to wait after an action (-1 is infinite).",
      updateAllowed: true,
      default: 0
    }),
    action_wait_secs: P.map({
      description: "Options for simulating waiting.",
      updateAllowed: true,
      schema: {
        create: P.number({
          description: "Seconds to wait after a create. Defaults to the global wait_secs.",
          updateAllowed: true
        }),
        update: P.number({
          description: "Seconds to wait after an update. Defaults to the global wait_secs.",
          updateAllowed: true
        }),
        delete: P.number({
          description: "Seconds to wait after a delete. Defaults to the global wait_secs.",
          updateAllowed: true
        })
      }
    }),
    client_name: P.string({ description: "Client to poll.", default: "", updateAllowed: true }),
    entity_name: P.string({ description: "Client entity to poll.", default: "", updateAllowed: true })
  },
  attributes: {
    output: attr("The string that was stored. This value is also available by referencing the resource.")
  },
  async create(ctx, properties) {
    const fail = properties.fail === true;
    const result = {};
    if (!fail) {
      let object = await ctx.reality.findByKey(TYPE4, ctx.idempotencyKey);
      failIfInError(object);
      if (object === void 0) {
        object = {
          id: physicalResourceName(ctx),
          key: ctx.idempotencyKey,
          type: TYPE4,
          properties,
          status: "ACTIVE"
        };
        await ctx.reality.put(object);
      }
      result.physicalId = object.id;
      result.data = { value: properties.value };
    }
    return waitThen(ctx, result, "create", waitSecs(properties, "create"), fail);
  },
  checkCreateComplete: checkComplete,
  // A new value with update_replace set makes a new resource (decided up front, as Heat's
  // needs_replace_with_prop_diff, so previews and restricted_actions see it).
  needsReplace(properties, _previous, changed) {
    return changed.includes("value") && properties.update_replace === true;
  },
  async update(ctx, properties, _previous, changed) {
    const valueChanged = changed.includes("value");
    if (valueChanged && properties.update_replace === true) {
      throw new UpdateReplace(`${ctx.resourceName}: value changed and update_replace is set`);
    }
    if (ctx.physicalId === null) throw new UpdateReplace(`${ctx.resourceName} was never created`);
    const fail = properties.fail === true;
    const result = {};
    if (!fail) {
      const object = await ctx.reality.get(TYPE4, ctx.physicalId);
      if (object === void 0) throw new ResourceFailure(`${TYPE4} ${ctx.physicalId} not found`);
      await ctx.reality.put({ ...object, properties });
      if (valueChanged) result.data = { value: properties.value };
    }
    return waitThen(ctx, result, "update", valueChanged ? waitSecs(properties, "update") : 0, fail);
  },
  checkUpdateComplete: checkComplete,
  async delete(ctx) {
    const properties = ctx.storedProperties ?? {};
    const secs = waitSecs(properties, "delete");
    if (secs === 0) await removeObject(ctx);
    return waitThen(ctx, {}, "delete", secs, false);
  },
  checkDeleteComplete: checkComplete,
  async check(ctx) {
    if (ctx.physicalId === null) throw new ResourceFailure("Resource not created");
    if (await ctx.reality.get(TYPE4, ctx.physicalId) === void 0) {
      throw new ResourceFailure(`${TYPE4} ${ctx.physicalId} not found`);
    }
  },
  async getReality(ctx) {
    if (ctx.physicalId === null) return { state: "gone" };
    const object = await ctx.reality.get(TYPE4, ctx.physicalId);
    if (object === void 0) return { state: "gone" };
    return { state: "present", properties: { ...object.properties } };
  },
  async attribute(ctx, name) {
    const value = ctx.data.value;
    return name === "output" && value !== void 0 ? value : null;
  }
};

// src/resources/heat/value.ts
var VALUE_TYPES = ["string", "number", "comma_delimited_list", "json", "boolean"];
var TYPED = {
  string: P.string({ required: true }),
  number: P.number({ required: true }),
  comma_delimited_list: P.list({ required: true }),
  json: P.map({ required: true }),
  boolean: P.boolean({ required: true })
};
function typedValue(properties, path) {
  const value = properties.value ?? null;
  const type = properties.type;
  if (typeof type !== "string" || !Object.hasOwn(TYPED, type)) return value;
  const schema = { value: TYPED[type] };
  const converted = validateProperties(schema, { value }, path);
  return converted.value ?? null;
}
function runtimeValue(properties) {
  try {
    return typedValue(properties, []);
  } catch (err) {
    if (isTemplateError(err)) throw new ResourceFailure(`Property error: ${err.message}`);
    throw err;
  }
}
var valuePlugin = {
  type: "OS::Heat::Value",
  inRow: true,
  description: "A resource which exposes its value property as an attribute. This is useful for exposing a value that is a simple manipulation of other template parameters and/or other resources.",
  supportStatus: { version: "7.0.0" },
  properties: {
    value: P.any({
      description: 'The expression to generate the "value" attribute.',
      required: true,
      updateAllowed: true
    }),
    type: P.string({
      description: 'The type of the "value" property.',
      constraints: [C.allowedValues([...VALUE_TYPES])],
      updateAllowed: true
    })
  },
  attributes: {
    value: attr(
      `The value generated by this resource's properties "value" expression, with type determined from the properties "type".`
    )
  },
  validate(properties, path) {
    if (!containsUnknown(properties.type ?? null)) typedValue(properties, path);
  },
  async create(ctx, properties) {
    runtimeValue(properties);
    return { physicalId: physicalResourceName(ctx) };
  },
  async update(_ctx, properties) {
    runtimeValue(properties);
    return {};
  },
  async delete() {
    return {};
  },
  getReality: rowReality,
  async attribute(_ctx, name, properties) {
    return name === "value" ? runtimeValue(properties) : null;
  }
};

// src/resources/heat/wait-condition-handle.ts
var WAIT_CONDITION_HANDLE = "OS::Heat::WaitConditionHandle";
var TRANSPORTS = [
  "CFN_SIGNAL",
  "TEMP_URL_SIGNAL",
  "HEAT_SIGNAL",
  "NO_SIGNAL",
  "ZAQAR_SIGNAL",
  "TOKEN_SIGNAL"
];
var SIGNAL_KEYS = ["data", "id", "reason", "status"];
function receivedSignals(data) {
  return Array.isArray(data.signals) ? data.signals : [];
}
function pyStr(value) {
  if (typeof value === "string") return value;
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  return typeof value === "number" ? String(value) : pyJsonDumps(value);
}
function receiveSignal(signals, details) {
  const number = signals.length + 1;
  const body = {
    reason: `Signal ${number} received`,
    data: null,
    id: number,
    status: "SUCCESS",
    ...details
  };
  const keys = Object.keys(body).sort();
  const valid = keys.length === SIGNAL_KEYS.length && keys.every((k, i) => k === SIGNAL_KEYS[i]);
  if (!valid || body.status !== "SUCCESS" && body.status !== "FAILURE") {
    throw new ResourceFailure("Metadata format invalid");
  }
  const signal = {
    id: pyStr(body.id ?? null),
    status: body.status,
    reason: body.reason ?? null,
    data: body.data ?? null
  };
  const at = signals.findIndex((s) => s.id === signal.id);
  const next = at < 0 ? [...signals, signal] : signals.map((s, i) => i === at ? signal : s);
  return { signals: next, signal };
}
function tokenTransport(transport) {
  return transport === "TOKEN_SIGNAL" || transport === void 0;
}
function signalDetails(ctx, transport) {
  if (transport === "NO_SIGNAL") return "{}";
  const credentials = ctx.signalCredentials();
  if (transport === "CFN_SIGNAL")
    return credentials ? pyJsonDumps({ alarm_url: credentials.alarmUrl }) : null;
  if (transport === "HEAT_SIGNAL" || tokenTransport(transport)) {
    return pyJsonDumps({
      stack_id: ctx.stackId,
      resource_name: ctx.resourceName,
      ...credentials ? { endpoint: credentials.endpoint, token: credentials.token } : {}
    });
  }
  return null;
}
function curlCommand(endpoint, token) {
  return `curl -i -X POST -H 'X-Auth-Token: ${token}' -H 'Content-Type: application/json' -H 'Accept: application/json' ${endpoint}`;
}
var waitConditionHandlePlugin = {
  type: WAIT_CONDITION_HANDLE,
  inRow: true,
  description: "Resource for managing instance signals. The main points of this resource are: have no dependencies (so the instance can reference it); create credentials to allow for signalling from the instance; handle signals from the instance, validate and store result.",
  supportStatus: { version: "2014.2" },
  properties: {
    signal_transport: P.string({
      description: "How the client will signal the wait condition. Signals go through the orchestration API (`stack resource signal`) whatever the transport; NO_SIGNAL is accepted, as in Heat.",
      default: "TOKEN_SIGNAL",
      constraints: [C.allowedValues([...TRANSPORTS])],
      supportStatus: { version: "6.0.0" }
    })
  },
  attributes: {
    token: attr(
      "Token for stack-user which can be used for signalling handle when signal_transport is set to TOKEN_SIGNAL. None for all other signal transports (always None until Hearth has a REST API).",
      "string"
    ),
    endpoint: attr(
      "Endpoint/url which can be used for signalling handle when signal_transport is set to TOKEN_SIGNAL. None for all other signal transports.",
      "string"
    ),
    curl_cli: attr(
      "Convenience attribute, provides curl CLI command prefix, which can be used for signalling handle completion or failure when signal_transport is set to TOKEN_SIGNAL. None for all other signal transports.",
      "string"
    ),
    signal: attr(
      "JSON serialized map that includes the endpoint, token and/or other attributes the client must use for signalling this handle.",
      "string"
    )
  },
  async create(ctx) {
    return { physicalId: uuidFrom(ctx.idempotencyKey) };
  },
  async delete() {
    return {};
  },
  getReality: rowReality,
  async attribute(ctx, name, properties) {
    if (name === "signal") return signalDetails(ctx, properties.signal_transport);
    const credentials = tokenTransport(properties.signal_transport) ? ctx.signalCredentials() : void 0;
    if (!credentials) return null;
    if (name === "token") return credentials.token;
    if (name === "endpoint") return credentials.endpoint;
    if (name === "curl_cli") return curlCommand(credentials.endpoint, credentials.token);
    return null;
  },
  async handleSignal(ctx, details) {
    const { signals, signal } = receiveSignal(receivedSignals(ctx.data), details);
    ctx.setData({ signals });
    return `status:${signal.status} reason:${pyStr(signal.reason)}`;
  }
};

// src/resources/heat/wait-condition.ts
var LONGEST_PARK_MS = 6e4;
async function startWaiting(ctx, properties) {
  const ref = String(properties.handle);
  const handle = await ctx.readResource(ref);
  if (!handle || handle.type !== WAIT_CONDITION_HANDLE) {
    throw new ResourceFailure(`${handle?.name ?? ref} is not a valid wait condition handle.`);
  }
  const progress = {
    handle: handle.name,
    count: Number(properties.count ?? 1),
    deadline: ctx.now() + Number(properties.timeout) * 1e3
  };
  return {
    data: { handle: handle.name },
    progress,
    pollAfterMs: 0,
    wakeOnSignalTo: handle.name
  };
}
async function poll(ctx, state) {
  const progress = state;
  const signals = receivedSignals((await ctx.readResource(progress.handle))?.data ?? {});
  const failed = reasons(signals, "FAILURE");
  if (failed.length > 0) throw new ResourceFailure(`WaitConditionFailure: ${failed.join(";")}`);
  if (signals.length >= progress.count) return { done: true };
  const left = progress.deadline - ctx.now();
  if (left <= 0) {
    const received = reasons(signals, "SUCCESS");
    const summary = `${received.length} of ${progress.count} received`;
    throw new ResourceFailure(
      `WaitConditionTimeout: ${received.length > 0 ? `${summary} - ${received.join(";")}` : summary}`
    );
  }
  return {
    done: false,
    progress: state,
    pollAfterMs: Math.min(left, LONGEST_PARK_MS),
    wakeOnSignalTo: progress.handle
  };
}
function reasons(signals, status) {
  return signals.filter((s) => s.status === status).map((s) => pyStr(s.reason));
}
var waitConditionPlugin = {
  type: "OS::Heat::WaitCondition",
  description: "Resource for handling signals received by WaitConditionHandle. Resource takes WaitConditionHandle and starts to create. Resource is in CREATE_IN_PROGRESS status until WaitConditionHandle doesn't receive sufficient number of successful signals (this number can be specified with count property) and successfully creates after that, or fails due to timeout.",
  supportStatus: { version: "2014.2" },
  properties: {
    handle: P.string({
      description: "A reference to the wait condition handle used to signal this wait condition.",
      required: true
    }),
    timeout: P.number({
      description: "The number of seconds to wait for the correct number of signals to arrive.",
      required: true,
      constraints: [C.range({ min: 1, max: 43200 })]
    }),
    count: P.integer({
      description: "The number of success signals that must be received before the stack creation process continues.",
      default: 1,
      constraints: [C.range({ min: 1 })],
      updateAllowed: true
    })
  },
  attributes: {
    data: attr(
      "JSON string containing data associated with wait condition signals sent to the handle.",
      "string"
    )
  },
  async create(ctx, properties) {
    return { ...await startWaiting(ctx, properties), physicalId: uuidFrom(ctx.idempotencyKey) };
  },
  checkCreateComplete: poll,
  update: startWaiting,
  checkUpdateComplete: poll,
  async delete() {
    return {};
  },
  getReality: rowReality,
  /** `data`: the signals' data by id, in the order the ids first arrived, as Heat's JSON text. */
  async attribute(ctx, name, properties) {
    if (name !== "data") return null;
    const handle = typeof ctx.data.handle === "string" ? ctx.data.handle : String(properties.handle);
    const signals = receivedSignals((await ctx.readResource(handle))?.data ?? {});
    return `{${signals.map((s) => `${pyJsonDumps(s.id)}: ${pyJsonDumps(s.data)}`).join(", ")}}`;
  },
  referenceId(ctx) {
    return ctx.resourceName;
  }
};

// src/resources/catalog.ts
function builtinPlugins() {
  return [
    nonePlugin,
    valuePlugin,
    randomStringPlugin,
    testResourcePlugin,
    resourceGroupPlugin,
    autoScalingGroupPlugin,
    scalingPolicyPlugin,
    stackPlugin,
    softwareConfigPlugin,
    structuredConfigPlugin,
    cloudConfigPlugin,
    waitConditionHandlePlugin,
    waitConditionPlugin,
    resourceChainPlugin,
    delayPlugin,
    multipartMimePlugin
  ];
}
function pluginCatalog(plugins) {
  const byType = /* @__PURE__ */ new Map();
  const infos = /* @__PURE__ */ new Map();
  const typeCatalog = { get: (type) => infos.get(type) };
  for (const plugin of plugins) {
    if (byType.has(plugin.type)) throw new Error(`Two plugins implement the resource type ${plugin.type}`);
    byType.set(plugin.type, plugin);
    infos.set(plugin.type, describe(plugin, typeCatalog));
  }
  const names2 = [...byType.keys()].sort();
  return {
    plugin: (type) => byType.get(type),
    typeCatalog,
    types: () => [...names2]
  };
}
function describe(plugin, types2) {
  const info = typeInfo(plugin.type, plugin.properties, plugin.attributes, {
    description: plugin.description,
    ...plugin.supportStatus ? { supportStatus: plugin.supportStatus } : {},
    ...plugin.anyProperties ? { anyProperties: true } : {},
    ...plugin.dynamicAttribute ? { dynamicAttribute: (name) => plugin.dynamicAttribute(name) } : {},
    ...plugin.readAttribute ? { readAttribute: plugin.readAttribute.bind(plugin) } : {}
  });
  const validate = plugin.validate;
  if (validate === void 0 || plugin.anyProperties) return info;
  return {
    ...info,
    validateProperties(value, path) {
      const converted = validateProperties(plugin.properties, value, path);
      if (converted !== UNKNOWN) validate.call(plugin, converted, path, types2);
    }
  };
}

// src/cli/drain.ts
var DEFAULT_SHUTDOWN_MS = 2e4;
function drainOnSignals(engine, print) {
  const stop = new AbortController();
  const limit = engine.deps.settings.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_MS;
  let timer;
  const giveUp = async (why) => {
    print(`engine ${engine.deps.engineId}: ${why}; handing back its work
`);
    await engine.stop();
    await engine.deps.store.close().catch(() => void 0);
    process.exit(0);
  };
  const onSignal = () => {
    if (stop.signal.aborted) {
      void giveUp("stopped again");
      return;
    }
    print(`engine ${engine.deps.engineId} draining (at most ${limit} ms)
`);
    stop.abort();
    timer = setTimeout(() => void giveUp(`still busy after ${limit} ms`), limit);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return {
    signal: stop.signal,
    dispose: () => {
      clearTimeout(timer);
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    }
  };
}

// src/cli/embedded.ts
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { hostname as hostname2 } from "node:os";
import { dirname } from "node:path";

// src/config/errors.ts
function describeSource(source) {
  switch (source.kind) {
    case "default":
      return "default";
    case "file":
      if (source.line === void 0) return source.file;
      return source.column === void 0 ? `${source.file}:${source.line}` : `${source.file}:${source.line}:${source.column}`;
    case "env":
      return `environment variable ${source.variable}`;
    case "override":
      return "command-line override";
  }
}
function issue(source, detail, option, expected) {
  return { option, source, expected, detail, message: `${describeSource(source)}: ${detail}` };
}
var ConfigError = class extends Error {
  name = "ConfigError";
  issues;
  constructor(issues) {
    const first = issues[0];
    super(
      issues.length === 1 && first ? `invalid configuration: ${first.message}` : `invalid configuration (${issues.length} problems):
${issues.map((i) => `  ${i.message}`).join("\n")}`
    );
    this.issues = issues;
  }
};

// src/config/file.ts
import { extname } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
var INI_EXTENSIONS = /* @__PURE__ */ new Set([".ini", ".conf", ".cfg"]);
var YAML_EXTENSIONS = /* @__PURE__ */ new Set([".yaml", ".yml", ".json"]);
function detectFormat(file, text) {
  const ext = extname(file).toLowerCase();
  if (INI_EXTENSIONS.has(ext)) return "ini";
  if (YAML_EXTENSIONS.has(ext)) return "yaml";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    return /^\[[^\]]+\]$/.test(line) || /^[A-Za-z_][\w.-]*\s*=/.test(line) ? "ini" : "yaml";
  }
  return "yaml";
}
function parseConfigFile(file, text) {
  const body = text.charCodeAt(0) === 65279 ? text.slice(1) : text;
  const format = detectFormat(file, body);
  return { format, ...format === "ini" ? parseIni(file, body) : parseYamlConfig(file, body) };
}
function parseYamlConfig(file, text) {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false,
    // duplicates are reported below, with both lines
    prettyErrors: false,
    logLevel: "error"
  });
  const at = (offset) => {
    if (offset === void 0) return { kind: "file", file };
    const pos = lines.linePos(offset);
    return { kind: "file", file, line: pos.line, column: pos.col };
  };
  const syntax = doc.errors[0];
  if (syntax) {
    const pos = syntax.linePos?.[0];
    const source = pos ? { kind: "file", file, line: pos.line, column: pos.col } : at(syntax.pos[0]);
    return { entries: [], issues: [issue(source, `invalid YAML: ${syntax.message.split("\n")[0]}`)] };
  }
  const root = doc.contents;
  if (root === null || isScalar(root) && root.value === null) return { entries: [], issues: [] };
  if (!isMap(root)) {
    return {
      entries: [],
      issues: [issue(at(root.range[0]), "a config file must be a map of option names to values")]
    };
  }
  const entries2 = [];
  const issues = [];
  for (const pair of root.items) {
    const key = pair.key;
    const nameSource = at(key?.range?.[0]);
    if (!isScalar(key) || key.value === null || typeof key.value === "object") {
      issues.push(issue(nameSource, "an option name must be a plain string"));
      continue;
    }
    const name = String(key.value);
    const value = pair.value;
    entries2.push({
      name,
      value: yamlValue(value),
      nameSource,
      valueSource: value ? at(value.range?.[0]) : nameSource
    });
  }
  return { entries: entries2, issues };
}
function yamlValue(node) {
  if (node === null) return { kind: "invalid", what: "no value" };
  if (isMap(node)) return { kind: "invalid", what: "a map" };
  if (isSeq(node)) return { kind: "invalid", what: "a list" };
  if (!isScalar(node)) return { kind: "invalid", what: "an alias" };
  const v = node.value;
  if (v === null || v === void 0) return { kind: "invalid", what: "no value" };
  if (typeof v === "string") return { kind: "text", text: v };
  if (typeof v === "boolean") return { kind: "text", text: String(v), shown: `the boolean ${v}` };
  if (typeof v === "number") {
    return Number.isSafeInteger(v) ? { kind: "text", text: String(v), shown: `the number ${v}` } : { kind: "invalid", what: `the number ${v}` };
  }
  return { kind: "invalid", what: `a ${typeof v}` };
}
function parseIni(file, text) {
  const entries2 = [];
  const issues = [];
  let skipping = false;
  const lines = text.split(/\r?\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const lineNo = i + 1;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) continue;
    const indent = raw.length - raw.trimStart().length;
    const at = (column) => ({ kind: "file", file, line: lineNo, column });
    if (trimmed.startsWith("[")) {
      const m = /^\[([^\]]*)\]$/.exec(trimmed);
      if (!m) {
        issues.push(issue(at(indent + 1), `malformed section header ${JSON.stringify(trimmed)}`));
        skipping = true;
        continue;
      }
      const section = m[1].trim();
      skipping = section !== "DEFAULT";
      if (skipping) {
        issues.push(
          issue(
            at(indent + 1),
            `section [${section}] is not supported: Hearth reads its options from [DEFAULT] only` + (section === "database" ? " (Heat\u2019s [database] connection is Hearth\u2019s database option)" : "")
          )
        );
      }
      continue;
    }
    if (skipping) continue;
    if (indent > 0) {
      issues.push(issue(at(1), "continuation lines (indented lines) are not supported"));
      continue;
    }
    const sep = raw.search(/[=:]/);
    if (sep < 0) {
      issues.push(issue(at(1), `expected "name = value", got ${JSON.stringify(trimmed)}`));
      continue;
    }
    const name = raw.slice(0, sep).trim();
    if (name === "") {
      issues.push(issue(at(1), `an option name is missing before "${raw[sep]}"`));
      continue;
    }
    const afterSep = raw.slice(sep + 1);
    const valueColumn = sep + 2 + (afterSep.length - afterSep.trimStart().length);
    let value = afterSep.trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) {
      value = value.slice(1, -1);
    }
    entries2.push({
      name,
      value: { kind: "text", text: value },
      nameSource: at(1),
      valueSource: at(valueColumn)
    });
  }
  return { entries: entries2, issues };
}

// src/config/limits.ts
function templateLimitsFrom(config) {
  return {
    maxDocumentBytes: config.max_template_size,
    maxDocumentDepth: config.max_document_depth,
    maxDocumentNodes: config.max_document_nodes,
    maxAliasCount: config.max_document_aliases,
    maxNestingDepth: config.max_nested_stack_depth,
    // Heat's -1 is "unlimited"; the template layer compares counts against the limit.
    maxResourcesPerStack: config.max_resources_per_stack < 0 ? Infinity : config.max_resources_per_stack
  };
}

// src/config/load.ts
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// src/config/options.ts
import { availableParallelism } from "node:os";
var AUTH_MODES = ["standalone", "keystone", "noauth"];
var LOG_LEVELS = ["trace", "debug", "info", "warn", "error"];
var OPTIONS = {
  action_retry_limit: {
    type: "int",
    default: 5,
    min: 0,
    help: "Times to retry bringing a resource to a non-error state; 0 disables retries.",
    heat: { name: "action_retry_limit", default: "5" }
  },
  client_retry_limit: {
    type: "int",
    default: 2,
    min: 0,
    help: "Times to retry when a client meets an expected intermittent error; 0 disables retries.",
    heat: { name: "client_retry_limit", default: "2" }
  },
  max_resources_per_stack: {
    type: "int",
    default: 1e6,
    min: -1,
    help: "Most resources allowed in one top-level stack, nested stacks included; -1 means unlimited.",
    heat: {
      name: "max_resources_per_stack",
      default: "1000",
      note: "Hearth is built for million-resource stacks, so its default is 1000000."
    }
  },
  max_nested_stack_depth: {
    type: "int",
    default: 5,
    min: 0,
    help: "Deepest chain of nested stacks (template resources and OS::Heat::Stack).",
    heat: { name: "max_nested_stack_depth", default: "5" }
  },
  max_template_size: {
    type: "int",
    default: 256 * 1024 * 1024,
    min: 1,
    unit: "bytes",
    help: "Largest template or environment document, in bytes.",
    heat: {
      name: "max_template_size",
      default: "524288",
      note: "Hearth allows 256 MiB so that million-resource templates load."
    }
  },
  max_json_body_size: {
    type: "int",
    default: 512 * 1024 * 1024,
    min: 1,
    unit: "bytes",
    help: "Largest API request body, in bytes; should be larger than max_template_size.",
    heat: {
      name: "max_json_body_size",
      default: "1048576",
      note: "Raised with max_template_size: a request body carries the template and its files."
    }
  },
  max_events_per_stack: {
    type: "int",
    default: 1e3,
    min: 0,
    help: "Rough number of events kept per stack (older ones are purged); 0 means unlimited.",
    heat: { name: "max_events_per_stack", default: "1000" }
  },
  event_purge_batch_size: {
    type: "int",
    default: 200,
    min: 1,
    help: "How many events are removed whenever a stack's events are purged.",
    heat: { name: "event_purge_batch_size", default: "200" }
  },
  stack_action_timeout: {
    type: "int",
    default: 3600,
    min: 1,
    unit: "seconds",
    help: "Timeout of a stack action (create, update, delete, ...) when the request gives none, in seconds.",
    heat: { name: "stack_action_timeout", default: "3600" }
  },
  convergence_engine: {
    type: "bool",
    default: true,
    help: "Create new stacks with the convergence engine; false creates them in legacy mode.",
    heat: {
      name: "convergence_engine",
      default: "true",
      note: "Deprecated in Heat, together with its legacy engine."
    }
  },
  observe_on_update: {
    type: "bool",
    default: false,
    help: "On update, read resources' live properties and converge them to the updated template.",
    heat: { name: "observe_on_update", default: "false" }
  },
  convergence_migrate_on_update: {
    type: "bool",
    default: false,
    help: "Migrate a legacy stack to the convergence engine when it is next updated.",
    heat: {
      name: "heat-manage migrate_convergence_1",
      note: "A command, not an option: Heat migrates one stack at a time, by hand."
    }
  },
  num_engine_workers: {
    type: "int",
    default: () => Math.max(4, availableParallelism()),
    defaultText: "the larger of 4 and the number of CPUs",
    min: 1,
    help: "Number of engine workers to run.",
    heat: { name: "num_engine_workers", default: "the larger of 4 and the number of CPUs" }
  },
  periodic_interval: {
    type: "int",
    default: 60,
    min: 1,
    unit: "seconds",
    help: "Seconds between runs of periodic tasks (e.g. the observer, purges).",
    heat: { name: "periodic_interval", default: "60" }
  },
  engine_life_check_timeout: {
    type: "int",
    default: 2,
    min: 1,
    unit: "seconds",
    help: "Seconds allowed for the liveness check of an engine that holds a stack lock.",
    heat: {
      name: "engine_life_check_timeout",
      default: "2",
      note: "Heat times out an RPC call; Hearth checks the engine heartbeat in the store."
    }
  },
  database: {
    type: "string",
    default: "~/.hearth/hearth.db",
    help: "Where the store lives: a SQLite file path (`~` is the home directory) or a database URL.",
    heat: {
      name: "[database] connection",
      note: "Heat needs a MySQL or PostgreSQL URL; Hearth defaults to a SQLite file."
    }
  },
  database_pool_size: {
    type: "int",
    default: 10,
    min: 1,
    help: "Connections each process keeps open to a PostgreSQL store; a SQLite store ignores it.",
    heat: {
      name: "[database] max_pool_size",
      default: "5",
      note: "oslo.db also allows max_overflow connections beyond it; Hearth\u2019s pool never exceeds its size."
    }
  },
  log_level: {
    type: "enum",
    choices: LOG_LEVELS,
    default: "info",
    help: "Least severe log messages written: trace, debug, info, warn or error.",
    heat: {
      name: "debug",
      default: "false",
      note: "oslo.log has a boolean: `debug = true` is `log_level: debug`, `false` is `info`."
    }
  },
  work_lease_ms: {
    type: "int",
    default: 3e4,
    min: 1,
    unit: "ms",
    help: "How long a claimed unit of work stays an engine\u2019s before another engine may take it over, in ms.",
    heat: null
  },
  heartbeat_interval_ms: {
    type: "int",
    default: 1e3,
    min: 1,
    unit: "ms",
    help: "Interval between an engine\u2019s heartbeats, which renew its leases, in ms; less than work_lease_ms.",
    heat: null
  },
  engine_dead_after_ms: {
    type: "int",
    default: 5e3,
    min: 1,
    unit: "ms",
    help: "An engine whose last heartbeat is older than this is presumed dead and its work taken over, in ms; more than twice heartbeat_interval_ms.",
    heat: null
  },
  shutdown_timeout_ms: {
    type: "int",
    default: 2e4,
    min: 0,
    unit: "ms",
    help: "On SIGTERM an engine stops claiming work and has this long, in ms, to finish what it runs; the rest is handed back to other engines.",
    heat: {
      name: "graceful_shutdown_timeout",
      default: "60",
      note: "oslo.service\u2019s, in seconds, after which a stopping service just exits; Hearth\u2019s is in ms and hands unfinished work back at once."
    }
  },
  work_batch_size: {
    type: "int",
    default: 256,
    min: 1,
    max: 1e4,
    help: "Units of work an engine claims and runs at once; update nodes among them share their transactions.",
    heat: null
  },
  max_document_depth: {
    type: "int",
    default: 64,
    min: 1,
    help: "Deepest nesting of maps and lists inside one template or environment document.",
    heat: null
  },
  max_document_nodes: {
    type: "int",
    default: 5e7,
    min: 1,
    help: "Most YAML nodes (scalars, maps, lists) in one document, aliases expanded.",
    heat: null
  },
  max_document_aliases: {
    type: "int",
    default: 1e3,
    min: 0,
    help: "Most YAML alias expansions in one document (stops \u201Cbillion laughs\u201D documents).",
    heat: null
  },
  bind_host: {
    type: "string",
    default: "127.0.0.1",
    help: "Address the API server listens on.",
    heat: {
      name: "[heat_api] bind_host",
      default: "0.0.0.0",
      note: "Gone from current Heat, whose API runs under a WSGI server; Hearth listens on localhost only by default."
    }
  },
  bind_port: {
    type: "int",
    default: 8004,
    min: 0,
    max: 65535,
    help: "Port the API server listens on (8004 is Heat\u2019s orchestration API port); 0 picks a free port.",
    heat: { name: "[heat_api] bind_port", default: "8004", note: "Gone from current Heat, as bind_host." }
  },
  auth_mode: {
    type: "enum",
    choices: AUTH_MODES,
    default: "standalone",
    help: "How the API authenticates requests: standalone (tokens kept in the store), keystone or noauth.",
    heat: {
      name: "[paste_deploy] flavor",
      note: "Heat picks keystone or noauth by paste flavor; standalone tokens are Hearth\u2019s own. noauth serves loopback addresses only."
    }
  },
  keystone_url: {
    type: "string",
    default: "http://127.0.0.1:5000/v3",
    help: "Keystone v3 endpoint that validates tokens when auth_mode is keystone.",
    heat: { name: "[keystone_authtoken] www_authenticate_uri" }
  },
  keystone_service_user: {
    type: "string",
    default: "heat",
    help: "Hearth\u2019s own Keystone user: its token (the service token) is what lets Hearth validate tokens.",
    heat: { name: "[keystone_authtoken] username" }
  },
  keystone_service_password: {
    type: "string",
    default: "",
    secret: true,
    help: "Password of keystone_service_user; auth_mode keystone needs it. Never logged or shown.",
    heat: { name: "[keystone_authtoken] password" }
  },
  keystone_service_project: {
    type: "string",
    default: "service",
    help: "The project the service token is scoped to.",
    heat: { name: "[keystone_authtoken] project_name" }
  },
  keystone_service_user_domain: {
    type: "string",
    default: "Default",
    help: "The domain (name) of keystone_service_user.",
    heat: { name: "[keystone_authtoken] user_domain_name" }
  },
  keystone_service_project_domain: {
    type: "string",
    default: "Default",
    help: "The domain (name) of keystone_service_project.",
    heat: { name: "[keystone_authtoken] project_domain_name" }
  },
  keystone_token_cache_time: {
    type: "int",
    default: 30,
    min: 0,
    unit: "seconds",
    help: "Seconds a token Keystone validated is trusted without asking again (never past its expiry); 0 asks every time.",
    heat: {
      name: "[keystone_authtoken] token_cache_time",
      default: "300",
      note: "Hearth caches for less, so that a revoked token stops working sooner."
    }
  },
  keystone_timeout: {
    type: "int",
    default: 10,
    min: 1,
    unit: "seconds",
    help: "Seconds Hearth waits for an answer from Keystone before the request fails with 503.",
    heat: {
      name: "[keystone_authtoken] http_connect_timeout",
      note: "keystonemiddleware waits without limit when it is unset."
    }
  },
  max_stacks_per_tenant: {
    type: "int",
    default: 512,
    min: -1,
    help: "Most stacks one project may have, nested stacks included; -1 means unlimited.",
    heat: { name: "max_stacks_per_tenant", default: "512" }
  },
  public_api_url: {
    type: "string",
    default: "",
    help: "The URL clients reach the API at (signal URLs in attributes point there); empty: http://<bind_host>:<bind_port>.",
    heat: {
      name: "[clients_heat] url",
      note: "Heat takes the orchestration endpoint from the Keystone catalog when unset."
    }
  },
  auth_encryption_key: {
    type: "string",
    default: "",
    help: "Key signing signal tokens; empty: a key generated for the store on first use, shared by every process using it.",
    secret: true,
    heat: {
      name: "auth_encryption_key",
      note: "Heat encrypts stored credentials with it; Hearth signs the tokens that let a server signal one resource."
    }
  }
};
var OPTION_NAMES = Object.keys(OPTIONS);
function isOptionName(name) {
  return Object.prototype.hasOwnProperty.call(OPTIONS, name);
}
function optionSpec(name) {
  return OPTIONS[name];
}
var ENV_PREFIX = "HEARTH_";
function envVarName(name) {
  return ENV_PREFIX + name.toUpperCase();
}
var NON_OPTION_ENV_VARIABLES = /* @__PURE__ */ new Set([
  "HEARTH_CONFIG",
  // the configuration file (as --config)
  "HEARTH_DB",
  // the store, overriding `database` (as --db)
  "HEARTH_URL",
  // the API server a client command talks to
  "HEARTH_PROJECT",
  // the project of stacks managed without a server (embedded mode)
  "HEARTH_PROPERTY_SCALE",
  // test suite: how many times more the property tests run
  "HEARTH_TEST_BACKEND",
  // test suite: the store the engine tests run on (sqlite or postgres)
  "HEARTH_TEST_POSTGRES",
  // test suite: the PostgreSQL server the tests use
  "HEARTH_TEST_DATABASE"
  // test suite: the database on it the tests make their schemas in
]);
var HEAT_RENAMED = {
  debug: "Hearth sets verbosity with log_level (debug = true is log_level = debug)",
  verbose: "Hearth sets verbosity with log_level",
  connection: "Heat\u2019s [database] connection is Hearth\u2019s database option"
};
function defaultConfig() {
  const out = {};
  for (const name of OPTION_NAMES) {
    const spec2 = optionSpec(name);
    out[name] = typeof spec2.default === "function" ? spec2.default() : spec2.default;
  }
  return out;
}
function expectedText(spec2) {
  switch (spec2.type) {
    case "int": {
      const { min, max } = spec2;
      if (min !== void 0 && max !== void 0) return `an integer from ${min} to ${max}`;
      if (min !== void 0) return `an integer >= ${min}`;
      if (max !== void 0) return `an integer <= ${max}`;
      return "an integer";
    }
    case "bool":
      return "a boolean (true/false, yes/no, on/off, 1/0)";
    case "string":
      return "a non-empty string";
    case "enum":
      return `one of ${spec2.choices.join(", ")}`;
  }
}

// src/config/load.ts
var CONFIG_ENV_VARIABLE = "HEARTH_CONFIG";
function loadConfig(options = {}) {
  return loadConfigDetailed(options).config;
}
function loadConfigDetailed(options = {}) {
  const env = options.env ?? process.env;
  const values = { ...defaultConfig() };
  const sources = {};
  for (const name of OPTION_NAMES) sources[name] = { kind: "default" };
  const issues = [];
  const set = (name, value, source) => {
    values[name] = value;
    sources[name] = source;
  };
  const fromEnv = options.file === void 0;
  const file = options.file ?? nonEmpty(env[CONFIG_ENV_VARIABLE]);
  let format;
  if (file !== void 0) {
    const text = readConfigFile(file, fromEnv, issues);
    if (text !== void 0) {
      const parsed = parseConfigFile(file, text);
      format = parsed.format;
      const fileIssues = [...parsed.issues];
      const seen = /* @__PURE__ */ new Map();
      for (const entry of parsed.entries) {
        if (!isOptionName(entry.name)) {
          fileIssues.push(issue(entry.nameSource, unknownOption(entry.name, format), entry.name));
          continue;
        }
        const first = seen.get(entry.name);
        if (first) {
          fileIssues.push(
            issue(
              entry.nameSource,
              `option ${entry.name} is set twice (first at ${describeSource(first)})`,
              entry.name
            )
          );
          continue;
        }
        seen.set(entry.name, entry.nameSource);
        const checked = checkRaw(entry.name, entry.value, entry.valueSource, format);
        if ("issue" in checked) fileIssues.push(checked.issue);
        else set(entry.name, checked.value, entry.valueSource);
      }
      issues.push(...fileIssues.sort((a, b) => lineOf(a.source) - lineOf(b.source)));
    }
  }
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith(ENV_PREFIX) || NON_OPTION_ENV_VARIABLES.has(variable)) continue;
    const text = nonEmpty(env[variable]);
    if (text === void 0) continue;
    const source = { kind: "env", variable };
    const name = variable.slice(ENV_PREFIX.length).toLowerCase();
    if (!isOptionName(name) || envVarName(name) !== variable) {
      issues.push(issue(source, unknownEnvVariable(variable), name));
      continue;
    }
    const checked = checkRaw(name, { kind: "text", text }, source);
    if ("issue" in checked) issues.push(checked.issue);
    else set(name, checked.value, source);
  }
  for (const [name, value] of Object.entries(options.overrides ?? {})) {
    if (value === void 0) continue;
    const source = { kind: "override" };
    if (!isOptionName(name)) {
      issues.push(issue(source, unknownOption(name, "override"), name));
      continue;
    }
    const checked = checkTyped(name, value, source);
    if ("issue" in checked) issues.push(checked.issue);
    else set(name, checked.value, source);
  }
  if (issues.length === 0) issues.push(...crossChecks(values, sources));
  if (issues.length > 0) throw new ConfigError(issues);
  values.database = expandHome(values.database);
  return Object.freeze({
    config: Object.freeze(values),
    sources: Object.freeze(sources),
    file,
    format
  });
}
function crossChecks(values, sources) {
  const found = [];
  const show2 = (n) => `${n} (${String(values[n])}, ${describeSource(sources[n])})`;
  const check2 = (ok, blameFirst, other, why, shown) => {
    if (ok) return;
    const blame = sources[blameFirst]?.kind === "default" ? other : blameFirst;
    found.push(issue(sources[blame], `${why}: ${shown}`, blame));
  };
  const heartbeat = values.heartbeat_interval_ms;
  const lease = values.work_lease_ms;
  const deadAfter = values.engine_dead_after_ms;
  check2(
    heartbeat < lease,
    "heartbeat_interval_ms",
    "work_lease_ms",
    "heartbeat_interval_ms must be less than work_lease_ms, or leases expire between heartbeats",
    `${show2("heartbeat_interval_ms")} >= ${show2("work_lease_ms")}`
  );
  check2(
    deadAfter > 2 * heartbeat,
    "engine_dead_after_ms",
    "heartbeat_interval_ms",
    "engine_dead_after_ms must be more than twice heartbeat_interval_ms, or one late heartbeat makes a live engine look dead",
    `${show2("engine_dead_after_ms")} <= 2 * ${show2("heartbeat_interval_ms")}`
  );
  return found;
}
function lineOf(source) {
  return source.kind === "file" ? source.line ?? 0 : 0;
}
function nonEmpty(value) {
  return value === void 0 || value.trim() === "" ? void 0 : value;
}
function readConfigFile(file, fromEnv, issues) {
  const source = { kind: "file", file };
  const named = fromEnv ? ` (named by ${CONFIG_ENV_VARIABLE})` : "";
  if (file === "") {
    issues.push(issue(source, "the config file path is empty"));
    return void 0;
  }
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const code = err.code;
    const detail = code === "ENOENT" ? `config file does not exist${named}` : code === "EISDIR" ? `config file is a directory${named}` : `cannot read config file${named}: ${err.message}`;
    issues.push(issue(source, detail));
    return void 0;
  }
}
function expandHome(path, home = homedir()) {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}
var BOOL_WORDS = /* @__PURE__ */ new Map([
  ["true", true],
  ["t", true],
  ["yes", true],
  ["y", true],
  ["on", true],
  ["1", true],
  ["false", false],
  ["f", false],
  ["no", false],
  ["n", false],
  ["off", false],
  ["0", false]
]);
function checkRaw(name, raw, source, format) {
  const spec2 = optionSpec(name);
  const bad = (got2) => {
    const found = typeIssue(name, spec2, got2, source);
    if (format !== "ini" || raw.kind !== "text" || !/\s[#;]/.test(raw.text)) return { issue: found };
    const hint = " (in an INI file a comment after a value is part of the value: put it on a line of its own)";
    return { issue: issue(source, found.detail + hint, name, found.expected) };
  };
  if (raw.kind === "invalid") return bad(raw.what);
  const text = raw.text.trim();
  if (text === "") return bad("an empty value");
  const got = raw.shown ?? quote(raw.text);
  switch (spec2.type) {
    case "int": {
      if (!/^[+-]?\d+$/.test(text)) return bad(got);
      return checkInt(name, spec2, Number(text), got, source);
    }
    case "bool": {
      const value = BOOL_WORDS.get(text.toLowerCase());
      return value === void 0 ? bad(got) : { value };
    }
    case "string":
      return { value: text };
    case "enum": {
      const value = spec2.choices.find((c) => c === text.toLowerCase());
      return value === void 0 ? bad(got) : { value };
    }
  }
}
function checkTyped(name, value, source) {
  const spec2 = optionSpec(name);
  const bad = () => ({ issue: typeIssue(name, spec2, describeValue(value), source) });
  switch (spec2.type) {
    case "int":
      return typeof value === "number" ? checkInt(name, spec2, value, String(value), source) : bad();
    case "bool":
      return typeof value === "boolean" ? { value } : bad();
    case "string":
      return typeof value === "string" && value.trim() !== "" ? { value } : bad();
    case "enum":
      return typeof value === "string" && spec2.choices.includes(value) ? { value } : bad();
  }
}
function checkInt(name, spec2, value, got, source) {
  const inRange = Number.isSafeInteger(value) && (spec2.min === void 0 || value >= spec2.min) && (spec2.max === void 0 || value <= spec2.max);
  return inRange ? { value } : { issue: typeIssue(name, spec2, got, source) };
}
var VALUELESS = /* @__PURE__ */ new Set([
  "an empty value",
  "no value",
  "a map",
  "a list",
  "an alias",
  "null",
  "an object"
]);
function typeIssue(name, spec2, got, source) {
  const expected = expectedText(spec2);
  const secret = spec2.type === "string" && spec2.secret === true;
  const shown = secret && !VALUELESS.has(got) ? "a value not shown (a secret)" : got;
  return issue(source, `option ${name} expects ${expected}, got ${shown}`, name, expected);
}
function quote(text) {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
function describeValue(value) {
  if (typeof value === "string") return quote(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}
function unknownOption(name, where) {
  let detail = `unknown option ${JSON.stringify(name)}`;
  const renamed = HEAT_RENAMED[name];
  const near = closest(name, OPTION_NAMES);
  if (renamed !== void 0) detail += `: ${renamed}`;
  else if (where === "yaml" && name === "DEFAULT") {
    detail += ": a YAML config file is a flat map, so write the options at the top level";
  } else if (near !== void 0) detail += ` (did you mean ${near}?)`;
  return detail;
}
function unknownEnvVariable(variable) {
  const name = variable.slice(ENV_PREFIX.length).toLowerCase();
  const near = closest(variable, OPTION_NAMES.map(envVarName));
  const others = [...NON_OPTION_ENV_VARIABLES].join(", ");
  return `unknown option ${JSON.stringify(name)}` + (near === void 0 ? ` (${ENV_PREFIX}<OPTION> variables set options; the others with that prefix are ${others})` : ` (did you mean ${near}?)`);
}
function closest(name, candidates) {
  const target = name.toLowerCase();
  let best;
  let bestDistance = Math.max(2, Math.floor(target.length / 4)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(target, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost));
    }
    prev = row;
  }
  return prev[b.length];
}

// src/engine/deps.ts
var SYSTEM_CLOCK = { now: () => Date.now() };

// src/engine/engine.ts
import { hostname } from "node:os";

// src/engine/worker.ts
import { performance } from "node:perf_hooks";

// src/engine/batch.ts
async function loadBatch(deps, cache, running, items) {
  const byTraversal = /* @__PURE__ */ new Map();
  for (const item of items) {
    const list = byTraversal.get(item.traversalId);
    if (list) list.push(item);
    else byTraversal.set(item.traversalId, [item]);
  }
  const state = await deps.store.tx(async (tx) => {
    const stacks = /* @__PURE__ */ new Map();
    const points = /* @__PURE__ */ new Map();
    const traversals = /* @__PURE__ */ new Map();
    for (const [traversalId, group] of byTraversal) {
      const stackId = group[0].stackId;
      if (!stacks.has(stackId)) stacks.set(stackId, await tx.stacks.get(stackId));
      traversals.set(traversalId, await tx.traversals.get(traversalId));
      const found = await tx.sync.getMany(
        traversalId,
        group.map((i) => i.node)
      );
      for (const point of found) points.set(`${traversalId} ${point.node}`, point);
    }
    const rows = await tx.resources.getMany(items.map((i) => parseNodeKey(i.node).rowId));
    return { stacks, traversals, points, rows: new Map(rows.map((r) => [r.id, r])) };
  });
  const out = /* @__PURE__ */ new Map();
  for (const item of items) {
    const stack = state.stacks.get(item.stackId);
    const traversal = state.traversals.get(item.traversalId);
    if (!stack || VISITS.has(traversal?.action ?? "")) {
      out.set(item, void 0);
      continue;
    }
    const scope = {
      deps,
      cache,
      item,
      stack,
      traversal,
      point: state.points.get(`${item.traversalId} ${item.node}`),
      current: stack.traversalId === item.traversalId && traversal !== void 0,
      holder: holderOf(deps.engineId, item.id),
      running
    };
    if (scope.current && hasTimedOut(deps, stack)) out.set(item, void 0);
    else out.set(item, { scope, row: state.rows.get(parseNodeKey(item.node).rowId) });
  }
  return out;
}
async function lockBatch(deps, writes, started) {
  const locked = /* @__PURE__ */ new Map();
  if (writes.length === 0) return locked;
  await deps.store.tx(async (tx) => {
    const won = await tx.resources.updateMany(writes.map(toLockedWrite));
    const events = [];
    writes.forEach((write, index) => {
      if (!won.has(write.row.id)) return;
      const next = { ...write.row, ...write.changes, atomicKey: write.row.atomicKey + 1 };
      events.push(started(index, next));
      locked.set(index, next);
    });
    await tx.events.append(events);
  });
  return locked;
}
async function recordBatch(deps, results, drop) {
  if (results.length === 0 && drop.length === 0) return [];
  const now = deps.clock.now();
  return deps.store.tx(async (tx) => {
    const lost = [];
    const events = [];
    const completed = drop.map((scope) => scope.item);
    const reports = /* @__PURE__ */ new Map();
    const written = await tx.resources.updateMany(
      results.flatMap((result) => result.write ? [toLockedWrite(result.write)] : [])
    );
    for (const { scope, write, events: told, output } of results) {
      if (write) {
        if (!written.has(write.row.id)) {
          lost.push(scope);
          continue;
        }
        events.push(...told({ ...write.row, ...write.changes, atomicKey: write.row.atomicKey + 1 }));
      }
      completed.push(scope.item);
      if (!scope.current) continue;
      const key = scope.item.traversalId;
      let group = reports.get(key);
      if (!group) reports.set(key, group = { stack: scope.stack, finished: /* @__PURE__ */ new Map() });
      group.finished.set(scope.item.node, output);
    }
    await tx.events.append(events);
    for (const [traversalId, group] of reports) {
      await propagateMany(tx, group.stack, traversalId, group.finished, now);
    }
    await tx.work.completeMany(completed);
    return lost;
  });
}
function toLockedWrite(write) {
  return {
    id: write.row.id,
    expectedKey: write.row.atomicKey,
    expectedEngine: write.expectedEngine,
    changes: write.changes
  };
}

// src/engine/cleanup-batch.ts
var CleanupBatch = class {
  constructor(deps, cache, running) {
    this.deps = deps;
    this.cache = cache;
    this.running = running;
  }
  deps;
  cache;
  running;
  /** A cleanup node's first step; not a delete being retried (the single path counts those). */
  static accepts(item) {
    const payload = payloadOf(item);
    return item.kind === CHECK_NODE && payload.phase === "start" && !payload.retries && item.node.startsWith("c:");
  }
  /** Runs what it can of `items`; returns the items left for the single path. */
  async run(items) {
    const loaded = await loadBatch(this.deps, this.cache, this.running, items);
    const single = [];
    const drop = [];
    const results = [];
    const deleting = [];
    for (const [item, state] of loaded) {
      if (!state) {
        single.push(item);
        continue;
      }
      const { scope, row } = state;
      if (!scope.current || !scope.point || scope.point.done) drop.push(scope);
      else if (!row || row.action === "DELETE" && row.status === "COMPLETE")
        results.push({ scope, events: () => [], output: { rowId: row?.id ?? null } });
      else if (row.engineId !== null || childStackOf(row) !== void 0) single.push(item);
      else {
        const plugin = await pluginToDelete(scope, row);
        if (!plugin) results.push(this.finished(scope, row, null, false));
        else if (await hasHook(scope, row, "delete")) single.push(item);
        else deleting.push({ scope, row, plugin });
      }
    }
    const locked = await this.lock(deleting.filter((d) => !d.plugin.inRow));
    await Promise.all(
      [...deleting.filter((d) => d.plugin.inRow), ...locked].map(async (d) => {
        const outcome = await this.delete(d);
        if (outcome === "single") single.push(d.scope.item);
        else if (outcome) results.push(outcome);
      })
    );
    const lost = await recordBatch(this.deps, results, drop);
    await Promise.all(lost.map((scope) => retryLater(scope)));
    return single;
  }
  /** One transaction locks the rows whose delete reaches outside the row. */
  async lock(deleting) {
    const now = this.deps.clock.now();
    const locked = await lockBatch(
      this.deps,
      deleting.map(({ scope, row }) => ({
        row,
        expectedEngine: null,
        changes: { engineId: scope.holder, action: "DELETE", status: "IN_PROGRESS", reason: "state changed" }
      })),
      (_, next) => resourceEvent(next, "DELETE", "IN_PROGRESS", "state changed", now)
    );
    await Promise.all(deleting.filter((_, i) => !locked.has(i)).map((d) => retryLater(d.scope)));
    return [...locked].map(([index, row]) => ({
      ...deleting[index],
      row,
      holder: deleting[index].scope.holder
    }));
  }
  /**
   * The plugin's delete. Done at once: returned for recording. Otherwise a locked delete goes on
   * on the single path's terms (polling, failure); an in-row one, which has changed nothing yet,
   * is left to the single path whole.
   */
  async delete(d) {
    const { scope, row, plugin } = d;
    let result;
    try {
      result = await plugin.delete(pluginContext(scope, row));
    } catch (err) {
      if (plugin.inRow) return "single";
      await deleteFailed(scope, row, err, 0);
      return void 0;
    }
    if (result.progress !== void 0) {
      if (plugin.inRow) return "single";
      await afterDelete(scope, plugin, row, result, 0, 0);
      return void 0;
    }
    return this.finished(scope, row, plugin.inRow ? null : d.holder, true);
  }
  /** The row deleted (`deleted`) or only dropped from the database; purged when the traversal ends. */
  finished(scope, row, holder, deleted) {
    const now = this.deps.clock.now();
    const reason2 = deleted ? "state changed" : "deleted from the database only";
    const toldStart = deleted && holder === null;
    return {
      scope,
      write: {
        row,
        expectedEngine: holder,
        changes: { engineId: null, action: "DELETE", status: "COMPLETE", reason: reason2, progress: null }
      },
      events: (next) => [
        ...toldStart ? [resourceEvent(next, "DELETE", "IN_PROGRESS", "state changed", now)] : [],
        resourceEvent(next, "DELETE", "COMPLETE", reason2, now)
      ],
      output: { rowId: row.id }
    };
  }
};

// src/engine/update-batch.ts
var UpdateBatch = class {
  constructor(deps, cache, running) {
    this.deps = deps;
    this.cache = cache;
    this.running = running;
  }
  deps;
  cache;
  running;
  /** Whether an item can go in a batch at all (the rest is decided once its state is loaded). */
  static accepts(item) {
    return item.kind === CHECK_NODE && payloadOf(item).phase === "start" && item.node.startsWith("u:");
  }
  /** Runs what it can of `items`; returns the items left for the single path. */
  async run(items) {
    const loaded = await loadBatch(this.deps, this.cache, this.running, items);
    const single = [];
    const drop = [];
    const plans = [];
    for (const [item, state] of loaded) {
      if (!state?.row || state.row.replacedBy !== null) {
        single.push(item);
        continue;
      }
      const plan = await this.plan(state.scope, state.row);
      if (plan === "drop") drop.push(state.scope);
      else if (plan === "single") single.push(item);
      else plans.push(plan);
    }
    const acting = await this.lock(plans.filter((p) => p.op && !p.plugin.inRow));
    const finished = plans.filter((p) => !p.op).map((p) => ({ ...p, result: {} }));
    await Promise.all(
      [...plans.filter((p) => p.op && p.plugin.inRow), ...acting].map(async (plan) => {
        const outcome = await this.act(plan);
        if (outcome === "single") single.push(plan.scope.item);
        else if (outcome) finished.push(outcome);
      })
    );
    const lost = await recordBatch(this.deps, await this.results(finished), drop);
    await Promise.all(lost.map((scope) => retryLater(scope)));
    return single;
  }
  /** What update-node.ts would decide, when it is one of the common cases. */
  async plan(scope, row) {
    if (!scope.current || !scope.point || scope.point.done) return "drop";
    if (row.engineId !== null || row.status === "IN_PROGRESS") return "single";
    const definition = await definitionFor(scope, scope.traversal?.templateId ?? null);
    const resource = definition?.resources.get(row.name);
    if (!definition || !resource || resource.implementation.kind !== "plugin") return "single";
    const plugin = this.deps.plugins.plugin(resource.implementation.type);
    if (!plugin || isNestedPlugin(plugin)) return "single";
    let properties;
    try {
      properties = resolveProperties(definition, resource, plugin, inputsOf(scope.point));
    } catch (err) {
      if (isTemplateError(err)) return "single";
      throw err;
    }
    const decision = decide(plugin, row, resource.implementation.type, properties);
    if (decision === "replace") return "single";
    if (decision !== "none" && await hasHook(scope, row, decision)) return "single";
    return { scope, row, plugin, properties, op: decision === "none" ? void 0 : decision };
  }
  /** One transaction takes the locks of the actions that reach outside the row. */
  async lock(plans) {
    const now = this.deps.clock.now();
    const locked = await lockBatch(
      this.deps,
      plans.map((plan) => ({
        row: plan.row,
        expectedEngine: null,
        changes: startChanges(plan.scope, plan.op, plan.properties)
      })),
      (index, next) => resourceEvent(next, ACTION_OF[plans[index].op], "IN_PROGRESS", "state changed", now)
    );
    await Promise.all(plans.filter((_, i) => !locked.has(i)).map((plan) => retryLater(plan.scope)));
    return [...locked].map(([index, row]) => ({ ...plans[index], row, holder: plans[index].scope.holder }));
  }
  /**
   * Runs the plugin's action. Done at once: returned for recording. Otherwise a locked action
   * continues on the single path's terms (persisted polling, failure, replacement); an in-row one,
   * which has changed nothing yet, is left to the single path whole.
   */
  async act(plan) {
    const { scope, plugin, row, op, properties } = plan;
    let result;
    try {
      result = await runAction(scope, plugin, row, op, properties);
    } catch (err) {
      if (plugin.inRow) return "single";
      await actionFailed(scope, plugin, row, op, properties, err);
      return void 0;
    }
    if (result.progress !== void 0) {
      if (plugin.inRow) return "single";
      await afterAction(scope, plugin, row, op, properties, result, 0);
      return void 0;
    }
    return { ...plan, result };
  }
  /** What recording each finished node writes, tells and reports. */
  async results(finished) {
    const now = this.deps.clock.now();
    const out = [];
    for (const plan of finished) {
      const { scope, op } = plan;
      const row = { ...plan.row, ...resultChanges(plan.row, plan.result) };
      const { refId, attributes } = await outputsOf(plan.plugin, pluginContext(scope, row), plan.properties);
      const changes = doneChanges(scope, row, plan.properties, attributes, op);
      const output = { name: row.name, rowId: row.id, refId, attributes };
      out.push({
        scope,
        write: { row: plan.row, expectedEngine: plan.holder ?? null, changes },
        events: (next) => {
          if (!op) return [];
          const started = plan.plugin.inRow ? [resourceEvent(next, ACTION_OF[op], "IN_PROGRESS", "state changed", now)] : [];
          return [...started, resourceEvent(next, ACTION_OF[op], "COMPLETE", "state changed", now)];
        },
        output
      });
    }
    return out;
  }
};

// src/engine/worker.ts
var Worker = class {
  constructor(deps, cache, log = () => {
  }) {
    this.deps = deps;
    this.cache = cache;
    this.log = log;
  }
  deps;
  cache;
  log;
  running = /* @__PURE__ */ new Set();
  /** The claims this worker holds now, by item id: its heartbeat renews their leases. */
  held = /* @__PURE__ */ new Map();
  /** Units that failed and could not be handed back (the database was down): released later. */
  stranded = [];
  observers = /* @__PURE__ */ new Set();
  /** Tells `observer` of every unit run from now on; returns what stops it. */
  observe(observer) {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }
  report(kind, ok, ms2) {
    for (const observer of this.observers) {
      try {
        observer(kind, ok, ms2);
      } catch {
      }
    }
  }
  /**
   * Claims and runs up to `limit` units that are due now; returns how many ran. Update and
   * cleanup nodes in the common case run as batches (update-batch.ts, cleanup-batch.ts); the
   * others, and what the batches leave, one by one, concurrently.
   */
  async runDue(limit = this.deps.settings.workBatchSize ?? 256) {
    const { store, engineId, clock, settings } = this.deps;
    const items = await store.claimWork(engineId, clock.now(), limit, settings.workLeaseMs);
    for (const item of items) this.held.set(item.id, item);
    try {
      await this.runClaimed(items);
    } finally {
      for (const item of items) this.held.delete(item.id);
    }
    return items.length;
  }
  /** The claims held now (units being run). */
  heldClaims() {
    return [...this.held.values()];
  }
  /**
   * Hands back the units that failed while the database was unreachable, so that any engine can
   * run them again at once rather than after their lease. Those still unreachable stay for next time.
   */
  async releaseStranded() {
    if (this.stranded.length === 0) return;
    const { store, clock } = this.deps;
    const left = [];
    for (const item of this.stranded) {
      try {
        await store.tx((tx) => tx.work.reschedule(item, clock.now(), item.payload));
      } catch (err) {
        if (!(err instanceof ClaimLostError)) left.push(item);
      }
    }
    this.stranded = left;
  }
  async runClaimed(items) {
    const updates = [];
    const cleanups = [];
    const single = [];
    for (const item of items) {
      if (UpdateBatch.accepts(item)) updates.push(item);
      else if (CleanupBatch.accepts(item)) cleanups.push(item);
      else single.push(item);
    }
    const update = new UpdateBatch(this.deps, this.cache, this.running);
    const cleanup = new CleanupBatch(this.deps, this.cache, this.running);
    await Promise.all([
      this.runBatch(updates, (batch) => update.run(batch)),
      this.runBatch(cleanups, (batch) => cleanup.run(batch)),
      ...single.map((item) => this.run(item))
    ]);
  }
  /** Runs a batch, then what it leaves one by one. */
  async runBatch(items, run) {
    if (items.length === 0) return;
    for (const item of items) this.running.add(item.id);
    const start = performance.now();
    let left;
    try {
      left = await run(items);
      const share = (performance.now() - start) / items.length;
      const leftIds = new Set(left.map((item) => item.id));
      for (const item of items) if (!leftIds.has(item.id)) this.report(item.kind, true, share);
    } catch (err) {
      this.log(`a batch of ${items.length} units failed: ${errorMessage(err)}; running them one by one`);
      left = [...items];
    } finally {
      for (const item of items) this.running.delete(item.id);
    }
    await Promise.all(left.map((item) => this.run(item)));
  }
  async run(item) {
    this.running.add(item.id);
    const start = performance.now();
    try {
      if (item.kind === CHECK_NODE) await this.runNode(item);
      else if (item.kind === ROLLBACK) await this.runRollback(item);
      else if (item.kind === SIGNAL) await runSignal(this.deps, this.cache, item);
      else await this.deps.store.tx((tx) => tx.work.complete(item));
      this.report(item.kind, true, performance.now() - start);
    } catch (err) {
      this.report(item.kind, false, performance.now() - start);
      if (err instanceof ClaimLostError) {
        this.log(`unit of work ${item.id} (${item.kind} ${item.node}) was taken over: nothing recorded`);
        return;
      }
      this.log(`unit of work ${item.id} (${item.kind} ${item.node}) failed: ${errorMessage(err)}`);
      await this.deps.store.tx((tx) => tx.work.reschedule(item, this.deps.clock.now() + 1e3, item.payload)).catch((error) => {
        if (!(error instanceof ClaimLostError)) this.stranded.push(item);
      });
    } finally {
      this.running.delete(item.id);
    }
  }
  async runNode(item) {
    const { deps } = this;
    const loaded = await deps.store.tx(async (tx) => {
      const stack = await tx.stacks.get(item.stackId);
      const traversal = item.traversalId ? await tx.traversals.get(item.traversalId) : void 0;
      const point = item.traversalId ? await tx.sync.get(item.traversalId, item.node) : void 0;
      return { stack, traversal, point };
    });
    if (!loaded.stack) {
      await deps.store.tx((tx) => tx.work.complete(item));
      return;
    }
    const scope = {
      deps,
      cache: this.cache,
      item,
      stack: loaded.stack,
      traversal: loaded.traversal,
      point: loaded.point,
      current: loaded.stack.traversalId === item.traversalId && loaded.traversal !== void 0,
      holder: holderOf(deps.engineId, item.id),
      running: this.running
    };
    const payload = payloadOf(item);
    if (payload.phase === "poll" || payload.phase === "nested" || payload.phase === "retry") {
      const row = await deps.store.tx((tx) => tx.resources.get(payload.row));
      if (row && row.status === "IN_PROGRESS") {
        if (await failIfTimedOut(scope, row)) return;
      } else if (payload.phase === "retry" && await failIfTimedOut(scope)) {
        return;
      }
    } else if (await failIfTimedOut(scope)) {
      return;
    }
    const action = scope.traversal?.action ?? "";
    if (payload.phase === "nested") await resumeNested(scope, payload);
    else if (parseNodeKey(item.node).kind !== "u") await runCleanupNode(scope, payload);
    else if (action === "CHECK") await runCheckNode(scope, payload);
    else if (VISITS.has(action)) await runSuspendNode(scope, payload);
    else await runUpdateNode(scope, payload);
  }
  async runRollback(item) {
    await rollbackStack(this.deps, this.cache, item.stackId);
    await this.deps.store.tx((tx) => tx.work.complete(item));
  }
};

// src/engine/engine.ts
var DONE_CHECK_MS = 250;
var IDLE_POLL_MS = 200;
var FIRST_BACKOFF_MS = 100;
var MAX_BACKOFF_MS = 5e3;
var Engine = class {
  constructor(deps, log = () => {
  }) {
    this.deps = deps;
    this.log = log;
    this.cache = new TemplateCache(deps.plugins.typeCatalog, deps.settings.limits);
    this.worker = new Worker(deps, this.cache, log);
    this.started = deps.clock.now();
  }
  deps;
  log;
  cache;
  worker;
  lastBeat = 0;
  started;
  heartbeatTimer;
  beating;
  get heartbeatIntervalMs() {
    return this.deps.settings.heartbeatIntervalMs ?? 1e3;
  }
  /**
   * Records that this engine is alive, renews the leases of the units it runs, and reaps engines
   * that are not alive: the units they had claimed become claimable at once instead of after
   * their lease. An engine that was itself reaped (it stalled) simply registers again: what it
   * was running is fenced off by its lost claims.
   */
  async heartbeat(force = false) {
    const now = this.deps.clock.now();
    if (!force && now - this.lastBeat < this.heartbeatIntervalMs) return;
    this.lastBeat = now;
    const { engineId, settings } = this.deps;
    const held = this.worker.heldClaims();
    const reaped = await this.deps.store.tx(async (tx) => {
      await tx.services.heartbeat({
        engineId,
        host: hostname(),
        pid: process.pid,
        startedAt: this.started,
        heartbeatAt: now
      });
      if (held.length > 0) {
        await tx.work.renewClaims(held, now + settings.workLeaseMs, now + settings.workLeaseMs / 2);
      }
      const dead = (await tx.services.list()).filter(
        (s) => s.engineId !== engineId && !engineAlive(s, now, settings.engineDeadAfterMs)
      );
      for (const service of dead) {
        await tx.work.releaseClaimsOf(service.engineId, now);
        await tx.services.remove(service.engineId);
      }
      return dead.map((s) => s.engineId);
    });
    for (const id of reaped) this.log(`engine ${id} is gone: its work is released`);
  }
  /**
   * Heartbeats on a timer of its own, not between units of work: a long batch must not make this
   * engine look dead. A failed beat (the database is away) is retried at the next tick.
   */
  startHeartbeat() {
    if (this.heartbeatTimer) return;
    const beat = () => {
      if (this.beating) return;
      this.beating = this.heartbeat(true).catch((err) => this.log(`heartbeat failed: ${errorMessage(err)}`)).finally(() => this.beating = void 0);
    };
    this.heartbeatTimer = setInterval(beat, this.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
    beat();
  }
  async stopHeartbeat() {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = void 0;
    await this.beating;
  }
  /**
   * Runs work until `done` says so, or `signal` aborts (then it stops claiming and returns once
   * the units it runs have finished). Sleeps while nothing is due, waking early when the store
   * says work arrived. `done` is asked whenever nothing ran, and at least every DONE_CHECK_MS
   * while work keeps coming (other stacks' work must not hold up a caller whose own work has
   * ended). Store errors don't end it: it backs off and tries again, so an engine rides out a
   * lost connection or a database restart.
   */
  async runUntil(done, options = {}) {
    const ownHeartbeat = !this.heartbeatTimer;
    const wake = new Wakeup(options.signal);
    const unsubscribe = this.deps.store.onWork(() => wake.notify());
    if (ownHeartbeat) this.startHeartbeat();
    let lastCheck = this.deps.clock.now();
    let backoff = 0;
    try {
      while (!options.signal?.aborted) {
        try {
          await this.worker.releaseStranded();
          const ran = await this.worker.runDue();
          if (backoff > 0) this.log("the store is reachable again");
          backoff = 0;
          if (ran > 0 && this.deps.clock.now() - lastCheck < DONE_CHECK_MS) continue;
          lastCheck = this.deps.clock.now();
          if (await done()) return;
          if (ran > 0) continue;
          await options.onIdle?.();
          const next = await this.deps.store.nextWorkTime();
          const wait = next === void 0 ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(5, next - this.deps.clock.now()));
          await wake.wait(wait);
        } catch (err) {
          backoff = backoff === 0 ? FIRST_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, backoff * 2);
          this.log(`store error: ${errorMessage(err)}; trying again in ${backoff} ms`);
          await sleep(backoff * (0.5 + Math.random() / 2), options.signal);
        }
      }
    } finally {
      unsubscribe();
      if (ownHeartbeat) await this.stopHeartbeat();
    }
  }
  /**
   * Runs work until the stack's operation has settled (rollback included), reporting progress:
   * once before any work, at most every `reportEveryMs` (default 250) meanwhile, and once at the end.
   */
  async waitForStack(stackId, onProgress, options = {}) {
    const start = this.deps.clock.now();
    const every = options.reportEveryMs ?? 250;
    let lastReport = -Infinity;
    let last;
    const settled = async () => {
      const now = this.deps.clock.now();
      const due = onProgress !== void 0 && now - lastReport >= every;
      const { stack, pending, counts } = await this.deps.store.tx(async (tx) => {
        const found = await tx.stacks.get(stackId);
        return {
          stack: found,
          // Counting the queue costs a pass over the stack's units: only once the stack has settled.
          pending: found?.status === "IN_PROGRESS" ? void 0 : await tx.work.countForStack(stackId),
          counts: due ? await tx.stacks.progress(stackId) : void 0
        };
      });
      last = stack;
      const final = !stack || stack.status !== "IN_PROGRESS" && pending === 0;
      if (stack && onProgress && (due || final)) {
        lastReport = now;
        const latest = counts ?? await this.deps.store.tx((tx) => tx.stacks.progress(stackId));
        if (latest) await onProgress({ stack, elapsedMs: now - start, counts: latest, final });
      }
      return final;
    };
    if (await settled()) return last;
    await this.runUntil(settled, options.signal ? { signal: options.signal } : {});
    return last;
  }
  /**
   * Leaves the cluster: hands back every claim this engine holds and removes its heartbeat row, so
   * nobody waits for it to look dead. After a drain nothing runs any more; after a drain that ran
   * out of time, units still running lose their claims: other engines take them over at once, and
   * their late results are fenced off.
   */
  async stop() {
    await this.stopHeartbeat();
    const { store, engineId, clock } = this.deps;
    await store.tx(async (tx) => {
      await tx.work.releaseClaimsOf(engineId, clock.now());
      await tx.services.remove(engineId);
    }).catch(() => void 0);
  }
};
var Wakeup = class {
  constructor(signal) {
    this.signal = signal;
  }
  signal;
  pending = false;
  resolve;
  notify() {
    if (this.resolve) this.resolve();
    else this.pending = true;
  }
  async wait(ms2) {
    if (this.pending) {
      this.pending = false;
      return;
    }
    await new Promise((resolve) => {
      this.resolve = resolve;
      void sleep(ms2, this.signal).then(resolve);
    });
    this.resolve = void 0;
    this.pending = false;
  }
};
function sleep(ms2, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms2);
    signal?.addEventListener("abort", done, { once: true });
  });
}

// src/resources/reality/memory.ts
function copy(object) {
  return structuredClone(object);
}
var MemoryReality = class {
  tables = /* @__PURE__ */ new Map();
  async findByKey(type, key) {
    const table = this.tables.get(type);
    const ids = table?.byKey.get(key);
    if (table === void 0 || ids === void 0) return void 0;
    for (const id of ids) return copy(table.byId.get(id));
    return void 0;
  }
  async get(type, id) {
    const object = this.tables.get(type)?.byId.get(id);
    return object === void 0 ? void 0 : copy(object);
  }
  /** Creates the object, or replaces the one of the same type and id. */
  async put(object) {
    let table = this.tables.get(object.type);
    if (table === void 0) this.tables.set(object.type, table = { byId: /* @__PURE__ */ new Map(), byKey: /* @__PURE__ */ new Map() });
    const previous = table.byId.get(object.id);
    if (previous !== void 0) unindex(table, previous);
    table.byId.set(object.id, copy(object));
    let ids = table.byKey.get(object.key);
    if (ids === void 0) table.byKey.set(object.key, ids = /* @__PURE__ */ new Set());
    ids.add(object.id);
  }
  /** True when there was such an object. */
  async delete(type, id) {
    const table = this.tables.get(type);
    const object = table?.byId.get(id);
    if (table === void 0 || object === void 0) return false;
    table.byId.delete(id);
    unindex(table, object);
    if (table.byId.size === 0) this.tables.delete(type);
    return true;
  }
  /** Every object (of one type, when given), for tests and inspection. */
  list(type) {
    const tables = type === void 0 ? [...this.tables.values()] : [this.tables.get(type)];
    return tables.flatMap((t) => t === void 0 ? [] : [...t.byId.values()].map(copy));
  }
  /** How many objects there are. */
  get size() {
    let n = 0;
    for (const t of this.tables.values()) n += t.byId.size;
    return n;
  }
  clear() {
    this.tables.clear();
  }
};
function unindex(table, object) {
  const ids = table.byKey.get(object.key);
  ids?.delete(object.id);
  if (ids?.size === 0) table.byKey.delete(object.key);
}

// src/resources/reality/postgres.ts
import pg from "pg";

// src/store/postgres/errors.ts
var SERIALIZATION_FAILURE = "40001";
var DEADLOCK_DETECTED = "40P01";
function sqlState(error) {
  const code = error?.code;
  return typeof code === "string" ? code : void 0;
}
function isRetryable(error) {
  const code = sqlState(error);
  return code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED;
}
function isConnectionError(error) {
  const code = sqlState(error);
  if (code === void 0) return error instanceof Error && /Connection terminated/i.test(error.message);
  return code.startsWith("08") || code.startsWith("57P") || ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH"].includes(code);
}

// src/resources/reality/postgres.ts
var OUTAGE_PATIENCE_MS = 3e4;
var PostgresReality = class {
  pool;
  ready;
  constructor(url) {
    this.pool = new pg.Pool({ connectionString: url, max: 4, allowExitOnIdle: true });
    this.pool.on("error", () => void 0);
  }
  table() {
    this.ready ??= (async () => {
      await this.pool.query(`CREATE TABLE IF NOT EXISTS reality_objects (
        type TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (type, id))`);
      await this.pool.query("CREATE INDEX IF NOT EXISTS reality_objects_key ON reality_objects (type, key)");
    })().catch((error) => {
      this.ready = void 0;
      throw error;
    });
    return this.ready;
  }
  /**
   * Runs a statement, riding out a database restart: the objects live in the database the engines
   * use, so its outage is theirs too, and the engines' store waits for it rather than fail (every
   * statement here is safe to run again: reads, an upsert, a delete).
   */
  async query(sql, params) {
    const deadline = Date.now() + OUTAGE_PATIENCE_MS;
    for (let wait = 100; ; wait = Math.min(2 * wait, 2e3)) {
      try {
        await this.table();
        return await this.pool.query(sql, params);
      } catch (error) {
        if (!isConnectionError(error) || Date.now() + wait > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
  async findByKey(type, key) {
    const { rows } = await this.query(
      "SELECT body FROM reality_objects WHERE type = $1 AND key = $2 ORDER BY created_at, id LIMIT 1",
      [type, key]
    );
    return rows[0] ? JSON.parse(rows[0].body) : void 0;
  }
  async get(type, id) {
    const { rows } = await this.query("SELECT body FROM reality_objects WHERE type = $1 AND id = $2", [
      type,
      id
    ]);
    return rows[0] ? JSON.parse(rows[0].body) : void 0;
  }
  async put(object) {
    await this.query(
      `INSERT INTO reality_objects (type, id, key, body) VALUES ($1, $2, $3, $4)
       ON CONFLICT (type, id) DO UPDATE SET key = excluded.key, body = excluded.body`,
      [object.type, object.id, object.key, JSON.stringify(object)]
    );
  }
  async delete(type, id) {
    const result = await this.query("DELETE FROM reality_objects WHERE type = $1 AND id = $2", [type, id]);
    return (result.rowCount ?? 0) > 0;
  }
  /** Every object (for tests: duplicates and leaks). */
  async list() {
    const { rows } = await this.query("SELECT body FROM reality_objects ORDER BY created_at, id", []);
    return rows.map((r) => JSON.parse(r.body));
  }
  async close() {
    await this.pool.end();
  }
};

// src/resources/reality/sqlite.ts
import Database from "better-sqlite3";
var SqliteReality = class {
  db;
  constructor(path) {
    this.db = new Database(path);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 10000");
    this.db.exec(`CREATE TABLE IF NOT EXISTS reality_objects (
      type TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL,
      PRIMARY KEY (type, id))`);
    this.db.exec("CREATE INDEX IF NOT EXISTS reality_objects_key ON reality_objects (type, key)");
  }
  async findByKey(type, key) {
    const row = this.db.prepare("SELECT body FROM reality_objects WHERE type = ? AND key = ? ORDER BY rowid LIMIT 1").get(type, key);
    return row ? JSON.parse(row.body) : void 0;
  }
  async get(type, id) {
    const row = this.db.prepare("SELECT body FROM reality_objects WHERE type = ? AND id = ?").get(type, id);
    return row ? JSON.parse(row.body) : void 0;
  }
  async put(object) {
    this.db.prepare(
      "INSERT INTO reality_objects (type, id, key, body) VALUES (?, ?, ?, ?) ON CONFLICT (type, id) DO UPDATE SET key = excluded.key, body = excluded.body"
    ).run(object.type, object.id, object.key, JSON.stringify(object));
  }
  async delete(type, id) {
    return this.db.prepare("DELETE FROM reality_objects WHERE type = ? AND id = ?").run(type, id).changes > 0;
  }
  /** Every object (for tests and the crash-test leak check). */
  list() {
    return this.db.prepare("SELECT body FROM reality_objects ORDER BY rowid").all().map((r) => JSON.parse(r.body));
  }
  close() {
    this.db.close();
  }
};

// src/store/sql/driver.ts
var WORK_CHANNEL = "hearth_work";
var sqliteDialect = {
  name: "sqlite",
  // AUTOINCREMENT: ids are never reused, so a purged resource id can't come back as another row
  // (graph nodes and `requires` lists hold ids) and event ids stay a valid cursor.
  autoIdColumn: "id INTEGER PRIMARY KEY AUTOINCREMENT",
  // Write transactions begin IMMEDIATE, so claimers are already serialised.
  claimLock: "",
  migrationLock: null,
  tableExists: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1",
  // Other processes on a SQLite file poll; this process's engine is told in memory.
  notifyWork: null,
  maxParams: 32766,
  nullSafeEquals: (a, b) => `${a} IS ${b}`,
  inIntegers: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  inStrings: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  bigintParam: (param) => param
};
var postgresDialect = {
  name: "postgres",
  autoIdColumn: "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
  claimLock: " FOR UPDATE SKIP LOCKED",
  migrationLock: "SELECT pg_advisory_xact_lock(4242424242)",
  // to_regclass resolves the name through search_path, as the store's own statements do.
  tableExists: "SELECT 1 WHERE to_regclass($1) IS NOT NULL",
  notifyWork: `NOTIFY ${WORK_CHANNEL}`,
  maxParams: 65535,
  nullSafeEquals: (a, b) => `${a} IS NOT DISTINCT FROM ${b}`,
  inIntegers: (column, param) => `${column} = ANY(ARRAY(SELECT (jsonb_array_elements_text(${param}::jsonb))::bigint))`,
  inStrings: (column, param) => `${column} = ANY(ARRAY(SELECT jsonb_array_elements_text(${param}::jsonb)))`,
  bigintParam: (param) => `${param}::bigint`
};

// src/store/sql/columns.ts
function encodeValue(kind, value) {
  if (value === null || value === void 0) return null;
  switch (kind) {
    case "text":
      return String(value);
    case "int":
      return value;
    case "bool":
      return value ? 1 : 0;
    case "json":
      return JSON.stringify(value);
    case "time":
      return encodeTime(value);
  }
}
function decodeValue(kind, value) {
  if (value === null || value === void 0) return null;
  switch (kind) {
    case "text":
      return value;
    case "int":
      return Number(value);
    case "bool":
      return Number(value) !== 0;
    case "json":
      if (value === "{}") return {};
      if (value === "[]") return [];
      return JSON.parse(value);
    case "time":
      return decodeTime(Number(value));
  }
}
var lastDecoded = { ms: NaN, iso: "" };
function decodeTime(ms2) {
  if (ms2 !== lastDecoded.ms) lastDecoded = { ms: ms2, iso: new Date(ms2).toISOString() };
  return lastDecoded.iso;
}
function normalizeTime(value) {
  if (value === null) return null;
  if (value !== lastNormalized.input)
    lastNormalized = { input: value, output: new Date(encodeTime(value)).toISOString() };
  return lastNormalized.output;
}
var lastEncoded = { input: void 0, ms: 0 };
var lastNormalized = { input: void 0, output: "" };
function encodeTime(value) {
  if (typeof value === "number") return value;
  if (value === lastEncoded.input) return lastEncoded.ms;
  const ms2 = Date.parse(String(value));
  if (!Number.isFinite(ms2)) throw new TypeError(`invalid timestamp: ${JSON.stringify(value)}`);
  lastEncoded = { input: String(value), ms: ms2 };
  return ms2;
}
var TableSpec = class _TableSpec {
  constructor(table, columns) {
    this.table = table;
    this.columns = columns;
    this.columnNames = columns.map((c) => c.column);
    this.byField = new Map(columns.map((c) => [c.field, c]));
  }
  table;
  columns;
  columnNames;
  byField;
  /** The same mapping without some fields (e.g. the database-assigned id, for inserts). */
  omit(...fields) {
    return new _TableSpec(
      this.table,
      this.columns.filter((c) => !fields.includes(c.field))
    );
  }
  /** The mapping of some fields only (a narrower read). */
  pick(...fields) {
    return new _TableSpec(
      this.table,
      this.columns.filter((c) => fields.includes(c.field))
    );
  }
  /** The column that stores `field`; an unknown field is a bug. */
  columnOf(field) {
    const column = this.byField.get(field);
    if (!column) throw new TypeError(`${this.table}: no field "${field}"`);
    return column;
  }
  decode(row) {
    const record = {};
    for (const c of this.columns) record[c.field] = decodeValue(c.kind, row[c.column]);
    return record;
  }
  /** The values of `record` in column order (fields it lacks are NULL). */
  encode(record) {
    const values = record;
    return this.columns.map((c) => encodeValue(c.kind, values[c.field]));
  }
  /**
   * `col = $n, ...` for the defined fields of `changes`, numbering placeholders from `firstParam`.
   * Fields in `skip` are ignored (so a caller may pass a whole record); unknown fields are a bug.
   */
  setClause(changes, firstParam, skip) {
    const parts = [];
    const params = [];
    for (const [field, value] of Object.entries(changes)) {
      if (value === void 0 || skip.has(field)) continue;
      const column = this.byField.get(field);
      if (!column) throw new TypeError(`${this.table}: no field "${field}"`);
      params.push(encodeValue(column.kind, value));
      parts.push(`${column.column} = $${firstParam + params.length - 1}`);
    }
    return { sql: parts.join(", "), params };
  }
};
var MAX_ROWS_PER_STATEMENT = 500;
function rowsPerStatement(dialect, columnCount) {
  return Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(dialect.maxParams / columnCount)));
}
var sqlCache = /* @__PURE__ */ new Map();
function memoSql(key, build) {
  let sql = sqlCache.get(key);
  if (sql === void 0) {
    sql = build();
    if (sqlCache.size > 1e3) sqlCache.clear();
    sqlCache.set(key, sql);
  }
  return sql;
}
function insertSql(table, columns, rows) {
  return memoSql(`insert ${table}(${columns.join(",")})*${rows}`, () => {
    const tuples = [];
    let n = 1;
    for (let r = 0; r < rows; r++) tuples.push(`(${columns.map(() => `$${n++}`).join(", ")})`);
    return `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${tuples.join(", ")}`;
  });
}
async function batchInsert(db, dialect, table, columns, rows, returning) {
  const out = [];
  const size = rowsPerStatement(dialect, columns.length);
  for (let start = 0; start < rows.length; start += size) {
    const end = Math.min(rows.length, start + size);
    const params = [];
    for (let r = start; r < end; r++) for (const value of rows[r]) params.push(value);
    const sql = insertSql(table, columns, end - start);
    if (returning === void 0) await db.run(sql, params);
    else for (const row of await db.all(`${sql} RETURNING ${returning}`, params)) out.push(row);
  }
  return out;
}

// src/store/sql/tables.ts
function spec(table, columns) {
  return new TableSpec(
    table,
    columns.map(([field, column, kind]) => ({ field, column, kind }))
  );
}
var STACKS = spec("stacks", [
  ["id", "id", "text"],
  ["name", "name", "text"],
  ["projectId", "project_id", "text"],
  ["parentId", "parent_id", "text"],
  ["parentResource", "parent_resource", "text"],
  ["rootId", "root_stack_id", "text"],
  ["action", "action", "text"],
  ["status", "status", "text"],
  ["reason", "reason", "text"],
  ["traversalId", "traversal_id", "text"],
  ["templateId", "template_id", "text"],
  ["prevTemplateId", "prev_template_id", "text"],
  ["convergence", "convergence", "bool"],
  ["timeoutMins", "timeout_mins", "int"],
  ["disableRollback", "disable_rollback", "bool"],
  ["tags", "tags", "json"],
  ["createdAt", "created_at", "time"],
  ["updatedAt", "updated_at", "time"],
  ["deletedAt", "deleted_at", "time"]
]);
var TEMPLATES = spec("templates", [
  ["id", "id", "text"],
  ["template", "template", "text"],
  ["url", "url", "text"],
  ["files", "files", "json"],
  ["environment", "environment", "json"],
  ["createdAt", "created_at", "time"]
]);
var RESOURCES = spec("resources", [
  ["id", "id", "int"],
  ["uuid", "uuid", "text"],
  ["stackId", "stack_id", "text"],
  ["rootStackId", "root_stack_id", "text"],
  ["name", "name", "text"],
  ["type", "type", "text"],
  ["action", "action", "text"],
  ["status", "status", "text"],
  ["reason", "reason", "text"],
  ["physicalId", "physical_id", "text"],
  ["templateId", "template_id", "text"],
  ["properties", "properties", "json"],
  ["attributes", "attributes", "json"],
  ["data", "data", "json"],
  ["progress", "progress", "json"],
  ["requires", "requires", "json"],
  ["replaces", "replaces", "int"],
  ["replacedBy", "replaced_by", "int"],
  ["engineId", "engine_id", "text"],
  ["atomicKey", "atomic_key", "int"],
  ["unhealthy", "unhealthy", "bool"],
  ["createdAt", "created_at", "time"],
  ["updatedAt", "updated_at", "time"],
  ["createRetries", "create_retries", "int"]
]);
var TRAVERSALS = spec("traversals", [
  ["id", "id", "text"],
  ["stackId", "stack_id", "text"],
  ["rootStackId", "root_stack_id", "text"],
  ["action", "action", "text"],
  ["templateId", "template_id", "text"],
  ["remaining", "remaining", "int"],
  ["createdAt", "created_at", "time"]
]);
var EVENTS = spec("events", [
  ["id", "id", "int"],
  ["uuid", "uuid", "text"],
  ["stackId", "stack_id", "text"],
  ["resourceName", "resource_name", "text"],
  ["resourceType", "resource_type", "text"],
  ["physicalId", "physical_id", "text"],
  ["action", "action", "text"],
  ["status", "status", "text"],
  ["reason", "reason", "text"],
  ["createdAt", "created_at", "time"]
]);
var WORK = spec("work", [
  ["id", "id", "int"],
  ["rootStackId", "root_stack_id", "text"],
  ["stackId", "stack_id", "text"],
  ["traversalId", "traversal_id", "text"],
  ["kind", "kind", "text"],
  ["node", "node", "text"],
  ["payload", "payload", "json"],
  ["runAt", "run_at", "int"],
  ["attempts", "attempts", "int"],
  ["claimedBy", "claimed_by", "text"],
  ["claimExpires", "claim_expires", "int"],
  ["waitingFor", "waiting_for", "text"]
]);
var SERVICES = spec("services", [
  ["engineId", "engine_id", "text"],
  ["host", "host", "text"],
  ["pid", "pid", "int"],
  ["startedAt", "started_at", "int"],
  ["heartbeatAt", "heartbeat_at", "int"]
]);
var PROJECTS = spec("projects", [
  ["id", "id", "text"],
  ["name", "name", "text"],
  ["createdAt", "created_at", "time"]
]);
var USERS = spec("users", [
  ["id", "id", "text"],
  ["name", "name", "text"],
  ["projectId", "project_id", "text"],
  ["roles", "roles", "json"],
  ["createdAt", "created_at", "time"]
]);
var TOKENS = spec("api_tokens", [
  ["id", "id", "text"],
  ["tokenHash", "token_hash", "text"],
  ["userId", "user_id", "text"],
  ["expiresAt", "expires_at", "int"],
  ["createdAt", "created_at", "time"]
]);

// src/store/sql/auth.ts
var INSERT_PROJECT = insertSql("projects", PROJECTS.columnNames, 1);
var INSERT_USER = insertSql("users", USERS.columnNames, 1);
var INSERT_TOKEN = insertSql("api_tokens", TOKENS.columnNames, 1);
function authRepository(db) {
  return {
    async insertProject(project) {
      await db.run(INSERT_PROJECT, PROJECTS.encode(project));
    },
    async findProject(idOrName) {
      const [row] = await db.all("SELECT * FROM projects WHERE id = $1 OR name = $1 ORDER BY id = $1 DESC", [
        idOrName
      ]);
      return row && PROJECTS.decode(row);
    },
    async insertUser(user) {
      await db.run(INSERT_USER, USERS.encode(user));
    },
    async findUser(projectId, idOrName) {
      const [row] = await db.all(
        "SELECT * FROM users WHERE project_id = $1 AND (id = $2 OR name = $2) ORDER BY id = $2 DESC",
        [projectId, idOrName]
      );
      return row && USERS.decode(row);
    },
    async insertToken(token) {
      await db.run(INSERT_TOKEN, TOKENS.encode(token));
    },
    async findToken(tokenHash) {
      const [tokenRow] = await db.all("SELECT * FROM api_tokens WHERE token_hash = $1", [tokenHash]);
      if (!tokenRow) return void 0;
      const token = TOKENS.decode(tokenRow);
      const [userRow] = await db.all("SELECT * FROM users WHERE id = $1", [token.userId]);
      return userRow ? { token, user: USERS.decode(userRow) } : void 0;
    }
  };
}
function settingsRepository(db) {
  return {
    async getOrInit(name, initial) {
      await db.run("INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [
        name,
        initial
      ]);
      const [row] = await db.all("SELECT value FROM settings WHERE name = $1", [name]);
      return row.value;
    }
  };
}

// src/store/sql/conditions.ts
var Conditions = class {
  params = [];
  terms = [];
  /** Binds a value; returns its placeholder. */
  param(value) {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  add(term) {
    this.terms.push(term);
  }
  /** `column` is one of `values` (none matches nothing); absent, no condition. */
  anyOf(column, values) {
    if (values === void 0) return;
    if (values.length === 0) this.add("1 = 0");
    else this.add(`${column} IN (${values.map((v) => this.param(v)).join(", ")})`);
  }
  /** Heat's status filter: `COMPLETE` matches the status, `CREATE_COMPLETE` action and status. */
  statuses(values) {
    if (values === void 0) return;
    const terms = values.map((s) => {
      const split = /^([A-Z]+)_(IN_PROGRESS|COMPLETE|FAILED)$/.exec(s);
      return split ? `(action = ${this.param(split[1])} AND status = ${this.param(split[2])})` : `status = ${this.param(s)}`;
    });
    this.add(terms.length === 0 ? "1 = 0" : `(${terms.join(" OR ")})`);
  }
  /**
   * Keyset paging: rows after the marker row in the order (`key`, id), `op` being `>` ascending
   * and `<` descending. `markerKey` and `markerId` are SQL expressions of the marker row's values.
   */
  after(key, markerKey, markerId, op) {
    this.add(`(${key} ${op} ${markerKey} OR (${key} = ${markerKey} AND id ${op} ${markerId}))`);
  }
  /** `WHERE ...`, or '' without conditions. */
  clause() {
    return this.terms.length > 0 ? `WHERE ${this.terms.join(" AND ")}` : "";
  }
};

// src/store/sql/event-query.ts
function eventQuerySql(query, dialect) {
  const where = new Conditions();
  const stacks = query.stackIds.length === 1 ? `stack_id = ${where.param(query.stackIds[0])}` : dialect.inStrings("stack_id", where.param(JSON.stringify(query.stackIds)));
  where.add(stacks);
  where.anyOf("resource_name", query.resourceNames);
  where.anyOf("resource_type", query.resourceTypes);
  where.anyOf("action", query.actions);
  where.statuses(query.statuses);
  if (query.uuid !== void 0) where.add(`uuid = ${where.param(query.uuid)}`);
  const desc = query.sortDir === "desc";
  const op = desc ? "<" : ">";
  const byType = query.sortKey === "type";
  if (query.marker !== void 0) {
    const marker = `(SELECT id FROM events WHERE ${stacks} AND uuid = ${where.param(query.marker)})`;
    if (!byType) where.add(`id ${op} ${marker}`);
    else where.after("resource_type", `(SELECT resource_type FROM events WHERE id = ${marker})`, marker, op);
  }
  const dir = desc ? "DESC" : "ASC";
  let sql = `${where.clause()} ORDER BY ${byType ? `resource_type ${dir}, ` : ""}id ${dir}`;
  if (query.limit !== void 0) sql += ` LIMIT ${where.param(query.limit)}`;
  return { sql, params: where.params };
}

// src/store/sql/events.ts
var NEW_EVENT = EVENTS.omit("id");
var EVENT_COLUMNS = [...NEW_EVENT.columnNames, "root_stack_id"];
var UPSERT_SERVICE = `${insertSql("services", SERVICES.columnNames, 1)}
  ON CONFLICT (engine_id) DO UPDATE SET
    host = excluded.host, pid = excluded.pid, started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at`;
function eventsRepository(db, dialect) {
  async function rootOf(stackId) {
    const [row] = await db.all("SELECT root_stack_id FROM stacks WHERE id = $1", [stackId]);
    return row ? row.root_stack_id : stackId;
  }
  return {
    async append(events) {
      if (events.length === 0) return;
      const roots = /* @__PURE__ */ new Map();
      const rows = [];
      for (const event of events) {
        let root = roots.get(event.stackId);
        if (root === void 0) roots.set(event.stackId, root = await rootOf(event.stackId));
        rows.push([...NEW_EVENT.encode(event), root]);
      }
      await batchInsert(db, dialect, "events", EVENT_COLUMNS, rows);
    },
    async list(stackId, options = {}) {
      const params = [stackId, options.afterId ?? 0];
      let sql = "SELECT * FROM events WHERE stack_id = $1 AND id > $2";
      if (options.resourceName !== void 0) {
        params.push(options.resourceName);
        sql += ` AND resource_name = $${params.length}`;
      }
      sql += " ORDER BY id";
      if (options.limit !== void 0) {
        params.push(options.limit);
        sql += ` LIMIT $${params.length}`;
      }
      return (await db.all(sql, params)).map((r) => EVENTS.decode(r));
    },
    async query(query) {
      if (query.stackIds.length === 0) return [];
      const { sql, params } = eventQuerySql(query, dialect);
      return (await db.all(`SELECT * FROM events ${sql}`, params)).map((r) => EVENTS.decode(r));
    },
    async latestId(stackId) {
      const [row] = await db.all("SELECT MAX(id) AS id FROM events WHERE stack_id = $1", [stackId]);
      return row?.id === null || row?.id === void 0 ? 0 : Number(row.id);
    }
  };
}
function servicesRepository(db) {
  return {
    async heartbeat(service) {
      await db.run(UPSERT_SERVICE, SERVICES.encode(service));
    },
    async list() {
      return (await db.all("SELECT * FROM services ORDER BY engine_id")).map((r) => SERVICES.decode(r));
    },
    async get(engineId) {
      const [row] = await db.all("SELECT * FROM services WHERE engine_id = $1", [engineId]);
      return row && SERVICES.decode(row);
    },
    async remove(engineId) {
      await db.run("DELETE FROM services WHERE engine_id = $1", [engineId]);
    }
  };
}

// src/store/sql/schema.ts
var MIGRATIONS = [
  {
    version: 1,
    description: "stacks, templates, resources, traversals, sync points, events, work queue, services",
    statements: (d) => [
      `CREATE TABLE stacks (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        parent_id TEXT,
        parent_resource TEXT,
        root_stack_id TEXT NOT NULL,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL,
        traversal_id TEXT NOT NULL,
        template_id TEXT,
        prev_template_id TEXT,
        convergence INTEGER NOT NULL,
        timeout_mins INTEGER,
        disable_rollback INTEGER NOT NULL,
        tags TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT,
        deleted_at BIGINT
      )`,
      "CREATE INDEX stacks_by_project_name ON stacks (project_id, name)",
      "CREATE INDEX stacks_by_parent ON stacks (parent_id)",
      `CREATE TABLE templates (
        id TEXT PRIMARY KEY,
        template TEXT NOT NULL,
        url TEXT NOT NULL,
        files TEXT NOT NULL,
        environment TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      `CREATE TABLE resources (
        ${d.autoIdColumn},
        uuid TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL,
        physical_id TEXT,
        template_id TEXT,
        properties TEXT,
        attributes TEXT NOT NULL,
        data TEXT NOT NULL,
        progress TEXT,
        requires TEXT NOT NULL,
        replaces BIGINT,
        replaced_by BIGINT,
        engine_id TEXT,
        atomic_key BIGINT NOT NULL,
        unhealthy INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT
      )`,
      "CREATE INDEX resources_by_stack ON resources (stack_id)",
      `CREATE TABLE traversals (
        id TEXT PRIMARY KEY,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        action TEXT NOT NULL,
        template_id TEXT,
        remaining BIGINT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      // One row per graph node; its predecessors' reports are rows of sync_inputs, so a report
      // is an insert plus a counter decrement — fan-in never rewrites a growing document.
      `CREATE TABLE sync_points (
        traversal_id TEXT NOT NULL,
        node TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        waiting BIGINT NOT NULL,
        dependents TEXT NOT NULL,
        done INTEGER NOT NULL,
        PRIMARY KEY (traversal_id, node)
      )`,
      `CREATE TABLE sync_inputs (
        traversal_id TEXT NOT NULL,
        node TEXT NOT NULL,
        from_node TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        data TEXT,
        PRIMARY KEY (traversal_id, node, from_node)
      )`,
      `CREATE TABLE events (
        ${d.autoIdColumn},
        uuid TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        resource_name TEXT NOT NULL,
        resource_type TEXT NOT NULL,
        physical_id TEXT,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      "CREATE INDEX events_by_stack ON events (stack_id, id)",
      // available_at is when the item can next be claimed: run_at while unclaimed, the lease's
      // end while claimed. Claiming is then one index range scan, however many items are held.
      // woken_at records a wake that arrived while the item was claimed (see work.ts).
      `CREATE TABLE work (
        ${d.autoIdColumn},
        root_stack_id TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        traversal_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        node TEXT NOT NULL,
        payload TEXT,
        run_at BIGINT NOT NULL,
        available_at BIGINT NOT NULL,
        attempts INTEGER NOT NULL,
        claimed_by TEXT,
        claim_expires BIGINT,
        woken_at BIGINT
      )`,
      "CREATE INDEX work_by_available ON work (available_at, id)",
      "CREATE INDEX work_by_node ON work (traversal_id, node)",
      "CREATE INDEX work_by_stack ON work (stack_id)",
      `CREATE TABLE services (
        engine_id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started_at BIGINT NOT NULL,
        heartbeat_at BIGINT NOT NULL
      )`
    ]
  },
  {
    version: 2,
    description: "work: find the items a dead engine had claimed",
    statements: () => ["CREATE INDEX work_claimed_by ON work (claimed_by)"]
  },
  {
    version: 3,
    description: "work: items parked until an event (a nested stack finished) wakes them",
    statements: () => [
      "ALTER TABLE work ADD COLUMN waiting_for TEXT",
      "CREATE INDEX work_by_waiting ON work (waiting_for)"
    ]
  },
  {
    version: 4,
    description: "resources: find one resource of a stack by name (signals) without reading the stack",
    statements: () => ["CREATE INDEX resources_by_stack_name ON resources (stack_id, name)"]
  },
  {
    version: 5,
    description: "resources: create attempts retried (action_retry_limit), part of the idempotency key",
    statements: () => ["ALTER TABLE resources ADD COLUMN create_retries INTEGER NOT NULL DEFAULT 0"]
  },
  {
    version: 6,
    description: "resources: find a resource by its physical id (a software config read by its id)",
    statements: () => ["CREATE INDEX resources_by_physical_id ON resources (physical_id)"]
  },
  {
    version: 7,
    description: "work: a resource's queued signals in order (only signal items are indexed)",
    statements: () => ["CREATE INDEX work_signals ON work (node, id) WHERE kind = 'signal'"]
  },
  {
    version: 8,
    description: "resources: no index on every physical id (it slowed every create); configs are found among dependencies",
    statements: () => ["DROP INDEX resources_by_physical_id"]
  },
  {
    version: 9,
    description: "projects, users and API tokens (standalone auth); tokens are stored as hashes only",
    statements: () => [
      `CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      "CREATE UNIQUE INDEX projects_by_name ON projects (name)",
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        roles TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      "CREATE UNIQUE INDEX users_by_project_name ON users (project_id, name)",
      `CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,
        user_id TEXT NOT NULL,
        expires_at BIGINT,
        created_at BIGINT NOT NULL
      )`,
      "CREATE UNIQUE INDEX api_tokens_by_hash ON api_tokens (token_hash)"
    ]
  },
  {
    version: 10,
    description: "settings shared by every process of a deployment (e.g. the key signing signal tokens)",
    statements: () => [
      `CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      )`
    ]
  },
  {
    version: 11,
    description: "stacks: live stacks counted by action and status from an index (the metrics endpoint)",
    statements: () => ["CREATE INDEX stacks_by_status ON stacks (deleted_at, action, status)"]
  },
  {
    version: 12,
    description: "templates: the root stack of the tree they belong to, as every row a traversal reads carries (distribution key)",
    statements: () => [
      "ALTER TABLE templates ADD COLUMN root_stack_id TEXT",
      // Existing rows: from the stacks and traversals that use them, one join each.
      `UPDATE templates SET root_stack_id = s.root_stack_id FROM stacks s
       WHERE s.template_id = templates.id AND templates.root_stack_id IS NULL`,
      `UPDATE templates SET root_stack_id = s.root_stack_id FROM stacks s
       WHERE s.prev_template_id = templates.id AND templates.root_stack_id IS NULL`,
      `UPDATE templates SET root_stack_id = t.root_stack_id FROM traversals t
       WHERE t.template_id = templates.id AND templates.root_stack_id IS NULL`
    ]
  }
];

// src/store/sql/migrate.ts
var SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));
async function schemaVersion(driver) {
  const exists = await driver.query(driver.dialect.tableExists, ["schema_version"]);
  if (exists.length === 0) return 0;
  const [row] = await driver.query("SELECT MAX(version) AS version FROM schema_version");
  return row?.version === null || row?.version === void 0 ? 0 : Number(row.version);
}
async function migrate(driver, migrations = MIGRATIONS) {
  const { dialect } = driver;
  return driver.transaction(
    async (db) => {
      if (dialect.migrationLock) await db.all(dialect.migrationLock);
      await db.run(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)"
      );
      const [row] = await db.all("SELECT MAX(version) AS version FROM schema_version");
      const current2 = row?.version === null || row?.version === void 0 ? 0 : Number(row.version);
      const latest = Math.max(0, ...migrations.map((m) => m.version));
      if (current2 > latest) {
        throw new Error(
          `the database schema is version ${current2}, newer than this Hearth knows (${latest})`
        );
      }
      const missing = migrations.filter((m) => m.version > current2).sort((a, b) => a.version - b.version);
      for (const step of missing) {
        for (const statement of step.statements(dialect)) await db.run(statement);
        await db.run("INSERT INTO schema_version (version, description, applied_at) VALUES ($1, $2, $3)", [
          step.version,
          step.description,
          Date.now()
        ]);
      }
      return missing.length > 0 ? missing[missing.length - 1].version : current2;
    },
    { isolation: "read committed" }
  );
}

// src/store/sql/resources.ts
var NEW_RESOURCE = RESOURCES.omit("id");
var HEAD_FIELDS = [
  "id",
  "name",
  "type",
  "action",
  "status",
  "physicalId",
  "requires",
  "replacedBy",
  "engineId",
  "atomicKey",
  "templateId"
];
var HEAD = RESOURCES.pick(...HEAD_FIELDS);
var HEAD_COLUMNS = HEAD.columnNames.join(", ");
var STATE = RESOURCES.pick(
  ...HEAD_FIELDS,
  "uuid",
  "createRetries",
  "unhealthy",
  "properties",
  "attributes",
  "data"
);
var STATE_COLUMNS = STATE.columnNames.join(", ");
var SKIP_ON_UPDATE = /* @__PURE__ */ new Set(["id", "atomicKey"]);
var DELETE_COMPLETE = "action = 'DELETE' AND status = 'COMPLETE'";
function resourcesRepository(db, dialect) {
  const idIn = dialect.inIntegers("id", "$1");
  return {
    async insert(rows) {
      if (rows.length === 0) return [];
      const returned = await batchInsert(
        db,
        dialect,
        "resources",
        NEW_RESOURCE.columnNames,
        rows.map((row) => NEW_RESOURCE.encode(row)),
        "id, uuid"
      );
      const ids = returned.map((r) => ({ id: Number(r.id), uuid: r.uuid })).sort((a, b) => a.id - b.id);
      return rows.map((row, i) => {
        const { id, uuid } = ids[i];
        if (uuid !== row.uuid) throw new Error("resources.insert: returned ids out of input order");
        return {
          ...row,
          id,
          createdAt: normalizeTime(row.createdAt),
          updatedAt: normalizeTime(row.updatedAt)
        };
      });
    },
    async get(id) {
      const [row] = await db.all("SELECT * FROM resources WHERE id = $1", [id]);
      return row && RESOURCES.decode(row);
    },
    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = await db.all(`SELECT * FROM resources WHERE ${idIn}`, [JSON.stringify(ids)]);
      const byId = new Map(rows.map((r) => RESOURCES.decode(r)).map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    async listActive(stackId) {
      const rows = await db.all(
        `SELECT * FROM resources WHERE stack_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId]
      );
      return rows.map((r) => RESOURCES.decode(r));
    },
    async listHeads(stackId) {
      const rows = await db.all(
        `SELECT ${HEAD_COLUMNS} FROM resources WHERE stack_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId]
      );
      return rows.map((r) => HEAD.decode(r));
    },
    async listStates(stackId) {
      const rows = await db.all(
        `SELECT ${STATE_COLUMNS} FROM resources WHERE stack_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId]
      );
      return rows.map((r) => STATE.decode(r));
    },
    async findByName(stackId, name) {
      const rows = await db.all(
        `SELECT * FROM resources WHERE stack_id = $1 AND name = $2 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId, name]
      );
      return rows.map((r) => RESOURCES.decode(r));
    },
    async findByPhysicalId(physicalId) {
      const rows = await db.all(
        `SELECT * FROM resources WHERE physical_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [physicalId]
      );
      return rows.map((r) => RESOURCES.decode(r));
    },
    async listAll(stackId) {
      const rows = await db.all("SELECT * FROM resources WHERE stack_id = $1 ORDER BY id", [stackId]);
      return rows.map((r) => RESOURCES.decode(r));
    },
    async update(id, expectedKey, expectedEngine, changes) {
      const set = RESOURCES.setClause(changes, 4, SKIP_ON_UPDATE);
      const assignments = set.sql === "" ? "atomic_key = atomic_key + 1" : `${set.sql}, atomic_key = atomic_key + 1`;
      const [row] = await db.all(
        `UPDATE resources SET ${assignments}
         WHERE id = $1 AND atomic_key = $2 AND ${dialect.nullSafeEquals("engine_id", "$3")}
         RETURNING *`,
        [id, expectedKey, expectedEngine, ...set.params]
      );
      return row && RESOURCES.decode(row);
    },
    async updateMany(writes) {
      const groups = /* @__PURE__ */ new Map();
      for (const write of writes) {
        const fields = Object.keys(write.changes).filter(
          (f) => write.changes[f] !== void 0 && !SKIP_ON_UPDATE.has(f)
        );
        const key = fields.join(",");
        const group = groups.get(key);
        if (group) group.push(write);
        else groups.set(key, [write]);
      }
      const written = /* @__PURE__ */ new Set();
      for (const [key, group] of groups) {
        const columns = key === "" ? [] : key.split(",").map((f) => RESOURCES.columnOf(f));
        const size = rowsPerStatement(dialect, columns.length + 3);
        for (let start = 0; start < group.length; start += size) {
          const chunk = group.slice(start, start + size);
          const params = [];
          for (const w of chunk) {
            params.push(w.id, w.expectedKey, w.expectedEngine);
            const changes = w.changes;
            for (const c of columns) params.push(encodeValue(c.kind, changes[c.field]));
          }
          const rows = await db.all(updateManySql(dialect, columns, chunk.length), params);
          for (const row of rows) written.add(Number(row.id));
        }
      }
      return written;
    },
    async setTemplate(ids, templateId) {
      if (ids.length === 0) return 0;
      return db.run(`UPDATE resources SET template_id = $2 WHERE ${idIn}`, [JSON.stringify(ids), templateId]);
    },
    async purge(stackId, all = false) {
      return db.run(`DELETE FROM resources WHERE stack_id = $1${all ? "" : ` AND ${DELETE_COMPLETE}`}`, [
        stackId
      ]);
    },
    async delete(ids) {
      if (ids.length === 0) return;
      await db.run(`DELETE FROM resources WHERE ${idIn}`, [JSON.stringify(ids)]);
    }
  };
}
function updateManySql(dialect, columns, rows) {
  const key = `resources.updateMany ${dialect.name}:${columns.map((c) => c.column).join(",")}*${rows}`;
  return memoSql(key, () => {
    const names2 = ["w_id", "w_key", "w_engine", ...columns.map((c) => `w_${c.column}`)];
    const integer = [true, true, false, ...columns.map((c) => c.kind !== "text" && c.kind !== "json")];
    const tuples = [];
    let n = 1;
    for (let r = 0; r < rows; r++) {
      const values = names2.map((_, i) => integer[i] ? dialect.bigintParam(`$${n++}`) : `$${n++}`);
      tuples.push(`(${values.join(", ")})`);
    }
    const set = [
      ...columns.map((c) => `${c.column} = w.w_${c.column}`),
      "atomic_key = resources.atomic_key + 1"
    ];
    return `WITH w (${names2.join(", ")}) AS (VALUES ${tuples.join(", ")})
    UPDATE resources SET ${set.join(", ")} FROM w
    WHERE resources.id = w.w_id AND resources.atomic_key = w.w_key
      AND ${dialect.nullSafeEquals("resources.engine_id", "w.w_engine")}
    RETURNING resources.id`;
  });
}

// src/store/sql/stack-query.ts
var SORT_COLUMNS = {
  name: "name",
  status: "status",
  createdAt: "created_at",
  updatedAt: "updated_at"
};
function stackQuerySql(query) {
  const where = new Conditions();
  const hasTag = (tag) => `tags LIKE ${where.param(`%${JSON.stringify(tag).replace(/[%_\\]/g, "\\$&")}%`)} ESCAPE '\\'`;
  if (query.projectId !== void 0) where.add(`project_id = ${where.param(query.projectId)}`);
  if (query.name !== void 0) where.add(`name = ${where.param(query.name)}`);
  if (query.parentId === null) where.add("parent_id IS NULL");
  else if (query.parentId !== void 0) where.add(`parent_id = ${where.param(query.parentId)}`);
  if (!query.includeDeleted) where.add("deleted_at IS NULL");
  where.anyOf("id", query.ids);
  where.anyOf("name", query.names);
  where.anyOf("action", query.actions);
  where.statuses(query.statuses);
  for (const tag of query.tags ?? []) where.add(hasTag(tag));
  if (query.tagsAny?.length) where.add(`(${query.tagsAny.map(hasTag).join(" OR ")})`);
  if (query.notTags?.length) where.add(`NOT (${query.notTags.map(hasTag).join(" AND ")})`);
  for (const tag of query.notTagsAny ?? []) where.add(`NOT ${hasTag(tag)}`);
  const column = SORT_COLUMNS[query.sortKey ?? "createdAt"];
  const desc = (query.sortDir ?? "desc") === "desc";
  const key = column === "updated_at" ? "COALESCE(updated_at, 0)" : column;
  if (query.marker !== void 0) {
    const marker = where.param(query.marker);
    where.after(key, `(SELECT ${key} FROM stacks WHERE id = ${marker})`, marker, desc ? "<" : ">");
  }
  const dir = desc ? "DESC" : "ASC";
  const filter = where.clause();
  let sql = `${filter} ORDER BY ${key} ${dir}, id ${dir}`;
  if (query.limit !== void 0) sql += ` LIMIT ${where.param(query.limit)}`;
  return { sql, params: where.params, filter };
}

// src/store/sql/stacks.ts
var INSERT_STACK = insertSql("stacks", STACKS.columnNames, 1);
var INSERT_TEMPLATE = insertSql("templates", [...TEMPLATES.columnNames, "root_stack_id"], 1);
var SKIP_ID = /* @__PURE__ */ new Set(["id"]);
var PROGRESS = `SELECT
  (SELECT COUNT(*) FROM sync_points p WHERE p.traversal_id = s.traversal_id) AS total,
  (SELECT COUNT(*) FROM sync_points p WHERE p.traversal_id = s.traversal_id AND p.done = 1) AS done,
  (SELECT COUNT(*) FROM resources r WHERE r.stack_id = s.id AND r.status = 'IN_PROGRESS') AS in_progress,
  (SELECT COUNT(*) FROM resources r WHERE r.stack_id = s.id AND r.status = 'FAILED') AS failed
  FROM stacks s WHERE s.id = $1`;
function stacksRepository(db) {
  const many = async (sql, params) => (await db.all(sql, params)).map((r) => STACKS.decode(r));
  return {
    async insert(stack) {
      await db.run(INSERT_STACK, STACKS.encode(stack));
    },
    async get(id) {
      const [row] = await db.all("SELECT * FROM stacks WHERE id = $1", [id]);
      return row && STACKS.decode(row);
    },
    async findByName(projectId, name) {
      const [row] = await db.all(
        `SELECT * FROM stacks WHERE project_id = $1 AND name = $2 AND deleted_at IS NULL
         ORDER BY created_at DESC, id LIMIT 1`,
        [projectId, name]
      );
      return row && STACKS.decode(row);
    },
    async list(filter) {
      const where = [];
      const params = [];
      const equals = (column, value) => {
        params.push(value);
        where.push(`${column} = $${params.length}`);
      };
      if (filter.projectId !== void 0) equals("project_id", filter.projectId);
      if (filter.name !== void 0) equals("name", filter.name);
      if (filter.parentId === null) where.push("parent_id IS NULL");
      else if (filter.parentId !== void 0) equals("parent_id", filter.parentId);
      if (!filter.includeDeleted) where.push("deleted_at IS NULL");
      const condition = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
      return many(`SELECT * FROM stacks ${condition} ORDER BY created_at, id`, params);
    },
    async query(query) {
      const { sql, params } = stackQuerySql(query);
      return many(`SELECT * FROM stacks ${sql}`, params);
    },
    async count(query) {
      const { filter, params } = stackQuerySql({ ...query, limit: void 0, marker: void 0 });
      const [row] = await db.all(`SELECT COUNT(*) AS n FROM stacks ${filter}`, params);
      return Number(row.n);
    },
    async update(id, expectedTraversal, changes) {
      const guard = expectedTraversal === null ? "" : " AND traversal_id = $2";
      const where = expectedTraversal === null ? [id] : [id, expectedTraversal];
      const set = STACKS.setClause(changes, where.length + 1, SKIP_ID);
      if (set.sql === "") {
        return (await db.all(`SELECT 1 AS found FROM stacks WHERE id = $1${guard}`, where)).length > 0;
      }
      return await db.run(`UPDATE stacks SET ${set.sql} WHERE id = $1${guard}`, [...where, ...set.params]) > 0;
    },
    async children(parentId) {
      return many(
        "SELECT * FROM stacks WHERE parent_id = $1 AND deleted_at IS NULL ORDER BY created_at, id",
        [parentId]
      );
    },
    async progress(id) {
      const [row] = await db.all(PROGRESS, [id]);
      if (!row) return void 0;
      return {
        total: Number(row.total),
        done: Number(row.done),
        inProgress: Number(row.in_progress),
        failed: Number(row.failed)
      };
    },
    async countByStatus() {
      const rows = await db.all(
        `SELECT action, status, COUNT(*) AS n FROM stacks WHERE deleted_at IS NULL
         GROUP BY action, status ORDER BY action, status`
      );
      return rows.map((r) => ({
        action: r.action,
        status: r.status,
        count: Number(r.n)
      }));
    }
  };
}
function templatesRepository(db) {
  return {
    async insert(template, rootStackId) {
      await db.run(INSERT_TEMPLATE, [...TEMPLATES.encode(template), rootStackId]);
    },
    async get(id) {
      const [row] = await db.all("SELECT * FROM templates WHERE id = $1", [id]);
      return row && TEMPLATES.decode(row);
    },
    async delete(id) {
      await db.run("DELETE FROM templates WHERE id = $1", [id]);
    }
  };
}

// src/store/sql/sync.ts
var INSERT_TRAVERSAL = insertSql("traversals", TRAVERSALS.columnNames, 1);
var POINT_COLUMNS = ["traversal_id", "node", "stack_id", "root_stack_id", "waiting", "dependents", "done"];
var INPUT_COLUMNS = ["traversal_id", "node", "from_node", "root_stack_id", "data"];
function traversalsRepository(db) {
  return {
    async insert(traversal) {
      await db.run(INSERT_TRAVERSAL, TRAVERSALS.encode(traversal));
    },
    async get(id) {
      const [row] = await db.all("SELECT * FROM traversals WHERE id = $1", [id]);
      return row && TRAVERSALS.decode(row);
    },
    async finishNodes(id, count) {
      const [row] = await db.all(
        "UPDATE traversals SET remaining = remaining - $2 WHERE id = $1 RETURNING remaining",
        [id, count]
      );
      if (!row) throw new Error(`traversals.finishNodes: traversal ${id} does not exist`);
      return Number(row.remaining);
    },
    async delete(id) {
      await db.run("DELETE FROM traversals WHERE id = $1", [id]);
    }
  };
}
function syncRepository(db, dialect) {
  const nodesIn = dialect.inStrings("node", "$2");
  const nodeIs = (nodes) => nodes.length === 1 ? "node = $2" : nodesIn;
  const nodeParam = (nodes) => nodes.length === 1 ? nodes[0] : JSON.stringify(nodes);
  async function inputsOf2(traversalId, nodes) {
    const rows = await db.all(
      `SELECT node, from_node, data FROM sync_inputs WHERE traversal_id = $1 AND ${nodeIs(nodes)}`,
      [traversalId, nodeParam(nodes)]
    );
    const byNode = /* @__PURE__ */ new Map();
    for (const row of rows) {
      const node = row.node;
      let inputs = byNode.get(node);
      if (!inputs) byNode.set(node, inputs = {});
      setOwn(
        inputs,
        row.from_node,
        row.data === null ? null : JSON.parse(row.data)
      );
    }
    return byNode;
  }
  async function points(traversalId, nodes) {
    if (nodes.length === 0) return [];
    const rows = await db.all(`SELECT * FROM sync_points WHERE traversal_id = $1 AND ${nodeIs(nodes)}`, [
      traversalId,
      nodeParam(nodes)
    ]);
    if (rows.length === 0) return [];
    const inputs = await inputsOf2(
      traversalId,
      rows.map((r) => r.node)
    );
    return rows.map((row) => ({
      traversalId,
      node: row.node,
      stackId: row.stack_id,
      waiting: Number(row.waiting),
      dependents: JSON.parse(row.dependents),
      inputs: inputs.get(row.node) ?? {},
      done: Number(row.done) !== 0
    }));
  }
  async function rootsOf(points2) {
    const roots = /* @__PURE__ */ new Map();
    for (const { traversalId } of points2) {
      if (roots.has(traversalId)) continue;
      const [row] = await db.all("SELECT root_stack_id FROM traversals WHERE id = $1", [traversalId]);
      if (!row) throw new Error(`sync.insert: traversal ${traversalId} does not exist (insert it first)`);
      roots.set(traversalId, row.root_stack_id);
    }
    return roots;
  }
  return {
    async insert(points2) {
      if (points2.length === 0) return;
      const roots = await rootsOf(points2);
      const pointRows = [];
      const inputRows = [];
      for (const p of points2) {
        const root = roots.get(p.traversalId);
        pointRows.push([
          p.traversalId,
          p.node,
          p.stackId,
          root,
          p.waiting,
          JSON.stringify(p.dependents),
          p.done ? 1 : 0
        ]);
        for (const [from, data] of Object.entries(p.inputs)) {
          inputRows.push([p.traversalId, p.node, from, root, encodeValue("json", data)]);
        }
      }
      await batchInsert(db, dialect, "sync_points", POINT_COLUMNS, pointRows);
      if (inputRows.length > 0) await batchInsert(db, dialect, "sync_inputs", INPUT_COLUMNS, inputRows);
    },
    async get(traversalId, node) {
      return (await points(traversalId, [node]))[0];
    },
    getMany: points,
    async report(traversalId, sent) {
      const arrived = /* @__PURE__ */ new Map();
      const seen = /* @__PURE__ */ new Set();
      const reports = sent.filter(({ node, from }) => {
        const key = JSON.stringify([node, from]);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const size = Math.min(500, Math.floor((dialect.maxParams - 1) / 3));
      for (let start = 0; start < reports.length; start += size) {
        const chunk = reports.slice(start, start + size);
        const params = [traversalId];
        for (const { node, from, data } of chunk) params.push(node, from, encodeValue("json", data));
        for (const row of await db.all(reportInputsSql(chunk.length), params)) {
          const node = row.node;
          arrived.set(node, (arrived.get(node) ?? 0) + 1);
        }
      }
      const ready = [];
      const counts = [...arrived];
      const countSize = Math.min(500, Math.floor((dialect.maxParams - 1) / 2));
      for (let start = 0; start < counts.length; start += countSize) {
        const chunk = counts.slice(start, start + countSize);
        const params = [traversalId];
        for (const [node, count] of chunk) params.push(node, count);
        for (const row of await db.all(countDownSql(dialect, chunk.length), params)) {
          if (Number(row.waiting) <= 0 && Number(row.done) === 0) ready.push(row.node);
        }
      }
      return ready;
    },
    async markDone(traversalId, nodes) {
      if (nodes.length === 0) return [];
      const rows = await db.all(
        `UPDATE sync_points SET done = 1 WHERE traversal_id = $1 AND ${nodeIs(nodes)} AND done = 0
         RETURNING node, dependents`,
        [traversalId, nodeParam(nodes)]
      );
      return rows.map((row) => ({
        node: row.node,
        dependents: JSON.parse(row.dependents)
      }));
    },
    async addDependent(traversalId, node, dependent) {
      while (true) {
        const [row] = await db.all(
          "SELECT dependents FROM sync_points WHERE traversal_id = $1 AND node = $2",
          [traversalId, node]
        );
        if (!row) return;
        const before = row.dependents;
        const dependents = JSON.parse(before);
        if (dependents.includes(dependent)) return;
        dependents.push(dependent);
        const changed = await db.run(
          "UPDATE sync_points SET dependents = $4 WHERE traversal_id = $1 AND node = $2 AND dependents = $3",
          [traversalId, node, before, JSON.stringify(dependents)]
        );
        if (changed > 0) return;
      }
    },
    async deleteTraversal(traversalId) {
      await db.run("DELETE FROM sync_inputs WHERE traversal_id = $1", [traversalId]);
      await db.run("DELETE FROM sync_points WHERE traversal_id = $1", [traversalId]);
    }
  };
}
function reportInputsSql(rows) {
  return memoSql(`sync.report inputs*${rows}`, () => {
    const tuples = Array.from({ length: rows }, (_, r) => `($${2 + 3 * r}, $${3 + 3 * r}, $${4 + 3 * r})`);
    return `WITH w (w_node, w_from, w_data) AS (VALUES ${tuples.join(", ")})
      INSERT INTO sync_inputs (traversal_id, node, from_node, root_stack_id, data)
      SELECT p.traversal_id, p.node, w.w_from, p.root_stack_id, w.w_data
      FROM w JOIN sync_points p ON p.traversal_id = $1 AND p.node = w.w_node WHERE true
      ON CONFLICT (traversal_id, node, from_node) DO NOTHING
      RETURNING node`;
  });
}
function countDownSql(dialect, rows) {
  return memoSql(`sync.report ${dialect.name}:count*${rows}`, () => {
    const tuples = Array.from(
      { length: rows },
      (_, r) => `($${2 + 2 * r}, ${dialect.bigintParam(`$${3 + 2 * r}`)})`
    );
    return `WITH w (w_node, w_count) AS (VALUES ${tuples.join(", ")})
      UPDATE sync_points SET waiting = waiting - w.w_count FROM w
      WHERE sync_points.traversal_id = $1 AND sync_points.node = w.w_node
      RETURNING sync_points.node, sync_points.waiting, sync_points.done`;
  });
}

// src/store/sql/work.ts
var NEW_WORK_COLUMNS = [
  "root_stack_id",
  "stack_id",
  "traversal_id",
  "kind",
  "node",
  "payload",
  "run_at",
  "available_at",
  "attempts"
];
var RELEASE_AT = "CASE WHEN woken_at IS NOT NULL AND woken_at < $3 THEN woken_at ELSE $3 END";
function workRepository(db, dialect, touched = () => {
}) {
  return {
    async enqueue(items) {
      if (items.length === 0) return;
      const rows = items.map((w) => {
        const runAt = ms(w.runAt ?? 0);
        const payload = encodeValue("json", w.payload ?? null);
        return [w.rootStackId, w.stackId, w.traversalId, w.kind, w.node, payload, runAt, runAt, 0];
      });
      await batchInsert(db, dialect, "work", NEW_WORK_COLUMNS, rows);
      touched();
    },
    async complete(claim) {
      const changed = await db.run("DELETE FROM work WHERE id = $1 AND claimed_by = $2", [
        claim.id,
        claimToken(claim)
      ]);
      if (changed === 0) throw new ClaimLostError(claim.id);
    },
    async completeMany(claims) {
      const size = Math.min(500, Math.floor(dialect.maxParams / 2));
      for (let start = 0; start < claims.length; start += size) {
        const chunk = claims.slice(start, start + size);
        const params = chunk.flatMap((c) => [c.id, claimToken(c)]);
        const changed = await db.run(claimsSql(dialect, chunk.length, "DELETE FROM work", 1), params);
        if (changed < chunk.length) {
          const ids = chunk.map((c) => c.id);
          const [held] = await db.all(
            `SELECT id FROM work WHERE ${dialect.inIntegers("id", "$1")} ORDER BY id LIMIT 1`,
            [JSON.stringify(ids)]
          );
          throw new ClaimLostError(held ? Number(held.id) : ids[0]);
        }
      }
    },
    async reschedule(claim, runAt, payload, waitingFor) {
      const params = [claim.id, claimToken(claim), ms(runAt), waitingFor ?? null];
      let setPayload = "";
      if (payload !== void 0) {
        params.push(encodeValue("json", payload));
        setPayload = ", payload = $5";
      }
      const changed = await db.run(
        `UPDATE work SET run_at = ${RELEASE_AT}, available_at = ${RELEASE_AT},
           claimed_by = NULL, claim_expires = NULL, woken_at = NULL, waiting_for = $4${setPayload}
         WHERE id = $1 AND claimed_by = $2`,
        params
      );
      if (changed === 0) throw new ClaimLostError(claim.id);
      touched();
    },
    async listForTraversal(traversalId) {
      const rows = await db.all("SELECT * FROM work WHERE traversal_id = $1 ORDER BY id", [traversalId]);
      return rows.map((r) => WORK.decode(r));
    },
    async deleteForTraversal(traversalId) {
      await db.run("DELETE FROM work WHERE traversal_id = $1", [traversalId]);
    },
    async signalQueuedBefore(node, id) {
      const rows = await db.all(
        "SELECT 1 AS one FROM work WHERE kind = 'signal' AND node = $1 AND id < $2 LIMIT 1",
        [node, id]
      );
      return rows.length > 0;
    },
    async exists(id) {
      return (await db.all("SELECT 1 AS one FROM work WHERE id = $1", [id])).length > 0;
    },
    async releaseClaimsOf(engineId, now) {
      const released = await db.run(
        `UPDATE work SET claimed_by = NULL, claim_expires = NULL, available_at = $3
         WHERE claimed_by >= $1 AND claimed_by < $2`,
        [...claimsOf(engineId), now]
      );
      if (released > 0) touched();
      return released;
    },
    async renewClaims(claims, expires, renewBefore = Number.MAX_SAFE_INTEGER) {
      let renewed = 0;
      const size = Math.min(500, Math.floor((dialect.maxParams - 1) / 2));
      for (let start = 0; start < claims.length; start += size) {
        const chunk = claims.slice(start, start + size);
        const params = [
          ms(expires),
          ms(renewBefore),
          ...chunk.flatMap((c) => [c.id, claimToken(c)])
        ];
        renewed += await db.run(
          claimsSql(
            dialect,
            chunk.length,
            "UPDATE work SET claim_expires = $1, available_at = $1",
            3,
            "claim_expires < $2 AND "
          ),
          params
        );
      }
      return renewed;
    },
    async countForStack(stackId) {
      const [row] = await db.all("SELECT COUNT(*) AS n FROM work WHERE stack_id = $1", [stackId]);
      return Number(row?.n ?? 0);
    },
    async stats(now) {
      const [all] = await db.all(
        `SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN available_at <= $1 THEN 1 ELSE 0 END), 0) AS due,
           MIN(available_at) AS next FROM work`,
        [now]
      );
      const [held] = await db.all(
        "SELECT COUNT(*) AS n FROM work WHERE claimed_by > '' AND +available_at > $1",
        [now]
      );
      const total = Number(all?.total ?? 0);
      const due = Number(all?.due ?? 0);
      const claimed = Number(held?.n ?? 0);
      const next = all?.next;
      return {
        due,
        claimed,
        scheduled: total - due - claimed,
        nextAvailableAt: next === null || next === void 0 ? void 0 : Number(next)
      };
    },
    async wake(traversalId, node, now) {
      const woken = await db.run(
        `UPDATE work SET
           run_at = CASE WHEN claimed_by IS NULL AND run_at > $3 THEN $3 ELSE run_at END,
           available_at = CASE WHEN claimed_by IS NULL AND available_at > $3 THEN $3 ELSE available_at END,
           woken_at = CASE WHEN claimed_by IS NOT NULL AND (woken_at IS NULL OR woken_at > $3) THEN $3 ELSE woken_at END
         WHERE traversal_id = $1 AND node = $2`,
        [traversalId, node, now]
      );
      if (woken > 0) touched();
      return woken;
    },
    async wakeWaiting(key, now) {
      const woken = await db.run(
        `UPDATE work SET
           run_at = CASE WHEN claimed_by IS NULL AND run_at > $2 THEN $2 ELSE run_at END,
           available_at = CASE WHEN claimed_by IS NULL AND available_at > $2 THEN $2 ELSE available_at END,
           woken_at = CASE WHEN claimed_by IS NOT NULL AND (woken_at IS NULL OR woken_at > $2) THEN $2 ELSE woken_at END
         WHERE waiting_for = $1`,
        [key, now]
      );
      if (woken > 0) touched();
      return woken;
    }
  };
}
async function claimWork(driver, engineId, now, limit, leaseMs) {
  if (limit <= 0) return [];
  const expires = now + leaseMs;
  const rows = await driver.transaction(
    (db) => db.all(
      `UPDATE work SET claimed_by = CAST($1 AS TEXT) || '#' || CAST(attempts + 1 AS TEXT), claim_expires = $4, available_at = $4, attempts = attempts + 1, woken_at = NULL
       WHERE id IN (
         SELECT id FROM work WHERE available_at <= $2 ORDER BY available_at, id LIMIT $3${driver.dialect.claimLock}
       )
       RETURNING *`,
      [engineId, now, limit, expires]
    ),
    { isolation: "read committed" }
  );
  return rows.map((r) => WORK.decode(r)).sort((a, b) => a.runAt - b.runAt || a.id - b.id);
}
async function nextWorkTime(driver) {
  const [row] = await driver.query("SELECT MIN(available_at) AS next FROM work");
  return row?.next === null || row?.next === void 0 ? void 0 : Number(row.next);
}
function claimToken(claim) {
  return claim.claimedBy ?? "";
}
function claimsOf(engineId) {
  return [`${engineId}#`, `${engineId}$`];
}
function claimsSql(dialect, rows, head, first, also = "") {
  return memoSql(`work claims ${dialect.name}:${head}*${rows}@${first}:${also}`, () => {
    const pairs = Array.from(
      { length: rows },
      (_, r) => `(${dialect.bigintParam(`$${first + 2 * r}`)}, $${first + 2 * r + 1})`
    );
    return `${head} WHERE ${also}(id, claimed_by) IN (VALUES ${pairs.join(", ")})`;
  });
}
function ms(time) {
  return Math.ceil(time);
}

// src/store/sql/store.ts
var SqlStore = class {
  constructor(driver) {
    this.driver = driver;
  }
  driver;
  workListeners = /* @__PURE__ */ new Set();
  async tx(fn) {
    const { dialect } = this.driver;
    let workDue = false;
    const value = await this.driver.transaction(async (db) => {
      workDue = false;
      const result = await fn(repositories(db, dialect, () => workDue = true));
      if (workDue && dialect.notifyWork) await db.run(dialect.notifyWork);
      return result;
    });
    if (workDue) this.workAvailable();
    return value;
  }
  claimWork(engineId, now, limit, leaseMs) {
    return claimWork(this.driver, engineId, now, limit, leaseMs);
  }
  nextWorkTime() {
    return nextWorkTime(this.driver);
  }
  onWork(listener) {
    this.workListeners.add(listener);
    return () => this.workListeners.delete(listener);
  }
  /** Tells this process's listeners that work may be due. */
  workAvailable() {
    for (const listener of this.workListeners) listener();
  }
  migrate() {
    return migrate(this.driver);
  }
  schemaVersion() {
    return schemaVersion(this.driver);
  }
  close() {
    return this.driver.close();
  }
};
function repositories(db, dialect, workTouched) {
  return {
    stacks: stacksRepository(db),
    templates: templatesRepository(db),
    resources: resourcesRepository(db, dialect),
    traversals: traversalsRepository(db),
    sync: syncRepository(db, dialect),
    events: eventsRepository(db, dialect),
    work: workRepository(db, dialect, workTouched),
    auth: authRepository(db),
    settings: settingsRepository(db),
    services: servicesRepository(db)
  };
}
async function migrated(store, migrate2 = true) {
  if (!migrate2) return store;
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

// src/store/postgres/driver.ts
import { AsyncLocalStorage } from "node:async_hooks";
import pg2 from "pg";
var types = {
  getTypeParser(oid, format) {
    if (oid === pg2.types.builtins.INT8) return (value) => Number(value);
    return pg2.types.getTypeParser(oid, format);
  }
};
var insideTransaction = new AsyncLocalStorage();
var PostgresDriver = class {
  constructor(url, options = {}) {
    this.url = url;
    this.pool = new pg2.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      types,
      allowExitOnIdle: true
    });
    this.maxAttempts = options.maxAttempts ?? 30;
    this.injectConflicts = options.injectConflicts ?? 0;
    this.pool.on("error", (error) => options.onError?.(error));
  }
  url;
  dialect = postgresDialect;
  pool;
  maxAttempts;
  injectConflicts;
  closed = false;
  async transaction(fn, options = {}) {
    const isolation = options.isolation === "read committed" ? "READ COMMITTED" : "REPEATABLE READ";
    if (insideTransaction.getStore()) {
      throw new Error("a store transaction is already open in this call chain (nested tx)");
    }
    for (let attempt = 1; ; attempt++) {
      this.checkOpen();
      try {
        return await insideTransaction.run(true, () => this.attempt(isolation, fn));
      } catch (error) {
        if (!isRetryable(error) || attempt >= this.maxAttempts) throw error;
        await delay(Math.random() * Math.min(100, 2 ** attempt));
      }
    }
  }
  async attempt(isolation, fn) {
    const client = await this.pool.connect();
    let broken;
    const lost = (error) => broken = error;
    client.on("error", lost);
    let open = true;
    const guard = () => {
      if (!open) throw new Error("a statement was run after its transaction ended");
    };
    const executor = {
      all: async (sql, params = []) => (guard(), (await client.query(sql, params)).rows),
      run: async (sql, params = []) => (guard(), (await client.query(sql, params)).rowCount ?? 0)
    };
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
      try {
        const value = await fn(executor);
        if (isolation === "REPEATABLE READ" && Math.random() < this.injectConflicts) {
          throw Object.assign(new Error("injected serialization failure"), { code: "40001" });
        }
        open = false;
        await client.query("COMMIT");
        return value;
      } catch (error) {
        open = false;
        await client.query("ROLLBACK").catch((rollbackError) => broken = rollbackError);
        throw error;
      }
    } catch (error) {
      if (isConnectionError(error)) broken = error;
      throw error;
    } finally {
      client.off("error", lost);
      client.release(broken);
    }
  }
  async query(sql, params = []) {
    this.checkOpen();
    return (await this.pool.query(sql, params)).rows;
  }
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
  checkOpen() {
    if (this.closed) throw new Error("the store is closed");
  }
};
function delay(ms2) {
  return new Promise((resolve) => setTimeout(resolve, ms2));
}

// src/store/postgres/listener.ts
import pg3 from "pg";
var ChannelListener = class {
  constructor(url, channel, options) {
    this.url = url;
    this.channel = channel;
    this.options = options;
  }
  url;
  channel;
  options;
  client;
  stopped = false;
  backoffMs = 50;
  timer;
  start() {
    void this.connect();
  }
  async connect() {
    if (this.stopped) return;
    const client = new pg3.Client({ connectionString: this.url });
    this.client = client;
    client.on("notification", () => this.options.onNotify());
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.backoffMs = 50;
      this.options.onNotify();
    } catch (error) {
      this.lost(client, error);
    }
  }
  lost(client, error) {
    if (this.client !== client) return;
    this.client = void 0;
    client.removeAllListeners("end");
    client.on("error", () => {
    });
    void client.end().catch(() => void 0);
    if (this.stopped) return;
    if (error) this.options.onError?.(error);
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.options.maxBackoffMs ?? 5e3, this.backoffMs * 2);
    this.timer = setTimeout(() => void this.connect(), wait);
    this.timer.unref();
  }
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = void 0;
    if (client) {
      client.removeAllListeners("end");
      client.on("error", () => {
      });
      await client.end().catch(() => void 0);
    }
  }
};

// src/store/postgres/index.ts
var PostgresStore = class extends SqlStore {
  constructor(pgDriver, onError) {
    super(pgDriver);
    this.pgDriver = pgDriver;
    this.onError = onError;
  }
  pgDriver;
  onError;
  listener;
  listeners = 0;
  onWork(listener) {
    if (!this.listener) {
      this.listener = new ChannelListener(this.pgDriver.url, WORK_CHANNEL, {
        onNotify: () => this.workAvailable(),
        ...this.onError ? { onError: this.onError } : {}
      });
      this.listener.start();
    }
    this.listeners++;
    const stop = super.onWork(listener);
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      stop();
      if (--this.listeners === 0) {
        void this.listener?.stop();
        this.listener = void 0;
      }
    };
  }
  async close() {
    await this.listener?.stop();
    await super.close();
  }
};
async function openPostgresStore(url, options = {}) {
  return migrated(new PostgresStore(new PostgresDriver(url, options), options.onError), options.migrate);
}

// src/store/sqlite/driver.ts
import { realpathSync } from "node:fs";
import Database2 from "better-sqlite3";

// src/store/sqlite/mutex.ts
import { AsyncLocalStorage as AsyncLocalStorage2 } from "node:async_hooks";
var Mutex = class {
  tail = Promise.resolve();
  /** The token of the section running now, to recognise re-entry from inside it. */
  holder = null;
  /** Whether the caller runs inside this mutex's current section (waiting would deadlock). */
  isHeldByCaller() {
    return this.holder !== null && insideSection.getStore() === this.holder;
  }
  run(fn) {
    if (this.holder !== null && insideSection.getStore() === this.holder) {
      return Promise.reject(new Error("a store transaction is already open in this call chain (nested tx)"));
    }
    const section = async () => {
      const token = {};
      this.holder = token;
      try {
        return await insideSection.run(token, fn);
      } finally {
        this.holder = null;
      }
    };
    const result = this.tail.then(section, section);
    this.tail = result.catch(() => void 0);
    return result;
  }
};
var insideSection = new AsyncLocalStorage2();
var byFile = /* @__PURE__ */ new Map();
function mutexForFile(path) {
  if (path === null) return { mutex: new Mutex(), release: () => {
  } };
  let entry = byFile.get(path);
  if (!entry) byFile.set(path, entry = { mutex: new Mutex(), users: 0 });
  entry.users++;
  const shared = entry;
  let released = false;
  return {
    mutex: shared.mutex,
    release: () => {
      if (released) return;
      released = true;
      if (--shared.users === 0) byFile.delete(path);
    }
  };
}

// src/store/sqlite/driver.ts
var STATEMENT_CACHE_SIZE = 500;
var MAX_GROUP = 256;
var SqliteDriver = class {
  dialect = sqliteDialect;
  db;
  mutex;
  releaseMutex;
  statements = /* @__PURE__ */ new Map();
  closed = false;
  /** Transactions waiting for the next group commit. */
  pending = [];
  drainScheduled = false;
  constructor(path, options = {}) {
    const busyTimeoutMs = options.busyTimeoutMs ?? 1e4;
    this.db = new Database2(path, { timeout: busyTimeoutMs });
    this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
    const file = this.db.memory || path === "" ? null : realpathSync(path);
    ({ mutex: this.mutex, release: this.releaseMutex } = mutexForFile(file));
  }
  /**
   * Group commit: transactions requested while another batch runs are run together, one after
   * the other, inside one BEGIN IMMEDIATE ... COMMIT, each in its own savepoint. Each keeps its
   * all-or-nothing effect (a failing one rolls back to its savepoint alone) and its promise settles
   * only after the commit, so callers see exactly the semantics of separate transactions; the
   * database pays one commit per batch instead of one per unit of work.
   */
  transaction(fn) {
    if (this.mutex.isHeldByCaller()) {
      return Promise.reject(new Error("a store transaction is already open in this call chain (nested tx)"));
    }
    return new Promise((resolve, reject) => {
      this.pending.push({
        fn,
        resolve,
        reject
      });
      if (!this.drainScheduled) {
        this.drainScheduled = true;
        void this.mutex.run(() => this.drain()).catch(() => void 0);
      }
    });
  }
  async drain() {
    this.drainScheduled = false;
    const batch = this.pending.splice(0, MAX_GROUP);
    if (this.pending.length > 0 && !this.drainScheduled) {
      this.drainScheduled = true;
      void this.mutex.run(() => this.drain()).catch(() => void 0);
    }
    if (batch.length === 0) return;
    const outcomes = [];
    try {
      this.checkOpen();
      this.db.exec("BEGIN IMMEDIATE");
      for (const request of batch) outcomes.push(await this.runInSavepoint(request.fn));
      this.db.exec("COMMIT");
    } catch (error) {
      if (this.db.open && this.db.inTransaction) this.db.exec("ROLLBACK");
      for (const request of batch) request.reject(error);
      return;
    }
    batch.forEach((request, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) request.resolve(outcome.value);
      else request.reject(outcome.error);
    });
  }
  async runInSavepoint(fn) {
    this.db.exec("SAVEPOINT unit");
    let open = true;
    const guard = () => {
      if (!open) throw new Error("a statement was run after its transaction ended");
    };
    const executor = {
      all: async (sql, params = []) => (guard(), this.all(sql, params)),
      run: async (sql, params = []) => (guard(), this.run(sql, params))
    };
    try {
      const value = await fn(executor);
      open = false;
      this.db.exec("RELEASE unit");
      return { ok: true, value };
    } catch (error) {
      open = false;
      this.db.exec("ROLLBACK TO unit");
      this.db.exec("RELEASE unit");
      return { ok: false, error };
    }
  }
  query(sql, params = []) {
    return this.mutex.run(async () => {
      this.checkOpen();
      return this.all(sql, params);
    });
  }
  close() {
    return this.mutex.run(async () => {
      if (this.closed) return;
      this.closed = true;
      this.statements.clear();
      this.db.close();
      this.releaseMutex();
    });
  }
  all(sql, params) {
    const { statement, order } = this.prepare(sql);
    const values = order.map((i) => params[i]);
    if (statement.reader) return statement.all(...values);
    statement.run(...values);
    return [];
  }
  run(sql, params) {
    const { statement, order } = this.prepare(sql);
    const values = order.map((i) => params[i]);
    if (statement.reader) return statement.all(...values).length;
    return statement.run(...values).changes;
  }
  /** Prepares once per distinct SQL text (least recently used statements are dropped). */
  prepare(sql) {
    let prepared = this.statements.get(sql);
    if (prepared) {
      this.statements.delete(sql);
    } else {
      const order = [];
      const text = sql.replace(/\$(\d+)/g, (_, n) => {
        order.push(Number(n) - 1);
        return "?";
      });
      prepared = { statement: this.db.prepare(text), order };
      if (this.statements.size >= STATEMENT_CACHE_SIZE) {
        this.statements.delete(this.statements.keys().next().value);
      }
    }
    this.statements.set(sql, prepared);
    return prepared;
  }
  checkOpen() {
    if (this.closed) throw new Error("the store is closed");
  }
};

// src/store/sqlite/index.ts
async function openSqliteStore(path, options = {}) {
  return migrated(new SqlStore(new SqliteDriver(path, options)), options.migrate);
}

// src/store/index.ts
async function openStore(url, options = {}) {
  if (isPostgresUrl(url)) return openPostgresStore(url, options);
  return openSqliteStore(sqlitePath(url), options);
}
function isPostgresUrl(url) {
  return /^postgres(ql)?:\/\//i.test(url);
}
function sqliteFileOf(url) {
  if (isPostgresUrl(url)) return void 0;
  const path = url.startsWith("sqlite:") ? url.slice("sqlite:".length) : url;
  if (path === "" || path === ":memory:" || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return void 0;
  return path;
}
function sqlitePath(url) {
  const path = url.startsWith("sqlite:") ? url.slice("sqlite:".length) : url;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(path);
  if (scheme)
    throw new Error(
      `unsupported store URL scheme "${scheme[1]}:" (expected postgres://, a file path or sqlite:PATH)`
    );
  if (path === "") throw new Error("empty store path");
  return path;
}

// src/cli/embedded.ts
function cliConfig(opts) {
  return loadConfig({
    ...opts.config ? { file: opts.config } : {},
    overrides: opts.db ? { database: opts.db } : {}
  });
}
function localProject() {
  return process.env.HEARTH_PROJECT ?? "local";
}
async function openEmbedded(opts) {
  return openEngine(cliConfig(opts), opts);
}
function publicApiUrl(config) {
  if (config.public_api_url !== "") return config.public_api_url;
  const host = config.bind_host === "0.0.0.0" || config.bind_host === "::" ? hostname2() : config.bind_host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.bind_port}`;
}
function configuredDatabase(config, opts = {}) {
  return expandHome(process.env.HEARTH_DB && !opts.db ? process.env.HEARTH_DB : config.database);
}
async function openConfiguredStore(config, opts = {}, options = {}) {
  const database = configuredDatabase(config, opts);
  const file = sqliteFileOf(database);
  if (file !== void 0) mkdirSync(dirname(file), { recursive: true });
  return openStore(database, { poolSize: config.database_pool_size, ...options });
}
async function openEngine(config, opts = {}, publicUrl = () => publicApiUrl(config)) {
  const database = configuredDatabase(config, opts);
  const store = await openConfiguredStore(config, opts);
  const signer = await SignalSigner.load(store, config.auth_encryption_key);
  const deps = {
    signalCredentials: (target) => signalCredentials(signer, publicUrl(), target),
    store,
    plugins: pluginCatalog(builtinPlugins()),
    reality: realityFor(database),
    clock: SYSTEM_CLOCK,
    engineId: `${hostname2()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    random: Math.random,
    settings: {
      workLeaseMs: config.work_lease_ms,
      heartbeatIntervalMs: config.heartbeat_interval_ms,
      engineDeadAfterMs: config.engine_dead_after_ms,
      shutdownTimeoutMs: config.shutdown_timeout_ms,
      actionRetryLimit: config.action_retry_limit,
      stackActionTimeout: config.stack_action_timeout,
      lockRetryMs: 200,
      workBatchSize: config.work_batch_size,
      limits: templateLimitsFrom(config)
    }
  };
  return new Engine(deps, (message) => {
    if (config.log_level === "debug" || config.log_level === "trace") process.stderr.write(`${message}
`);
  });
}
function realityFor(database) {
  if (isPostgresUrl(database)) return new PostgresReality(database);
  const file = sqliteFileOf(database);
  return file === void 0 ? new MemoryReality() : new SqliteReality(`${file}.reality`);
}

// src/cli/commands/engine.ts
function registerEngineCommand(program, print) {
  program.command("engine").description("Run engine workers on the store until stopped (what an operator starts after a crash)").action(async () => {
    const engine = await openEmbedded(program.opts());
    const drain = drainOnSignals(engine, print);
    print(`engine ${engine.deps.engineId} started
`);
    try {
      await engine.runUntil(async () => false, { signal: drain.signal });
    } finally {
      drain.dispose();
      await engine.stop();
      await engine.deps.store.close();
      print(`engine ${engine.deps.engineId} stopped
`);
    }
  });
}

// src/auth/token-cache.ts
var TokenCache = class {
  constructor(now, capacity = 1e4) {
    this.now = now;
    this.capacity = capacity;
  }
  now;
  capacity;
  entries = /* @__PURE__ */ new Map();
  inFlight = /* @__PURE__ */ new Map();
  /**
   * The cached answer for `key`, else `load`'s; `keepUntil` says until when an answer may be reused
   * (not at all when not after now). A failing load is not cached.
   */
  async get(key, load, keepUntil) {
    const cached = this.entries.get(key);
    if (cached !== void 0) {
      if (cached.until > this.now()) return cached.value;
      this.entries.delete(key);
    }
    const pending = this.inFlight.get(key);
    if (pending !== void 0) return pending;
    const loading = load().then((value) => {
      const now = this.now();
      const until = keepUntil(value, now);
      if (until > now) this.remember(key, value, until);
      return value;
    });
    this.inFlight.set(key, loading);
    try {
      return await loading;
    } finally {
      this.inFlight.delete(key);
    }
  }
  get size() {
    return this.entries.size;
  }
  remember(key, value, until) {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      this.entries.delete(oldest);
    }
  }
};

// src/auth/keystone.ts
var REJECTED_CACHE_MS = 5e3;
var SERVICE_TOKEN_MARGIN_MS = 3e4;
var UNAVAILABLE = "The identity service (Keystone) cannot validate tokens now; try again later";
function keystoneSettings(config) {
  return {
    url: config.keystone_url,
    user: config.keystone_service_user,
    password: config.keystone_service_password,
    project: config.keystone_service_project,
    userDomain: config.keystone_service_user_domain,
    projectDomain: config.keystone_service_project_domain,
    cacheMs: config.keystone_token_cache_time * 1e3,
    timeoutMs: config.keystone_timeout * 1e3
  };
}
function v3Endpoint(url) {
  const trimmed = url.replace(/\/+$/, "");
  return /\/v3$/.test(trimmed) ? trimmed : `${trimmed}/v3`;
}
var KeystoneClient = class {
  constructor(settings, options = {}) {
    this.settings = settings;
    this.endpoint = v3Endpoint(settings.url);
    const shown = new URL(this.endpoint);
    shown.username = "";
    shown.password = "";
    this.shownEndpoint = shown.toString().replace(/\/$/, "");
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? (() => {
    });
    this.rejectedCacheMs = Math.min(options.rejectedCacheMs ?? REJECTED_CACHE_MS, settings.cacheMs);
    this.cache = new TokenCache(this.now);
  }
  settings;
  endpoint;
  /** The endpoint as logs show it (without any user:password@). */
  shownEndpoint;
  now;
  warn;
  rejectedCacheMs;
  cache;
  service;
  pendingService;
  /**
   * Who a token stands for, or why it is refused. Throws AuthenticationUnavailableError when
   * Keystone cannot be asked (unreachable, too slow, failing, or refusing Hearth's credentials).
   */
  validate(token) {
    return this.cache.get(
      hashToken(token),
      () => this.ask(token),
      (check2, now) => "identity" in check2 ? Math.min(now + this.settings.cacheMs, check2.expiresAt) : now + this.rejectedCacheMs
    );
  }
  async ask(token) {
    let service = await this.serviceToken();
    let res = await this.call("GET", "/auth/tokens?nocatalog", {
      "x-auth-token": service.token,
      "x-subject-token": token
    });
    if (res.status === 401) {
      await res.body?.cancel();
      if (this.service === service) this.service = void 0;
      service = await this.serviceToken();
      res = await this.call("GET", "/auth/tokens?nocatalog", {
        "x-auth-token": service.token,
        "x-subject-token": token
      });
    }
    if (res.status === 200) return this.identityOf(await this.json(res));
    await res.body?.cancel();
    if (res.status === 404 || res.status === 400) return { rejected: "The token is unknown or has expired" };
    if (res.status === 401) throw this.unavailable("Keystone refused a fresh service token");
    if (res.status === 403) {
      throw this.unavailable(
        `Keystone does not let ${this.settings.user} validate tokens (it needs the service or admin role)`
      );
    }
    throw this.unavailable(`Keystone answered a token validation with HTTP ${res.status}`);
  }
  identityOf(body) {
    const token = body?.token;
    if (typeof token !== "object" || token === null) throw this.unavailable("Keystone sent no token body");
    const projectId = token.project?.id;
    if (typeof projectId !== "string" || projectId === "") {
      return { rejected: "The token is not scoped to a project" };
    }
    const expiresAt = Date.parse(token.expires_at ?? "");
    if (expiresAt <= this.now()) return { rejected: "The token is unknown or has expired" };
    const roles = Array.isArray(token.roles) ? token.roles.map((r) => r?.name).filter((n) => typeof n === "string") : [];
    const userId = typeof token.user?.id === "string" ? token.user.id : "";
    const userName = typeof token.user?.name === "string" ? token.user.name : userId;
    const identity = Object.freeze({ projectId, userId, userName, roles: Object.freeze(roles) });
    return { identity, expiresAt };
  }
  /** The service token, logging in when there is none or it is about to expire (one login at a time). */
  async serviceToken() {
    const current2 = this.service;
    if (current2 !== void 0 && current2.expiresAt - SERVICE_TOKEN_MARGIN_MS > this.now()) return current2;
    this.pendingService ??= this.login().finally(() => {
      this.pendingService = void 0;
    });
    const fresh = await this.pendingService;
    this.service = fresh;
    return fresh;
  }
  async login() {
    const s = this.settings;
    const res = await this.call(
      "POST",
      "/auth/tokens?nocatalog",
      { "content-type": "application/json" },
      JSON.stringify({
        auth: {
          identity: {
            methods: ["password"],
            password: { user: { name: s.user, domain: { name: s.userDomain }, password: s.password } }
          },
          scope: { project: { name: s.project, domain: { name: s.projectDomain } } }
        }
      })
    );
    if (res.status !== 201 && res.status !== 200) {
      await res.body?.cancel();
      const who = `user ${s.user} (domain ${s.userDomain}) in project ${s.project} (domain ${s.projectDomain})`;
      throw this.unavailable(
        res.status === 401 ? `Keystone refused Hearth's service credentials: ${who}` : `Keystone answered the service login of ${who} with HTTP ${res.status}`
      );
    }
    const token = res.headers.get("x-subject-token");
    const body = await this.json(res);
    if (!token) throw this.unavailable("Keystone sent no X-Subject-Token for the service login");
    const expiresAt = Date.parse(body?.token?.expires_at ?? "");
    return { token, expiresAt: Number.isNaN(expiresAt) ? Number.POSITIVE_INFINITY : expiresAt };
  }
  async call(method, path, headers, body) {
    try {
      return await fetch(`${this.endpoint}${path}`, {
        method,
        headers: { accept: "application/json", ...headers },
        ...body === void 0 ? {} : { body },
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: "error"
      });
    } catch (err) {
      throw this.unavailable(`Keystone at ${this.shownEndpoint} could not be reached: ${reason(err)}`);
    }
  }
  async json(res) {
    try {
      return await res.json();
    } catch (err) {
      throw this.unavailable(`Keystone's answer could not be read: ${reason(err)}`);
    }
  }
  /** Logs the detail; the client gets a message that says nothing of Hearth's network. */
  unavailable(detail) {
    this.warn(detail);
    return new AuthenticationUnavailableError(UNAVAILABLE);
  }
};
function reason(err) {
  const e = err;
  if (e.name === "TimeoutError") return "no answer in time";
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

// src/cli/output.ts
import { stringify as stringify2 } from "yaml";
function render(value, format, table) {
  if (format === "json") return `${JSON.stringify(value, null, 2)}
`;
  if (format === "yaml") return stringify2(value, { lineWidth: 0 });
  return table();
}
function textTable(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => cellWidth(r[i] ?? ""))));
  const line = `+${widths.map((w) => "-".repeat(w + 2)).join("+")}+`;
  const fmt = (cells) => {
    const height = Math.max(1, ...cells.map((c) => c.split("\n").length));
    const out = [];
    for (let l = 0; l < height; l++) {
      out.push(
        `| ${widths.map((w, i) => (cells[i] ?? "").split("\n")[l]?.padEnd(w) ?? "".padEnd(w)).join(" | ")} |`
      );
    }
    return out.join("\n");
  };
  return [line, fmt(headers), line, ...rows.map(fmt), line].join("\n") + "\n";
}
function cellWidth(cell2) {
  return Math.max(...cell2.split("\n").map((l) => l.length));
}
function cell(value) {
  if (value === void 0) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}
var FORMATS = ["table", "json", "yaml", "value"];
function show(print, format, value) {
  const fmt = checkFormat(format);
  if (Array.isArray(value) && value.length === 0 && (fmt === "table" || fmt === "value")) return;
  if (fmt === "value") {
    const rows = Array.isArray(value) ? value : Object.values(value).map((v) => ({ v }));
    for (const row of rows) print(`${Object.values(row).map(cellText).join(" ")}
`);
    return;
  }
  print(
    render(
      value,
      fmt,
      () => Array.isArray(value) ? textTable(
        Object.keys(value[0] ?? {}),
        value.map((r) => Object.values(r).map(cellText))
      ) : textTable(
        ["Field", "Value"],
        Object.entries(value).map(([k, v]) => [k, cellText(v)])
      )
    )
  );
}
function cellText(value) {
  if (value === null || value === void 0) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
function checkFormat(format) {
  if (!FORMATS.includes(format)) {
    throw new Error(`unknown output format "${format}"; expected ${FORMATS.join(", ")}`);
  }
  return format;
}
function tabular(format) {
  const fmt = checkFormat(format);
  return fmt === "table" || fmt === "value";
}

// src/cli/commands/manage-db.ts
function registerDbCommands(manage, program, print) {
  manage.command("db").description("The store\u2019s schema").command("sync").description("Create or upgrade the schema of the store (--db, HEARTH_DB or the database option)").action(async () => {
    const global = program.opts();
    const store = await openConfiguredStore(cliConfig(global), global, { migrate: false });
    try {
      const before = await store.schemaVersion();
      const after = await store.migrate();
      print(`schema at version ${after} (was ${before}${before === after ? ": up to date" : ""})
`);
    } finally {
      await store.close();
    }
  });
}

// src/cli/commands/manage-service.ts
function registerServiceCommands(manage, program, print) {
  const service = manage.command("service").description("Engines registered in the store");
  const withStore = async (fn) => {
    const global = program.opts();
    const config = cliConfig(global);
    const store = await openConfiguredStore(config, global, { migrate: false });
    try {
      if (await store.schemaVersion() === 0) {
        throw new Error("the store has no schema yet (run `hearth manage db sync`)");
      }
      return await fn(store, config);
    } finally {
      await store.close();
    }
  };
  service.command("list").description("List engines: host, pid, start, last heartbeat, and whether they are alive").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (opts) => {
    const rows = await withStore(async (store, config) => {
      const services = await store.tx((tx) => tx.services.list());
      const now = Date.now();
      return services.map((s) => serviceRow(s, now, config.engine_dead_after_ms));
    });
    show(print, opts.format, rows);
  });
  service.command("clean").description("Remove dead engines and release the work they had claimed").action(async () => {
    const removed = await withStore((store, config) => {
      const now = Date.now();
      return store.tx((tx) => removeDeadEngines(tx, now, config.engine_dead_after_ms));
    });
    if (removed.length === 0) print("no dead engines\n");
    for (const { service: s, releasedWork } of removed) {
      print(
        `removed engine ${s.engineId} (host ${s.host}, pid ${s.pid}, last heartbeat ${new Date(s.heartbeatAt).toISOString()}); released ${releasedWork} claimed work item(s)
`
      );
    }
  });
}
function serviceRow(s, now, deadAfterMs) {
  return {
    engine_id: s.engineId,
    host: s.host,
    pid: s.pid,
    started_at: new Date(s.startedAt).toISOString(),
    last_heartbeat: new Date(s.heartbeatAt).toISOString(),
    age_seconds: Math.round((now - s.heartbeatAt) / 100) / 10,
    status: engineAlive(s, now, deadAfterMs) ? "alive" : "dead"
  };
}

// src/cli/commands/manage.ts
var collect = (value, previous) => [...previous, value];
function registerManageCommands(program, print) {
  const manage = program.command("manage").description("Operator tasks on the store");
  registerDbCommands(manage, program, print);
  registerServiceCommands(manage, program, print);
  const withStore = async (fn) => {
    const engine = await openEmbedded(program.opts());
    try {
      return await fn(engine);
    } finally {
      await engine.deps.store.close();
    }
  };
  manage.command("project").description("Projects of standalone authentication").command("create <name>").description("Create a project; its id is what API URLs carry (/v1/<project_id>)").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
    const project = await withStore((engine) => createProject(engine.deps.store, name));
    show(print, opts.format, { id: project.id, name: project.name });
  });
  manage.command("user").description("Users of standalone authentication").command("create <name>").description("Create a user in a project").requiredOption("--project <project>", "the project (name or id)").option("--role <role>", 'a role (repeatable; "admin" may act on every project)', collect, []).option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
    const user = await withStore((engine) => createUser(engine.deps.store, opts.project, name, opts.role));
    show(print, opts.format, {
      id: user.id,
      name: user.name,
      project_id: user.projectId,
      roles: user.roles.join(",")
    });
  });
  manage.command("token").description("API tokens of standalone authentication").command("create").description("Create an API token for a user; it is shown once and stored only as a hash").requiredOption("--project <project>", "the project (name or id)").requiredOption("--user <user>", "the user (name or id)").option("--expires-in <seconds>", "lifetime in seconds (default: no expiry)").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (opts) => {
    const ttl = opts.expiresIn === void 0 ? void 0 : Number(opts.expiresIn);
    if (ttl !== void 0 && !(Number.isInteger(ttl) && ttl > 0)) {
      throw new Error(`--expires-in must be a positive number of seconds, got "${opts.expiresIn}"`);
    }
    const made = await withStore(
      (engine) => createToken(engine.deps.store, opts.project, opts.user, ttl === void 0 ? {} : { ttlSeconds: ttl })
    );
    show(print, opts.format, {
      token: made.token,
      id: made.id,
      project_id: made.user.projectId,
      user_id: made.user.id,
      expires_at: made.expiresAt === null ? null : new Date(made.expiresAt).toISOString()
    });
  });
}

// src/api/logging.ts
import pino from "pino";
var serializers = {
  req: (request) => ({
    method: request.method,
    url: request.url,
    host: request.host,
    remoteAddress: request.ip
  }),
  res: (reply) => ({ statusCode: reply.statusCode }),
  err: pino.stdSerializers.err
};
function apiLogger(level, destination = pino.destination(2)) {
  return pino(
    {
      level,
      serializers,
      redact: { paths: ["req.headers", "req.body", "headers", "body"], remove: true }
    },
    destination
  );
}

// src/cli/commands/serve.ts
function isLoopback(host) {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
function checkAuthSettings(config) {
  switch (config.auth_mode) {
    case "noauth":
      if (!isLoopback(config.bind_host)) {
        throw new Error(
          `--auth noauth trusts every request: it serves loopback addresses only (127.0.0.1, ::1, localhost), not ${config.bind_host}`
        );
      }
      return;
    case "keystone": {
      if (config.keystone_service_password === "") {
        throw new Error(
          "--auth keystone needs the password of Hearth\u2019s Keystone user: set keystone_service_password (or HEARTH_KEYSTONE_SERVICE_PASSWORD)"
        );
      }
      const endpoint = v3Endpoint(config.keystone_url);
      if (!URL.canParse(endpoint) || !["http:", "https:"].includes(new URL(endpoint).protocol)) {
        throw new Error(`keystone_url must be an http(s) URL, got "${config.keystone_url}"`);
      }
      return;
    }
    case "standalone":
      return;
  }
}
function authenticatorFor(config, engine, logger) {
  switch (config.auth_mode) {
    case "standalone":
      return standaloneAuthenticator(engine.deps.store);
    case "noauth":
      return noauthAuthenticator();
    case "keystone":
      return keystoneAuthenticator(
        new KeystoneClient(keystoneSettings(config), { warn: (message) => logger.warn(message) })
      );
  }
}
function registerServeCommand(program, print) {
  program.command("serve").description("Run the Heat-compatible REST API (with engine workers unless --no-workers)").option("--host <host>", "address to listen on (config bind_host, default 127.0.0.1)").option("--port <port>", "port to listen on (config bind_port, default 8004; 0 picks one)").option("--auth <mode>", `authentication: ${AUTH_MODES.join(", ")} (config auth_mode)`).option("--no-workers", "serve the API only; engines started elsewhere run the work").action(async (opts) => {
    const global = program.opts();
    const config = withServeOptions(cliConfig(global), opts);
    checkAuthSettings(config);
    let listening = publicApiUrl(config);
    const engine = await openEngine(config, global, () => listening);
    const logger = apiLogger(config.log_level);
    const drain = drainOnSignals(engine, print);
    try {
      const authenticator = authenticatorFor(config, engine, logger);
      const signer = await SignalSigner.load(engine.deps.store, config.auth_encryption_key);
      const { buildServer } = await import("./server-I47FT7VG.js");
      const app = await buildServer({ engine, authenticator, limits: config, signer }, { logger });
      const address = await app.listen({ host: config.bind_host, port: config.bind_port });
      if (config.public_api_url === "") listening = address;
      print(`Hearth API listening on ${address} (auth: ${config.auth_mode})
`);
      const closed = new Promise(
        (resolve) => drain.signal.addEventListener("abort", () => void app.close().then(resolve), { once: true })
      );
      if (opts.workers) await engine.runUntil(async () => false, { signal: drain.signal });
      await closed;
    } finally {
      drain.dispose();
      await engine.stop();
      await engine.deps.store.close();
    }
    print("Hearth API stopped\n");
  });
}
function withServeOptions(config, opts) {
  const port = opts.port === void 0 ? config.bind_port : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535, got "${opts.port}"`);
  if (opts.auth !== void 0 && !AUTH_MODES.includes(opts.auth)) {
    throw new Error(`--auth must be one of ${AUTH_MODES.join(", ")}, got "${opts.auth}"`);
  }
  return {
    ...config,
    bind_host: opts.host ?? config.bind_host,
    bind_port: port,
    auth_mode: opts.auth ?? config.auth_mode
  };
}

// src/cli/commands/stack.ts
import { writeFileSync } from "node:fs";

// src/template/loader.ts
function toFileUrl(path, cwd = process.cwd()) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return resolveTemplateUrl(`file://${cwd.endsWith("/") ? cwd : `${cwd}/`}`, path);
}
function loadStackInput(templatePath, environmentPaths, read, limits = DEFAULT_LIMITS) {
  const url = toFileUrl(templatePath);
  const text = readOrFail(read, url, templatePath);
  const files = {};
  const environments = [];
  for (const path of environmentPaths) {
    const envUrl = toFileUrl(path);
    const env = parseEnvironment(envUrl, readOrFail(read, envUrl, path), limits);
    environments.push(env);
    for (const target of registryTemplateUrls(env)) collectTemplate(target, files, read, limits);
  }
  collectReferencedFiles(url, text, files, read, limits);
  return { url, text, environment: mergeEnvironments(environments), files };
}
function readOrFail(read, url, shown) {
  try {
    return read(url);
  } catch (err) {
    throw new TemplateError("reference", `cannot read "${shown}": ${err.message}`);
  }
}
function collectTemplate(url, files, read, limits) {
  if (Object.hasOwn(files, url)) return;
  const text = readOrFail(read, url, url);
  files[url] = text;
  collectReferencedFiles(url, text, files, read, limits);
}
function collectReferencedFiles(url, text, files, read, limits) {
  const doc = parseSource(url, text, limits);
  const resources = isPlainObject(doc.data) ? doc.data.resources : void 0;
  if (isPlainObject(resources)) {
    for (const body of Object.values(resources)) {
      const type = isPlainObject(body) ? body.type : void 0;
      if (typeof type === "string" && isTemplateType(type)) {
        collectTemplate(resolveTemplateUrl(url, type), files, read, limits);
      }
    }
  }
  const stack = [doc.data];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else if (isPlainObject(node)) {
      const keys = Object.keys(node);
      if (keys.length === 1 && keys[0] === "get_file" && typeof node.get_file === "string") {
        const fileUrl = resolveTemplateUrl(url, node.get_file);
        if (!Object.hasOwn(files, fileUrl)) files[fileUrl] = readOrFail(read, fileUrl, node.get_file);
      } else {
        for (const value of Object.values(node)) stack.push(value);
      }
    }
  }
}

// src/cli/backends/embedded-views.ts
function stackInfo(stack) {
  return {
    id: stack.id,
    name: stack.name,
    status: `${stack.action}_${stack.status}`,
    reason: stack.reason,
    creationTime: heatTime(stack.createdAt),
    // A new stack's row records its creation as its last update; Heat shows no update yet.
    updatedTime: stack.updatedAt === stack.createdAt ? null : heatTime(stack.updatedAt),
    parent: stack.parentId,
    disableRollback: stack.disableRollback,
    timeoutMins: stack.timeoutMins,
    tags: stack.tags
  };
}
function resourceInfo(row, stackName) {
  return {
    name: row.name,
    physicalId: row.physicalId ?? "",
    type: row.type,
    status: `${row.action}_${row.status}`,
    reason: row.reason,
    updatedTime: heatTime(row.updatedAt ?? row.createdAt),
    stackName
  };
}
function eventInfo(event) {
  return {
    id: event.uuid,
    resourceName: event.resourceName,
    physicalId: event.physicalId ?? "",
    status: `${event.action}_${event.status}`,
    reason: event.reason,
    time: heatTime(event.createdAt)
  };
}
function previewResource(r) {
  return {
    name: r.name,
    type: r.type,
    parentResource: r.path.at(-1) ?? null,
    requiredBy: r.requiredBy,
    properties: knownValue(r.properties)
  };
}
function previewChange(c) {
  return {
    change: c.change,
    name: c.name,
    type: c.type,
    physicalId: c.row?.physicalId ?? "",
    status: c.row ? `${c.row.action}_${c.row.status}` : "INIT_COMPLETE",
    parentResource: c.path.at(-1) ?? null
  };
}

// src/cli/errors.ts
var EXIT_INVALID = 1;
var EXIT_USAGE = 2;
function describeError(err, cwd = process.cwd()) {
  const text = err instanceof TemplateError ? err.message : err instanceof Error ? err.message : String(err);
  const prefix = `file://${cwd.endsWith("/") ? cwd : `${cwd}/`}`;
  return maskUrlPasswords(text.split(prefix).join(""));
}
function maskUrlPasswords(text) {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):\S*@/gi, "$1:***@");
}
var StackFailed = class extends Error {
  name = "StackFailed";
};

// src/cli/views.ts
function stackView(stack) {
  return {
    id: stack.id,
    stack_name: stack.name,
    stack_status: stack.status,
    stack_status_reason: stack.reason,
    creation_time: stack.creationTime,
    updated_time: stack.updatedTime,
    disable_rollback: stack.disableRollback,
    timeout_mins: stack.timeoutMins,
    parent: stack.parent,
    tags: stack.tags
  };
}
function stackListView(stack, withParent) {
  return {
    id: stack.id,
    stack_name: stack.name,
    stack_status: stack.status,
    creation_time: stack.creationTime,
    updated_time: stack.updatedTime,
    ...withParent ? { parent: stack.parent } : {}
  };
}
function resourceView(resource, withStack = false) {
  return {
    resource_name: resource.name,
    physical_resource_id: resource.physicalId,
    resource_type: resource.type,
    resource_status: resource.status,
    resource_status_reason: resource.reason,
    updated_time: resource.updatedTime,
    ...withStack ? { stack_name: resource.stackName } : {}
  };
}
function resourceDetailView(resource) {
  return { ...resourceView(resource), attributes: resource.attributes, required_by: resource.requiredBy };
}
function eventView(event) {
  return {
    id: event.id,
    resource_name: event.resourceName,
    physical_resource_id: event.physicalId,
    resource_status: event.status,
    resource_status_reason: event.reason,
    event_time: event.time
  };
}
function eventLine(event) {
  return `${event.time} [${event.resourceName}]: ${event.status}  ${event.reason}
`;
}

// src/cli/progress.ts
var REDRAW_MS = 250;
var PLAIN_PROGRESS_MS = 1e4;
function waitDisplay(failOnFailure = true) {
  return { tty: process.stderr.isTTY === true, failOnFailure };
}
function countsText(counts) {
  if (counts.total > 0) {
    return `${counts.done}/${counts.total} done, ${counts.inProgress} in progress, ${counts.failed} failed`;
  }
  const parts = [];
  if (counts.inProgress > 0) parts.push(`${counts.inProgress} in progress`);
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  return parts.join(", ");
}
function seconds(ms2) {
  return `${(ms2 / 1e3).toFixed(1)}s`;
}
async function waitAndReport(engine, stackId, print, display = waitDisplay()) {
  const store = engine.deps.store;
  let lastEvent = await store.tx((tx) => tx.events.latestId(stackId));
  let lastLine = -Infinity;
  let lastCounts = "";
  let lastAction = "";
  const plain = async (progress) => {
    const events = await store.tx((tx) => tx.events.list(stackId, { afterId: lastEvent }));
    lastEvent = events.at(-1)?.id ?? lastEvent;
    for (const e of events) print(eventLine(eventInfo(e)));
    const counts = countsText(progress.counts);
    const running = progress.counts.total > 0 && !progress.final;
    const started = progress.stack.action !== lastAction;
    const due = counts !== lastCounts && progress.elapsedMs - lastLine >= PLAIN_PROGRESS_MS;
    if (running && (started || due)) {
      lastLine = progress.elapsedMs;
      lastCounts = counts;
      lastAction = progress.stack.action;
      print(`Progress: ${counts} (${seconds(progress.elapsedMs)})
`);
    }
  };
  const terminal = (progress) => {
    const s = progress.stack;
    const counts = countsText(progress.counts);
    const line = [`${s.action}_${s.status}`, ...counts ? [counts] : [], seconds(progress.elapsedMs)].join(
      "  "
    );
    process.stderr.write(`\r${line}\x1B[K${progress.final ? "\n" : ""}`);
  };
  const final = await engine.waitForStack(stackId, display.tty ? terminal : plain, {
    reportEveryMs: REDRAW_MS
  });
  if (display.failOnFailure && final?.status === "FAILED") {
    throw new StackFailed(`${final.action}_FAILED: ${final.reason}`);
  }
  return final;
}

// src/cli/backends/embedded-resources.ts
async function nestedResources(tx, stack, depth) {
  const rows = await tx.resources.listActive(stack.id);
  const children = depth > 0 ? await tx.stacks.children(stack.id) : [];
  const out = [];
  for (const row of rows) {
    out.push(resourceInfo(row, stack.name));
    const child = children.find((c) => c.id === row.physicalId && c.parentResource === row.name);
    if (child) out.push(...await nestedResources(tx, child, depth - 1));
  }
  return out;
}
async function resourceDetail(engine, stack, name) {
  const { deps } = engine;
  const row = await getResource(deps, stack, name);
  const read = deps.plugins.typeCatalog.get(row.type)?.readAttribute;
  const attributes = read?.(row.attributes, void 0) ?? row.attributes;
  return { ...resourceInfo(row, stack.name), attributes, requiredBy: await requiredBy(engine, stack, name) };
}
async function requiredBy(engine, stack, name) {
  const templateId = stack.templateId;
  const record = templateId ? await engine.deps.store.tx((tx) => tx.templates.get(templateId)) : void 0;
  if (!record) return [];
  const definition = engine.cache.get(record, {
    stackId: stack.id,
    stackName: stack.name,
    projectId: stack.projectId
  });
  const out = [];
  for (const [other, resource] of definition.resources) if (resource.requires.includes(name)) out.push(other);
  return out;
}
async function pendingHooks(tx, stack, prefix = "") {
  const out = [];
  const children = new Map((await tx.stacks.children(stack.id)).map((c) => [c.id, c]));
  for (const row of await tx.resources.listActive(stack.id)) {
    const hook = pendingHook(row);
    if (hook) out.push({ path: `${prefix}${row.name}`, hook, stackName: stack.name });
    const child = row.physicalId ? children.get(row.physicalId) : void 0;
    if (child) out.push(...await pendingHooks(tx, child, `${prefix}${row.name}/`));
  }
  return out;
}
async function clearHooks(deps, top, path, hooks) {
  const { stack, resource } = await resolvePath(deps, top, path);
  const row = await getResource(deps, stack, resource);
  const clear = hooks.length > 0 ? hooks : [pendingHook(row)].filter((h) => h !== void 0);
  if (clear.length === 0) throw new OperationError(`resource "${path}" is not waiting at a hook`, "invalid");
  for (const unset of clear) await signalResource(deps, stack.id, resource, { unset_hook: unset });
}
async function resolvePath(deps, top, path) {
  const parts = path.split("/");
  let stack = top;
  for (const part of parts.slice(0, -1)) {
    const row = await getResource(deps, stack, part);
    const child = row.physicalId ? await deps.store.tx((tx) => tx.stacks.get(row.physicalId)) : void 0;
    if (!child || child.parentId !== stack.id) {
      throw new OperationError(
        `resource "${part}" of stack "${stack.name}" is not a nested stack`,
        "not_found"
      );
    }
    stack = child;
  }
  return { stack, resource: parts.at(-1) };
}

// src/cli/backends/embedded.ts
var EmbeddedBackend = class _EmbeddedBackend {
  constructor(engine, print) {
    this.engine = engine;
    this.print = print;
  }
  engine;
  print;
  static async open(opts, print) {
    return new _EmbeddedBackend(await openEmbedded(opts), print);
  }
  async close() {
    await this.engine.stop();
    await this.engine.deps.store.close();
  }
  get deps() {
    return this.engine.deps;
  }
  record(stack) {
    return findStack(this.deps, localProject(), stack.id);
  }
  /** The stack an operation started, or after running it to its end when asked. */
  async settle(started, wait) {
    const final = wait ? await waitAndReport(this.engine, started.id, this.print, wait) : started;
    return stackInfo(final ?? started);
  }
  async listStacks(nested) {
    const filter = { projectId: localProject(), ...nested ? {} : { parentId: null } };
    return (await this.deps.store.tx((tx) => tx.stacks.list(filter))).map(stackInfo);
  }
  async findStack(nameOrId) {
    return stackInfo(await findStack(this.deps, localProject(), nameOrId));
  }
  async createStack(request, wait) {
    const created = await createStack(this.deps, this.engine.cache, {
      ...request,
      projectId: localProject()
    });
    return this.settle(created, wait);
  }
  async updateStack(stack, change, wait) {
    return this.settle(await updateStack(this.deps, this.engine.cache, stack.id, change), wait);
  }
  async deleteStack(stack, wait) {
    await deleteStack(this.deps, stack.id);
    if (wait) await waitAndReport(this.engine, stack.id, this.print, wait);
  }
  async visitStack(stack, visit, wait) {
    const started = visit === "check" ? await checkStack(this.deps, this.engine.cache, stack.id) : await suspendOrResume(this.deps, stack.id, visit === "suspend" ? "SUSPEND" : "RESUME");
    return this.settle(started, wait);
  }
  async cancelStack(stack, rollback, wait) {
    await cancelStack(this.deps, stack.id, { rollback });
    const final = wait ? await waitAndReport(this.engine, stack.id, this.print, wait) : await this.record(stack);
    return final && stackInfo(final);
  }
  abandonStack(stack) {
    return abandonStack(this.deps, stack.id);
  }
  async waitForStack(stack, display) {
    const final = await waitAndReport(this.engine, stack.id, this.print, display);
    return final && stackInfo(final);
  }
  async previewCreate(request) {
    const { resources } = previewStackCreate(this.deps, this.engine.cache, {
      ...request,
      projectId: localProject()
    });
    return resources.map(previewResource);
  }
  async previewUpdate(stack, change, nested) {
    return (await previewStackUpdate(this.deps, this.engine.cache, stack.id, change, nested)).map(
      previewChange
    );
  }
  async outputs(stack) {
    return stackOutputs(this.deps, this.engine.cache, await this.record(stack));
  }
  async output(stack, key) {
    const one = (await this.outputs(stack)).find((o) => o.output_key === key);
    if (!one) throw new Error(`output "${key}" not found in stack "${stack.name}"`);
    return one;
  }
  async resources(stack, nestedDepth2) {
    const record = await this.record(stack);
    return this.deps.store.tx((tx) => nestedResources(tx, record, nestedDepth2));
  }
  async resource(stack, name) {
    return resourceDetail(this.engine, await this.record(stack), name);
  }
  async markUnhealthy(stack, resource, reason2) {
    await markUnhealthy(this.deps, stack.id, resource, reason2);
  }
  async signal(stack, resource, data) {
    const signalId = await signalResource(this.deps, stack.id, resource, data);
    await this.engine.runUntil(() => signalSettled(this.deps, signalId));
    const error = await signalError(this.deps, stack.id, resource, signalId);
    if (error) throw new Error(error);
  }
  async events(stack) {
    return (await this.deps.store.tx((tx) => tx.events.list(stack.id))).map(eventInfo);
  }
  async template(stack) {
    const { templateId } = await this.record(stack);
    const record = templateId ? await this.deps.store.tx((tx) => tx.templates.get(templateId)) : void 0;
    return record?.template ?? "";
  }
  async pendingHooks(stack) {
    const record = await this.record(stack);
    return this.deps.store.tx((tx) => pendingHooks(tx, record));
  }
  async clearHooks(stack, path, hooks) {
    await clearHooks(this.deps, await this.record(stack), path, hooks);
  }
};

// src/cli/backends/remote.ts
import { stringify as stringify3 } from "yaml";

// src/client/errors.ts
var HeatApiError = class extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
  status;
  type;
  name = "HeatApiError";
  /** The server has no such route (as opposed to a stack or resource that does not exist). */
  get noRoute() {
    return this.status === 404 && this.type === "HTTPNotFound";
  }
};
var HeatConnectionError = class extends Error {
  name = "HeatConnectionError";
};
function responseError(status, statusText, text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = void 0;
  }
  const error = parsed?.error;
  if (error && typeof error.message === "string") {
    return new HeatApiError(status, typeof error.type === "string" ? error.type : "Error", error.message);
  }
  const snippet = text.trim().slice(0, 200);
  return new HeatApiError(status, "Error", `HTTP ${status} ${statusText}${snippet ? `: ${snippet}` : ""}`);
}

// src/client/heat-client.ts
var enc = encodeURIComponent;
function queryString(query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === void 0) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
function stackIdFromUrl(url) {
  const path = new URL(url, "http://x").pathname.split("/");
  const at = path.lastIndexOf("stacks");
  const name = path[at + 1];
  const id = path[at + 2];
  if (at < 0 || !name || !id) throw new Error(`the server redirected to ${url}, which names no stack`);
  return { name: decodeURIComponent(name), id: decodeURIComponent(id) };
}
var HeatClient = class {
  url;
  #token;
  #fetch;
  constructor(options) {
    this.url = options.url.replace(/\/+$/, "");
    this.#token = options.token;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }
  async #send(method, path, body, redirect = "follow") {
    const headers = { accept: "application/json" };
    if (this.#token !== void 0) headers["x-auth-token"] = this.#token;
    if (body !== void 0) headers["content-type"] = "application/json";
    try {
      return await this.#fetch(`${this.url}${path}`, {
        method,
        headers,
        redirect,
        ...body !== void 0 ? { body: JSON.stringify(body) } : {}
      });
    } catch (err) {
      const cause = err.cause?.message ?? err.message;
      throw new HeatConnectionError(`cannot reach the API at ${new URL(this.url).origin}: ${cause}`);
    }
  }
  /** Sends a request and returns its JSON body (undefined when there is none). */
  async request(method, path, body) {
    const response = await this.#send(method, path, body);
    const text = await response.text();
    if (!response.ok) throw responseError(response.status, response.statusText, text);
    if (text === "") return void 0;
    try {
      return JSON.parse(text);
    } catch {
      const where = `${this.url}${path}`;
      throw new HeatApiError(
        response.status,
        "Error",
        `${method} ${where} answered with no JSON: not the API?`
      );
    }
  }
  #stack(stack) {
    return `/stacks/${enc(stack.name)}/${enc(stack.id)}`;
  }
  #resource(stack, resource) {
    return `${this.#stack(stack)}/resources/${enc(resource)}`;
  }
  // Stacks
  async listStacks(query = {}) {
    return (await this.request("GET", `/stacks${queryString({ ...query })}`)).stacks;
  }
  /** Creates a stack; the answer names it (`{id, links}`). */
  async createStack(body) {
    return (await this.request("POST", "/stacks", body)).stack;
  }
  /** `GET /stacks/{name or id}`: Heat answers 302 to the stack's URL, which names it fully. */
  async lookupStack(nameOrId) {
    const response = await this.#send("GET", `/stacks/${enc(nameOrId)}`, void 0, "manual");
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      return stackIdFromUrl(location);
    }
    const text = await response.text();
    if (!response.ok) throw responseError(response.status, response.statusText, text);
    const stack = JSON.parse(text).stack;
    return { name: stack.stack_name, id: stack.id };
  }
  async showStack(stack) {
    return (await this.request("GET", this.#stack(stack))).stack;
  }
  /** PUT: the stack becomes what the body describes (a new template). */
  async updateStack(stack, body) {
    await this.request("PUT", this.#stack(stack), body);
  }
  /** PATCH (Heat's `existing`): the stored template and environment with the body's changes on top. */
  async patchStack(stack, body) {
    await this.request("PATCH", this.#stack(stack), body);
  }
  async deleteStack(stack) {
    await this.request("DELETE", this.#stack(stack));
  }
  /** Removes the stack, leaving its resources; returns Heat's abandon document. */
  async abandonStack(stack) {
    return this.request("DELETE", `${this.#stack(stack)}/abandon`);
  }
  /** `POST .../actions` with `{"<action>": null}`. */
  async stackAction(stack, action) {
    await this.request("POST", `${this.#stack(stack)}/actions`, { [action]: null });
  }
  async previewCreate(body) {
    return (await this.request("POST", "/stacks/preview", body)).stack;
  }
  /** What an update would do to each resource; `patch` previews a PATCH (`existing`) update. */
  async previewUpdate(stack, body, options = {}) {
    const query = queryString({ show_nested: options.showNested || void 0 });
    const path = `${this.#stack(stack)}/preview${query}`;
    const answer = await this.request(
      options.patch ? "PATCH" : "PUT",
      path,
      body
    );
    return answer.resource_changes;
  }
  async getTemplate(stack) {
    return this.request("GET", `${this.#stack(stack)}/template`);
  }
  async getEnvironment(stack) {
    return this.request("GET", `${this.#stack(stack)}/environment`);
  }
  async getFiles(stack) {
    return this.request("GET", `${this.#stack(stack)}/files`);
  }
  // Outputs
  async listOutputs(stack) {
    return (await this.request("GET", `${this.#stack(stack)}/outputs`)).outputs;
  }
  async showOutput(stack, key) {
    const path = `${this.#stack(stack)}/outputs/${enc(key)}`;
    return (await this.request("GET", path)).output;
  }
  // Resources
  async listResources(stack, query = {}) {
    const path = `${this.#stack(stack)}/resources${queryString({ ...query })}`;
    return (await this.request("GET", path)).resources;
  }
  async showResource(stack, resource) {
    return (await this.request("GET", this.#resource(stack, resource))).resource;
  }
  async resourceMetadata(stack, resource) {
    const path = `${this.#resource(stack, resource)}/metadata`;
    return (await this.request("GET", path)).metadata;
  }
  /** Sends a signal; `data` (when not null) is the JSON body the resource's handler gets. */
  async signalResource(stack, resource, data) {
    await this.request("POST", `${this.#resource(stack, resource)}/signal`, data ?? void 0);
  }
  /** `PATCH .../resources/{name}`: mark (or unmark) a resource unhealthy, with a reason. */
  async markUnhealthy(stack, resource, unhealthy, reason2) {
    await this.request("PATCH", this.#resource(stack, resource), {
      mark_unhealthy: unhealthy,
      resource_status_reason: reason2
    });
  }
  // Events
  async listEvents(stack, query = {}) {
    const path = `${this.#stack(stack)}/events${queryString({ ...query })}`;
    return (await this.request("GET", path)).events;
  }
  async listResourceEvents(stack, resource, query = {}) {
    const path = `${this.#resource(stack, resource)}/events${queryString({ ...query })}`;
    return (await this.request("GET", path)).events;
  }
  async showEvent(stack, resource, eventId) {
    const path = `${this.#resource(stack, resource)}/events/${enc(eventId)}`;
    return (await this.request("GET", path)).event;
  }
  // Templates and types
  async validate(body, options = {}) {
    const query = queryString({
      show_nested: options.showNested || void 0,
      ignore_errors: options.ignoreErrors
    });
    return this.request("POST", `/validate${query}`, body);
  }
  async listResourceTypes(query = {}) {
    const path = `/resource_types${queryString({ ...query })}`;
    return (await this.request("GET", path)).resource_types;
  }
  async showResourceType(type) {
    return this.request("GET", `/resource_types/${enc(type)}`);
  }
  /** A template that implements the type (`hot` or `cfn`). */
  async resourceTypeTemplate(type, templateType = "cfn") {
    const path = `/resource_types/${enc(type)}/template${queryString({ template_type: templateType })}`;
    return this.request("GET", path);
  }
  async listTemplateVersions() {
    const answer = await this.request(
      "GET",
      "/template_versions"
    );
    return answer.template_versions;
  }
  async listTemplateFunctions(version, options = {}) {
    const query = queryString({ with_condition_func: options.withConditionFunctions || void 0 });
    const path = `/template_versions/${enc(version)}/functions${query}`;
    return (await this.request("GET", path)).template_functions;
  }
};

// src/client/template-body.ts
import { posix } from "node:path";
function templateFields(input) {
  const refOf = relativeRefs(input.url);
  const files = {};
  const seen = /* @__PURE__ */ new Map();
  for (const [url, text] of Object.entries(input.files)) {
    const ref = refOf(url);
    const onServer = new URL(ref, "file:///").href;
    const other = seen.get(onServer);
    if (other !== void 0) {
      throw new Error(`"${other}" and "${url}" would be the same file on the server; move one of them`);
    }
    seen.set(onServer, url);
    files[ref] = text;
  }
  const environment = environmentToJSON(input.environment, { encryptedParamNames: false });
  const registry = environment.resource_registry;
  if (registry !== void 0) environment.resource_registry = mapStrings(registry, refOf);
  return { template: input.text, files, environment };
}
function relativeRefs(templateUrl) {
  if (!templateUrl.startsWith("file:")) return (url) => url;
  const dir = posix.dirname(new URL(templateUrl).pathname);
  return (url) => url.startsWith("file:") ? posix.relative(dir, new URL(url).pathname) || "." : url;
}
function mapStrings(value, map) {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (isPlainObject(value)) {
    const out = {};
    for (const [key, item] of Object.entries(value)) {
      setOwn(out, key, mapStrings(item, map));
    }
    return out;
  }
  return value;
}

// src/client/types.ts
var CHANGE_KINDS = ["added", "deleted", "replaced", "unchanged", "updated"];

// src/cli/backends/remote-views.ts
function stackSummary(stack) {
  return {
    id: stack.id,
    name: stack.stack_name,
    status: stack.stack_status,
    reason: stack.stack_status_reason,
    creationTime: stack.creation_time,
    updatedTime: stack.updated_time,
    parent: stack.parent
  };
}
function stackInfo2(stack) {
  return {
    ...stackSummary(stack),
    disableRollback: stack.disable_rollback,
    timeoutMins: stack.timeout_mins,
    tags: stack.tags ?? []
  };
}
function linkedStack(links, rel) {
  const href = links?.find((l) => l.rel === rel)?.href;
  return href === void 0 ? void 0 : stackIdFromUrl(href);
}
function resourceInfo2(resource, listed) {
  return {
    name: resource.resource_name,
    physicalId: resource.physical_resource_id ?? "",
    type: resource.resource_type,
    status: resource.resource_status,
    reason: resource.resource_status_reason,
    updatedTime: resource.updated_time ?? resource.creation_time,
    stackName: linkedStack(resource.links, "stack")?.name ?? resource.stack_name ?? listed
  };
}
function resourceDetail2(resource, listed) {
  return {
    ...resourceInfo2(resource, listed),
    attributes: resource.attributes ?? {},
    requiredBy: resource.required_by ?? []
  };
}
function eventInfo2(event) {
  return {
    id: event.id,
    resourceName: event.resource_name,
    physicalId: event.physical_resource_id ?? "",
    status: event.resource_status,
    reason: event.resource_status_reason,
    time: event.event_time
  };
}
function previewResources(items) {
  return items.flatMap(
    (item) => Array.isArray(item) ? previewResources(item) : [
      {
        name: item.resource_name,
        type: item.resource_type,
        parentResource: item.parent_resource ?? null,
        requiredBy: item.required_by ?? [],
        properties: item.properties ?? null
      }
    ]
  );
}
function previewChanges(changes) {
  return CHANGE_KINDS.flatMap(
    (change) => (changes[change] ?? []).map((r) => ({
      change,
      name: r.resource_name,
      type: r.resource_type,
      physicalId: r.physical_resource_id ?? "",
      // Previews split the status in two: `resource_action` and `resource_status`.
      status: r.resource_action ? `${r.resource_action}_${r.resource_status}` : r.resource_status,
      parentResource: r.parent_resource ?? null
    }))
  );
}

// src/cli/backends/remote-hooks.ts
var PAUSED = /^[A-Z]+ paused until Hook (\S+) is cleared$/;
var CLEARED = /^Hook (\S+) is cleared$/;
function asHook(name) {
  return HOOK_TYPES.includes(name ?? "") ? name : void 0;
}
async function waitingIn(client, stack) {
  const events = await client.listEvents(stack, { sort_dir: "asc" });
  let from = 0;
  events.forEach((e, i) => {
    if (e.resource_name === stack.name && e.resource_status.endsWith("_IN_PROGRESS")) from = i;
  });
  const waiting = /* @__PURE__ */ new Map();
  for (const e of events.slice(from)) {
    const paused = asHook(PAUSED.exec(e.resource_status_reason)?.[1]);
    if (paused) waiting.set(e.resource_name, paused);
    else if (asHook(CLEARED.exec(e.resource_status_reason)?.[1]) === waiting.get(e.resource_name)) {
      waiting.delete(e.resource_name);
    }
  }
  return waiting;
}
async function remotePendingHooks(client, stack, prefix = "") {
  const waiting = await waitingIn(client, stack);
  const out = [];
  for (const resource of await client.listResources(stack)) {
    const hook = waiting.get(resource.resource_name);
    if (hook) out.push({ path: `${prefix}${resource.resource_name}`, hook, stackName: stack.name });
    const nested = linkedStack(resource.links, "nested");
    if (nested)
      out.push(...await remotePendingHooks(client, nested, `${prefix}${resource.resource_name}/`));
  }
  return out;
}
async function remoteClearHooks(client, top, path, hooks) {
  const parts = path.split("/");
  let stack = top;
  for (const part of parts.slice(0, -1)) {
    const nested = linkedStack((await client.showResource(stack, part)).links, "nested");
    if (!nested) throw new Error(`resource "${part}" of stack "${stack.name}" is not a nested stack`);
    stack = nested;
  }
  const name = parts.at(-1);
  const pending = (await waitingIn(client, stack)).get(name);
  const clear = hooks.length > 0 ? hooks : pending ? [pending] : [];
  if (clear.length === 0) throw new Error(`resource "${path}" is not waiting at a hook`);
  for (const unset of clear) await client.signalResource(stack, name, { unset_hook: unset });
}

// src/cli/backends/remote-wait.ts
import { setTimeout as sleep2 } from "node:timers/promises";
var POLL_MS = 1e3;
var ROLLBACK_START_MS = 5e3;
async function eventMark(client, stack) {
  try {
    const [latest] = await client.listEvents(stack, { sort_dir: "desc", limit: 1 });
    return { marker: latest?.id, available: true };
  } catch (err) {
    if (err instanceof HeatApiError && err.noRoute) return { marker: void 0, available: false };
    throw err;
  }
}
async function current(client, stack) {
  try {
    return await client.showStack(stack);
  } catch (err) {
    if (err instanceof HeatApiError && err.status === 404 && !err.noRoute) return void 0;
    throw err;
  }
}
function seconds2(ms2) {
  return `${(ms2 / 1e3).toFixed(1)}s`;
}
function rollbackExpected(stack) {
  return !stack.disable_rollback && /^(CREATE|UPDATE)_FAILED$/.test(stack.stack_status);
}
async function pollStack(client, stackId, mark, print, display, options = {}) {
  const start = Date.now();
  let marker = mark.marker;
  let events = mark.available;
  let lastStatus = "";
  let failedAt;
  for (; ; ) {
    const stack = await current(client, stackId);
    if (events) {
      try {
        const fresh = await client.listEvents(stackId, { sort_dir: "asc", ...marker ? { marker } : {} });
        marker = fresh.at(-1)?.id ?? marker;
        if (!display.tty) for (const e of fresh) print(eventLine(eventInfo2(e)));
      } catch (err) {
        if (!(err instanceof HeatApiError && (err.noRoute || err.status === 404))) throw err;
        events = !err.noRoute;
      }
    }
    const status = stack?.stack_status ?? "gone (deleted)";
    const elapsed = Date.now() - start;
    let final = stack === void 0 || !stack.stack_status.endsWith("_IN_PROGRESS");
    if (final && stack && options.rollback !== false && rollbackExpected(stack)) {
      failedAt ??= Date.now();
      final = Date.now() - failedAt >= ROLLBACK_START_MS;
    }
    if (display.tty) {
      process.stderr.write(`\r${status}  ${seconds2(elapsed)}\x1B[K${final ? "\n" : ""}`);
    } else if (status !== lastStatus) {
      print(`Status: ${status} (${seconds2(elapsed)})
`);
    }
    lastStatus = status;
    if (final) {
      if (display.failOnFailure && stack?.stack_status.endsWith("_FAILED")) {
        throw new StackFailed(`${stack.stack_status}: ${stack.stack_status_reason}`);
      }
      return stack;
    }
    await sleep2(options.intervalMs ?? POLL_MS);
  }
}

// src/cli/backends/remote.ts
function checkApiUrl(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    parsed = void 0;
  }
  const endpoint = parsed !== void 0 && /^https?:$/.test(parsed.protocol) && /^\/v1\/[^/]+\/?$/.test(parsed.pathname) && !parsed.search && !parsed.hash;
  if (!endpoint) {
    throw new Error(
      `--url must be the API's project endpoint, http(s)://host:port/v1/<project_id>; got "${url}"`
    );
  }
  return url.replace(/\/+$/, "");
}
function createBody(request) {
  return {
    stack_name: request.name,
    ...templateFields(request.template),
    timeout_mins: request.timeoutMins,
    disable_rollback: request.disableRollback,
    ...request.tags.length > 0 ? { tags: request.tags.join(",") } : {}
  };
}
function changeBody(change) {
  return {
    patch: change.parameters !== void 0,
    body: {
      ...change.template ? templateFields(change.template) : {},
      ...change.parameters ? { parameters: change.parameters } : {},
      ...change.disableRollback !== void 0 ? { disable_rollback: change.disableRollback } : {},
      ...change.timeoutMins !== void 0 ? { timeout_mins: change.timeoutMins } : {}
    }
  };
}
var RemoteBackend = class _RemoteBackend {
  constructor(client, print) {
    this.client = client;
    this.print = print;
  }
  client;
  print;
  static open(url, token, print) {
    return new _RemoteBackend(new HeatClient({ url: checkApiUrl(url), ...token ? { token } : {} }), print);
  }
  async close() {
  }
  id(stack) {
    return { name: stack.name, id: stack.id };
  }
  async show(stack) {
    return stackInfo2(await this.client.showStack(stack));
  }
  /** Runs an operation; with a display, waits for its end from the events it makes on. */
  async operate(stack, start, wait, options = {}) {
    if (!wait) {
      await start();
      return this.show(stack);
    }
    const mark = await eventMark(this.client, stack);
    await start();
    return this.poll(stack, mark, wait, options);
  }
  async poll(stack, mark, wait, options = {}) {
    const final = await pollStack(this.client, stack, mark, this.print, wait, options);
    return final && stackInfo2(final);
  }
  async listStacks(nested) {
    const query = {
      sort_keys: ["created_at"],
      sort_dir: "asc",
      ...nested ? { show_nested: true } : {}
    };
    return (await this.client.listStacks(query)).map(stackSummary);
  }
  async findStack(nameOrId) {
    return this.show(await this.client.lookupStack(nameOrId));
  }
  async createStack(request, wait) {
    const created = await this.client.createStack(createBody(request));
    const stack = { name: request.name, id: created.id };
    if (!wait) return this.show(stack);
    const { available } = await eventMark(this.client, stack);
    return this.poll(stack, { marker: void 0, available }, wait);
  }
  async updateStack(stack, change, wait) {
    const { patch, body } = changeBody(change);
    const id = this.id(stack);
    return this.operate(
      id,
      () => patch ? this.client.patchStack(id, body) : this.client.updateStack(id, body),
      wait
    );
  }
  async deleteStack(stack, wait) {
    const id = this.id(stack);
    if (!wait) return this.client.deleteStack(id);
    const mark = await eventMark(this.client, id);
    await this.client.deleteStack(id);
    await this.poll(id, mark, wait);
  }
  async visitStack(stack, visit, wait) {
    const id = this.id(stack);
    return this.operate(id, () => this.client.stackAction(id, visit), wait);
  }
  async cancelStack(stack, rollback, wait) {
    const id = this.id(stack);
    const action = rollback ? "cancel_update" : "cancel_without_rollback";
    return this.operate(id, () => this.client.stackAction(id, action), wait, { rollback });
  }
  abandonStack(stack) {
    return this.client.abandonStack(this.id(stack));
  }
  async waitForStack(stack, display) {
    const id = this.id(stack);
    return this.poll(id, await eventMark(this.client, id), display);
  }
  async previewCreate(request) {
    return previewResources((await this.client.previewCreate(createBody(request))).resources);
  }
  async previewUpdate(stack, change, nested) {
    const { patch, body } = changeBody(change);
    return previewChanges(
      await this.client.previewUpdate(this.id(stack), body, { patch, showNested: nested })
    );
  }
  async outputs(stack, values) {
    const id = this.id(stack);
    if (values) return (await this.client.showStack(id)).outputs ?? [];
    return this.client.listOutputs(id);
  }
  output(stack, key) {
    return this.client.showOutput(this.id(stack), key);
  }
  async resources(stack, nestedDepth2) {
    const query = nestedDepth2 > 0 ? { nested_depth: nestedDepth2 } : {};
    return (await this.client.listResources(this.id(stack), query)).map((r) => resourceInfo2(r, stack.name));
  }
  async resource(stack, name) {
    return resourceDetail2(await this.client.showResource(this.id(stack), name), stack.name);
  }
  markUnhealthy(stack, resource, reason2) {
    return this.client.markUnhealthy(this.id(stack), resource, true, reason2);
  }
  signal(stack, resource, data) {
    return this.client.signalResource(this.id(stack), resource, data);
  }
  async events(stack) {
    return (await this.client.listEvents(this.id(stack), { sort_dir: "asc" })).map(eventInfo2);
  }
  /** Heat answers with the template parsed (JSON): printed as YAML. */
  async template(stack) {
    const template = await this.client.getTemplate(this.id(stack));
    return typeof template === "string" ? template : stringify3(template, { lineWidth: 0 });
  }
  pendingHooks(stack) {
    return remotePendingHooks(this.client, this.id(stack));
  }
  clearHooks(stack, path, hooks) {
    return remoteClearHooks(this.client, this.id(stack), path, hooks);
  }
};

// src/cli/backend.ts
async function openBackend(program, print) {
  const opts = program.opts();
  const url = opts.url ?? process.env.HEARTH_URL;
  if (url !== void 0 && url !== "") {
    if (opts.db !== void 0) throw new Error("--db is for the embedded engine; it does not go with --url");
    return RemoteBackend.open(url, opts.token ?? process.env.HEARTH_TOKEN, print);
  }
  if (opts.token !== void 0) throw new Error("--token goes with --url (the embedded engine takes none)");
  return EmbeddedBackend.open(opts, print);
}
async function withBackend(program, print, fn) {
  const backend = await openBackend(program, print);
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}

// src/cli/commands/hook.ts
var HOOK_FLAGS = ["preCreate", "preUpdate", "preDelete"];
var HOOK_OF = { preCreate: "pre-create", preUpdate: "pre-update", preDelete: "pre-delete" };
function registerHookCommands(stack, program, print) {
  const hook = stack.command("hook").description("Resource breakpoints (hooks) set in the environment");
  hook.command("poll <stack>").description("List the resources waiting at a hook, in the stack and its nested stacks").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
    const waiting = await withBackend(
      program,
      print,
      async (backend) => backend.pendingHooks(await backend.findStack(name))
    );
    const rows = waiting.map((w) => ({
      resource_name: w.path,
      pending_hook: w.hook,
      stack_name: w.stackName
    }));
    show(print, opts.format, rows);
  });
  hook.command("clear <stack> <resources...>").description("Clear the hooks resources wait at, so their stack operation goes on").option("--pre-create", "clear the pre-create hook").option("--pre-update", "clear the pre-update hook").option("--pre-delete", "clear the pre-delete hook").action(
    async (name, paths, opts) => {
      const asked = HOOK_FLAGS.filter((flag) => opts[flag]).map((flag) => HOOK_OF[flag]);
      await withBackend(program, print, async (backend) => {
        const top = await backend.findStack(name);
        for (const path of paths) await backend.clearHooks(top, path, asked);
      });
    }
  );
}

// src/cli/commands/preview.ts
function createPreviewView(name, resources, tabular2) {
  const rows = resources.map((r) => ({
    resource_name: r.name,
    resource_type: r.type,
    ...tabular2 ? {} : { stack_name: name },
    parent_resource: r.parentResource,
    required_by: r.requiredBy,
    properties: r.properties
  }));
  return tabular2 ? rows : { stack_name: name, resources: rows };
}
function updatePreviewView(changes, tabular2) {
  const entry = (c) => ({
    resource_name: c.name,
    resource_type: c.type,
    physical_resource_id: c.physicalId,
    resource_status: c.status,
    parent_resource: c.parentResource
  });
  if (tabular2) {
    const order = (c) => CHANGES.indexOf(c.change);
    return [...changes].sort((a, b) => order(a) - order(b)).map((c) => ({ state: c.change, ...entry(c) }));
  }
  const byChange = Object.fromEntries(CHANGES.map((change) => [change, []]));
  for (const c of changes) byChange[c.change].push(entry(c));
  return { resource_changes: byChange };
}

// src/cli/commands/template.ts
import { readFileSync as readFileSync2 } from "node:fs";
import { fileURLToPath } from "node:url";
function readLocalFile(url) {
  return readFileSync2(url.startsWith("file:") ? fileURLToPath(url) : url, "utf8");
}
function parseParameterArgs(pairs) {
  const out = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new TemplateError("parameter", `--parameter expects KEY=VALUE, got "${pair}"`);
    Object.defineProperty(out, pair.slice(0, eq), {
      value: pair.slice(eq + 1),
      enumerable: true,
      writable: true,
      configurable: true
    });
  }
  return out;
}
function defineFromOptions(opts, types2 = EMPTY_CATALOG, extra = {}) {
  const input = loadStackInput(opts.template, opts.environment, readLocalFile);
  const environment = {
    ...input.environment,
    parameters: { ...input.environment.parameters, ...parseParameterArgs(opts.parameter) }
  };
  return defineStackFromText(input.url, input.text, {
    files: input.files,
    environment,
    strict: opts.strict ?? false,
    types: types2,
    ...extra
  });
}
function collect2(value, previous) {
  return [...previous, value];
}
function validateTable(result) {
  const params = result.Parameters;
  const rows = Object.entries(params).map(([name, p]) => {
    const constraints = Object.entries(p).filter(([k]) => !["Type", "Description", "Default", "Value", "NoEcho", "Label"].includes(k)).map(([k, v]) => `${k}: ${cell(v)}`).join("\n");
    return [name, cell(p.Type), cell(p.Default), cell(p.Value), constraints, cell(p.Description)];
  });
  let out = `Description: ${cell(result.Description)}
`;
  if (rows.length > 0) {
    out += textTable(["Parameter", "Type", "Default", "Value", "Constraints", "Description"], rows);
  }
  if (result.ParameterGroups) out += `ParameterGroups:
${render(result.ParameterGroups, "yaml", () => "")}`;
  return out;
}
function registerTemplateCommands(program, types2, print) {
  const template = program.command("template").description("Validate and inspect HOT templates");
  template.command("validate").description("Validate a template with its environments and parameters, as Heat validate does").requiredOption("-t, --template <file>", "the template file").option("-e, --environment <file>", "an environment file (repeatable, merged in order)", collect2, []).option("--parameter <key=value>", "a parameter value (repeatable)", collect2, []).option("--strict", "parameters without a value are errors (as at stack create)").option("-f, --format <format>", "table, json or yaml", "table").option("--show-environment", "include the merged environment in the output").action((opts) => {
    const stack = defineFromOptions(opts, types2);
    const input = loadStackInput(opts.template, opts.environment, readLocalFile);
    const supplied = [
      ...Object.keys(input.environment.parameters),
      ...Object.keys(parseParameterArgs(opts.parameter))
    ];
    const result = validateResult(stack, { supplied });
    if (opts.showEnvironment) result.Environment = environmentToJSON(input.environment);
    print(render(result, checkFormat2(opts.format, ["table", "json", "yaml"]), () => validateTable(result)));
  });
  template.command("graph").description("Print the resource dependency graph of a template").requiredOption("-t, --template <file>", "the template file").option("-e, --environment <file>", "an environment file (repeatable, merged in order)", collect2, []).option("--parameter <key=value>", "a parameter value (repeatable)", collect2, []).option("-f, --format <format>", "dot or json", "dot").action((opts) => {
    const stack = defineFromOptions(opts, types2, { allowUnknownTypes: true });
    const format = checkFormat2(opts.format, ["dot", "json"]);
    if (format === "json") {
      const json = toJSON(stack.graph);
      const types3 = {};
      for (const [name, res] of stack.resources) types3[name] = res.definition.type;
      print(`${JSON.stringify({ ...json, types: types3 }, null, 2)}
`);
    } else {
      print(
        toDot(stack.graph, {
          name: "stack",
          label: (name) => `${name}\\n${stack.resources.get(name)?.definition.type ?? ""}`
        })
      );
    }
  });
  template.command("functions").description("List the intrinsic functions a template version allows").requiredOption(
    "--template-version <version>",
    "a heat_template_version date or alias (e.g. 2018-08-31, rocky)"
  ).option("--with-conditions", "also list the condition functions").option("-f, --format <format>", "table, json or yaml", "table").action((opts) => {
    const version = findVersion(opts.templateVersion.replace(/^heat_template_version\./, ""));
    if (!version) {
      throw new TemplateError(
        "version",
        `unknown template version "${opts.templateVersion}"; known: ${allVersions().map((v) => v.date + (v.alias ? ` (${v.alias})` : "")).join(", ")}`
      );
    }
    const rows = version.functions.names().map((name) => ({
      functions: name,
      description: version.functions.get(name).description
    }));
    if (opts.withConditions) {
      for (const name of version.conditionFunctions.names()) {
        rows.push({ functions: name, description: version.conditionFunctions.lookup(name).description });
      }
    }
    const result = { template_functions: rows };
    print(
      render(
        result,
        checkFormat2(opts.format, ["table", "json", "yaml"]),
        () => textTable(
          ["Functions", "Description"],
          rows.map((r) => [r.functions, r.description])
        )
      )
    );
  });
}
function checkFormat2(format, allowed) {
  if (!allowed.includes(format)) {
    throw new TemplateError("schema", `unknown output format "${format}"; expected ${allowed.join(", ")}`);
  }
  return format;
}

// src/cli/commands/signal.ts
function registerSignalCommand(resource, run) {
  resource.command("signal <stack> <resource>").description("Signal a resource (its type must handle signals), with optional JSON data").option("--data <json>", "JSON data (an object) to send to the signal handler").option("--data-file <file>", "a file containing the JSON data").action(async (name, resourceName, opts) => {
    const details = signalData(opts);
    await run(async (backend) => backend.signal(await backend.findStack(name), resourceName, details));
  });
}
function signalData(opts) {
  if (opts.data !== void 0 && opts.dataFile !== void 0) {
    throw new Error("give the signal data with --data or --data-file, not both");
  }
  const text = opts.dataFile !== void 0 ? readLocalFile(opts.dataFile) : opts.data;
  if (text === void 0) return null;
  const option = opts.dataFile !== void 0 ? `--data-file ${opts.dataFile}` : "--data";
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${option} is not valid JSON: ${err.message}`);
  }
  if (!isPlainObject(data)) throw new Error(`${option} must be a JSON object, not a ${typeName(data)}`);
  return data;
}

// src/cli/commands/stack-details.ts
function nestedDepth(value) {
  if (!/^\d+$/.test(value)) throw new Error(`--nested-depth must be a whole number, got "${value}"`);
  return Number(value);
}
function registerStackDetails(stack, program, print) {
  const run = (fn) => withBackend(program, print, fn);
  const resource = stack.command("resource").description("A stack's resources");
  resource.command("list <stack>").description("List the resources of a stack").option(
    "--nested-depth <depth>",
    "also list the resources of nested stacks this many levels down (adds a stack_name column)",
    nestedDepth
  ).option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
    const depth = opts.nestedDepth ?? 0;
    const rows = await run(async (backend) => backend.resources(await backend.findStack(name), depth));
    show(
      print,
      opts.format,
      rows.map((r) => resourceView(r, depth > 0))
    );
  });
  resource.command("show <stack> <resource>").description("Show one resource, with its attributes").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, resourceName, opts) => {
    const row = await run(async (backend) => backend.resource(await backend.findStack(name), resourceName));
    show(print, opts.format, resourceDetailView(row));
  });
  registerSignalCommand(resource, run);
  resource.command("mark-unhealthy <stack> <resource> [reason]").description("Mark a resource unhealthy: the next update replaces it").action(async (name, resourceName, reason2) => {
    await run(
      async (backend) => backend.markUnhealthy(await backend.findStack(name), resourceName, reason2 ?? "")
    );
  });
  const output = stack.command("output").description("A stack's outputs");
  output.command("list <stack>").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
    const outputs = await run(async (backend) => backend.outputs(await backend.findStack(name), false));
    show(
      print,
      opts.format,
      outputs.map((o) => ({ output_key: o.output_key, description: o.description }))
    );
  });
  output.command("show <stack> [output]").option("--all", "every output").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, key, opts) => {
    await run(async (backend) => {
      const found = await backend.findStack(name);
      if (opts.all || key === void 0) {
        const all = {};
        for (const o of await backend.outputs(found, true)) all[o.output_key] = o;
        show(print, opts.format, all);
        return;
      }
      show(print, opts.format, { ...await backend.output(found, key) });
    });
  });
  const event = stack.command("event").description("A stack's events");
  event.command("list <stack>").option(
    "--follow",
    "keep printing new events until the operation ends (with --url: polled about every second)"
  ).option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
    await run(async (backend) => {
      const found = await backend.findStack(name);
      if (opts.follow) {
        await backend.waitForStack(found, waitDisplay());
        return;
      }
      show(print, opts.format, (await backend.events(found)).map(eventView));
    });
  });
  const template = stack.command("template").description("A stack's template");
  template.command("show <stack>").description("Print the template as it was given (with --url: as the API returns it, in YAML)").action(async (name) => {
    print(await run(async (backend) => backend.template(await backend.findStack(name))));
  });
}

// src/cli/commands/stack.ts
var collect3 = (value, previous) => [...previous, value];
function templateInput(opts) {
  const input = loadStackInput(opts.template, opts.environment, readLocalFile);
  const environment = {
    ...input.environment,
    parameters: { ...input.environment.parameters, ...parseParameterArgs(opts.parameter) }
  };
  return { url: input.url, text: input.text, files: input.files, environment };
}
function environmentOptions(cmd) {
  return cmd.option("-e, --environment <file>", "an environment file (repeatable)", collect3, []).option("--parameter <key=value>", "a parameter value (repeatable)", collect3, []);
}
var WAIT_HELP = "run the operation to its end, showing progress (with --url: the status and events, no resource counts)";
function operationOptions(cmd) {
  return cmd.option("--wait", WAIT_HELP).option("-f, --format <format>", "table, json, yaml or value", "table");
}
var waitFor = (opts) => opts.wait ? waitDisplay() : void 0;
function printStack(print, format, stack) {
  if (stack) show(print, format, stackView(stack));
}
function registerStackCommands(program, print) {
  const stack = program.command("stack").description("Create and manage stacks");
  const run = (fn) => withBackend(program, print, fn);
  const create = stack.command("create <name>").description("Create a stack").requiredOption("-t, --template <file>", "the template file");
  operationOptions(
    environmentOptions(create).option("--timeout <minutes>", "stack timeout in minutes", (v) => Number(v)).option("--enable-rollback", "roll back when the create fails").option("--tags <tags>", "comma-separated tags").option("--dry-run", "show the resources the create would make, and create nothing")
  ).action(
    async (name, opts) => {
      const request = {
        name,
        template: templateInput(opts),
        timeoutMins: opts.timeout ?? null,
        disableRollback: !opts.enableRollback,
        tags: opts.tags ? opts.tags.split(",") : []
      };
      await run(async (backend) => {
        if (opts.dryRun) {
          const resources = await backend.previewCreate(request);
          return show(print, opts.format, createPreviewView(name, resources, tabular(opts.format)));
        }
        printStack(print, opts.format, await backend.createStack(request, waitFor(opts)));
      });
    }
  );
  const update = stack.command("update <name>").description("Update a stack (allowed while another operation runs: the newest wins)").option("-t, --template <file>", "the new template");
  operationOptions(
    environmentOptions(update).option("--existing", "reuse the stored template and environment, changing only the given parameters").option("--rollback <mode>", "enabled or disabled").option("--timeout <minutes>", "stack timeout in minutes", (v) => Number(v)).option("--dry-run", "show what the update would do to each resource, and change nothing").option("--show-nested", "with --dry-run: the resources of nested stacks too")
  ).action(
    async (name, opts) => {
      if (!opts.template && !opts.existing) throw new Error("stack update needs -t/--template or --existing");
      if (opts.showNested && !opts.dryRun) throw new Error("--show-nested goes with --dry-run");
      const change = {
        ...opts.template ? { template: templateInput(opts) } : {},
        ...opts.existing ? { parameters: parseParameterArgs(opts.parameter) } : {},
        ...opts.rollback ? { disableRollback: opts.rollback !== "enabled" } : {},
        ...opts.timeout !== void 0 ? { timeoutMins: opts.timeout } : {}
      };
      await run(async (backend) => {
        const found = await backend.findStack(name);
        if (opts.dryRun) {
          const changes = await backend.previewUpdate(found, change, opts.showNested ?? false);
          return show(print, opts.format, updatePreviewView(changes, tabular(opts.format)));
        }
        printStack(print, opts.format, await backend.updateStack(found, change, waitFor(opts)));
      });
    }
  );
  stack.command("delete <names...>").description("Delete stacks").option("-y, --yes", "do not ask for confirmation").option("--wait", WAIT_HELP).action(async (names2, opts) => {
    await run(async (backend) => {
      for (const name of names2) {
        const found = await backend.findStack(name);
        await backend.deleteStack(found, waitFor(opts));
        if (!opts.wait) print(`Request to delete stack ${found.name} (${found.id}) has been accepted.
`);
      }
    });
  });
  stack.command("list").description("List stacks").option("--nested, --show-nested", "include nested stacks, with the id of their parent").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (opts) => {
    const nested = opts.showNested === true;
    const stacks = await run((backend) => backend.listStacks(nested));
    show(
      print,
      opts.format,
      stacks.map((s) => stackListView(s, nested))
    );
  });
  stack.command("show <name>").description("Show a stack, with its outputs").option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
    await run(async (backend) => {
      const found = await backend.findStack(name);
      const outputs = await backend.outputs(found, true);
      show(print, opts.format, { ...stackView(found), outputs });
    });
  });
  stack.command("abandon <name>").description("Print the stack's abandon document (Heat's format) and remove it, leaving its resources").option("-O, --output-file <file>", "write the document to this file instead").action(async (name, opts) => {
    const document = await run(async (backend) => backend.abandonStack(await backend.findStack(name)));
    const text = `${JSON.stringify(document, null, 2)}
`;
    if (opts.outputFile) writeFileSync(opts.outputFile, text);
    else print(text);
  });
  stack.command("cancel <name>").description("Cancel a running update (rolling back) or create/update (--no-rollback)").option("--no-rollback", "stop without rolling back").option(
    "--wait",
    "run the engine until the cancellation (and rollback) settles (with --url: poll the server)"
  ).action(async (name, opts) => {
    await run(async (backend) => {
      const found = await backend.findStack(name);
      const final = await backend.cancelStack(
        found,
        opts.rollback,
        opts.wait ? waitDisplay(false) : void 0
      );
      if (opts.wait) printStack(print, "table", final);
      else {
        const action = found.status.slice(0, found.status.indexOf("_"));
        print(`Request to cancel the ${action} of stack ${found.name} has been accepted.
`);
      }
    });
  });
  const visits = [
    ["check", "Check a stack's resources against their backends (the next update replaces failed ones)"],
    ["suspend", "Suspend a stack's resources (dependents first), nested stacks included"],
    ["resume", "Resume a suspended stack's resources (dependencies first), nested stacks included"]
  ];
  for (const [visit, description] of visits) {
    stack.command(`${visit} <name>`).description(description).option("--wait", WAIT_HELP.replace("the operation", `the ${visit}`)).option("-f, --format <format>", "table, json, yaml or value", "table").action(async (name, opts) => {
      await run(async (backend) => {
        const found = await backend.findStack(name);
        printStack(print, opts.format, await backend.visitStack(found, visit, waitFor(opts)));
      });
    });
  }
  stack.command("run <name>").description(
    "Run the engine until the stack's current operation ends (after an interruption); with --url, wait for it"
  ).action(async (name) => {
    await run(async (backend) => {
      const final = await backend.waitForStack(await backend.findStack(name), waitDisplay());
      printStack(print, "table", final);
    });
  });
  registerStackDetails(stack, program, print);
  registerHookCommands(stack, program, print);
}

// src/cli/main.ts
var STDIO = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s)
};
function buildProgram(io = STDIO, types2 = pluginCatalog(builtinPlugins()).typeCatalog) {
  const program = new Command("hearth").description("Hearth: orchestration of Heat templates on a convergence engine").version(HEARTH_VERSION).option("--db <path|url>", "the store: a SQLite file or a postgres:// URL (env HEARTH_DB)").option("--config <file>", "the configuration file (env HEARTH_CONFIG)").option(
    "--url <url>",
    "talk to a Hearth (or Heat) server, http://host:port/v1/<project_id>, instead of the embedded engine (env HEARTH_URL; stack commands)"
  ).option(
    "--token <token>",
    "the API token sent as X-Auth-Token with --url (env HEARTH_TOKEN, which keeps it out of ps)"
  ).exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  registerTemplateCommands(program, types2, io.out);
  registerStackCommands(program, io.out);
  registerEngineCommand(program, io.out);
  registerServeCommand(program, io.out);
  registerManageCommands(program, io.out);
  const configure = (cmd) => {
    cmd.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
    cmd.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  return program;
}
async function main(argv, io = STDIO) {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    io.err(`Error: ${describeError(err)}
`);
    return EXIT_INVALID;
  }
}

// src/cli/index.ts
main(process.argv).then((code) => {
  process.exitCode = code;
});

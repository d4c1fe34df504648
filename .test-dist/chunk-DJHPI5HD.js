// src/auth/signal-tokens.ts
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
var SIGNAL_TOKEN_PREFIX = "hsig_";
var KEY_SETTING = "signal_token_key";
var SignalSigner = class _SignalSigner {
  constructor(key) {
    this.key = key;
  }
  key;
  /**
   * The key from the configuration (auth_encryption_key) when set, else one generated for the
   * store on first use and shared by every process of the deployment.
   */
  static async load(store, configuredKey) {
    if (configuredKey !== "") return new _SignalSigner(Buffer.from(configuredKey, "utf8"));
    const stored = await store.tx(
      (tx) => tx.settings.getOrInit(KEY_SETTING, randomBytes(32).toString("base64"))
    );
    return new _SignalSigner(Buffer.from(stored, "base64"));
  }
  token(target) {
    const payload = Buffer.from(
      JSON.stringify([target.projectId, target.stackId, target.resourceName])
    ).toString("base64url");
    return `${SIGNAL_TOKEN_PREFIX}${payload}.${this.sign(payload)}`;
  }
  /** The target a token was made for, or undefined when it is not one of this deployment's. */
  verify(token) {
    if (!token.startsWith(SIGNAL_TOKEN_PREFIX)) return void 0;
    const [payload, signature, extra] = token.slice(SIGNAL_TOKEN_PREFIX.length).split(".");
    if (payload === void 0 || signature === void 0 || extra !== void 0) return void 0;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return void 0;
    try {
      const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      if (!Array.isArray(parsed) || parsed.length !== 3 || parsed.some((p) => typeof p !== "string"))
        return void 0;
      const [projectId, stackId, resourceName] = parsed;
      return { projectId, stackId, resourceName };
    } catch {
      return void 0;
    }
  }
  sign(payload) {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }
};
function signalCredentials(signer, publicUrl, target) {
  const base = publicUrl.replace(/\/+$/, "");
  const token = signer.token(target);
  const stack = `${encodeURIComponent(target.stackName)}/${target.stackId}`;
  return {
    endpoint: `${base}/v1/${target.projectId}/stacks/${stack}/resources/${encodeURIComponent(target.resourceName)}/signal`,
    token,
    alarmUrl: `${base}/v1/signal/${token}`
  };
}

// src/auth/identity.ts
var STACK_USER_ROLE = "heat_stack_user";
var ADMIN_ROLE = "admin";
function isAdmin(identity) {
  return identity.roles.includes(ADMIN_ROLE);
}
var AuthenticationError = class extends Error {
  name = "AuthenticationError";
};
var AuthenticationUnavailableError = class extends Error {
  name = "AuthenticationUnavailableError";
};

// src/auth/standalone.ts
import { createHash, randomBytes as randomBytes2, randomUUID } from "node:crypto";
var NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
var IdentityError = class extends Error {
  name = "IdentityError";
};
function hashToken(token) {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
function checkName(kind, name) {
  if (!NAME.test(name)) {
    throw new IdentityError(
      `invalid ${kind} name "${name}": 1 to 64 letters, digits, _, ., @ or -, starting with a letter or digit`
    );
  }
}
async function createProject(store, name, now = Date.now()) {
  checkName("project", name);
  return store.tx(async (tx) => {
    if (await tx.auth.findProject(name)) throw new IdentityError(`project "${name}" already exists`);
    const project = { id: randomUUID().replaceAll("-", ""), name, createdAt: new Date(now).toISOString() };
    await tx.auth.insertProject(project);
    return project;
  });
}
async function createUser(store, projectIdOrName, name, roles, now = Date.now()) {
  checkName("user", name);
  for (const role of roles) checkName("role", role);
  return store.tx(async (tx) => {
    const project = await tx.auth.findProject(projectIdOrName);
    if (!project) throw new IdentityError(`project "${projectIdOrName}" not found`);
    if (await tx.auth.findUser(project.id, name)) {
      throw new IdentityError(`user "${name}" already exists in project "${project.name}"`);
    }
    const user = {
      id: randomUUID().replaceAll("-", ""),
      name,
      projectId: project.id,
      roles: [...new Set(roles)],
      createdAt: new Date(now).toISOString()
    };
    await tx.auth.insertUser(user);
    return user;
  });
}
async function createToken(store, projectIdOrName, userIdOrName, options = {}) {
  const now = options.now ?? Date.now();
  const token = `hth_${randomBytes2(32).toString("base64url")}`;
  const expiresAt = options.ttlSeconds === void 0 ? null : now + options.ttlSeconds * 1e3;
  return store.tx(async (tx) => {
    const project = await tx.auth.findProject(projectIdOrName);
    if (!project) throw new IdentityError(`project "${projectIdOrName}" not found`);
    const user = await tx.auth.findUser(project.id, userIdOrName);
    if (!user) throw new IdentityError(`user "${userIdOrName}" not found in project "${project.name}"`);
    const id = randomUUID();
    await tx.auth.insertToken({
      id,
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt,
      createdAt: new Date(now).toISOString()
    });
    return { token, id, expiresAt, user };
  });
}
async function verifyToken(store, token, now = Date.now()) {
  const found = await store.tx((tx) => tx.auth.findToken(hashToken(token)));
  if (!found) return void 0;
  if (found.token.expiresAt !== null && found.token.expiresAt <= now) return void 0;
  return {
    projectId: found.user.projectId,
    userId: found.user.id,
    userName: found.user.name,
    roles: found.user.roles
  };
}

// src/api/authenticator.ts
function header(headers, name) {
  const value2 = headers[name];
  return Array.isArray(value2) ? value2[0] : value2;
}
function authToken(headers) {
  const token = header(headers, "x-auth-token");
  return token === void 0 || token === "" ? void 0 : token;
}
function standaloneAuthenticator(store, now = Date.now) {
  return {
    mode: "standalone",
    async authenticate(headers) {
      const token = authToken(headers);
      if (token === void 0)
        throw new AuthenticationError("Authentication required: send an X-Auth-Token header");
      const identity = await verifyToken(store, token, now());
      if (!identity) throw new AuthenticationError("The token is unknown or has expired");
      return identity;
    }
  };
}
function keystoneAuthenticator(keystone) {
  return {
    mode: "keystone",
    async authenticate(headers) {
      const token = authToken(headers);
      if (token === void 0)
        throw new AuthenticationError("Authentication required: send an X-Auth-Token header");
      const check = await keystone.validate(token);
      if ("rejected" in check) throw new AuthenticationError(check.rejected);
      return check.identity;
    }
  };
}
function noauthAuthenticator() {
  return {
    mode: "noauth",
    async authenticate(headers, urlProject) {
      const roles = header(headers, "x-roles");
      const user = header(headers, "x-user-id") ?? header(headers, "x-user") ?? "noauth";
      return {
        projectId: urlProject ?? header(headers, "x-project-id") ?? "admin",
        userId: user,
        userName: user,
        roles: roles ? roles.split(",").map((r) => r.trim()).filter((r) => r !== "") : ["admin"]
      };
    }
  };
}

// src/template/errors.ts
var TemplateError = class extends Error {
  name = "TemplateError";
  kind;
  /** The bare message, without location prefix. */
  detail;
  path;
  file;
  position;
  constructor(kind, detail, path = [], opts = {}) {
    super(detail, opts.cause === void 0 ? void 0 : { cause: opts.cause });
    this.kind = kind;
    this.detail = detail;
    this.path = path;
    this.file = opts.file;
    this.position = opts.position;
    this.message = this.render();
  }
  /** Fills in where this error happened, unless a more precise place is already known. */
  locate(file, position) {
    if (this.file === void 0) this.file = file;
    if (this.position === void 0) this.position = position;
    this.message = this.render();
    return this;
  }
  /** Prefixes the path with the place the document was found at (e.g. a nested stack's resource). */
  under(prefix) {
    this.path = [...prefix, ...this.path];
    this.message = this.render();
    return this;
  }
  render() {
    const where2 = [];
    if (this.file !== void 0) {
      where2.push(this.position ? `${this.file}:${this.position.line}:${this.position.column}` : this.file);
    } else if (this.position) {
      where2.push(`line ${this.position.line}, column ${this.position.column}`);
    }
    const path = formatPath(this.path);
    if (path) where2.push(path);
    return where2.length ? `${where2.join(": ")}: ${this.detail}` : this.detail;
  }
};
function formatPath(path) {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z0-9_:\-/%]+$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}
function isTemplateError(err) {
  return err instanceof TemplateError;
}

// src/util/json.ts
function isPlainObject(value2) {
  if (value2 === null || typeof value2 !== "object" || Array.isArray(value2)) return false;
  const proto = Object.getPrototypeOf(value2);
  return proto === Object.prototype || proto === null;
}
function getOwn(obj, key) {
  return Object.hasOwn(obj, key) ? obj[key] : void 0;
}
function setOwn(obj, key, value2) {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value: value2, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value2;
  }
}
function typeName(value2) {
  if (value2 === null || value2 === void 0) return "null";
  if (Array.isArray(value2)) return "list";
  if (typeof value2 === "object") return "map";
  if (typeof value2 === "number") return "number";
  if (typeof value2 === "boolean") return "boolean";
  return "string";
}
function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
function pyJsonDumps(value2) {
  if (value2 === null || value2 === void 0) return "null";
  if (typeof value2 === "string") return JSON.stringify(value2).replace(/[\u007f-\uffff]/g, pyEscape);
  if (typeof value2 === "number") return Number.isInteger(value2) ? String(value2) : pyFloat(value2);
  if (typeof value2 === "boolean") return value2 ? "true" : "false";
  if (Array.isArray(value2)) return `[${value2.map(pyJsonDumps).join(", ")}]`;
  const obj = value2;
  return `{${Object.keys(obj).map((k) => `${pyJsonDumps(k)}: ${pyJsonDumps(obj[k])}`).join(", ")}}`;
}
function pyEscape(ch) {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
function pyFloat(n) {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity";
  const s = String(n);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}

// src/template/functions/types.ts
var Unknown = class _Unknown {
  static instance = new _Unknown();
  constructor() {
  }
  toJSON() {
    return "<unknown>";
  }
};
var UNKNOWN = Unknown.instance;
var Omitted = class _Omitted {
  static instance = new _Omitted();
  constructor() {
  }
};
var OMITTED = Omitted.instance;
var PathLink = class _PathLink {
  constructor(up, key) {
    this.up = up;
    this.key = key;
  }
  up;
  key;
  toPath() {
    const keys = [this.key];
    let link = this.up;
    while (link instanceof _PathLink) {
      keys.push(link.key);
      link = link.up;
    }
    return [...link, ...keys.reverse()];
  }
};
var FnCall = class {
  constructor(def, args, where2) {
    this.def = def;
    this.args = args;
    this.where = where2;
  }
  def;
  args;
  where;
  get name() {
    return this.def.name;
  }
  /** Where the call stands in its document, for error messages. */
  get path() {
    if (this.where instanceof PathLink) this.where = this.where.toPath();
    return this.where;
  }
};
function isUnknown(value2) {
  return value2 === UNKNOWN;
}
function containsUnknown(value2) {
  if (value2 === UNKNOWN) return true;
  if (Array.isArray(value2)) return value2.some(containsUnknown);
  if (value2 !== null && typeof value2 === "object" && !(value2 instanceof Omitted)) {
    return Object.values(value2).some(containsUnknown);
  }
  return false;
}

// src/template/parameters/validate-output.ts
var MASK = "******";
var API_TYPES = {
  string: "String",
  number: "Number",
  json: "Json",
  comma_delimited_list: "CommaDelimitedList",
  boolean: "Boolean"
};
function validateOutputParameter(schema, value2) {
  const out = {
    Type: API_TYPES[schema.type],
    Description: schema.description ?? "",
    NoEcho: schema.hidden ? "true" : "false",
    Label: schema.label ?? schema.name
  };
  if (schema.hasDefault && schema.default !== void 0) out.Default = schema.hidden ? MASK : schema.default;
  if (value2 !== void 0 && value2 !== null && !isUnknown(value2)) out.Value = schema.hidden ? MASK : value2;
  if (schema.tags && schema.tags.length > 0) out.Tags = [...schema.tags];
  const descriptions = [];
  for (const c of schema.constraints) {
    switch (c.kind) {
      case "length":
        if (c.min !== void 0) out.MinLength = c.min;
        if (c.max !== void 0) out.MaxLength = c.max;
        break;
      case "range":
        if (c.min !== void 0) out.MinValue = c.min;
        if (c.max !== void 0) out.MaxValue = c.max;
        break;
      case "modulo":
        if (c.step !== void 0) out.Step = c.step;
        if (c.offset !== void 0) out.Offset = c.offset;
        break;
      case "allowed_values":
        out.AllowedValues = [...c.values ?? []];
        break;
      case "allowed_pattern":
        out.AllowedPattern = c.pattern ?? "";
        break;
      case "custom_constraint":
        out.CustomConstraint = c.name ?? "";
        break;
    }
    if (c.description) descriptions.push(c.description);
  }
  if (descriptions.length > 0) out.ConstraintDescription = descriptions.join(" ");
  return out;
}

// src/template/properties/schema.ts
var PROPERTY_TYPES = [
  "string",
  "integer",
  "number",
  "boolean",
  "map",
  "list",
  "any"
];
var BASE_ATTRIBUTES = {
  show: { description: "Detailed information about resource.", type: "map" }
};

// src/template/properties/provider-template.ts
function providerTemplate(type, properties, attributes, format2) {
  const name = type.split("::").at(-1) || type;
  const hot = format2 === "hot";
  const params = {};
  const props = {};
  for (const [prop, schema] of Object.entries(properties)) {
    if (schema.supportStatus?.status === "HIDDEN") continue;
    params[prop] = hot ? hotParameter(schema) : cfnParameter(schema);
    props[prop] = hot ? { get_param: prop } : parameterType(schema) === "comma_delimited_list" ? { "Fn::Split": [",", { Ref: prop }] } : { Ref: prop };
  }
  const outputs = {};
  for (const [attr2, schema] of [...Object.entries(attributes), ...Object.entries(BASE_ATTRIBUTES)]) {
    if (schema.supportStatus?.status === "HIDDEN") continue;
    const description2 = schema.description ?? null;
    outputs[attr2] = hot ? { value: { get_attr: [name, attr2] }, description: description2 } : { Value: { "Fn::GetAtt": [name, attr2] }, Description: description2 };
  }
  outputs["OS::stack_id"] = hot ? { value: { get_resource: name } } : { Value: { Ref: name } };
  const description = `Initial template of ${name}`;
  if (hot) {
    return {
      heat_template_version: "2016-10-14",
      description,
      parameters: params,
      outputs,
      resources: { [name]: { type, properties: props } }
    };
  }
  return {
    HeatTemplateFormatVersion: "2012-12-12",
    Description: description,
    Parameters: params,
    Resources: { [name]: { Type: type, Properties: props } },
    Outputs: outputs
  };
}
var PARAMETER_TYPES = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  map: "json",
  list: "comma_delimited_list",
  any: "json"
};
var CFN_TYPES = {
  string: "String",
  number: "Number",
  boolean: "Boolean",
  json: "Json",
  comma_delimited_list: "CommaDelimitedList"
};
function parameterType(schema) {
  if (schema.type === "list" && schema.items && ["map", "list", "any"].includes(schema.items.type))
    return "json";
  return PARAMETER_TYPES[schema.type];
}
function hotParameter(schema) {
  const out = { type: parameterType(schema) };
  if (schema.description !== void 0) out.description = schema.description;
  if (schema.default !== void 0 && schema.default !== null) out.default = schema.default;
  const constraints = (schema.constraints ?? []).flatMap(hotConstraint);
  if (constraints.length > 0) out.constraints = constraints;
  return out;
}
function hotConstraint(c) {
  switch (c.kind) {
    case "length":
    case "range":
      return [{ [c.kind]: bounds(c) }];
    case "allowed_values":
      return [{ allowed_values: [...c.values ?? []] }];
    case "allowed_pattern":
      return [{ allowed_pattern: c.pattern ?? "" }];
    default:
      return [];
  }
}
function bounds(c) {
  const out = {};
  if (c.min !== void 0) out.min = c.min;
  if (c.max !== void 0) out.max = c.max;
  return out;
}
function cfnParameter(schema) {
  const out = { Type: CFN_TYPES[parameterType(schema)] };
  if (schema.description !== void 0) out.Description = schema.description;
  if (schema.default !== void 0 && schema.default !== null) out.Default = schema.default;
  for (const c of schema.constraints ?? []) {
    if (c.kind === "length" || c.kind === "range") {
      const [min, max] = c.kind === "length" ? ["MinLength", "MaxLength"] : ["MinValue", "MaxValue"];
      if (c.min !== void 0) out[min] = c.min;
      if (c.max !== void 0) out[max] = c.max;
    } else if (c.kind === "allowed_values") {
      out.AllowedValues = [...c.values ?? []];
    } else if (c.kind === "allowed_pattern") {
      out.AllowedPattern = c.pattern ?? "";
    }
  }
  if (schema.type === "boolean") out.AllowedValues = ["True", "true", "False", "false"];
  return out;
}

// src/template/properties/builders.ts
var P = {
  string: (options = {}) => ({ type: "string", ...options }),
  integer: (options = {}) => ({ type: "integer", ...options }),
  number: (options = {}) => ({ type: "number", ...options }),
  boolean: (options = {}) => ({ type: "boolean", ...options }),
  any: (options = {}) => ({ type: "any", ...options }),
  map: (options = {}) => ({ type: "map", ...options }),
  list: (options = {}) => ({
    type: "list",
    ...options
  })
};
function described(constraint, description) {
  return description === void 0 ? constraint : { ...constraint, description };
}
var C = {
  range: (bounds2, description) => described({ kind: "range", ...bounds2 }, description),
  length: (bounds2, description) => described({ kind: "length", ...bounds2 }, description),
  modulo: (step, offset, description) => described({ kind: "modulo", step, offset }, description),
  allowedValues: (values, description) => described({ kind: "allowed_values", values }, description),
  allowedPattern: (pattern, description) => described({ kind: "allowed_pattern", pattern }, description),
  custom: (name, description) => described({ kind: "custom_constraint", name }, description)
};
function attr(description, type) {
  return type === void 0 ? { description } : { description, type };
}

// src/template/parameters/pattern.ts
var cache = /* @__PURE__ */ new Map();
function compilePythonPattern(pattern) {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const { source, flags } = translate(pattern);
  const re = new RegExp(source, `${flags}y`);
  if (cache.size > 500) cache.clear();
  cache.set(pattern, re);
  return re;
}
function matchesWhole(pattern, value2) {
  const re = compilePythonPattern(pattern);
  re.lastIndex = 0;
  const m = re.exec(value2);
  return m !== null && m[0].length === value2.length;
}
function translate(pattern) {
  let flags = "";
  let rest = pattern;
  const lead = /^\(\?([aiLmsux]+)\)/.exec(rest);
  if (lead) {
    const letters = lead[1] ?? "";
    if (letters.includes("x")) throw new Error("the verbose flag (?x) is not supported");
    for (const f of ["i", "m", "s"]) if (letters.includes(f)) flags += f;
    rest = rest.slice(lead[0].length);
  }
  const multiline = flags.includes("m");
  let out = "";
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i];
    if (ch === "\\") {
      const next = rest[i + 1];
      if (next === void 0) throw new Error("bad escape (end of pattern)");
      i++;
      if (!inClass && next === "A") out += "(?<![\\s\\S])";
      else if (!inClass && next === "Z") out += "(?![\\s\\S])";
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      out += ch;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      out += ch;
      if (rest[i + 1] === "^") out += rest[++i];
      if (rest[i + 1] === "]") {
        out += "\\]";
        i++;
      }
      continue;
    }
    if (rest.startsWith("(?P<", i)) {
      out += "(?<";
      i += 3;
      continue;
    }
    const backref = /^\(\?P=(\w+)\)/.exec(rest.slice(i));
    if (backref) {
      out += `\\k<${backref[1]}>`;
      i += backref[0].length - 1;
      continue;
    }
    const lazyMin = /^\{,(\d+)\}/.exec(rest.slice(i));
    if (lazyMin) {
      out += `{0,${lazyMin[1]}}`;
      i += lazyMin[0].length - 1;
      continue;
    }
    if (ch === "$" && !multiline) {
      out += "(?=\\n?$)";
      continue;
    }
    out += ch;
  }
  if (inClass) throw new Error("unterminated character set");
  return { source: out, flags };
}

// src/template/parameters/coerce.ts
function pyStr(value2) {
  if (typeof value2 === "string") return value2;
  if (typeof value2 === "boolean") return value2 ? "True" : "False";
  if (typeof value2 === "number") return String(value2);
  if (value2 === null) return "None";
  return pyJsonDumps(value2);
}
var INTEGER = /^[+-]?\d+$/;
var DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
function parseNumber(text) {
  const t = text.trim();
  if (!INTEGER.test(t) && !DECIMAL.test(t)) return void 0;
  const n = Number(t);
  return Number.isFinite(n) ? n : void 0;
}
var TRUE_STRINGS = ["1", "t", "true", "on", "y", "yes"];
var FALSE_STRINGS = ["0", "f", "false", "off", "n", "no"];
var ACCEPTED_BOOLEANS = [...TRUE_STRINGS, ...FALSE_STRINGS].sort().map((s) => `'${s}'`).join(", ");
function parseBoolean(value2) {
  if (typeof value2 === "boolean") return value2;
  if (typeof value2 !== "string" && typeof value2 !== "number") return void 0;
  const t = pyStr(value2).trim().toLowerCase();
  if (TRUE_STRINGS.includes(t)) return true;
  if (FALSE_STRINGS.includes(t)) return false;
  return void 0;
}
function invalid(schema, raw, why, path) {
  const shown2 = schema.hidden ? MASK : typeof raw === "string" ? raw : pyJsonDumps(raw);
  return new TemplateError(
    "parameter",
    `Value "${shown2}" is invalid for parameter "${schema.name}": ${why}`,
    path
  );
}
function coerceParameterValue(schema, raw, path) {
  if (raw === null) {
    throw new TemplateError("parameter", `No value given for parameter "${schema.name}"`, path);
  }
  switch (schema.type) {
    case "string":
      return pyStr(raw);
    case "number": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" ? parseNumber(raw) : void 0;
      if (n === void 0 || !Number.isFinite(n)) throw invalid(schema, raw, "must be a number", path);
      return n;
    }
    case "boolean": {
      const b = parseBoolean(raw);
      if (b === void 0) {
        throw invalid(schema, raw, `must be a boolean; acceptable values are: ${ACCEPTED_BOOLEANS}`, path);
      }
      return b;
    }
    case "comma_delimited_list":
      if (Array.isArray(raw)) return raw.map(pyStr);
      if (typeof raw !== "string") {
        throw invalid(schema, raw, "must be a list or a comma-delimited list string", path);
      }
      return raw.trim() === "" ? [] : raw.split(",").map((item) => item.trim());
    case "json":
      return coerceJson(schema, raw, path);
  }
}
function coerceJson(schema, raw, path) {
  let value2 = raw;
  if (typeof raw === "string") {
    try {
      value2 = JSON.parse(raw);
    } catch (err) {
      const why = schema.hidden ? "must be valid JSON" : `must be valid JSON: ${err.message}`;
      throw invalid(schema, raw, why, path);
    }
  }
  if (!Array.isArray(value2) && !isPlainObject(value2)) {
    throw invalid(schema, raw, "must be a JSON map or list", path);
  }
  return value2;
}

// src/template/parameters/cron.ts
var MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
var DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
var FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS },
  { name: "day of week", min: 0, max: 7, names: DAYS },
  { name: "second", min: 0, max: 59 },
  { name: "year", min: 1970, max: 2099 }
];
var SHORTCUTS = /* @__PURE__ */ new Set(["@midnight", "@hourly", "@daily", "@weekly", "@monthly", "@yearly", "@annually"]);
function value(token, field) {
  if (/^\d+$/.test(token)) return Number(token);
  const i = field.names?.indexOf(token.toLowerCase()) ?? -1;
  if (i < 0) return void 0;
  return field.names === MONTHS ? i + 1 : i;
}
function elementError(element, field, index) {
  if (element === "*" || element === "?") return void 0;
  if (index === 2 && /^L(-\d+)?$/i.test(element)) return void 0;
  if (index === 4) {
    const nth = /^(\w+)#([1-5])$/.exec(element);
    if (nth) return value(nth[1] ?? "", field) === void 0 ? "bad weekday" : void 0;
    const last = /^L(\w+)$|^(\w+)L$/i.exec(element);
    if (last) return value(last[1] ?? last[2] ?? "", field) === void 0 ? "bad weekday" : void 0;
  }
  const [range2 = "", step, ...extra] = element.split("/");
  if (extra.length > 0) return "too many steps";
  if (step !== void 0 && (!/^\d+$/.test(step) || Number(step) === 0)) return `bad step "${step}"`;
  if (range2 === "*") return void 0;
  const [lowText = "", highText, ...more] = range2.split("-");
  if (more.length > 0) return `bad range "${range2}"`;
  const low = value(lowText, field);
  const high = highText === void 0 ? low : value(highText, field);
  if (low === void 0 || high === void 0) return `"${element}" is not a valid ${field.name}`;
  if (low < field.min || high > field.max || low > field.max || high < field.min) {
    return `${field.name} ${element} is out of range ${field.min}-${field.max}`;
  }
  if (low > high) return `range ${range2} is backwards`;
  return void 0;
}
function cronExpressionError(expression) {
  const text = expression.trim();
  if (SHORTCUTS.has(text.toLowerCase())) return void 0;
  const columns = text.split(/\s+/);
  if (columns.length < 5 || columns.length > 7) {
    return "Exactly 5, 6 or 7 columns has to be specified for iterator expression.";
  }
  for (const [i, column] of columns.entries()) {
    const field = FIELDS[i];
    for (const element of column.split(",")) {
      const why = elementError(element, field, i);
      if (why !== void 0) return `[${expression}] is not acceptable: ${why}`;
    }
  }
  return void 0;
}
var cronExpression = (input) => {
  if (input === null || input === "") return void 0;
  if (typeof input !== "string") return `Invalid CRON expression: not a string`;
  const why = cronExpressionError(input);
  return why === void 0 ? void 0 : `Invalid CRON expression: ${why}`;
};

// src/template/parameters/network-constraints.ts
import { isIPv4, isIPv6 } from "node:net";
function ipAddressError(value2) {
  if (/\s/.test(value2)) return `'${value2}' is not a valid IP address`;
  if (value2.includes(":"))
    return isIPv6(value2) && !value2.includes("%") ? void 0 : `'${value2}' is not a valid IP address`;
  return isIPv4(value2) ? void 0 : `'${value2}' is not a valid IP address`;
}
function subnetError(value2) {
  const invalid2 = `'${value2}' is not a valid IP subnet`;
  if (/\s/.test(value2)) return invalid2;
  const slash = value2.indexOf("/");
  const address = slash < 0 ? value2 : value2.slice(0, slash);
  const prefix = slash < 0 ? void 0 : value2.slice(slash + 1);
  const v6 = address.includes(":");
  if (v6 ? !isIPv6(address) || address.includes("%") : !isIPv4(address)) return invalid2;
  if (prefix === void 0) {
    return `'${value2}' isn't a recognized IP subnet cidr, '${value2}/${v6 ? 128 : 32}' is recommended`;
  }
  const canonical = v6 ? /^\d+$/ : /^(0|[1-9]\d?)$/;
  if (!canonical.test(prefix) || Number(prefix) > (v6 ? 128 : 32)) return invalid2;
  return void 0;
}
var ipAddr = (value2) => typeof value2 === "string" && ipAddressError(value2) === void 0 ? void 0 : "Invalid IP address";
var netCidr = (value2) => {
  if (typeof value2 !== "string") return `Invalid net cidr ${String(value2)}`;
  return subnetError(value2);
};
var ipOrCidr = (value2) => {
  if (typeof value2 !== "string") return `${String(value2)} is not a valid IP or CIDR`;
  return value2.includes("/") ? subnetError(value2) : ipAddressError(value2);
};
var HEX = "[0-9A-Fa-f]";
var groups = (size, count, sep) => Array.from({ length: count }, () => `${HEX}{${size}}`).join(sep);
var MAC_FORMATS = [
  groups("1,2", 6, ":"),
  groups("1,2", 6, "-"),
  groups("1,4", 3, ":"),
  groups("1,4", 3, "-"),
  groups("1,4", 3, "\\."),
  groups("5,6", 2, "-"),
  groups("5,6", 2, ":"),
  `${HEX}{11,12}`
].map((src) => new RegExp(`^${src}$`));
var macAddr = (value2) => typeof value2 === "string" && MAC_FORMATS.some((re) => re.test(value2)) ? void 0 : "Invalid MAC address.";
var DNS_LABEL = /^[a-z0-9-]{1,63}$/;
var FQDN_MAX_LEN = 255;
function dnsFormatError(data) {
  if (!data) return void 0;
  const trimmed = data.endsWith(".") ? data.slice(0, -1) : data;
  if (trimmed.length > FQDN_MAX_LEN) return `'${trimmed}' exceeds the ${FQDN_MAX_LEN} character FQDN limit`;
  const names2 = trimmed.split(".");
  for (const name of names2) {
    if (!name) return "Encountered an empty component.";
    if (name.startsWith("-") || name.endsWith("-"))
      return `Name '${name}' must not start or end with a hyphen.`;
    if (!DNS_LABEL.test(name)) {
      return `Name '${name}' must be 1-63 characters long, each of which can only be alphanumeric or a hyphen.`;
    }
  }
  const tld = names2[names2.length - 1] ?? "";
  if (data.endsWith(".") && names2.length > 1 && /^[0-9]+$/.test(tld))
    return `TLD '${tld}' must not be all numeric.`;
  return void 0;
}
function isEmpty(value2) {
  return value2 === null || value2 === "" || value2 === false || value2 === 0;
}
var dnsName = (value2) => {
  if (isEmpty(value2)) return void 0;
  if (typeof value2 !== "string") return `'${String(value2)}' not in valid format. Reason: not a string`;
  const reason = dnsFormatError(value2);
  return reason === void 0 ? void 0 : `'${value2}' not in valid format. Reason: ${reason}`;
};
var dnsDomain = (value2) => {
  if (isEmpty(value2)) return void 0;
  const err = dnsName(value2);
  if (err !== void 0) return err;
  return String(value2).endsWith(".") ? void 0 : `'${String(value2)}' must end with '.'.`;
};
var relDnsName = (value2) => {
  if (isEmpty(value2)) return void 0;
  if (typeof value2 !== "string") return dnsName(value2);
  if (value2.endsWith(".")) return `'${value2}' is a FQDN. It should be a relative domain name.`;
  if (value2.length > FQDN_MAX_LEN - 3) {
    return `'${value2}' contains '${value2.length}' characters. Adding a domain name will cause it to exceed the maximum length of a FQDN of '${FQDN_MAX_LEN}'.`;
  }
  return dnsName(value2);
};

// src/template/parameters/time-constraints.ts
var ISO8601 = new RegExp(
  "^(?<year>\\d{4})(?:(?:-(?<monthdash>\\d{1,2})|(?<month>\\d{2})(?!$))(?:(?:-(?<daydash>\\d{1,2})|(?<day>\\d{2}))(?:[ T](?<hour>\\d{2})(?::?(?<minute>\\d{2}))?(?::?(?<second>\\d{1,2})(?:[.,](?<fraction>\\d+))?)?(?<tz>Z|(?<tzsign>[-+])(?<tzhour>\\d{2}):?(?<tzminute>\\d{2})?)?)?)?)?$"
);
function daysInMonth(year, month) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
function parseIsoTime(text) {
  const g = ISO8601.exec(text)?.groups;
  if (!g) return void 0;
  const num = (s, dflt) => s === void 0 ? dflt : Number(s);
  const year = num(g.year, 0);
  const month = num(g.monthdash ?? g.month, 1);
  const day = num(g.daydash ?? g.day, 1);
  const hour = num(g.hour, 0);
  const minute = num(g.minute, 0);
  const second = num(g.second, 0);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return void 0;
  if (hour > 23 || minute > 59 || second > 59) return void 0;
  let offsetMinutes = 0;
  if (g.tzsign !== void 0) {
    offsetMinutes = (num(g.tzhour, 0) * 60 + num(g.tzminute, 0)) * (g.tzsign === "-" ? -1 : 1);
    if (Math.abs(offsetMinutes) >= 24 * 60) return void 0;
  }
  const millis = g.fraction === void 0 ? 0 : Math.floor(Number(`0.${g.fraction}`) * 1e3);
  const date = /* @__PURE__ */ new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime() - offsetMinutes * 6e4;
}
var iso8601 = (value2) => typeof value2 === "string" && parseIsoTime(value2) !== void 0 ? void 0 : "";
function expirationValidator(now = Date.now) {
  return (value2) => {
    if (value2 === null || value2 === "") return void 0;
    const text = String(value2);
    const when = typeof value2 === "string" ? parseIsoTime(value2.trim()) : void 0;
    if (when === void 0) return `Expiration ${text} is invalid: Unable to parse date string '${text}'`;
    if (when > now()) return void 0;
    return `Expiration ${text} is invalid: Expiration time is out of date.`;
  };
}
var timezone = (value2) => {
  if (value2 === null || value2 === "") return void 0;
  const name = String(value2);
  const invalid2 = `Invalid timezone: 'No time zone found with key ${name}'`;
  if (typeof value2 !== "string" || /^[+-]/.test(name)) return invalid2;
  let resolved;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return invalid2;
  }
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return invalid2;
  return void 0;
};

// src/template/parameters/custom-constraints.ts
var OFFLINE = [
  ["cron_expression", cronExpression],
  ["dns_domain", dnsDomain],
  ["dns_name", dnsName],
  ["expiration", expirationValidator()],
  ["rel_dns_name", relDnsName],
  ["ip_addr", ipAddr],
  ["iso_8601", iso8601],
  ["mac_addr", macAddr],
  ["net_cidr", netCidr],
  ["ip_or_cidr", ipOrCidr],
  ["timezone", timezone],
  ["json_string", jsonString]
];
var CLOUD_BACKED = [
  "test_constr",
  "barbican.container",
  "barbican.secret",
  "blazar.reservation",
  "cinder.backup",
  "cinder.qos_specs",
  "cinder.snapshot",
  "cinder.volume",
  "cinder.vtype",
  "designate.zone",
  "glance.image",
  "keystone.domain",
  "keystone.group",
  "keystone.project",
  "keystone.region",
  "keystone.role",
  "keystone.service",
  "keystone.user",
  "magnum.cluster_template",
  "manila.share_network",
  "manila.share_snapshot",
  "manila.share_type",
  "mistral.workflow",
  "neutron.address_scope",
  "neutron.flow_classifier",
  "neutron.lbaas.listener",
  "neutron.lbaas.loadbalancer",
  "neutron.lbaas.pool",
  "neutron.lbaas.provider",
  "neutron.network",
  "neutron.port",
  "neutron.port_pair",
  "neutron.port_pair_group",
  "neutron.qos_policy",
  "neutron.router",
  "neutron.security_group",
  "neutron.segment",
  "neutron.subnet",
  "neutron.subnetpool",
  "neutron.taas.tap_service",
  "neutron.taas.tap_flow",
  "nova.flavor",
  "nova.host",
  "nova.keypair",
  "nova.network",
  "nova.server",
  "octavia.listener",
  "octavia.loadbalancer",
  "octavia.l7policy",
  "octavia.pool",
  "octavia.flavor",
  "octavia.flavorprofile",
  "octavia.availabilityzone",
  "octavia.availabilityzoneprofile",
  "trove.flavor",
  "zaqar.queue",
  "ironic.portgroup",
  "ironic.node"
];
var passOffline = () => void 0;
var registry = new Map([
  ...OFFLINE,
  ...CLOUD_BACKED.map((name) => [name, passOffline])
]);
function jsonString(value2) {
  if (value2 === null || value2 === "") return void 0;
  if (typeof value2 !== "string") return `JSON string ${String(value2)} is invalid: not a string`;
  try {
    JSON.parse(value2);
    return void 0;
  } catch (err) {
    return `JSON string ${value2} is invalid: ${err.message}`;
  }
}
function isKnownCustomConstraint(name) {
  return registry.has(name);
}
function customConstraintError(name, value2) {
  const shown2 = typeof value2 === "string" ? value2 : JSON.stringify(value2);
  const validator = registry.get(name);
  if (validator === void 0) return `"${shown2}" does not validate ${name} (constraint not found)`;
  const reason = validator(value2);
  if (reason === void 0) return void 0;
  return reason === "" ? `Error validating value '${shown2}'` : `Error validating value '${shown2}': ${reason}`;
}

// src/template/parameters/constraints.ts
function checkConstraints(schema, value2, path, options = {}) {
  for (const c of schema.constraints) {
    if (options.skipCustom && c.kind === "custom_constraint") continue;
    const failure = constraintFailure(c, schema.type, value2, schema.hidden ? MASK : void 0);
    if (failure !== void 0) throw new TemplateError("parameter", c.description ?? failure, path);
  }
}
function bound(n) {
  return n === void 0 ? "None" : String(n);
}
function constraintFailure(c, type, value2, shown2) {
  switch (c.kind) {
    case "range": {
      const n = Number(value2);
      if ((c.min === void 0 || n >= c.min) && (c.max === void 0 || n <= c.max)) return void 0;
      return `${shown2 ?? pyStr(value2)} is out of range (min: ${bound(c.min)}, max: ${bound(c.max)})`;
    }
    case "length": {
      const len2 = lengthOf(value2);
      if ((c.min === void 0 || len2 >= c.min) && (c.max === void 0 || len2 <= c.max)) return void 0;
      return `length (${len2}) is out of range (min: ${bound(c.min)}, max: ${bound(c.max)})`;
    }
    case "modulo": {
      if (pyMod(Number(value2), c.step) === c.offset) return void 0;
      return `${shown2 ?? pyStr(value2)} is not a multiple of ${c.step} with an offset of ${c.offset}`;
    }
    case "allowed_values": {
      const allowed = c.values ?? [];
      if (isAllowed(value2, allowed, type)) return void 0;
      return `${shown2 ?? pyJsonDumps(value2)} is not an allowed value [${allowed.map(pyJsonDumps).join(", ")}]`;
    }
    case "allowed_pattern": {
      const text = pyStr(value2);
      if (matchesWhole(c.pattern, text)) return void 0;
      return `"${shown2 ?? text}" does not match pattern "${c.pattern}"`;
    }
    case "custom_constraint": {
      const error = customConstraintError(c.name, value2);
      return error === void 0 || shown2 === void 0 ? error : `Error validating value '${shown2}'`;
    }
  }
}
function lengthOf(value2) {
  if (typeof value2 === "string") return [...value2].length;
  if (Array.isArray(value2)) return value2.length;
  if (value2 !== null && typeof value2 === "object") return Object.keys(value2).length;
  return pyStr(value2).length;
}
function pyMod(value2, step) {
  const r = value2 % step;
  return r !== 0 && r < 0 !== step < 0 ? r + step : r;
}
function isAllowed(value2, allowed, type) {
  if (Array.isArray(value2)) return value2.every((item) => allowed.some((a) => a === item));
  const asType = (v) => {
    if (type === "number")
      return typeof v === "number" ? v : typeof v === "string" ? parseNumber(v) : void 0;
    if (type === "boolean") return parseBoolean(v);
    return pyStr(v);
  };
  const want = asType(value2);
  return want !== void 0 && allowed.some((a) => asType(a) === want);
}

// src/template/properties/convert.ts
var SHOWN_MAX = 80;
function shown(value2) {
  const text = value2 instanceof Omitted ? "null" : pyJsonDumps(value2);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX - 3)}...` : text;
}
function propertyError(detail, path) {
  return new TemplateError("property", detail, path);
}
var INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
function toStringProperty(value2, path) {
  if (typeof value2 === "string") return value2;
  if (typeof value2 === "number" || typeof value2 === "boolean") return pyStr(value2);
  throw propertyError(`Value ${shown(value2)} is not a string`, path);
}
function toIntegerProperty(value2, path) {
  if (typeof value2 === "number" && Number.isInteger(value2)) return value2;
  if (typeof value2 === "string" && INTEGER_TEXT.test(value2)) return Number(value2.trim());
  throw propertyError(`Value ${shown(value2)} is not an integer`, path);
}
function toNumberProperty(value2, path) {
  if (typeof value2 === "number" && Number.isFinite(value2)) return value2;
  const n = typeof value2 === "string" ? parseNumber(value2) : void 0;
  if (n !== void 0) return n;
  throw propertyError(`Value ${shown(value2)} is not a number`, path);
}
function toBooleanProperty(value2, path) {
  if (typeof value2 === "boolean") return value2;
  if (typeof value2 === "string") {
    const lower = value2.toLowerCase();
    if (lower === "true" || lower === "false") return lower === "true";
  }
  throw propertyError(`Value ${shown(value2)} is not a valid boolean (expected true or false)`, path);
}

// src/template/properties/walk.ts
function isMap(value2) {
  return isPlainObject(value2);
}
function firstUnknown(value2, path) {
  const stack = [{ value: value2, key: "", parent: void 0 }];
  for (let top = stack.pop(); top !== void 0; top = stack.pop()) {
    const v = top.value;
    if (v === UNKNOWN) return [...path, ...keysOf(top)];
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: top });
    } else if (isMap(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ value: v[keys[i]], key: keys[i], parent: top });
    }
  }
  return void 0;
}
function keysOf(entry) {
  const keys = [];
  for (let e = entry; e?.parent !== void 0; e = e.parent) keys.push(e.key);
  return keys.reverse();
}
function hasUnknown(value2) {
  const stack = [value2];
  for (let v = stack.pop(); v !== void 0; v = stack.pop()) {
    if (v === UNKNOWN) return true;
    if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (isMap(v)) for (const item of Object.values(v)) stack.push(item);
  }
  return false;
}
function sameValue(a, b) {
  const stack = [[a, b]];
  for (let top = stack.pop(); top !== void 0; top = stack.pop()) {
    const [x, y] = top;
    if (x === UNKNOWN || y === UNKNOWN) return false;
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
    } else if (isMap(x) && isMap(y)) {
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length) return false;
      for (const k of keys) {
        if (!Object.hasOwn(y, k)) return false;
        stack.push([x[k], y[k]]);
      }
    } else {
      return false;
    }
  }
  return true;
}

// src/template/properties/validate.ts
function validateProperties(schema, value2, path, options = {}) {
  const walk = { strict: options.strict ?? false, skipCustom: false };
  const given = value2 === null || value2 instanceof Omitted ? {} : value2;
  return validateMap(schema, given, path, walk);
}
function validateValue(prop, value2, path, walk) {
  if (value2 === UNKNOWN) return unknownValue(path, walk);
  let out;
  switch (prop.type) {
    case "string":
      out = toStringProperty(value2, path);
      break;
    case "integer":
      out = toIntegerProperty(value2, path);
      break;
    case "number":
      out = toNumberProperty(value2, path);
      break;
    case "boolean":
      out = toBooleanProperty(value2, path);
      break;
    case "map":
      if (prop.schema) out = validateMap(prop.schema, value2, path, walk);
      else if (isPlainObject(value2)) out = untyped(value2, path, walk);
      else throw propertyError(`Value ${shown(value2)} is not a map`, path);
      break;
    case "list":
      out = validateList(prop, value2, path, walk);
      break;
    case "any":
      out = untyped(value2, path, walk);
      break;
  }
  checkConstraints2(prop, out, path, walk);
  return out;
}
function validateMap(schema, value2, path, walk) {
  if (value2 === UNKNOWN) return unknownValue(path, walk);
  if (!isPlainObject(value2)) throw propertyError(`Value ${shown(value2)} is not a map`, path);
  const given = value2;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(schema, key)) {
      throw propertyError(`Unknown Property ${key}${suggestion(key, Object.keys(schema))}`, [...path, key]);
    }
  }
  const out = {};
  for (const [name, prop] of Object.entries(schema)) {
    const raw = getOwn(given, name);
    const entryPath = [...path, name];
    if (raw === void 0 || raw === null || raw instanceof Omitted) {
      const filled = fillAbsent(prop, entryPath, walk);
      if (filled !== void 0) setOwn(out, name, filled);
      else if (prop.required) throw notAssigned(name, raw === void 0 ? path : entryPath);
    } else {
      setOwn(out, name, validateValue(prop, raw, entryPath, walk));
    }
  }
  return out;
}
function validateList(prop, value2, path, walk) {
  if (!Array.isArray(value2)) throw propertyError(`Value ${shown(value2)} is not a list`, path);
  const items = prop.items;
  if (items === void 0) return untyped(value2, path, walk);
  return value2.map((item, i) => {
    const itemPath = [...path, i];
    if (item !== null && !(item instanceof Omitted)) return validateValue(items, item, itemPath, walk);
    const filled = fillAbsent(items, itemPath, walk);
    if (filled !== void 0) return filled;
    if (items.required) throw propertyError("A list member is required but null", itemPath);
    return null;
  });
}
function fillAbsent(prop, path, walk) {
  if (prop.default === void 0 || prop.default === null) return void 0;
  return validateValue(prop, structuredClone(prop.default), path, walk);
}
function notAssigned(name, path) {
  return propertyError(`Property ${name} not assigned (it is required)`, path);
}
function unknownValue(path, walk) {
  if (walk.strict) throw propertyError("Value is not known yet", path);
  return UNKNOWN;
}
function untyped(value2, path, walk) {
  if (walk.strict) {
    const at = firstUnknown(value2, path);
    if (at !== void 0) throw propertyError("Value is not known yet", at);
  }
  return value2;
}
var CHECK_AS = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  list: "comma_delimited_list",
  map: "json",
  any: "json"
};
function checkConstraints2(prop, value2, path, walk) {
  const constraints = prop.constraints;
  if (constraints === void 0 || constraints.length === 0) return;
  if (hasUnknown(value2)) return;
  for (const c of constraints) {
    if (walk.skipCustom && c.kind === "custom_constraint") continue;
    const failure = constraintFailure(c, CHECK_AS[prop.type], value2);
    if (failure !== void 0) throw propertyError(c.description ?? failure, path);
  }
}
function suggestion(name, names2) {
  if (name.length > 64) return "";
  let best;
  let bestDistance = Math.min(2, Math.floor(name.length / 3));
  for (const candidate of names2) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d <= bestDistance) [best, bestDistance] = [candidate, d - 1];
  }
  return best === void 0 ? "" : ` (did you mean "${best}"?)`;
}
function editDistance(a, b) {
  let before = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2] + 1);
      row.push(d);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length];
}

// src/template/properties/check-schema.ts
var PropertySchemaError = class extends Error {
  name = "PropertySchemaError";
};
var VALID_TYPES = {
  range: ["integer", "number"],
  modulo: ["integer", "number"],
  length: ["string", "list", "map"],
  allowed_values: ["string", "integer", "number", "boolean", "list"],
  allowed_pattern: ["string"],
  custom_constraint: ["string", "integer", "number", "boolean", "list"]
};
function checkPropertiesSchema(type, schema) {
  checkMap(type, schema, [], /* @__PURE__ */ new Set());
}
function checkMap(type, schema, path, open) {
  for (const [name, prop] of Object.entries(schema)) checkProperty(type, prop, [...path, name], open);
}
function checkProperty(type, prop, path, open) {
  const fail2 = (why) => new PropertySchemaError(`${type}: property ${path.join(".")}: ${why}`);
  if (open.has(prop)) throw fail2("the schema contains itself");
  if (!PROPERTY_TYPES.includes(prop.type)) throw fail2(`invalid type "${String(prop.type)}"`);
  if (prop.updateAllowed && prop.immutable) throw fail2("updateAllowed and immutable cannot both be true");
  const loose = prop;
  if (loose.schema !== void 0 && prop.type !== "map") throw fail2("only a map may have a schema");
  if (loose.items !== void 0 && prop.type !== "list") throw fail2("only a list may have items");
  for (const c of prop.constraints ?? []) {
    if (!VALID_TYPES[c.kind]?.includes(prop.type)) {
      throw fail2(`a ${c.kind} constraint is not valid for type ${prop.type}`);
    }
    const problem = constraintProblem(c);
    if (problem !== void 0) throw fail2(`invalid ${c.kind} constraint: ${problem}`);
  }
  open.add(prop);
  if (prop.type === "map" && prop.schema) checkMap(type, prop.schema, path, open);
  if (prop.type === "list" && prop.items) checkProperty(type, prop.items, [...path, "*"], open);
  open.delete(prop);
  if (prop.default !== void 0 && prop.default !== null) checkDefault(prop, prop.default, fail2);
}
function checkDefault(prop, value2, fail2) {
  try {
    validateValue(prop, value2, [], { strict: true, skipCustom: true });
  } catch (err) {
    if (!isTemplateError(err)) throw err;
    const where2 = formatPath(err.path);
    throw fail2(`invalid default${where2 ? ` (at ${where2})` : ""}: ${err.detail}`);
  }
}
function isNumber(n) {
  return typeof n === "number" && Number.isFinite(n);
}
function constraintProblem(c) {
  switch (c.kind) {
    case "range":
    case "length": {
      if (c.min === void 0 && c.max === void 0) return "it needs a min and/or a max";
      const bounds2 = [c.min, c.max].filter((n) => n !== void 0);
      if (!bounds2.every(isNumber)) return "min/max must be numbers";
      if (c.kind === "length" && !bounds2.every(Number.isInteger)) return "min/max must be integers";
      return void 0;
    }
    case "modulo": {
      const { step, offset } = c;
      if (!Number.isInteger(step) || !Number.isInteger(offset)) return "step and offset must be integers";
      if (step === 0) return "step cannot be 0";
      if (Math.abs(offset) >= Math.abs(step)) return "offset must be smaller than step (by absolute value)";
      if (step * offset < 0) return "step and offset must have the same sign";
      return void 0;
    }
    case "allowed_values":
      return Array.isArray(c.values) ? void 0 : "values must be a list";
    case "allowed_pattern":
      if (typeof c.pattern !== "string") return "pattern must be a string";
      try {
        compilePythonPattern(c.pattern);
        return void 0;
      } catch (err) {
        return err.message;
      }
    case "custom_constraint":
      return typeof c.name === "string" && c.name !== "" ? void 0 : "name must be a non-empty string";
  }
}

// src/template/properties/diff.ts
function diffProperties(schema, oldProps, newProps) {
  const diff = { changed: [], requiresReplacement: [], immutable: [] };
  for (const [name, prop] of Object.entries(schema)) {
    if (sameValue(getOwn(oldProps, name) ?? null, getOwn(newProps, name) ?? null)) continue;
    diff.changed.push(name);
    if (prop.immutable) diff.immutable.push(name);
    if (!prop.updateAllowed) diff.requiresReplacement.push(name);
  }
  return diff;
}

// src/template/properties/show.ts
function schemaToHeatJSON(type, properties, attributes, options = {}) {
  const props = {};
  for (const [name, prop] of Object.entries(properties)) {
    if (prop.supportStatus?.status !== "HIDDEN") props[name] = propertyJSON(prop);
  }
  const attrs = {};
  for (const [name, attr2] of [...Object.entries(attributes), ...Object.entries(BASE_ATTRIBUTES)]) {
    if (attr2.supportStatus?.status !== "HIDDEN") attrs[name] = attributeJSON(attr2);
  }
  const body = {
    resource_type: type,
    properties: props,
    attributes: attrs,
    support_status: supportStatusJSON(options.supportStatus ?? {})
  };
  if (options.description !== void 0) body.description = options.description;
  return body;
}
function propertyJSON(prop) {
  const out = { type: prop.type };
  if (prop.description !== void 0) out.description = prop.description;
  if (prop.default !== void 0 && prop.default !== null) out.default = prop.default;
  if (prop.type === "map" && prop.schema) {
    const entries2 = {};
    for (const [name, sub] of Object.entries(prop.schema)) entries2[name] = propertyJSON(sub);
    out.schema = entries2;
  }
  if (prop.type === "list" && prop.items) out.schema = { "*": propertyJSON(prop.items) };
  out.required = prop.required ?? false;
  if (prop.constraints?.length) out.constraints = prop.constraints.map(constraintJSON);
  out.update_allowed = prop.updateAllowed ?? false;
  out.immutable = prop.immutable ?? false;
  return out;
}
function constraintJSON(c) {
  const out = {};
  if (c.description !== void 0) out.description = c.description;
  out[c.kind] = constraintBody(c);
  return out;
}
function constraintBody(c) {
  switch (c.kind) {
    case "range":
    case "length": {
      const bounds2 = {};
      if (c.min !== void 0) bounds2.min = c.min;
      if (c.max !== void 0) bounds2.max = c.max;
      return bounds2;
    }
    case "modulo":
      return { step: c.step ?? null, offset: c.offset ?? null };
    case "allowed_values":
      return c.values ?? [];
    case "allowed_pattern":
      return c.pattern ?? "";
    case "custom_constraint":
      return c.name ?? "";
  }
}
function attributeJSON(attr2) {
  const out = {};
  if (attr2.description !== void 0) out.description = attr2.description;
  if (attr2.type !== void 0) out.type = attr2.type;
  return out;
}
function supportStatusJSON(s) {
  return {
    status: s.status ?? "SUPPORTED",
    message: s.message ?? null,
    version: s.version ?? null,
    previous_status: s.previousStatus ? supportStatusJSON(s.previousStatus) : null
  };
}

// src/template/properties/type-info.ts
function typeInfo(type, properties, attributes, options = {}) {
  checkPropertiesSchema(type, properties);
  const dynamic = options.dynamicAttribute;
  return {
    type,
    properties,
    attributes,
    supportStatus: options.supportStatus ?? { status: "SUPPORTED" },
    description: options.description,
    anyProperties: options.anyProperties ?? false,
    validateProperties(value2, path) {
      if (!options.anyProperties) validateProperties(properties, value2, path);
    },
    ...options.readAttribute ? { readAttribute: options.readAttribute } : {},
    hasAttribute(name) {
      return Object.hasOwn(attributes, name) || Object.hasOwn(BASE_ATTRIBUTES, name) || (dynamic?.(name) ?? false);
    }
  };
}

// src/version.ts
var HEARTH_VERSION = "0.1.0";

// src/engine/liveness.ts
import { hostname } from "node:os";
var HOST = hostname();
function engineAlive(service, now, deadAfterMs) {
  if (!service) return false;
  if (service.host === HOST && !processExists(service.pid)) return false;
  return now - service.heartbeatAt < deadAfterMs;
}
function processExists(pid) {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
async function removeDeadEngines(tx, now, deadAfterMs, except) {
  const dead = (await tx.services.list()).filter(
    (s) => s.engineId !== except && !engineAlive(s, now, deadAfterMs)
  );
  const removed = [];
  for (const service of dead) {
    const releasedWork = await tx.work.releaseClaimsOf(service.engineId, now);
    await tx.services.remove(service.engineId);
    removed.push({ service, releasedWork });
  }
  return removed;
}

// src/template/parameters/types.ts
var PARAMETER_TYPES2 = [
  "string",
  "number",
  "json",
  "comma_delimited_list",
  "boolean"
];
var KEY_INTRODUCED_IN = {
  tags: "2018-03-02",
  modulo: "2017-02-24"
};

// src/template/parameters/constraint-schema.ts
var VALID_TYPES2 = {
  length: ["string", "comma_delimited_list", "json"],
  range: ["number"],
  modulo: ["number"],
  allowed_values: ["string", "number", "boolean", "comma_delimited_list"],
  allowed_pattern: ["string"],
  custom_constraint: ["string", "number", "boolean", "comma_delimited_list"]
};
var KINDS = Object.keys(VALID_TYPES2);
function schemaError(detail, path) {
  return new TemplateError("schema", detail, path);
}
function keyNotInVersion(key, what, version, allowed) {
  const since = getOwn(KEY_INTRODUCED_IN, key);
  const hint = since !== void 0 && since > version.date ? `it is available from heat_template_version ${since}` : `valid keys are: ${allowed.join(", ")}`;
  return `Invalid key "${key}" for ${what} in heat_template_version ${version.date}: ${hint}`;
}
function parseConstraints(section, type, version, paramPath) {
  if (section === void 0 || section === null) return [];
  const listPath = [...paramPath, "constraints"];
  if (!Array.isArray(section)) {
    throw schemaError(`Invalid parameter constraints: expected a list, not a ${typeName(section)}`, listPath);
  }
  return section.map((item, i) => parseConstraint(item, type, version, [...listPath, i]));
}
function parseConstraint(item, type, version, path) {
  if (!isPlainObject(item)) {
    throw schemaError(`Invalid parameter constraint: expected a map, not a ${typeName(item)}`, path);
  }
  for (const key of Object.keys(item)) {
    if (!version.constraintKeys.includes(key)) {
      throw schemaError(keyNotInVersion(key, "a parameter constraint", version, version.constraintKeys), [
        ...path,
        key
      ]);
    }
  }
  const present = KINDS.filter((k) => Object.hasOwn(item, k));
  const kind = present[0];
  if (kind === void 0) throw schemaError("No constraint expressed", path);
  if (present.length > 1) {
    throw schemaError(`A constraint may express only one of its kinds, found: ${present.join(", ")}`, path);
  }
  const constraint = { kind };
  const description = getOwn(item, "description");
  if (description !== void 0 && description !== null) {
    if (typeof description !== "string") {
      throw schemaError(`Constraint description must be a string, not a ${typeName(description)}`, [
        ...path,
        "description"
      ]);
    }
    constraint.description = description;
  }
  const body = getOwn(item, kind) ?? null;
  const bodyPath = [...path, kind];
  switch (kind) {
    case "range":
    case "length":
      parseBounds(constraint, body, bodyPath);
      break;
    case "modulo":
      parseModulo(constraint, body, bodyPath);
      break;
    case "allowed_values":
      if (!Array.isArray(body))
        throw schemaError(`allowed_values must be a list, not a ${typeName(body)}`, bodyPath);
      constraint.values = body;
      break;
    case "allowed_pattern":
      constraint.pattern = parsePattern(body, bodyPath);
      break;
    case "custom_constraint":
      if (typeof body !== "string") {
        throw schemaError(`custom_constraint must be a string, not a ${typeName(body)}`, bodyPath);
      }
      if (!isKnownCustomConstraint(body)) throw schemaError(`unknown custom constraint "${body}"`, bodyPath);
      constraint.name = body;
      break;
  }
  if (!VALID_TYPES2[kind].includes(type)) {
    throw schemaError(
      `The ${kind} constraint is not valid for a parameter of type ${type} (it applies to: ${VALID_TYPES2[kind].join(", ")})`,
      bodyPath
    );
  }
  return constraint;
}
function boundValue(body, key, what, path) {
  const raw = getOwn(body, key);
  if (raw === void 0 || raw === null) return void 0;
  const n = typeof raw === "number" ? raw : typeof raw === "string" ? parseNumber(raw) : void 0;
  if (n === void 0 || !Number.isFinite(n)) throw schemaError(`${what} must be numeric`, [...path, key]);
  return n;
}
function checkKeys(body, keys, kind, path) {
  if (!isPlainObject(body)) throw schemaError(`Invalid ${kind} constraint: expected a map`, path);
  for (const key of Object.keys(body)) {
    if (!keys.includes(key)) {
      throw schemaError(`Invalid key "${key}" for ${kind} constraint (valid keys: ${keys.join(", ")})`, [
        ...path,
        key
      ]);
    }
  }
  return body;
}
function parseBounds(constraint, body, path) {
  const kind = constraint.kind;
  const map = checkKeys(body, ["min", "max"], kind, path);
  const min = boundValue(map, "min", "min/max", path);
  const max = boundValue(map, "max", "min/max", path);
  if (min === void 0 && max === void 0) {
    throw schemaError(`A ${kind} constraint must have a min value and/or a max value specified.`, path);
  }
  if (kind === "length") {
    for (const [key, v] of [
      ["min", min],
      ["max", max]
    ]) {
      if (v !== void 0 && !Number.isInteger(v))
        throw schemaError("min/max length must be integral", [...path, key]);
    }
  }
  if (min !== void 0) constraint.min = min;
  if (max !== void 0) constraint.max = max;
}
function parseModulo(constraint, body, path) {
  const map = checkKeys(body, ["step", "offset"], "modulo", path);
  const step = boundValue(map, "step", "step/offset", path);
  const offset = boundValue(map, "offset", "step/offset", path);
  if (step === void 0 || offset === void 0) {
    throw schemaError("A modulo constraint must have a step value and an offset value specified.", path);
  }
  if (!Number.isInteger(step) || !Number.isInteger(offset))
    throw schemaError("step/offset must be integer", path);
  if (step === 0) throw schemaError("step cannot be 0.", [...path, "step"]);
  if (Math.abs(offset) >= Math.abs(step)) {
    throw schemaError("offset must be smaller (by absolute value) than step.", [...path, "offset"]);
  }
  if (step * offset < 0) throw schemaError("step and offset must be both positive or both negative.", path);
  constraint.step = step;
  constraint.offset = offset;
}
function parsePattern(body, path) {
  if (typeof body !== "string")
    throw schemaError(`allowed_pattern must be a string, not a ${typeName(body)}`, path);
  try {
    compilePythonPattern(body);
  } catch (err) {
    throw schemaError(`Invalid allowed_pattern "${body}": ${err.message}`, path);
  }
  return body;
}

// src/template/parameters/groups.ts
function groupError(detail, path) {
  return new TemplateError("schema", detail, path);
}
function parseParameterGroups(section, schemas) {
  if (section === void 0 || section === null) return [];
  if (!Array.isArray(section)) {
    throw groupError(`The parameter_groups should be a list, not a ${typeName(section)}.`, [
      "parameter_groups"
    ]);
  }
  const grouped = /* @__PURE__ */ new Set();
  return section.map((group, i) => {
    const path = ["parameter_groups", i];
    if (!isPlainObject(group)) {
      throw groupError(`Each parameter group should be a map, not a ${typeName(group)}.`, path);
    }
    const result = { parameters: [] };
    for (const key of ["label", "description"]) {
      const text = getOwn(group, key);
      if (text === void 0 || text === null) continue;
      if (typeof text !== "string") {
        throw groupError(`The ${key} of a parameter group must be a string, not a ${typeName(text)}.`, [
          ...path,
          key
        ]);
      }
      result[key] = text;
    }
    const names2 = getOwn(group, "parameters");
    if (names2 === void 0 || names2 === null) {
      throw groupError("The parameters must be provided for each parameter group.", path);
    }
    if (!Array.isArray(names2)) {
      throw groupError("The parameters of parameter group should be a list.", [...path, "parameters"]);
    }
    names2.forEach((name, j) => {
      const itemPath = [...path, "parameters", j];
      const shown2 = typeof name === "string" ? name : pyJsonDumps(name);
      if (typeof name === "string" && grouped.has(name)) {
        throw groupError(`The ${shown2} parameter must be assigned to one parameter group only.`, itemPath);
      }
      if (typeof name !== "string" || !schemas.has(name)) {
        throw groupError(`The grouped parameter ${shown2} does not reference a valid parameter.`, itemPath);
      }
      grouped.add(name);
      result.parameters.push(name);
    });
    return result;
  });
}

// src/template/parameters/schema.ts
var PSEUDO_PARAMETERS = ["OS::stack_name", "OS::stack_id", "OS::project_id", "OS::region"];
function schemaError2(detail, path) {
  return new TemplateError("schema", detail, path);
}
function parseParameterSchemas(section, version) {
  const schemas = /* @__PURE__ */ new Map();
  if (section === void 0 || section === null) return schemas;
  if (!isPlainObject(section)) {
    throw schemaError2(`The parameters section must be a map, not a ${typeName(section)}`, ["parameters"]);
  }
  for (const [name, definition] of Object.entries(section)) {
    schemas.set(name, parseParameterSchema(name, definition, version));
  }
  return schemas;
}
function parseParameterSchema(name, definition, version) {
  const path = ["parameters", name];
  if (PSEUDO_PARAMETERS.includes(name)) {
    throw schemaError2(`"${name}" is a pseudo parameter supplied by the engine and cannot be declared`, path);
  }
  if (!isPlainObject(definition)) {
    throw schemaError2(`Invalid parameter (${name}): expected a map, not a ${typeName(definition)}`, path);
  }
  for (const key of Object.keys(definition)) {
    if (!version.parameterKeys.includes(key)) {
      throw schemaError2(keyNotInVersion(key, `parameter (${name})`, version, version.parameterKeys), [
        ...path,
        key
      ]);
    }
  }
  const type = parseType(name, getOwn(definition, "type"), path);
  const schema = {
    name,
    type,
    hasDefault: false,
    hidden: flag(definition, "hidden", path),
    immutable: flag(definition, "immutable", path),
    constraints: parseConstraints(getOwn(definition, "constraints"), type, version, path)
  };
  for (const key of ["description", "label"]) {
    const text = getOwn(definition, key);
    if (text === void 0 || text === null) continue;
    if (typeof text !== "string")
      throw schemaError2(`${key} must be a string, not a ${typeName(text)}`, [...path, key]);
    schema[key] = text;
  }
  const tags = getOwn(definition, "tags");
  if (tags !== void 0 && tags !== null) schema.tags = parseTags(name, tags, [...path, "tags"]);
  const dflt = getOwn(definition, "default");
  if (dflt !== void 0 && dflt !== null) {
    schema.default = dflt;
    schema.hasDefault = true;
    checkDefault2(schema, dflt, [...path, "default"]);
  }
  return schema;
}
function parseType(name, type, path) {
  if (type === void 0) throw schemaError2(`Missing parameter type for parameter: ${name}`, path);
  if (typeof type !== "string" || !PARAMETER_TYPES2.includes(type)) {
    const shown2 = typeof type === "string" ? type : pyJsonDumps(type);
    throw schemaError2(`Invalid type (${shown2}): expected one of ${PARAMETER_TYPES2.join(", ")}`, [
      ...path,
      "type"
    ]);
  }
  return type;
}
function flag(definition, key, path) {
  const value2 = getOwn(definition, key);
  if (value2 === void 0 || value2 === null) return false;
  if (typeof value2 !== "boolean") {
    throw schemaError2(`${key} must be a boolean (true or false), not a ${typeName(value2)}`, [...path, key]);
  }
  return value2;
}
function parseTags(name, tags, path) {
  if (!Array.isArray(tags)) throw schemaError2(`Tags property should be a list for parameter: ${name}`, path);
  return tags.map((tag, i) => {
    if (typeof tag !== "string")
      throw schemaError2(`A tag must be a string, not a ${typeName(tag)}`, [...path, i]);
    return tag;
  });
}
function checkDefault2(schema, dflt, path) {
  try {
    const value2 = coerceParameterValue(schema, dflt, path);
    checkConstraints(schema, value2, path, { skipCustom: true });
  } catch (err) {
    if (!isTemplateError(err)) throw err;
    const shown2 = schema.hidden ? MASK : typeof dflt === "string" ? dflt : pyJsonDumps(dflt);
    throw new TemplateError("parameter", `Invalid default ${shown2} (${err.detail})`, path);
  }
}

// src/template/parameters/resolve.ts
function resolveParameterValues(schemas, supplied, options) {
  if (options.strict) {
    for (const name of Object.keys(supplied)) {
      if (!schemas.has(name)) {
        throw new TemplateError("parameter", `The Parameter (${name}) was not defined in template.`, [
          "parameters",
          name
        ]);
      }
    }
  }
  const values = /* @__PURE__ */ new Map();
  for (const [name, schema] of schemas) {
    values.set(name, resolveOne(schema, supplied, options));
  }
  for (const name of PSEUDO_PARAMETERS) {
    const value2 = getOwn(options.pseudo, name);
    values.set(name, value2 === void 0 ? UNKNOWN : value2);
  }
  return values;
}
function resolveOne(schema, supplied, options) {
  const path = ["parameters", schema.name];
  const given = getOwn(supplied, schema.name);
  if (given !== void 0 && given !== null) return checked(schema, given, path);
  const envDefault = options.parameterDefaults ? getOwn(options.parameterDefaults, schema.name) : void 0;
  if (envDefault !== void 0 && envDefault !== null) return checked(schema, envDefault, path);
  if (schema.hasDefault && schema.default !== void 0)
    return checked(schema, schema.default, [...path, "default"]);
  if (options.strict) {
    throw new TemplateError("parameter", `The Parameter (${schema.name}) was not provided.`, path);
  }
  return UNKNOWN;
}
function checked(schema, raw, path) {
  const value2 = coerceParameterValue(schema, raw, path);
  checkConstraints(schema, value2, path);
  return value2;
}

// src/template/functions/args.ts
function fail(call, detail) {
  throw new TemplateError("function", `${call.name}: ${detail}`, call.path);
}
function argList(call, min, max = min) {
  const args = call.args;
  if (!Array.isArray(args)) fail(call, `arguments must be a list, got ${typeName(args)}`);
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
    fail(call, `expected ${want} arguments, got ${args.length}`);
  }
  return args;
}
function argMap(call, required, optional = []) {
  const args = call.args;
  if (args === null || typeof args !== "object" || Array.isArray(args) || !isNodeMap(args)) {
    fail(call, `arguments must be a map, got ${typeName(args)}`);
  }
  for (const key of required) {
    if (!Object.hasOwn(args, key)) fail(call, `missing required argument "${key}"`);
  }
  for (const key of Object.keys(args)) {
    if (!required.includes(key) && !optional.includes(key)) {
      fail(call, `unknown argument "${key}"; expected ${[...required, ...optional].join(", ")}`);
    }
  }
  return args;
}
function isNodeMap(node) {
  const proto = Object.getPrototypeOf(node);
  return proto === Object.prototype || proto === null;
}
function resolveString(call, ctx, node, what) {
  const value2 = ctx.resolve(node);
  if (isUnknown(value2)) return void 0;
  if (typeof value2 === "string") return value2;
  if (typeof value2 === "number") return String(value2);
  return fail(call, `${what} must be a string, got ${typeName(value2)}`);
}

// src/template/functions/strings.ts
import { createHash as createHash2 } from "node:crypto";
function isMap2(value2) {
  return isPlainObject(value2);
}
function resolveArg(ctx, node) {
  const value2 = ctx.resolve(node);
  return value2 === OMITTED ? null : value2;
}
function describeNode(node) {
  return node instanceof FnCall ? `a "${node.name}" call` : typeName(node);
}
function showValue(value2) {
  const text = pyJsonDumps(value2);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
function literalList(call, min, max, usage) {
  const args = call.args;
  if (!Array.isArray(args))
    fail(call, `arguments must be a list of the form ${usage}, got ${describeNode(args)}`);
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
    fail(call, `expected ${want} arguments of the form ${usage}, got ${args.length}`);
  }
  return args;
}
function pyTruthy(value2) {
  if (value2 === null) return false;
  if (typeof value2 === "boolean") return value2;
  if (typeof value2 === "number") return value2 !== 0;
  if (typeof value2 === "string" || Array.isArray(value2)) return value2.length > 0;
  if (isMap2(value2)) return Object.keys(value2).length > 0;
  return true;
}
function pyNumber(n) {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const [mantissa = "", exponent = "0"] = n.toExponential().split("e");
  const exp = Number(exponent);
  if (exp < -4 || exp >= 16)
    return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return String(n);
}
function pyStr2(value2) {
  if (typeof value2 === "string") return value2;
  return pyRepr(value2);
}
function pyRepr(value2) {
  if (value2 === null) return "None";
  if (typeof value2 === "boolean") return value2 ? "True" : "False";
  if (typeof value2 === "number") return pyNumber(value2);
  if (typeof value2 === "string") return pyStringRepr(value2);
  if (Array.isArray(value2)) return `[${value2.map(pyRepr).join(", ")}]`;
  if (isMap2(value2)) {
    return `{${Object.keys(value2).map((key) => `${pyStringRepr(key)}: ${pyRepr(value2[key])}`).join(", ")}}`;
  }
  return String(value2);
}
function pyStringRepr(s) {
  const quote3 = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote3;
  for (const ch of s) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote3) out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "	") out += "\\t";
    else if (code < 32 || code >= 127 && code <= 160 || code === 173) {
      out += `\\x${code.toString(16).padStart(2, "0")}`;
    } else out += ch;
  }
  return out + quote3;
}
var PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
var PY_INT = new RegExp(`^[${PY_SPACE}]*([+-]?\\d+(?:_\\d+)*)[${PY_SPACE}]*$`);
var PY_SPACE_RUN = new RegExp(`[${PY_SPACE}]+`);
function pyInt(value2) {
  if (typeof value2 === "boolean") return value2 ? 1 : 0;
  if (typeof value2 === "number") return Number.isFinite(value2) ? Math.trunc(value2) : void 0;
  if (typeof value2 === "string") {
    const match = PY_INT.exec(value2);
    return match ? Number(match[1].replaceAll("_", "")) : void 0;
  }
  return void 0;
}
function compareCodePoints(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i);
    const y = b.codePointAt(i);
    if (x !== y) return x - y;
    if (x > 65535) i++;
  }
  return a.length - b.length;
}
function codePointLength(s) {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
function pyJsonDumpsSorted(value2) {
  if (Array.isArray(value2)) return `[${value2.map(pyJsonDumpsSorted).join(", ")}]`;
  if (isMap2(value2)) {
    return `{${Object.keys(value2).sort(compareCodePoints).map((key) => `${pyJsonDumps(key)}: ${pyJsonDumpsSorted(value2[key])}`).join(", ")}}`;
  }
  return pyJsonDumps(value2);
}
var JOIN_USAGE = "[<delimiter>, [<string>, ...]]";
var JOIN_MULTI_USAGE = "[<delimiter>, [<string>, ...], ...]";
function resolveDelimiter(call, ctx, node) {
  const delimiter = resolveArg(ctx, node);
  if (isUnknown(delimiter) || typeof delimiter === "string") return delimiter;
  return fail(call, `the delimiter must be a string, got ${typeName(delimiter)}`);
}
function checkJoin(call) {
  literalList(call, 2, 2, JOIN_USAGE);
}
function resolveJoin(call, ctx) {
  const [delimiterNode, listNode] = literalList(call, 2, 2, JOIN_USAGE);
  let items = resolveArg(ctx, listNode);
  if (isUnknown(items)) return UNKNOWN;
  if (items === null) items = [];
  if (!Array.isArray(items)) return fail(call, `can only join a list, got ${typeName(items)}`);
  const delimiter = resolveDelimiter(call, ctx, delimiterNode);
  let unknown = isUnknown(delimiter);
  const parts = [];
  for (const item of items) {
    if (item === null) parts.push("");
    else if (typeof item === "string") parts.push(item);
    else if (isUnknown(item)) unknown = true;
    else fail(call, `items to join must be strings, got ${typeName(item)} ${showValue(item)}`);
  }
  return unknown ? UNKNOWN : parts.join(delimiter);
}
var listJoin = {
  name: "list_join",
  description: "Joins a list of strings with a delimiter.",
  check: checkJoin,
  resolve: resolveJoin
};
var joinOneList = { check: checkJoin, resolve: resolveJoin };
var listJoinMulti = {
  name: "list_join",
  description: "Joins one or more lists of strings with a delimiter; lists and maps are joined as JSON.",
  check(call) {
    literalList(call, 2, Number.POSITIVE_INFINITY, JOIN_MULTI_USAGE);
  },
  resolve(call, ctx) {
    const [delimiterNode, ...listNodes] = literalList(
      call,
      2,
      Number.POSITIVE_INFINITY,
      JOIN_MULTI_USAGE
    );
    const lists = ctx.resolve(listNodes);
    let unknown = false;
    const items = [];
    for (const list2 of lists) {
      if (isUnknown(list2)) unknown = true;
      else if (!pyTruthy(list2))
        continue;
      else if (Array.isArray(list2)) for (const item of list2) items.push(item);
      else fail(call, `can only join lists, got ${typeName(list2)}`);
    }
    const delimiter = resolveDelimiter(call, ctx, delimiterNode);
    if (isUnknown(delimiter)) unknown = true;
    const parts = [];
    for (const item of items) {
      if (item === null) parts.push("");
      else if (typeof item === "string") parts.push(item);
      else if (isUnknown(item)) unknown = true;
      else if (Array.isArray(item) || isMap2(item)) {
        if (containsUnknown(item)) unknown = true;
        else parts.push(pyJsonDumpsSorted(item));
      } else
        fail(call, `items to join must be strings, lists or maps, got ${typeName(item)} ${showValue(item)}`);
    }
    return unknown ? UNKNOWN : parts.join(delimiter);
  }
};
var REPLACE_USAGE = '{template: "<text with var1>", params: {var1: <value>}}';
function replaceArgs(call) {
  const args = call.args;
  if (!isPlainObject(args)) return fail(call, `arguments must be a map of the form ${REPLACE_USAGE}`);
  const map = args;
  const template = getOwn(map, "template");
  const params = getOwn(map, "params");
  if (template === void 0 || params === void 0) {
    return fail(call, `arguments must have "template" and "params", as in ${REPLACE_USAGE}`);
  }
  checkParamsNode(call, params);
  return { template, params };
}
function checkParamsNode(call, params) {
  if (!(params instanceof FnCall) && !isPlainObject(params)) {
    fail(call, `"params" must be a map, got ${describeNode(params)}`);
  }
}
function replacementText(call, key, value2, mode) {
  const empty = () => fail(call, `param "${key}" has an undefined or empty value, which is not allowed`);
  if (isUnknown(value2)) return UNKNOWN;
  if (value2 === null) return mode.allowEmpty ? "" : empty();
  if (Array.isArray(value2) || isMap2(value2)) {
    if (!mode.json) fail(call, `params must be strings or numbers; param "${key}" is a ${typeName(value2)}`);
    if (!mode.allowEmpty && !pyTruthy(value2)) empty();
    return containsUnknown(value2) ? UNKNOWN : pyJsonDumpsSorted(value2);
  }
  const text = pyStr2(value2);
  if (!mode.allowEmpty && text === "") empty();
  return text;
}
function resolveReplace(call, ctx, templateNode, paramsNode, mode) {
  const template = resolveArg(ctx, templateNode);
  const params = resolveArg(ctx, paramsNode);
  if (!isUnknown(template) && typeof template !== "string") {
    fail(call, `"template" must be a string, got ${typeName(template)}`);
  }
  if (isUnknown(params)) return UNKNOWN;
  if (!isMap2(params)) return fail(call, `"params" must be a map, got ${typeName(params)}`);
  const keys = Object.keys(params).sort(compareCodePoints).sort((a, b) => codePointLength(b) - codePointLength(a));
  const texts = keys.map((key) => {
    const text = replacementText(call, key, params[key], mode);
    if (key === "") fail(call, "param names must not be empty");
    return text;
  });
  if (isUnknown(template)) return UNKNOWN;
  let segments = [template];
  const found = /* @__PURE__ */ new Set();
  keys.forEach((key, index) => {
    const next = [];
    for (const segment of segments) {
      if (typeof segment === "number") {
        next.push(segment);
        continue;
      }
      const pieces = segment.split(key);
      if (pieces.length > 1) found.add(index);
      pieces.forEach((piece, i) => {
        if (i > 0) next.push(index);
        if (piece !== "") next.push(piece);
      });
    }
    segments = next;
  });
  if (mode.strict && found.size < keys.length) {
    const missing = keys.filter((_, index) => !found.has(index));
    fail(call, `params not found in the template: ${missing.join(",")}`);
  }
  let result = "";
  for (const segment of segments) {
    const text = typeof segment === "number" ? texts[segment] : segment;
    if (isUnknown(text)) return UNKNOWN;
    result += text;
  }
  return result;
}
function makeReplace(name, description, mode) {
  return {
    name,
    description,
    check(call) {
      replaceArgs(call);
    },
    resolve(call, ctx) {
      const { template, params } = replaceArgs(call);
      return resolveReplace(call, ctx, template, params, mode);
    }
  };
}
var strReplace = makeReplace("str_replace", "Substitutes params into a template string.", {
  json: false,
  strict: false,
  allowEmpty: true
});
var strReplaceJson = makeReplace(
  "str_replace",
  "Substitutes params into a template string; lists and maps are substituted as JSON.",
  { json: true, strict: false, allowEmpty: true }
);
var strReplaceStrict = makeReplace(
  "str_replace_strict",
  "Like str_replace, but every param must occur in the template.",
  { json: true, strict: true, allowEmpty: true }
);
var strReplaceVstrict = makeReplace(
  "str_replace_vstrict",
  "Like str_replace_strict, but param values must not be null or empty.",
  { json: true, strict: true, allowEmpty: false }
);
var SPLIT_USAGE = "[<delimiter>, <string>, <optional index>]";
function pySplit(call, text, delimiter) {
  if (delimiter === null) return text.split(PY_SPACE_RUN).filter((part) => part !== "");
  if (typeof delimiter !== "string")
    return fail(call, `the delimiter must be a string, got ${typeName(delimiter)}`);
  if (delimiter === "") return fail(call, "the delimiter must not be empty");
  return text.split(delimiter);
}
var strSplit = {
  name: "str_split",
  description: "Splits a string into a list by a delimiter, optionally selecting one item by index.",
  check(call) {
    const args = call.args;
    if (args instanceof FnCall) return;
    literalList(call, 2, Number.POSITIVE_INFINITY, SPLIT_USAGE);
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, call.args);
    if (isUnknown(args)) return UNKNOWN;
    if (!Array.isArray(args) || args.length < 2) {
      return fail(call, `arguments must be a list of the form ${SPLIT_USAGE}`);
    }
    const [delimiter, text, ...rest] = args;
    if (text === null) return null;
    if (isUnknown(text)) return UNKNOWN;
    if (typeof text !== "string") return fail(call, `can only split a string, got ${typeName(text)}`);
    if (isUnknown(delimiter)) return UNKNOWN;
    const parts = pySplit(call, text, delimiter);
    if (rest.length === 0) return parts;
    const indexValue = rest[0];
    if (isUnknown(indexValue)) return UNKNOWN;
    const index = pyInt(indexValue);
    if (index === void 0) return fail(call, `the index must be an integer, got ${showValue(indexValue)}`);
    if (index >= parts.length || index < -parts.length) {
      return fail(call, `index ${index} is out of range; it must be between 0 and ${parts.length - 1}`);
    }
    return parts[index < 0 ? parts.length + index : index];
  }
};
var DIGESTS = /* @__PURE__ */ new Map([
  ["md5", "md5"],
  ["sha1", "sha1"],
  ["sha224", "sha224"],
  ["sha256", "sha256"],
  ["sha384", "sha384"],
  ["sha512", "sha512"],
  ["sha512_224", "sha512-224"],
  ["sha512_256", "sha512-256"]
]);
var LOWER_CASE_DIGESTS = /* @__PURE__ */ new Map([
  ["sha3_224", "sha3-224"],
  ["sha3_256", "sha3-256"],
  ["sha3_384", "sha3-384"],
  ["sha3_512", "sha3-512"],
  ["blake2b", "blake2b512"],
  ["blake2s", "blake2s256"]
]);
var DIGEST_NAMES = [...DIGESTS.keys(), ...LOWER_CASE_DIGESTS.keys()].join(", ");
var DIGEST_USAGE = "[<algorithm>, <value>]";
function digestAlgorithm(call, name) {
  const algorithm = DIGESTS.get(name.toLowerCase()) ?? LOWER_CASE_DIGESTS.get(name);
  return algorithm ?? fail(call, `unknown algorithm "${name}"; it must be one of ${DIGEST_NAMES}`);
}
var digest = {
  name: "digest",
  description: "Hashes a string with an algorithm such as sha256 and returns the hex digest.",
  check(call) {
    const args = call.args;
    if (args instanceof FnCall) return;
    if (!Array.isArray(args)) return fail(call, `arguments must be a list of strings ${DIGEST_USAGE}`);
    for (const item of args) {
      if (!(item instanceof FnCall) && typeof item !== "string") {
        fail(call, `arguments must be a list of strings ${DIGEST_USAGE}, got ${describeNode(item)}`);
      }
    }
    literalList(call, 2, 2, DIGEST_USAGE);
    if (typeof args[0] === "string") digestAlgorithm(call, args[0]);
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, call.args);
    if (isUnknown(args)) return UNKNOWN;
    if (!Array.isArray(args) || args.some((item) => typeof item !== "string" && !isUnknown(item))) {
      return fail(call, `arguments must be a list of strings ${DIGEST_USAGE}`);
    }
    if (args.length !== 2) return fail(call, `expected 2 arguments ${DIGEST_USAGE}, got ${args.length}`);
    const [name, value2] = args;
    if (isUnknown(name)) return UNKNOWN;
    const algorithm = digestAlgorithm(call, name);
    if (isUnknown(value2)) return UNKNOWN;
    if ([...value2].some((ch) => ch.codePointAt(0) > 255))
      fail(call, "the value must only contain Latin-1 characters");
    return createHash2(algorithm).update(Buffer.from(value2, "latin1")).digest("hex");
  }
};

// src/template/functions/cfn.ts
var SELECT_USAGE = "[<index>, <list or map>]";
var fnSelect = {
  name: "Fn::Select",
  description: "Selects an item from a list by index, or from a map by key.",
  check(call) {
    literalList(call, 2, 2, SELECT_USAGE);
  },
  resolve(call, ctx) {
    const [indexNode, collectionNode] = literalList(call, 2, 2, SELECT_USAGE);
    const index = resolveArg(ctx, indexNode);
    let collection = resolveArg(ctx, collectionNode);
    if (isUnknown(collection)) return UNKNOWN;
    if (collection === "") return "";
    if (typeof collection === "string") {
      try {
        collection = JSON.parse(collection);
      } catch (err) {
        return fail(call, `the collection is a string but not valid JSON: ${err.message}`);
      }
    }
    if (isMap2(collection)) {
      if (isUnknown(index)) return UNKNOWN;
      if (typeof index !== "string")
        return fail(call, `the index into a map must be a string, got ${typeName(index)}`);
      const item = getOwn(collection, index);
      return item === void 0 ? "" : item;
    }
    if (Array.isArray(collection)) {
      if (isUnknown(index)) return UNKNOWN;
      const position = pyInt(index);
      if (position === void 0) {
        return fail(call, `the index into a list must be an integer, got ${showValue(index)}`);
      }
      if (position >= collection.length || position < -collection.length) return "";
      return collection[position < 0 ? collection.length + position : position];
    }
    if (collection === null) return "";
    return fail(call, `can only select from a list or a map, got ${typeName(collection)}`);
  }
};
var fnJoin = {
  name: "Fn::Join",
  description: "Joins a list of strings with a delimiter.",
  ...joinOneList
};
var SPLIT_USAGE2 = "[<delimiter>, <string>]";
function splitArgs(call) {
  const [delimiter, text] = literalList(call, 2, 2, SPLIT_USAGE2);
  if (typeof delimiter !== "string")
    fail(call, `the delimiter must be a literal string, got ${describeNode(delimiter)}`);
  if (delimiter === "") fail(call, "the delimiter must not be empty");
  return [delimiter, text];
}
var fnSplit = {
  name: "Fn::Split",
  description: "Splits a string into a list by a delimiter.",
  check(call) {
    splitArgs(call);
  },
  resolve(call, ctx) {
    const [delimiter, textNode] = splitArgs(call);
    const text = resolveArg(ctx, textNode);
    if (isUnknown(text)) return UNKNOWN;
    if (typeof text !== "string") return fail(call, `can only split a string, got ${typeName(text)}`);
    return text.split(delimiter);
  }
};
var REPLACE_USAGE2 = '[{"$var1": "foo", "%var2%": "bar"}, "$var1 is %var2%"]';
function replaceArgs2(call) {
  const [params, template] = literalList(call, 2, 2, REPLACE_USAGE2);
  checkParamsNode(call, params);
  return [params, template];
}
var fnReplace = {
  name: "Fn::Replace",
  description: "Substitutes params into a template string.",
  check(call) {
    replaceArgs2(call);
  },
  resolve(call, ctx) {
    const [params, template] = replaceArgs2(call);
    return resolveReplace(call, ctx, template, params, { json: false, strict: false, allowEmpty: true });
  }
};
var fnBase64 = {
  name: "Fn::Base64",
  description: "Returns its string argument unchanged (Heat takes user data as plain text).",
  check(call) {
    const arg = call.args;
    if (!(arg instanceof FnCall) && typeof arg !== "string")
      fail(call, `the argument must be a string, got ${typeName(arg)}`);
  },
  resolve(call, ctx) {
    const value2 = resolveArg(ctx, call.args);
    if (isUnknown(value2) || typeof value2 === "string") return value2;
    return fail(call, `the argument must be a string, got ${typeName(value2)}`);
  }
};
var MEMBER_LIST_USAGE = '["Name", "Value", [".member.0.Name=key", ".member.0.Value=door"]]';
var MEMBER_ENTRY = /^\.member\.([0-9]+)\.([^\n]*)/;
function memberListArgs(call) {
  const [keyName, valueName, list2] = literalList(call, 3, 3, MEMBER_LIST_USAGE);
  if (typeof keyName !== "string") fail(call, `the key name must be a string, got ${describeNode(keyName)}`);
  if (typeof valueName !== "string")
    fail(call, `the value name must be a string, got ${describeNode(valueName)}`);
  return [keyName, valueName, list2];
}
var fnMemberListToMap = {
  name: "Fn::MemberListToMap",
  description: 'Converts an AWS-style member list (".member.N.Name=..." entries) to a map.',
  check(call) {
    memberListArgs(call);
  },
  resolve(call, ctx) {
    const [keyName, valueName, listNode] = memberListArgs(call);
    const list2 = resolveArg(ctx, listNode);
    if (isUnknown(list2)) return UNKNOWN;
    let entries2;
    if (Array.isArray(list2)) entries2 = list2;
    else if (isMap2(list2)) entries2 = Object.keys(list2);
    else if (typeof list2 === "string") entries2 = [...list2];
    else return fail(call, `the member list must be a list, got ${typeName(list2)}`);
    const fields = /* @__PURE__ */ new Map();
    let unknown = false;
    for (const entry of entries2) {
      if (isUnknown(entry)) {
        unknown = true;
        continue;
      }
      if (typeof entry !== "string")
        return fail(call, `member list items must be strings, got ${typeName(entry)}`);
      const equals2 = entry.indexOf("=");
      if (equals2 < 0) return fail(call, `member list item ${JSON.stringify(entry)} has no "="`);
      fields.set(entry.slice(0, equals2), entry.slice(equals2 + 1));
    }
    if (unknown) return UNKNOWN;
    const members = /* @__PURE__ */ new Map();
    for (const [name, value2] of fields) {
      const match = MEMBER_ENTRY.exec(name);
      if (!match) continue;
      const index = Number(match[1]);
      let member = members.get(index);
      if (!member) members.set(index, member = /* @__PURE__ */ new Map());
      member.set(match[2], value2);
    }
    const result = {};
    for (const index of [...members.keys()].sort((a, b) => a - b)) {
      const member = members.get(index);
      const key = member.get(keyName);
      const value2 = member.get(valueName);
      if (key !== void 0 && value2 !== void 0) setOwn(result, key, value2);
    }
    return result;
  }
};
var fnGetAZs = {
  name: "Fn::GetAZs",
  description: "The availability zones of the cloud (the region argument is ignored).",
  resolve(_call, ctx) {
    return ctx.availabilityZones?.() ?? UNKNOWN;
  }
};
var fnRef = {
  name: "Ref",
  description: "A parameter's value, or a resource's reference id.",
  check(call) {
    const arg = call.args;
    if (!(arg instanceof FnCall) && typeof arg !== "string") {
      fail(call, `the argument must be a parameter or resource name, got ${typeName(arg)}`);
    }
  },
  resolve(call, ctx) {
    const name = resolveArg(ctx, call.args);
    if (isUnknown(name)) return UNKNOWN;
    if (typeof name !== "string")
      return fail(call, `the argument must be a parameter or resource name, got ${typeName(name)}`);
    return ctx.isParameter(name) ? ctx.param(name, call.path) : ctx.resourceRef(name, call.path);
  },
  // Without a context a parameter cannot be told from a resource; the graph builder skips parameters.
  referencedResource(call) {
    return typeof call.args === "string" ? call.args : void 0;
  }
};
var FACADE_SECTIONS = {
  Metadata: "metadata",
  DeletionPolicy: "deletion_policy",
  UpdatePolicy: "update_policy"
};
function facadeSection(call) {
  const arg = call.args;
  const section = typeof arg === "string" ? getOwn(FACADE_SECTIONS, arg) : void 0;
  return section ?? fail(call, `the argument must be one of ${Object.keys(FACADE_SECTIONS).join(", ")}`);
}
var fnResourceFacade = {
  name: "Fn::ResourceFacade",
  description: "A section (Metadata, DeletionPolicy, UpdatePolicy) of the parent stack's resource for this template.",
  check(call) {
    facadeSection(call);
  },
  resolve(call, ctx) {
    return ctx.facade(facadeSection(call), call.path);
  }
};

// src/template/functions/collections.ts
function pyEquals(a, b) {
  if (isUnknown(a) || isUnknown(b)) return void 0;
  const numeric = (v) => typeof v === "number" || typeof v === "boolean";
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return allEqual(a.map((item, i) => [item, b[i]]));
  }
  if (isMap2(a)) {
    if (!isMap2(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length || !keys.every((key) => Object.hasOwn(b, key))) return false;
    return allEqual(keys.map((key) => [a[key], b[key]]));
  }
  return a === b;
}
function allEqual(pairs) {
  let result = true;
  for (const [x, y] of pairs) {
    const equal2 = pyEquals(x, y);
    if (equal2 === false) return false;
    if (equal2 === void 0) result = void 0;
  }
  return result;
}
function pyContains(list2, value2) {
  let result = false;
  for (const item of list2) {
    const equal2 = pyEquals(item, value2);
    if (equal2 === true) return true;
    if (equal2 === void 0) result = void 0;
  }
  return result;
}
var MERGE_USAGE = "[{key1: value1}, {key2: value2}, ...]";
var mapMerge = {
  name: "map_merge",
  description: "Merges a list of maps; values in later maps override earlier ones.",
  check(call) {
    if (call.args instanceof FnCall) return;
    const items = literalList(call, 0, Number.POSITIVE_INFINITY, MERGE_USAGE);
    for (const item of items) {
      if (!(item instanceof FnCall) && item !== null && !isPlainObject(item)) {
        fail(call, `items to merge must be maps, got ${describeNode(item)}`);
      }
    }
  },
  resolve(call, ctx) {
    const items = resolveArg(ctx, call.args);
    if (isUnknown(items)) return UNKNOWN;
    if (!Array.isArray(items)) return fail(call, `arguments must be a list of maps ${MERGE_USAGE}`);
    const merged = {};
    let unknown = false;
    for (const item of items) {
      if (isUnknown(item)) unknown = true;
      else if (isMap2(item)) for (const key of Object.keys(item)) setOwn(merged, key, item[key]);
      else if (item !== null)
        fail(call, `items to merge must be maps, got ${typeName(item)} ${showValue(item)}`);
    }
    return unknown ? UNKNOWN : merged;
  }
};
var MAP_REPLACE_USAGE = "[{key1: value1}, {keys: {key1: new_key1}, values: {value1: new_value1}}]";
function mapOrEmpty(call, value2, what) {
  if (value2 === void 0 || value2 === null) return {};
  if (isUnknown(value2) || isMap2(value2)) return value2;
  return fail(call, `${what} must be a map, got ${typeName(value2)}; the form is ${MAP_REPLACE_USAGE}`);
}
function replacementKey(call, key) {
  if (typeof key === "string") return key;
  if (typeof key === "number" || typeof key === "boolean") return pyJsonDumps(key);
  return fail(call, `key replacements must be strings, got ${typeName(key)}`);
}
var mapReplace = {
  name: "map_replace",
  description: "Renames keys and replaces values of a map, by exact match.",
  check(call) {
    if (call.args instanceof FnCall) return;
    const items = literalList(call, 2, 2, MAP_REPLACE_USAGE);
    for (const item of items) {
      if (!(item instanceof FnCall) && item !== null && !isPlainObject(item)) {
        fail(call, `arguments must be a list of two maps ${MAP_REPLACE_USAGE}, got ${describeNode(item)}`);
      }
    }
    if (isPlainObject(items[1])) checkReplacementKeys(call, Object.keys(items[1]));
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, call.args);
    if (isUnknown(args)) return UNKNOWN;
    if (!Array.isArray(args) || args.length !== 2) {
      return fail(call, `arguments must be a list of two maps ${MAP_REPLACE_USAGE}`);
    }
    const input = mapOrEmpty(call, args[0], "the first argument");
    const replacements = mapOrEmpty(call, args[1], "the second argument");
    if (isUnknown(replacements)) return UNKNOWN;
    checkReplacementKeys(call, Object.keys(replacements));
    const keyMap = mapOrEmpty(call, getOwn(replacements, "keys"), '"keys"');
    const valueMap = mapOrEmpty(call, getOwn(replacements, "values"), '"values"');
    if (isUnknown(input) || isUnknown(keyMap) || isUnknown(valueMap)) return UNKNOWN;
    const output = {};
    for (const key of Object.keys(input)) {
      const value2 = input[key];
      const renamed = getOwn(keyMap, key);
      let newKey = key;
      if (renamed !== void 0 && renamed !== null) {
        if (isUnknown(renamed)) return UNKNOWN;
        newKey = replacementKey(call, renamed);
        if (newKey !== key && Object.hasOwn(input, newKey)) {
          fail(call, `key replacement "${newKey}" collides with a key in the input map`);
        } else if (Object.hasOwn(output, newKey)) {
          fail(call, `key replacement "${newKey}" collides with a key in the output map`);
        }
      }
      const replaced2 = typeof value2 === "string" ? getOwn(valueMap, value2) : void 0;
      setOwn(output, newKey, replaced2 === void 0 ? value2 : replaced2);
    }
    return output;
  }
};
function checkReplacementKeys(call, keys) {
  for (const key of keys) {
    if (key !== "keys" && key !== "values") {
      fail(call, `unknown key "${key}" in the replacements; the form is ${MAP_REPLACE_USAGE}`);
    }
  }
}
var CONCAT_USAGE = "[[<value 1>, <value 2>], [<value 3>, <value 4>]]";
function makeListConcat(name, description, unique2) {
  return {
    name,
    description,
    check(call) {
      if (call.args instanceof FnCall) return;
      const items = literalList(call, 0, Number.POSITIVE_INFINITY, CONCAT_USAGE);
      for (const item of items) {
        if (!(item instanceof FnCall) && item !== null && !Array.isArray(item)) {
          fail(call, `items to concatenate must be lists, got ${describeNode(item)}`);
        }
      }
    },
    resolve(call, ctx) {
      const lists = resolveArg(ctx, call.args);
      if (isUnknown(lists)) return UNKNOWN;
      if (!Array.isArray(lists)) return fail(call, `arguments must be a list of lists ${CONCAT_USAGE}`);
      let unknown = false;
      const items = [];
      for (const list2 of lists) {
        if (isUnknown(list2)) unknown = true;
        else if (Array.isArray(list2)) for (const item of list2) items.push(item);
        else if (list2 !== null)
          fail(call, `items to concatenate must be lists, got ${typeName(list2)} ${showValue(list2)}`);
      }
      if (unknown) return UNKNOWN;
      if (!unique2) return items;
      const distinct2 = [];
      for (const item of items) {
        const seen = pyContains(distinct2, item);
        if (seen === void 0) return UNKNOWN;
        if (!seen) distinct2.push(item);
      }
      return distinct2;
    }
  };
}
var listConcat = makeListConcat("list_concat", "Concatenates lists; null items are ignored.", false);
var listConcatUnique = makeListConcat(
  "list_concat_unique",
  "Concatenates lists, keeping only the first occurrence of each item.",
  true
);
var REPEAT_USAGE = '{template: <template with %var%>, for_each: {"%var%": [a, b, c]}}';
var MAX_REPEAT_ITEMS = 1e7;
function repeatArgs(call, variant) {
  const args = call.args;
  if (!isPlainObject(args)) return fail(call, `arguments must be a map of the form ${REPEAT_USAGE}`);
  const map = args;
  const template = getOwn(map, "template");
  const forEach = getOwn(map, "for_each");
  if (template === void 0 || forEach === void 0) {
    return fail(call, `arguments must have "template" and "for_each", as in ${REPEAT_USAGE}`);
  }
  if (!(forEach instanceof FnCall) && !isPlainObject(forEach)) {
    fail(call, `"for_each" must be a map, got ${describeNode(forEach)}`);
  }
  let permutations = true;
  if (variant === "nested" && Object.hasOwn(map, "permutations")) {
    const value2 = map.permutations;
    if (typeof value2 !== "boolean")
      fail(call, `"permutations" must be a boolean, got ${describeNode(value2 ?? null)}`);
    permutations = value2;
  }
  return { template, forEach, permutations };
}
function combinations(lists, permutations) {
  if (!permutations) {
    const length = Math.min(...lists.map((list2) => list2.length));
    return Array.from({ length }, (_, i) => lists.map((list2) => list2[i]));
  }
  let result = [[]];
  for (const list2 of lists) {
    const next = [];
    for (const prefix of result) for (const item of list2) next.push([...prefix, item]);
    result = next;
  }
  return result;
}
function substitute(call, template, keys, values) {
  if (typeof template === "string") {
    let text = template;
    for (let i = 0; i < keys.length; i++) {
      const value2 = values[i];
      if (isUnknown(value2)) {
        if (text.includes(keys[i])) return UNKNOWN;
        continue;
      }
      if (typeof value2 !== "string") {
        fail(
          call,
          `for_each values must be strings to substitute into the template, got ${showValue(value2)}`
        );
      }
      text = text.replaceAll(keys[i], () => value2);
    }
    return text;
  }
  if (Array.isArray(template)) return template.map((item) => substitute(call, item, keys, values));
  if (isMap2(template)) {
    const out = {};
    for (const key of Object.keys(template)) {
      const newKey = substitute(call, key, keys, values);
      const newValue = substitute(call, template[key], keys, values);
      if (isUnknown(newKey)) return UNKNOWN;
      setOwn(out, newKey, newValue);
    }
    return out;
  }
  return template;
}
function makeRepeat(variant, description) {
  return {
    name: "repeat",
    description,
    check(call) {
      repeatArgs(call, variant);
    },
    resolve(call, ctx) {
      const { template: templateNode, forEach: forEachNode, permutations } = repeatArgs(call, variant);
      const forEach = resolveArg(ctx, forEachNode);
      if (isUnknown(forEach)) return UNKNOWN;
      if (!isMap2(forEach)) return fail(call, `"for_each" must be a map, got ${typeName(forEach)}`);
      const keys = Object.keys(forEach);
      if (keys.length === 0) fail(call, '"for_each" must not be empty');
      const allowMaps = variant === "maps" || variant === "nested" && permutations;
      const lists = [];
      const lengths = /* @__PURE__ */ new Set();
      let unknown = false;
      for (const key of keys) {
        const value2 = forEach[key];
        if (value2 === null)
          lists.push([]);
        else if (isUnknown(value2)) unknown = true;
        else if (Array.isArray(value2)) {
          lists.push(value2);
          lengths.add(value2.length);
        } else if (allowMaps && isMap2(value2)) {
          lists.push(Object.keys(value2));
          lengths.add(Object.keys(value2).length);
        } else {
          fail(
            call,
            `the values of "for_each" must be lists${allowMaps ? " or maps" : ""}; "${key}" is a ${typeName(value2)}`
          );
        }
      }
      if (!permutations && lengths.size > 1) {
        fail(call, 'with "permutations: false" the lists in "for_each" must all have the same length');
      }
      if (unknown) return UNKNOWN;
      const count = permutations ? lists.reduce((n, list2) => n * list2.length, 1) : Math.min(...lists.map((list2) => list2.length));
      if (count > MAX_REPEAT_ITEMS) fail(call, `would produce ${count} items, more than ${MAX_REPEAT_ITEMS}`);
      const template = resolveArg(ctx, templateNode);
      return combinations(lists, permutations).map((values) => substitute(call, template, keys, values));
    }
  };
}
var repeat = makeRepeat(
  "lists",
  "Renders a template once for each combination of for_each list items."
);
var repeatWithMap = makeRepeat(
  "maps",
  "Renders a template once for each combination of for_each items (lists, or the keys of maps)."
);
var repeatNested = makeRepeat(
  "nested",
  "Renders a template for each combination of for_each items, or for each position with permutations: false."
);
var FILTER_USAGE = "[<values to remove>, <list>]";
var filter = {
  name: "filter",
  description: "Removes the given values from a list.",
  check(call) {
    literalList(call, 2, 2, FILTER_USAGE);
  },
  resolve(call, ctx) {
    const [valuesNode, listNode] = literalList(call, 2, 2, FILTER_USAGE);
    const list2 = resolveArg(ctx, listNode);
    if (isUnknown(list2)) return UNKNOWN;
    if (!pyTruthy(list2)) return list2;
    if (!Array.isArray(list2)) return fail(call, `can only filter a list, got ${typeName(list2)}`);
    const values = resolveArg(ctx, valuesNode);
    if (isUnknown(values)) return UNKNOWN;
    if (!pyTruthy(values)) return list2;
    if (!Array.isArray(values))
      return fail(call, `the values to remove must be a list, got ${typeName(values)}`);
    const kept = [];
    for (const item of list2) {
      const remove = pyContains(values, item);
      if (remove === void 0) return UNKNOWN;
      if (!remove) kept.push(item);
    }
    return kept;
  }
};
var CONTAINS_USAGE = "[<value>, [<value 1>, <value 2>, ...]]";
var contains = {
  name: "contains",
  description: "Whether a value is in a list (or a substring of a string).",
  check(call) {
    literalList(call, 2, 2, CONTAINS_USAGE);
  },
  resolve(call, ctx) {
    const [valueNode, sequenceNode] = literalList(call, 2, 2, CONTAINS_USAGE);
    const value2 = resolveArg(ctx, valueNode);
    const sequence = resolveArg(ctx, sequenceNode);
    if (isUnknown(sequence)) return UNKNOWN;
    if (typeof sequence === "string") {
      if (isUnknown(value2)) return UNKNOWN;
      if (typeof value2 !== "string")
        return fail(call, `can only look for a string in a string, got ${typeName(value2)}`);
      return sequence.includes(value2);
    }
    if (!Array.isArray(sequence))
      return fail(call, `the second argument must be a list, got ${typeName(sequence)}`);
    return pyContains(sequence, value2) ?? UNKNOWN;
  }
};

// src/template/functions/conditions.ts
var equals = {
  name: "equals",
  description: "A function for comparing whether two values are equal.",
  check: (call) => void argList(call, 2),
  resolve(call, ctx) {
    const [a, b] = call.args.map((n) => ctx.resolve(n));
    if (containsUnknown(a) || containsUnknown(b)) return UNKNOWN;
    return jsonEqual(a, b);
  }
};
function checkOperand(call, node) {
  if (typeof node !== "string" && typeof node !== "boolean" && !(node !== null && typeof node === "object" && !Array.isArray(node))) {
    fail(call, "each operand must be a condition name, a boolean or a condition function");
  }
}
function makeBoolean(name, description) {
  const decisive = name === "or";
  return {
    name,
    description,
    check(call) {
      if (!Array.isArray(call.args)) fail(call, "arguments must be a list of conditions");
      if (call.args.length < 2) fail(call, "needs at least 2 conditions");
      for (const operand of call.args) checkOperand(call, operand);
    },
    resolve(call, ctx) {
      let unknown = false;
      for (const operand of call.args) {
        const value2 = ctx.condition(operand, call.path);
        if (value2 === UNKNOWN) unknown = true;
        else if (value2 === decisive) return decisive;
      }
      return unknown ? UNKNOWN : !decisive;
    }
  };
}
var andFn = makeBoolean("and", "A function that acts as an AND operator on conditions.");
var orFn = makeBoolean("or", "A function that acts as an OR operator on conditions.");
var notFn = {
  name: "not",
  description: "A function that acts as a NOT operator on a condition.",
  check: (call) => checkOperand(call, call.args),
  resolve(call, ctx) {
    const value2 = ctx.condition(call.args, call.path);
    return value2 === UNKNOWN ? UNKNOWN : !value2;
  }
};
function makeIf(nullable) {
  return {
    name: "if",
    description: "A function to return corresponding value based on condition evaluation.",
    parseArgs(raw, path, parse2) {
      if (!Array.isArray(raw) || raw.length < (nullable ? 2 : 3) || raw.length > 3) {
        const form = nullable ? "[condition, value_if_true] or [condition, value_if_true, value_if_false]" : "[condition, value_if_true, value_if_false]";
        throw new TemplateError("function", `if: arguments must be of the form ${form}`, path.slice(0, -1));
      }
      return [
        parse2.condition(raw[0], [...path, 0]),
        ...raw.slice(1).map((item, i) => parse2.value(item, [...path, i + 1]))
      ];
    },
    resolve(call, ctx) {
      const [condition, whenTrue, whenFalse] = call.args;
      const value2 = ctx.condition(condition, call.path);
      if (value2 === UNKNOWN) return UNKNOWN;
      if (value2) return ctx.resolve(whenTrue);
      return whenFalse === void 0 ? OMITTED : ctx.resolve(whenFalse);
    },
    liveBranches(call, evalCondition) {
      const [condition, ...branches] = call.args;
      const value2 = evalCondition(condition);
      if (value2 === void 0) return branches;
      const chosen = value2 ? branches[0] : branches[1];
      return chosen === void 0 ? [] : [chosen];
    }
  };
}
var ifFn = makeIf(false);
var ifNullable = makeIf(true);

// src/template/functions/references.ts
function selectPath(value2, path, missing, stringIndexes = true) {
  let current = value2;
  for (const step of path) {
    if (isUnknown(current) || isUnknown(step)) return UNKNOWN;
    if (Array.isArray(current) || typeof current === "string") {
      const index = typeof step === "number" ? step : stringIndexes ? pyInt2(step) : Number.NaN;
      if (!Number.isInteger(index)) return missing;
      const at = index < 0 ? current.length + index : index;
      if (at < 0 || at >= current.length) return missing;
      current = current[at];
    } else if (current !== null && typeof current === "object") {
      if (typeof step !== "string" || !Object.hasOwn(current, step)) return missing;
      current = current[step];
    } else {
      return missing;
    }
  }
  return current;
}
function pyInt2(step) {
  if (typeof step !== "string" || !/^\s*[-+]?\d+(?:_\d+)*\s*$/.test(step)) return Number.NaN;
  return Number(step.trim().replaceAll("_", ""));
}
var getParam = {
  name: "get_param",
  description: "A function for resolving parameter references.",
  check(call) {
    const args = call.args;
    if (Array.isArray(args)) {
      if (args.length === 0) fail(call, "expected a parameter name");
    } else if (typeof args !== "string" && !(args !== null && typeof args === "object")) {
      fail(call, `argument must be a parameter name or a list [name, path...], got ${typeName(args)}`);
    }
  },
  resolve(call, ctx) {
    const args = Array.isArray(call.args) ? call.args : [call.args];
    const name = resolveString(call, ctx, args[0], "the parameter name");
    if (name === void 0) return UNKNOWN;
    const value2 = ctx.param(name, call.path);
    if (args.length === 1) return value2;
    return selectPath(
      value2,
      args.slice(1).map((n) => ctx.resolve(n)),
      ""
    );
  }
};
function literalName(call, node, what) {
  if (typeof node !== "string" || node === "") fail(call, `${what} must be a resource name (a string)`);
  return node;
}
var getResource = {
  name: "get_resource",
  description: "A function for resolving resource references.",
  check(call) {
    literalName(call, call.args, "the argument");
  },
  referencedResource: (call) => call.args,
  resolve(call, ctx) {
    return ctx.resourceRef(call.args, call.path);
  }
};
function makeGetAttr(variant) {
  const minArgs = variant === "all" ? 1 : 2;
  return {
    name: "get_attr",
    description: "A function for resolving resource attributes.",
    check(call) {
      const args = argList(call, minArgs, Number.POSITIVE_INFINITY);
      literalName(call, args[0], "the first argument");
    },
    referencedResource: (call) => call.args[0],
    resolve(call, ctx) {
      const [resource, attrNode, ...pathNodes] = call.args;
      const name = resource;
      if (attrNode === void 0) return ctx.resourceAttr(name, void 0, call.path);
      const attr2 = ctx.resolve(attrNode);
      if (isUnknown(attr2)) return UNKNOWN;
      if (typeof attr2 !== "string") fail(call, `the attribute name must be a string, got ${typeName(attr2)}`);
      const path = pathNodes.map((n) => ctx.resolve(n));
      const first = path[0];
      if (variant !== "select" && typeof first === "string" && /^resource\.[^.]+$/.test(attr2)) {
        return selectPath(ctx.resourceAttr(name, `${attr2}.${first}`, call.path), path.slice(1), null, false);
      }
      return selectPath(ctx.resourceAttr(name, attr2, call.path), path, null, false);
    }
  };
}
var getAttrThenSelect = makeGetAttr("select");
var getAttr = makeGetAttr("path");
var getAttrAll = makeGetAttr("all");
function attributeOf(call) {
  const attr2 = call.args[1];
  return typeof attr2 === "string" ? attr2 : void 0;
}
var getFile = {
  name: "get_file",
  description: "A function for including a file inline.",
  resolve(call, ctx) {
    const name = resolveString(call, ctx, call.args, "the argument");
    if (name === void 0) return UNKNOWN;
    return ctx.file(name, call.path);
  }
};
var FACADE_SECTIONS2 = ["metadata", "deletion_policy", "update_policy"];
var resourceFacade = {
  name: "resource_facade",
  description: "A function for retrieving data in a parent provider template.",
  check(call) {
    if (!FACADE_SECTIONS2.includes(call.args)) {
      fail(call, `argument must be one of ${FACADE_SECTIONS2.join(", ")}`);
    }
  },
  resolve(call, ctx) {
    return ctx.facade(call.args, call.path);
  }
};

// src/template/functions/url.ts
var ARG_KEYS = ["scheme", "username", "password", "host", "port", "path", "query", "fragment"];
var USES_NETLOC = /* @__PURE__ */ new Set([
  "ftp",
  "http",
  "gopher",
  "nntp",
  "telnet",
  "imap",
  "wais",
  "file",
  "mms",
  "https",
  "shttp",
  "snews",
  "prospero",
  "rtsp",
  "rtsps",
  "rtspu",
  "rsync",
  "svn",
  "svn+ssh",
  "sftp",
  "nfs",
  "git",
  "git+ssh",
  "ws",
  "wss",
  "itms-services"
]);
function checkArgument(call, key, value2) {
  if (value2 instanceof FnCall || isUnknown(value2)) return;
  if (key === "query") {
    if (!isPlainObject(value2)) fail(call, `"query" must be a map, got ${typeName(value2)}`);
  } else if (key === "port") {
    const port = pyInt(value2);
    if (port === void 0) {
      const shown2 = typeof value2 === "string" ? JSON.stringify(value2) : describeNode(value2);
      fail(call, `invalid port ${shown2}; it must be an integer`);
    }
    if (port < 1 || port > 65535) fail(call, `invalid port ${port}; it must be in the range 1-65535`);
  } else if (typeof value2 !== "string") {
    fail(call, `"${key}" must be a string, got ${describeNode(value2)}`);
  }
}
function argumentMap(call) {
  const args = call.args;
  if (!isPlainObject(args)) return fail(call, `arguments must be a map of ${ARG_KEYS.join(", ")}`);
  const invalid2 = Object.keys(args).filter((key) => !ARG_KEYS.includes(key));
  if (invalid2.length > 0)
    fail(call, `invalid arguments ${invalid2.join(", ")}; expected ${ARG_KEYS.join(", ")}`);
  return args;
}
function quote(call, text, safe, spaceAsPlus = false) {
  if (/[\uD800-\uDFFF]/u.test(text)) fail(call, `${JSON.stringify(text)} is not valid Unicode text`);
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.~-]/.test(ch) || byte < 128 && safe.includes(ch)) out += ch;
    else if (spaceAsPlus && ch === " ") out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
function urlencode(call, query) {
  return Object.keys(query).map((key) => `${quote(call, key, "", true)}=${quote(call, pyStr2(query[key]), "", true)}`).join("&");
}
function urlunsplit(scheme, netloc, path, query, fragment) {
  let url = path;
  if (netloc) {
    if (url && !url.startsWith("/")) url = `/${url}`;
    url = `//${netloc}${url}`;
  } else if (url.startsWith("//")) {
    url = `//${url}`;
  } else if (scheme && USES_NETLOC.has(scheme) && (!url || url.startsWith("/"))) {
    url = `//${url}`;
  }
  if (scheme) url = `${scheme}:${url}`;
  if (query) url = `${url}?${query}`;
  if (fragment) url = `${url}#${fragment}`;
  return url;
}
var makeUrl = {
  name: "make_url",
  description: "Builds a correctly escaped URL from scheme, username, password, host, port, path, query and fragment.",
  check(call) {
    const args = argumentMap(call);
    for (const key of Object.keys(args)) checkArgument(call, key, args[key]);
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, argumentMap(call));
    if (!isMap2(args)) return UNKNOWN;
    let unknown = false;
    for (const key of Object.keys(args)) {
      const value2 = args[key];
      checkArgument(call, key, value2);
      if (containsUnknown(value2)) unknown = true;
    }
    const text = (key) => {
      const value2 = getOwn(args, key);
      return typeof value2 === "string" ? value2 : "";
    };
    const scheme = text("scheme");
    if (scheme.includes(":")) fail(call, `"scheme" must not contain ":", got ${JSON.stringify(scheme)}`);
    if (unknown) return UNKNOWN;
    const username = quote(call, text("username"), "");
    const password = quote(call, text("password"), "");
    let netloc = "";
    if (username || password) netloc += `${username}${password ? `:${password}` : ""}@`;
    let host = text("host");
    if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
    host = quote(call, host, ":");
    netloc += host.includes(":") ? `[${host}]` : host;
    const port = getOwn(args, "port");
    if (port !== void 0 && pyTruthy(port)) netloc += `:${pyStr2(port)}`;
    const path = quote(call, text("path"), "/");
    const queryValue = getOwn(args, "query");
    const query = isMap2(queryValue ?? null) ? urlencode(call, queryValue) : "";
    const fragment = quote(call, text("fragment"), "/");
    return urlunsplit(scheme, netloc, path, query.replaceAll("%2F", "/"), fragment);
  }
};

// src/template/yaql/errors.ts
var YaqlError = class extends Error {
  name = "YaqlError";
  /** The bare message, without the column suffix. */
  detail;
  column;
  constructor(detail, offset) {
    const column = offset === void 0 ? void 0 : offset + 1;
    super(column === void 0 ? detail : `${detail} (at column ${column})`);
    this.detail = detail;
    this.column = column;
  }
};
var DEFAULT_YAQL_LIMITS = Object.freeze({
  maxExpressionLength: 1e4,
  maxDepth: 100,
  maxSteps: 1e6
});
var MAX_VALUE_DEPTH = 500;
var CHARS_PER_STEP = 16;

// src/template/yaql/budget.ts
var Budget = class {
  constructor(maxSteps) {
    this.maxSteps = maxSteps;
    this.remaining = maxSteps;
  }
  maxSteps;
  remaining;
  /** Offset of the node being evaluated: where a "too much work" error points. */
  at = 0;
  spend(steps = 1) {
    this.remaining -= steps;
    if (this.remaining < 0) {
      throw new YaqlError(`evaluation exceeded the limit of ${this.maxSteps} steps`, this.at);
    }
  }
  /** Charges for a string (or list) of `length` before it is built. */
  spendChars(length) {
    this.spend(Math.ceil(length / CHARS_PER_STEP));
  }
};
var Fault = class extends Error {
};
function fault(message) {
  throw new Fault(message);
}

// src/template/yaql/values.ts
function isDict(value2) {
  if (value2 instanceof Map) return true;
  if (value2 === null || typeof value2 !== "object" || Array.isArray(value2)) return false;
  const proto = Object.getPrototypeOf(value2);
  return proto === Object.prototype || proto === null;
}
function isInteger(value2) {
  return typeof value2 === "number" && Number.isInteger(value2);
}
function dictEntries(dict2) {
  if (dict2 instanceof Map) return [...dict2];
  return Object.keys(dict2).map((key) => [key, dict2[key] ?? null]);
}
function dictSize(dict2) {
  return dict2 instanceof Map ? dict2.size : Object.keys(dict2).length;
}
function dictGet(dict2, key) {
  if (dict2 instanceof Map) return dict2.get(key);
  if (typeof key !== "string" || !Object.hasOwn(dict2, key)) return void 0;
  return dict2[key] ?? null;
}
function typeName2(value2) {
  if (value2 === null || value2 === void 0) return "null";
  if (typeof value2 === "boolean") return "boolean";
  if (typeof value2 === "number") return Number.isInteger(value2) ? "integer" : "number";
  if (typeof value2 === "string") return "string";
  if (Array.isArray(value2)) return "list";
  if (isDict(value2)) return "dict";
  return "context";
}
function truthy(value2) {
  if (value2 === null || value2 === void 0 || value2 === false || value2 === 0 || value2 === "") return false;
  if (Array.isArray(value2)) return value2.length > 0;
  if (isDict(value2)) return dictSize(value2) > 0;
  return true;
}
function checkDepth(depth) {
  if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
}
function equal(a, b, budget, depth = 0) {
  budget.spend();
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if ((ta === "number" || ta === "boolean") && (tb === "number" || tb === "boolean")) {
    return Number(a) === Number(b);
  }
  checkDepth(depth);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => equal(item, b[i], budget, depth + 1));
  }
  if (isDict(a) && isDict(b)) {
    if (dictSize(a) !== dictSize(b)) return false;
    return dictEntries(a).every(([key, value2]) => {
      const other = dictGet(b, key);
      return other !== void 0 && equal(value2, other, budget, depth + 1);
    });
  }
  return false;
}
function hashKey(value2, budget, depth = 0) {
  budget.spend();
  if (value2 === null || value2 === void 0) return "z";
  if (typeof value2 === "boolean" || typeof value2 === "number") return `n${Number(value2)}`;
  if (typeof value2 === "string") return `s${JSON.stringify(value2)}`;
  checkDepth(depth);
  if (Array.isArray(value2)) return `[${value2.map((v) => hashKey(v, budget, depth + 1)).join(",")}]`;
  if (isDict(value2)) {
    const parts = dictEntries(value2).map(
      ([k, v]) => `${hashKey(k, budget)}:${hashKey(v, budget, depth + 1)}`
    );
    return `{${parts.sort().join(",")}}`;
  }
  return fault(`a ${typeName2(value2)} cannot be compared`);
}
function compare(a, b) {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  return fault(`cannot compare ${typeName2(a)} with ${typeName2(b)}`);
}
function compareStrings(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i);
    const cb = b.codePointAt(i);
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 65535) i++;
  }
  return a.length < b.length ? -1 : 1;
}
function numberToString(n) {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n === 0 ? 0 : n) : BigInt(n).toString();
  if (Math.abs(n) >= 1e-4) return String(n);
  const [mantissa, exponent] = n.toExponential().split("e");
  const sign = exponent.startsWith("-") ? "-" : "+";
  return `${mantissa}e${sign}${exponent.replace(/^[-+]/, "").padStart(2, "0")}`;
}
function toStr(value2, budget) {
  if (typeof value2 === "string") return value2;
  const text = toJsonText(value2, budget, 0);
  budget.spendChars(text.length);
  return text;
}
function toJsonText(value2, budget, depth) {
  budget.spend();
  if (value2 === null || value2 === void 0) return "null";
  if (typeof value2 === "boolean") return value2 ? "true" : "false";
  if (typeof value2 === "number") return numberToString(value2);
  if (typeof value2 === "string") return depth === 0 ? value2 : JSON.stringify(value2);
  checkDepth(depth);
  if (Array.isArray(value2)) return `[${value2.map((v) => toJsonText(v, budget, depth + 1)).join(", ")}]`;
  if (isDict(value2)) {
    const parts = dictEntries(value2).map(
      ([k, v]) => `${JSON.stringify(keyToString(k, budget))}: ${toJsonText(v, budget, depth + 1)}`
    );
    return `{${parts.join(", ")}}`;
  }
  return fault(`a ${typeName2(value2)} cannot be converted to a string`);
}
function keyToString(key, budget) {
  if (typeof key === "string") return key;
  if (key === null || typeof key === "number" || typeof key === "boolean") return toStr(key, budget);
  return fault(`a ${typeName2(key)} cannot be a dict key`);
}
function setOwn2(target, key, value2) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value: value2, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value2;
  }
}
var LAZY_RESULTS = /* @__PURE__ */ new WeakSet();
function lazy(list2) {
  LAZY_RESULTS.add(list2);
  return list2;
}
function isLazy(value2) {
  return Array.isArray(value2) && LAZY_RESULTS.has(value2);
}

// src/template/yaql/functions/types.ts
function define(name, signature, fn, named = "params") {
  const params = [];
  let rest = null;
  for (const spec of signature) {
    const match = /^(\.\.\.)?(\w+)(\?)?(:lambda)?$/.exec(spec);
    if (!match) throw new Error(`bad parameter spec ${spec}`);
    const param = { name: match[2], optional: match[3] !== void 0, lambda: match[4] !== void 0 };
    if (match[1]) rest = param;
    else params.push(param);
  }
  return { name, params, rest, named, fn };
}
var Call = class {
  constructor(def, budget, scope, args, rest, mappings, bindings) {
    this.def = def;
    this.budget = budget;
    this.scope = scope;
    this.args = args;
    this.rest = rest;
    this.mappings = mappings;
    this.bindings = bindings;
  }
  def;
  budget;
  scope;
  args;
  rest;
  mappings;
  bindings;
  has(i) {
    return this.args[i] !== void 0;
  }
  value(i) {
    return this.args[i] ?? null;
  }
  /** The argument, or `fallback` when it was not given. */
  valueOr(i, fallback) {
    return this.args[i] === void 0 ? fallback : this.args[i];
  }
  /** A list argument; charges a step per item, since nearly every caller walks the whole list. */
  list(i) {
    const value2 = this.value(i);
    if (!Array.isArray(value2)) this.wrongType(i, "a list", value2);
    this.budget.spend(value2.length);
    return value2;
  }
  dict(i) {
    const value2 = this.value(i);
    if (!isDict(value2)) this.wrongType(i, "a dict", value2);
    return value2;
  }
  string(i) {
    const value2 = this.value(i);
    if (typeof value2 !== "string") this.wrongType(i, "a string", value2);
    return value2;
  }
  /** An optional string argument, where null also means "not given". */
  optString(i) {
    return this.value(i) === null ? null : this.string(i);
  }
  number(i) {
    const value2 = this.value(i);
    if (typeof value2 !== "number") this.wrongType(i, "a number", value2);
    return value2;
  }
  int(i) {
    const value2 = this.value(i);
    if (!isInteger(value2)) this.wrongType(i, "an integer", value2);
    return value2;
  }
  intOr(i, fallback) {
    return this.has(i) ? this.int(i) : fallback;
  }
  lambda(i) {
    return this.args[i];
  }
  optLambda(i) {
    return this.args[i];
  }
  fail(message) {
    return fault(`${this.def.name}(): ${message}`);
  }
  wrongType(i, expected, value2) {
    const param = this.def.params[i]?.name ?? this.def.rest?.name ?? "argument";
    return this.fail(`${param} must be ${expected}, not ${article(typeName2(value2))}`);
  }
};
function article(type) {
  return type === "null" ? "null" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

// src/template/yaql/functions/core.ts
var PY_INT2 = /^[+-]?\d+(?:_\d+)*$/;
var PY_FLOAT = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
var PY_SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;
function toInt(c) {
  const value2 = c.value(0);
  if (value2 === null) return 0;
  if (typeof value2 === "boolean") return value2 ? 1 : 0;
  if (typeof value2 === "number") {
    if (!Number.isFinite(value2)) return c.fail(`cannot convert ${value2} to an integer`);
    return Math.trunc(value2) + 0;
  }
  if (typeof value2 === "string") {
    const text = value2.trim();
    if (!PY_INT2.test(text)) return c.fail(`invalid integer ${JSON.stringify(value2)}`);
    return Number(text.replaceAll("_", ""));
  }
  return c.wrongType(0, "a number, string, boolean or null", value2);
}
function toFloat(c) {
  const value2 = c.value(0);
  if (value2 === null) return 0;
  if (typeof value2 === "boolean") return value2 ? 1 : 0;
  if (typeof value2 === "number") return value2;
  if (typeof value2 === "string") {
    const text = value2.trim();
    const special = PY_SPECIAL_FLOAT.exec(text);
    if (special) {
      if (special[2].toLowerCase() === "nan") return Number.NaN;
      return special[1] === "-" ? -Infinity : Infinity;
    }
    if (!PY_FLOAT.test(text)) return c.fail(`invalid number ${JSON.stringify(value2)}`);
    return Number(text.replaceAll("_", ""));
  }
  return c.wrongType(0, "a number, string, boolean or null", value2);
}
function coalesce(c) {
  for (const arg of c.rest) {
    const value2 = arg();
    if (value2 !== null) return value2;
  }
  return null;
}
function switchFn(c) {
  if (c.rest.length > 0) return c.fail('takes only "condition => value" pairs');
  for (const mapping of c.mappings) if (truthy(mapping.key())) return mapping.value();
  return null;
}
function letFn(c) {
  const vars = /* @__PURE__ */ new Map();
  for (const [i, value2] of c.rest.entries()) vars.set(String(i + 1), value2);
  for (const [name, value2] of c.bindings) vars.set(name, value2);
  return c.scope.child(vars);
}
function abs(c) {
  return Math.abs(c.number(0));
}
var CORE_FUNCTIONS = [
  define("int", ["value"], toInt),
  define("float", ["value"], toFloat),
  define("bool", ["value"], (c) => truthy(c.value(0))),
  define("isInteger", ["value"], (c) => isInteger(c.value(0))),
  define("isNumber", ["value"], (c) => typeof c.value(0) === "number"),
  define("isBoolean", ["value"], (c) => typeof c.value(0) === "boolean"),
  define("abs", ["number"], abs),
  define("coalesce", ["...args:lambda"], coalesce),
  define("switch", ["...cases"], switchFn, "mappings"),
  define("let", ["...args"], letFn, "bindings"),
  define("with", ["...args"], letFn)
];

// src/template/yaql/operators.ts
function applyBinary(op, left, right, budget) {
  switch (op) {
    case "=":
      return equal(left, right, budget);
    case "!=":
      return !equal(left, right, budget);
    case "<":
      return compare(left, right) < 0;
    case ">":
      return compare(left, right) > 0;
    case "<=":
      return compare(left, right) <= 0;
    case ">=":
      return compare(left, right) >= 0;
    case "in":
      return contains2(right, left, budget);
    case "+":
      return add(left, right, budget);
    case "*":
      return multiply(left, right, budget);
    default:
      return arithmetic(op, left, right);
  }
}
function applyUnary(op, operand) {
  if (op === "not") return !truthy(operand);
  if (typeof operand !== "number") return fault(`unary "${op}" needs a number, not ${typeName2(operand)}`);
  return op === "-" ? -operand : operand;
}
function contains2(collection, value2, budget) {
  if (Array.isArray(collection)) return collection.some((item) => equal(item, value2, budget));
  if (typeof collection === "string" && typeof value2 === "string") return collection.includes(value2);
  return fault(
    `"in" needs a list (or a string in a string), not ${typeName2(value2)} in ${typeName2(collection)}`
  );
}
function add(left, right, budget) {
  if (typeof left === "number" && typeof right === "number") return left + right;
  if (typeof left === "string" && typeof right === "string") {
    budget.spendChars(left.length + right.length);
    return left + right;
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    budget.spend(left.length + right.length);
    return [...left, ...right];
  }
  if (isDict(left) && isDict(right)) return mergeDicts(left, right, budget);
  return fault(`cannot add ${typeName2(left)} and ${typeName2(right)}`);
}
function mergeDicts(left, right, budget) {
  const entries2 = [...dictEntries(left), ...dictEntries(right)];
  budget.spend(entries2.length);
  return new Map(entries2);
}
function multiply(left, right, budget) {
  if (typeof left === "number" && typeof right === "number") return left * right;
  const [items, times] = isInteger(left) ? [right, left] : [left, right];
  if (isInteger(times) && (typeof items === "string" || Array.isArray(items))) {
    const count = Math.max(0, times);
    if (typeof items === "string") {
      budget.spendChars(items.length * count);
      return items.repeat(count);
    }
    budget.spend(items.length * count);
    const out = [];
    for (let i = 0; i < count; i++) out.push(...items);
    return out;
  }
  return fault(`cannot multiply ${typeName2(left)} by ${typeName2(right)}`);
}
function arithmetic(op, left, right) {
  if (typeof left !== "number" || typeof right !== "number") {
    return fault(`"${op}" needs numbers, not ${typeName2(left)} and ${typeName2(right)}`);
  }
  if (op === "-") return left - right;
  if (right === 0) return fault(op === "/" ? "division by zero" : "modulo by zero");
  if (op === "/") {
    const quotient = left / right;
    return Number.isInteger(left) && Number.isInteger(right) ? Math.floor(quotient) : quotient;
  }
  const remainder = left % right;
  return remainder !== 0 && remainder < 0 !== right < 0 ? remainder + right : remainder;
}
function getAttribute(object, name, budget) {
  budget.spend();
  if (isDict(object)) {
    const value2 = dictGet(object, name);
    return value2 === void 0 ? fault(`key "${name}" not found`) : value2;
  }
  if (Array.isArray(object)) return lazy(object.map((item) => getAttribute(item, name, budget)));
  return fault(`cannot read key "${name}" of ${typeName2(object)}`);
}
function getIndex(object, args, hasDefault) {
  const key = args[0];
  if (isDict(object)) {
    const value2 = dictGet(object, key);
    if (value2 !== void 0) return value2;
    return hasDefault ? args[1] : fault(`key ${JSON.stringify(key) ?? String(key)} not found`);
  }
  if (hasDefault) return fault(`an index with a default needs a dict, not ${typeName2(object)}`);
  if (Array.isArray(object)) {
    if (!isInteger(key)) return fault(`a list index must be an integer, not ${typeName2(key)}`);
    const at = key < 0 ? object.length + key : key;
    if (at < 0 || at >= object.length)
      return fault(`list index ${key} out of range (length ${object.length})`);
    return object[at];
  }
  return fault(`cannot index ${typeName2(object)}`);
}

// src/template/yaql/functions/queries.ts
function where(c) {
  const predicate = c.lambda(1);
  return lazy(c.list(0).filter((item) => truthy(predicate(item))));
}
function select(c) {
  const selector = c.lambda(1);
  return lazy(c.list(0).map((item) => selector(item)));
}
function selectMany(c) {
  const selector = c.lambda(1);
  const out = [];
  for (const item of c.list(0)) {
    const inner = selector(item);
    if (Array.isArray(inner)) {
      c.budget.spend(inner.length);
      out.push(...inner);
    } else {
      out.push(inner);
    }
  }
  return lazy(out);
}
function skip(c) {
  return lazy(c.list(0).slice(Math.max(0, c.int(1))));
}
function take(c) {
  return lazy(c.list(0).slice(0, Math.max(0, c.int(1))));
}
function takeWhile(c) {
  const items = c.list(0);
  const predicate = c.lambda(1);
  const end = items.findIndex((item) => !truthy(predicate(item)));
  return lazy(end < 0 ? [...items] : items.slice(0, end));
}
function skipWhile(c) {
  const items = c.list(0);
  const predicate = c.lambda(1);
  const start2 = items.findIndex((item) => !truthy(predicate(item)));
  return lazy(start2 < 0 ? [] : items.slice(start2));
}
function distinct(c) {
  const keySelector = c.optLambda(1);
  const seen = /* @__PURE__ */ new Set();
  return lazy(
    c.list(0).filter((item) => {
      const key = hashKey(keySelector ? keySelector(item) : item, c.budget);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
  );
}
function any(c) {
  const predicate = c.optLambda(1);
  return c.list(0).some((item) => predicate ? truthy(predicate(item)) : true);
}
function all(c) {
  const predicate = c.optLambda(1);
  return c.list(0).every((item) => truthy(predicate ? predicate(item) : item));
}
function indexWhere(c, fromEnd) {
  const items = c.list(0);
  const predicate = c.lambda(1);
  const test = (item) => truthy(predicate(item));
  return fromEnd ? items.findLastIndex(test) : items.findIndex(test);
}
function aggregate(c) {
  const items = c.list(0);
  const selector = c.lambda(1);
  if (!c.has(2) && items.length === 0) return c.fail("empty list and no seed");
  let accumulator = c.has(2) ? c.value(2) : items[0];
  for (let i = c.has(2) ? 0 : 1; i < items.length; i++) accumulator = selector(accumulator, items[i]);
  return accumulator;
}
var ORDERINGS = /* @__PURE__ */ new WeakMap();
function sortBy(c, ordering) {
  const { source, keys } = ordering;
  c.budget.spend(source.length * keys.length);
  const rows = source.map((item, index) => ({ item, index, keys: keys.map((k) => k.selector(item)) }));
  rows.sort((a, b) => {
    for (let level = 0; level < keys.length; level++) {
      const order = compare(a.keys[level], b.keys[level]);
      if (order !== 0) return keys[level].descending ? -order : order;
    }
    return a.index - b.index;
  });
  const sorted = rows.map((row) => row.item);
  ORDERINGS.set(sorted, ordering);
  return sorted;
}
function orderBy(descending) {
  return (c) => sortBy(c, { source: c.list(0), keys: [{ selector: c.lambda(1), descending }] });
}
function thenBy(descending) {
  return (c) => {
    const ordering = ORDERINGS.get(c.list(0));
    if (ordering === void 0) return c.fail("needs the result of orderBy() or another thenBy()");
    return sortBy(c, {
      source: ordering.source,
      keys: [...ordering.keys, { selector: c.lambda(1), descending }]
    });
  };
}
function groupBy(c) {
  const keySelector = c.lambda(1);
  const valueSelector = c.optLambda(2);
  const aggregator = c.optLambda(3);
  const groups2 = /* @__PURE__ */ new Map();
  for (const item of c.list(0)) {
    const key = keySelector(item);
    const value2 = valueSelector ? valueSelector(item) : item;
    const hash = hashKey(key, c.budget);
    const group = groups2.get(hash);
    if (group) group[1].push(value2);
    else groups2.set(hash, [key, [value2]]);
  }
  return lazy([...groups2.values()].map(([key, values]) => [key, aggregator ? aggregator(values) : values]));
}
function zip(c) {
  const lists = [c.list(0), ...c.rest.map((_, i) => restList(c, i))];
  const length = Math.min(...lists.map((l) => l.length));
  c.budget.spend(length * lists.length);
  return lazy(Array.from({ length }, (_, i) => lists.map((l) => l[i])));
}
function restList(c, i) {
  const value2 = c.rest[i];
  if (!Array.isArray(value2)) return fault(`${c.def.name}(): every argument must be a list`);
  c.budget.spend(value2.length);
  return value2;
}
var QUERY_FUNCTIONS = [
  define("where", ["collection", "predicate:lambda"], where),
  define("filter", ["collection", "predicate:lambda"], where),
  define("select", ["collection", "selector:lambda"], select),
  define("map", ["collection", "selector:lambda"], select),
  define("selectMany", ["collection", "selector:lambda"], selectMany),
  define("skip", ["collection", "count"], skip),
  define("take", ["collection", "count"], take),
  define("limit", ["collection", "count"], take),
  define("takeWhile", ["collection", "predicate:lambda"], takeWhile),
  define("skipWhile", ["collection", "predicate:lambda"], skipWhile),
  define("distinct", ["collection", "keySelector?:lambda"], distinct),
  define("any", ["collection", "predicate?:lambda"], any),
  define("all", ["collection", "predicate?:lambda"], all),
  define("indexWhere", ["collection", "predicate:lambda"], (c) => indexWhere(c, false)),
  define("lastIndexWhere", ["collection", "predicate:lambda"], (c) => indexWhere(c, true)),
  define("aggregate", ["collection", "selector:lambda", "seed?"], aggregate),
  define("reduce", ["collection", "selector:lambda", "seed?"], aggregate),
  define("orderBy", ["collection", "selector:lambda"], orderBy(false)),
  define("orderByDescending", ["collection", "selector:lambda"], orderBy(true)),
  define("thenBy", ["collection", "selector:lambda"], thenBy(false)),
  define("thenByDescending", ["collection", "selector:lambda"], thenBy(true)),
  define(
    "groupBy",
    ["collection", "keySelector:lambda", "valueSelector?:lambda", "aggregator?:lambda"],
    groupBy
  ),
  define("zip", ["collection", "...collections"], zip)
];

// src/template/yaql/functions/lists.ts
function len(c) {
  const value2 = c.value(0);
  if (typeof value2 === "string") return [...value2].length;
  if (Array.isArray(value2)) return value2.length;
  if (isDict(value2)) return dictSize(value2);
  return c.wrongType(0, "a string, list or dict", value2);
}
function sum(c) {
  const items = c.list(0);
  if (!c.has(1) && items.length === 0) return c.fail("empty list and no initial value");
  let total = c.has(1) ? c.value(1) : items[0];
  for (let i = c.has(1) ? 0 : 1; i < items.length; i++) total = applyBinary("+", total, items[i], c.budget);
  return total;
}
function extreme(sign) {
  const better = (a, b) => compare(b, a) * sign > 0 ? b : a;
  return (c) => {
    const first = c.value(0);
    if (!Array.isArray(first)) {
      if (!c.has(1)) return c.fail("needs a list, or two values to compare");
      return better(first, c.value(1));
    }
    const items = c.list(0);
    if (!c.has(1) && items.length === 0) return c.fail("empty list and no initial value");
    return c.has(1) ? items.reduce(better, c.value(1)) : items.slice(1).reduce(better, items[0]);
  };
}
function firstOrLast(fromEnd) {
  return (c) => {
    const items = c.list(0);
    if (items.length > 0) return fromEnd ? items[items.length - 1] : items[0];
    return c.has(1) ? c.value(1) : c.fail("the list is empty and no default is given");
  };
}
function single(c) {
  const items = c.list(0);
  if (items.length !== 1) return c.fail(`the list has ${items.length} items, not exactly one`);
  return items[0];
}
function range(c) {
  const [start2, stop] = c.has(1) ? [c.int(0), c.int(1)] : [0, c.int(0)];
  const step = c.intOr(2, 1);
  if (step === 0) return c.fail("step must not be zero");
  const length = Math.max(0, Math.ceil((stop - start2) / step));
  c.budget.spend(length);
  return lazy(Array.from({ length }, (_, i) => start2 + i * step));
}
function flatten(c) {
  const out = [];
  const walk = (items, depth) => {
    if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    c.budget.spend(items.length);
    for (const item of items) {
      if (Array.isArray(item)) walk(item, depth + 1);
      else out.push(item);
    }
  };
  walk(c.list(0), 0);
  return lazy(out);
}
function list(c) {
  const out = [];
  const add2 = (value2, depth) => {
    if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    c.budget.spend();
    if (isLazy(value2)) for (const item of value2) add2(item, depth + 1);
    else out.push(value2);
  };
  for (const arg of c.rest) add2(arg, 0);
  return out;
}
function unique(items, c) {
  const seen = /* @__PURE__ */ new Set();
  return items.filter((item) => {
    const key = hashKey(item, c.budget);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
function setOperation(kind) {
  return (c) => {
    const left = c.list(0);
    const right = c.list(1);
    const inRight = new Set(right.map((item) => hashKey(item, c.budget)));
    const inLeft = new Set(left.map((item) => hashKey(item, c.budget)));
    switch (kind) {
      case "union":
        return unique([...left, ...right], c);
      case "intersect":
        return unique(
          left.filter((item) => inRight.has(hashKey(item, c.budget))),
          c
        );
      case "difference":
        return unique(
          left.filter((item) => !inRight.has(hashKey(item, c.budget))),
          c
        );
      default:
        return unique(
          [
            ...left.filter((item) => !inRight.has(hashKey(item, c.budget))),
            ...right.filter((item) => !inLeft.has(hashKey(item, c.budget)))
          ],
          c
        );
    }
  };
}
function concat(c) {
  const args = c.rest;
  if (args.length === 0) return c.fail("needs at least one argument");
  if (args.every((a) => typeof a === "string")) {
    const text = args.join("");
    c.budget.spendChars(text.length);
    return text;
  }
  if (args.every((a) => Array.isArray(a))) return lazy(args.flatMap((_, i) => restList(c, i)));
  return c.fail(`needs all strings or all lists, not ${args.map(typeName2).join(", ")}`);
}
function repeat2(c) {
  const times = c.int(1);
  if (times < 0) return c.fail("endless repetition is not supported; give a count");
  c.budget.spend(times);
  return lazy(new Array(times).fill(c.value(0)));
}
function deleteItems(c) {
  const target = c.value(0);
  if (isDict(target)) return withoutKeys(c, c.rest);
  const items = c.list(0);
  const position = c.rest[0];
  const count = c.rest[1] ?? 1;
  if (!isInteger(position) || !isInteger(count)) return c.fail("needs an integer position and count");
  return lazy(items.filter((_, i) => i < position || count >= 0 && i >= position + count));
}
function withoutKeys(c, keys) {
  const entries2 = dictEntries(c.dict(0));
  c.budget.spend(entries2.length + keys.length);
  const drop2 = new Set(keys.map((key) => hashKey(key, c.budget)));
  return new Map(entries2.filter(([key]) => !drop2.has(hashKey(key, c.budget))));
}
var LIST_FUNCTIONS = [
  define("len", ["value"], len),
  define("count", ["collection"], (c) => c.list(0).length),
  define("sum", ["collection", "initial?"], sum),
  define("max", ["collection", "initial?"], extreme(1)),
  define("min", ["collection", "initial?"], extreme(-1)),
  define("first", ["collection", "default?"], firstOrLast(false)),
  define("last", ["collection", "default?"], firstOrLast(true)),
  define("single", ["collection"], single),
  define("range", ["start", "stop?", "step?"], range),
  define("flatten", ["collection"], flatten),
  define("toList", ["collection"], (c) => [...c.list(0)]),
  define("list", ["...args"], list),
  define("toSet", ["collection"], (c) => unique(c.list(0), c)),
  define("union", ["left", "right"], setOperation("union")),
  define("intersect", ["left", "right"], setOperation("intersect")),
  define("difference", ["left", "right"], setOperation("difference")),
  define("symmetricDifference", ["left", "right"], setOperation("symmetricDifference")),
  define(
    "contains",
    ["collection", "value"],
    (c) => c.list(0).some((item) => equal(item, c.value(1), c.budget))
  ),
  define("append", ["collection", "...values"], (c) => lazy([...c.list(0), ...c.rest])),
  define(
    "enumerate",
    ["collection", "start?"],
    (c) => lazy(c.list(0).map((item, i) => [i + c.intOr(1, 0), item]))
  ),
  define("reverse", ["collection"], (c) => [...c.list(0)].reverse()),
  define("concat", ["...args"], concat),
  define("repeat", ["value", "times"], repeat2),
  define("delete", ["collection", "...args"], deleteItems),
  define("defaultIfEmpty", ["collection", "default"], (c) => c.list(0).length > 0 ? c.list(0) : c.list(1)),
  define("isList", ["value"], (c) => Array.isArray(c.value(0)))
];

// src/template/yaql/functions/dicts.ts
function checkKey(c, key) {
  if (key !== null && typeof key === "object") {
    return c.fail(`a dict key must be a string, number, boolean or null, not ${typeName2(key)}`);
  }
  return key;
}
function dict(c) {
  const out = /* @__PURE__ */ new Map();
  if (c.mappings.length > 0) {
    if (c.rest.length > 0) return c.fail('takes either "key => value" pairs or one list of pairs, not both');
    for (const mapping of c.mappings) out.set(checkKey(c, mapping.key()), mapping.value());
    return out;
  }
  if (c.rest.length === 0) return out;
  if (c.rest.length > 1 || !Array.isArray(c.rest[0])) {
    return c.fail('takes "key => value" pairs or one list of [key, value] pairs');
  }
  c.budget.spend(c.rest[0].length);
  for (const pair of c.rest[0]) {
    if (!Array.isArray(pair) || pair.length < 2) {
      return c.fail(`every item must be a [key, value] pair, not ${typeName2(pair)}`);
    }
    out.set(checkKey(c, pair[0]), pair[1]);
  }
  return out;
}
function toDict(c) {
  const keySelector = c.lambda(1);
  const valueSelector = c.optLambda(2);
  const out = /* @__PURE__ */ new Map();
  for (const item of c.list(0))
    out.set(checkKey(c, keySelector(item)), valueSelector ? valueSelector(item) : item);
  return out;
}
function entries(c) {
  const all2 = dictEntries(c.dict(0));
  c.budget.spend(all2.length);
  return all2;
}
function get(c) {
  const value2 = dictGet(c.dict(0), c.value(1));
  return value2 === void 0 ? c.value(2) : value2;
}
function set(c) {
  const out = new Map(entries(c));
  if (c.mappings.length > 0 && c.rest.length === 0) {
    for (const mapping of c.mappings) out.set(checkKey(c, mapping.key()), mapping.value());
  } else if (c.rest.length === 2 && c.mappings.length === 0) {
    out.set(checkKey(c, c.rest[0]), c.rest[1]);
  } else if (c.rest.length === 1 && isDict(c.rest[0]) && c.mappings.length === 0) {
    for (const [key, value2] of dictEntries(c.rest[0])) out.set(key, value2);
  } else {
    return c.fail('takes a key and a value, a dict, or "key => value" pairs');
  }
  c.budget.spend(out.size);
  return out;
}
function mergeWith(c) {
  const budget = c.budget;
  const listMerger = c.optLambda(2) ?? ((a, b) => unique([...a, ...b], c));
  const itemMerger = c.optLambda(3) ?? ((_a, b) => b);
  const maxLevels = c.intOr(4, 0);
  const merge = (left, right, levels, depth) => {
    if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    const out = /* @__PURE__ */ new Map();
    for (const [key, value1] of dictEntries(left)) {
      budget.spend();
      const value2 = dictGet(right, key);
      if (value2 === void 0) {
        out.set(key, value1);
      } else if (levels !== 1 && isDict(value2)) {
        if (!isDict(value1)) fault(`mergeWith(): cannot merge ${typeName2(value1)} with dict`);
        out.set(key, merge(value1, value2, levels === 0 ? 0 : levels - 1, depth + 1));
      } else if (levels !== 1 && Array.isArray(value2)) {
        if (!Array.isArray(value1)) fault(`mergeWith(): cannot merge ${typeName2(value1)} with list`);
        out.set(key, listMerger(value1, value2));
      } else {
        out.set(key, itemMerger(value1, value2));
      }
    }
    for (const [key, value2] of dictEntries(right)) {
      budget.spend();
      if (!out.has(key)) out.set(key, value2);
    }
    return out;
  };
  return merge(c.dict(0), c.dict(1), maxLevels, 0);
}
var DICT_FUNCTIONS = [
  define("dict", ["...items"], dict, "mappings"),
  define("toDict", ["collection", "keySelector:lambda", "valueSelector?:lambda"], toDict),
  define("keys", ["dict"], (c) => entries(c).map(([key]) => key)),
  define("values", ["dict"], (c) => entries(c).map(([, value2]) => value2)),
  define("items", ["dict"], (c) => entries(c).map(([key, value2]) => [key, value2])),
  define("get", ["dict", "key", "default?"], get),
  define("set", ["dict", "...args"], set, "mappings"),
  define("containsKey", ["dict", "key"], (c) => dictGet(c.dict(0), c.value(1)) !== void 0),
  define(
    "containsValue",
    ["dict", "value"],
    (c) => entries(c).some(([, v]) => equal(v, c.value(1), c.budget))
  ),
  define(
    "mergeWith",
    ["dict", "another", "listMerger?:lambda", "itemMerger?:lambda", "maxLevels?"],
    mergeWith
  ),
  define("deleteAll", ["dict", "keys"], (c) => withoutKeys(c, c.list(1))),
  define("isDict", ["value"], (c) => isDict(c.value(0)))
];

// src/template/yaql/functions/strings.ts
var PY_SPACE2 = new Set(
  [
    [9, 13],
    [28, 32],
    [133, 133],
    [160, 160],
    [5760, 5760],
    [8192, 8202],
    [8232, 8233],
    [8239, 8239],
    [8287, 8287],
    [12288, 12288]
  ].flatMap(
    ([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i))
  )
);
function isSpace(ch) {
  return PY_SPACE2.has(ch);
}
function sliceBounds(length, start2, end) {
  const clamp = (i) => Math.min(length, Math.max(0, i < 0 ? i + length : i));
  return [clamp(start2), clamp(end)];
}
function substring(c) {
  const chars = [...c.string(0)];
  let start2 = c.int(1);
  let length = c.intOr(2, -1);
  if (length < 0) length = chars.length;
  if (start2 < 0) start2 += chars.length;
  const [from, to] = sliceBounds(chars.length, start2, start2 + length);
  return chars.slice(from, to).join("");
}
function indexOf(fromEnd) {
  return (c) => {
    const target = c.value(0);
    if (Array.isArray(target)) {
      const items = c.list(0);
      const test = (item) => equal(item, c.value(1), c.budget);
      return fromEnd ? items.findLastIndex(test) : items.findIndex(test);
    }
    const chars = [...c.string(0)];
    const sub = [...c.string(1)];
    let start2 = c.intOr(2, 0);
    let end = chars.length;
    if (c.has(3)) {
      if (start2 < 0) start2 += chars.length;
      const length = c.int(3);
      end = length < 0 ? chars.length : start2 + length;
    }
    if ((start2 < 0 ? start2 + chars.length : start2) > chars.length) return -1;
    const [from, to] = sliceBounds(chars.length, start2, end);
    c.budget.spendChars(chars.length);
    const matchesAt = (i) => sub.every((ch, k) => chars[i + k] === ch);
    if (fromEnd) {
      for (let i = to - sub.length; i >= from; i--) if (matchesAt(i)) return i;
    } else {
      for (let i = from; i + sub.length <= to; i++) if (matchesAt(i)) return i;
    }
    return -1;
  };
}
function split(fromEnd) {
  return (c) => {
    const text = c.string(0);
    const separator = c.optString(1);
    const maxSplits = c.intOr(2, -1);
    c.budget.spendChars(text.length);
    if (separator === "") return c.fail("empty separator");
    if (separator !== null) {
      const parts = text.split(separator);
      if (maxSplits < 0 || parts.length <= maxSplits + 1) return parts;
      return fromEnd ? [parts.slice(0, parts.length - maxSplits).join(separator), ...parts.slice(parts.length - maxSplits)] : [...parts.slice(0, maxSplits), parts.slice(maxSplits).join(separator)];
    }
    if (fromEnd) return splitWhitespace([...text].reverse().join(""), maxSplits, true);
    return splitWhitespace(text, maxSplits, false);
  };
}
function splitWhitespace(text, maxSplits, reversed) {
  const chars = [...text];
  const parts = [];
  let i = 0;
  for (; ; ) {
    while (i < chars.length && isSpace(chars[i])) i++;
    if (i >= chars.length) break;
    if (maxSplits >= 0 && parts.length === maxSplits) {
      parts.push(chars.slice(i).join(""));
      break;
    }
    const start2 = i;
    while (i < chars.length && !isSpace(chars[i])) i++;
    parts.push(chars.slice(start2, i).join(""));
  }
  if (!reversed) return parts;
  return parts.reverse().map((part) => [...part].reverse().join(""));
}
function strip(text, chars, left, right) {
  const set2 = chars === null ? null : new Set(chars);
  const strippable = (ch) => set2 === null ? isSpace(ch) : set2.has(ch);
  const cps = [...text];
  let from = 0;
  let to = cps.length;
  if (left) while (from < to && strippable(cps[from])) from++;
  if (right) while (to > from && strippable(cps[to - 1])) to--;
  return cps.slice(from, to).join("");
}
function trim(left, right) {
  return (c) => strip(c.string(0), c.optString(1), left, right);
}
function replaceText(c, text, old, replacement, count) {
  if (old === "") {
    const chars = [...text];
    const done2 = count < 0 ? chars.length + 1 : Math.min(count, chars.length + 1);
    c.budget.spendChars(text.length + done2 * replacement.length);
    const body = chars.map((ch, i) => i < done2 ? replacement + ch : ch).join("");
    return done2 > chars.length ? body + replacement : body;
  }
  const parts = text.split(old);
  const done = count < 0 ? parts.length - 1 : Math.min(count, parts.length - 1);
  c.budget.spendChars(text.length + done * replacement.length);
  const replaced2 = parts.slice(0, done + 1).join(replacement);
  return done < parts.length - 1 ? `${replaced2}${old}${parts.slice(done + 1).join(old)}` : replaced2;
}
function replace(c) {
  if (Array.isArray(c.value(0))) return replaceItems(c);
  let text = c.string(0);
  if (isDict(c.value(1))) {
    const count = c.has(3) ? c.int(3) : c.intOr(2, -1);
    for (const [key, value2] of dictEntries(c.dict(1))) {
      text = replaceText(c, text, toStr(key, c.budget), toStr(value2, c.budget), count);
    }
    return text;
  }
  return replaceText(c, text, c.string(1), c.string(2), c.intOr(3, -1));
}
function replaceItems(c) {
  const items = c.list(0);
  const position = c.int(1);
  if (!c.has(2)) return c.fail("missing the replacement value");
  const count = c.intOr(3, 1);
  const end = count < 0 ? items.length : position + count;
  const out = items.filter((_, i) => i < position || i >= end);
  if (position >= 0 && position < items.length && end > position) out.splice(position, 0, c.value(2));
  return out;
}
function join(c) {
  const [first, second] = [c.value(0), c.value(1)];
  const [items, separator] = typeof first === "string" && Array.isArray(second) ? [c.list(1), first] : [c.list(0), c.string(1)];
  const text = items.map((item) => toStr(item, c.budget)).join(separator);
  c.budget.spendChars(text.length);
  return text;
}
function affix(atEnd) {
  return (c) => {
    const text = c.string(0);
    return c.rest.some((value2) => {
      if (typeof value2 !== "string") return c.fail(`needs strings, not ${typeName2(value2)}`);
      return atEnd ? text.endsWith(value2) : text.startsWith(value2);
    });
  };
}
function isEmpty2(c) {
  const value2 = c.value(0);
  if (value2 === null) return true;
  const text = c.string(0);
  const trimSpaces = c.has(1) ? c.value(1) !== false : true;
  return (trimSpaces ? strip(text, c.optString(2), true, true) : text) === "";
}
function pythonStr(value2, c) {
  if (value2 === null) return "None";
  if (value2 === true) return "True";
  if (value2 === false) return "False";
  return toStr(value2, c.budget);
}
function format(c) {
  const template = c.string(0);
  let out = "";
  let auto = null;
  let manual = false;
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === "}" || ch === "{" && template[i + 1] === "{") {
      if (template[i + 1] !== ch) return c.fail('single "}" in format string');
      out += ch;
      i++;
      continue;
    }
    if (ch !== "{") {
      out += ch;
      continue;
    }
    const close = template.indexOf("}", i);
    if (close < 0) return c.fail('unclosed "{" in format string');
    const field = template.slice(i + 1, close);
    let value2;
    if (field === "") {
      if (manual) return c.fail('cannot mix "{}" with numbered fields');
      auto = (auto ?? -1) + 1;
      value2 = c.rest[auto];
    } else if (/^\d+$/.test(field)) {
      if (auto !== null) return c.fail('cannot mix "{}" with numbered fields');
      manual = true;
      value2 = c.rest[Number(field)];
    } else if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(field)) {
      value2 = c.bindings.get(field);
    } else {
      return c.fail(`unsupported format field "{${field}}" (only {}, {0} and {name})`);
    }
    if (value2 === void 0) return c.fail(`no value for format field "{${field}}"`);
    out += pythonStr(value2, c);
    i = close;
  }
  c.budget.spendChars(out.length);
  return out;
}
var STRING_FUNCTIONS = [
  define("str", ["value"], (c) => toStr(c.value(0), c.budget)),
  define("toUpper", ["string"], (c) => c.string(0).toUpperCase()),
  define("toLower", ["string"], (c) => c.string(0).toLowerCase()),
  define("split", ["string", "separator?", "maxSplits?"], split(false)),
  define("rightSplit", ["string", "separator?", "maxSplits?"], split(true)),
  define("join", ["sequence", "separator"], join),
  define("trim", ["string", "chars?"], trim(true, true)),
  define("trimLeft", ["string", "chars?"], trim(true, false)),
  define("trimRight", ["string", "chars?"], trim(false, true)),
  define("replace", ["string", "old", "new?", "count?"], replace),
  define("substring", ["string", "start", "length?"], substring),
  define("indexOf", ["string", "sub", "start?", "length?"], indexOf(false)),
  define("lastIndexOf", ["string", "sub", "start?", "length?"], indexOf(true)),
  define("startsWith", ["string", "...prefixes"], affix(false)),
  define("endsWith", ["string", "...suffixes"], affix(true)),
  define("isString", ["value"], (c) => typeof c.value(0) === "string"),
  define("isEmpty", ["string", "trimSpaces?", "chars?"], isEmpty2),
  define("toCharArray", ["string"], (c) => [...c.string(0)]),
  define("format", ["format", "...args"], format, "bindings")
];

// src/template/yaql/functions/index.ts
var FUNCTIONS = new Map(
  [...CORE_FUNCTIONS, ...LIST_FUNCTIONS, ...QUERY_FUNCTIONS, ...DICT_FUNCTIONS, ...STRING_FUNCTIONS].map(
    (def) => [def.name, def]
  )
);

// src/template/yaql/scope.ts
var Scope = class _Scope {
  constructor(parent, vars) {
    this.parent = parent;
    this.vars = vars;
  }
  parent;
  vars;
  /** The variable's value; an unbound variable is null, as in yaql. */
  get(name) {
    const own = this.vars.get(name);
    if (own !== void 0) return own;
    return this.parent === null ? null : this.parent.get(name);
  }
  /** A child scope binding positional arguments to $1, $2... (so `$` is the first one). */
  withArgs(args) {
    if (args.length === 0) return this;
    return new _Scope(this, new Map(args.map((value2, i) => [String(i + 1), value2])));
  }
  child(vars) {
    return new _Scope(this, vars);
  }
};

// src/template/yaql/evaluate.ts
function evaluateNode(node, data, budget) {
  const scope = new Scope(null, /* @__PURE__ */ new Map([["1", data]]));
  return new Evaluator(budget).eval(node, scope);
}
var Evaluator = class {
  constructor(budget) {
    this.budget = budget;
  }
  budget;
  eval(node, scope) {
    this.budget.at = node.pos;
    this.budget.spend();
    try {
      return this.evalKind(node, scope);
    } catch (error) {
      if (error instanceof Fault) throw new YaqlError(error.message, node.pos);
      throw error;
    }
  }
  evalKind(node, scope) {
    switch (node.kind) {
      case "const":
        return node.value;
      case "keyword":
        return node.name;
      case "var":
        return scope.get(node.name);
      case "list":
        return node.items.map((item) => this.eval(item, scope));
      case "map":
        return new Map(node.entries.map((e) => [this.scalarKey(e.key, scope), this.eval(e.value, scope)]));
      case "attr": {
        const object = this.eval(node.object, scope);
        if (object === null && node.nullSafe) return null;
        return getAttribute(object, node.name, this.budget);
      }
      case "index":
        return this.index(node, scope);
      case "call":
        return this.call(node, scope);
      case "unary":
        return applyUnary(node.op, this.eval(node.operand, scope));
      case "binary":
        return this.binary(node, scope);
    }
  }
  binary(node, scope) {
    const left = this.eval(node.left, scope);
    switch (node.op) {
      case "and":
        return truthy(left) ? this.eval(node.right, scope) : left;
      case "or":
        return truthy(left) ? left : this.eval(node.right, scope);
      case "->":
        if (!(left instanceof Scope)) {
          throw new YaqlError(`"->" needs let(...) on its left, not ${typeName2(left)}`, node.pos);
        }
        return this.eval(node.right, left);
      default: {
        const right = this.eval(node.right, scope);
        this.budget.at = node.pos;
        return applyBinary(node.op, left, right, this.budget);
      }
    }
  }
  index(node, scope) {
    const object = this.eval(node.object, scope);
    const values = [];
    let hasDefault = false;
    for (const arg of node.args) {
      if (arg.name !== null) {
        if (arg.name.kind !== "keyword" || arg.name.name !== "default" || values.length !== 1) {
          throw new YaqlError('an index takes only a key and "default => value"', arg.pos);
        }
        hasDefault = true;
      } else if (values.length >= 2) {
        throw new YaqlError("an index takes at most a key and a default", arg.pos);
      } else {
        hasDefault = values.length === 1;
      }
      values.push(this.eval(arg.value, scope));
    }
    return getIndex(object, values, hasDefault);
  }
  scalarKey(node, scope) {
    const key = this.eval(node, scope);
    if (key !== null && typeof key === "object") {
      throw new YaqlError(
        `a dict key must be a string, number, boolean or null, not ${typeName2(key)}`,
        node.pos
      );
    }
    return key;
  }
  call(node, scope) {
    const def = FUNCTIONS.get(node.name);
    if (def === void 0) throw new YaqlError(`unknown function "${node.name}"`, node.pos);
    let receiver = [];
    if (node.receiver !== null) {
      const value2 = this.eval(node.receiver, scope);
      if (value2 === null && node.nullSafe) return null;
      receiver = [value2];
    }
    const call = this.bind(def, node, receiver, scope);
    this.budget.at = node.pos;
    return def.fn(call);
  }
  /** Matches the receiver and arguments to the function's parameters. */
  bind(def, node, receiver, scope) {
    const fail2 = (message, pos) => {
      throw new YaqlError(`${def.name}(): ${message}`, pos);
    };
    const args = new Array(def.params.length).fill(void 0);
    const rest = [];
    const mappings = [];
    const bindings = /* @__PURE__ */ new Map();
    const positional = [
      ...receiver.map((value2) => ({ value: value2, pos: node.pos })),
      ...node.args.filter((a) => a.name === null).map((a) => ({ node: a.value, pos: a.pos, omitted: a.omitted }))
    ];
    for (const [i, arg] of positional.entries()) {
      const param = def.params[i] ?? def.rest;
      if (!param) return fail2(`takes at most ${def.params.length} argument(s)`, arg.pos);
      if (arg.omitted) {
        if (i >= def.params.length) return fail2("only a declared parameter can be skipped", arg.pos);
        continue;
      }
      const value2 = this.argument(param.lambda, arg, scope);
      if (i < def.params.length) args[i] = value2;
      else rest.push(value2);
    }
    for (const arg of node.args.filter((a) => a.name !== null)) {
      if (def.named === "mappings") {
        const { name: name2, value: value2 } = arg;
        mappings.push({ key: () => this.eval(name2, scope), value: () => this.eval(value2, scope) });
        continue;
      }
      if (arg.name.kind !== "keyword") fail2("an argument name must be a plain name", arg.name.pos);
      const name = arg.name.name;
      if (def.named === "bindings") {
        bindings.set(name, this.eval(arg.value, scope));
        continue;
      }
      const index = def.params.findIndex((p) => p.name === name);
      if (index < 0) fail2(`has no parameter named "${name}"`, arg.name.pos);
      if (args[index] !== void 0) fail2(`parameter "${name}" is given twice`, arg.name.pos);
      args[index] = this.argument(def.params[index].lambda, { node: arg.value }, scope);
    }
    for (const [i, param] of def.params.entries()) {
      if (args[i] === void 0 && !param.optional) fail2(`missing argument "${param.name}"`, node.pos);
    }
    return new Call(def, this.budget, scope, args, rest, mappings, bindings);
  }
  argument(isLambda, arg, scope) {
    const { node } = arg;
    if (node === void 0) return isLambda ? () => arg.value : arg.value;
    if (!isLambda) return this.eval(node, scope);
    const lambda = (...args) => this.eval(node, scope.withArgs(args));
    return lambda;
  }
};

// src/template/yaql/output.ts
function toOutput(value2, maxSteps) {
  let values = 0;
  let chars = 0;
  const keyBudget = new Budget(Number.POSITIVE_INFINITY);
  const convert = (v, depth) => {
    if (++values > maxSteps) throw new YaqlError(`the result is too large (more than ${maxSteps} values)`);
    if (v === null || v === void 0) return null;
    if (typeof v === "boolean" || typeof v === "number") return v;
    if (typeof v === "string") {
      chars += v.length;
      if (chars > maxSteps * CHARS_PER_STEP) {
        throw new YaqlError(`the result is too large (more than ${maxSteps * CHARS_PER_STEP} characters)`);
      }
      return v;
    }
    if (depth > MAX_VALUE_DEPTH)
      throw new YaqlError(`the result is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    if (Array.isArray(v)) return v.map((item) => convert(item, depth + 1));
    if (isDict(v)) {
      const out = {};
      for (const [key, item] of dictEntries(v))
        setOwn2(out, keyToString(key, keyBudget), convert(item, depth + 1));
      return out;
    }
    throw new YaqlError(`the result cannot hold a ${typeName2(v)} (let(...) must be followed by "->")`);
  };
  return convert(value2, 0);
}

// src/template/yaql/lexer.ts
var WORD_OPERATORS = /* @__PURE__ */ new Set(["and", "or", "not", "in", "mod"]);
var CONSTANTS = /* @__PURE__ */ new Map([
  ["true", true],
  ["false", false],
  ["null", null]
]);
var SYMBOLS = ["?.", "=~", "!~", ">=", "<=", "!=", "->", "=>", ".", "+", "-", "*", "/", ">", "<", "="];
var PUNCTUATION = /* @__PURE__ */ new Set(["(", ")", "[", "]", "{", "}", ","]);
var NAME_START = /[\p{L}_]/u;
var NAME_PART = /[\p{L}\p{N}_]/u;
var DIGIT = /[0-9]/;
var WHITESPACE = /* @__PURE__ */ new Set([" ", "	", "\r", "\n"]);
function tokenize(source) {
  const tokens = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (WHITESPACE.has(ch)) {
      i++;
      continue;
    }
    const start2 = i;
    if (ch === "$") {
      i = scanWord(source, i + 1);
      tokens.push({ kind: "var", pos: start2, value: source.slice(start2 + 1, i) });
    } else if (DIGIT.test(ch)) {
      i = scanNumber(source, i, tokens);
    } else if (NAME_START.test(ch) || isAstralLetter(source, i)) {
      i = scanName(source, i, tokens);
    } else if (ch === "'" || ch === '"') {
      const end = findClosingQuote(source, i, ch);
      tokens.push({ kind: "string", pos: start2, value: decodeEscapes(source.slice(i + 1, end), i + 1) });
      i = end + 1;
    } else if (ch === "`") {
      const end = findClosingQuote(source, i, ch);
      tokens.push({ kind: "string", pos: start2, value: source.slice(i + 1, end).replaceAll("\\`", "`") });
      i = end + 1;
    } else if (PUNCTUATION.has(ch)) {
      tokens.push({ kind: "op", pos: start2, value: ch });
      i++;
    } else {
      const symbol = SYMBOLS.find((s) => source.startsWith(s, i));
      if (symbol === void 0) throw new YaqlError(`unexpected character ${JSON.stringify(ch)}`, i);
      tokens.push({ kind: "op", pos: start2, value: symbol });
      i += symbol.length;
    }
  }
  tokens.push({ kind: "eof", pos: source.length, value: "" });
  return tokens;
}
function isAstralLetter(source, i) {
  const cp = source.codePointAt(i);
  return cp !== void 0 && cp > 65535 && NAME_START.test(String.fromCodePoint(cp));
}
function scanWord(source, i) {
  let j = i;
  while (j < source.length) {
    const cp = source.codePointAt(j);
    const ch = String.fromCodePoint(cp);
    if (!NAME_PART.test(ch)) break;
    j += ch.length;
  }
  return j;
}
function scanNumber(source, i, tokens) {
  let j = i;
  while (j < source.length && DIGIT.test(source[j])) j++;
  if (source[j] === "." && DIGIT.test(source[j + 1] ?? "")) {
    j++;
    while (j < source.length && DIGIT.test(source[j])) j++;
  }
  if (scanWord(source, j) !== j) throw new YaqlError("a number must not run into a name", i);
  tokens.push({ kind: "number", pos: i, value: Number(source.slice(i, j)) });
  return j;
}
function scanName(source, i, tokens) {
  const end = scanWord(source, i);
  const name = source.slice(i, end);
  if (source[end] === "(") {
    tokens.push({ kind: "call", pos: i, value: name });
    return end + 1;
  }
  if (name.startsWith("__")) throw new YaqlError(`names must not start with "__": ${name}`, i);
  const constant = CONSTANTS.get(name);
  if (constant !== void 0) tokens.push({ kind: "const", pos: i, value: constant });
  else if (WORD_OPERATORS.has(name)) tokens.push({ kind: "op", pos: i, value: name });
  else tokens.push({ kind: "name", pos: i, value: name });
  return end;
}
function findClosingQuote(source, start2, quote3) {
  let j = start2 + 1;
  while (j < source.length) {
    const ch = source[j];
    if (ch === quote3) return j;
    if (ch === "\\") {
      if (source[j + 1] === "\n" || j + 1 >= source.length) break;
      j += 2;
    } else {
      j++;
    }
  }
  throw new YaqlError("unterminated string", start2);
}
var SIMPLE_ESCAPES = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "	",
  v: "\v"
};
var HEX_LENGTH = { x: 2, u: 4, U: 8 };
function decodeEscapes(raw, offset) {
  if (!raw.includes("\\")) return raw;
  let out = "";
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i];
    if (ch !== "\\" || i + 1 >= raw.length) {
      out += ch;
      i++;
      continue;
    }
    const next = raw[i + 1];
    const simple = Object.hasOwn(SIMPLE_ESCAPES, next) ? SIMPLE_ESCAPES[next] : void 0;
    const hexLength = Object.hasOwn(HEX_LENGTH, next) ? HEX_LENGTH[next] : void 0;
    if (simple !== void 0) {
      out += simple;
      i += 2;
    } else if (hexLength !== void 0) {
      const hex = raw.slice(i + 2, i + 2 + hexLength);
      const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === hexLength ? Number.parseInt(hex, 16) : NaN;
      if (!(code <= 1114111)) throw new YaqlError(`invalid \\${next} escape`, offset + i);
      out += String.fromCodePoint(code);
      i += 2 + hexLength;
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(raw.slice(i + 1))[0];
      out += String.fromCodePoint(Number.parseInt(digits, 8));
      i += 1 + digits.length;
    } else if (next === "N" && raw[i + 2] === "{") {
      throw new YaqlError("\\N{...} escapes are not supported", offset + i);
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

// src/template/yaql/parser.ts
var BINARY_POWER = /* @__PURE__ */ new Map([
  ["->", 10],
  ["or", 20],
  ["and", 30],
  ["=", 50],
  ["!=", 50],
  ["<", 50],
  [">", 50],
  ["<=", 50],
  [">=", 50],
  ["in", 50],
  ["+", 60],
  ["-", 60],
  ["*", 70],
  ["/", 70],
  ["mod", 70],
  ["=~", 80],
  ["!~", 80]
]);
var RIGHT_ASSOCIATIVE = /* @__PURE__ */ new Set(["->"]);
var NOT_POWER = 40;
var UNARY_SIGN_POWER = 90;
function parse(source, maxDepth) {
  return new Parser(source, maxDepth).parseAll();
}
var Parser = class {
  constructor(source, maxDepth) {
    this.maxDepth = maxDepth;
    this.tokens = tokenize(source);
  }
  maxDepth;
  tokens;
  index = 0;
  nesting = 0;
  /** Height of every node built so far: left-associative chains grow without parser recursion. */
  heights = /* @__PURE__ */ new WeakMap();
  parseAll() {
    const node = this.expression(0);
    const next = this.peek();
    if (next.kind !== "eof") throw unexpected(next);
    return node;
  }
  peek() {
    return this.tokens[this.index];
  }
  next() {
    const token = this.tokens[this.index];
    if (token.kind !== "eof") this.index++;
    return token;
  }
  isOp(value2) {
    const token = this.peek();
    return token.kind === "op" && token.value === value2;
  }
  expect(value2) {
    const token = this.next();
    if (token.kind !== "op" || token.value !== value2) throw unexpected(token, `expected "${value2}"`);
  }
  /** Records the node's height and enforces the depth bound. */
  make(node, ...children) {
    let height = 1;
    for (const child of children) height = Math.max(height, (this.heights.get(child) ?? 1) + 1);
    if (height > this.maxDepth) {
      throw new YaqlError(`expression is nested too deeply (more than ${this.maxDepth} levels)`, node.pos);
    }
    this.heights.set(node, height);
    return node;
  }
  expression(minPower) {
    if (++this.nesting > this.maxDepth) {
      throw new YaqlError(
        `expression is nested too deeply (more than ${this.maxDepth} levels)`,
        this.peek().pos
      );
    }
    let left = this.prefix();
    for (; ; ) {
      const token = this.peek();
      if (token.kind !== "op") break;
      if (token.value === "." || token.value === "?.") {
        left = this.member(left);
        continue;
      }
      if (token.value === "[") {
        this.next();
        const args = this.args("]", "index");
        if (args.length === 0) throw new YaqlError("an index needs at least one argument", token.pos);
        left = this.make(
          { kind: "index", pos: token.pos, object: left, args },
          left,
          ...args.flatMap(argNodes)
        );
        continue;
      }
      const power = BINARY_POWER.get(token.value);
      if (power === void 0 || power <= minPower) break;
      if (token.value === "=~" || token.value === "!~") {
        throw new YaqlError(`regular expression operator "${token.value}" is not supported`, token.pos);
      }
      this.next();
      const right = this.expression(RIGHT_ASSOCIATIVE.has(token.value) ? power - 1 : power);
      left = this.make({ kind: "binary", pos: token.pos, op: token.value, left, right }, left, right);
    }
    this.nesting--;
    return left;
  }
  prefix() {
    const token = this.next();
    switch (token.kind) {
      case "number":
      case "string":
      case "const":
        return this.make({ kind: "const", pos: token.pos, value: token.value });
      case "name":
        return this.make({ kind: "keyword", pos: token.pos, name: token.value });
      case "var":
        return this.make({ kind: "var", pos: token.pos, name: token.value === "" ? "1" : token.value });
      case "call": {
        const args = this.args(")", "call");
        const node = {
          kind: "call",
          pos: token.pos,
          name: token.value,
          receiver: null,
          nullSafe: false,
          args
        };
        return this.make(node, ...args.flatMap(argNodes));
      }
      case "op":
        return this.prefixOperator(token);
      default:
        throw unexpected(token);
    }
  }
  prefixOperator(token) {
    switch (token.value) {
      case "(": {
        const inner = this.expression(0);
        this.expect(")");
        return inner;
      }
      case "[": {
        const items = this.args("]", "list").map((a) => a.value);
        return this.make({ kind: "list", pos: token.pos, items }, ...items);
      }
      case "{": {
        const entries2 = this.args("}", "map").map((a) => ({ key: a.name, value: a.value }));
        return this.make(
          { kind: "map", pos: token.pos, entries: entries2 },
          ...entries2.flatMap((e) => [e.key, e.value])
        );
      }
      case "-":
      case "+":
      case "not": {
        const operand = this.expression(token.value === "not" ? NOT_POWER : UNARY_SIGN_POWER);
        return this.make({ kind: "unary", pos: token.pos, op: token.value, operand }, operand);
      }
      default:
        throw unexpected(token);
    }
  }
  /** `.name`, `.method(args)`, or their null-safe `?.` forms. */
  member(receiver) {
    const dot = this.next();
    const nullSafe = dot.value === "?.";
    const token = this.next();
    if (token.kind === "name") {
      return this.make(
        { kind: "attr", pos: token.pos, object: receiver, name: token.value, nullSafe },
        receiver
      );
    }
    if (token.kind === "call") {
      const args = this.args(")", "call");
      const node = { kind: "call", pos: token.pos, name: token.value, receiver, nullSafe, args };
      return this.make(node, receiver, ...args.flatMap(argNodes));
    }
    throw unexpected(token, `expected a name or a method call after "${dot.value}"`);
  }
  /**
   * A comma-separated argument list up to `closer`. `name => value` pairs are allowed after the
   * positional arguments of calls and indexes, and are required in map literals.
   */
  args(closer, context) {
    const args = [];
    if (this.isOp(closer)) {
      this.next();
      return args;
    }
    for (; ; ) {
      const pos = this.peek().pos;
      if (this.isOp(",") && context === "call" && !args.some((a) => a.name !== null)) {
        args.push({ pos, name: null, value: this.make({ kind: "const", pos, value: null }), omitted: true });
        this.next();
        continue;
      }
      const first = this.expression(0);
      if (this.isOp("=>")) {
        const arrow = this.next();
        if (context === "list") throw new YaqlError('"=>" is not allowed in a list', arrow.pos);
        args.push({ pos, name: first, value: this.expression(0) });
      } else {
        if (context === "map") throw new YaqlError('a map entry must be written "key => value"', pos);
        if (args.some((a) => a.name !== null)) {
          throw new YaqlError("a positional argument cannot follow a named one", pos);
        }
        args.push({ pos, name: null, value: first });
      }
      if (this.isOp(",")) {
        this.next();
        continue;
      }
      this.expect(closer);
      return args;
    }
  }
};
function argNodes(arg) {
  return arg.name === null ? [arg.value] : [arg.name, arg.value];
}
function unexpected(token, hint) {
  const what = token.kind === "eof" ? "end of expression" : describe(token);
  return new YaqlError(`unexpected ${what}${hint ? ` (${hint})` : ""}`, token.pos);
}
function describe(token) {
  switch (token.kind) {
    case "string":
      return `string ${JSON.stringify(token.value)}`;
    case "call":
      return `call of ${token.value}()`;
    case "var":
      return `$${token.value}`;
    default:
      return `"${String(token.value)}"`;
  }
}

// src/template/yaql/index.ts
var CACHE = /* @__PURE__ */ new Map();
var CACHE_SIZE = 1e3;
function parseCached(expression, limits) {
  const key = `${limits.maxDepth}:${expression}`;
  const cached = CACHE.get(key);
  if (cached !== void 0) {
    CACHE.delete(key);
    CACHE.set(key, cached);
    return cached;
  }
  const node = parse(expression, limits.maxDepth);
  if (CACHE.size >= CACHE_SIZE) CACHE.delete(CACHE.keys().next().value);
  CACHE.set(key, node);
  return node;
}
function evaluateYaql(expression, context, limits = {}) {
  const bounds2 = { ...DEFAULT_YAQL_LIMITS, ...limits };
  if (typeof expression !== "string") throw new YaqlError("the expression must be a string");
  if (expression.length > bounds2.maxExpressionLength) {
    throw new YaqlError(`the expression is longer than ${bounds2.maxExpressionLength} characters`);
  }
  try {
    const node = parseCached(expression, bounds2);
    const result = evaluateNode(node, context === void 0 ? null : context, new Budget(bounds2.maxSteps));
    return toOutput(result, bounds2.maxSteps);
  } catch (error) {
    if (error instanceof YaqlError) throw error;
    if (error instanceof Fault) throw new YaqlError(error.message);
    if (error instanceof RangeError)
      throw new YaqlError(`the expression is too complex to evaluate (${error.message})`);
    throw error;
  }
}

// src/template/functions/yaql.ts
var yaql = {
  name: "yaql",
  description: "A function for executing a yaql expression.",
  check(call) {
    const args = argMap(call, ["expression"], ["data"]);
    const expression = args.expression;
    if (expression !== null && typeof expression !== "string" && typeof expression !== "object") {
      fail(call, 'the "expression" argument must be a string');
    }
  },
  resolve(call, ctx) {
    const args = call.args;
    const expression = resolveString(call, ctx, args.expression ?? null, 'the "expression" argument');
    if (expression === void 0) return UNKNOWN;
    const data = args.data === void 0 ? {} : ctx.resolve(args.data);
    if (containsUnknown(data)) return UNKNOWN;
    return ctx.yaql(expression, { data }, call.path);
  }
};
function evaluateYaqlAt(expression, data, path) {
  try {
    return evaluateYaql(expression, data);
  } catch (err) {
    if (err instanceof YaqlError) throw new TemplateError("function", `yaql: ${err.message}`, path);
    throw err;
  }
}

// src/template/functions/catalogue.ts
var FUNCTIONS2 = {
  get_param: getParam,
  get_resource: getResource,
  "get_attr@select": getAttrThenSelect,
  get_attr: getAttr,
  "get_attr@all": getAttrAll,
  get_file: getFile,
  resource_facade: resourceFacade,
  list_join: listJoin,
  "list_join@multi": listJoinMulti,
  str_replace: strReplace,
  "str_replace@json": strReplaceJson,
  str_replace_strict: strReplaceStrict,
  str_replace_vstrict: strReplaceVstrict,
  str_split: strSplit,
  digest,
  repeat,
  "repeat@map": repeatWithMap,
  "repeat@nested": repeatNested,
  map_merge: mapMerge,
  map_replace: mapReplace,
  list_concat: listConcat,
  list_concat_unique: listConcatUnique,
  filter,
  contains,
  make_url: makeUrl,
  yaql,
  equals,
  not: notFn,
  and: andFn,
  or: orFn,
  if: ifFn,
  "if@nullable": ifNullable,
  "Fn::Select": fnSelect,
  "Fn::Join": fnJoin,
  "Fn::Split": fnSplit,
  "Fn::Replace": fnReplace,
  "Fn::Base64": fnBase64,
  "Fn::MemberListToMap": fnMemberListToMap,
  "Fn::GetAZs": fnGetAZs,
  Ref: fnRef,
  "Fn::ResourceFacade": fnResourceFacade
};

// src/template/versions.ts
var CFN_2013 = [
  "Fn::GetAZs",
  "Ref",
  "Fn::Join",
  "Fn::Split",
  "Fn::Replace",
  "Fn::Base64",
  "Fn::MemberListToMap",
  "Fn::ResourceFacade"
];
var F2013 = {
  get_param: "get_param",
  get_resource: "get_resource",
  get_attr: "get_attr@select",
  get_file: "get_file",
  list_join: "list_join",
  str_replace: "str_replace",
  resource_facade: "resource_facade",
  "Fn::GetAZs": "Fn::GetAZs",
  Ref: "Ref",
  "Fn::Select": "Fn::Select",
  "Fn::Join": "Fn::Join",
  "Fn::Split": "Fn::Split",
  "Fn::Replace": "Fn::Replace",
  "Fn::Base64": "Fn::Base64",
  "Fn::MemberListToMap": "Fn::MemberListToMap",
  "Fn::ResourceFacade": "Fn::ResourceFacade"
};
var F2014 = {
  get_param: "get_param",
  get_resource: "get_resource",
  get_attr: "get_attr",
  get_file: "get_file",
  list_join: "list_join",
  str_replace: "str_replace",
  resource_facade: "resource_facade",
  "Fn::Select": "Fn::Select"
};
var F20150430 = { ...F2014, repeat: "repeat", digest: "digest" };
var F20151015 = {
  ...F20150430,
  get_attr: "get_attr@all",
  list_join: "list_join@multi",
  str_replace: "str_replace@json",
  str_split: "str_split"
};
delete F20151015["Fn::Select"];
var F20160408 = { ...F20151015, map_merge: "map_merge" };
var F20161014 = { ...F20160408, repeat: "repeat@map", yaql: "yaql", map_replace: "map_replace", if: "if" };
var F20170224 = { ...F20161014, filter: "filter", str_replace_strict: "str_replace_strict" };
var F20170901 = {
  ...F20170224,
  repeat: "repeat@nested",
  make_url: "make_url",
  list_concat: "list_concat",
  str_replace_vstrict: "str_replace_vstrict",
  list_concat_unique: "list_concat_unique",
  contains: "contains"
};
var F20210416 = { ...F20170901, if: "if@nullable" };
var C20161014 = { get_param: "get_param", equals: "equals", not: "not", and: "and", or: "or" };
var C20170901 = { ...C20161014, yaql: "yaql", contains: "contains" };
var SPECS = [
  { date: "2013-05-23", functions: F2013, removed: [], conditionFunctions: {} },
  { date: "2014-10-16", functions: F2014, removed: CFN_2013, conditionFunctions: {} },
  { date: "2015-04-30", functions: F20150430, removed: CFN_2013, conditionFunctions: {} },
  { date: "2015-10-15", functions: F20151015, removed: [...CFN_2013, "Fn::Select"], conditionFunctions: {} },
  { date: "2016-04-08", functions: F20160408, removed: [...CFN_2013, "Fn::Select"], conditionFunctions: {} },
  {
    date: "2016-10-14",
    alias: "newton",
    functions: F20161014,
    removed: [...CFN_2013, "Fn::Select"],
    conditionFunctions: C20161014,
    extra: { conditions: true, lowerCasePolicies: true }
  },
  {
    date: "2017-02-24",
    alias: "ocata",
    functions: F20170224,
    removed: [...CFN_2013, "Fn::Select"],
    conditionFunctions: C20161014,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true }
  },
  {
    date: "2017-09-01",
    alias: "pike",
    functions: F20170901,
    removed: [...CFN_2013, "Fn::Select"],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true }
  },
  {
    date: "2018-03-02",
    alias: "queens",
    functions: F20170901,
    removed: [...CFN_2013, "Fn::Select"],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true, tags: true }
  },
  {
    date: "2018-08-31",
    alias: "rocky",
    functions: F20170901,
    removed: [...CFN_2013, "Fn::Select"],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true, tags: true }
  },
  {
    date: "2021-04-16",
    alias: "wallaby",
    functions: F20210416,
    removed: [...CFN_2013, "Fn::Select"],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true, tags: true }
  }
];
function introducedIn(name) {
  return SPECS.find((s) => Object.hasOwn(s.functions, name))?.date;
}
var ALL_VALUE_FUNCTIONS = new Set(SPECS.flatMap((s) => Object.keys(s.functions)));
function lookupDef(id) {
  const def = Object.hasOwn(FUNCTIONS2, id) ? FUNCTIONS2[id] : void 0;
  if (!def) throw new Error(`internal: no function definition "${id}" in the catalogue`);
  return def;
}
function buildVersion(spec) {
  const label = `heat_template_version ${spec.date}`;
  const defs = new Map(Object.entries(spec.functions).map(([name, id]) => [name, lookupDef(id)]));
  const condDefs = new Map(
    Object.entries(spec.conditionFunctions).map(([name, id]) => [name, lookupDef(id)])
  );
  const removed = new Set(spec.removed);
  const whyUnavailable = (name) => {
    if (removed.has(name))
      return `function "${name}" is not supported in ${label}: it was removed in 2014-10-16 or later`;
    if (!ALL_VALUE_FUNCTIONS.has(name)) return void 0;
    const since = introducedIn(name);
    return `function "${name}" is not available in ${label}; it was introduced in heat_template_version ${since}`;
  };
  const conditionTable = {
    lookup: (name) => condDefs.get(name),
    unavailable: (name) => {
      if (condDefs.has(name)) return void 0;
      if (defs.has(name)) return `function "${name}" cannot be used in a condition in ${label}`;
      return whyUnavailable(name);
    },
    names: () => [...condDefs.keys()]
  };
  const valueTable = {
    lookup: (name) => defs.get(name),
    get: (name) => defs.get(name),
    unavailable: whyUnavailable,
    names: () => [...defs.keys()],
    conditionScope: conditionTable
  };
  const e = spec.extra ?? {};
  return {
    date: spec.date,
    alias: spec.alias,
    sections: [
      "heat_template_version",
      "description",
      "parameter_groups",
      "parameters",
      "resources",
      "outputs",
      ...e.conditions ? ["conditions"] : []
    ],
    resourceKeys: [
      "type",
      "properties",
      "metadata",
      "depends_on",
      "deletion_policy",
      "update_policy",
      "description",
      ...e.conditions ? ["external_id", "condition"] : []
    ],
    outputKeys: ["description", "value", ...e.conditions ? ["condition"] : []],
    parameterKeys: [
      "type",
      "description",
      "default",
      "schema",
      "constraints",
      "hidden",
      "label",
      "immutable",
      ...e.tags ? ["tags"] : []
    ],
    constraintKeys: [
      "description",
      "length",
      "range",
      "allowed_values",
      "allowed_pattern",
      "custom_constraint",
      ...e.modulo ? ["modulo"] : []
    ],
    deletionPolicies: [
      "Delete",
      "Retain",
      "Snapshot",
      ...e.lowerCasePolicies ? ["delete", "retain", "snapshot"] : []
    ],
    hasConditions: e.conditions === true,
    functions: valueTable,
    conditionFunctions: conditionTable
  };
}
var VERSIONS = new Map(SPECS.map((s) => [s.date, buildVersion(s)]));
var ALIASES = new Map(
  SPECS.filter((s) => s.alias !== void 0).map((s) => [s.alias, s.date])
);
function findVersion(value2) {
  return VERSIONS.get(ALIASES.get(value2) ?? value2);
}
function allVersions() {
  return [...VERSIONS.values()];
}
function describeSupportedVersions() {
  return `${[...VERSIONS.keys()].join(", ")} (aliases: ${[...ALIASES.keys()].join(", ")})`;
}

// src/graph/errors.ts
var MESSAGE_NODES = 20;
var CycleError = class extends Error {
  name = "CycleError";
  /** Each node requires the next; the first and last entries are the same node. */
  cycle;
  constructor(cycle) {
    const path = cycle.length > MESSAGE_NODES ? `${cycle.slice(0, MESSAGE_NODES).map(String).join(" -> ")} -> ... (${cycle.length - 1} nodes)` : cycle.map(String).join(" -> ");
    super(`dependency cycle: ${path}`);
    this.cycle = cycle;
  }
};
var UnknownNodeError = class extends Error {
  constructor(key) {
    super(`unknown node: ${String(key)}`);
    this.key = key;
  }
  key;
  name = "UnknownNodeError";
};

// src/graph/adjacency.ts
var NONE = -1;
var SCAN_LIMIT = 16;
var Adjacency = class _Adjacency {
  nodeCount = 0;
  edgeCount = 0;
  // Per node.
  outHead = new Int32Array(16);
  outTail = new Int32Array(16);
  inHead = new Int32Array(16);
  inTail = new Int32Array(16);
  outDegree = new Int32Array(16);
  inDegree = new Int32Array(16);
  // Per edge.
  edgeFrom = new Int32Array(16);
  edgeTo = new Int32Array(16);
  nextOut = new Int32Array(16);
  // the next edge in edgeFrom's out-list
  nextIn = new Int32Array(16);
  // the next edge in edgeTo's in-list
  /** Out-neighbour sets of high out-degree nodes, built on first need. */
  outSets = /* @__PURE__ */ new Map();
  addNode() {
    const node = this.nodeCount;
    if (node === this.outHead.length) this.growNodes(Math.max(16, node * 2));
    this.outHead[node] = this.outTail[node] = this.inHead[node] = this.inTail[node] = NONE;
    this.outDegree[node] = this.inDegree[node] = 0;
    this.nodeCount++;
    return node;
  }
  /** Adds the edge unless it exists; returns whether it was added. */
  addEdge(from, to) {
    if (this.hasEdge(from, to)) return false;
    const edge = this.edgeCount;
    if (edge === this.edgeFrom.length) this.growEdges(Math.max(16, edge * 2));
    this.edgeFrom[edge] = from;
    this.edgeTo[edge] = to;
    this.nextOut[edge] = this.nextIn[edge] = NONE;
    const outTail = this.outTail[from];
    if (outTail === NONE) this.outHead[from] = edge;
    else this.nextOut[outTail] = edge;
    this.outTail[from] = edge;
    const inTail = this.inTail[to];
    if (inTail === NONE) this.inHead[to] = edge;
    else this.nextIn[inTail] = edge;
    this.inTail[to] = edge;
    this.outDegree[from]++;
    this.inDegree[to]++;
    this.outSets.get(from)?.add(to);
    this.edgeCount++;
    return true;
  }
  hasEdge(from, to) {
    if (this.outDegree[from] > SCAN_LIMIT) {
      let set2 = this.outSets.get(from);
      if (!set2) this.outSets.set(from, set2 = new Set(this.outNeighbours(from)));
      return set2.has(to);
    }
    for (let edge = this.outHead[from]; edge !== NONE; edge = this.nextOut[edge]) {
      if (this.edgeTo[edge] === to) return true;
    }
    return false;
  }
  /** The nodes `node` requires, in edge order. */
  outNeighbours(node) {
    const result = [];
    for (let edge = this.outHead[node]; edge !== NONE; edge = this.nextOut[edge])
      result.push(this.edgeTo[edge]);
    return result;
  }
  /** The nodes that require `node`, in edge order. */
  inNeighbours(node) {
    const result = [];
    for (let edge = this.inHead[node]; edge !== NONE; edge = this.nextIn[edge])
      result.push(this.edgeFrom[edge]);
    return result;
  }
  /** A copy with every edge turned around: out-lists become in-lists, with the same edge ids. */
  reversed() {
    const copy = new _Adjacency();
    copy.nodeCount = this.nodeCount;
    copy.edgeCount = this.edgeCount;
    copy.outHead = this.inHead.slice(0, this.nodeCount);
    copy.outTail = this.inTail.slice(0, this.nodeCount);
    copy.inHead = this.outHead.slice(0, this.nodeCount);
    copy.inTail = this.outTail.slice(0, this.nodeCount);
    copy.outDegree = this.inDegree.slice(0, this.nodeCount);
    copy.inDegree = this.outDegree.slice(0, this.nodeCount);
    copy.edgeFrom = this.edgeTo.slice(0, this.edgeCount);
    copy.edgeTo = this.edgeFrom.slice(0, this.edgeCount);
    copy.nextOut = this.nextIn.slice(0, this.edgeCount);
    copy.nextIn = this.nextOut.slice(0, this.edgeCount);
    return copy;
  }
  growNodes(capacity) {
    this.outHead = resized(this.outHead, capacity);
    this.outTail = resized(this.outTail, capacity);
    this.inHead = resized(this.inHead, capacity);
    this.inTail = resized(this.inTail, capacity);
    this.outDegree = resized(this.outDegree, capacity);
    this.inDegree = resized(this.inDegree, capacity);
  }
  growEdges(capacity) {
    this.edgeFrom = resized(this.edgeFrom, capacity);
    this.edgeTo = resized(this.edgeTo, capacity);
    this.nextOut = resized(this.nextOut, capacity);
    this.nextIn = resized(this.nextIn, capacity);
  }
};
function resized(array, capacity) {
  const next = new Int32Array(capacity);
  next.set(array.subarray(0, Math.min(array.length, capacity)));
  return next;
}

// src/graph/cycles.ts
var UNVISITED = 0;
var ON_PATH = 1;
var DONE = 2;
function findCycleIds(graph) {
  const n = graph.nodeCount;
  const { outHead, nextOut, edgeTo } = graph;
  const state = new Uint8Array(n);
  const path = new Int32Array(n);
  const cursor = new Int32Array(n);
  const depthOf = new Int32Array(n);
  for (let start2 = 0; start2 < n; start2++) {
    if (state[start2] !== UNVISITED) continue;
    let depth = 0;
    path[0] = start2;
    cursor[0] = outHead[start2];
    state[start2] = ON_PATH;
    depthOf[start2] = 0;
    while (depth >= 0) {
      const edge = cursor[depth];
      if (edge === NONE) {
        state[path[depth]] = DONE;
        depth--;
        continue;
      }
      cursor[depth] = nextOut[edge];
      const target = edgeTo[edge];
      if (state[target] === ON_PATH)
        return closeCycle(Array.from(path.subarray(depthOf[target], depth + 1)));
      if (state[target] === UNVISITED) {
        depth++;
        path[depth] = target;
        cursor[depth] = outHead[target];
        state[target] = ON_PATH;
        depthOf[target] = depth;
      }
    }
  }
  return void 0;
}
function closeCycle(nodes) {
  let first = 0;
  for (let i = 1; i < nodes.length; i++) if (nodes[i] < nodes[first]) first = i;
  const rotated = [...nodes.slice(first), ...nodes.slice(0, first)];
  rotated.push(rotated[0]);
  return rotated;
}

// src/graph/order.ts
function topologicalIds(graph) {
  const n = graph.nodeCount;
  const { inHead, nextIn, edgeFrom } = graph;
  const unplaced = graph.outDegree.slice(0, n);
  const order = new Int32Array(n);
  let tail = 0;
  for (let node = 0; node < n; node++) if (unplaced[node] === 0) order[tail++] = node;
  for (let head = 0; head < tail; head++) {
    for (let edge = inHead[order[head]]; edge !== NONE; edge = nextIn[edge]) {
      const requirer = edgeFrom[edge];
      if (--unplaced[requirer] === 0) order[tail++] = requirer;
    }
  }
  return tail === n ? order : void 0;
}

// src/graph/graph.ts
var DependencyGraph = class _DependencyGraph {
  ids = /* @__PURE__ */ new Map();
  keys = [];
  /**
   * Whether `ids` and `keys` are shared with a reversed() copy. Copying a million-entry Map costs
   * more than reversing the edges, so both graphs share them until one adds a node.
   */
  keysShared = false;
  adjacency = new Adjacency();
  /** Adds `key` unless present. */
  addNode(key) {
    this.idOf(key);
  }
  /** Records that `requirer` depends on `required`, adding either node if missing. Idempotent. */
  addEdge(requirer, required) {
    const from = this.idOf(requirer);
    this.adjacency.addEdge(from, this.idOf(required));
  }
  has(key) {
    return this.ids.has(key);
  }
  /** Whether `requirer` directly depends on `required`. */
  hasEdge(requirer, required) {
    const from = this.ids.get(requirer);
    const to = this.ids.get(required);
    return from !== void 0 && to !== void 0 && this.adjacency.hasEdge(from, to);
  }
  /** Number of nodes. */
  get size() {
    return this.keys.length;
  }
  get edgeCount() {
    return this.adjacency.edgeCount;
  }
  /** What `key` directly depends on. Throws UnknownNodeError for a missing node. */
  requires(key) {
    return this.keysOf(this.adjacency.outNeighbours(this.existingId(key)));
  }
  /** What directly depends on `key`. Throws UnknownNodeError for a missing node. */
  neededBy(key) {
    return this.keysOf(this.adjacency.inNeighbours(this.existingId(key)));
  }
  nodes() {
    return this.keys.slice();
  }
  /** Every edge as [requirer, required], in the order edges were added. */
  edges() {
    const { edgeCount, edgeFrom, edgeTo } = this.adjacency;
    const edges = new Array(edgeCount);
    for (let edge = 0; edge < edgeCount; edge++) {
      edges[edge] = [this.keys[edgeFrom[edge]], this.keys[edgeTo[edge]]];
    }
    return edges;
  }
  /** Nodes that require nothing: where a create traversal starts. */
  leaves() {
    const { outDegree } = this.adjacency;
    return this.keys.filter((_, id) => outDegree[id] === 0);
  }
  /** Nodes nothing requires: where a delete traversal starts. */
  roots() {
    const { inDegree } = this.adjacency;
    return this.keys.filter((_, id) => inDegree[id] === 0);
  }
  /** One cycle as [a, b, ..., a], each node requiring the next, starting at its earliest-added node. */
  findCycle() {
    const cycle = findCycleIds(this.adjacency);
    return cycle && this.keysOf(cycle);
  }
  /** Every node, each after everything it requires (create order). Throws CycleError on a cycle. */
  topologicalOrder() {
    const order = topologicalIds(this.adjacency);
    if (!order) throw new CycleError(this.findCycle());
    const keys = new Array(order.length);
    for (let i = 0; i < order.length; i++) keys[i] = this.keys[order[i]];
    return keys;
  }
  /** The same nodes with every edge turned around; its topological order is a delete order. */
  reversed() {
    const graph = new _DependencyGraph();
    graph.ids = this.ids;
    graph.keys = this.keys;
    graph.keysShared = this.keysShared = true;
    graph.adjacency = this.adjacency.reversed();
    return graph;
  }
  /** The nodes `keep` accepts, in the same order, with the edges between them in the same order. */
  subgraph(keep) {
    const graph = new _DependencyGraph();
    const newId = new Int32Array(this.keys.length).fill(-1);
    for (let id = 0; id < this.keys.length; id++) {
      const key = this.keys[id];
      if (keep(key)) newId[id] = graph.idOf(key);
    }
    const { edgeCount, edgeFrom, edgeTo } = this.adjacency;
    for (let edge = 0; edge < edgeCount; edge++) {
      const from = newId[edgeFrom[edge]];
      const to = newId[edgeTo[edge]];
      if (from >= 0 && to >= 0) graph.adjacency.addEdge(from, to);
    }
    return graph;
  }
  idOf(key) {
    let id = this.ids.get(key);
    if (id === void 0) {
      if (this.keysShared) {
        this.ids = new Map(this.ids);
        this.keys = this.keys.slice();
        this.keysShared = false;
      }
      id = this.adjacency.addNode();
      this.ids.set(key, id);
      this.keys.push(key);
    }
    return id;
  }
  existingId(key) {
    const id = this.ids.get(key);
    if (id === void 0) throw new UnknownNodeError(key);
    return id;
  }
  keysOf(ids) {
    return ids.map((id) => this.keys[id]);
  }
};

// src/graph/render.ts
function toDot(graph, opts = {}) {
  const lines = [opts.name === void 0 ? "digraph {" : `digraph ${quote2(opts.name)} {`];
  for (const key of graph.nodes()) {
    const attrs = {};
    if (opts.label) attrs.label = opts.label(key);
    if (opts.nodeAttrs) Object.assign(attrs, opts.nodeAttrs(key));
    const list2 = Object.entries(attrs).map(([name, value2]) => `${attributeName(name)}=${quote2(value2)}`);
    lines.push(`  ${quote2(String(key))}${list2.length ? ` [${list2.join(", ")}]` : ""};`);
  }
  for (const [requirer, required] of graph.edges()) {
    lines.push(`  ${quote2(String(requirer))} -> ${quote2(String(required))};`);
  }
  lines.push("}");
  return `${lines.join("\n")}
`;
}
function quote2(text) {
  return `"${text.replace(/[\\"\n\r]/g, (ch) => ch === "\n" ? "\\n" : ch === "\r" ? "\\r" : `\\${ch}`)}"`;
}
function attributeName(name) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : quote2(name);
}
function toJSON(graph) {
  return { nodes: graph.nodes(), edges: graph.edges().map(([from, to]) => ({ from, to })) };
}

// src/template/functions/resolve.ts
function resolveNode(node, ctx) {
  if (node instanceof FnCall) return resolveCall(node, ctx);
  if (node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) {
    const out2 = [];
    for (const item of node) {
      const value2 = ctx.resolve(item);
      if (value2 !== OMITTED) out2.push(value2);
    }
    return out2;
  }
  const out = {};
  for (const key of Object.keys(node)) {
    const value2 = ctx.resolve(node[key]);
    if (value2 !== OMITTED) setOwn(out, key, value2);
  }
  return out;
}
function resolveCall(call, ctx) {
  try {
    return call.def.resolve(call, ctx);
  } catch (err) {
    if (err instanceof RangeError && !(err instanceof TemplateError)) {
      throw new TemplateError("limit", `${call.name}: ${limitReason(err)}`, call.path);
    }
    throw err;
  }
}
function limitReason(err) {
  if (/string length/i.test(err.message)) return "the result is larger than the engine can hold";
  if (/call stack/i.test(err.message)) return "functions are nested too deeply to evaluate";
  return `a size limit was exceeded (${err.message})`;
}
function walkCalls(node, visit) {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current instanceof FnCall) {
      if (visit(current) !== false) stack.push(current.args);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push(current[i]);
    } else if (current !== null && typeof current === "object") {
      for (const value2 of Object.values(current)) stack.push(value2);
    }
  }
}

// src/template/conditions.ts
var ConditionEvaluator = class {
  constructor(definitions, context) {
    this.definitions = definitions;
    this.context = context;
  }
  definitions;
  context;
  values = /* @__PURE__ */ new Map();
  evaluating = /* @__PURE__ */ new Set();
  /** The value of an operand: a condition name, a boolean, or an inline condition function. */
  evaluate(node, path) {
    if (typeof node === "boolean") return node;
    if (typeof node === "string") return this.named(node, path);
    if (node instanceof FnCall) {
      const value2 = this.context().resolve(node);
      if (isUnknown(value2)) return UNKNOWN;
      if (typeof value2 !== "boolean") {
        throw new TemplateError(
          "function",
          `a condition must evaluate to true or false, got ${JSON.stringify(value2)}`,
          node.path
        );
      }
      return value2;
    }
    throw new TemplateError(
      "schema",
      "a condition must be a condition name, a boolean or a condition function",
      path
    );
  }
  /** The value of a named condition from the conditions section. */
  named(name, path) {
    const cached = this.values.get(name);
    if (cached !== void 0) return cached;
    const definition = this.definitions.get(name);
    if (definition === void 0) {
      throw new TemplateError(
        "reference",
        `condition "${name}" is not defined in the conditions section`,
        path
      );
    }
    if (this.evaluating.has(name)) {
      throw new TemplateError(
        "cycle",
        `condition "${name}" refers to itself: ${[...this.evaluating, name].join(" -> ")}`,
        ["conditions", name]
      );
    }
    this.evaluating.add(name);
    try {
      const value2 = this.evaluate(definition, ["conditions", name]);
      this.values.set(name, value2);
      return value2;
    } finally {
      this.evaluating.delete(name);
    }
  }
  /**
   * Evaluates every named condition (so that errors in unused ones are reported too), those a
   * condition refers to first: a long chain of conditions then never recurses deeply.
   */
  all() {
    for (const name of this.dependencyOrder()) this.named(name, ["conditions", name]);
    return new Map(this.values);
  }
  /** Named conditions in post-order of their references to each other (iterative DFS). */
  dependencyOrder() {
    const order = [];
    const state = /* @__PURE__ */ new Map();
    for (const root of this.definitions.keys()) {
      if (state.has(root)) continue;
      const stack = [[root, this.referencedNames(root)]];
      state.set(root, "open");
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        const next = top[1].pop();
        if (next === void 0) {
          stack.pop();
          state.set(top[0], "done");
          order.push(top[0]);
        } else if (!state.has(next) && this.definitions.has(next)) {
          state.set(next, "open");
          stack.push([next, this.referencedNames(next)]);
        }
      }
    }
    return order;
  }
  /** Names of other conditions a condition's definition refers to. */
  referencedNames(name) {
    const definition = this.definitions.get(name);
    const out = typeof definition === "string" ? [definition] : [];
    if (definition === void 0) return out;
    walkCalls(definition, (call) => {
      const operands = call.name === "not" ? [call.args] : Array.isArray(call.args) ? call.args : [];
      if (["and", "or", "not"].includes(call.name)) {
        for (const operand of operands) if (typeof operand === "string") out.push(operand);
      }
      return true;
    });
    return out;
  }
};
function knownBoolean(value2) {
  return isUnknown(value2) ? void 0 : value2;
}

// src/template/dependencies.ts
function collectReferences(node, conditions) {
  const out = [];
  walkCalls(node, (call) => {
    const name = call.def.referencedResource?.(call);
    if (name !== void 0) out.push({ resource: name, call, path: call.path });
    if (call.def.liveBranches) {
      const live = call.def.liveBranches(call, (cond) => knownBoolean(conditions.evaluate(cond, call.path)));
      for (const branch of live) for (const ref of collectReferences(branch, conditions)) out.push(ref);
      return false;
    }
    return true;
  });
  return out;
}

// src/template/environment/fnmatch.ts
var cache2 = /* @__PURE__ */ new Map();
var CACHE_LIMIT = 1e4;
function isWildcardPattern(pattern) {
  return /[*?[]/.test(pattern);
}
function fnmatch(name, pattern) {
  let compiled = cache2.get(pattern);
  if (compiled === void 0) {
    compiled = compile(pattern);
    if (cache2.size >= CACHE_LIMIT) cache2.clear();
    cache2.set(pattern, compiled);
  }
  return typeof compiled === "string" ? name === compiled : compiled.test(name);
}
function compile(pattern) {
  if (!isWildcardPattern(pattern)) return pattern;
  let source = "";
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i++];
    if (ch === "*") source += "[\\s\\S]*";
    else if (ch === "?") source += "[\\s\\S]";
    else if (ch === "[") {
      const end = classEnd(pattern, i);
      if (end < 0) {
        source += "\\[";
      } else {
        source += charClass(pattern.slice(i, end));
        i = end + 1;
      }
    } else {
      source += escapeRegExp(ch);
    }
  }
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    return pattern;
  }
}
function classEnd(pattern, start2) {
  let j = start2;
  if (pattern[j] === "!") j++;
  if (pattern[j] === "]") j++;
  while (j < pattern.length && pattern[j] !== "]") j++;
  return j < pattern.length ? j : -1;
}
function charClass(body) {
  const negated = body.startsWith("!");
  const members = negated ? body.slice(1) : body;
  const escaped = members.replace(/[\\\]^[]/g, (c) => `\\${c}`);
  return `[${negated ? "^" : ""}${escaped}]`;
}
function escapeRegExp(ch) {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}

// src/template/environment/child.ts
function childEnvironment(env, resourceName, parameters) {
  const { file: _file, source: _source, ...rest } = env;
  return {
    ...rest,
    parameters: { ...parameters },
    resourceRegistry: {
      ...env.resourceRegistry,
      resources: childEntries(env.resourceRegistry.resources, resourceName)
    }
  };
}
function childEntries(entries2, resourceName) {
  const out = /* @__PURE__ */ new Map();
  const take2 = (entry) => {
    if (entry) for (const [child, sub] of entry.nested) out.set(child, sub);
  };
  for (const [pattern, entry] of entries2) {
    if (isWildcardPattern(pattern) && fnmatch(resourceName, pattern)) take2(entry);
  }
  if (!isWildcardPattern(resourceName)) take2(entries2.get(resourceName));
  return out;
}

// src/template/environment/merge-parameters.ts
var StrategyBook = class {
  established = /* @__PURE__ */ new Map();
  fix(env, section, values) {
    const inFile = env.parameterMergeStrategies;
    for (const [key, value2] of Object.entries(values)) {
      if (value2 === null) continue;
      const strategy = getOwn(inFile, key) ?? this.established.get(key) ?? getOwn(inFile, "default") ?? "overwrite";
      const earlier = this.established.get(key);
      if (earlier === void 0) {
        this.established.set(key, strategy);
      } else if (earlier !== strategy) {
        const path = getOwn(inFile, key) !== void 0 ? ["parameter_merge_strategies", key] : [section, key];
        throw located(
          env,
          `conflicting merge strategy "${strategy}" for parameter "${key}" in file "${env.source?.file ?? env.file ?? "<environment>"}"; an earlier file gave it "${earlier}"`,
          path
        );
      }
    }
  }
};
function mergeParameterSection(old, incoming, env, section, book, options) {
  book.fix(env, section, incoming);
  if (Object.keys(old).length === 0) return cloneJson(incoming);
  for (const [key, value2] of Object.entries(incoming)) {
    if (value2 === null) continue;
    const strategy = book.established.get(key) ?? "overwrite";
    if (strategy === "overwrite") {
      setOwn(old, key, cloneJson(value2));
      continue;
    }
    const kind = options.parameterKind?.(key) ?? inferKind(value2);
    const merged = mergeValue(getOwn(old, key), value2, kind, strategy === "deep_merge");
    if (merged === void 0) {
      throw located(
        env,
        `invalid merge strategy "${strategy}" for parameter "${key}" (${describe2(getOwn(old, key), value2)})`,
        [section, key]
      );
    }
    setOwn(old, key, merged);
  }
  return old;
}
function inferKind(value2) {
  if (Array.isArray(value2) || typeof value2 === "string") return "comma_delimited_list";
  if (isPlainObject(value2)) return "json";
  if (typeof value2 === "number") return "number";
  return "boolean";
}
function mergeValue(old, value2, kind, deep) {
  switch (kind) {
    case "json": {
      const incoming = typeof value2 === "string" ? parseJsonValue(value2) : value2;
      if (!isPlainObject(incoming)) return void 0;
      const current = typeof old === "string" ? parseJsonValue(old) : old;
      if (current === void 0 || current === null) return cloneJson(incoming);
      return isPlainObject(current) ? mergeMap(current, incoming, deep) : void 0;
    }
    case "comma_delimited_list":
      return mergeList(old, value2);
    case "string":
      if (typeof value2 !== "string") return void 0;
      if (old === void 0 || old === null) return value2;
      return typeof old === "string" ? old + value2 : void 0;
    case "number":
      if (typeof value2 !== "number") return void 0;
      if (old === void 0 || old === null) return value2;
      return typeof old === "number" ? old + value2 : void 0;
    case "boolean":
      return void 0;
  }
}
function mergeList(old, value2) {
  if (old === void 0 || old === null || old === "" || Array.isArray(old) && old.length === 0)
    return cloneJson(value2);
  if (Array.isArray(value2))
    return Array.isArray(old) ? [...cloneJson(old), ...cloneJson(value2)] : void 0;
  if (typeof value2 === "string") return typeof old === "string" ? `${old},${value2}` : void 0;
  return void 0;
}
function mergeMap(old, incoming, deep) {
  const out = cloneJson(old);
  for (const [key, value2] of Object.entries(incoming)) {
    if (value2 === null) continue;
    const current = getOwn(out, key);
    let merged = cloneJson(value2);
    if (deep && current !== void 0 && current !== null) {
      if (isPlainObject(value2) && isPlainObject(current)) merged = mergeMap(current, value2, true);
      else if (Array.isArray(value2) && Array.isArray(current))
        merged = [...current, ...cloneJson(value2)];
      else if (typeof value2 === "string" && typeof current === "string") merged = current + value2;
    }
    setOwn(out, key, merged);
  }
  return out;
}
function parseJsonValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return void 0;
  }
}
function describe2(old, value2) {
  return old === void 0 ? `a ${typeName(value2)} cannot merge` : `a ${typeName(old)} and a ${typeName(value2)} cannot merge`;
}
function cloneJson(value2) {
  if (Array.isArray(value2)) return value2.map(cloneJson);
  if (value2 !== null && typeof value2 === "object") {
    const out = {};
    for (const [key, item] of Object.entries(value2)) setOwn(out, key, cloneJson(item));
    return out;
  }
  return value2;
}
function located(env, message, path) {
  const err = new TemplateError("environment", message, path);
  if (env.source) return env.source.annotate(err);
  return env.file === void 0 ? err : err.locate(env.file, void 0);
}

// src/template/environment/types.ts
var HOOK_TYPES = [
  "pre-create",
  "pre-update",
  "pre-delete",
  "post-create",
  "post-update",
  "post-delete"
];
var RESTRICTED_ACTIONS = ["update", "replace"];
var MERGE_STRATEGIES = ["overwrite", "merge", "deep_merge"];
var ENVIRONMENT_SECTIONS = [
  "parameters",
  "parameter_defaults",
  "resource_registry",
  "event_sinks",
  "parameter_merge_strategies",
  "encrypted_param_names"
];
function emptyRegistryData() {
  return { mappings: /* @__PURE__ */ new Map(), resources: /* @__PURE__ */ new Map(), baseUrl: void 0 };
}
function emptyResourceEntry() {
  return {
    types: /* @__PURE__ */ new Map(),
    hooks: void 0,
    restrictedActions: void 0,
    nested: /* @__PURE__ */ new Map(),
    baseUrl: void 0
  };
}
function emptyEnvironment() {
  return {
    parameters: {},
    parameterDefaults: {},
    resourceRegistry: emptyRegistryData(),
    eventSinks: [],
    parameterMergeStrategies: {},
    encryptedParamNames: []
  };
}

// src/template/environment/merge.ts
function mergeEnvironments(envs, options = {}) {
  const result = emptyEnvironment();
  const only = envs.length === 1 ? envs[0] : void 0;
  if (only?.file !== void 0) result.file = only.file;
  if (only?.source !== void 0) result.source = only.source;
  const book = new StrategyBook();
  for (const env of envs) {
    if (Object.keys(env.parameters).length > 0) {
      result.parameters = mergeParameterSection(
        result.parameters,
        env.parameters,
        env,
        "parameters",
        book,
        options
      );
    }
    if (Object.keys(env.parameterDefaults).length > 0) {
      result.parameterDefaults = mergeParameterSection(
        result.parameterDefaults,
        env.parameterDefaults,
        env,
        "parameter_defaults",
        book,
        options
      );
    }
    mergeRegistryInto(result.resourceRegistry, env.resourceRegistry);
    result.eventSinks.push(...env.eventSinks.map(cloneJson));
    for (const name of env.encryptedParamNames) {
      if (!result.encryptedParamNames.includes(name)) result.encryptedParamNames.push(name);
    }
  }
  const strategies = {};
  for (const [name, strategy] of book.established) setOwn(strategies, name, strategy);
  result.parameterMergeStrategies = strategies;
  return result;
}
function mergeRegistryInto(into, later) {
  if (later.baseUrl !== void 0) into.baseUrl = later.baseUrl;
  applyMappings(into.mappings, later.mappings);
  applyEntries(into.resources, later.resources);
}
function applyMappings(into, later) {
  for (const [key, target] of later) {
    if (target !== null) {
      into.set(key, target);
    } else if (key.endsWith("*")) {
      const prefix = key.slice(0, -1);
      for (const existing of [...into.keys()]) if (existing.startsWith(prefix)) into.delete(existing);
    } else {
      into.delete(key);
    }
  }
}
function applyEntries(into, later) {
  for (const [name, entry] of later) {
    if (entry === null) {
      into.delete(name);
      continue;
    }
    const merged = into.get(name) ?? emptyResourceEntry();
    mergeEntryInto(merged, entry);
    into.set(name, merged);
  }
}
function mergeEntryInto(into, later) {
  if (later.baseUrl !== void 0) into.baseUrl = later.baseUrl;
  if (later.hooks !== void 0) into.hooks = later.hooks === null ? void 0 : copyNames(later.hooks);
  if (later.restrictedActions !== void 0) {
    into.restrictedActions = later.restrictedActions === null ? void 0 : copyNames(later.restrictedActions);
  }
  for (const [key, target] of later.types) {
    if (target === null && !key.endsWith("*")) into.nested.delete(key);
  }
  applyMappings(into.types, later.types);
  applyEntries(into.nested, later.nested);
}
function copyNames(names2) {
  return Array.isArray(names2) ? [...names2] : names2;
}

// src/template/limits.ts
var DEFAULT_LIMITS = Object.freeze({
  maxDocumentBytes: 256 * 1024 * 1024,
  maxDocumentDepth: 64,
  maxDocumentNodes: 5e7,
  maxNestingDepth: 5,
  maxResourcesPerStack: 1e6,
  maxAliasCount: 1e3
});

// src/template/source.ts
import {
  isAlias,
  isMap as isMap3,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument
} from "yaml";

// src/template/yaml-fast.ts
import yaml from "js-yaml";
var types = yaml.types;
var BOOL_WORDS = /* @__PURE__ */ new Map();
for (const [words, value2] of [
  ["yes Yes YES true True TRUE on On ON", true],
  ["no No NO false False FALSE off Off OFF", false]
]) {
  for (const word of words.split(" ")) BOOL_WORDS.set(word, value2);
}
var bool11 = new yaml.Type("tag:yaml.org,2002:bool", {
  kind: "scalar",
  resolve: (data) => data !== null && BOOL_WORDS.has(data),
  construct: (data) => BOOL_WORDS.get(data),
  predicate: (obj) => typeof obj === "boolean",
  represent: (obj) => String(obj)
});
var OCTAL_11 = /^[-+]?0[0-7_]+$/;
var DECIMAL_11 = /^[-+]?[1-9][0-9_]*$/;
var SEXAGESIMAL = /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/;
var int11 = new yaml.Type("tag:yaml.org,2002:int", {
  kind: "scalar",
  resolve: (data) => data !== null && (OCTAL_11.test(data) || DECIMAL_11.test(data) || SEXAGESIMAL.test(data) || types.int.resolve(data)),
  construct: (data) => {
    const sign = data.startsWith("-") ? -1 : 1;
    const body = data.replace(/^[-+]/, "").replaceAll("_", "");
    if (OCTAL_11.test(data) && body.length > 1) return sign * Number.parseInt(body, 8);
    if (DECIMAL_11.test(data)) return sign * Number(body);
    if (SEXAGESIMAL.test(data))
      return sign * body.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
    return types.int.construct(data);
  },
  predicate: (obj) => typeof obj === "number" && Number.isInteger(obj),
  represent: (obj) => String(obj)
});
var HEAT_SCHEMA = yaml.FAILSAFE_SCHEMA.extend({
  implicit: [types.null, bool11, int11, types.float, types.merge]
});
var FastYamlError = class extends Error {
  constructor(message, line, column) {
    super(message);
    this.line = line;
    this.column = column;
  }
  line;
  column;
};
function loadYamlFast(text) {
  if (text.includes("&") && /(^|[\s[{,:-])&[^\s,[\]{}]+/.test(text)) return void 0;
  try {
    return yaml.load(text, { schema: HEAT_SCHEMA, json: true }) ?? null;
  } catch (err) {
    if (err instanceof yaml.YAMLException) {
      const mark = err.mark;
      const line = mark?.line === void 0 ? void 0 : mark.line + 1;
      const column = mark?.column === void 0 ? void 0 : mark.column + 1;
      throw new FastYamlError(err.reason ?? err.message, line, column);
    }
    throw err;
  }
}

// src/template/source.ts
var SourceDocument = class {
  constructor(file, text, format2, data) {
    this.file = file;
    this.text = text;
    this.format = format2;
    this.data = data;
  }
  file;
  text;
  format;
  data;
  located;
  /** The position of the node at `path`, or of its nearest existing ancestor. */
  positionOf(path) {
    this.located ??= parseYamlDocument(this.text, this.format);
    const { doc, lines } = this.located;
    let node = doc.contents;
    let offset = node?.range?.[0];
    for (const part of path) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap3(node)) {
        const pair = node.items.findLast(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part)
        );
        if (!pair) break;
        offset = pair.key.range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof part === "number" && part < node.items.length) {
        node = node.items[part];
        offset = node?.range?.[0] ?? offset;
      } else {
        break;
      }
    }
    if (offset === void 0) return void 0;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  }
  /** Attaches this document's file and the error path's position to an error raised inside it. */
  annotate(err) {
    if (err instanceof TemplateError && err.file === void 0) {
      err.locate(this.file, this.positionOf(err.path));
    }
    return err;
  }
};
function parseSource(file, text, limits = DEFAULT_LIMITS) {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > limits.maxDocumentBytes) {
    throw new TemplateError(
      "limit",
      `document is ${bytes} bytes, larger than the limit of ${limits.maxDocumentBytes} bytes`,
      [],
      { file }
    );
  }
  if (text.charCodeAt(0) === 65279) text = text.slice(1);
  const format2 = text.startsWith("{") ? "json" : "yaml";
  let data;
  try {
    data = format2 === "json" ? parseJson(file, text) : parseYaml(file, text, limits);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new TemplateError("limit", "document is nested too deeply to parse", [], { file });
    }
    throw err;
  }
  checkShape(file, data, limits);
  return new SourceDocument(file, text, format2, data);
}
function parseJson(file, text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    const { doc, lines } = parseYamlDocument(text, "json");
    const first = doc.errors[0];
    const offset = /at position (\d+)/.exec(err.message)?.[1];
    const pos = first ? errorPosition(first, lines) : offset !== void 0 ? lines.linePos(Number(offset)) : void 0;
    throw new TemplateError(
      "syntax",
      `invalid JSON: ${first?.message.split("\n")[0] ?? err.message}`,
      [],
      {
        file,
        ...pos ? { position: { line: pos.line, column: pos.col } } : {}
      }
    );
  }
}
function parseYaml(file, text, limits) {
  try {
    const fast = loadYamlFast(text);
    if (fast !== void 0) return fast;
  } catch (err) {
    if (!(err instanceof FastYamlError)) throw err;
  }
  const { doc, lines } = parseYamlDocument(text, "yaml");
  const first = doc.errors[0];
  if (first) {
    const pos = errorPosition(first, lines);
    const kind = first.code === "RESOURCE_EXHAUSTION" ? "limit" : "syntax";
    const detail = kind === "limit" ? "document is nested too deeply to parse" : `invalid YAML: ${first.message.split("\n")[0]}`;
    throw new TemplateError(kind, detail, [], {
      file,
      ...pos ? { position: { line: pos.line, column: pos.col } } : {}
    });
  }
  try {
    return doc.toJS({ maxAliasCount: limits.maxAliasCount });
  } catch (err) {
    if (err instanceof RangeError) throw err;
    const message = err.message;
    const kind = /alias count|Alias resolution is disabled/i.test(message) ? "limit" : "syntax";
    throw new TemplateError(kind, `invalid YAML: ${message}`, [], { file });
  }
}
function errorPosition(err, lines) {
  return err.linePos?.[0] ?? (err.pos ? lines.linePos(err.pos[0]) : void 0);
}
function parseYamlDocument(text, format2) {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false,
    // PyYAML, and so Heat, lets a later duplicate key win
    prettyErrors: false,
    logLevel: "error",
    // no warnings on the process's stderr for odd documents
    ...format2 === "json" ? { schema: "json" } : {
      version: "1.1",
      merge: true,
      customTags: heatYamlTags
    }
  });
  return { doc, lines };
}
var NON_JSON_TAGS = /* @__PURE__ */ new Set([
  "tag:yaml.org,2002:timestamp",
  "tag:yaml.org,2002:binary",
  "tag:yaml.org,2002:set",
  "tag:yaml.org,2002:omap",
  "tag:yaml.org,2002:pairs"
]);
var PYYAML_BOOL = /^(?:[Yy]es|YES|[Nn]o|NO|[Tt]rue|TRUE|[Ff]alse|FALSE|[Oo]n|ON|[Oo]ff|OFF)$/;
function heatYamlTags(tags) {
  return tags.filter((t) => !NON_JSON_TAGS.has(t.tag ?? "")).map((t) => {
    const tag = t;
    if (tag.tag !== "tag:yaml.org,2002:bool" || !tag.test) return t;
    return { ...tag, test: new RegExp(`(?=${PYYAML_BOOL.source})${tag.test.source}`) };
  });
}
function checkShape(file, data, limits) {
  const values = [data];
  const depths = [1];
  let nodes = 0;
  while (values.length > 0) {
    const value2 = values.pop();
    const depth = depths.pop();
    if (++nodes > limits.maxDocumentNodes) {
      throw new TemplateError("limit", `document has more than ${limits.maxDocumentNodes} nodes`, [], {
        file
      });
    }
    if (value2 === null || typeof value2 !== "object") continue;
    if (depth > limits.maxDocumentDepth) {
      throw new TemplateError(
        "limit",
        `document is nested deeper than ${limits.maxDocumentDepth} levels`,
        [],
        {
          file
        }
      );
    }
    if (Array.isArray(value2)) {
      for (let i = 0; i < value2.length; i++) {
        values.push(value2[i]);
        depths.push(depth + 1);
      }
    } else {
      for (const key in value2) {
        values.push(value2[key]);
        depths.push(depth + 1);
      }
    }
  }
}

// src/template/environment/urls.ts
import { resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
var URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
var TEMPLATE_EXTENSIONS = [".yaml", ".yml", ".template", ".json"];
function hasUrlScheme(ref) {
  return URL_SCHEME.test(ref);
}
function isTemplateType(type) {
  if (hasUrlScheme(type)) return true;
  if (TEMPLATE_EXTENSIONS.some((ext) => type.endsWith(ext))) return true;
  return !type.includes("::") && type.includes("/");
}
function resolveTemplateUrl(base, ref) {
  if (hasUrlScheme(ref)) return ref;
  const baseUrl = hasUrlScheme(base) ? base : localBaseUrl(base);
  try {
    return new URL(ref, baseUrl).href;
  } catch {
    throw new TemplateError("reference", `cannot resolve "${ref}" relative to "${base}"`);
  }
}
function localBaseUrl(base) {
  const url = pathToFileURL(resolvePath(base)).href;
  return base.endsWith("/") && !url.endsWith("/") ? `${url}/` : url;
}
function directoryBase(baseUrl) {
  return baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
}

// src/template/environment/parse-registry.ts
function parseRegistry(value2, path, base) {
  const registry2 = emptyRegistryData();
  if (!isPlainObject(value2))
    throw new TemplateError("environment", `"resource_registry" must be a map, got ${typeName(value2)}`, path);
  const baseUrl = getOwn(value2, "base_url");
  if (baseUrl !== void 0) registry2.baseUrl = stringAt(baseUrl, [...path, "base_url"], '"base_url"');
  const templateBase = withBaseUrl(base, registry2.baseUrl);
  for (const [key, target] of Object.entries(value2)) {
    const at = [...path, key];
    if (key === "base_url") continue;
    if (key === "resources") {
      if (!isPlainObject(target))
        throw new TemplateError("environment", `"resources" must be a map, got ${typeName(target)}`, at);
      parseEntries(target, at, templateBase, registry2.resources);
    } else if (key === "hooks" || key === "restricted_actions") {
      throw new TemplateError(
        "environment",
        `"${key}" applies to resources: put it under "resources", in the entry for a resource name or pattern`,
        at
      );
    } else {
      registry2.mappings.set(key, parseTarget(target, at, templateBase));
    }
  }
  return registry2;
}
function parseEntries(value2, path, base, into) {
  for (const [name, body] of Object.entries(value2)) {
    const at = [...path, name];
    if (body === null) into.set(name, null);
    else if (isPlainObject(body)) into.set(name, parseEntry(body, at, base));
    else
      throw new TemplateError(
        "environment",
        `the entry for resource "${name}" must be a map, got ${typeName(body)}`,
        at
      );
  }
}
function parseEntry(body, path, inherited) {
  const entry = emptyResourceEntry();
  const baseUrl = getOwn(body, "base_url");
  if (baseUrl !== void 0) entry.baseUrl = stringAt(baseUrl, [...path, "base_url"], '"base_url"');
  const base = withBaseUrl(inherited, entry.baseUrl);
  for (const [key, value2] of Object.entries(body)) {
    const at = [...path, key];
    if (key === "base_url") continue;
    if (key === "hooks") {
      entry.hooks = value2 === null ? null : parseNames(value2, at, HOOK_TYPES, hookError);
    } else if (key === "restricted_actions") {
      entry.restrictedActions = value2 === null ? null : parseNames(value2, at, RESTRICTED_ACTIONS, restrictedError);
    } else if (isPlainObject(value2)) {
      entry.nested.set(key, parseEntry(value2, at, base));
    } else {
      entry.types.set(key, parseTarget(value2, at, base));
    }
  }
  return entry;
}
function withBaseUrl(inherited, baseUrl) {
  if (inherited === void 0 || baseUrl === void 0) return inherited;
  return directoryBase(resolveTemplateUrl(inherited, baseUrl));
}
function parseTarget(value2, path, base) {
  if (value2 === null) return null;
  const target = stringAt(value2, path, `the mapping for "${String(path[path.length - 1])}"`);
  if (base === void 0 || !isTemplateType(target) || hasUrlScheme(target)) return target;
  return resolveTemplateUrl(base, target);
}
function stringAt(value2, path, what) {
  if (typeof value2 !== "string")
    throw new TemplateError("environment", `${what} must be a string, got ${typeName(value2)}`, path);
  return value2;
}
function parseNames(value2, path, allowed, message) {
  const check = (item, at) => {
    if (typeof item !== "string" || !allowed.includes(item)) {
      throw new TemplateError(
        "environment",
        message(typeof item === "string" ? item : JSON.stringify(item)),
        at
      );
    }
    return item;
  };
  if (Array.isArray(value2)) return value2.map((item, i) => check(item, [...path, i]));
  if (typeof value2 === "string") return check(value2, path);
  throw new TemplateError("environment", message(JSON.stringify(value2)), path);
}
function hookError(value2) {
  return `invalid hook type "${value2}" for resource breakpoint; acceptable hook types are: ${HOOK_TYPES.join(", ")}`;
}
function restrictedError(value2) {
  return `invalid restricted_action type "${value2}" for resource; acceptable restricted_action types are: ${RESTRICTED_ACTIONS.join(", ")}`;
}

// src/template/environment/parse.ts
function parseEnvironment(file, text, limits = DEFAULT_LIMITS, options = {}) {
  const doc = parseSource(file, text, limits);
  try {
    return fromData(doc, options.resolveTemplates === false ? void 0 : file);
  } catch (err) {
    throw doc.annotate(err);
  }
}
function fromData(doc, templateBase) {
  const env = { ...emptyEnvironment(), source: doc };
  if (templateBase !== void 0) env.file = templateBase;
  const data = doc.data;
  if (data === null) return env;
  if (!isPlainObject(data)) {
    throw new TemplateError(
      "environment",
      `the environment is not a valid YAML mapping data type (got ${typeName(data)})`
    );
  }
  for (const [section, value2] of Object.entries(data)) {
    if (!ENVIRONMENT_SECTIONS.includes(section)) {
      throw new TemplateError(
        "environment",
        `environment has wrong section "${section}"; allowed sections are: ${ENVIRONMENT_SECTIONS.join(", ")}`,
        [section]
      );
    }
    if (value2 === null)
      throw new TemplateError("environment", `environment has empty section "${section}"`, [section]);
  }
  const parameters = getOwn(data, "parameters");
  if (parameters !== void 0) env.parameters = mapSection(parameters, "parameters");
  const defaults = getOwn(data, "parameter_defaults");
  if (defaults !== void 0) env.parameterDefaults = mapSection(defaults, "parameter_defaults");
  const registry2 = getOwn(data, "resource_registry");
  if (registry2 !== void 0)
    env.resourceRegistry = parseRegistry(registry2, ["resource_registry"], templateBase);
  const sinks = getOwn(data, "event_sinks");
  if (sinks !== void 0) env.eventSinks = eventSinks(sinks);
  const strategies = getOwn(data, "parameter_merge_strategies");
  if (strategies !== void 0) env.parameterMergeStrategies = mergeStrategies(strategies);
  const encrypted = getOwn(data, "encrypted_param_names");
  if (encrypted !== void 0) env.encryptedParamNames = stringList(encrypted, "encrypted_param_names");
  return env;
}
function mapSection(value2, section) {
  if (!isPlainObject(value2)) {
    throw new TemplateError("environment", `section "${section}" must be a map, got ${typeName(value2)}`, [
      section
    ]);
  }
  return value2;
}
function eventSinks(value2) {
  if (!Array.isArray(value2)) {
    throw new TemplateError("environment", `section "event_sinks" must be a list, got ${typeName(value2)}`, [
      "event_sinks"
    ]);
  }
  value2.forEach((sink, i) => {
    if (!isPlainObject(sink)) {
      throw new TemplateError("environment", `an event sink must be a map, got ${typeName(sink)}`, [
        "event_sinks",
        i
      ]);
    }
    if (typeof getOwn(sink, "type") !== "string") {
      throw new TemplateError("environment", 'an event sink needs a "type" (e.g. zaqar-queue)', [
        "event_sinks",
        i
      ]);
    }
  });
  return value2;
}
function mergeStrategies(value2) {
  const section = "parameter_merge_strategies";
  const map = mapSection(value2, section);
  const out = {};
  for (const [name, strategy] of Object.entries(map)) {
    if (typeof strategy !== "string" || !MERGE_STRATEGIES.includes(strategy)) {
      throw new TemplateError(
        "environment",
        `invalid merge strategy ${JSON.stringify(strategy)} for "${name}"; allowed strategies are: ${MERGE_STRATEGIES.join(", ")}`,
        [section, name]
      );
    }
    setOwn(out, name, strategy);
  }
  return out;
}
function stringList(value2, section) {
  if (!Array.isArray(value2)) {
    throw new TemplateError("environment", `section "${section}" must be a list, got ${typeName(value2)}`, [
      section
    ]);
  }
  return value2.map((item, i) => {
    if (typeof item !== "string") {
      throw new TemplateError("environment", `"${section}" must list strings, got ${typeName(item)}`, [
        section,
        i
      ]);
    }
    return item;
  });
}

// src/template/environment/serialize.ts
function environmentToJSON(env, options = {}) {
  const out = {
    resource_registry: registryToJSON(env.resourceRegistry),
    parameters: cloneJson(env.parameters),
    parameter_defaults: cloneJson(env.parameterDefaults),
    event_sinks: env.eventSinks.map(cloneJson)
  };
  if (options.encryptedParamNames !== false) out.encrypted_param_names = [...env.encryptedParamNames];
  return out;
}
function registryToJSON(registry2) {
  const out = { resources: entriesToJSON(registry2.resources) };
  for (const [key, target] of registry2.mappings) if (target !== null) setOwn(out, key, target);
  if (registry2.baseUrl !== void 0) setOwn(out, "base_url", registry2.baseUrl);
  return out;
}
function entriesToJSON(entries2) {
  const out = {};
  for (const [name, entry] of entries2) if (entry !== null) setOwn(out, name, entryToJSON(entry));
  return out;
}
function entryToJSON(entry) {
  const out = {};
  for (const [type, target] of entry.types) if (target !== null) setOwn(out, type, target);
  for (const [name, nested] of entry.nested) if (nested !== null) setOwn(out, name, entryToJSON(nested));
  if (entry.hooks != null) out.hooks = names(entry.hooks);
  if (entry.restrictedActions != null) out.restricted_actions = names(entry.restrictedActions);
  if (entry.baseUrl !== void 0) out.base_url = entry.baseUrl;
  return out;
}
function names(value2) {
  return Array.isArray(value2) ? [...value2] : value2;
}

// src/template/environment/registry.ts
var EMPTY_LEVEL = { exact: /* @__PURE__ */ new Map(), patterns: [] };
var ResourceRegistry = class {
  data;
  file;
  source;
  base;
  globKeys;
  globalResolutions = /* @__PURE__ */ new Map();
  levels = /* @__PURE__ */ new Map();
  constructor(env, base) {
    this.data = env?.resourceRegistry ?? emptyRegistryData();
    this.file = env?.file;
    this.source = env?.source;
    this.base = base;
  }
  /** Whether a template's `type:` names a template file itself (the template loader resolves those). */
  isTemplateType(type) {
    return isTemplateType(type);
  }
  /**
   * What implements `type` for the resource `resourceName`, which lives in the nested stack reached
   * through the resources named by `nestedPath` (empty for the top stack). A type with no mapping
   * is a plugin type as it is; a template type with no mapping is returned as written.
   */
  resolveType(type, resourceName, nestedPath = []) {
    const own = this.entriesWithTypes(resourceName, nestedPath);
    const inBase = this.base?.entriesWithTypes(resourceName, nestedPath) ?? [];
    if (own.length === 0 && inBase.length === 0) {
      let cached = this.globalResolutions.get(type);
      if (cached === void 0) {
        cached = Object.freeze(this.follow(type, (t) => this.globalStep(t)));
        this.globalResolutions.set(type, cached);
      }
      return cached;
    }
    return this.follow(type, (t) => this.resourceStep(t, own) ?? this.globalStep(t, inBase));
  }
  /** The hooks set on a resource by every `resources:` entry that matches it (Heat: matches_hook). */
  hooksFor(resourceName, nestedPath = []) {
    const hooks = /* @__PURE__ */ new Set();
    for (const { entry } of this.matching(resourceName, nestedPath)) addNames(hooks, entry.hooks);
    return hooks;
  }
  /** The actions forbidden on a resource by every matching `resources:` entry. */
  restrictedActionsFor(resourceName, nestedPath = []) {
    const actions = /* @__PURE__ */ new Set();
    for (const { entry } of this.matching(resourceName, nestedPath))
      addNames(actions, entry.restrictedActions);
    return actions;
  }
  /** This environment's registry as Heat's environment and validate APIs print it. */
  toJSON() {
    return registryToJSON(this.data);
  }
  follow(type, step) {
    const chain = [type];
    let current = type;
    for (; ; ) {
      const next = step(current);
      if (next === void 0) {
        return isTemplateType(current) ? { kind: "template", url: current } : { kind: "plugin", type: current };
      }
      if (isTemplateType(next.target))
        return { kind: "template", url: next.registry.templateUrl(next.target) };
      if (chain.includes(next.target)) {
        const err = new TemplateError(
          "environment",
          `resource type mappings form a loop: ${[...chain, next.target].join(" -> ")}`,
          next.path
        );
        throw next.registry.source ? next.registry.source.annotate(err) : err;
      }
      chain.push(next.target);
      current = next.target;
    }
  }
  resourceStep(type, entries2) {
    for (const { entry, path } of entries2) {
      const key = bestKey(entry.types, type);
      if (key !== void 0)
        return this.stepTo(entry.types, key, type, ["resource_registry", "resources", ...path, key]);
    }
    return void 0;
  }
  /** Global mappings of this registry, then the base registry (its per-resource entries first). */
  globalStep(type, baseEntries = []) {
    this.globKeys ??= [...this.data.mappings.keys()].filter((k) => k.endsWith("*"));
    const key = bestKey(this.data.mappings, type, this.globKeys);
    if (key !== void 0) return this.stepTo(this.data.mappings, key, type, ["resource_registry", key]);
    if (!this.base) return void 0;
    return this.base.resourceStep(type, baseEntries) ?? this.base.globalStep(type);
  }
  stepTo(mappings, key, type, path) {
    const value2 = mappings.get(key);
    const target = key.endsWith("*") && value2.endsWith("*") ? value2.slice(0, -1) + type.slice(key.length - 1) : value2;
    return { target, path, registry: this };
  }
  templateUrl(target) {
    return this.file === void 0 || hasUrlScheme(target) ? target : resolveTemplateUrl(this.file, target);
  }
  /** Matching entries that map types: the exact name first, then patterns, later ones first. */
  entriesWithTypes(resourceName, nestedPath) {
    return this.matching(resourceName, nestedPath).filter((l) => l.entry.types.size > 0);
  }
  /** Every entry matching the resource at this nesting level, in precedence order. */
  matching(resourceName, nestedPath) {
    const level = this.levelAt(nestedPath);
    if (level.exact.size === 0 && level.patterns.length === 0) return [];
    const out = [];
    const exact = level.exact.get(resourceName);
    if (exact) out.push(exact);
    for (let i = level.patterns.length - 1; i >= 0; i--) {
      const [pattern, located2] = level.patterns[i];
      if (fnmatch(resourceName, pattern)) out.push(located2);
    }
    return out;
  }
  /**
   * The entries that apply inside the nested stack reached through `nestedPath`. As Heat builds a
   * nested stack's environment, each step keeps the sub-entries of every entry matching that
   * resource's name, patterns in document order and the exact name last, so later ones win.
   */
  levelAt(nestedPath) {
    const cacheKey = JSON.stringify(nestedPath);
    let level = this.levels.get(cacheKey);
    if (level !== void 0) return level;
    if (nestedPath.length === 0) {
      level = toLevel([...this.data.resources].map(([name, entry]) => [name, entry, [name]]));
    } else {
      const parent = this.levelAt(nestedPath.slice(0, -1));
      const name = nestedPath[nestedPath.length - 1];
      const children = /* @__PURE__ */ new Map();
      const take2 = ({ entry, path }) => {
        for (const [child, sub] of entry.nested) children.set(child, [sub, [...path, child]]);
      };
      for (const [pattern, located2] of parent.patterns) if (fnmatch(name, pattern)) take2(located2);
      const exact = parent.exact.get(name);
      if (exact) take2(exact);
      level = toLevel([...children].map(([child, [entry, path]]) => [child, entry, path]));
    }
    this.levels.set(cacheKey, level);
    return level;
  }
};
function toLevel(entries2) {
  if (entries2.length === 0) return EMPTY_LEVEL;
  const level = { exact: /* @__PURE__ */ new Map(), patterns: [] };
  for (const [name, entry, path] of entries2) {
    if (entry === null) continue;
    if (isWildcardPattern(name)) level.patterns.push([name, { entry, path }]);
    else level.exact.set(name, { entry, path });
  }
  return level;
}
function bestKey(mappings, type, globKeys = [...mappings.keys()].filter((k) => k.endsWith("*"))) {
  let best = typeof mappings.get(type) === "string" ? type : void 0;
  for (const key of globKeys) {
    const value2 = mappings.get(key);
    if (typeof value2 !== "string" || value2 === type || !type.startsWith(key.slice(0, -1))) continue;
    if (best === void 0 || key < best) best = key;
  }
  return best;
}
function addNames(into, names2) {
  if (typeof names2 === "string") into.add(names2);
  else if (Array.isArray(names2)) for (const name of names2) into.add(name);
}

// src/template/environment/templates.ts
function registryTemplateUrls(env) {
  const found = /* @__PURE__ */ new Set();
  const add2 = (target) => {
    if (target === null || !isTemplateType(target)) return;
    found.add(env.file === void 0 ? target : resolveTemplateUrl(env.file, target));
  };
  const visit = (entry) => {
    if (entry === null) return;
    entry.types.forEach(add2);
    entry.nested.forEach(visit);
  };
  env.resourceRegistry.mappings.forEach(add2);
  env.resourceRegistry.resources.forEach(visit);
  return [...found];
}

// src/template/functions/parse.ts
function parseNode(raw, path, table) {
  return parseAt(raw, path, table);
}
function pathOf(where2) {
  return where2 instanceof PathLink ? where2.toPath() : where2;
}
function parseAt(raw, where2, table) {
  if (raw === null || typeof raw !== "object") return raw;
  if (Array.isArray(raw)) {
    let out2;
    for (let i = 0; i < raw.length; i++) {
      const item = raw[i];
      const parsed = item === null || typeof item !== "object" ? item : parseAt(item, new PathLink(where2, i), table);
      if (parsed !== item && out2 === void 0) out2 = raw.slice(0, i);
      out2?.push(parsed);
    }
    return out2 ?? raw;
  }
  const keys = Object.keys(raw);
  if (keys.length === 1) {
    const key = keys[0];
    const def = table.lookup(key);
    if (def) {
      const rawArgs = raw[key];
      const args = def.parseArgs ? def.parseArgs(rawArgs, new PathLink(where2, key).toPath(), {
        value: (r, p) => parseAt(r, p, table),
        condition: (r, p) => parseAt(r, p, table.conditionScope ?? table)
      }) : rawArgs === null || typeof rawArgs !== "object" ? rawArgs : parseAt(rawArgs, new PathLink(where2, key), table);
      const call = new FnCall(def, args, where2);
      def.check?.(call);
      return call;
    }
    const why = table.unavailable(key);
    if (why !== void 0) throw new TemplateError("version", why, pathOf(where2));
  }
  let out;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const value2 = raw[key];
    const parsed = value2 === null || typeof value2 !== "object" ? value2 : parseAt(value2, new PathLink(where2, key), table);
    if (parsed !== value2 && out === void 0) {
      out = {};
      for (let j = 0; j < i; j++) setNode(out, keys[j], raw[keys[j]]);
    }
    if (out) setNode(out, key, parsed);
  }
  return out ?? raw;
}
function setNode(out, key, value2) {
  if (key === "__proto__") {
    Object.defineProperty(out, key, { value: value2, enumerable: true, writable: true, configurable: true });
  } else {
    out[key] = value2;
  }
}

// src/template/template.ts
var VERSION_KEY = "heat_template_version";
function parseTemplate(source) {
  try {
    return buildTemplate(source);
  } catch (err) {
    throw source.annotate(err);
  }
}
function buildTemplate(source) {
  const data = source.data;
  if (!isPlainObject(data)) {
    throw new TemplateError("syntax", "the template is not a JSON object or YAML mapping");
  }
  const version = templateVersion(data);
  for (const key of Object.keys(data)) {
    if (!version.sections.includes(key)) {
      throw new TemplateError(
        "schema",
        `"${key}" is not a valid section in heat_template_version ${version.date}`,
        [key]
      );
    }
  }
  const description = optionalString(data, "description", ["description"]);
  const parameters = parseParameterSchemas(getOwn(data, "parameters"), version);
  const parameterGroups = parseParameterGroups(
    getOwn(data, "parameter_groups"),
    parameters
  );
  const conditions = parseConditions(getOwn(data, "conditions"), version);
  const resources = parseResources(getOwn(data, "resources"), version);
  const outputs = parseOutputs(getOwn(data, "outputs"), version);
  return { source, version, description, parameters, parameterGroups, conditions, resources, outputs };
}
function templateVersion(data) {
  if (Object.hasOwn(data, "AWSTemplateFormatVersion") || Object.hasOwn(data, "HeatTemplateFormatVersion")) {
    throw new TemplateError(
      "version",
      "CloudFormation-format templates are not supported; use a HOT template (heat_template_version)"
    );
  }
  const raw = getOwn(data, VERSION_KEY);
  if (raw === void 0) {
    throw new TemplateError(
      "version",
      `template format version not found: the "${VERSION_KEY}" key is missing`
    );
  }
  const value2 = typeof raw === "string" ? raw : String(raw);
  const version = findVersion(value2);
  if (!version) {
    throw new TemplateError(
      "version",
      `"${value2}" is not a supported heat_template_version; supported: ${describeSupportedVersions()}`,
      [VERSION_KEY]
    );
  }
  return version;
}
function optionalString(obj, key, path) {
  const value2 = getOwn(obj, key);
  if (value2 === void 0 || value2 === null) return void 0;
  if (typeof value2 !== "string") {
    throw new TemplateError("schema", `"${key}" must be a string, got ${typeName(value2)}`, path);
  }
  return value2;
}
function sectionMap(raw, section) {
  if (raw === void 0 || raw === null) return {};
  if (!isPlainObject(raw)) {
    throw new TemplateError("schema", `the "${section}" section must be a map, got ${typeName(raw)}`, [
      section
    ]);
  }
  return raw;
}
function parseConditions(raw, version) {
  const section = sectionMap(raw, "conditions");
  const out = /* @__PURE__ */ new Map();
  for (const [name, definition] of Object.entries(section)) {
    out.set(name, parseNode(definition, ["conditions", name], version.conditionFunctions));
  }
  return out;
}
function parseResources(raw, version) {
  const section = sectionMap(raw, "resources");
  const out = /* @__PURE__ */ new Map();
  for (const [name, body] of Object.entries(section)) {
    out.set(name, parseResource(name, body, version));
  }
  return out;
}
function parseResource(name, body, version) {
  const path = ["resources", name];
  if (name.includes("/")) throw new TemplateError("schema", 'a resource name may not contain "/"', path);
  if (!isPlainObject(body)) {
    throw new TemplateError("schema", `a resource definition must be a map, got ${typeName(body)}`, path);
  }
  for (const key of Object.keys(body)) {
    if (!version.resourceKeys.includes(key)) {
      throw new TemplateError(
        "schema",
        `"${key}" is not a valid keyword inside a resource definition in heat_template_version ${version.date}`,
        [...path, key]
      );
    }
  }
  const type = getOwn(body, "type");
  if (type === void 0) throw new TemplateError("schema", 'the resource has no "type"', path);
  if (typeof type !== "string" || type === "") {
    throw new TemplateError("schema", `"type" must be a non-empty string, got ${typeName(type)}`, [
      ...path,
      "type"
    ]);
  }
  const values = version.functions;
  const parseField = (key, table = values) => {
    const value2 = getOwn(body, key);
    return value2 === void 0 ? void 0 : parseNode(value2, [...path, key], table);
  };
  const properties = parseField("properties") ?? null;
  expectMapOrCall(properties, [...path, "properties"], "properties");
  const metadata = parseField("metadata") ?? null;
  expectMapOrCall(metadata, [...path, "metadata"], "metadata");
  const updatePolicy = parseField("update_policy") ?? null;
  expectMapOrCall(updatePolicy, [...path, "update_policy"], "update_policy");
  const deletionPolicy = parseField("deletion_policy");
  if (typeof deletionPolicy === "string" && !version.deletionPolicies.includes(deletionPolicy)) {
    throw new TemplateError(
      "schema",
      `invalid deletion policy "${deletionPolicy}"; expected one of ${version.deletionPolicies.join(", ")}`,
      [...path, "deletion_policy"]
    );
  }
  return {
    name,
    type,
    properties,
    metadata,
    dependsOn: parseDependsOn(getOwn(body, "depends_on"), [...path, "depends_on"]),
    deletionPolicy,
    updatePolicy,
    description: optionalString(body, "description", [...path, "description"]),
    condition: parseField("condition", version.conditionFunctions),
    externalId: parseField("external_id"),
    path
  };
}
function expectMapOrCall(node, path, what) {
  if (node === null || typeof node === "object" && !Array.isArray(node)) return;
  throw new TemplateError("schema", `"${what}" must be a map, got ${typeName(node)}`, path);
}
function parseDependsOn(raw, path) {
  if (raw === void 0 || raw === null) return [];
  const list2 = Array.isArray(raw) ? raw : [raw];
  return list2.map((item, i) => {
    if (typeof item !== "string") {
      throw new TemplateError(
        "schema",
        `depends_on must name resources (strings), got ${typeName(item)}`,
        Array.isArray(raw) ? [...path, i] : path
      );
    }
    return item;
  });
}
function parseOutputs(raw, version) {
  const section = sectionMap(raw, "outputs");
  const out = /* @__PURE__ */ new Map();
  for (const [name, body] of Object.entries(section)) {
    const path = ["outputs", name];
    if (!isPlainObject(body)) {
      throw new TemplateError("schema", `an output definition must be a map, got ${typeName(body)}`, path);
    }
    for (const key of Object.keys(body)) {
      if (!version.outputKeys.includes(key)) {
        throw new TemplateError(
          "schema",
          `"${key}" is not a valid keyword inside an output definition in heat_template_version ${version.date}`,
          [...path, key]
        );
      }
    }
    if (!Object.hasOwn(body, "value")) {
      throw new TemplateError("schema", 'each output definition must contain a "value" key', path);
    }
    const condition = getOwn(body, "condition");
    out.set(name, {
      name,
      value: parseNode(body.value, [...path, "value"], version.functions),
      description: optionalString(body, "description", [...path, "description"]),
      condition: condition === void 0 ? void 0 : parseNode(condition, [...path, "condition"], version.conditionFunctions),
      path
    });
  }
  return out;
}

// src/template/types.ts
var EMPTY_CATALOG = { get: () => void 0 };

// src/template/validation-context.ts
var ValidationContext = class {
  constructor(template, parameters, files, types2) {
    this.template = template;
    this.parameters = parameters;
    this.files = files;
    this.types = types2;
  }
  template;
  parameters;
  files;
  types;
  conditions;
  enabled = /* @__PURE__ */ new Map();
  all = /* @__PURE__ */ new Set();
  /** get_attr reads per resource, checked once that resource's type is known. */
  attributeReads = /* @__PURE__ */ new Map();
  bindConditions(conditions) {
    this.conditions = conditions;
  }
  bindResources(enabled, all2) {
    this.enabled = enabled;
    this.all = all2;
  }
  resolve(node) {
    return resolveNode(node, this);
  }
  isParameter(name) {
    return this.parameters.has(name);
  }
  param(name, path) {
    const value2 = this.parameters.get(name);
    if (value2 === void 0) {
      throw new TemplateError("reference", `the parameter "${name}" is not defined in the template`, path);
    }
    return value2;
  }
  resourceRef(name, path) {
    this.checkResource(name, path);
    return UNKNOWN;
  }
  resourceAttr(name, attr2, path) {
    this.checkResource(name, path);
    void attr2;
    return UNKNOWN;
  }
  file(name, path) {
    const direct = Object.hasOwn(this.files, name) ? this.files[name] : void 0;
    if (direct !== void 0) return direct;
    const relative = resolveTemplateUrl(this.template.source.file, name);
    const found = Object.hasOwn(this.files, relative) ? this.files[relative] : void 0;
    if (found !== void 0) return found;
    throw new TemplateError("reference", `no content found in the files map for get_file "${name}"`, path);
  }
  condition(node, path) {
    if (!this.conditions) throw new Error("internal: conditions are not bound");
    return this.conditions.evaluate(node, path);
  }
  facade() {
    return UNKNOWN;
  }
  yaql(expression, data, path) {
    return evaluateYaqlAt(expression, data, path);
  }
  /** Checks get_attr reads of `resource` against its type's attributes, once the type is known. */
  checkAttributeReads(resource, info) {
    for (const call of this.attributeReads.get(resource) ?? []) {
      const attr2 = attributeOf(call);
      if (attr2 !== void 0 && !info.hasAttribute(attr2)) {
        throw new TemplateError(
          "reference",
          `resource "${resource}" (${info.type}) has no attribute "${attr2}"`,
          call.path
        );
      }
    }
  }
  /** Notes a get_attr call, checked by checkAttributeReads once the target's type is known. */
  recordAttributeRead(resource, call) {
    const list2 = this.attributeReads.get(resource);
    if (list2) list2.push(call);
    else this.attributeReads.set(resource, [call]);
  }
  checkResource(name, path) {
    if (this.enabled.has(name)) return;
    if (this.all.has(name)) {
      throw new TemplateError(
        "reference",
        `resource "${name}" is referenced here but its condition is false`,
        path
      );
    }
    throw new TemplateError(
      "reference",
      `the specified reference "${name}" is not a resource of this template`,
      path
    );
  }
};

// src/template/stack-definition.ts
function defineStackFromText(file, text, options = {}) {
  const limits = options.limits ?? DEFAULT_LIMITS;
  return defineStack(parseTemplate(parseSource(file, text, limits)), options);
}
function defineStack(template, options = {}) {
  return define2(template, options, {
    depth: 0,
    path: [],
    supplied: void 0,
    chain: [template.source.file],
    counter: { resources: 0 }
  });
}
function define2(template, options, nesting) {
  try {
    return defineUnannotated(template, options, nesting);
  } catch (err) {
    throw template.source.annotate(err);
  }
}
function defineUnannotated(template, options, nesting) {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const env = options.environment;
  const strict = options.strict ?? false;
  const pending = pendingParameters(template, nesting);
  const schemas = pending.size === 0 ? template.parameters : new Map([...template.parameters].filter(([name]) => !pending.has(name)));
  const parameters = resolveParameterValues(schemas, suppliedValues(template, env, nesting), {
    strict,
    pseudo: {
      "OS::stack_name": options.stackName ?? UNKNOWN,
      "OS::stack_id": options.stackId ?? UNKNOWN,
      "OS::project_id": options.projectId ?? UNKNOWN,
      "OS::region": options.region ?? UNKNOWN
    }
  });
  for (const name of pending) parameters.set(name, UNKNOWN);
  const resourceNames = new Set(template.resources.keys());
  const context = new ValidationContext(
    template,
    parameters,
    options.files ?? {},
    options.types ?? EMPTY_CATALOG
  );
  const conditions = new ConditionEvaluator(template.conditions, () => context);
  context.bindConditions(conditions);
  const conditionValues = conditions.all();
  const enabled = /* @__PURE__ */ new Map();
  for (const [name, def] of template.resources) {
    if (def.condition === void 0 || conditions.evaluate(def.condition, [...def.path, "condition"]) !== false) {
      enabled.set(name, def);
    }
  }
  context.bindResources(enabled, resourceNames);
  nesting.counter.resources += enabled.size;
  if (nesting.counter.resources > limits.maxResourcesPerStack) {
    throw new TemplateError(
      "limit",
      `the stack has more than ${limits.maxResourcesPerStack} resources (the configured limit)`,
      ["resources"]
    );
  }
  const registry2 = new ResourceRegistry(env);
  const graph = new DependencyGraph();
  const resources = /* @__PURE__ */ new Map();
  for (const [name, def] of enabled) {
    graph.addNode(name);
    const requires = dependenciesOf(def, template, conditions, enabled, resourceNames, context);
    for (const required of requires) graph.addEdge(name, required);
    const implementation = implement(def, template, registry2, context, options, nesting);
    resources.set(name, { definition: def, implementation, requires });
  }
  const cycle = graph.findCycle();
  if (cycle) {
    throw new TemplateError("cycle", `circular dependency between resources: ${cycle.join(" -> ")}`, [
      "resources",
      cycle[0]
    ]);
  }
  const outputs = /* @__PURE__ */ new Map();
  for (const [name, output] of template.outputs) {
    if (output.condition !== void 0 && conditions.evaluate(output.condition, [...output.path, "condition"]) === false) {
      continue;
    }
    for (const ref of collectReferences(output.value, conditions)) {
      checkReference(ref.resource, ref.path, enabled, resourceNames, template);
      if (ref.call.name === "get_attr") context.recordAttributeRead(ref.resource, ref.call);
    }
    context.resolve(output.value);
    outputs.set(name, output);
  }
  for (const [name, resource] of resources) {
    const impl = resource.implementation;
    if (impl.kind === "plugin") context.checkAttributeReads(name, impl.info);
    else if (impl.kind === "template") context.checkAttributeReads(name, nestedTypeInfo(impl.stack));
  }
  return {
    template,
    url: template.source.file,
    files: options.files ?? {},
    parameters,
    conditions: conditionValues,
    resources,
    outputs,
    graph,
    totalResources: nesting.counter.resources
  };
}
function suppliedValues(template, env, nesting) {
  const out = {};
  for (const [name, value2] of Object.entries(env?.parameterDefaults ?? {})) {
    if (template.parameters.has(name)) setOwn(out, name, value2);
  }
  const explicit = nesting.supplied ?? env?.parameters ?? {};
  for (const [name, value2] of Object.entries(explicit)) {
    if (!mentionsUnknown(value2)) setOwn(out, name, value2);
  }
  return out;
}
function pendingParameters(template, nesting) {
  const pending = /* @__PURE__ */ new Set();
  for (const [name, value2] of Object.entries(nesting.supplied ?? {})) {
    if (template.parameters.has(name) && mentionsUnknown(value2)) pending.add(name);
  }
  return pending;
}
function mentionsUnknown(value2) {
  if (value2 === UNKNOWN) return true;
  if (Array.isArray(value2)) return value2.some(mentionsUnknown);
  if (value2 !== null && typeof value2 === "object") return Object.values(value2).some(mentionsUnknown);
  return false;
}
function dependenciesOf(def, template, conditions, enabled, all2, context) {
  const requires = /* @__PURE__ */ new Set();
  for (const node of [def.properties, def.metadata]) {
    for (const ref of collectReferences(node, conditions)) {
      if (ref.call.name === "Ref" && (template.parameters.has(ref.resource) || ref.resource.startsWith("OS::") || ref.resource.startsWith("AWS::"))) {
        continue;
      }
      checkReference(ref.resource, ref.path, enabled, all2, template);
      if (ref.call.name === "get_attr") context.recordAttributeRead(ref.resource, ref.call);
      requires.add(ref.resource);
    }
  }
  def.dependsOn.forEach((name, i) => {
    const path = def.dependsOn.length === 1 ? [...def.path, "depends_on"] : [...def.path, "depends_on", i];
    checkReference(name, path, enabled, all2, template);
    requires.add(name);
  });
  if (requires.delete(def.name)) {
    throw new TemplateError(
      "cycle",
      `circular dependency between resources: ${def.name} -> ${def.name}`,
      def.path
    );
  }
  return [...requires];
}
function checkReference(name, path, enabled, all2, template) {
  if (enabled.has(name)) return;
  if (all2.has(name)) {
    throw new TemplateError(
      "reference",
      `resource "${name}" is referenced here but its condition is false`,
      path
    );
  }
  void template;
  throw new TemplateError(
    "reference",
    `the specified reference "${name}" is not a resource of this template`,
    path
  );
}
function implement(def, template, registry2, context, options, nesting) {
  const typePath = [...def.path, "type"];
  const resolved = registry2.isTemplateType(def.type) ? { kind: "template", url: resolveTemplateUrl(template.source.file, def.type) } : registry2.resolveType(def.type, def.name, nesting.path);
  const properties = context.resolve(def.properties);
  context.resolve(def.metadata);
  context.resolve(def.updatePolicy);
  if (def.deletionPolicy !== void 0)
    checkDeletionPolicy(context.resolve(def.deletionPolicy), template, def);
  if (def.externalId !== void 0) context.resolve(def.externalId);
  if (resolved.kind === "plugin") {
    const info = (options.types ?? EMPTY_CATALOG).get(resolved.type);
    if (!info) {
      if (options.allowUnknownTypes) return { kind: "unknown", type: resolved.type };
      const via = resolved.type === def.type ? "" : ` (mapped from "${def.type}" by the environment)`;
      throw new TemplateError(
        "unknown_type",
        `the resource type "${resolved.type}"${via} is not known`,
        typePath
      );
    }
    info.validateProperties(properties, [...def.path, "properties"]);
    return { kind: "plugin", type: resolved.type, info };
  }
  const stack = defineNested(def, resolved.url, properties, template, options, nesting);
  return { kind: "template", type: def.type, url: resolved.url, stack };
}
function checkDeletionPolicy(value2, template, def) {
  if (value2 === UNKNOWN) return;
  if (typeof value2 !== "string" || !template.version.deletionPolicies.includes(value2)) {
    throw new TemplateError(
      "schema",
      `invalid deletion policy ${JSON.stringify(value2)}; expected one of ${template.version.deletionPolicies.join(", ")}`,
      [...def.path, "deletion_policy"]
    );
  }
}
function defineNested(def, url, properties, parent, options, nesting) {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const typePath = [...def.path, "type"];
  if (nesting.depth + 1 > limits.maxNestingDepth) {
    throw new TemplateError(
      "limit",
      `nested stacks are deeper than the limit of ${limits.maxNestingDepth} levels`,
      typePath
    );
  }
  if (nesting.chain.includes(url)) {
    throw new TemplateError(
      "cycle",
      `template "${def.type}" includes itself: ${[...nesting.chain, url].join(" -> ")}`,
      typePath
    );
  }
  const files = options.files ?? {};
  const text = Object.hasOwn(files, url) ? files[url] : Object.hasOwn(files, def.type) ? files[def.type] : void 0;
  if (text === void 0) {
    throw new TemplateError(
      "reference",
      `no content found in the files map for template "${def.type}" (${url})`,
      typePath
    );
  }
  const supplied = properties !== null && typeof properties === "object" && !Array.isArray(properties) && properties !== UNKNOWN ? properties : {};
  try {
    const nested = parseTemplate(parseSource(url, text, limits));
    for (const name of Object.keys(supplied)) {
      if (!nested.parameters.has(name)) {
        throw new TemplateError(
          "property",
          `property "${name}" is not a parameter of the nested template "${def.type}"`,
          [...def.path, "properties", name]
        );
      }
    }
    for (const [name, schema] of nested.parameters) {
      const defaulted = Object.hasOwn(options.environment?.parameterDefaults ?? {}, name);
      if (!schema.hasDefault && !Object.hasOwn(supplied, name) && !defaulted) {
        throw new TemplateError(
          "property",
          `property "${name}" is required: the nested template "${def.type}" declares it without a default`,
          [...def.path, "properties"]
        );
      }
    }
    return define2(
      nested,
      { ...options, environment: nestedEnvironment(options.environment) },
      {
        depth: nesting.depth + 1,
        path: [...nesting.path, def.name],
        supplied,
        chain: [...nesting.chain, url],
        counter: nesting.counter
      }
    );
  } catch (err) {
    if (err instanceof TemplateError && err.file !== void 0 && err.file !== parent.source.file) {
      throw new TemplateError(err.kind, `in nested template "${def.type}": ${err.message}`, typePath, {
        cause: err
      });
    }
    throw err;
  }
}
function nestedEnvironment(env) {
  return env === void 0 ? void 0 : { ...env, parameters: {} };
}
function nestedTypeInfo(stack) {
  return {
    type: stack.url,
    validateProperties: () => {
    },
    hasAttribute: (name) => stack.template.outputs.has(name) || name === "OS::stack_id"
  };
}

// src/engine/rows.ts
import { randomUUID as randomUUID2 } from "node:crypto";
function initRow(owner, now, replaces = null) {
  return {
    uuid: randomUUID2(),
    stackId: owner.stackId,
    rootStackId: owner.rootStackId,
    name: owner.name,
    type: owner.type,
    action: "INIT",
    status: "COMPLETE",
    reason: "",
    physicalId: null,
    templateId: null,
    properties: null,
    attributes: {},
    data: {},
    progress: null,
    requires: [],
    replaces,
    replacedBy: null,
    engineId: null,
    atomicKey: 0,
    unhealthy: false,
    createRetries: 0,
    createdAt: new Date(now).toISOString(),
    updatedAt: null
  };
}
function currentRow(rows) {
  return rows.filter((r) => r.replacedBy === null).at(-1) ?? rows.at(-1);
}
function idempotencyKey(row) {
  return row.createRetries === 0 ? row.uuid : `${row.uuid}/retry-${row.createRetries}`;
}

// src/engine/resolver.ts
var NodeResolveContext = class {
  constructor(definition, inputs) {
    this.definition = definition;
    this.inputs = inputs;
    this.conditions = new ConditionEvaluator(definition.template.conditions, () => this);
  }
  definition;
  inputs;
  conditions;
  resolve(node) {
    return resolveNode(node, this);
  }
  isParameter(name) {
    return this.definition.parameters.has(name);
  }
  param(name, path) {
    const value2 = this.definition.parameters.get(name);
    if (value2 === void 0)
      throw new TemplateError("reference", `the parameter "${name}" is not defined`, path);
    return value2;
  }
  resourceRef(name, path) {
    return this.input(name, path).refId;
  }
  resourceAttr(name, attr2, path) {
    const { attributes } = this.input(name, path);
    if (attr2 !== void 0 && Object.hasOwn(attributes, attr2)) return attributes[attr2];
    const impl = this.definition.resources.get(name)?.implementation;
    const read = impl?.kind === "plugin" ? impl.info.readAttribute : void 0;
    if (read) return read(attributes, attr2) ?? null;
    return attr2 === void 0 ? attributes : null;
  }
  file(name, path) {
    const files = this.definitionFiles();
    if (Object.hasOwn(files, name)) return files[name];
    const relative = resolveTemplateUrl(this.definition.url, name);
    if (Object.hasOwn(files, relative)) return files[relative];
    throw new TemplateError("reference", `no content found in the files map for get_file "${name}"`, path);
  }
  condition(node, path) {
    const known = typeof node === "string" ? this.definition.conditions.get(node) : void 0;
    return known ?? this.conditions.evaluate(node, path);
  }
  facade() {
    return null;
  }
  yaql(expression, data, path) {
    return evaluateYaqlAt(expression, data, path);
  }
  input(name, path) {
    const output = this.inputs.get(name);
    if (!output) {
      throw new TemplateError("reference", `internal: no input from resource "${name}"`, path);
    }
    return output;
  }
  definitionFiles() {
    return this.definition.files;
  }
};
function resolveProperties(definition, resource, plugin, inputs) {
  const raw = new NodeResolveContext(definition, inputs).resolve(resource.definition.properties);
  const path = [...resource.definition.path, "properties"];
  const extras = plugin;
  const properties = extras.anyProperties ? raw ?? {} : validateProperties(plugin.properties, raw, path, { strict: true });
  extras.validate?.(properties, path);
  return properties;
}

// src/engine/peers.ts
function signalWaitKey(stackId, resourceName) {
  return `signal:${stackId}/${resourceName}`;
}
function peerReader(deps, stackId, point) {
  return async (ref) => {
    const name = dependencyByRef(point, ref)?.name ?? ref;
    const row = currentRow(await deps.store.tx((tx) => tx.resources.findByName(stackId, name)));
    return row && peerOf(row);
  };
}
function dependencyByRef(point, ref) {
  for (const input of Object.values(point?.inputs ?? {})) {
    const output = input;
    if (output && typeof output === "object" && output.refId === ref) return output;
  }
  return void 0;
}
function peerOf(row) {
  return {
    name: row.name,
    type: row.type,
    physicalId: row.physicalId,
    action: row.action,
    status: row.status,
    data: row.data
  };
}

// src/engine/outputs.ts
async function stackOutputs(deps, cache3, stack) {
  if (!stack.templateId) return [];
  const definition = await cache3.lookup(
    stack.templateId,
    { stackId: stack.id, stackName: stack.name, projectId: stack.projectId },
    (id) => deps.store.tx((tx) => tx.templates.get(id))
  );
  if (!definition) return [];
  if (definition.template.outputs.size === 0) return [];
  const rows = await deps.store.tx((tx) => tx.resources.listStates(stack.id));
  const context = new NodeResolveContext(definition, currentOutputs(deps, rows, stack.id));
  const out = [];
  for (const [name, output] of definition.template.outputs) {
    const item = { output_key: name, description: output.description ?? "No description given" };
    if (!definition.outputs.has(name)) {
      item.output_value = null;
      out.push(item);
      continue;
    }
    try {
      item.output_value = context.resolve(output.value);
    } catch (err) {
      item.output_error = err instanceof TemplateError ? err.detail : String(err);
    }
    out.push(item);
  }
  return out;
}
function currentOutputs(deps, rows, stackId) {
  const byName = /* @__PURE__ */ new Map();
  const ids = new Set(rows.map((r) => r.id));
  for (const row of rows) {
    if (row.replacedBy !== null && ids.has(row.replacedBy)) continue;
    if (row.action === "INIT" || row.action === "DELETE") continue;
    byName.set(row.name, rowOutput(deps, row, stackId));
  }
  return byName;
}
function rowOutput(deps, row, stackId) {
  const plugin = deps.plugins.plugin(row.type);
  const refId = plugin?.referenceId ? plugin.referenceId({
    resourceName: row.name,
    resourceType: row.type,
    stackId,
    stackName: "",
    idempotencyKey: idempotencyKey(row),
    physicalId: row.physicalId,
    data: row.data,
    storedProperties: row.properties,
    reality: deps.reality,
    // A reference id is computed from the row alone: it reads no other resource.
    softwareConfig: async () => void 0,
    now: () => deps.clock.now(),
    random: deps.random,
    readResource: peerReader(deps, stackId),
    signalCredentials: () => void 0
  }) : row.physicalId;
  return { name: row.name, rowId: row.id, refId, attributes: row.attributes };
}

// src/engine/traversal.ts
import { randomUUID as randomUUID4 } from "node:crypto";

// src/engine/events.ts
import { randomUUID as randomUUID3 } from "node:crypto";
var MAX_REASON = 1024;
function event(subject, action, status, reason, now) {
  return {
    uuid: randomUUID3(),
    ...subject,
    action,
    status,
    reason: reason.slice(0, MAX_REASON),
    createdAt: new Date(now).toISOString()
  };
}
function stackEvent(stack, action, status, reason, now) {
  const subject = {
    stackId: stack.id,
    resourceName: stack.name,
    resourceType: "OS::Heat::Stack",
    physicalId: stack.id
  };
  return event(subject, action, status, reason, now);
}
function resourceEvent(row, action, status, reason, now) {
  const subject = {
    stackId: row.stackId,
    resourceName: row.name,
    resourceType: row.type,
    physicalId: row.physicalId
  };
  return event(subject, action, status, reason, now);
}

// src/engine/nodes.ts
function nodeKey(kind, rowId) {
  return `${kind}:${rowId}`;
}
function parseNodeKey(key) {
  const kind = key[0];
  const rowId = Number(key.slice(2));
  if (kind !== "u" && kind !== "c" || key[1] !== ":" || !Number.isInteger(rowId)) {
    throw new Error(`internal: bad graph node key "${key}"`);
  }
  return { kind, rowId };
}
var CHECK_NODE = "check";
var VISITS = /* @__PURE__ */ new Set(["CHECK", "SUSPEND", "RESUME"]);

// src/engine/finish.ts
function stackWaitKey(stackId) {
  return `stack:${stackId}`;
}
async function finishTraversal(tx, stack, traversalId, now) {
  const checking = stack.action === "CHECK";
  const visiting = VISITS.has(stack.action);
  if (checking) {
    const failures = await checkFailures(tx, stack.id, traversalId);
    if (failures) {
      await failTraversal(tx, stack, traversalId, failures, now);
      return;
    }
  }
  const reason = `Stack ${stack.action} completed successfully`;
  const deleting = stack.action === "DELETE";
  const done = await tx.stacks.update(stack.id, traversalId, {
    status: "COMPLETE",
    reason,
    // A visit (CHECK, SUSPEND, RESUME) converges nothing: the rollback target and templates stay.
    ...visiting ? {} : { prevTemplateId: null },
    ...deleting ? { deletedAt: new Date(now).toISOString() } : {}
  });
  if (!done) return;
  await tx.resources.purge(stack.id, deleting);
  await tx.sync.deleteTraversal(traversalId);
  await tx.traversals.delete(traversalId);
  await tx.events.append([stackEvent(stack, stack.action, "COMPLETE", reason, now)]);
  if (stack.parentId) await tx.work.wakeWaiting(stackWaitKey(stack.id), now);
  if (!visiting && stack.prevTemplateId && stack.prevTemplateId !== stack.templateId) {
    await tx.templates.delete(stack.prevTemplateId);
  }
}
async function failTraversal(tx, stack, traversalId, reason, now) {
  const failed = await tx.stacks.update(stack.id, traversalId, { status: "FAILED", reason, traversalId: "" });
  if (!failed) return false;
  await tx.sync.deleteTraversal(traversalId);
  await tx.traversals.delete(traversalId);
  await tx.events.append([stackEvent(stack, stack.action, "FAILED", reason, now)]);
  if (stack.parentId) await tx.work.wakeWaiting(stackWaitKey(stack.id), now);
  return true;
}
async function checkFailures(tx, stackId, traversalId) {
  const failed = [];
  for (const row of await tx.resources.listActive(stackId)) {
    if (row.action !== "CHECK" || row.status !== "FAILED") continue;
    if (await tx.sync.get(traversalId, nodeKey("u", row.id))) failed.push(`${row.name}: ${row.reason}`);
  }
  return failed.length > 0 ? `Resource CHECK failed: ${failed.join("; ")}` : null;
}

// src/engine/plan.ts
function chooseRows(desired, existing, targetTemplateId = null) {
  const byName = /* @__PURE__ */ new Map();
  for (const row of existing) {
    const list2 = byName.get(row.name);
    if (list2) list2.push(row);
    else byName.set(row.name, [row]);
  }
  const chosen = /* @__PURE__ */ new Map();
  const missing = [];
  for (const want of desired) {
    const rows = byName.get(want.name) ?? [];
    const best = convergedTo(rows, targetTemplateId) ?? pickBest(rows);
    if (best) chosen.set(want.name, best);
    else missing.push(want);
  }
  const keep = new Set([...chosen.values()].map((r) => r.id));
  const obsolete = existing.filter((r) => !keep.has(r.id));
  return { chosen, obsolete, missing };
}
function convergedTo(rows, templateId) {
  if (templateId === null || rows.length < 2) return void 0;
  return rows.filter((r) => r.templateId === templateId && r.status === "COMPLETE" && r.action !== "DELETE").at(-1);
}
function replaced(row, byId) {
  if (row.replacedBy === null) return false;
  const replacement = byId.get(row.replacedBy);
  return replacement !== void 0 && replacement.status !== "FAILED";
}
function score(row, byId) {
  let s = 0;
  if (replaced(row, byId)) s -= 100;
  if (row.action === "DELETE") s -= 50;
  if (row.status === "FAILED") s -= 30;
  if (row.status === "COMPLETE") s += 5;
  return s;
}
function pickBest(rows) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  let best;
  for (const row of rows) {
    if (replaced(row, byId)) continue;
    const s = score(row, byId);
    const b = best && score(best, byId);
    if (!best || s > b || s === b && row.id > best.id) best = row;
  }
  return best;
}
function byDepth(resources) {
  const index = new Map(resources.map((r, i) => [r.name, i]));
  const depth = new Array(resources.length).fill(0);
  const waiting = new Array(resources.length).fill(0);
  const dependents = resources.map(() => []);
  resources.forEach((r, i) => {
    for (const name of new Set(r.requires)) {
      const j = index.get(name);
      if (j === void 0 || j === i) continue;
      waiting[i]++;
      dependents[j].push(i);
    }
  });
  const ready = resources.flatMap((_, i) => waiting[i] === 0 ? [i] : []);
  for (let k = 0; k < ready.length; k++) {
    const i = ready[k];
    for (const d of dependents[i]) {
      depth[d] = Math.max(depth[d], depth[i] + 1);
      if (--waiting[d] === 0) ready.push(d);
    }
  }
  for (let i = 0; i < resources.length; i++) if (waiting[i] > 0) depth[i] = Infinity;
  return resources.map((r, i) => ({ r, i })).sort((a, b) => depth[a.i] - depth[b.i] || a.i - b.i).map((e) => e.r);
}
function planGraph(traversalId, stackId, desired, chosen, obsolete, unchanged = /* @__PURE__ */ new Map()) {
  const requires = /* @__PURE__ */ new Map();
  const addNode = (key) => {
    if (!requires.has(key)) requires.set(key, /* @__PURE__ */ new Set());
  };
  const addEdge = (from, to) => {
    addNode(from);
    addNode(to);
    requires.get(from).add(to);
  };
  const prefilled = /* @__PURE__ */ new Map();
  for (const want of desired) {
    if (unchanged.has(want.name)) continue;
    const row = chosen.get(want.name);
    const key = nodeKey("u", row.id);
    addNode(key);
    for (const dep of want.requires) {
      const target = chosen.get(dep);
      if (!target) continue;
      const output = unchanged.get(dep);
      if (!output) {
        addEdge(key, nodeKey("u", target.id));
        continue;
      }
      const inputs = prefilled.get(key) ?? {};
      inputs[nodeKey("u", target.id)] = output;
      prefilled.set(key, inputs);
    }
  }
  const obsoleteIds = new Set(obsolete.map((r) => r.id));
  for (const row of obsolete) addNode(nodeKey("c", row.id));
  const chosenById = /* @__PURE__ */ new Map();
  for (const row of chosen.values()) {
    chosenById.set(row.id, row);
    for (const req of row.requires) {
      if (obsoleteIds.has(req)) addEdge(nodeKey("c", req), nodeKey("u", row.id));
    }
  }
  for (const row of obsolete) {
    for (const req of row.requires) {
      if (obsoleteIds.has(req) && req !== row.id) addEdge(nodeKey("c", req), nodeKey("c", row.id));
    }
    const replacement = row.replacedBy === null ? void 0 : chosenById.get(row.replacedBy);
    if (replacement && !unchanged.has(replacement.name)) {
      addEdge(nodeKey("c", row.id), nodeKey("u", replacement.id));
    }
  }
  const dependents = /* @__PURE__ */ new Map();
  for (const [node, reqs] of requires) {
    for (const req of reqs) {
      const list2 = dependents.get(req);
      if (list2) list2.push(node);
      else dependents.set(req, [node]);
    }
  }
  const points = [];
  const leaves = [];
  for (const [node, reqs] of requires) {
    points.push({
      traversalId,
      node,
      stackId,
      waiting: reqs.size,
      dependents: dependents.get(node) ?? [],
      inputs: prefilled.get(node) ?? {},
      done: false
    });
    if (reqs.size === 0) leaves.push(node);
  }
  return { points, leaves };
}

// src/engine/traversal.ts
var ConflictError = class extends Error {
  name = "ConflictError";
};
async function placeResources(tx, options, checking) {
  const { stack, desired, now } = options;
  const target = options.templateId;
  const settle2 = async (chosen2, obsolete2, missing2) => {
    if (checking) return;
    await restoreOriginals(tx, chosen2, obsolete2);
    const inserted = await tx.resources.insert(
      byDepth(missing2).map(
        (want) => initRow({ stackId: stack.id, rootStackId: stack.rootId, name: want.name, type: want.type }, now)
      )
    );
    inserted.forEach((row) => chosen2.set(row.name, row));
  };
  if (options.unchanged && !checking) {
    const rows = await tx.resources.listStates(stack.id);
    const { chosen: chosen2, obsolete: obsolete2, missing: missing2 } = chooseRows(desired, rows, target);
    await settle2(chosen2, obsolete2, missing2);
    return { chosen: chosen2, obsolete: obsolete2, unchanged: options.unchanged(chosen2, stack.id) };
  }
  const { chosen, obsolete, missing } = chooseRows(desired, await tx.resources.listHeads(stack.id), target);
  await settle2(chosen, obsolete, missing);
  return { chosen, obsolete, unchanged: /* @__PURE__ */ new Map() };
}
async function restoreOriginals(tx, chosen, obsolete) {
  const going = new Set(obsolete.map((r) => r.id));
  for (const [name, row] of chosen) {
    if (row.replacedBy === null || !going.has(row.replacedBy)) continue;
    const restored = await tx.resources.update(row.id, row.atomicKey, row.engineId, { replacedBy: null });
    if (!restored)
      throw new ConflictError(`resource "${name}" changed while the operation started; try again`);
    chosen.set(name, { ...row, replacedBy: null, atomicKey: restored.atomicKey });
  }
}
async function beginTraversal(tx, options) {
  const { stack, action, templateId, desired, now } = options;
  const traversalId = randomUUID4();
  const checking = VISITS.has(action);
  const { chosen, obsolete, unchanged } = await placeResources(tx, options, checking);
  const plan = checking ? planGraph(
    traversalId,
    stack.id,
    desired.filter((want) => chosen.has(want.name)),
    chosen,
    []
  ) : planGraph(traversalId, stack.id, desired, chosen, obsolete, unchanged);
  const changes = {
    ...options.stackChanges,
    traversalId,
    action,
    status: "IN_PROGRESS",
    reason: options.reason ?? `Stack ${action} started`,
    templateId,
    updatedAt: new Date(now).toISOString()
  };
  if (action === "UPDATE" && stack.templateId !== templateId) changes.prevTemplateId = stack.templateId;
  if (!await tx.stacks.update(stack.id, stack.traversalId, changes)) {
    throw new ConflictError(
      `stack "${stack.name}" was changed by another operation at the same time; try again`
    );
  }
  if (stack.traversalId) {
    await tx.sync.deleteTraversal(stack.traversalId);
    await tx.traversals.delete(stack.traversalId);
  }
  await tx.traversals.insert({
    id: traversalId,
    stackId: stack.id,
    rootStackId: stack.rootId,
    action,
    templateId,
    remaining: plan.points.length,
    createdAt: new Date(now).toISOString()
  });
  await tx.sync.insert(plan.points);
  if (templateId && unchanged.size > 0) {
    await tx.resources.setTemplate(
      [...unchanged.values()].map((output) => output.rowId),
      templateId
    );
  }
  await tx.work.enqueue(
    plan.leaves.map((node) => ({
      rootStackId: stack.rootId,
      stackId: stack.id,
      traversalId,
      kind: CHECK_NODE,
      node,
      runAt: now
    }))
  );
  await tx.events.append([stackEvent(stack, action, "IN_PROGRESS", changes.reason, now)]);
  if (plan.points.length === 0) {
    await finishTraversal(tx, { ...stack, ...changes }, traversalId, now);
  }
  return traversalId;
}

// src/engine/preview.ts
import { randomUUID as randomUUID8 } from "node:crypto";

// src/resources/nested-type.ts
function isNestedPlugin(plugin) {
  return plugin !== void 0 && plugin.nested !== void 0;
}
function notDirect() {
  throw new Error("internal: a nested-stack type is run by the engine through its child stack");
}
var NESTED_STUBS = {
  async create() {
    return notDirect();
  },
  async delete() {
    return notDirect();
  },
  async getReality(ctx) {
    return ctx.physicalId === null ? { state: "gone" } : { state: "present", properties: { ...ctx.storedProperties ?? {} } };
  },
  async attribute() {
    return null;
  }
};

// src/engine/child-stack.ts
import { createHash as createHash3 } from "node:crypto";

// src/engine/templates.ts
var TemplateCache = class {
  constructor(types2, limits, capacity = 1024, maxResources = 15e4) {
    this.types = types2;
    this.limits = limits;
    this.capacity = capacity;
    this.maxResources = maxResources;
  }
  types;
  limits;
  capacity;
  maxResources;
  entries = /* @__PURE__ */ new Map();
  /** Resources held by the cached definitions: a 100,000-resource definition weighs ~200 MiB. */
  weight = 0;
  /** The bound definition of a stored template for one stack. */
  get(record3, stack) {
    const key = this.keyOf(record3.id, stack.stackId);
    const hit = this.hit(key);
    if (hit) return hit;
    const definition = bindTemplate(record3, stack, this.types, this.limits);
    this.put(key, definition);
    return definition;
  }
  /**
   * The bound definition of template `templateId` for one stack: the cached one (nothing read),
   * else the record `read` returns, bound; undefined when there is no such record.
   */
  async lookup(templateId, stack, read) {
    const hit = this.hit(this.keyOf(templateId, stack.stackId));
    if (hit) return hit;
    const record3 = await read(templateId);
    return record3 && this.get(record3, stack);
  }
  hit(key) {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  /** The cached definition of a template for a stack, without loading anything. */
  peek(templateId, stackId) {
    return this.entries.get(this.keyOf(templateId, stackId));
  }
  /**
   * Seeds the cache with a definition already built (validation at the start of an operation).
   * The least recently used definitions go beyond `capacity` entries or `maxResources` resources
   * (the newest always stays).
   */
  put(key, definition) {
    const previous = this.entries.get(key);
    if (previous) {
      this.weight -= previous.resources.size;
      this.entries.delete(key);
    }
    this.entries.set(key, definition);
    this.weight += definition.resources.size;
    while (this.entries.size > 1 && (this.entries.size > this.capacity || this.weight > this.maxResources)) {
      const [oldest, evicted] = this.entries.entries().next().value;
      this.entries.delete(oldest);
      this.weight -= evicted.resources.size;
    }
  }
  keyOf(templateId, stackId) {
    return `${templateId}/${stackId}`;
  }
};
function bindTemplate(record3, stack, types2, limits) {
  const template = parseTemplate(parseSource(record3.url, record3.template, limits));
  return defineStack(template, {
    files: record3.files,
    environment: environmentFromJSON(record3.environment, limits),
    strict: true,
    types: types2,
    limits,
    stackId: stack.stackId,
    stackName: stack.stackName,
    projectId: stack.projectId
  });
}
function environmentFromJSON(json, limits) {
  return parseEnvironment("environment", JSON.stringify(json), limits, { resolveTemplates: false });
}
function environmentJSON(env) {
  return environmentToJSON(env);
}

// src/engine/child-stack.ts
var CHILD_KEY = "nested_stack";
var DIGEST_KEY = "nested_digest";
var NESTED_SAFETY_MS = 5 * 6e4;
function nestedProgress(row) {
  const p = row.progress;
  if (row.status !== "IN_PROGRESS" || !isPlainObject(p) || typeof p.child !== "string") return void 0;
  return p;
}
function childStackOf(row) {
  const id = row.data[CHILD_KEY];
  return typeof id === "string" ? id : void 0;
}
function childSpec(scope, parent, resourceName, impl, properties, path) {
  const files = parent.files;
  const text = Object.hasOwn(files, impl.url) ? files[impl.url] : Object.hasOwn(files, impl.type) ? files[impl.type] : void 0;
  if (text === void 0) {
    throw new TemplateError(
      "reference",
      `no content found in the files map for template "${impl.type}" (${impl.url})`,
      path
    );
  }
  const environment = environmentJSON(childEnvironment(parent.environment, resourceName, properties));
  const hash = createHash3("sha256");
  for (const part of [impl.url, text, JSON.stringify(environment), parent.filesDigest]) {
    hash.update(part).update("\0");
  }
  return { url: impl.url, text, files, environment, properties, type: impl.type, digest: hash.digest("hex") };
}
function generatedChildSpec(parent, resourceName, type, child, properties) {
  const environment = environmentJSON(childEnvironment(parent.environment, resourceName, child.parameters));
  const hash = createHash3("sha256");
  for (const part of [type, child.template, JSON.stringify(environment), parent.filesDigest]) {
    hash.update(part).update("\0");
  }
  return {
    url: parent.url,
    text: child.template,
    files: parent.files,
    environment,
    properties,
    type,
    digest: hash.digest("hex"),
    data: child.data ?? {}
  };
}
var parents = /* @__PURE__ */ new Map();
var PARENTS_KEPT = 64;
async function parentTemplate(scope, templateId) {
  const hit = parents.get(templateId);
  if (hit) return hit;
  const record3 = await scope.deps.store.tx((tx) => tx.templates.get(templateId));
  if (!record3) return void 0;
  const hash = createHash3("sha256");
  for (const name of Object.keys(record3.files).sort()) {
    hash.update(name).update("\0").update(record3.files[name]).update("\0");
  }
  const parent = {
    url: record3.url,
    files: record3.files,
    filesDigest: hash.digest("hex"),
    environment: environmentFromJSON(record3.environment, scope.deps.settings.limits)
  };
  parents.set(templateId, parent);
  if (parents.size > PARENTS_KEPT) parents.delete(parents.keys().next().value);
  return parent;
}
function childParameters(raw, path) {
  if (raw === null || raw === void 0) return {};
  if (!isPlainObject(raw)) throw new TemplateError("property", "the properties must be a map", path);
  const out = {};
  for (const [name, value2] of Object.entries(raw)) if (value2 !== null) setOwn(out, name, value2);
  return out;
}
function childTemplateRecord(id, spec, now) {
  return {
    id,
    template: spec.text,
    url: spec.url,
    files: spec.files,
    environment: spec.environment,
    createdAt: new Date(now).toISOString()
  };
}
function newChildStack(parent, resourceName, id, now) {
  return {
    id,
    name: `${parent.name}-${resourceName}-${id.replace(/-/g, "").slice(0, 12)}`,
    projectId: parent.projectId,
    parentId: parent.id,
    parentResource: resourceName,
    rootId: parent.rootId,
    action: "CREATE",
    status: "IN_PROGRESS",
    reason: "Stack CREATE started",
    traversalId: "",
    templateId: null,
    prevTemplateId: null,
    convergence: true,
    timeoutMins: parent.timeoutMins,
    // The parent decides what a failure means (its own rollback converges the child back).
    disableRollback: true,
    tags: [],
    createdAt: new Date(now).toISOString(),
    updatedAt: null,
    deletedAt: null
  };
}
function bindChild(scope, record3, child) {
  const { deps, cache: cache3 } = scope;
  const identity = { stackId: child.id, stackName: child.name, projectId: child.projectId };
  const definition = bindTemplate(record3, identity, deps.plugins.typeCatalog, deps.settings.limits);
  cache3.put(cache3.keyOf(record3.id, child.id), definition);
  return definition;
}
async function park(tx, scope, payload, runAt) {
  await tx.work.reschedule(scope.item, runAt, { ...payload }, stackWaitKey(payload.child));
}
async function childOutputs(scope, child) {
  const attributes = {};
  for (const output of await stackOutputs(scope.deps, scope.cache, child)) {
    setOwn(attributes, output.output_key, output.output_value ?? null);
  }
  attributes["OS::stack_id"] = child.id;
  return { refId: child.id, attributes };
}
async function startChildVisit(scope, row, child, op, begin) {
  const { deps } = scope;
  const now = deps.clock.now();
  const action = op.toUpperCase();
  const progress = {
    child: child.id,
    op,
    properties: row.properties ?? {},
    digest: typeof row.data[DIGEST_KEY] === "string" ? row.data[DIGEST_KEY] : "",
    type: row.type
  };
  const payload = { phase: "nested", op, row: row.id, child: child.id };
  const started = await guarded(
    deps.store.tx(async (tx) => {
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder,
        action,
        status: "IN_PROGRESS",
        reason: "state changed",
        progress,
        updatedAt: new Date(now).toISOString()
      });
      if (!locked) return false;
      await tx.events.append([resourceEvent(locked, action, "IN_PROGRESS", "state changed", now)]);
      await park(tx, scope, payload, now + NESTED_SAFETY_MS);
      await begin(tx, now);
      return true;
    })
  );
  return started !== false;
}
var Retry = class extends Error {
};
async function guarded(work) {
  try {
    return await work;
  } catch (err) {
    if (err instanceof Retry || err instanceof ConflictError) return false;
    throw err;
  }
}

// src/engine/operations.ts
import { randomUUID as randomUUID6 } from "node:crypto";

// src/engine/failure.ts
var ROLLBACK = "rollback";
async function failNode(scope, row, reason) {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const fresh = await tx.resources.get(row.id);
    if (fresh) {
      const failed = await tx.resources.update(fresh.id, fresh.atomicKey, fresh.engineId, {
        engineId: null,
        status: "FAILED",
        reason,
        progress: null,
        action: fresh.action === "INIT" ? "CREATE" : fresh.action
      });
      if (failed) await tx.events.append([resourceEvent(failed, failed.action, "FAILED", reason, now)]);
    }
    if (scope.current) {
      const stackReason = `Resource ${row.action === "INIT" ? "CREATE" : row.action} failed: ${reason}`;
      const failedStack = await failTraversal(tx, stack, item.traversalId, stackReason, now);
      const rollsBack = !stack.disableRollback && (stack.action === "CREATE" || stack.action === "UPDATE");
      if (failedStack && rollsBack) await enqueueRollback(tx, stack, now);
    }
    await tx.work.complete(item);
  });
}
async function enqueueRollback(tx, stack, now) {
  await tx.work.enqueue([
    {
      rootStackId: stack.rootId,
      stackId: stack.id,
      traversalId: "",
      kind: ROLLBACK,
      node: "stack",
      payload: { failedAction: stack.action },
      runAt: now
    }
  ]);
}
async function failIfTimedOut(scope, row) {
  const { deps, stack, item } = scope;
  if (!scope.current || !hasTimedOut(deps, stack)) return false;
  const now = deps.clock.now();
  if (row) {
    await failNode(scope, row, `${row.action} timed out`);
    return true;
  }
  await deps.store.tx(async (tx) => {
    const reason = `${stack.action} timed out`;
    const failed = await failTraversal(tx, stack, item.traversalId, reason, now);
    const rollsBack = !stack.disableRollback && (stack.action === "CREATE" || stack.action === "UPDATE");
    if (failed && rollsBack) await enqueueRollback(tx, stack, now);
    await tx.work.complete(item);
  });
  return true;
}
function hasTimedOut(deps, stack) {
  return deps.clock.now() > timeoutAt(deps, stack);
}
function timeoutAt(deps, stack) {
  const limitMs = (stack.timeoutMins ?? deps.settings.stackActionTimeout / 60) * 6e4;
  return Date.parse(stack.updatedAt ?? stack.createdAt) + limitMs;
}

// src/engine/locks.ts
function holderOf(engineId, itemId) {
  return `${engineId}/${itemId}`;
}
function holderItem(holder) {
  return Number(holder.slice(holder.lastIndexOf("/") + 1));
}
async function lockState(scope, row) {
  if (row.engineId === null) return "free";
  if (row.engineId === scope.holder) return "mine";
  const item = holderItem(row.engineId);
  if (item === scope.item.id) return "mine";
  if (scope.running.has(item)) return "busy";
  const queued = await scope.deps.store.tx((tx) => tx.work.exists(item));
  return queued ? "busy" : "abandoned";
}

// src/engine/software-configs.ts
var UNGROUPED = "Heat::Ungrouped";
async function findSoftwareConfig(deps, where2, id) {
  return deps.store.tx(async (tx) => {
    const dependency = dependencyByRef(where2.point, id);
    const near = dependency ? await tx.resources.findByName(where2.stackId, dependency.name) : [];
    const rows = near.some((r) => r.physicalId === id) ? near : await tx.resources.findByPhysicalId(id);
    for (const row of rows) {
      if (row.physicalId !== id || !configOf(deps, row)) continue;
      if ((await tx.stacks.get(row.stackId))?.projectId !== where2.projectId) continue;
      const group = row.properties?.group;
      return { id, group: typeof group === "string" ? group : UNGROUPED, config: row.attributes.config };
    }
    return void 0;
  });
}
function configOf(deps, row) {
  return deps.plugins.plugin(row.type)?.isSoftwareConfig === true && Object.hasOwn(row.attributes, "config");
}

// src/engine/node-work.ts
function payloadOf(item) {
  const p = item.payload;
  return p && typeof p === "object" && "phase" in p ? p : { phase: "start" };
}
function pluginContext(scope, row, extra = {}) {
  const { deps, stack } = scope;
  return {
    resourceName: row.name,
    resourceType: row.type,
    stackId: stack.id,
    stackName: stack.name,
    idempotencyKey: idempotencyKey(row),
    physicalId: extra.physicalId !== void 0 ? extra.physicalId : row.physicalId,
    data: { ...row.data, ...extra.data },
    storedProperties: row.properties,
    reality: deps.reality,
    softwareConfig: (id) => findSoftwareConfig(deps, { projectId: stack.projectId, stackId: stack.id, point: scope.point }, id),
    now: () => deps.clock.now(),
    random: deps.random,
    readResource: peerReader(deps, stack.id, scope.point),
    signalCredentials: () => deps.signalCredentials?.({
      projectId: stack.projectId,
      stackId: stack.id,
      stackName: stack.name,
      resourceName: row.name
    })
  };
}
function inputsOf(point) {
  const out = /* @__PURE__ */ new Map();
  for (const value2 of Object.values(point?.inputs ?? {})) {
    const output = value2;
    if (output && typeof output === "object" && typeof output.name === "string") out.set(output.name, output);
  }
  return out;
}
async function outputsOf(plugin, ctx, properties) {
  const attributes = {};
  for (const name of Object.keys(plugin.attributes)) {
    if (name === "show") continue;
    attributes[name] = await plugin.attribute(ctx, name, properties);
  }
  return { refId: plugin.referenceId ? plugin.referenceId(ctx) : ctx.physicalId, attributes };
}
async function definitionFor(scope, templateId) {
  if (!templateId) return void 0;
  const identity = { stackId: scope.stack.id, stackName: scope.stack.name, projectId: scope.stack.projectId };
  const cached = scope.cache.peek(templateId, scope.stack.id);
  if (cached) return cached;
  const record3 = await scope.deps.store.tx((tx) => tx.templates.get(templateId));
  return record3 ? scope.cache.get(record3, identity) : void 0;
}
function pollDelay(hint, attempt) {
  const base = hint ?? 100;
  return Math.min(5e3, Math.max(10, base * 1.5 ** Math.min(attempt, 10)));
}
function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

// src/engine/propagate.ts
async function propagate(tx, stack, traversalId, node, output, now) {
  await propagateMany(tx, stack, traversalId, /* @__PURE__ */ new Map([[node, output]]), now);
}
async function propagateMany(tx, stack, traversalId, finished, now) {
  const marked = await tx.sync.markDone(traversalId, [...finished.keys()]);
  if (marked.length === 0) return;
  const reports = marked.flatMap(
    ({ node, dependents }) => dependents.map((dependent) => ({ node: dependent, from: node, data: finished.get(node) }))
  );
  const ready = await tx.sync.report(traversalId, reports);
  if (ready.length > 0) {
    await tx.work.enqueue(
      ready.map((n) => ({
        rootStackId: stack.rootId,
        stackId: stack.id,
        traversalId,
        kind: CHECK_NODE,
        node: n,
        runAt: now
      }))
    );
  }
  const remaining = await tx.traversals.finishNodes(traversalId, marked.length);
  if (remaining === 0) await finishTraversal(tx, stack, traversalId, now);
}
async function addReplacementCleanup(tx, stack, traversalId, replacedNode, oldRowId, now) {
  const point = await tx.sync.get(traversalId, replacedNode);
  if (!point) return;
  const cleanup = nodeKey("c", oldRowId);
  if (await tx.sync.get(traversalId, cleanup)) return;
  const waitFor = point.dependents.filter((d) => d.startsWith("u:"));
  await tx.sync.insert([
    {
      traversalId,
      node: cleanup,
      stackId: stack.id,
      waiting: waitFor.length,
      dependents: [],
      inputs: {},
      done: false
    }
  ]);
  for (const dependent of waitFor) await tx.sync.addDependent(traversalId, dependent, cleanup);
  await tx.traversals.finishNodes(traversalId, -1);
  if (waitFor.length === 0) {
    await tx.work.enqueue([
      {
        rootStackId: stack.rootId,
        stackId: stack.id,
        traversalId,
        kind: CHECK_NODE,
        node: cleanup,
        runAt: now
      }
    ]);
  }
}

// src/resources/contract.ts
var ResourceFailure = class extends Error {
  name = "ResourceFailure";
};
var ResourceInError = class extends ResourceFailure {
  name = "ResourceInError";
};
var NoActionRequired = class extends Error {
  name = "NoActionRequired";
};
var UpdateReplace = class extends Error {
  name = "UpdateReplace";
};

// src/engine/hooks.ts
var BREAKPOINT_KEY = "breakpoint";
var HOOK_SAFETY_MS = 5 * 6e4;
function hookWaitKey(rowId) {
  return `hook:${rowId}`;
}
var registries = /* @__PURE__ */ new WeakMap();
async function hooksOf(scope, templateId, name) {
  if (!templateId) return /* @__PURE__ */ new Set();
  const parent = await parentTemplate(scope, templateId);
  if (!parent) return /* @__PURE__ */ new Set();
  let registry2 = registries.get(parent);
  if (!registry2) registries.set(parent, registry2 = new ResourceRegistry(parent.environment));
  return registry2.hooksFor(name);
}
function breakpointOf(row) {
  const bp = row.data[BREAKPOINT_KEY];
  if (!isPlainObject(bp) || typeof bp.hook !== "string" || typeof bp.traversal !== "string") return void 0;
  return bp;
}
async function hasHook(scope, row, op) {
  return (await hooksOf(scope, scope.traversal?.templateId ?? row.templateId, row.name)).has(`pre-${op}`);
}
async function stopAtHook(scope, row, op) {
  const hook = `pre-${op}`;
  if (!await hasHook(scope, row, op)) return false;
  const traversal = scope.item.traversalId;
  const bp = breakpointOf(row);
  if (bp?.hook === hook && bp.traversal === traversal && bp.state === "cleared") return false;
  const { deps, item } = scope;
  const now = deps.clock.now();
  const waiting = { hook, state: "waiting", traversal };
  await deps.store.tx(async (tx) => {
    if (!(bp?.hook === hook && bp.traversal === traversal && bp.state === "waiting")) {
      const written = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        data: { ...row.data, [BREAKPOINT_KEY]: waiting }
      });
      if (!written) {
        await tx.work.reschedule(item, now, item.payload);
        return true;
      }
      const reason = `${op.toUpperCase()} paused until Hook ${hook} is cleared`;
      await tx.events.append([resourceEvent(row, row.action, row.status, reason, now)]);
    }
    await tx.work.reschedule(item, now + HOOK_SAFETY_MS, item.payload, hookWaitKey(row.id));
    return true;
  });
  return true;
}
async function clearHook(tx, row, hook, now) {
  if (typeof hook !== "string" || !HOOK_TYPES.includes(hook)) {
    throw new OperationError(
      `Invalid hook type "${String(hook)}" for ${row.name}; acceptable hook types are: ${HOOK_TYPES.join(", ")}`,
      "invalid"
    );
  }
  const bp = breakpointOf(row);
  if (!bp || bp.hook !== hook || bp.state !== "waiting") {
    throw new OperationError(`The "${hook}" hook is not defined on ${row.name}`, "invalid");
  }
  const cleared = { ...bp, state: "cleared" };
  const written = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
    data: { ...row.data, [BREAKPOINT_KEY]: cleared }
  });
  if (!written) throw new OperationError(`resource "${row.name}" changed meanwhile; try again`, "conflict");
  await tx.events.append([resourceEvent(row, row.action, row.status, `Hook ${hook} is cleared`, now)]);
  await tx.work.wakeWaiting(hookWaitKey(row.id), now);
}
function pendingHook(row) {
  const bp = breakpointOf(row);
  return bp?.state === "waiting" ? bp.hook : void 0;
}

// src/engine/nested.ts
import { randomUUID as randomUUID5 } from "node:crypto";

// src/engine/retry.ts
var MAX_BACKOFF = 300;
function retryState(row) {
  const p = row.progress;
  return isPlainObject(p) && p.op === "retry" && typeof p.failure === "string" && typeof p.deletes === "number" ? p : void 0;
}
function mayRetry(scope, err, done) {
  return scope.current && err instanceof ResourceInError && done < scope.deps.settings.actionRetryLimit;
}
function retryDelayMs(deps, retry) {
  const scale = deps.settings.actionRetryBackoffMs ?? 1e3;
  return Math.min(2 ** retry, MAX_BACKOFF) * scale + deps.random() * 2 * scale;
}
function retryAt(scope, retry) {
  const { deps, stack } = scope;
  return Math.min(deps.clock.now() + retryDelayMs(deps, retry), timeoutAt(deps, stack) + 1);
}
function retryReason(deps, action, retry) {
  return `Retrying ${action} (retry ${retry} of ${deps.settings.actionRetryLimit})`;
}
async function retryCreate(scope, row, failure) {
  const { deps, item } = scope;
  const now = deps.clock.now();
  const reason = `Deleting what the failed create made, before retry ${row.createRetries + 1}`;
  const state = { op: "retry", failure, deletes: 0 };
  const payload = { phase: "retry", row: row.id, polls: 0 };
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action: "DELETE",
      status: "IN_PROGRESS",
      reason,
      progress: state
    });
    if (!next) return false;
    await tx.events.append([
      resourceEvent(row, "CREATE", "FAILED", failure, now),
      resourceEvent(next, "DELETE", "IN_PROGRESS", reason, now)
    ]);
    await tx.work.reschedule(item, now, payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}
async function stepCreateRetry(scope, payload) {
  const row = await scope.deps.store.tx((tx) => tx.resources.get(payload.row));
  if (row && deletingForRetry(row) && row.status === "IN_PROGRESS") {
    const lock = await lockState(scope, row);
    if (lock === "mine" || lock === "abandoned") {
      await deleteFailedAttempt(scope, row, payload.polls);
      return "done";
    }
  }
  if (!scope.current) {
    await drop(scope);
    return "done";
  }
  if (row?.engineId === null && row.status === "FAILED") {
    if (row.action === "CREATE") return "create";
    const state = retryState(row);
    if (row.action === "DELETE" && state) {
      await deleteAgain(scope, row, state);
      return "done";
    }
  }
  return "start";
}
function deletingForRetry(row) {
  return row.action === "DELETE" && retryState(row) !== void 0;
}
async function continueRetryDelete(scope, row) {
  return deleteFailedAttempt(scope, row, 0);
}
async function deleteAgain(scope, row, state) {
  const { deps } = scope;
  const now = deps.clock.now();
  const reason = retryReason(deps, "DELETE", state.deletes);
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, null, {
      engineId: scope.holder,
      status: "IN_PROGRESS",
      reason
    });
    if (next) await tx.events.append([resourceEvent(next, "DELETE", "IN_PROGRESS", reason, now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  return deleteFailedAttempt(scope, locked, 0);
}
async function deleteFailedAttempt(scope, row, polls) {
  const { deps, item } = scope;
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin) return failNode(scope, row, `unknown resource type "${row.type}"`);
  const state = retryState(row) ?? { op: "retry", failure: row.reason, deletes: 0 };
  const ctx = pluginContext(scope, row);
  let result;
  try {
    if (state.deleting === void 0) result = await plugin.delete(ctx);
    else if (plugin.checkDeleteComplete) result = await plugin.checkDeleteComplete(ctx, state.deleting);
    else result = { done: true };
  } catch (err) {
    const reason = `DELETE failed: ${errorMessage(err)}`;
    if (!mayRetry(scope, err, state.deletes)) return failNode(scope, row, reason);
    const deletes = state.deletes + 1;
    const waiting = { op: "retry", failure: state.failure, deletes };
    return backOffDelete(scope, row, reason, { phase: "retry", row: row.id, polls: 0 }, deletes, waiting);
  }
  const done = "done" in result ? result.done : result.progress === void 0;
  if (done) return backOffCreate(scope, row, state);
  const deleting = result.progress ?? state.deleting ?? null;
  const now = deps.clock.now();
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      progress: { ...state, deleting }
    });
    if (!next) return false;
    const payload = { phase: "retry", row: row.id, polls: polls + 1 };
    await tx.work.reschedule(item, now + pollDelay(result.pollAfterMs, polls), payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}
async function backOffCreate(scope, row, state) {
  const { deps, item } = scope;
  const now = deps.clock.now();
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: null,
      action: "CREATE",
      status: "FAILED",
      reason: state.failure,
      physicalId: null,
      data: {},
      progress: null
    });
    if (!next) return false;
    await tx.events.append([resourceEvent(row, "DELETE", "COMPLETE", "state changed", now)]);
    if (!scope.current) {
      await tx.work.complete(item);
      return true;
    }
    const payload = { phase: "retry", row: row.id, polls: 0 };
    await tx.work.reschedule(item, retryAt(scope, row.createRetries + 1), payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}
async function backOffDelete(scope, row, reason, payload, retry, progress = null) {
  const { deps, item } = scope;
  const now = deps.clock.now();
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: null,
      action: "DELETE",
      status: "FAILED",
      reason,
      progress
    });
    if (!next) return false;
    await tx.events.append([resourceEvent(next, "DELETE", "FAILED", reason, now)]);
    await tx.work.reschedule(item, retryAt(scope, retry), payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}

// src/engine/cleanup-node.ts
async function runCleanupNode(scope, payload) {
  const { deps, item } = scope;
  const rowId = parseNodeKey(item.node).rowId;
  if (payload.phase === "poll") return poll(scope, rowId, payload.attempt, payload.retries ?? 0);
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const retries = payload.phase === "start" ? payload.retries ?? 0 : 0;
  const row = await deps.store.tx((tx) => tx.resources.get(rowId));
  if (!row || row.action === "DELETE" && row.status === "COMPLETE")
    return finishCleanup(scope, row, void 0);
  const lock = await lockState(scope, row);
  if (childStackOf(row) !== void 0 && !await retained(scope, row))
    return runNestedDelete(scope, row, lock);
  if (lock === "busy") return waitForLock(scope);
  const plugin = await pluginToDelete(scope, row);
  if (!plugin) return finishCleanup(scope, row, row.engineId);
  if (await stopAtHook(scope, row, "delete")) return;
  const now = deps.clock.now();
  const reason = retries > 0 ? retryReason(deps, "DELETE", retries) : "state changed";
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action: "DELETE",
      status: "IN_PROGRESS",
      reason
    });
    if (next) await tx.events.append([resourceEvent(next, "DELETE", "IN_PROGRESS", reason, now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  let result;
  try {
    result = await plugin.delete(pluginContext(scope, locked));
  } catch (err) {
    return deleteFailed(scope, locked, err, retries);
  }
  await afterDelete(scope, plugin, locked, result, 0, retries);
}
async function pluginToDelete(scope, row) {
  const neverCreated = row.physicalId === null && row.action === "INIT";
  const plugin = scope.deps.plugins.plugin(row.type);
  if (neverCreated || !plugin || await retained(scope, row)) return void 0;
  return plugin;
}
function deleteFailed(scope, row, err, retries) {
  const reason = `DELETE failed: ${errorMessage(err)}`;
  if (!mayRetry(scope, err, retries)) return failNode(scope, row, reason);
  return backOffDelete(scope, row, reason, { phase: "start", retries: retries + 1 }, retries + 1);
}
async function poll(scope, rowId, attempt, retries) {
  const { deps } = scope;
  const row = await deps.store.tx((tx) => tx.resources.get(rowId));
  if (!row || row.status !== "IN_PROGRESS") return drop(scope);
  const lock = await lockState(scope, row);
  if (lock === "busy") return waitForLock(scope);
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin) return finishCleanup(scope, row, row.engineId);
  let result = { done: true };
  try {
    if (plugin.checkDeleteComplete)
      result = await plugin.checkDeleteComplete(pluginContext(scope, row), row.progress);
  } catch (err) {
    return deleteFailed(scope, row, err, retries);
  }
  await afterDelete(scope, plugin, row, result, attempt, retries);
}
async function afterDelete(scope, _plugin, row, result, attempt, retries) {
  const { deps, item } = scope;
  const pending = "done" in result ? !result.done : result.progress !== void 0;
  if (!pending) return finishCleanup(scope, row, row.engineId, true);
  const progress = "progress" in result && result.progress !== void 0 ? result.progress : row.progress;
  const delay = pollDelay(result.pollAfterMs, attempt);
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      progress: progress ?? null
    });
    if (!next) return false;
    await tx.work.reschedule(item, deps.clock.now() + delay, {
      phase: "poll",
      op: "delete",
      row: row.id,
      attempt: attempt + 1,
      ...retries > 0 ? { retries } : {}
    });
    return true;
  });
  if (!saved) return retryLater(scope);
}
async function finishCleanup(scope, row, holder, deleted = false) {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const ok = await deps.store.tx(async (tx) => {
    if (row && holder !== void 0) {
      const next = await tx.resources.update(row.id, row.atomicKey, holder, {
        engineId: null,
        action: "DELETE",
        status: "COMPLETE",
        reason: deleted ? "state changed" : "deleted from the database only",
        progress: null
      });
      if (!next) return false;
      await tx.events.append([resourceEvent(next, "DELETE", "COMPLETE", next.reason, now)]);
    }
    if (scope.current)
      await propagate(tx, stack, item.traversalId, item.node, { rowId: row?.id ?? null }, now);
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}
async function retained(scope, row) {
  const definition = await definitionFor(scope, row.templateId).catch(() => void 0);
  const resource = definition?.resources.get(row.name);
  const policy = resource?.definition.deletionPolicy;
  if (!definition || policy === void 0) return false;
  const value2 = typeof policy === "string" ? policy : new NodeResolveContext(definition, /* @__PURE__ */ new Map()).resolve(policy);
  return typeof value2 === "string" && value2.toLowerCase() === "retain";
}

// src/engine/check-node.ts
async function runCheckNode(scope, _payload) {
  const { deps } = scope;
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const row = await deps.store.tx((tx) => tx.resources.get(parseNodeKey(scope.item.node).rowId));
  if (!row) return drop(scope);
  const upstream = failedUpstream(scope);
  if (upstream.length > 0) return report(scope, row, null, upstream);
  const lock = await lockState(scope, row);
  if (lock === "busy") return waitForLock(scope);
  if (childStackOf(row) !== void 0) return runNestedCheck(scope, row);
  const now = deps.clock.now();
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action: "CHECK",
      status: "IN_PROGRESS",
      reason: "state changed",
      updatedAt: new Date(now).toISOString()
    });
    if (next) await tx.events.append([resourceEvent(next, "CHECK", "IN_PROGRESS", "state changed", now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  const plugin = deps.plugins.plugin(row.type);
  let error = null;
  let reason = "state changed";
  if (plugin?.check) {
    try {
      await plugin.check(pluginContext(scope, locked));
    } catch (err) {
      error = errorMessage(err) || "CHECK failed";
    }
  } else {
    reason = `CHECK not supported for ${row.type}`;
  }
  return report(scope, locked, { error, reason }, error === null ? [] : [row.name]);
}
function failedUpstream(scope) {
  const names2 = /* @__PURE__ */ new Set();
  for (const value2 of Object.values(scope.point?.inputs ?? {})) {
    const failed = value2?.failed;
    if (Array.isArray(failed)) for (const name of failed) names2.add(name);
  }
  return [...names2].sort();
}
async function report(scope, row, result, failed) {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const ok = await deps.store.tx(async (tx) => {
    if (result) {
      const status = result.error === null ? "COMPLETE" : "FAILED";
      const reason = result.error ?? result.reason;
      const next = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
        engineId: null,
        action: "CHECK",
        status,
        reason,
        progress: null,
        // A resource that checks out is healthy again (as after Heat's mark-unhealthy + check).
        ...result.error === null ? { unhealthy: false } : {},
        updatedAt: new Date(now).toISOString()
      });
      if (!next) return false;
      await tx.events.append([resourceEvent(next, "CHECK", status, reason, now)]);
    }
    const output = {
      name: row.name,
      rowId: row.id,
      refId: row.physicalId,
      attributes: row.attributes,
      failed
    };
    await propagate(tx, stack, item.traversalId, item.node, output, now);
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}

// src/engine/nested-check.ts
async function runNestedCheck(scope, row) {
  const { deps } = scope;
  const childId = childStackOf(row);
  const child = await deps.store.tx((tx) => tx.stacks.get(childId));
  if (!child || child.deletedAt || child.action === "DELETE") {
    return report(scope, row, { error: `the nested stack ${childId} is gone`, reason: "" }, [row.name]);
  }
  if (child.status === "IN_PROGRESS") {
    const error = `the nested stack ${child.name} is ${child.action}_IN_PROGRESS`;
    return report(scope, row, { error, reason: "" }, [row.name]);
  }
  const templateId = child.templateId;
  const record3 = templateId ? await deps.store.tx((tx) => tx.templates.get(templateId)) : void 0;
  if (!templateId || !record3) {
    const error = `the nested stack ${child.name} has no template to check against`;
    return report(scope, row, { error, reason: "" }, [row.name]);
  }
  let desired;
  try {
    const identity = { stackId: child.id, stackName: child.name, projectId: child.projectId };
    desired = desiredOf(scope.cache.get(record3, identity));
  } catch (err) {
    if (err instanceof TemplateError)
      return report(scope, row, { error: err.message, reason: "" }, [row.name]);
    throw err;
  }
  const started = await startChildVisit(
    scope,
    row,
    child,
    "check",
    (tx, now) => beginTraversal(tx, { stack: child, action: "CHECK", templateId, desired, now }).then(() => void 0)
  );
  if (!started) return retryLater(scope);
}
async function resumeNestedCheck(scope, row, child, repark2) {
  if (child && child.status === "IN_PROGRESS" && child.action === "CHECK") return repark2();
  if (child && child.action === "CHECK" && child.status === "COMPLETE") {
    return report(scope, row, { error: null, reason: "state changed" }, []);
  }
  const error = child ? child.action === "CHECK" ? child.reason : `the nested stack's check was superseded by its ${child.action}` : "the nested stack is gone";
  return report(scope, row, { error, reason: "" }, [row.name]);
}

// src/engine/nested.ts
var ACTION = {
  create: "CREATE",
  update: "UPDATE",
  delete: "DELETE"
};
async function runNestedUpdate(scope, definition, resource, row) {
  const impl = resource.implementation;
  const plugin = impl.kind === "plugin" ? scope.deps.plugins.plugin(impl.type) : void 0;
  if (impl.kind !== "template" && !isNestedPlugin(plugin)) {
    throw new Error(`internal: ${row.name} is not a template resource`);
  }
  let spec;
  try {
    const ctx = new NodeResolveContext(definition, inputsOf(scope.point));
    const path = [...resource.definition.path, "properties"];
    const resolved = ctx.resolve(resource.definition.properties);
    const templateId = scope.traversal?.templateId;
    const parent = templateId ? await parentTemplate(scope, templateId) : void 0;
    if (!parent) return drop(scope);
    if (impl.kind === "template") {
      const properties = childParameters(resolved, path);
      spec = childSpec(scope, parent, row.name, impl, properties, [...resource.definition.path, "type"]);
    } else {
      const nestedPlugin = plugin;
      const properties = validateProperties(nestedPlugin.properties, resolved ?? {}, path);
      const updatePolicy = ctx.resolve(resource.definition.updatePolicy);
      const child2 = nestedPlugin.nested.child(properties, row.data, {
        updatePolicy,
        creating: childStackOf(row) === void 0
      });
      spec = generatedChildSpec(parent, row.name, impl.type, child2, properties);
    }
  } catch (err) {
    if (err instanceof TemplateError) return failNode(scope, row, err.message);
    throw err;
  }
  const lock = await lockState(scope, row);
  const inflight = nestedProgress(row);
  const converging = inflight?.op === "create" || inflight?.op === "update" ? inflight : void 0;
  if (lock === "busy" && !converging) return waitForLock(scope);
  if (converging) {
    if (converging.digest === spec.digest) return adopt(scope, row, converging);
    return converge(scope, row, spec, "update", converging.child);
  }
  const childId = childStackOf(row);
  if (childId === void 0 && row.physicalId !== null || row.action === "DELETE") {
    const fresh = await makeReplacement(scope, row);
    if (!fresh) return retryLater(scope);
    return converge(scope, fresh, spec, "create", randomUUID5());
  }
  const child = childId === void 0 ? void 0 : await scope.deps.store.tx((tx) => tx.stacks.get(childId));
  if (!child || child.deletedAt || child.action === "DELETE") {
    return converge(scope, row, spec, "create", randomUUID5());
  }
  const unchanged = row.data[DIGEST_KEY] === spec.digest && row.type === spec.type && row.status === "COMPLETE" && !row.unhealthy && child.status === "COMPLETE";
  if (unchanged) {
    const properties = row.properties ?? {};
    return recordDone(scope, row, properties, row.engineId, { refId: child.id, attributes: row.attributes });
  }
  return converge(scope, row, spec, "update", child.id);
}
async function runNestedDelete(scope, row, lock) {
  const inflight = nestedProgress(row);
  if (lock === "busy" && (!inflight || inflight.op === "check")) return waitForLock(scope);
  if (inflight?.op === "delete") return adopt(scope, row, inflight);
  return deleteChild(scope, row);
}
async function resumeNested(scope, payload) {
  const { deps } = scope;
  const { row, child } = await deps.store.tx(async (tx) => ({
    row: await tx.resources.get(payload.row),
    child: await tx.stacks.get(payload.child)
  }));
  if (!row || row.status !== "IN_PROGRESS") return drop(scope);
  const lock = await lockState(scope, row);
  if (lock === "busy" || lock === "free") return drop(scope);
  const progress = nestedProgress(row);
  if (!progress) return failNode(scope, row, "internal: the nested stack operation was lost");
  if (payload.op === "check") return resumeNestedCheck(scope, row, child, () => repark(scope, payload));
  if (payload.op === "suspend" || payload.op === "resume")
    return resumeNestedVisit(scope, row, child, () => repark(scope, payload));
  if (payload.op === "delete") {
    if (!child || child.action === "DELETE" && child.status === "COMPLETE") {
      return finishCleanup(scope, row, row.engineId, true);
    }
    if (child.status === "IN_PROGRESS") return repark(scope, payload);
    if (child.action === "DELETE") return failNode(scope, row, `DELETE failed: ${child.reason}`);
    return deleteChild(scope, row);
  }
  if (!child || child.deletedAt || child.action === "DELETE") {
    return failNode(scope, row, `the nested stack ${payload.child} was deleted`);
  }
  if (child.status === "IN_PROGRESS") return repark(scope, payload);
  if (child.status === "FAILED") return failNode(scope, row, child.reason);
  const outputs = await childOutputs(scope, child);
  const done = { ...row, data: { ...row.data, [CHILD_KEY]: child.id, [DIGEST_KEY]: progress.digest } };
  if (progress.generated) {
    const plugin = deps.plugins.plugin(progress.type);
    if (isNestedPlugin(plugin))
      outputs.attributes = await generatedAttributes(scope, plugin, done, child, outputs);
  }
  const properties = progress.properties;
  return recordDone(scope, done, properties, row.engineId, outputs, payload.op, {
    type: progress.type,
    unhealthy: false
  });
}
async function converge(scope, row, spec, op, childId) {
  const { deps } = scope;
  const now = deps.clock.now();
  const existing = op === "update" ? await deps.store.tx((tx) => tx.stacks.get(childId)) : void 0;
  if (op === "update" && (!existing || existing.deletedAt || existing.action === "DELETE")) {
    return converge(scope, row, spec, "create", randomUUID5());
  }
  const identity = existing ?? newChildStack(scope.stack, row.name, childId, now);
  const record3 = childTemplateRecord(randomUUID5(), spec, now);
  let definition;
  try {
    definition = bindChild(scope, record3, identity);
  } catch (err) {
    if (err instanceof TemplateError) return failNode(scope, row, err.message);
    throw err;
  }
  const action = ACTION[op];
  const progress = {
    child: childId,
    op,
    properties: spec.properties,
    digest: spec.digest,
    type: spec.type,
    ...spec.data ? { generated: true } : {}
  };
  const started = await guarded(
    deps.store.tx(async (tx) => {
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder,
        action,
        status: "IN_PROGRESS",
        reason: "state changed",
        physicalId: childId,
        data: { ...row.data, ...spec.data, [CHILD_KEY]: childId },
        progress,
        updatedAt: new Date(now).toISOString()
      });
      if (!locked) return false;
      await tx.events.append([resourceEvent(locked, action, "IN_PROGRESS", "state changed", now)]);
      await tx.templates.insert(record3, identity.rootId);
      if (op === "create") await tx.stacks.insert(identity);
      const child = op === "create" ? identity : await tx.stacks.get(childId);
      const payload = { phase: "nested", op, row: row.id, child: childId };
      if (!child) throw new Retry();
      await park(tx, scope, payload, now + NESTED_SAFETY_MS);
      const desired = desiredOf(definition);
      await beginTraversal(tx, {
        stack: child,
        action,
        templateId: record3.id,
        desired,
        ...op === "update" ? { unchanged: unchangedFor(deps, definition, desired) } : {},
        now
      });
      return true;
    })
  );
  if (!started) return retryLater(scope);
}
async function deleteChild(scope, row) {
  const { deps } = scope;
  const childId = childStackOf(row);
  const now = deps.clock.now();
  const progress = {
    child: childId,
    op: "delete",
    properties: row.properties ?? {},
    digest: "",
    type: row.type
  };
  const outcome = await guarded(
    deps.store.tx(async (tx) => {
      const child = await tx.stacks.get(childId);
      if (!child || child.action === "DELETE" && child.status === "COMPLETE") return "gone";
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder,
        action: "DELETE",
        status: "IN_PROGRESS",
        reason: "state changed",
        progress
      });
      if (!locked) return false;
      await tx.events.append([resourceEvent(locked, "DELETE", "IN_PROGRESS", "state changed", now)]);
      const payload = { phase: "nested", op: "delete", row: row.id, child: childId };
      await park(tx, scope, payload, now + NESTED_SAFETY_MS);
      await beginTraversal(tx, {
        stack: child,
        action: "DELETE",
        templateId: child.templateId,
        desired: [],
        now
      });
      return "parked";
    })
  );
  if (outcome === "gone") return finishCleanup(scope, row, row.engineId, true);
  if (!outcome) return retryLater(scope);
}
async function adopt(scope, row, inflight) {
  const { deps } = scope;
  const now = deps.clock.now();
  const payload = { phase: "nested", op: inflight.op, row: row.id, child: inflight.child };
  const adopted = await guarded(
    deps.store.tx(async (tx) => {
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder
      });
      if (!locked) return false;
      await parkOnChild(tx, scope, payload, now);
      return true;
    })
  );
  if (!adopted) return retryLater(scope);
}
async function repark(scope, payload) {
  const { deps } = scope;
  await deps.store.tx((tx) => parkOnChild(tx, scope, payload, deps.clock.now()));
}
async function parkOnChild(tx, scope, payload, now) {
  const child = await tx.stacks.get(payload.child);
  const runAt = child?.status === "IN_PROGRESS" ? now + NESTED_SAFETY_MS : now;
  return park(tx, scope, payload, runAt);
}
async function generatedAttributes(scope, plugin, row, child, outputs) {
  const rows = await scope.deps.store.tx((tx) => tx.resources.listStates(child.id));
  const byName = /* @__PURE__ */ new Map();
  for (const r of rows) {
    const seen = byName.get(r.name);
    if (!seen || r.templateId === child.templateId) byName.set(r.name, r);
  }
  const members = [...byName.values()].map((r) => ({
    name: r.name,
    refId: r.physicalId,
    attributes: r.attributes
  }));
  return plugin.nested.attributes({
    childId: child.id,
    childName: child.name,
    properties: row.properties ?? {},
    data: row.data,
    members,
    outputs: outputs.attributes
  });
}

// src/engine/update-node.ts
var ACTION_OF = {
  create: "CREATE",
  update: "UPDATE",
  delete: "DELETE"
};
async function runUpdateNode(scope, payload) {
  const { deps, item } = scope;
  const nodeRow = parseNodeKey(item.node).rowId;
  if (payload.phase === "poll")
    return poll2(scope, payload.op, payload.row, payload.attempt, payload.reassess);
  let retryRow;
  if (payload.phase === "retry") {
    const step = await stepCreateRetry(scope, payload);
    if (step === "done") return;
    if (step === "create") retryRow = payload.row;
  }
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const definition = await definitionFor(scope, scope.traversal?.templateId ?? null);
  const row = await followReplacements(scope, nodeRow);
  if (!definition || !row) return drop(scope);
  const resource = definition.resources.get(row.name);
  if (resource?.implementation.kind === "template" || isNestedPlugin(deps.plugins.plugin(resource?.implementation.type ?? ""))) {
    return runNestedUpdate(scope, definition, resource, row);
  }
  if (!resource || resource.implementation.kind !== "plugin") {
    return failNode(scope, row, `resource type of "${row.name}" cannot be converged here`);
  }
  const plugin = deps.plugins.plugin(resource.implementation.type);
  if (!plugin) return failNode(scope, row, `unknown resource type "${resource.implementation.type}"`);
  let properties;
  try {
    properties = resolveProperties(definition, resource, plugin, inputsOf(scope.point));
  } catch (err) {
    if (err instanceof TemplateError) return failNode(scope, row, err.message);
    throw err;
  }
  const lock = await lockState(scope, row);
  if (lock === "busy") return waitForLock(scope);
  if (lock !== "free" && row.status === "IN_PROGRESS") {
    if (deletingForRetry(row)) return continueRetryDelete(scope, row);
    const op = row.action === "CREATE" ? "create" : row.action === "UPDATE" ? "update" : void 0;
    const started = row.progress?.properties;
    if (op) {
      const original = started ?? properties;
      const reassess = !jsonEqual(original, properties);
      const retry = op === "create" && row.createRetries > 0 ? row.createRetries : void 0;
      return start(scope, plugin, row, op, original, row.engineId, { reassess, retry });
    }
  }
  if (retryRow === row.id && lock === "free")
    return start(scope, plugin, row, "create", properties, null, { retry: row.createRetries + 1 });
  const decision = decide(plugin, row, resource.implementation.type, properties);
  if (decision === "none") return finish(scope, plugin, row, properties, row.engineId);
  if (await stopAtHook(scope, row, decision === "create" ? "create" : "update")) return;
  if (decision === "replace") return replace2(scope, plugin, row, properties);
  return start(scope, plugin, row, decision, properties, row.engineId);
}
async function followReplacements(scope, rowId) {
  return scope.deps.store.tx(async (tx) => {
    let row = await tx.resources.get(rowId);
    for (let hops = 0; row && row.replacedBy !== null && hops < 10; hops++) {
      const next = await tx.resources.get(row.replacedBy);
      if (!next || next.action === "DELETE") break;
      row = next;
    }
    return row;
  });
}
function decide(plugin, row, type, properties) {
  if (row.action === "INIT") return "create";
  if (row.action === "DELETE") return "replace";
  if (row.status === "FAILED" || row.unhealthy || row.type !== type || row.physicalId === null)
    return "replace";
  const previous = row.properties ?? {};
  const diff = diffProperties(plugin.properties, previous, properties);
  if (diff.changed.length === 0) return "none";
  if (diff.requiresReplacement.length > 0) return "replace";
  return plugin.needsReplace?.(properties, previous, diff.changed) ? "replace" : "update";
}
async function start(scope, plugin, row, op, properties, holder, { reassess = false, retry } = {}) {
  const { deps } = scope;
  const now = deps.clock.now();
  const locked = await deps.store.tx(async (tx) => {
    const changes = startChanges(scope, op, properties);
    if (retry !== void 0) {
      changes.createRetries = retry;
      changes.reason = retryReason(deps, ACTION_OF[op], retry);
    }
    const next = await tx.resources.update(row.id, row.atomicKey, holder, changes);
    if (next) await tx.events.append([resourceEvent(next, ACTION_OF[op], "IN_PROGRESS", next.reason, now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  let result;
  try {
    result = await runAction(scope, plugin, locked, op, properties);
  } catch (err) {
    return actionFailed(scope, plugin, locked, op, properties, err);
  }
  await afterAction(scope, plugin, locked, op, properties, result, 0, reassess);
}
async function actionFailed(scope, plugin, locked, op, properties, err) {
  if (err instanceof UpdateReplace && op === "update") {
    const released = await scope.deps.store.tx(
      (tx) => tx.resources.update(locked.id, locked.atomicKey, scope.holder, {
        engineId: null,
        action: "UPDATE",
        status: "COMPLETE"
      })
    );
    if (!released) return retryLater(scope);
    return replace2(scope, plugin, released, properties);
  }
  return operationFailed(scope, locked, op, err);
}
function operationFailed(scope, row, op, err) {
  const reason = `${ACTION_OF[op]} failed: ${errorMessage(err)}`;
  if (op === "create" && mayRetry(scope, err, row.createRetries)) return retryCreate(scope, row, reason);
  return failNode(scope, row, reason);
}
function startChanges(scope, op, properties) {
  return {
    engineId: scope.holder,
    action: ACTION_OF[op],
    status: "IN_PROGRESS",
    reason: "state changed",
    // What this operation applies, so that a resumed attempt applies the same.
    progress: { op, state: null, properties },
    updatedAt: new Date(scope.deps.clock.now()).toISOString()
  };
}
async function runAction(scope, plugin, row, op, properties) {
  const ctx = pluginContext(scope, row);
  if (op === "create") return plugin.create(ctx, properties);
  if (!plugin.update) return {};
  const previous = row.properties ?? {};
  const changed = diffProperties(plugin.properties, previous, properties).changed;
  return plugin.update(ctx, properties, previous, changed);
}
function resultChanges(row, result) {
  const changes = {};
  if (result.physicalId !== void 0) changes.physicalId = result.physicalId;
  if (result.data) changes.data = { ...row.data, ...result.data };
  return changes;
}
async function afterAction(scope, plugin, row, op, properties, result, attempt, reassess = false) {
  const { deps, item } = scope;
  const changes = resultChanges(row, result);
  const pending = "done" in result ? !result.done : result.progress !== void 0;
  if (!pending) {
    const merged = { ...row, ...changes };
    return finish(scope, plugin, merged, properties, scope.holder, op, reassess);
  }
  const progress = "progress" in result && result.progress !== void 0 ? result.progress : row.progress?.state;
  const wakeOn = result.wakeOnSignalTo;
  const delay = wakeOn === void 0 ? pollDelay(result.pollAfterMs, attempt) : Math.max(0, result.pollAfterMs ?? pollDelay(void 0, attempt));
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
      ...changes,
      progress: { op, state: progress ?? null, properties }
    });
    if (!next) return false;
    const payload = {
      phase: "poll",
      op,
      row: row.id,
      attempt: attempt + 1,
      ...reassess ? { reassess: true } : {}
    };
    const key = wakeOn === void 0 ? void 0 : signalWaitKey(scope.stack.id, wakeOn);
    await tx.work.reschedule(item, deps.clock.now() + delay, payload, key);
    return true;
  });
  if (!saved) return retryLater(scope);
}
async function poll2(scope, op, rowId, attempt, reassess = false) {
  const { deps } = scope;
  const row = await deps.store.tx((tx) => tx.resources.get(rowId));
  if (!row || row.status !== "IN_PROGRESS") return drop(scope);
  const lock = await lockState(scope, row);
  if (lock === "busy") return waitForLock(scope);
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin) return failNode(scope, row, `unknown resource type "${row.type}"`);
  const saved = row.progress;
  const properties = saved?.properties ?? (row.properties ?? {});
  const check = op === "create" ? plugin.checkCreateComplete : plugin.checkUpdateComplete;
  let result = { done: true };
  try {
    if (check) result = await check.call(plugin, pluginContext(scope, row), saved?.state ?? null);
  } catch (err) {
    return operationFailed(scope, row, op, err);
  }
  const mine = row.engineId === scope.holder ? row : await steal(scope, row);
  if (!mine) return retryLater(scope);
  await afterAction(scope, plugin, mine, op, properties, result, attempt, reassess);
}
async function steal(scope, row) {
  const { deps } = scope;
  return deps.store.tx(
    (tx) => tx.resources.update(row.id, row.atomicKey, row.engineId, { engineId: scope.holder })
  );
}
async function finish(scope, plugin, row, properties, holder, op, reassess = false) {
  const outputs = await outputsOf(plugin, pluginContext(scope, row), properties);
  return recordDone(scope, row, properties, holder, outputs, op, {}, reassess);
}
async function recordDone(scope, row, properties, holder, outputs, op, extra = {}, reassess = false) {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const { refId, attributes } = outputs;
  const nodeRow = parseNodeKey(item.node).rowId;
  const ok = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, holder, {
      ...doneChanges(scope, row, properties, attributes, op, reassess),
      ...extra
    });
    if (!next) return false;
    if (op) await tx.events.append([resourceEvent(next, ACTION_OF[op], "COMPLETE", "state changed", now)]);
    if (scope.current && reassess) {
      await tx.work.reschedule(item, now, { phase: "start" });
      return true;
    }
    if (scope.current) {
      if (row.id !== nodeRow)
        await addReplacementCleanup(tx, stack, item.traversalId, item.node, nodeRow, now);
      const output = { name: row.name, rowId: row.id, refId, attributes };
      await propagate(tx, stack, item.traversalId, item.node, output, now);
    }
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}
function doneChanges(scope, row, properties, attributes, op, reassess = false) {
  return {
    engineId: null,
    ...op ? { action: ACTION_OF[op], status: "COMPLETE", reason: "state changed" } : {},
    physicalId: row.physicalId,
    data: row.data,
    properties,
    attributes,
    progress: null,
    templateId: scope.current && !reassess ? scope.traversal?.templateId ?? row.templateId : row.templateId,
    requires: [...inputsOf(scope.point).values()].map((i) => i.rowId),
    updatedAt: new Date(scope.deps.clock.now()).toISOString()
  };
}
async function replace2(scope, plugin, row, properties) {
  const replacement = await makeReplacement(scope, row, plugin.type);
  if (!replacement) return retryLater(scope);
  await start(scope, plugin, replacement, "create", properties, null);
}
async function makeReplacement(scope, row, type = row.type) {
  const now = scope.deps.clock.now();
  return scope.deps.store.tx(async (tx) => {
    const [fresh] = await tx.resources.insert([initRow({ ...row, type }, now, row.id)]);
    const marked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      replacedBy: fresh.id
    });
    if (!marked) throw new LostRace();
    return fresh;
  }).catch((err) => {
    if (err instanceof LostRace) return void 0;
    throw err;
  });
}
var LostRace = class extends Error {
};
async function waitForLock(scope) {
  const { deps, item } = scope;
  await deps.store.tx(
    (tx) => tx.work.reschedule(item, deps.clock.now() + deps.settings.lockRetryMs, {
      phase: "start"
    })
  );
}
async function retryLater(scope) {
  const { deps, item } = scope;
  await deps.store.tx((tx) => tx.work.reschedule(item, deps.clock.now() + 10, item.payload));
}
async function drop(scope) {
  const { deps, item } = scope;
  await deps.store.tx((tx) => tx.work.complete(item));
}

// src/engine/suspend-node.ts
var OP = { SUSPEND: "suspend", RESUME: "resume" };
function invalidState(action, row) {
  if (action === "SUSPEND")
    return row.action === "DELETE" || row.action !== "SUSPEND" && row.status !== "COMPLETE";
  const from = `${row.action}_${row.status}`;
  return from !== "SUSPEND_COMPLETE" && from !== "RESUME_FAILED";
}
async function runSuspendNode(scope, payload) {
  const { deps } = scope;
  const action = scope.traversal?.action;
  if (payload.phase === "visit-poll") return poll3(scope, action, payload);
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const row = await deps.store.tx((tx) => tx.resources.get(parseNodeKey(scope.item.node).rowId));
  if (!row) return drop(scope);
  if (row.action === action && row.status === "COMPLETE") return record(scope, row, void 0);
  if (row.engineId === null && invalidState(action, row)) {
    return failNode(scope, row, `State ${row.action}_${row.status} invalid for ${OP[action]}`);
  }
  const lock = await lockState(scope, row);
  if (lock === "busy") return waitForLock(scope);
  if (childStackOf(row) !== void 0) return visitChild(scope, row, action);
  const now = deps.clock.now();
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action,
      status: "IN_PROGRESS",
      reason: "state changed",
      updatedAt: new Date(now).toISOString()
    });
    if (next) await tx.events.append([resourceEvent(next, action, "IN_PROGRESS", "state changed", now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  const plugin = deps.plugins.plugin(row.type);
  const handler = action === "SUSPEND" ? plugin?.suspend : plugin?.resume;
  let result = {};
  try {
    if (plugin && handler) result = await handler.call(plugin, pluginContext(scope, locked));
  } catch (err) {
    return failNode(scope, locked, `${action} failed: ${errorMessage(err)}`);
  }
  return settle(scope, plugin, locked, result, 0);
}
async function poll3(scope, action, payload) {
  const row = await scope.deps.store.tx((tx) => tx.resources.get(payload.row));
  if (!row || row.status !== "IN_PROGRESS") return drop(scope);
  const lock = await lockState(scope, row);
  if (lock === "busy") return waitForLock(scope);
  const plugin = scope.deps.plugins.plugin(row.type);
  const check = action === "SUSPEND" ? plugin?.checkSuspendComplete : plugin?.checkResumeComplete;
  let result = { done: true };
  try {
    if (plugin && check) result = await check.call(plugin, pluginContext(scope, row), row.progress);
  } catch (err) {
    return failNode(scope, row, `${action} failed: ${errorMessage(err)}`);
  }
  return settle(scope, plugin, row, result, payload.attempt);
}
async function settle(scope, plugin, row, result, attempt) {
  const { deps, item } = scope;
  const data = result.data ? { ...row.data, ...result.data } : row.data;
  const pending = "done" in result ? !result.done : result.progress !== void 0;
  if (!pending || !plugin) return record(scope, { ...row, data }, "COMPLETE");
  const next = { phase: "visit-poll", row: row.id, attempt: attempt + 1 };
  const saved = await deps.store.tx(async (tx) => {
    const written = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
      data,
      progress: result.progress ?? row.progress ?? null
    });
    if (!written) return false;
    const due = deps.clock.now() + pollDelay(result.pollAfterMs, attempt);
    await tx.work.reschedule(item, due, next);
    return true;
  });
  if (!saved) return retryLater(scope);
}
async function record(scope, row, status) {
  const { deps, item, stack } = scope;
  const action = scope.traversal?.action;
  const now = deps.clock.now();
  const ok = await deps.store.tx(async (tx) => {
    if (status) {
      const next = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
        engineId: null,
        action,
        status,
        reason: "state changed",
        data: row.data,
        progress: null,
        updatedAt: new Date(now).toISOString()
      });
      if (!next) return false;
      await tx.events.append([resourceEvent(next, action, status, "state changed", now)]);
    }
    const output = { name: row.name, rowId: row.id, refId: row.physicalId, attributes: row.attributes };
    await propagate(tx, stack, item.traversalId, item.node, output, now);
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}
async function visitChild(scope, row, action) {
  const { deps } = scope;
  const childId = childStackOf(row);
  const child = await deps.store.tx((tx) => tx.stacks.get(childId));
  if (!child || child.deletedAt || child.action === "DELETE") {
    return failNode(scope, row, `${action} failed: the nested stack ${childId} is gone`);
  }
  const started = await startChildVisit(scope, row, child, OP[action], async (tx, now) => {
    if (child.action !== action || child.status === "FAILED") await beginVisit(tx, child, action, now);
  });
  if (!started) return retryLater(scope);
}
async function beginVisit(tx, stack, action, now) {
  const rows = await tx.resources.listHeads(stack.id);
  const byId = new Map(rows.map((r) => [r.id, r.name]));
  const requires = new Map(rows.map((r) => [r.name, /* @__PURE__ */ new Set()]));
  const types2 = new Map(rows.map((r) => [r.name, r.type]));
  for (const row of rows) {
    for (const id of row.requires) {
      const name = byId.get(id);
      if (name === void 0 || name === row.name) continue;
      if (action === "SUSPEND") requires.get(name).add(row.name);
      else requires.get(row.name).add(name);
    }
  }
  const desired = [...requires].map(([name, reqs]) => ({
    name,
    type: types2.get(name),
    requires: [...reqs]
  }));
  await beginTraversal(tx, { stack, action, templateId: stack.templateId, desired, now });
}
async function resumeNestedVisit(scope, row, child, repark2) {
  const action = scope.traversal?.action;
  if (child && child.status === "IN_PROGRESS" && child.action === action) return repark2();
  if (child && child.action === action && child.status === "COMPLETE") return record(scope, row, "COMPLETE");
  const why = child ? child.action === action ? child.reason : `the nested stack's ${action} was superseded by its ${child.action}` : "the nested stack is gone";
  return failNode(scope, row, `${action} failed: ${why}`);
}

// src/engine/restricted.ts
function restrictedMessage(action) {
  return `${action} is restricted for resource.`;
}
function restrictions(changes, environment) {
  const registry2 = new ResourceRegistry(environment);
  const out = [];
  for (const change of changes) {
    const action = change.change === "updated" ? "update" : change.change === "replaced" ? "replace" : void 0;
    if (action && registry2.restrictedActionsFor(change.name, change.path).has(action)) {
      out.push({ change, action });
    }
  }
  return out;
}
async function refuseRestrictedActions(deps, prepared, disableRollback) {
  const { stack, environment, definition } = prepared;
  if (!restrictsAnything(environment.resourceRegistry.resources)) return void 0;
  const found = restrictions(await previewUpdate(deps, stack.id, definition, true, environment), environment);
  if (found.length === 0) return void 0;
  const reason = `Resource UPDATE failed: ${found.map(
    ({ change, action }) => `ResourceActionRestricted: ${resourcePath(change)}: ${restrictedMessage(action)}`
  ).join("; ")}`;
  if (stack.status === "IN_PROGRESS") {
    throw new OperationError(`stack "${stack.name}" is ${stack.action}_IN_PROGRESS; ${reason}`, "conflict");
  }
  const now = deps.clock.now();
  return deps.store.tx(async (tx) => {
    const changes = {
      action: "UPDATE",
      status: "FAILED",
      reason,
      traversalId: "",
      // A rollback goes back to what the stack has now: the template it keeps.
      prevTemplateId: stack.templateId,
      updatedAt: new Date(now).toISOString()
    };
    const failed = { ...stack, ...changes };
    if (!await tx.stacks.update(stack.id, stack.traversalId, changes)) {
      throw new ConflictError(
        `stack "${stack.name}" was changed by another operation at the same time; try again`
      );
    }
    await tx.events.append([
      stackEvent(stack, "UPDATE", "IN_PROGRESS", "Stack UPDATE started", now),
      ...found.map(
        ({ change, action }) => resourceEvent(
          {
            stackId: change.stackId,
            name: change.name,
            type: change.row.type,
            physicalId: change.row.physicalId
          },
          "UPDATE",
          "FAILED",
          restrictedMessage(action),
          now
        )
      ),
      stackEvent(stack, "UPDATE", "FAILED", reason, now)
    ]);
    if (!disableRollback) await enqueueRollback(tx, failed, now);
    return failed;
  });
}
function resourcePath(change) {
  return [...change.path, change.name].map((n) => `resources.${n}`).join(".");
}
function restrictsAnything(entries2) {
  for (const entry of entries2.values()) {
    if (!entry) continue;
    const actions = entry.restrictedActions;
    if (actions && (!Array.isArray(actions) || actions.length > 0)) return true;
    if (restrictsAnything(entry.nested)) return true;
  }
  return false;
}

// src/engine/unchanged.ts
function unchangedResources(deps, definition, desired, chosen, stackId) {
  const unchanged = /* @__PURE__ */ new Map();
  for (const want of dependencyOrder(desired)) {
    const row = chosen.get(want.name);
    if (!row || !settled(row, want.type)) continue;
    const resource = definition.resources.get(want.name);
    if (!resource || resource.implementation.kind !== "plugin") continue;
    const plugin = deps.plugins.plugin(want.type);
    if (!plugin || isNestedPlugin(plugin)) continue;
    const inputs = /* @__PURE__ */ new Map();
    const required = /* @__PURE__ */ new Set();
    let depsUnchanged = true;
    for (const name of want.requires) {
      const output = unchanged.get(name);
      if (!output) {
        depsUnchanged = false;
        break;
      }
      inputs.set(name, output);
      required.add(output.rowId);
    }
    if (!depsUnchanged || !sameIds(row.requires, required)) continue;
    try {
      const properties = resolveProperties(definition, resource, plugin, inputs);
      if (diffProperties(plugin.properties, row.properties ?? {}, properties).changed.length > 0) continue;
    } catch (err) {
      if (isTemplateError(err)) continue;
      throw err;
    }
    unchanged.set(want.name, rowOutput(deps, row, stackId));
  }
  return unchanged;
}
function settled(row, type) {
  return row.status === "COMPLETE" && row.action !== "INIT" && row.action !== "DELETE" && !row.unhealthy && row.engineId === null && row.replacedBy === null && row.physicalId !== null && row.type === type;
}
function sameIds(stored, wanted) {
  const distinct2 = new Set(stored);
  if (distinct2.size !== wanted.size) return false;
  for (const id of distinct2) if (!wanted.has(id)) return false;
  return true;
}
function dependencyOrder(desired) {
  const byName = new Map(desired.map((d) => [d.name, d]));
  const waiting = /* @__PURE__ */ new Map();
  const dependents = /* @__PURE__ */ new Map();
  for (const want of desired) {
    let count = 0;
    for (const dep of new Set(want.requires)) {
      if (!byName.has(dep)) continue;
      count++;
      const list2 = dependents.get(dep);
      if (list2) list2.push(want.name);
      else dependents.set(dep, [want.name]);
    }
    waiting.set(want.name, count);
  }
  const order = desired.filter((d) => waiting.get(d.name) === 0);
  for (let i = 0; i < order.length; i++) {
    for (const next of dependents.get(order[i].name) ?? []) {
      const left = waiting.get(next) - 1;
      waiting.set(next, left);
      if (left === 0) order.push(byName.get(next));
    }
  }
  return order;
}

// src/engine/operations.ts
var OperationError = class extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
  code;
  name = "OperationError";
};
var STACK_NAME = /^[a-zA-Z][a-zA-Z0-9_.-]{0,254}$/;
function prepareCreate(deps, cache3, req, id) {
  if (!STACK_NAME.test(req.name)) {
    throw new OperationError(
      `invalid stack name "${req.name}": it must start with a letter and contain only letters, digits, _, - and .`,
      "invalid"
    );
  }
  const record3 = templateRecord(req.template, deps.clock.now());
  const definition = bind(deps, cache3, record3, { id, name: req.name, projectId: req.projectId });
  return { record: record3, definition };
}
async function createStack(deps, cache3, req) {
  const now = deps.clock.now();
  const id = randomUUID6();
  const { record: record3, definition } = prepareCreate(deps, cache3, req, id);
  const stack = {
    id,
    name: req.name,
    projectId: req.projectId,
    parentId: null,
    parentResource: null,
    rootId: id,
    action: "CREATE",
    status: "IN_PROGRESS",
    reason: "Stack CREATE started",
    traversalId: "",
    templateId: null,
    prevTemplateId: null,
    convergence: true,
    timeoutMins: req.timeoutMins ?? null,
    disableRollback: req.disableRollback ?? true,
    tags: req.tags ?? [],
    createdAt: new Date(now).toISOString(),
    updatedAt: null,
    deletedAt: null
  };
  await deps.store.tx(async (tx) => {
    if (await tx.stacks.findByName(req.projectId, req.name)) {
      throw new OperationError(`a stack named "${req.name}" already exists`, "conflict");
    }
    await tx.templates.insert(record3, stack.rootId);
    await tx.stacks.insert(stack);
    await beginTraversal(tx, {
      stack,
      action: "CREATE",
      templateId: record3.id,
      desired: desiredOf(definition),
      now
    });
  });
  return await getStack(deps, id);
}
async function prepareUpdate(deps, cache3, stackId, req) {
  const stack = await requireStack(deps, stackId);
  if (stack.action === "DELETE" && stack.status !== "FAILED") {
    throw new OperationError(`stack "${stack.name}" is being deleted; it cannot be updated`, "conflict");
  }
  const input = req.template ?? await storedInput(deps, stack);
  const environment = req.parameters ? { ...input.environment, parameters: { ...input.environment.parameters, ...req.parameters } } : input.environment;
  const record3 = templateRecord({ ...input, environment }, deps.clock.now());
  const definition = bind(deps, cache3, record3, {
    id: stack.id,
    name: stack.name,
    projectId: stack.projectId
  });
  await refuseImmutableChanges(deps, cache3, stack, definition);
  return { stack, record: record3, environment, definition };
}
async function updateStack(deps, cache3, stackId, req) {
  const now = deps.clock.now();
  const prepared = await prepareUpdate(deps, cache3, stackId, req);
  const { stack, record: record3, definition } = prepared;
  const refused = await refuseRestrictedActions(deps, prepared, req.disableRollback ?? stack.disableRollback);
  if (refused) return refused;
  const desired = desiredOf(definition);
  await deps.store.tx(async (tx) => {
    await tx.templates.insert(record3, stack.rootId);
    await beginTraversal(tx, {
      stack,
      action: "UPDATE",
      templateId: record3.id,
      desired,
      unchanged: unchangedFor(deps, definition, desired),
      now,
      stackChanges: {
        ...req.disableRollback !== void 0 ? { disableRollback: req.disableRollback } : {},
        ...req.timeoutMins !== void 0 ? { timeoutMins: req.timeoutMins } : {},
        ...req.tags !== void 0 ? { tags: req.tags } : {}
      }
    });
  });
  return await getStack(deps, stackId);
}
async function deleteStack(deps, stackId) {
  const stack = await requireStack(deps, stackId);
  await deps.store.tx(
    (tx) => beginTraversal(tx, {
      stack,
      action: "DELETE",
      templateId: stack.templateId,
      desired: [],
      now: deps.clock.now()
    })
  );
  return await getStack(deps, stackId);
}
async function checkStack(deps, cache3, stackId) {
  const stack = await requireStack(deps, stackId);
  if (stack.status === "IN_PROGRESS") {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_IN_PROGRESS: it can be checked once that ends`,
      "conflict"
    );
  }
  const templateId = stack.templateId;
  const record3 = templateId ? await deps.store.tx((tx) => tx.templates.get(templateId)) : void 0;
  if (!templateId || !record3) {
    throw new OperationError(`stack "${stack.name}" has no template to check against`, "invalid");
  }
  const identity = { stackId: stack.id, stackName: stack.name, projectId: stack.projectId };
  const definition = cache3.get(record3, identity);
  await deps.store.tx(
    (tx) => beginTraversal(tx, {
      stack,
      action: "CHECK",
      templateId,
      desired: desiredOf(definition),
      now: deps.clock.now()
    })
  );
  return await getStack(deps, stackId);
}
async function suspendOrResume(deps, stackId, action) {
  const stack = await requireStack(deps, stackId);
  if (stack.action === action && stack.status === "COMPLETE") return stack;
  if (stack.status === "IN_PROGRESS") {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_IN_PROGRESS: it can be ${action === "SUSPEND" ? "suspended" : "resumed"} once that ends`,
      "conflict"
    );
  }
  await deps.store.tx((tx) => beginVisit(tx, stack, action, deps.clock.now()));
  return await getStack(deps, stackId);
}
async function rollbackStack(deps, cache3, stackId) {
  const stack = await getStack(deps, stackId);
  if (!stack || stack.status !== "FAILED" || stack.action !== "CREATE" && stack.action !== "UPDATE") return;
  const target = stack.action === "UPDATE" ? stack.prevTemplateId : null;
  let desired = [];
  let definition;
  if (target) {
    const record3 = await deps.store.tx((tx) => tx.templates.get(target));
    if (!record3) return;
    definition = bind(deps, cache3, record3, { id: stack.id, name: stack.name, projectId: stack.projectId });
    desired = desiredOf(definition);
  }
  await deps.store.tx(
    (tx) => beginTraversal(tx, {
      stack,
      action: "ROLLBACK",
      templateId: target,
      desired,
      ...definition ? { unchanged: unchangedFor(deps, definition, desired) } : {},
      now: deps.clock.now(),
      reason: `Rolling back: ${stack.reason}`
    })
  );
}
async function getStack(deps, stackId) {
  return deps.store.tx((tx) => tx.stacks.get(stackId));
}
async function findStack(deps, projectId, nameOrId) {
  const found = await deps.store.tx(async (tx) => {
    const byName = await tx.stacks.findByName(projectId, nameOrId);
    if (byName) return byName;
    const byId = await tx.stacks.get(nameOrId);
    return byId && byId.projectId === projectId && !byId.deletedAt ? byId : void 0;
  });
  if (!found) throw new OperationError(`stack "${nameOrId}" not found`, "not_found");
  return found;
}
async function getResource2(deps, stack, name) {
  const row = currentRow(await deps.store.tx((tx) => tx.resources.findByName(stack.id, name)));
  if (!row) throw resourceNotFound(stack, name);
  return row;
}
function resourceNotFound(stack, name) {
  return new OperationError(`resource "${name}" not found in stack "${stack.name}"`, "not_found");
}
async function requireStack(deps, stackId) {
  const stack = await getStack(deps, stackId);
  if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, "not_found");
  return stack;
}
async function storedInput(deps, stack) {
  const record3 = stack.templateId ? await deps.store.tx((tx) => tx.templates.get(stack.templateId)) : void 0;
  if (!record3) throw new OperationError(`stack "${stack.name}" has no stored template to reuse`, "invalid");
  return {
    url: record3.url,
    text: record3.template,
    files: record3.files,
    environment: environmentFromJSON(record3.environment, deps.settings.limits)
  };
}
async function refuseImmutableChanges(deps, cache3, stack, next) {
  const templateId = stack.templateId;
  if (!templateId || ![...next.template.parameters.values()].some((p) => p.immutable)) return;
  const record3 = await deps.store.tx((tx) => tx.templates.get(templateId));
  if (!record3) return;
  const current = cache3.get(record3, { stackId: stack.id, stackName: stack.name, projectId: stack.projectId });
  const changed = [...current.template.parameters.values()].filter((p) => p.immutable && next.parameters.has(p.name)).filter((p) => !jsonEqual(current.parameters.get(p.name), next.parameters.get(p.name))).map((p) => p.name);
  if (changed.length > 0) {
    throw new OperationError(
      `The following parameters are immutable and may not be updated: ${changed.join(", ")}`,
      "invalid"
    );
  }
}
function templateRecord(input, now) {
  return {
    id: randomUUID6(),
    template: input.text,
    url: input.url,
    files: input.files,
    environment: environmentJSON(input.environment),
    createdAt: new Date(now).toISOString()
  };
}
function bind(deps, cache3, record3, stack) {
  const definition = bindTemplate(
    record3,
    { stackId: stack.id, stackName: stack.name, projectId: stack.projectId },
    deps.plugins.typeCatalog,
    deps.settings.limits
  );
  cache3.put(cache3.keyOf(record3.id, stack.id), definition);
  return definition;
}
async function reconvergeStack(tx, deps, cache3, stackId, now) {
  const stack = await tx.stacks.get(stackId);
  if (!stack?.templateId || stack.deletedAt || stack.action === "DELETE") return;
  const record3 = await tx.templates.get(stack.templateId);
  if (!record3) return;
  const definition = cache3.get(record3, {
    stackId: stack.id,
    stackName: stack.name,
    projectId: stack.projectId
  });
  const desired = desiredOf(definition);
  await beginTraversal(tx, {
    stack,
    action: "UPDATE",
    templateId: stack.templateId,
    desired,
    unchanged: unchangedFor(deps, definition, desired),
    now,
    reason: "Stack UPDATE started: a resource signal changed its desired state"
  });
}
function unchangedFor(deps, definition, desired) {
  return (chosen, stackId) => unchangedResources(deps, definition, desired, chosen, stackId);
}
function desiredOf(definition) {
  return [...definition.resources].map(([name, resource]) => ({
    name,
    type: resource.implementation.type,
    requires: resource.requires
  }));
}
async function cancelStack(deps, stackId, options) {
  const stack = await requireStack(deps, stackId);
  if (stack.status !== "IN_PROGRESS" || stack.action !== "CREATE" && stack.action !== "UPDATE") {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_${stack.status}: only a running create or update can be cancelled`,
      "conflict"
    );
  }
  if (options.rollback && stack.action !== "UPDATE") {
    throw new OperationError("only an update can be cancelled with rollback; use --no-rollback", "invalid");
  }
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const stopped = await failTraversal(tx, stack, stack.traversalId, `Stack ${stack.action} cancelled`, now);
    if (!stopped) throw new ConflictError(`stack "${stack.name}" changed while cancelling; try again`);
    await cancelChildren(tx, stack.id, now);
    if (options.rollback) await enqueueRollback(tx, stack, now);
  });
}
async function cancelChildren(tx, parentId, now) {
  for (const child of await tx.stacks.children(parentId)) {
    if (child.status !== "IN_PROGRESS" || !child.traversalId) continue;
    const reason = `Stack ${child.action} cancelled with its parent`;
    if (await failTraversal(tx, child, child.traversalId, reason, now))
      await cancelChildren(tx, child.id, now);
  }
}
async function markUnhealthy(deps, stackId, resourceName, reason, unhealthy = true) {
  const stack = await requireStack(deps, stackId);
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const row = currentRow(await tx.resources.findByName(stack.id, resourceName));
    if (!row) throw resourceNotFound(stack, resourceName);
    if (!unhealthy && (row.action !== "CHECK" || row.status !== "FAILED")) return;
    if (row.engineId !== null) {
      throw new OperationError(`resource "${resourceName}" is being worked on; try again later`, "conflict");
    }
    const status = unhealthy ? "FAILED" : "COMPLETE";
    const marked = await tx.resources.update(row.id, row.atomicKey, null, {
      unhealthy,
      action: "CHECK",
      status,
      reason: reason || (unhealthy ? "marked unhealthy" : "marked healthy")
    });
    if (!marked) throw new ConflictError(`resource "${resourceName}" changed meanwhile; try again`);
    await tx.events.append([resourceEvent(marked, "CHECK", status, marked.reason, now)]);
  });
}

// src/engine/preview-nested.ts
import { randomUUID as randomUUID7 } from "node:crypto";
function childLevel(level, resourceName, definition) {
  return {
    definition,
    environment: childEnvironment(level.environment, resourceName, {}),
    projectId: level.projectId,
    stackName: `${level.stackName}-${resourceName}`
  };
}
function generatedChild(deps, level, resource, plugin, properties, known, existing, resolveSnippet2) {
  if (!isNestedPlugin(plugin) || containsUnknown(properties)) return void 0;
  const updatePolicy = resolveSnippet2(resource.definition.updatePolicy, known);
  if (containsUnknown(updatePolicy)) return void 0;
  const name = resource.definition.name;
  const child = plugin.nested.child(properties, existing.data, {
    updatePolicy,
    creating: existing.childId === void 0
  });
  const parent = {
    url: level.definition.url,
    files: { ...level.definition.files },
    filesDigest: "",
    environment: level.environment
  };
  const spec = generatedChildSpec(
    parent,
    name,
    resource.implementation.type,
    child,
    properties
  );
  const record3 = childTemplateRecord(randomUUID7(), spec, deps.clock.now());
  const identity = {
    stackId: existing.childId ?? randomUUID7(),
    stackName: `${level.stackName}-${name}`,
    projectId: level.projectId
  };
  return bindTemplate(record3, identity, deps.plugins.typeCatalog, deps.settings.limits);
}

// src/engine/preview.ts
var CHANGES = ["unchanged", "updated", "replaced", "added", "deleted"];
async function previewStackUpdate(deps, cache3, stackId, req, nested) {
  const { stack, definition, environment } = await prepareUpdate(deps, cache3, stackId, req);
  return previewUpdate(deps, stack.id, definition, nested, environment);
}
function previewStackCreate(deps, cache3, req) {
  const { definition } = prepareCreate(deps, cache3, req, randomUUID8());
  const level = {
    definition,
    environment: req.template.environment,
    projectId: req.projectId,
    stackName: req.name
  };
  return { definition, resources: previewCreate(deps, level) };
}
function knownValue(value2) {
  if (value2 === UNKNOWN || value2 instanceof Omitted) return null;
  if (Array.isArray(value2)) return value2.map(knownValue);
  if (value2 !== null && typeof value2 === "object") {
    return Object.fromEntries(Object.entries(value2).map(([k, v]) => [k, knownValue(v)]));
  }
  return value2;
}
var PreviewResolveContext = class extends NodeResolveContext {
  constructor(definition, known) {
    super(definition, known);
    this.known = known;
  }
  known;
  resourceRef(name, path) {
    return this.known.has(name) ? super.resourceRef(name, path) : UNKNOWN;
  }
  resourceAttr(name, attr2, path) {
    return this.known.has(name) ? super.resourceAttr(name, attr2, path) : UNKNOWN;
  }
};
function previewProperties(definition, resource, plugin, known = /* @__PURE__ */ new Map()) {
  const raw = new PreviewResolveContext(definition, known).resolve(resource.definition.properties);
  if (!plugin || plugin.anyProperties) return raw ?? {};
  return validateProperties(plugin.properties, raw, [...resource.definition.path, "properties"]);
}
async function previewUpdate(deps, stackId, definition, nested, environment) {
  return deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(stackId);
    const rows = await tx.resources.listStates(stackId);
    const out = [];
    const level = {
      definition,
      environment,
      projectId: stack?.projectId ?? "",
      stackName: stack?.name ?? ""
    };
    await classifyStack({ deps, tx, nested, out }, stackId, level, rows, []);
    return out;
  });
}
function resolveSnippet(definition) {
  return (snippet, known) => new PreviewResolveContext(definition, known).resolve(snippet);
}
var GONE = { requiredBy: [], description: "" };
async function classifyStack(walk, stackId, level, rows, path) {
  const { deps, out } = walk;
  const { definition } = level;
  const desired = desiredOf(definition);
  const { chosen, obsolete } = chooseRows(desired, rows);
  const unchanged = unchangedResources(deps, definition, desired, chosen, stackId);
  const dependents = dependentsOf(definition);
  for (const want of desired) {
    const row = chosen.get(want.name);
    const resource = definition.resources.get(want.name);
    const change = unchanged.has(want.name) ? "unchanged" : row ? classify(deps, definition, resource, row, unchanged) : "added";
    out.push({
      name: want.name,
      type: want.type,
      change,
      stackId,
      path,
      requiredBy: dependents.get(want.name) ?? [],
      description: resource.definition.description ?? "",
      ...row ? { row } : {}
    });
    if (!walk.nested) continue;
    const impl = resource.implementation;
    const child = impl.kind === "template" ? impl.stack : change === "unchanged" ? void 0 : generatedChildOf(deps, level, resource, row, unchanged);
    if (child)
      await classifyChildren(walk, childLevel(level, want.name, child), change, row, [...path, want.name]);
  }
  const wanted = new Set(desired.map((d) => d.name));
  const deleted = /* @__PURE__ */ new Map();
  for (const row of obsolete) if (!wanted.has(row.name)) deleted.set(row.name, row);
  for (const row of deleted.values()) {
    out.push({ name: row.name, type: row.type, change: "deleted", stackId, path, row, ...GONE });
    if (walk.nested) await deleteChildren(walk, row, [...path, row.name]);
  }
}
function generatedChildOf(deps, level, resource, row, known) {
  const plugin = deps.plugins.plugin(resource.implementation.type);
  let properties;
  try {
    properties = previewProperties(level.definition, resource, plugin, known);
  } catch (err) {
    if (isTemplateError(err)) return void 0;
    throw err;
  }
  const childId = row && typeof row.data[CHILD_KEY] === "string" ? row.data[CHILD_KEY] : void 0;
  const existing = { childId, data: row?.data ?? {} };
  return generatedChild(
    deps,
    level,
    resource,
    plugin,
    properties,
    known,
    existing,
    resolveSnippet(level.definition)
  );
}
function classify(deps, definition, resource, row, unchanged) {
  const impl = resource.implementation;
  const plugin = deps.plugins.plugin(impl.type);
  if (impl.kind === "template" || isNestedPlugin(plugin)) {
    if (row.action === "INIT") return "added";
    const hasChild = typeof row.data[CHILD_KEY] === "string";
    return !hasChild && row.physicalId !== null || row.action === "DELETE" ? "replaced" : "updated";
  }
  if (!plugin) return "updated";
  let properties;
  try {
    properties = previewProperties(definition, resource, plugin, unchanged);
  } catch (err) {
    if (isTemplateError(err)) return "updated";
    throw err;
  }
  if (properties === UNKNOWN) return "updated";
  const decision = decide(plugin, row, impl.type, properties);
  if (decision === "none") return "unchanged";
  if (decision === "create") return "added";
  return decision === "update" ? "updated" : "replaced";
}
async function classifyChildren(walk, child, change, row, path) {
  const childId = row && typeof row.data[CHILD_KEY] === "string" ? row.data[CHILD_KEY] : void 0;
  if (change === "updated" && childId) {
    const rows = await walk.tx.resources.listStates(childId);
    return classifyStack(walk, childId, child, rows, path);
  }
  if (change === "replaced" && row) await deleteChildren(walk, row, path);
  if (change === "replaced" || change === "added" || change === "updated") addAll(walk, child, path);
}
function addAll(walk, level, path) {
  const dependents = dependentsOf(level.definition);
  for (const [name, resource] of level.definition.resources) {
    const impl = resource.implementation;
    walk.out.push({
      name,
      type: impl.type,
      change: "added",
      stackId: null,
      path,
      requiredBy: dependents.get(name) ?? [],
      description: resource.definition.description ?? ""
    });
    const child = impl.kind === "template" ? impl.stack : generatedChildOf(walk.deps, level, resource, void 0, /* @__PURE__ */ new Map());
    if (child) addAll(walk, childLevel(level, name, child), [...path, name]);
  }
}
async function deleteChildren(walk, row, path) {
  const childId = row.data[CHILD_KEY];
  if (typeof childId !== "string") return;
  const rows = await walk.tx.resources.listStates(childId);
  const names2 = /* @__PURE__ */ new Map();
  for (const r of rows) if (r.replacedBy === null || !names2.has(r.name)) names2.set(r.name, r);
  for (const r of names2.values()) {
    walk.out.push({
      name: r.name,
      type: r.type,
      change: "deleted",
      stackId: childId,
      path,
      row: r,
      ...GONE
    });
    await deleteChildren(walk, r, [...path, r.name]);
  }
}
function previewCreate(deps, level, path = []) {
  const { definition } = level;
  const requiredBy = dependentsOf(definition);
  const out = [];
  for (const [name, resource] of definition.resources) {
    const impl = resource.implementation;
    const plugin = impl.kind === "plugin" ? deps.plugins.plugin(impl.type) : void 0;
    const properties = previewProperties(definition, resource, plugin);
    const metadata = new PreviewResolveContext(definition, /* @__PURE__ */ new Map()).resolve(resource.definition.metadata);
    out.push({
      name,
      type: impl.type,
      properties,
      requiredBy: requiredBy.get(name) ?? [],
      path,
      description: resource.definition.description ?? "",
      metadata
    });
    const child = impl.kind === "template" ? impl.stack : generatedChildOf(deps, level, resource, void 0, /* @__PURE__ */ new Map());
    if (child) out.push(...previewCreate(deps, childLevel(level, name, child), [...path, name]));
  }
  return out;
}
function dependentsOf(definition) {
  const requiredBy = /* @__PURE__ */ new Map();
  for (const [name, resource] of definition.resources) {
    for (const dep of new Set(resource.requires)) requiredBy.set(dep, [...requiredBy.get(dep) ?? [], name]);
  }
  return requiredBy;
}

// src/api/views/common.ts
function heatTime(iso) {
  if (iso === null) return null;
  return `${iso.slice(0, 19)}Z`;
}
function stackPath(base, stack) {
  return `${base.project}/stacks/${encodeURIComponent(stack.name)}/${stack.id}`;
}

// src/engine/abandon.ts
async function abandonStack(deps, stackId) {
  const now = deps.clock.now();
  return deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(stackId);
    if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, "not_found");
    const tree = [];
    const document = await describe3(tx, deps, stack, tree);
    for (const member of tree) {
      if (member.status === "IN_PROGRESS") {
        throw new OperationError(
          `stack "${member.name}" has an operation in progress (${member.action}); abandon it once it has ended`,
          "conflict"
        );
      }
    }
    for (const member of tree) await forget(tx, member, now);
    return document;
  });
}
async function describe3(tx, deps, stack, tree) {
  tree.push(stack);
  const record3 = stack.templateId ? await tx.templates.get(stack.templateId) : void 0;
  const children = new Map((await tx.stacks.children(stack.id)).map((c) => [c.id, c]));
  const resources = {};
  for (const row of await tx.resources.listActive(stack.id)) {
    const childId = childStackOf(row);
    const child = childId === void 0 ? void 0 : children.get(childId);
    resources[row.name] = child ? await describe3(tx, deps, child, tree) : resourceEntry(row);
  }
  return {
    name: stack.name,
    id: stack.id,
    action: stack.action,
    environment: record3?.environment ?? {},
    files: record3?.files ?? {},
    status: stack.status,
    template: record3 ? parseSource(record3.url, record3.template, deps.settings.limits).data : {},
    resources,
    project_id: stack.projectId,
    stack_user_project_id: stack.projectId,
    tags: stack.tags
  };
}
function resourceEntry(row) {
  return {
    name: row.name,
    resource_id: row.physicalId,
    type: row.type,
    action: row.action,
    status: row.status,
    metadata: {},
    resource_data: row.data
  };
}
async function forget(tx, stack, now) {
  const reason = "Stack abandoned: its resources were left as they are";
  const changes = {
    action: "DELETE",
    status: "COMPLETE",
    reason,
    traversalId: "",
    deletedAt: new Date(now).toISOString()
  };
  if (!await tx.stacks.update(stack.id, stack.traversalId, changes)) {
    throw new OperationError(`stack "${stack.name}" was changed meanwhile; try again`, "conflict");
  }
  await tx.resources.purge(stack.id, true);
  await tx.events.append([stackEvent(stack, "DELETE", "COMPLETE", reason, now)]);
}

// src/engine/signal.ts
import { randomUUID as randomUUID9 } from "node:crypto";

// src/store/contract.ts
var ClaimLostError = class extends Error {
  constructor(itemId) {
    super(`unit of work ${itemId} is no longer claimed by this engine`);
    this.itemId = itemId;
    this.name = "ClaimLostError";
  }
  itemId;
};

// src/engine/signal.ts
var SIGNAL = "signal";
var NO_SIGNAL_ACTIONS = /* @__PURE__ */ new Set(["SUSPEND", "DELETE"]);
var SIGNAL_TURN_MS = 20;
var CAS_ATTEMPTS = 5;
async function signalResource(deps, stackId, resourceName, details) {
  const now = deps.clock.now();
  const signalId = randomUUID9();
  const refusal = await deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(stackId);
    if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, "not_found");
    const row = currentRow(await tx.resources.findByName(stack.id, resourceName));
    if (!row) {
      throw new OperationError(`resource "${resourceName}" not found in stack "${stack.name}"`, "not_found");
    }
    if (NO_SIGNAL_ACTIONS.has(row.action)) {
      await tx.events.append([cannotSignalEvent(row, now)]);
      return notSupportedDuring(row.action);
    }
    if (details !== null && Object.hasOwn(details, "unset_hook")) {
      await clearHook(tx, row, details.unset_hook, now);
      return void 0;
    }
    if (!deps.plugins.plugin(row.type)?.handleSignal) {
      throw new OperationError(notSupported(row), "invalid");
    }
    const payload = { signalId, row: row.id, details };
    await tx.work.enqueue([
      {
        rootStackId: stack.rootId,
        stackId: stack.id,
        traversalId: signalId,
        kind: SIGNAL,
        node: `signal:${row.id}`,
        payload,
        runAt: now
      }
    ]);
    return void 0;
  });
  if (refusal) throw new OperationError(refusal, "conflict");
  return signalId;
}
async function signalSettled(deps, signalId) {
  return (await deps.store.tx((tx) => tx.work.listForTraversal(signalId))).length === 0;
}
async function signalError(deps, stackId, resourceName, signalId) {
  const events = await deps.store.tx((tx) => tx.events.list(stackId, { resourceName }));
  const event2 = events.find((e) => e.uuid === signalId);
  if (!event2 || event2.action === "SIGNAL" && event2.status === "COMPLETE") return void 0;
  return event2.action === "SIGNAL" ? event2.reason : notSupportedDuring(event2.action);
}
async function runSignal(deps, cache3, item) {
  const payload = item.payload;
  const waiting = await deps.store.tx(async (tx) => {
    if (!await tx.work.signalQueuedBefore(item.node, item.id)) return false;
    await tx.work.reschedule(item, deps.clock.now() + SIGNAL_TURN_MS, item.payload);
    return true;
  });
  if (waiting) return;
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const { stack, row } = await deps.store.tx(async (tx) => ({
      stack: await tx.stacks.get(item.stackId),
      row: await tx.resources.get(payload.row)
    }));
    if (!stack || !row) {
      await record2(deps, cache3, item, void 0, { kind: "ignored" }, payload);
      return;
    }
    const outcome = NO_SIGNAL_ACTIONS.has(row.action) ? { kind: "refused" } : await handle(deps, stack, row, payload);
    if (await record2(deps, cache3, item, row, outcome, payload)) return;
  }
  await deps.store.tx((tx) => tx.work.reschedule(item, deps.clock.now() + 100, item.payload));
}
async function handle(deps, stack, row, payload) {
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin?.handleSignal) return { kind: "failed", reason: notSupported(row) };
  let data;
  let adjust;
  const ctx = {
    ...pluginContext({ deps, stack }, row),
    signalId: payload.signalId,
    setData: (changes) => {
      data = { ...data, ...changes };
    },
    adjustResource: (ref, change) => {
      adjust = { ref, change };
    }
  };
  try {
    const result = await plugin.handleSignal(ctx, payload.details);
    const reason = result ? `Signal: ${String(result)}` : detailsText(payload.details);
    return { kind: "handled", reason, data, ...adjust ? { adjust } : {} };
  } catch (err) {
    if (err instanceof NoActionRequired) return { kind: "ignored" };
    return { kind: "failed", reason: `Signal failed: ${errorMessage(err)}` };
  }
}
async function record2(deps, cache3, item, row, outcome, payload) {
  const now = deps.clock.now();
  return deps.store.tx(async (tx) => {
    if (row && outcome.kind === "handled" && outcome.adjust) {
      const failure = await applyAdjustment(tx, row, outcome.adjust);
      if (failure === "lost") throw new LostRace2();
      if (failure) outcome = { kind: "failed", reason: `Signal failed: ${failure}` };
      else await reconvergeStack(tx, deps, cache3, row.stackId, now);
    }
    if (row && outcome.kind === "handled" && outcome.data) {
      const written = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        data: { ...row.data, ...outcome.data }
      });
      if (!written) throw new LostRace2();
      await tx.work.wakeWaiting(signalWaitKey(row.stackId, row.name), now);
    }
    const event2 = row && eventOf(row, outcome, now);
    if (event2) await tx.events.append([{ ...event2, uuid: payload.signalId }]);
    await tx.work.complete(item);
    return true;
  }).catch((err) => {
    if (err instanceof ClaimLostError) return true;
    if (err instanceof LostRace2 || err instanceof ConflictError) return false;
    throw err;
  });
}
var LostRace2 = class extends Error {
};
async function applyAdjustment(tx, row, adjust) {
  const required = (await tx.resources.getMany(row.requires)).filter((r) => r.physicalId === adjust.ref);
  const peer = currentRow(
    required.length > 0 ? required : await tx.resources.findByName(row.stackId, adjust.ref)
  );
  if (!peer) return `no resource "${adjust.ref}" in the stack`;
  const changes = adjust.change({
    name: peer.name,
    type: peer.type,
    properties: peer.properties ?? {},
    data: peer.data
  });
  if (!changes) return void 0;
  const written = await tx.resources.update(peer.id, peer.atomicKey, peer.engineId, {
    data: { ...peer.data, ...changes }
  });
  return written ? void 0 : "lost";
}
function eventOf(row, outcome, now) {
  if (outcome.kind === "ignored") return void 0;
  if (outcome.kind === "refused") return cannotSignalEvent(row, now);
  return resourceEvent(
    row,
    "SIGNAL",
    outcome.kind === "handled" ? "COMPLETE" : "FAILED",
    outcome.reason,
    now
  );
}
function cannotSignalEvent(row, now) {
  return resourceEvent(row, row.action, row.status, `Cannot signal resource during ${row.action}`, now);
}
function notSupportedDuring(action) {
  return `Signal resource during ${action} is not supported.`;
}
function notSupported(row) {
  return `signal is not supported for resource "${row.name}" of type ${row.type}`;
}
function detailsText(details) {
  if (details === null) return "No signal details provided";
  if (["previous", "current", "reason"].every((key) => Object.hasOwn(details, key))) {
    const text = (value2) => typeof value2 === "string" ? value2 : JSON.stringify(value2);
    return `alarm state changed from ${text(details.previous)} to ${text(details.current)} (${text(details.reason)})`;
  }
  return "Unknown";
}

// src/template/validate-result.ts
function validateResult(stack, options = {}) {
  const result = {
    Description: stack.template.description ?? "No description",
    Parameters: parametersOf(stack, new Set(options.supplied))
  };
  if (stack.template.parameterGroups.length > 0) result.ParameterGroups = groupsOf(stack);
  if (options.nested) Object.assign(result, nestedParameters(stack));
  return result;
}
function parametersOf(stack, supplied) {
  const out = {};
  for (const [name, schema] of stack.template.parameters) {
    out[name] = validateOutputParameter(schema, supplied.has(name) ? stack.parameters.get(name) : void 0);
  }
  return out;
}
function givenProperties(properties) {
  return isPlainObject(properties) ? Object.keys(properties) : [];
}
function groupsOf(stack) {
  return stack.template.parameterGroups.map((g) => ({ ...g, parameters: [...g.parameters] }));
}
function nestedParameters(stack) {
  const nested = {};
  for (const [name, resource] of stack.resources) {
    const impl = resource.implementation;
    if (impl.kind !== "template") continue;
    const child = impl.stack;
    const entry = {
      Type: resource.definition.type,
      Description: child.template.description ?? "No description",
      Parameters: parametersOf(child, new Set(givenProperties(resource.definition.properties)))
    };
    if (child.template.parameterGroups.length > 0) entry.ParameterGroups = groupsOf(child);
    Object.assign(entry, nestedParameters(child));
    nested[name] = entry;
  }
  return Object.keys(nested).length > 0 ? { NestedParameters: nested } : {};
}

export {
  UNKNOWN,
  isUnknown,
  containsUnknown,
  P,
  C,
  attr,
  TemplateError,
  isTemplateError,
  isPlainObject,
  setOwn,
  typeName,
  jsonEqual,
  pyJsonDumps,
  MASK,
  pyStr,
  parseBoolean,
  validateProperties,
  schemaToHeatJSON,
  providerTemplate,
  typeInfo,
  isNestedPlugin,
  NESTED_STUBS,
  ResourceFailure,
  ResourceInError,
  NoActionRequired,
  UpdateReplace,
  HOOK_TYPES,
  mergeEnvironments,
  DEFAULT_LIMITS,
  parseSource,
  isTemplateType,
  resolveTemplateUrl,
  parseEnvironment,
  environmentToJSON,
  registryTemplateUrls,
  HEARTH_VERSION,
  SIGNAL_TOKEN_PREFIX,
  SignalSigner,
  signalCredentials,
  engineAlive,
  removeDeadEngines,
  toDot,
  toJSON,
  findVersion,
  allVersions,
  parseTemplate,
  EMPTY_CATALOG,
  defineStackFromText,
  TemplateCache,
  ClaimLostError,
  resourceEvent,
  parseNodeKey,
  CHECK_NODE,
  VISITS,
  NodeResolveContext,
  resolveProperties,
  currentRow,
  stackOutputs,
  currentOutputs,
  ConflictError,
  childStackOf,
  holderOf,
  ROLLBACK,
  failIfTimedOut,
  hasTimedOut,
  payloadOf,
  pluginContext,
  inputsOf,
  outputsOf,
  definitionFor,
  errorMessage,
  propagateMany,
  hasHook,
  pendingHook,
  runCleanupNode,
  pluginToDelete,
  deleteFailed,
  afterDelete,
  resumeNested,
  ACTION_OF,
  runUpdateNode,
  decide,
  actionFailed,
  startChanges,
  runAction,
  resultChanges,
  afterAction,
  doneChanges,
  retryLater,
  runSuspendNode,
  CHANGES,
  previewStackUpdate,
  previewStackCreate,
  knownValue,
  OperationError,
  createStack,
  updateStack,
  deleteStack,
  checkStack,
  suspendOrResume,
  rollbackStack,
  findStack,
  getResource2 as getResource,
  storedInput,
  cancelStack,
  markUnhealthy,
  runCheckNode,
  SIGNAL,
  signalResource,
  signalSettled,
  signalError,
  runSignal,
  STACK_USER_ROLE,
  isAdmin,
  AuthenticationError,
  AuthenticationUnavailableError,
  IdentityError,
  hashToken,
  createProject,
  createUser,
  createToken,
  authToken,
  standaloneAuthenticator,
  keystoneAuthenticator,
  noauthAuthenticator,
  heatTime,
  stackPath,
  abandonStack,
  validateResult
};

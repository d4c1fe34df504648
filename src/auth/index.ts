export {
  ADMIN_ROLE,
  AuthenticationError,
  AuthenticationUnavailableError,
  type Identity,
  isAdmin,
  STACK_USER_ROLE,
} from './identity.js';
export { KeystoneClient, keystoneSettings, type KeystoneSettings, type TokenCheck } from './keystone.js';
export {
  checkToken,
  createProject,
  createToken,
  createUser,
  DEFAULT_TOKEN_EXPIRATION,
  hashToken,
  IdentityError,
  setProjectCloud,
  verifyToken,
} from './standalone.js';
export {
  deleteProject,
  deleteUser,
  listProjects,
  listTokens,
  listUsers,
  revokeTokens,
  revokeUserTokens,
  setUserEnabled,
  tokenState,
  type TokenState,
} from './credentials.js';
export { signalCredentials, SignalSigner, SIGNAL_TOKEN_PREFIX, type SignalTarget } from './signal-tokens.js';

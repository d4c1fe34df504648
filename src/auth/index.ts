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
  createProject,
  createToken,
  createUser,
  hashToken,
  IdentityError,
  setProjectCloud,
  verifyToken,
} from './standalone.js';
export { signalCredentials, SignalSigner, SIGNAL_TOKEN_PREFIX, type SignalTarget } from './signal-tokens.js';

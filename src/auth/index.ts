export { ADMIN_ROLE, AuthenticationError, type Identity, isAdmin, STACK_USER_ROLE } from './identity.js';
export {
  createProject,
  createToken,
  createUser,
  hashToken,
  IdentityError,
  verifyToken,
} from './standalone.js';
export { signalCredentials, SignalSigner, SIGNAL_TOKEN_PREFIX, type SignalTarget } from './signal-tokens.js';

export {
  ADMIN_ROLE,
  AuthenticationError,
  AuthenticationUnavailableError,
  type Identity,
  isAdmin,
} from './identity.js';
export { KeystoneClient, keystoneSettings, type KeystoneSettings, type TokenCheck } from './keystone.js';
export {
  createProject,
  createToken,
  createUser,
  hashToken,
  IdentityError,
  verifyToken,
} from './standalone.js';

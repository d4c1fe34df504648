export { ADMIN_ROLE, AuthenticationError, type Identity, isAdmin } from './identity.js';
export {
  createProject,
  createToken,
  createUser,
  hashToken,
  IdentityError,
  verifyToken,
} from './standalone.js';

/* The standalone API's identities: projects, users and their tokens. */

export interface ProjectRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface UserRecord {
  id: string;
  name: string;
  projectId: string;
  roles: string[];
  createdAt: string;
  /** When the user was disabled; null: enabled. A disabled user's tokens are refused. */
  disabledAt: string | null;
}

/** An API token: only its hash is stored, so a copy of the database grants nothing. */
export interface TokenRecord {
  id: string;
  tokenHash: string;
  userId: string;
  /** ms since the epoch; null never expires. */
  expiresAt: number | null;
  createdAt: string;
  /** When the token was revoked; null: not revoked. */
  revokedAt: string | null;
}

/** A token as listings show it, with its user and project: never its hash. */
export interface TokenListing extends Omit<TokenRecord, 'tokenHash'> {
  userName: string;
  projectId: string;
  projectName: string;
  userDisabled: boolean;
}

/** The standalone API's projects, users and tokens. */
export interface AuthRepository {
  insertProject(project: ProjectRecord): Promise<void>;
  /** A project by id, or else by name. */
  findProject(idOrName: string): Promise<ProjectRecord | undefined>;
  /** Sets (null: clears) the cloud of clouds.yaml a project's stacks use; false when there is no such project. */
  setProjectCloud(projectId: string, cloud: string | null): Promise<boolean>;
  /** The cloud a project's stacks use; null when it has none, undefined when there is no such project. */
  projectCloud(projectId: string): Promise<string | null | undefined>;
  insertUser(user: UserRecord): Promise<void>;
  findUser(projectId: string, idOrName: string): Promise<UserRecord | undefined>;
  insertToken(token: TokenRecord): Promise<void>;
  /**
   * The token with this hash and its user, if the token, its user and the user's project all
   * exist (expiry, revocation and a disabled user are the caller's to judge). One query: the
   * API asks it on every request.
   */
  findToken(tokenHash: string): Promise<{ token: TokenRecord; user: UserRecord } | undefined>;
  /** Every project, by name. */
  listProjects(): Promise<ProjectRecord[]>;
  /** The users of one project, or of every project, by project id then name. */
  listUsers(projectId?: string): Promise<UserRecord[]>;
  /** Sets when the user was disabled (null: enables it); false when there is no such user. */
  setUserDisabled(userId: string, disabledAt: string | null): Promise<boolean>;
  /** Deletes the user and its tokens; false when there is no such user. */
  deleteUser(userId: string): Promise<boolean>;
  /** Deletes the project, its users and their tokens; false when there is no such project. */
  deleteProject(projectId: string): Promise<boolean>;
  /** Tokens (revoked and expired ones too) of a project and/or a user, oldest first. */
  listTokens(filter: { projectId?: string; userId?: string }): Promise<TokenListing[]>;
  /** A token by id, without its hash. */
  getToken(id: string): Promise<TokenListing | undefined>;
  /**
   * Revokes the named tokens, or every token of `userId`, not revoked yet; returns the ids it
   * revoked (an already revoked token keeps its first revocation time).
   */
  revokeTokens(which: { ids: readonly string[] } | { userId: string }, revokedAt: string): Promise<string[]>;
}

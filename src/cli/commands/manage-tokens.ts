import { type Command, Option } from 'commander';
import {
  createToken,
  IdentityError,
  listTokens,
  revokeTokens,
  revokeUserTokens,
  tokenState,
} from '../../auth/index.js';
import type { TokenListing } from '../../store/contract.js';
import { columnOption } from '../columns.js';
import { show } from '../output.js';
import { storeRunner } from './manage-identity.js';

type Print = (s: string) => void;
const FORMAT = ['-f, --format <format>', 'table, json, yaml or value', 'table'] as const;

interface CreateOptions {
  project: string;
  user: string;
  ttl?: string;
  expiresIn?: string;
  expiry: boolean;
  format: string;
}

/** `hearth manage token create|list|revoke`: API tokens of standalone authentication. */
export function registerTokenCommands(manage: Command, program: Command, print: Print): void {
  const withStore = storeRunner(program);
  const token = manage.command('token').description('API tokens of standalone authentication');

  token
    .command('create')
    .description('Create an API token for a user; it is shown once and stored only as a hash')
    .requiredOption('--project <project>', 'the project (name or id)')
    .requiredOption('--user <user>', 'the user (name or id)')
    .option('--ttl <seconds>', 'lifetime in seconds (default: the token_expiration option, 3600)')
    // The name this option had before --ttl.
    .addOption(new Option('--expires-in <seconds>').hideHelp())
    .option('--no-expiry', 'a token that never expires (it lives until revoked)')
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (opts: CreateOptions) => {
      const made = await withStore((store, config) =>
        createToken(store, opts.project, opts.user, {
          ttlSeconds: lifetime(opts, config.token_expiration),
        }),
      );
      show(print, opts, {
        token: made.token,
        id: made.id,
        project_id: made.user.projectId,
        user_id: made.user.id,
        expires_at: made.expiresAt === null ? null : new Date(made.expiresAt).toISOString(),
      });
    });

  token
    .command('list')
    .description(
      'List tokens (never their secrets) with their state: active, expired, revoked or user disabled',
    )
    .option('--project <project>', 'only this project’s (name or id)')
    .option('--user <user>', 'only this user’s (name or id; needs --project)')
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (opts: { project?: string; user?: string; format: string }) => {
      const tokens = await withStore((store) =>
        listTokens(store, {
          ...(opts.project === undefined ? {} : { project: opts.project }),
          ...(opts.user === undefined ? {} : { user: opts.user }),
        }),
      );
      show(print, opts, tokenRows(tokens));
    });

  token
    .command('revoke [id...]')
    .description(
      'Revoke tokens by id, or every token of a user (--project and --user): the API refuses them at once',
    )
    .option('--project <project>', 'the project of --user (name or id)')
    .option('--user <user>', 'revoke every token of this user (name or id)')
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (ids: string[], opts: { project?: string; user?: string; format: string }) => {
      const byUser = opts.user !== undefined || opts.project !== undefined;
      if (byUser && ids.length > 0)
        throw new IdentityError('give token ids, or --project and --user, not both');
      if (!byUser && ids.length === 0) {
        throw new IdentityError('give the ids of the tokens to revoke, or --project and --user');
      }
      if (byUser && (opts.user === undefined || opts.project === undefined)) {
        throw new IdentityError('--project and --user go together: the user whose tokens are revoked');
      }
      const revoked = await withStore((store) =>
        byUser ? revokeUserTokens(store, opts.project!, opts.user!) : revokeTokens(store, ids),
      );
      show(print, opts, tokenRows(revoked));
    });
}

/** The lifetime asked for: --ttl (or its old name --expires-in), none with --no-expiry, else the default. */
function lifetime(opts: CreateOptions, defaultSeconds: number): number | null {
  const given = opts.ttl ?? opts.expiresIn;
  const flag = opts.ttl !== undefined ? '--ttl' : '--expires-in';
  if (!opts.expiry) {
    if (given !== undefined) throw new IdentityError(`${flag} and --no-expiry contradict each other`);
    return null;
  }
  if (given === undefined) return defaultSeconds;
  const seconds = Number(given);
  if (!(Number.isSafeInteger(seconds) && seconds > 0)) {
    throw new IdentityError(`${flag} must be a positive number of seconds, got "${given}"`);
  }
  return seconds;
}

function tokenRows(tokens: readonly TokenListing[]): Record<string, unknown>[] {
  const now = Date.now();
  return tokens.map((t) => ({
    id: t.id,
    project: t.projectName,
    user: t.userName,
    created_at: t.createdAt,
    expires_at: t.expiresAt === null ? 'never' : new Date(t.expiresAt).toISOString(),
    state: tokenState(t, now),
  }));
}

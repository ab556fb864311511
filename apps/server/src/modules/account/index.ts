import { defineModule } from '../../platform/module';
import { accountHandlers } from './account-routes';
import { AccountService } from './account-service';
import { MemberDirectory } from './member-directory';
import { SessionService } from './session-service';
import './tables';
import { moduleDb } from '../../db/database';
import type { AccountDb } from './tables';

declare module '../../platform/services' {
  interface Services {
    sessions: SessionService;
    accounts: AccountService;
    /** Members for operators: search, lock, notes, tags. */
    memberDirectory: MemberDirectory;
  }
}

/** Members: registration, login and sessions, profile, password change and reset. */
export const accountModule = defineModule({
  name: 'account',
  migrations: [
    {
      id: 'account/001_members_sessions',
      appliedWith: '005_money_core',
      sql: `
CREATE TABLE members (
  id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text NOT NULL,
  source_code text REFERENCES sources(code),
  inviter_id text REFERENCES members(id),
  bank_code text NOT NULL REFERENCES banks(code),
  bank_account_name text NOT NULL,
  bank_account_no text NOT NULL,
  currency text NOT NULL DEFAULT 'BAHT',
  coin bigint NOT NULL DEFAULT 0 CHECK (coin >= 0),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT members_bank_account UNIQUE (bank_code, bank_account_no)
);
CREATE INDEX members_inviter ON members (inviter_id);
CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  member_id text NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_member ON sessions (member_id) WHERE revoked_at IS NULL;`,
    },
    {
      id: 'account/002_member_notes',
      sql: `
CREATE TABLE member_notes (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  text text NOT NULL,
  author text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_notes_member ON member_notes (member_id, created_at DESC);`,
    },
    {
      id: 'account/003_birth_date',
      // The age gate (issue 22): kept as the day given (text YYYY-MM-DD, no time zone to shift it).
      sql: `ALTER TABLE members ADD COLUMN birth_date text CHECK (birth_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$');`,
    },
    {
      // A short invite code per member (made when first asked for; the old PR + id codes still work).
      id: 'account/004_invite_codes',
      sql: `
ALTER TABLE members ADD COLUMN invite_code text;
CREATE UNIQUE INDEX members_invite_code ON members (invite_code);`,
    },
    {
      // Operators' labels of a member (issue 34): the members list filters by them.
      id: 'account/005_member_tags',
      sql: `
CREATE TABLE member_tags (
  member_id text NOT NULL REFERENCES members(id),
  tag text NOT NULL CHECK (length(tag) BETWEEN 1 AND 24),
  author text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, tag)
);
CREATE INDEX member_tags_tag ON member_tags (tag);`,
    },
    {
      // The members other areas may read (issue 35): a read-only view, never the table. Their
      // query builders are typed to it (AccountReads); no password hash, no coin column.
      id: 'account/006_member_view',
      sql: `
CREATE VIEW member_view AS
  SELECT id, username, name, source_code, inviter_id, bank_code, bank_account_name, bank_account_no,
         currency, birth_date, invite_code, status, created_at
  FROM members;
CREATE OR REPLACE FUNCTION refuse_read_model_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is a read model: write through its owner''s service', TG_TABLE_NAME USING ERRCODE = '0A000';
END $$;
CREATE TRIGGER member_view_read_only INSTEAD OF INSERT OR UPDATE OR DELETE ON member_view FOR EACH ROW EXECUTE FUNCTION refuse_read_model_write();`,
    },
  ],
  async setup(services) {
    const { config, database, passwords, limiter } = services;
    services.sessions = new SessionService(moduleDb<AccountDb>(database), config.SESSION_TTL_HOURS, config.SESSION_CACHE_MS);
    if (config.REDIS_URL) await services.sessions.connect(config.REDIS_URL);
    services.accounts = new AccountService(moduleDb<AccountDb>(database), passwords, services.sessions, services.otp, services.settings, limiter, {
      money: () => services.money,
      laosMode: config.LAOS_MODE,
      minAge: config.MIN_AGE,
      birthDateRequired: config.BIRTH_DATE_REQUIRED,
      loginFailsPerMinute: config.LOGIN_FAILS_PER_MINUTE,
      loginFailsPerPhoneHour: config.LOGIN_FAILS_PER_PHONE_HOUR,
      loginFailsPerPhoneIpHour: config.LOGIN_FAILS_PER_PHONE_IP_HOUR,
      loginFailsPerIpMinute: config.LOGIN_FAILS_PER_IP_MINUTE,
      loginSlowdown: { after: config.LOGIN_SLOW_AFTER_PER_IP_MINUTE, stepMs: config.LOGIN_SLOW_STEP_MS, maxMs: config.LOGIN_SLOW_MAX_MS },
      accountChecksPerDeviceMinute: config.ACCOUNT_CHECKS_PER_DEVICE_MINUTE,
      accountChecksPerIpMinute: config.ACCOUNT_CHECKS_PER_IP_MINUTE,
    });
    services.memberDirectory = new MemberDirectory(moduleDb<AccountDb>(database), services.sessions);
  },
  handlers: accountHandlers,
  async close({ sessions }) {
    await sessions.close();
  },
});
export type { AccountReads } from './tables';

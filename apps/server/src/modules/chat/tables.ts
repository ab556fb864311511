import type { ColumnType, Generated } from 'kysely';
import type { ChatMessage } from '@mw/contract/chat';
import type { DefaultTimestamp } from '../../db/schema';
import type { AccountReads } from '../account';

/** One conversation: a member's (member_id) or a guest's (guest_id), in sessions. */
export interface ChatThreadsTable {
  id: string;
  member_id: string | null;
  /** The guest id that owns it (null once a member owns it). */
  guest_id: string | null;
  /** The guest id it was started under, kept after a member took it over. */
  origin_guest_id: string | null;
  session_id: string;
  /** false once support closed the session: the next message starts a new one. */
  session_open: Generated<boolean>;
  last_at: DefaultTimestamp;
  /** Customer messages support has not read yet. */
  unread_support: Generated<number>;
  /** Support and bot messages the customer has not read yet. */
  unread_customer: Generated<number>;
  /** true once the guest holds a server-issued session for it: its bare uuid can no longer be adopted (POST /api/chat/guest). */
  guest_signed: Generated<boolean>;
  /** The operator who took the conversation (null: in the queue). */
  assignee: string | null;
  created_at: DefaultTimestamp;
}

export interface ChatMessagesTable {
  id: string;
  seq: Generated<string>;
  thread_id: string;
  sender: string;
  message: ColumnType<ChatMessage, string, string>;
  session_id: string;
  user_id: string | null;
  guest_id: string | null;
  username: string | null;
  name: string | null;
  device_token: string | null;
  client_id: string | null;
  created_at: DefaultTimestamp;
}

export interface ChatFilesTable {
  id: string;
  thread_id: string | null;
  kind: 'image' | 'video';
  mime: string;
  ext: string;
  size: number;
  name: string;
  /** The bytes of uploads from before the object store (chat/001); null for newer ones (the store has them). */
  bytes: Uint8Array | null;
  /** Who uploaded it: `member:<id>` or `guest:<uuid>` (null for uploads from before chat/002). */
  uploader: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface ChatTables {
  chat_threads: ChatThreadsTable;
  chat_messages: ChatMessagesTable;
  chat_files: ChatFilesTable;
}

/** What this module's query builder sees: its tables and the read models (views) of the areas below it. */
export type ChatDb = ChatTables & AccountReads;

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends ChatTables {}
}

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ChatDeliverStatus, Conversation, SendMessageRequest } from '@mw/contract/chat';
import { CHAT_IMAGE_MAX_MB, CHAT_MARK_READ_THROTTLE_MS, CHAT_TEXT_MAX, CHAT_VIDEO_MAX_MB } from '@mw/contract/constants';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../shared/api/errorMessage';
import { localDateFormat } from '../../shared/format/localDate';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { toast } from '../../shared/ui/toast';
import { ChatMessageView, type ChatAction } from './ChatMessageView';
import { fetchHistory, fetchPrefix, markRead, openChatSocket, sendMessage, uploadAttachment, type ChatWho, type ConnectionState } from './chatClient';
import { renewGuestId } from './guestId';
import { chatNs } from './locales';
import './chat.css';

interface Entry {
  conversation: Conversation;
  /** Only for what this browser sent: its delivery (spec: uploading_file, sending, failed, succeed). */
  status?: ChatDeliverStatus;
  progress?: number;
  retry?: () => void;
}

const isLocal = (c: Conversation) => c._id.startsWith('local:');

function byTime(a: Entry, b: Entry): number {
  return a.conversation.createdAt.localeCompare(b.conversation.createdAt);
}

/**
 * The chat panel (spec sections 2, 4, 5, 9): history with upward infinite scroll (10 a page), date
 * separators in the member's language, end-of-conversation markers between sessions, a notice of
 * new messages when scrolled up, the attachment button and the text box. It stays mounted while
 * closed so the socket keeps counting unread messages for the bubble.
 */
export function ChatPanel({ who, open, onClose, onIncoming }: { who: ChatWho; open: boolean; onClose: () => void; onIncoming: () => void }) {
  const { t: text } = useTranslation(chatNs);
  const locale = useLocale();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [state, setState] = useState<ConnectionState>('connecting');
  const [hasMore, setHasMore] = useState(true);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [draft, setDraft] = useState('');
  const [notice, setNotice] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const stick = useRef(true);
  const keepOffset = useRef<number | null>(null);
  const openRef = useRef(open);
  const incomingRef = useRef(onIncoming);
  useEffect(() => {
    openRef.current = open;
    incomingRef.current = onIncoming;
  });

  /** Adds server messages: one per _id; a message this browser sent replaces its local copy (by clientId). */
  const merge = useCallback((incoming: Conversation[]) => {
    setEntries((current) => {
      const next = [...current];
      for (const c of incoming) {
        if (next.some((e) => e.conversation._id === c._id)) continue;
        const mine = c.clientId ? next.findIndex((e) => e.conversation.clientId === c.clientId) : -1;
        if (mine >= 0) next[mine] = { conversation: c, status: 'succeed' };
        else next.push({ conversation: c });
      }
      return next.sort(byTime);
    });
  }, []);

  const serverCount = useCallback(() => entries.filter((e) => !isLocal(e.conversation)).length, [entries]);

  // Join on load: the prefix, the first page, then the socket.
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    void (async () => {
      try {
        const prefix = await fetchPrefix();
        const first = await fetchHistory(who, 0);
        if (cancelled) return;
        if (who.kind === 'member' && who.guestId) renewGuestId();
        merge(first);
        setHasMore(first.length === 10);
        stop = openChatSocket(prefix, who, {
          onMessage: (c) => {
            merge([c]);
            if (c.sender !== 'customer') {
              if (!openRef.current) incomingRef.current();
              else if (!stick.current) setNotice(true);
            }
          },
          onState: setState,
          // A reconnection the server could not recover: read the newest page again.
          resync: () => void fetchHistory(who, 0).then(merge, () => undefined),
        });
      } catch {
        if (!cancelled) setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [who, merge]);

  // Read marking, at most once a second, while the panel is open and the history changes.
  const lastRead = useRef(0);
  useEffect(() => {
    if (!open || state === 'failed' || entries.length === 0) return;
    const wait = Math.max(0, lastRead.current + CHAT_MARK_READ_THROTTLE_MS - Date.now());
    const timer = setTimeout(() => {
      lastRead.current = Date.now();
      void markRead(who).catch(() => undefined);
    }, wait);
    return () => clearTimeout(timer);
  }, [open, entries, who, state]);

  // Scrolling: stay at the bottom unless the reader scrolled up; keep the place when older pages arrive.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (keepOffset.current !== null) {
      el.scrollTop = el.scrollHeight - keepOffset.current;
      keepOffset.current = null;
    } else if (stick.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [entries, open]);

  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (stick.current) setNotice(false);
  };

  const loadOlder = useCallback(async () => {
    if (loadingOlder || !hasMore) return;
    setLoadingOlder(true);
    try {
      const older = await fetchHistory(who, serverCount());
      const el = list.current;
      if (el) keepOffset.current = el.scrollHeight - el.scrollTop;
      merge(older);
      setHasMore(older.length === 10);
    } catch {
      // The loader hides; scrolling up again retries.
    } finally {
      setLoadingOlder(false);
    }
  }, [loadingOlder, hasMore, who, serverCount, merge]);

  useEffect(() => {
    const sentinel = top.current;
    if (!sentinel || !open || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((seen) => {
      if (seen.some((s) => s.isIntersecting) && entries.length > 0) void loadOlder();
    }, { root: list.current });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [open, loadOlder, entries.length]);

  const update = (clientId: string, patch: Omit<Partial<Entry>, 'conversation'> & { conversation?: Partial<Conversation> }) =>
    setEntries((current) => current.map((e) => (e.conversation.clientId === clientId && isLocal(e.conversation) ? { ...e, ...patch, conversation: { ...e.conversation, ...patch.conversation } } : e)));

  const local = (clientId: string, message: Conversation['message'], status: ChatDeliverStatus): Entry => ({
    status,
    conversation: { _id: `local:${clientId}`, clientId, sender: 'customer', message, createdAt: new Date().toISOString(), session_id: '', userId: null, guestId: null, username: null, name: null, deviceToken: null },
  });

  const deliver = (clientId: string, message: SendMessageRequest['message']) => {
    update(clientId, { status: 'sending' });
    sendMessage(who, message, clientId).then(
      (answer) => {
        // Spec: the created time is taken from the server's answer (after 500 ms).
        setTimeout(() => update(clientId, { status: 'succeed', conversation: { createdAt: answer.createdAt } }), 500);
      },
      (error: unknown) => {
        update(clientId, { status: 'failed', retry: () => deliver(clientId, message) });
        toast.error(errorMessage(error));
      },
    );
  };

  const sendText = (value: string) => {
    const message = value.trim();
    if (!message || [...message].length > CHAT_TEXT_MAX) return;
    const clientId = crypto.randomUUID();
    stick.current = true;
    setEntries((current) => [...current, local(clientId, { message_type: 'text', payload: { message } }, 'sending')]);
    deliver(clientId, { message_type: 'text', payload: { message } });
  };

  const onAction = (action: ChatAction) => {
    const clientId = crypto.randomUUID();
    stick.current = true;
    setEntries((current) => [...current, local(clientId, action, 'sending')]);
    deliver(clientId, action);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!draft.trim() || state === 'failed') return;
    sendText(draft);
    setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const attach = (picked: File) => {
    const ext = /\.([a-z0-9]+)$/i.exec(picked.name)?.[1]?.toLowerCase();
    const kind = ext && ['png', 'jpg', 'jpeg', 'gif'].includes(ext) ? 'image' : ext && ['mp4', 'mov'].includes(ext) ? 'video' : null;
    if (!kind) {
      toast.error(text('fileNotSupported'));
      return;
    }
    const max = kind === 'image' ? CHAT_IMAGE_MAX_MB : CHAT_VIDEO_MAX_MB;
    if (picked.size > max * 1024 * 1024) {
      toast.error(text('fileTooLarge', { mb: max }));
      return;
    }
    const clientId = crypto.randomUUID();
    const preview = URL.createObjectURL(picked);
    stick.current = true;
    setEntries((current) => [...current, { ...local(clientId, { message_type: 'media', payload: { url: preview, filePath: '', fileType: kind, name: picked.name } }, 'uploading_file'), progress: 0 }]);
    const run = () => {
      update(clientId, { status: 'uploading_file', progress: 0 });
      uploadAttachment(who, kind, picked, (p) => update(clientId, { progress: p.phase === 'sending' ? p.percent : 100 })).then(
        ({ path }) => deliver(clientId, { message_type: 'media', payload: { url: path, filePath: path, fileType: kind, name: picked.name } }),
        (error: unknown) => {
          update(clientId, { status: 'failed', retry: run });
          toast.error(errorMessage(error));
        },
      );
    };
    run();
  };

  // Dates in the member's language, Lao included where the browser's Intl has no Lao data.
  const formats = useMemo(() => localDateFormat(locale), [locale]);
  const dateFormat = useMemo(() => ({ format: formats.day }), [formats]);
  const timeFormat = useMemo(() => ({ format: formats.time }), [formats]);
  const lastCustomerAt = entries.reduce((last, e) => (e.conversation.sender === 'customer' && e.conversation.createdAt > last ? e.conversation.createdAt : last), '');

  const rows: React.ReactNode[] = [];
  let previous: Entry | null = null;
  for (const entry of entries) {
    const c = entry.conversation;
    const day = dateFormat.format(new Date(c.createdAt));
    if (previous && !isLocal(previous.conversation) && !isLocal(c) && previous.conversation.session_id !== c.session_id) {
      rows.push(<div key={`end-${c._id}`} className="chat-marker" data-testid="chat-session-end">{text('endOfConversation')}</div>);
    }
    if (!previous || dateFormat.format(new Date(previous.conversation.createdAt)) !== day) {
      rows.push(<div key={`day-${c._id}`} className="chat-day" data-testid="chat-date">{day}</div>);
    }
    const mine = c.sender === 'customer';
    rows.push(
      <div key={c.clientId ?? c._id} className={mine ? 'chat-row chat-row-mine' : 'chat-row'} data-testid="chat-message" data-sender={c.sender} data-kind={c.message.message_type} data-status={entry.status ?? ''}>
        <div className="chat-bubble-msg">
          <ChatMessageView message={c.message} answered={lastCustomerAt > c.createdAt} onAction={onAction} text={text} />
          {entry.status === 'uploading_file' && (
            <div className="chat-progress" role="progressbar" aria-valuenow={entry.progress ?? 0} aria-valuemin={0} aria-valuemax={100} aria-label={text('uploading', { percent: entry.progress ?? 0 })} data-testid="chat-upload-progress">
              <span style={{ width: `${entry.progress ?? 0}%` }} />
            </div>
          )}
        </div>
        <span className="chat-meta">
          {entry.status === 'sending' || entry.status === 'uploading_file' ? text('sending') : timeFormat.format(new Date(c.createdAt))}
          {entry.status === 'failed' && (
            <>
              {' · '}
              <span className="chat-failed">{text('failed')}</span>{' '}
              <button type="button" className="chat-retry" onClick={entry.retry} data-testid="chat-retry">
                {text('retry')}
              </button>
            </>
          )}
        </span>
      </div>,
    );
    previous = entry;
  }

  return (
    <section className="chat-panel" hidden={!open} role="dialog" aria-label={text('title')} data-testid="chat-panel" data-state={state}>
      <header className="chat-header">
        <span className="chat-header-icon">
          <Icon name="chat" size={22} />
        </span>
        <span className="chat-header-text">
          <strong>{text('title')}</strong>
          <small>{state === 'joined' ? text('subtitle') : state === 'failed' ? text('cannotStart') : state === 'reconnecting' ? text('reconnecting') : text('connecting')}</small>
        </span>
        <button type="button" className="icon-button" onClick={onClose} aria-label={text('close')} data-testid="chat-close">
          <Icon name="close" size={20} />
        </button>
      </header>
      <div className="chat-list" ref={list} onScroll={onScroll} data-testid="chat-list" aria-live="polite">
        <div ref={top} className="chat-top">
          {loadingOlder && <span className="muted">{text('loadingOlder')}</span>}
        </div>
        {entries.length === 0 && state !== 'failed' && <p className="muted chat-empty">{text('empty')}</p>}
        {rows}
      </div>
      {notice && (
        <button
          type="button"
          className="chat-notice"
          onClick={() => {
            stick.current = true;
            setNotice(false);
            if (list.current) list.current.scrollTop = list.current.scrollHeight;
          }}
          data-testid="chat-new-message"
        >
          {text('newMessage')}
        </button>
      )}
      {state === 'failed' ? (
        <p className="chat-failed-banner" role="alert" data-testid="chat-cannot-start">
          {text('cannotStart')}
        </p>
      ) : (
        <form className="chat-composer" onSubmit={submit}>
          <button type="button" className="icon-button" onClick={() => file.current?.click()} aria-label={text('attach')} data-testid="chat-attach">
            <Icon name="image" size={22} />
          </button>
          <input
            ref={file}
            type="file"
            hidden
            accept="image/png,image/jpeg,image/gif,video/mp4,video/quicktime"
            data-testid="chat-file"
            onChange={(e) => {
              const picked = e.target.files?.[0];
              e.target.value = '';
              if (picked) attach(picked);
            }}
          />
          <textarea
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder={text('placeholder')}
            aria-label={text('placeholder')}
            rows={1}
            maxLength={CHAT_TEXT_MAX * 2}
            data-testid="chat-input"
          />
          <button type="submit" className="btn btn-primary chat-send" disabled={!draft.trim() || [...draft.trim()].length > CHAT_TEXT_MAX} aria-label={text('send')} data-testid="chat-send">
            <Icon name="back" size={20} />
          </button>
        </form>
      )}
    </section>
  );
}

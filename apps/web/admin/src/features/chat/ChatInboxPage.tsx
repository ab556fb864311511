import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ChatMessage, Conversation } from '@mw/contract/chat';
import { useOperator, useToken } from '../../app/useOperator';
import { call } from '../../shared/client';
import { age, dateTime } from '../../shared/format';
import { ErrorText, Page } from '../../shared/ui';
import { messageText } from './messageText';
import { useMutation } from '../../shared/mutation';

interface Thread {
  id: string;
  userId: string | null;
  guestId: string | null;
  name: string | null;
  username: string | null;
  sessionOpen: boolean;
  lastAt: string;
  unread: number;
  assignee: string | null;
}

const STICKERS = ['👍', '🙏', '😊', '🎉', '❤️', '✅'] as const;
const QUICK = ['hello', 'checking', 'done', 'thanks'] as const;

/** The inbox's socket: whether it is connected, and a new message anywhere reloads the conversations. */
function useInboxLive(token: ReturnType<typeof useToken>, queryClient: QueryClient): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!token) return undefined;
    let closed = false;
    let disconnect: () => void = () => undefined;
    void import('socket.io-client').then(({ io }) => {
      if (closed) return;
      const socket = io({ path: '/socket.io', auth: { operatorToken: token }, transports: ['websocket', 'polling'] });
      socket.on('connect', () => setLive(true));
      socket.on('disconnect', () => setLive(false));
      socket.on('inbox', () => {
        void queryClient.invalidateQueries({ queryKey: ['chat'] });
      });
      disconnect = () => {
        socket.close();
      };
    });
    return () => {
      closed = true;
      disconnect();
    };
  }, [token, queryClient]);
  return live;
}

/** A conversation's messages, oldest first: text, an image, or a link to a file. */
function ChatLog({ messages }: { messages: Conversation[] | undefined }) {
  const { t } = useTranslation();
  return (
    <ol className="chatlog" aria-live="polite">
      {[...(messages ?? [])].reverse().map((c) => (
        <li key={c._id} className={c.sender === 'customer' ? 'from-customer' : 'from-support'}>
          <span className="muted">
            {c.sender === 'customer' ? t('chat.customer') : c.sender === 'support' ? t('chat.support') : c.sender} · {dateTime(c.createdAt)}
          </span>
          {c.message.message_type === 'media' && c.message.payload.fileType === 'image' ? (
            <img src={c.message.payload.url} alt={c.message.payload.name} className="chat-image" />
          ) : c.message.message_type === 'media' ? (
            <a href={c.message.payload.url} target="_blank" rel="noreferrer">{t('chat.file', { name: c.message.payload.name })}</a>
          ) : (
            <span className="text">{messageText(c)}</span>
          )}
        </li>
      ))}
    </ol>
  );
}

/**
 * Support's inbox in real time: an operator socket (socket.io, `auth: {operatorToken}`) in the
 * inbox room hears every stored message (across processes through the Redis adapter) and the
 * lists refresh; replies go through the operator chat calls, which deliver to the customer's socket.
 */
export function ChatInboxPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = useToken();
  const { data: operator } = useOperator();
  const [selected, setSelected] = useState<string | null>(null);
  const threads = useQuery({ queryKey: ['chat', 'threads'], queryFn: (): Promise<Thread[]> => call('chatThreads', { query: { limit: 100 } }) });
  const thread = threads.data?.find((c) => c.id === selected) ?? null;
  const messages = useQuery({
    queryKey: ['chat', 'messages', selected],
    queryFn: (): Promise<Conversation[]> => call('chatThreadMessages', { params: { id: selected ?? '' }, query: { limit: 50 } }),
    enabled: selected !== null,
  });

  const live = useInboxLive(token, queryClient);

  // Opening a conversation marks its customer messages read.
  useEffect(() => {
    if (!selected || !thread || thread.unread === 0) return;
    void call('chatRead', { params: { id: selected } }).then(() => queryClient.invalidateQueries({ queryKey: ['chat', 'threads'] }));
  }, [selected, thread, queryClient]);

  const params = { id: selected ?? '' };
  const send = useMutation({
    mutationFn: (message: ChatMessage) => call('chatReply', { params, body: { message } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chat'] }),
  });
  const assign = useMutation({
    mutationFn: (assignee: string | null) => call('chatAssign', { params, body: { assignee } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chat', 'threads'] }),
  });
  const close = useMutation({ mutationFn: () => call('chatClose', { params }), onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chat'] }) });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const kind = file.type.startsWith('video/') ? 'video' : 'image';
      const form = new FormData();
      form.append('file', file);
      const { path: filePath } = await call('chatUpload', { params: { kind }, form });
      return call('chatReply', { params, body: { message: { message_type: 'media', payload: { url: filePath, filePath, fileType: kind, name: file.name } } } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chat'] }),
  });
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    send.mutate({ message_type: 'text', payload: { message } }, { onSuccess: () => setText('') });
  };
  const who = (c: Thread) => (c.userId ? `${c.name ?? ''} (${c.username ?? c.userId})` : t('chat.guest', { id: (c.guestId ?? '').slice(0, 8) }));

  return (
    <Page title={t('chat.title')} actions={<span className={`chip chip-${live ? 'ok' : 'bad'}`} role="status">{live ? t('chat.live') : t('chat.offline')}</span>}>
      <ErrorText error={threads.error ?? send.error ?? assign.error ?? close.error ?? upload.error} />
      <div className="split chat">
        <ul className="list master" aria-label={t('chat.conversations')}>
          {threads.data?.length === 0 ? <li>{t('common.none')}</li> : null}
          {threads.data?.map((c) => (
            <li key={c.id}>
              <button type="button" className={`item${selected === c.id ? ' selected' : ''}`} aria-pressed={selected === c.id} onClick={() => setSelected(c.id)} data-testid="chat-thread">
                <strong>{who(c)}</strong>
                {c.unread > 0 ? <span className="badge badge-pending">{t('chat.unread', { count: c.unread })}</span> : null}
                <span className="muted">
                  {age(c.lastAt)} · {c.assignee ? t('chat.assignedTo', { name: c.assignee }) : t('chat.unassigned')}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {thread ? (
          <section className="card detail conversation" aria-label={who(thread)}>
            <header className="row">
              <h2>{thread.userId ? <Link to={`/members/${encodeURIComponent(thread.userId)}`}>{who(thread)}</Link> : who(thread)}</h2>
              <button type="button" className="btn" onClick={() => assign.mutate(operator?.username ?? null)} disabled={thread.assignee === operator?.username}>
                {t('chat.take')}
              </button>
              <label className="field inline">
                <span>{t('chat.assign')}</span>
                <input defaultValue={thread.assignee ?? ''} onBlur={(e) => e.target.value.trim() !== (thread.assignee ?? '') && assign.mutate(e.target.value.trim() || null)} />
              </label>
              <button type="button" className="btn btn-danger" onClick={() => close.mutate()}>
                {t('chat.closeSession')}
              </button>
            </header>
            <ChatLog messages={messages.data} />
            <div className="row wrap" aria-label={t('chat.quickReplies')} role="group">
              {QUICK.map((key) => (
                <button key={key} type="button" className="btn" onClick={() => send.mutate({ message_type: 'text', payload: { message: t(`chat.quick.${key}`) } })}>
                  {t(`chat.quick.${key}`)}
                </button>
              ))}
            </div>
            <div className="row wrap" aria-label={t('chat.sticker')} role="group">
              {STICKERS.map((sticker) => (
                <button key={sticker} type="button" className="btn sticker" aria-label={`${t('chat.sticker')} ${sticker}`} onClick={() => send.mutate({ message_type: 'text', payload: { message: sticker } })}>
                  {sticker}
                </button>
              ))}
              <label className="btn">
                {t('chat.attach')}
                <input type="file" accept="image/png,image/jpeg,image/gif,video/mp4,video/quicktime" className="sr-only" onChange={(e) => { const file = e.target.files?.[0]; if (file) upload.mutate(file); e.target.value = ''; }} />
              </label>
            </div>
            <form className="reply" onSubmit={submit}>
              <label className="field grow">
                <span>{t('chat.reply')}</span>
                <textarea value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} rows={2} />
              </label>
              <button type="submit" className="btn btn-primary" disabled={send.isPending || !text.trim()}>
                {t('chat.send')}
              </button>
            </form>
          </section>
        ) : (
          <p className="card detail">{t('chat.pick')}</p>
        )}
      </div>
    </Page>
  );
}

import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { request, type ResponseParser } from '../../shared/api/client';
import { useToken } from '../../shared/auth/token';
import { Icon } from '../../shared/ui/Icon';
import type { ChatWho } from './chatClient';
import { guestSession, storedGuestId } from './guestId';
import { OPEN_CHAT_EVENT, takeOpenRequest } from './ChatWidgetSlot';
import { chatNs } from './locales';
import './chat.css';

const ChatPanel = lazy(() => import('./ChatPanel').then((m) => ({ default: m.ChatPanel })));

// zod-free (the bubble stays light): only the member's id is read from GET /api/account/profile.
const profileIdParser: ResponseParser<{ _id: string }> = {
  safeParse: (value) =>
    typeof value === 'object' && value !== null && typeof (value as { _id?: unknown })._id === 'string' ? { success: true, data: { _id: (value as { _id: string })._id } } : { success: false },
};

/**
 * Who chats: the signed-in member (their id from the profile; the guest session goes along once so
 * the conversation follows them), else this browser's guest, with a session the server issued
 * (asked for once the chat starts).
 */
function useWho(started: boolean): ChatWho | null {
  const token = useToken();
  const [guest, setGuest] = useState<string | null>(null);
  const [stored] = useState(storedGuestId);
  const needGuest = started && !token;
  useEffect(() => {
    if (!needGuest || guest) return;
    let cancelled = false;
    guestSession().then(
      (id) => {
        if (!cancelled) setGuest(id);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [needGuest, guest]);
  const profile = useQuery({
    queryKey: ['chat', 'me', token],
    queryFn: ({ signal }) => request('/api/account/profile', profileIdParser, { signal, background: true }),
    enabled: token !== null,
    retry: false,
    meta: { silent: true },
  });
  const userId = token ? profile.data?._id : undefined;
  const failed = token !== null && profile.isError;
  return useMemo<ChatWho | null>(() => {
    if (userId) return { kind: 'member', userId, guestId: guest ?? stored };
    if ((!token || failed) && guest) return { kind: 'guest', guestId: guest };
    return null;
  }, [userId, token, failed, guest, stored]);
}

/**
 * The chat bubble (spec section 2): the invite message, the unread count, and the panel — whose
 * code (and the socket) loads on the first open and then stays, so the bubble keeps counting.
 * The panel is rendered into <body>: on member pages the bubble sits in the sticky top bar, whose
 * z-index makes a stacking context, so a panel inside it would paint under the bottom menu (its
 * text box and send button hidden behind it on phones).
 */
export function ChatLauncher() {
  const { t: text } = useTranslation(chatNs);
  const [open, setOpen] = useState(false);
  const [started, setStarted] = useState(false);
  const who = useWho(started);
  const [unread, setUnread] = useState(0);
  const onIncoming = useCallback(() => setUnread((n) => n + 1), []);
  const toggle = () => {
    setStarted(true);
    setUnread(0);
    setOpen((o) => !o);
  };
  useEffect(() => {
    const show = () => {
      if (!takeOpenRequest()) return;
      setStarted(true);
      setUnread(0);
      setOpen(true);
    };
    // Asked for before this bubble had loaded: open now.
    show();
    window.addEventListener(OPEN_CHAT_EVENT, show);
    return () => window.removeEventListener(OPEN_CHAT_EVENT, show);
  }, []);
  return (
    <div className="chat-widget" data-testid="chat-widget">
      {started &&
        who &&
        createPortal(
          <Suspense fallback={null}>
            <ChatPanel key={who.kind === 'member' ? who.userId : who.guestId} who={who} open={open} onClose={() => setOpen(false)} onIncoming={onIncoming} />
          </Suspense>,
          document.body,
        )}
      {!open && (
        <button type="button" className="chat-launcher" onClick={toggle} aria-label={unread > 0 ? `${text('invite')} · ${text('open')} (${text('unread', { count: unread })})` : `${text('invite')} · ${text('open')}`} data-testid="chat-launcher">
          <Icon name="chat" size={26} />
          <span className="chat-launcher-invite">{text('invite')}</span>
          {unread > 0 && (
            <span className="chat-unread" data-testid="chat-unread">
              {unread}
            </span>
          )}
        </button>
      )}
    </div>
  );
}

import { Suspense, useEffect, useState } from 'react';
import { lazyWithQueries } from '../../app/providers/lazyWithQueries';
import type { ResponseParser } from '../../shared/api/client';
import { createLookup } from '../../shared/api/lookupStore';

/**
 * Where the chat widget goes on every page (guest and member layouts). Only a flag check lives in
 * the first download: GET /api/lookup/enableChatWidget (zod-free, as the site lookups). When it
 * is on, the bubble's own small chunk (≈3 KB gzipped) loads 2 s after the page has gone idle — it
 * is not part of the first screen, and does not compete with it — and the panel with the socket
 * only when the bubble is opened.
 */
const ChatLauncher = lazyWithQueries(() => import('./ChatLauncher'), 'ChatLauncher');

const flagParser: ResponseParser<boolean> = {
  safeParse: (value) =>
    typeof value === 'object' && value !== null && typeof (value as { enableChatWidget?: unknown }).enableChatWidget === 'boolean'
      ? { success: true, data: (value as { enableChatWidget: boolean }).enableChatWidget }
      : { success: false },
};

/**
 * Asks the widget to open (the contact page's button): the bubble listens for this event. A
 * request made before the bubble has loaded is kept, the bubble is loaded at once, and it opens
 * the panel when it mounts (takeOpenRequest) — a tap is never lost.
 */
export const OPEN_CHAT_EVENT = 'mw:open-chat';
let openRequested = false;
export function openChat(): void {
  openRequested = true;
  window.dispatchEvent(new Event(OPEN_CHAT_EVENT));
}

/** True once after openChat(): the bubble takes the request when it opens (or mounts). */
export function takeOpenRequest(): boolean {
  const requested = openRequested;
  openRequested = false;
  return requested;
}

/** GET /api/lookup/enableChatWidget, once per page load (kept 10 minutes): lookupStore.ts. */
export const chatWidgetFlag = createLookup('/api/lookup/enableChatWidget', flagParser, 10 * 60_000);

export function useChatWidgetEnabled(): boolean {
  return chatWidgetFlag.use() === true;
}

const AFTER_IDLE_MS = 2000;

function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      timer = setTimeout(() => setIdle(true), AFTER_IDLE_MS);
    };
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(later, { timeout: 3000 });
      return () => {
        window.cancelIdleCallback(handle);
        clearTimeout(timer);
      };
    }
    later();
    return () => clearTimeout(timer);
  }, []);
  return idle;
}

/** Becomes true when the page asks for the chat before the bubble has loaded. */
function useOpenRequested(): boolean {
  const [requested, setRequested] = useState(false);
  useEffect(() => {
    const request = () => setRequested(true);
    window.addEventListener(OPEN_CHAT_EVENT, request);
    return () => window.removeEventListener(OPEN_CHAT_EVENT, request);
  }, []);
  return requested;
}

export function ChatWidgetSlot() {
  const enabled = useChatWidgetEnabled();
  const idle = useIdle();
  const requested = useOpenRequested();
  if (!enabled || !(idle || requested)) return null;
  return (
    <Suspense fallback={null}>
      <ChatLauncher />
    </Suspense>
  );
}

"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatSummary } from "../lib/chats";
import { Chat } from "./chat";
import { Sidebar } from "./sidebar";

/**
 * The page: the sidebar of the user's chats beside the open chat. The open chat's id is in the
 * address (`?chat=`), so a reload shows the same chat; without one the user's first chat opens.
 */
export function ChatApp({ api, title, chatId }: { api: string; title: string; chatId?: string }) {
  const [current, setCurrent] = useState(chatId);
  /** Changes when the user opens another chat: the chat is mounted again, with its own useChat. */
  const [opened, setOpened] = useState(0);
  const [chats, setChats] = useState<ChatSummary[]>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState(false);
  /** What was typed in each chat and not sent, kept while another chat is shown. */
  const drafts = useRef(new Map<string, string>());
  const menu = useRef<HTMLButtonElement>(null);

  const refresh = useCallback(async () => {
    try {
      const response = await fetch(`${api}/chats`, { cache: "no-store" });
      const body = (await response.json()) as { chats?: ChatSummary[]; error?: string };
      if (!response.ok || !body.chats) throw new Error(body.error ?? `${api}/chats answered ${response.status}`);
      setChats(body.chats);
      setError(undefined);
    } catch (failure) {
      setError(`Your chats could not be loaded: ${(failure as Error).message}`);
    }
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // The panel opened from the menu button takes the focus (Escape gives it back).
  useEffect(() => {
    if (open) document.getElementById("new-chat")?.focus();
  }, [open]);

  /** Shows `chatId` (in the address too) and closes the menu on a narrow screen. */
  const show = (chatId: string) => {
    setCurrent(chatId);
    setOpened((count) => count + 1);
    setOpen(false);
    window.history.replaceState(null, "", `?chat=${encodeURIComponent(chatId)}`);
  };

  // A new chat has no session yet: its first turn creates it, owned by the user, and lists it.
  const newChat = () => show(`chat-${crypto.randomUUID()}`);

  const remove = async (chat: ChatSummary) => {
    try {
      const response = await fetch(`${api}?id=${encodeURIComponent(chat.id)}`, { method: "DELETE" });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        throw new Error(body.error ?? `${api} answered ${response.status}`);
      }
      drafts.current.delete(chat.id);
      if (chat.id === current) newChat();
      await refresh();
    } catch (failure) {
      setError(`The chat could not be deleted: ${(failure as Error).message}`);
    }
  };

  return (
    <div className="shell">
      <Sidebar
        chats={chats}
        current={current}
        open={open}
        error={error}
        onSelect={show}
        onNewChat={newChat}
        onDelete={(chat) => void remove(chat)}
        onClose={() => {
          setOpen(false);
          menu.current?.focus();
        }}
      />
      <Chat
        key={opened}
        api={api}
        title={title}
        {...(current ? { chatId: current, draft: drafts.current.get(current) ?? "" } : {})}
        onChatId={(chatId) => {
          setCurrent(chatId);
          window.history.replaceState(null, "", `?chat=${encodeURIComponent(chatId)}`);
        }}
        onDraft={(text) => {
          if (current) drafts.current.set(current, text);
        }}
        onAnswered={() => void refresh()}
        onTitle={(chatId, chatTitle) => {
          // The title is in the store already: shown at once, and the list read again.
          setChats((list) => list?.map((chat) => (chat.id === chatId ? { ...chat, title: chatTitle } : chat)));
          void refresh();
        }}
        menu={
          <button
            type="button"
            ref={menu}
            id="chats-toggle"
            className="menu-button"
            aria-expanded={open}
            aria-controls="chats-panel"
            onClick={() => setOpen((shown) => !shown)}
          >
            <span aria-hidden>☰</span> Chats
          </button>
        }
      />
    </div>
  );
}

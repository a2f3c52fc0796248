"use client";

import type { ReactNode } from "react";
import type { ChatSummary } from "../lib/chats";

export interface SidebarProps {
  chats: ChatSummary[] | undefined;
  current: string | undefined;
  /** Shown as an overlay (narrow screens, after the menu button); always shown on wide ones. */
  open: boolean;
  error: string | undefined;
  onSelect: (chatId: string) => void;
  onNewChat: () => void;
  onDelete: (chat: ChatSummary) => void;
  onClose: () => void;
}

/** The user's chats, newest first: open one, start a new one, delete one. */
export function Sidebar({
  chats,
  current,
  open,
  error,
  onSelect,
  onNewChat,
  onDelete,
  onClose,
}: SidebarProps): ReactNode {
  return (
    <nav
      id="chats-panel"
      className={`sidebar${open ? " open" : ""}`}
      aria-label="Your chats"
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      <button type="button" id="new-chat" onClick={onNewChat}>
        + New chat
      </button>
      {error && (
        <p className="sidebar-error" role="alert">
          {error}
        </p>
      )}
      {chats === undefined ? (
        <p className="sidebar-note">Loading your chats…</p>
      ) : chats.length === 0 ? (
        <p className="sidebar-note">Your chats will be listed here.</p>
      ) : null}
      <ol id="chats" className="chat-list" data-loaded={chats !== undefined}>
        {chats?.map((chat) => {
          const name = chat.title ?? "Untitled chat";
          return (
            <li key={chat.id} data-chat-id={chat.id} className={chat.id === current ? "current" : undefined}>
              <button
                type="button"
                className="open-chat"
                aria-current={chat.id === current ? "page" : undefined}
                onClick={() => onSelect(chat.id)}
              >
                <span className="chat-title" data-titled={chat.title !== null}>
                  {name}
                </span>
                {chat.preview && <span className="chat-preview">{chat.preview}</span>}
              </button>
              <button
                type="button"
                className="delete-chat"
                aria-label={`Delete the chat “${name}”`}
                title="Delete this chat"
                onClick={() => onDelete(chat)}
              >
                ×
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

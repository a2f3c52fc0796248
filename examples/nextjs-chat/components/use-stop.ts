"use client";

import { useState, type RefObject } from "react";

/**
 * The Stop button's action: the server stops the chat's running turn (lib/stop.ts: the model
 * request aborted, the text streamed so far stored as the answer, marked "stopped"), then useChat's
 * `stop()` closes the page's stream. The page keeps the text it has shown, which is what the store
 * holds (give or take the chunks in flight), and the next message is answered at once.
 */
export function useStop(options: {
  /** The chat route: its stop is POST `<api>/stop?id=<chat>`. */
  api: string;
  /** The open chat's id (none: the cookie's first chat). */
  chat: RefObject<string | undefined>;
  /** useChat's stop(). */
  stop: () => Promise<void>;
  onNotice: (notice: string) => void;
  /** Where the focus goes when the button goes away with the answer. */
  prompt: RefObject<HTMLInputElement | null>;
}): { stopping: boolean; stopAnswer: () => Promise<void> } {
  const [stopping, setStopping] = useState(false);
  const stopAnswer = async () => {
    const { api, chat, stop, onNotice, prompt } = options;
    setStopping(true);
    try {
      const query = chat.current ? `?id=${encodeURIComponent(chat.current)}` : "";
      const response = await fetch(`${api}/stop${query}`, { method: "POST" });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        onNotice(`The answer could not be stopped: ${body.error ?? `${api}/stop answered ${response.status}`}`);
      }
    } catch (failure) {
      onNotice(`The answer could not be stopped: ${(failure as Error).message}`);
    } finally {
      await stop();
      setStopping(false);
      prompt.current?.focus();
    }
  };
  return { stopping, stopAnswer };
}

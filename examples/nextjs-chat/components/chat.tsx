"use client";

import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type FileUIPart,
  type UIMessage,
} from "ai";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Attachment, MessagePart, type ApprovalHandler } from "./message-parts";

/** What the attach button takes: images and PDFs, which every provider adapter sends as such. */
const ACCEPTED = "image/png,image/jpeg,image/gif,image/webp,application/pdf";
const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024; // Anthropic's per-image limit, the smallest of the providers

/** The chat UI, talking to the route at `api` (GET: the stored history, POST: one turn). */
export function Chat({ api, title }: { api: string; title: string }) {
  const [transport] = useState(
    () =>
      new DefaultChatTransport({
        api,
        // The server's store holds the history: send only the new message (with its attachments),
        // not the whole conversation and every image in it again.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
          body: { id, messages: messages.slice(-1), trigger, messageId },
        }),
      }),
  );
  const { messages, sendMessage, setMessages, status, error, addToolApprovalResponse, regenerate } = useChat({
    transport,
    // Once every approval asked in the last answer is answered, send it: the run goes on.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");
  const [attachments, setAttachments] = useState<FileUIPart[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [notice, setNotice] = useState<string>();
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The history comes from the server's store, not from the browser. Until it is here (and so
    // until React has hydrated the page) the composer stays disabled: a message typed earlier
    // would be submitted natively, reloading the page and losing it.
    fetch(api)
      .then(async (response) => {
        const body = (await response.json()) as UIMessage[] | { error: string };
        if (!response.ok || !Array.isArray(body))
          throw new Error("error" in body ? body.error : `${api} answered ${response.status}`);
        setMessages(body);
        setLoaded(true);
      })
      .catch((failure: Error) => setNotice(failure.message));
  }, [api, setMessages]);

  useEffect(() => {
    if (messages.length > 0) end.current?.scrollIntoView({ block: "end" });
  }, [messages]);

  const answerApproval: ApprovalHandler = (id, approved, reason) =>
    void addToolApprovalResponse({ id, approved, reason });

  const busy = status === "streaming" || status === "submitted";
  const canSend = loaded && !busy && (input.trim() !== "" || attachments.length > 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSend) return;
    void sendMessage(attachments.length ? { text: input.trim(), files: attachments } : { text: input.trim() });
    setInput("");
    setAttachments([]);
  };

  const attach = async (files: FileList | null) => {
    const chosen = [...(files ?? [])];
    const refused = chosen.filter(
      (file) => !ACCEPTED.split(",").includes(file.type) || file.size > MAX_ATTACHMENT_BYTES,
    );
    setNotice(
      refused.length
        ? `Not attached (images and PDFs up to 5 MB only): ${refused.map((file) => file.name).join(", ")}`
        : undefined,
    );
    const parts = await Promise.all(chosen.filter((file) => !refused.includes(file)).map(toFileUIPart));
    setAttachments((current) => [...current, ...parts]);
  };

  return (
    <div className="app">
      <header className="topbar">
        <span className="logo" aria-hidden>
          ◆
        </span>
        <h1>{title}</h1>
        <span id="status" className={`status status-${status}`} data-status={status}>
          {busy ? "answering…" : loaded ? "online" : "connecting…"}
        </span>
      </header>

      <main className="conversation">
        {loaded && messages.length === 0 && (
          <div className="empty">
            <p>
              Ask about the weather, tell me something to remember, book a table (you approve it first), or attach an
              image or a PDF.
            </p>
          </div>
        )}
        <ol id="messages" data-loaded={loaded}>
          {messages.map((message) => (
            <li key={message.id} data-role={message.role} className={`message ${message.role}`}>
              <span className="avatar" aria-hidden>
                {message.role === "user" ? "You" : "AI"}
              </span>
              <div className="bubble">
                <span className="sr-only">{message.role === "user" ? "You" : "Assistant"}: </span>
                {message.parts.map((part, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts never reorder
                  <MessagePart key={index} part={part} onApproval={answerApproval} />
                ))}
                {message.role === "assistant" && message === messages.at(-1) && status === "ready" && (
                  <div className="message-actions">
                    <button
                      type="button"
                      id="regenerate"
                      title="Answer the last message again"
                      onClick={() => void regenerate()}
                    >
                      ↻ Regenerate
                    </button>
                  </div>
                )}
              </div>
            </li>
          ))}
        </ol>
        {busy && messages.at(-1)?.role === "user" && <p className="typing">The assistant is thinking…</p>}
        <div ref={end} />
      </main>

      <form className="composer" onSubmit={submit}>
        {(notice ?? error) && (
          <p id="error" role="alert">
            {notice ?? error?.message}
          </p>
        )}
        {attachments.length > 0 && (
          <ul className="pending-attachments">
            {attachments.map((file, index) => (
              <li key={file.url}>
                <Attachment file={file} />
                <button
                  type="button"
                  className="remove"
                  aria-label={`Remove ${file.filename}`}
                  onClick={() => setAttachments((current) => current.filter((_, at) => at !== index))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="composer-row">
          <label className={`attach-button${loaded ? "" : " disabled"}`} title="Attach an image or a PDF">
            <input
              id="attach"
              type="file"
              accept={ACCEPTED}
              multiple
              disabled={!loaded}
              onChange={(event) => {
                void attach(event.target.files);
                event.target.value = "";
              }}
            />
            <span aria-hidden>+</span>
          </label>
          <input
            id="prompt"
            value={input}
            onChange={(event) => setInput(event.target.value)}
            placeholder={loaded ? "Message the assistant" : "Loading the conversation…"}
            autoComplete="off"
            disabled={!loaded}
          />
          <button id="send" type="submit" disabled={!canSend}>
            Send
          </button>
        </div>
      </form>
    </div>
  );
}

/** A chosen file as the `file` part useChat sends: its bytes as a `data:` URL, its name kept. */
function toFileUIPart(file: File): Promise<FileUIPart> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve({ type: "file", mediaType: file.type, filename: file.name, url: String(reader.result) });
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

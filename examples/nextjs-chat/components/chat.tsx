"use client";

import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type FileUIPart,
  type UIMessage,
} from "ai";
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { ACCEPTED_TYPES, messageTooLarge } from "../lib/limits";
import { Attachment, MessagePart, UsageLine, type ApprovalHandler } from "./message-parts";
import { useStop } from "./use-stop";

export interface ChatProps {
  /** The route: GET ?id= the stored history, POST one turn, DELETE ?id= a chat. */
  api: string;
  title: string;
  /** The chat to show, read when the component mounts (remount it for another); none: the user's first chat. */
  chatId?: string;
  /** Told the chat's id once the route named it (the user's first chat has the cookie's id). */
  onChatId?: (chatId: string) => void;
  /** Told when an answer is complete (the sidebar's list changed). */
  onAnswered?: () => void;
  /** Told the title the server generated after the first answer (the stream's data-title part). */
  onTitle?: (chatId: string, title: string) => void;
  /** What was typed and not sent when this chat was last shown, and where to keep what is typed. */
  draft?: string;
  onDraft?: (text: string) => void;
  /** Shown at the start of the header: the sidebar's menu button on a narrow screen. */
  menu?: ReactNode;
}

/** The chat UI, talking to the route at `api`. */
export function Chat({ api, title, chatId, onChatId, onAnswered, onTitle, draft, onDraft, menu }: ChatProps) {
  /** The chat this component shows: fixed at mount, then the id the route answered with. */
  const chat = useRef(chatId);
  // useChat keeps the callbacks it was first given: these read the latest props.
  const events = useRef({ onChatId, onAnswered, onTitle, onDraft });
  events.current = { onChatId, onAnswered, onTitle, onDraft };
  const [transport] = useState(
    () =>
      new DefaultChatTransport({
        api,
        // The server's store holds the history: send only the new message (with its attachments),
        // not the whole conversation and every image in it again.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
          body: { id: chat.current ?? id, messages: messages.slice(-1), trigger, messageId },
        }),
        // The reconnect (resume below): GET <api>/<chat id>/stream, as DefaultChatTransport names it.
        prepareReconnectToStreamRequest: ({ id }) => ({
          api: `${api}/${encodeURIComponent(chat.current ?? id)}/stream`,
        }),
      }),
  );
  const {
    messages,
    sendMessage,
    setMessages,
    status,
    error,
    clearError,
    addToolApprovalResponse,
    regenerate,
    stop,
    resumeStream,
  } = useChat({
    transport,
    // Once every approval asked in the last answer is answered, send it: the run goes on.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    // A transient part: not kept in the message, only seen here.
    onData: (part) => {
      const title = (part.data as { title?: unknown } | undefined)?.title;
      if (part.type === "data-title" && typeof title === "string" && chat.current)
        events.current.onTitle?.(chat.current, title);
    },
    onFinish: () => events.current.onAnswered?.(),
  });
  const [input, setInput] = useState(draft ?? "");
  const [attachments, setAttachments] = useState<FileUIPart[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [notice, setNotice] = useState<string>();
  /** The id of the user message being edited: the next send replaces it and what follows. */
  const [editing, setEditing] = useState<string>();
  const end = useRef<HTMLDivElement>(null);
  const prompt = useRef<HTMLInputElement>(null);

  const loadHistory = useCallback(async (): Promise<UIMessage[]> => {
    const response = await fetch(chat.current ? `${api}?id=${encodeURIComponent(chat.current)}` : api);
    const body = (await response.json()) as UIMessage[] | { error: string };
    if (!response.ok || !Array.isArray(body))
      throw new Error("error" in body ? body.error : `${api} answered ${response.status}`);
    const named = response.headers.get("x-chat-id");
    if (named && named !== chat.current) {
      chat.current = named;
      events.current.onChatId?.(named);
    }
    return body;
  }, [api]);

  useEffect(() => {
    // The history comes from the server's store, not from the browser. Until it is here (and so
    // until React has hydrated the page) the composer stays disabled: a message typed earlier
    // would be submitted natively, reloading the page and losing it.
    loadHistory()
      .then((history) => {
        setMessages(history);
        setLoaded(true);
        // The store holds the user's message and no answer yet: it may still be being generated (a
        // reload mid-answer). useChat's resume reattaches to it: replayed from its start and
        // followed to its end, one bubble (lib/resume.ts; 204, nothing shown, when nothing runs).
        // useChat({ resume: true }) would ask before the history is here, and replay an answer the
        // store already holds over the one shown: resumed after the history, only when unanswered.
        if (history.at(-1)?.role === "user") void resumeStream();
      })
      .catch((failure: Error) => setNotice(failure.message));
  }, [loadHistory, setMessages, resumeStream]);

  // After a failed request the page shows what the store holds. A message the server kept (the
  // model could not answer it) stays, with Retry under it; a message it refused (too large, a
  // tool call awaiting approval, a busy session) goes back to the composer, text and attachments.
  const lastUserMessage = useRef<UIMessage>(undefined);
  lastUserMessage.current = messages.findLast((message) => message.role === "user");
  useEffect(() => {
    const sent = lastUserMessage.current;
    if (status !== "error" || !sent) return;
    let current = true;
    loadHistory()
      .then((history) => {
        if (!current) return;
        if (!history.some((message) => message.id === sent.id)) {
          setInput(sent.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n"));
          setAttachments(sent.parts.filter((part): part is FileUIPart => part.type === "file"));
        }
        setMessages(history);
      })
      .catch(() => {}); // the error shown already says what failed
    return () => {
      current = false;
    };
  }, [status, loadHistory, setMessages]);

  useEffect(() => {
    if (messages.length > 0) end.current?.scrollIntoView({ block: "end" });
  }, [messages]);

  // What is typed survives a switch to another chat and back (the sidebar keeps it).
  useEffect(() => events.current.onDraft?.(input), [input]);

  const answerApproval: ApprovalHandler = (id, approved, reason) => {
    void addToolApprovalResponse({ id, approved, reason });
    prompt.current?.focus(); // the buttons go away with the answer: focus stays in the page
  };

  const busy = status === "streaming" || status === "submitted";
  const { stopping, stopAnswer } = useStop({ api, chat, stop, onNotice: setNotice, prompt });
  const canSend = loaded && !busy && (input.trim() !== "" || attachments.length > 0);
  const connection = !loaded ? "connecting" : busy ? "answering" : status === "error" ? "error" : "online";
  // The last message has no answer (the model failed, now or before a reload): Retry asks again.
  const unanswered = loaded && !busy && messages.at(-1)?.role === "user";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSend) return;
    const text = input.trim();
    // Checked before sending: a message over the route's limit stays in the composer.
    const tooLarge = messageTooLarge(text, attachments);
    if (tooLarge) {
      setNotice(tooLarge);
      return;
    }
    setNotice(undefined);
    // A new message while a card awaits approval denies that call (the agent's pendingApprovals:
    // "deny", docs/approvals.md): the server stores the denial, and the page shows it now. The
    // new answer's stream does not carry it (the call is the previous message's); a reload does.
    setMessages((current) => current.map(denyPendingApprovals));
    void sendMessage({
      text,
      ...(attachments.length ? { files: attachments } : {}),
      ...(editing ? { messageId: editing } : {}),
    });
    setInput("");
    setAttachments([]);
    setEditing(undefined);
  };

  /** Puts a sent message back in the composer; sending it replaces it and everything after it. */
  const edit = (message: UIMessage) => {
    setEditing(message.id);
    setInput(message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n"));
    setAttachments(message.parts.filter((part): part is FileUIPart => part.type === "file"));
    prompt.current?.focus();
  };

  const cancelEdit = () => {
    setEditing(undefined);
    setInput("");
    setAttachments([]);
  };

  const attach = async (files: FileList | null) => {
    const chosen = [...(files ?? [])];
    const refused: string[] = [];
    const parts: FileUIPart[] = [];
    for (const file of chosen) {
      const part = ACCEPTED_TYPES.includes(file.type) ? await toFileUIPart(file) : undefined;
      // A file that alone is over the message limit is refused here, before it is even shown.
      if (!part || messageTooLarge("", [part])) refused.push(file.name);
      else parts.push(part);
    }
    setNotice(
      refused.length
        ? `Not attached (images and PDFs that fit in one message, about 3 MB): ${refused.join(", ")}`
        : undefined,
    );
    setAttachments((current) => [...current, ...parts]);
  };

  return (
    <div className="app">
      <header className="topbar">
        {menu}
        <span className="logo" aria-hidden>
          ◆
        </span>
        <h1>{title}</h1>
        <span id="status" className={`status status-${connection}`} data-status={status} data-connection={connection}>
          {connection === "connecting" ? "connecting…" : connection === "answering" ? "answering…" : connection}
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
                {/* Only the last message's calls can still be answered: a later message denied them. */}
                {message.parts.map((part, index) => (
                  <MessagePart
                    // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts never reorder
                    key={index}
                    part={part}
                    {...(message === messages.at(-1) ? { onApproval: answerApproval } : {})}
                  />
                ))}
                {message.role === "assistant" && <UsageLine metadata={message.metadata} />}
                {message.role === "user" && loaded && !busy && (
                  <div className="message-actions">
                    <button
                      type="button"
                      className="edit"
                      title="Edit this message: it and everything after it are replaced"
                      onClick={() => edit(message)}
                    >
                      ✎ Edit
                    </button>
                  </div>
                )}
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
        {unanswered && (
          <div className="retry-row">
            <span>{error ? "This message got no answer." : "This message has no answer yet."}</span>
            <button
              type="button"
              id="retry"
              onClick={() => {
                clearError();
                setNotice(undefined);
                void regenerate(); // the stored message is answered again
              }}
            >
              ↻ Retry
            </button>
          </div>
        )}
        <div ref={end} />
      </main>

      <form className="composer" onSubmit={submit}>
        {(notice ?? error) && (
          <p id="error" role="alert">
            {notice ?? error?.message}
          </p>
        )}
        {editing && (
          <p className="editing" id="editing">
            Editing a message: sending replaces it and everything after it.{" "}
            <button type="button" id="cancel-edit" onClick={cancelEdit}>
              Cancel
            </button>
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
              aria-label="Attach an image or a PDF"
              accept={ACCEPTED_TYPES.join(",")}
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
            ref={prompt}
            value={input}
            onChange={(event) => setInput(event.target.value)}
            placeholder={loaded ? "Message the assistant" : "Loading the conversation…"}
            autoComplete="off"
            disabled={!loaded}
          />
          {busy ? (
            // While an answer streams, Stop takes Send's place (Enter in the prompt does not send meanwhile).
            <button id="stop" type="button" className="stop" disabled={stopping} onClick={() => void stopAnswer()}>
              ■ Stop
            </button>
          ) : (
            <button id="send" type="submit" disabled={!canSend}>
              Send
            </button>
          )}
        </div>
      </form>
    </div>
  );
}

/** The reason agentcore stores for a call denied by a new message (docs/approvals.md); a reload shows the stored one. */
const NEW_MESSAGE_DENIAL = "Not approved: the user sent a new message instead of answering this approval request.";

/** `message` with each tool call still awaiting approval shown as denied, as the server stores it. */
function denyPendingApprovals(message: UIMessage): UIMessage {
  if (!message.parts.some((part) => isToolUIPart(part) && part.state === "approval-requested")) return message;
  return {
    ...message,
    parts: message.parts.map((part) =>
      isToolUIPart(part) && part.state === "approval-requested"
        ? {
            ...part,
            state: "output-denied",
            approval: { id: part.approval.id, approved: false, reason: NEW_MESSAGE_DENIAL },
          }
        : part,
    ),
  };
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

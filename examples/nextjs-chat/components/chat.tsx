"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { useEffect, useState, type FormEvent } from "react";

/** The chat UI, talking to the route at `api` (GET: the stored history, POST: one turn). */
export function Chat({ api, title }: { api: string; title: string }) {
  const [transport] = useState(() => new DefaultChatTransport({ api }));
  const { messages, sendMessage, setMessages, status, error } = useChat({ transport });
  const [input, setInput] = useState("");
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<string>();

  useEffect(() => {
    // The history comes from the server's store, not from the browser.
    fetch(api)
      .then(async (response) => {
        const body = (await response.json()) as UIMessage[] | { error: string };
        if (!response.ok || !Array.isArray(body))
          throw new Error("error" in body ? body.error : `${api} answered ${response.status}`);
        setMessages(body);
        setLoaded(true);
      })
      .catch((failure: Error) => setLoadError(failure.message));
  }, [api, setMessages]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim()) return;
    void sendMessage({ text: input });
    setInput("");
  };

  return (
    <main>
      <h1>{title}</h1>
      <ol id="messages" data-loaded={loaded} style={{ listStyle: "none", padding: 0 }}>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role} style={{ margin: "0.75rem 0" }}>
            <strong>{message.role === "user" ? "You" : "Assistant"}: </strong>
            {message.parts.map((part, index) => {
              // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts never reorder
              if (part.type === "text") return <span key={index}>{part.text}</span>;
              if (part.type.startsWith("tool-") && "state" in part) {
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts never reorder
                  <code key={index} data-tool={part.type.slice(5)} style={{ display: "block", color: "#555" }}>
                    {part.type.slice(5)} {part.state === "output-available" ? "✓" : "…"}
                  </code>
                );
              }
              return null;
            })}
          </li>
        ))}
      </ol>
      <form onSubmit={submit}>
        <input
          id="prompt"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="Say something"
          style={{ width: "75%" }}
        />
        <button id="send" type="submit" disabled={status === "streaming" || status === "submitted"}>
          Send
        </button>
      </form>
      <p id="status" data-status={status}>
        {status}
      </p>
      {(loadError ?? error) && (
        <p id="error" role="alert" style={{ color: "#b00" }}>
          {loadError ?? error?.message}
        </p>
      )}
    </main>
  );
}

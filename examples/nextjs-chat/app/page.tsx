import { ChatApp } from "../components/chat-app";

/** The chat on the Node route (app/api/chat, a file store); `?chat=<id>` opens one of the user's chats. */
export default async function ChatPage({ searchParams }: { searchParams: Promise<{ chat?: string | string[] }> }) {
  const { chat } = await searchParams;
  return <ChatApp api="/api/chat" title="agentcore chat" {...(typeof chat === "string" ? { chatId: chat } : {})} />;
}

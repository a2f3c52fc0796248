import { ChatApp } from "../../components/chat-app";

/** The same chat on the edge route (app/api/chat-edge, the Upstash store). */
export default async function EdgeChatPage({ searchParams }: { searchParams: Promise<{ chat?: string | string[] }> }) {
  const { chat } = await searchParams;
  return (
    <ChatApp
      api="/api/chat-edge"
      title="agentcore chat on the edge"
      {...(typeof chat === "string" ? { chatId: chat } : {})}
    />
  );
}

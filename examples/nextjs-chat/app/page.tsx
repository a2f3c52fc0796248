import { Chat } from "../components/chat";

/** The chat on the Node route (app/api/chat, a file store). */
export default function ChatPage() {
  return <Chat api="/api/chat" title="agentcore chat" />;
}

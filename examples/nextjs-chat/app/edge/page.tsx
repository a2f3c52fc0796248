import { Chat } from "../../components/chat";

/** The same chat on the edge route (app/api/chat-edge, the Upstash store). */
export default function EdgeChatPage() {
  return <Chat api="/api/chat-edge" title="agentcore chat on the edge" />;
}

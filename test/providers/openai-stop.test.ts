// stopRun against the official openai client on a loopback server: the provider's HTTP request is
// closed, and the text received until then is the stored, stopped answer.
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import { stopRun } from "../../src/agent/stop-run";
import { contentText } from "../../src/messages/content-text";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { openaiStream } from "../servers/wire-formats";

startFakeLlmServerPerTest();

describe("stopRun on the openai provider (official SDK, loopback server)", () => {
  it("closes the provider's request and stores the text received, marked stopped", async () => {
    // Two text pieces, then the response stays open (the model is still writing).
    server.enqueue(openaiStream({ text: "This answer is long and will never finish." }, { hang: true }));
    const store = new InMemoryStore();
    const model = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o-mini");
    const stream = new Agent({ model, memoryStore: store }).stream({ input: "Talk", sessionId: "openai-stop" });
    let received = "";
    for await (const delta of stream.textStream) {
      received += delta;
      if (received === "This answe") break;
    }
    await stopRun({ sessionId: "openai-stop", memoryStore: store });
    const result = await stream.response;
    expect(result.finishReason).toBe("stopped");
    expect(result.text).toBe("This answe");
    await server.waitForEarlyClose();
    expect(server.closedEarly).toBe(1);
    const stored = await store.getMessages("openai-stop");
    expect(stored.map((message) => contentText(message.content))).toEqual(["Talk", "This answe"]);
    expect(stored[1]).toMatchObject({ role: "assistant", finishReason: "stopped" });
  });
});

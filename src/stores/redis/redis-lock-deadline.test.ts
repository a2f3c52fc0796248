// RedisMemoryStore's lockSession settles within its own timeoutMs when the server does not answer,
// whatever ioredis' own timeouts (none here: no commandTimeout, no retry limit): a loopback TCP
// server reads what the client sends and never answers (ioredis' HELLO handshake stays unanswered,
// so the lock's SET waits behind it in the client), and the lock call must reject while the server
// still holds the connection.
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { SessionBusyError } from "../../errors/session-busy-error";
import { RedisMemoryStore } from "./redis-memory-store";

const sockets = new Set<Socket>();
let received = "";
let announce: () => void = () => {};
const spoken = new Promise<void>((resolve) => (announce = resolve));
const silent = createServer((socket) => {
  sockets.add(socket);
  socket.on("data", (chunk) => {
    received += chunk.toString("utf8");
    announce();
  });
  socket.on("close", () => sockets.delete(socket));
});
await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
const client = new Redis({
  host: "127.0.0.1",
  port: (silent.address() as AddressInfo).port,
  enableReadyCheck: false,
  maxRetriesPerRequest: null,
  lazyConnect: false,
});
client.on("error", () => {});
afterAll(async () => {
  client.disconnect();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe("RedisMemoryStore lockSession deadline", () => {
  it("rejects with SessionBusyError at its own timeoutMs while the server still holds the connection unanswered", async () => {
    const store = new RedisMemoryStore({ client, prefix: "deadline:" });
    const outcome = await store.lockSession("s", { timeoutMs: 500 }).then(
      () => new Error("the lock was taken"),
      (error: unknown) => error,
    );
    expect(SessionBusyError.isInstance(outcome), String(outcome)).toBe(true);
    // The client spoke, the server never answered, and the connection is still open.
    await spoken;
    expect(received).not.toBe("");
    expect(sockets.size).toBe(1);
  });
});

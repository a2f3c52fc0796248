// The loopback Upstash REST bridge (helpers/upstash-rest-bridge.ts) answers the real
// @upstash/redis client as Upstash does: commands, pipelines, transactions, scripts, the base64
// response encoding, errors and the bearer token.
import { Redis } from "@upstash/redis";
import { afterAll, describe, expect, it } from "vitest";
import { serviceAvailable, uniqueName } from "./helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "./helpers/upstash-rest-bridge";

const available = await serviceAvailable("redis");

describe.skipIf(!available)("the Upstash REST bridge", async () => {
  const bridge: UpstashRestBridge | undefined = available ? await startUpstashRestBridge() : undefined;
  afterAll(async () => {
    await bridge?.close();
  });
  const prefix = `${uniqueName("agentcore-bridge")}:`;
  const client = (options: { responseEncoding?: false; token?: string } = {}) =>
    new Redis({
      url: bridge!.url,
      token: options.token ?? bridge!.token,
      retry: false,
      enableTelemetry: false,
      enableAutoPipelining: false,
      ...options,
    });

  it.each([{}, { responseEncoding: false as const }])(
    "round-trips strings byte for byte, JSON values and nil (%o)",
    async (options) => {
      const redis = client(options);
      const text = 'é ✓ 😀 \u0000 OK "quoted"';
      expect(await redis.set(`${prefix}text`, text)).toBe("OK");
      expect(await redis.get(`${prefix}text`)).toBe(text);
      await redis.set(`${prefix}json`, { a: [1, "two"] });
      expect(await redis.get(`${prefix}json`)).toEqual({ a: [1, "two"] });
      await redis.set(`${prefix}ok`, "OK");
      expect(await redis.get(`${prefix}ok`)).toBe("OK");
      expect(await redis.get(`${prefix}missing`)).toBeNull();
      await redis.rpush(`${prefix}list`, "x", "ü");
      expect(await redis.lrange(`${prefix}list`, 0, -1)).toEqual(["x", "ü"]);
      await redis.del(`${prefix}list`);
      await redis.hset(`${prefix}hash`, { field: "välue", count: "2" });
      expect(await redis.hgetall(`${prefix}hash`)).toEqual({ field: "välue", count: 2 }); // a flat array on the wire, as Redis sends it
      expect(await redis.hgetall(`${prefix}missing`)).toBeNull();
      if (options.responseEncoding === undefined) expect(bridge!.requests.at(-1)).toMatchObject({ path: "/" });
    },
  );

  it("encodes results in base64 when the client asks (its default), except the status OK", async () => {
    const response = await fetch(bridge!.url, {
      method: "POST",
      headers: { authorization: `Bearer ${bridge!.token}`, "upstash-encoding": "base64" },
      body: JSON.stringify(["ECHO", "é"]),
    });
    expect(await response.json()).toEqual({ result: Buffer.from("é").toString("base64") });
    const plain = await fetch(bridge!.url, {
      method: "POST",
      headers: { authorization: `Bearer ${bridge!.token}` },
      body: JSON.stringify(["SET", `${prefix}plain`, "v"]),
    });
    expect(await plain.json()).toEqual({ result: "OK" });
  });

  it("runs pipelines in order with per-command errors, and transactions atomically", async () => {
    const redis = client();
    const results = await redis.pipeline().set(`${prefix}n`, 1).incr(`${prefix}n`).get(`${prefix}n`).exec();
    expect(results).toEqual(["OK", 2, 2]);
    expect(bridge!.requests.at(-1)!.path).toBe("/pipeline");
    const kept = await redis
      .pipeline()
      .set(`${prefix}s`, "text")
      .incr(`${prefix}s`)
      .get(`${prefix}s`)
      .exec({ keepErrors: true });
    expect(kept.map((entry) => entry.error)).toEqual([
      undefined,
      "ERR value is not an integer or out of range",
      undefined,
    ]);
    expect(await redis.multi().incr(`${prefix}n`).incr(`${prefix}n`).exec()).toEqual([3, 4]);
    expect(bridge!.requests.at(-1)!.path).toBe("/multi-exec");
    // A command refused when queued aborts the whole transaction: nothing of it runs.
    const aborted = await fetch(`${bridge!.url}/multi-exec`, {
      method: "POST",
      headers: { authorization: `Bearer ${bridge!.token}` },
      body: JSON.stringify([
        ["INCR", `${prefix}n`],
        ["SET", `${prefix}n`],
      ]),
    });
    expect(aborted.status).toBe(400);
    expect((await aborted.json()).error).toMatch(/^EXECABORT/);
    expect(await redis.get(`${prefix}n`)).toBe(4);
  });

  it("passes scripts through: EVAL, SCRIPT LOAD, EVALSHA", async () => {
    const redis = client();
    const script = "return {KEYS[1], ARGV[1], 7}";
    expect(await redis.eval(script, [`${prefix}k`], ["a"])).toEqual([`${prefix}k`, "a", 7]);
    const sha = await redis.scriptLoad(script);
    expect(await redis.evalsha(sha, [`${prefix}k`], ["b"])).toEqual([`${prefix}k`, "b", 7]);
    await expect(redis.evalsha("0".repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });

  it("answers 401 to a wrong token and 400 with the error to a failing command", async () => {
    await expect(client({ token: "wrong" }).get(`${prefix}x`)).rejects.toThrow(/Unauthorized/);
    await expect(client().incr(`${prefix}text`)).rejects.toThrow(/ERR value is not an integer/);
  });
});

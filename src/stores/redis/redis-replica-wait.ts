import type { ChainableCommander } from "ioredis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";

/** How many replicas must acknowledge each write, and how long to wait for them (Redis `WAIT`). */
export interface RedisReplicaWait {
  /** Replicas that must have the write before it counts as done. */
  replicas: number;
  /** Milliseconds to wait for them; the write fails with a `StoreError` when fewer answered in time. */
  timeoutMs: number;
}

/** Checks the `waitForReplicas` option. */
export function replicaWaitOption(value: RedisReplicaWait | undefined): RedisReplicaWait | undefined {
  if (value === undefined) return undefined;
  const positiveInteger = (number: unknown) => typeof number === "number" && Number.isInteger(number) && number > 0;
  if (
    value === null ||
    typeof value !== "object" ||
    !positiveInteger(value.replicas) ||
    !positiveInteger(value.timeoutMs)
  ) {
    throw new InvalidArgumentError({
      argument: "waitForReplicas",
      value,
      message:
        "waitForReplicas must be { replicas, timeoutMs }, two positive integers (replicas that must acknowledge each write, and milliseconds to wait for them).",
    });
  }
  return { replicas: value.replicas, timeoutMs: value.timeoutMs };
}

/**
 * Sends the pipeline's commands and then `WAIT replicas timeoutMs` on the same connection (so on
 * a Redis Cluster, to the master of the commands' slot). Resolves to the commands' replies;
 * throws the first command's error, or an error saying how few replicas acknowledged in time
 * (the write is then on the master only, and a failover before it replicates would lose it).
 */
export async function execWaitingForReplicas(pipeline: ChainableCommander, wait: RedisReplicaWait): Promise<unknown[]> {
  const replies = (await pipeline.call("WAIT", wait.replicas, wait.timeoutMs).exec()) ?? [];
  const values = replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
  const acknowledged = Number(values.pop());
  if (acknowledged < wait.replicas) {
    throw new Error(
      `only ${acknowledged} of ${wait.replicas} replica(s) acknowledged the write within ${wait.timeoutMs} ms (waitForReplicas): it is on the master, and a failover before it replicates would lose it`,
    );
  }
  return values;
}

// The conformance suite must be able to fail: run it on deliberately broken stores in a
// separate vitest process and check that it fails exactly the tests that should catch them.
import { describe, expect, it } from "vitest";
import { runFixtureSuite } from "./helpers/fixture-suite";

describe("testMemoryStore", () => {
  it("fails broken stores: non-idempotent racy appends, plain JSON that loses bytes, ids that collide, a miscounted tail, unchecked limits, a frozen accessedAt, a missing required capability, summaries read whole, a delete that keeps what follows", () => {
    const run = runFixtureSuite("test/fixtures/vitest.fixture.config.ts");
    expect(run.status).not.toBe(0);
    const { failed } = run;
    expect(
      failed
        .filter((name) => name.includes("RacyStore"))
        .map((name) => name.replace(/^MemoryStore conformance: RacyStore /, ""))
        .sort(),
    ).toEqual([
      "appendMessages (optional) is idempotent by message id [appendMessages]",
      "appendMessages (optional) loses and duplicates nothing under concurrent appends, keeping each writer's order [appendMessages]",
      // It appends a retried turn twice after a cut.
      "deleteMessagesFrom (optional) deletes from the message on, keeps the rest and other sessions, and appends after the cut [deleteMessagesFrom]",
      // Its append drops the usage that rides on it: the ledger misses the turns (Bob's among them).
      "deleting a user's data (optional) deletes everything of the user and nothing of anyone else, and is safe to repeat [deleteUserData, listSessions, getSummaries, saveSummary]",
      "getMessageTail (optional) agrees with getMessages under concurrent appends [getMessageTail, appendMessages]",
      "getMessageTail (optional) follows setMessages, appends and clearMessages [getMessageTail]",
      "the usage ledger (optional) adds a generated title's usage [getUsage, listSessions]",
      "the usage ledger (optional) adds a turn's usage with its messages, once [getUsage, listSessions]",
      "the usage ledger (optional) counts a user's usage since a day [getUsage]",
      "the usage ledger (optional) sums a user's sessions under concurrent turns, and keeps users apart [getUsage]",
    ]);
    expect(
      failed
        .filter((name) => name.includes("MiscountingTailStore"))
        .map((name) => name.replace(/^MemoryStore conformance: MiscountingTailStore /, ""))
        .sort(),
    ).toEqual([
      // Its tail's size after a cut is not the session's.
      "deleteMessagesFrom (optional) deletes from the message on, keeps the rest and other sessions, and appends after the cut [deleteMessagesFrom]",
      "getMessageTail (optional) agrees with getMessages under concurrent appends [getMessageTail, appendMessages]",
      "getMessageTail (optional) follows setMessages, appends and clearMessages [getMessageTail]",
      "getMessageTail (optional) returns the last messages, oldest first, and the session's size [getMessageTail]",
      "getMessageTail (optional) rounds a fractional limit down and reads a huge or infinite one as the whole history [getMessageTail]",
    ]);
    expect(
      failed
        .filter((name) => name.includes("LaxLimitStore"))
        .map((name) => name.replace(/^MemoryStore conformance: LaxLimitStore /, ""))
        .sort(),
    ).toEqual([
      "getMessageTail (optional) rejects a negative or non-numeric limit with an InvalidArgumentError [getMessageTail]",
    ]);
    expect(failed.some((name) => name.includes("CollidingStore") && name.includes("isolates sessions"))).toBe(true);
    // Messages kept as plain JSON: images' bytes come back as objects, URLs as strings.
    expect(
      failed
        .filter((name) => name.includes("PlainJsonStore"))
        .map((name) => name.replace(/^MemoryStore conformance: PlainJsonStore /, ""))
        .sort(),
    ).toEqual([
      "messages (required) keeps parts' bytes apart from the caller's: changing given or read bytes changes nothing stored",
      "messages (required) round-trips content parts losslessly: bytes, data: URLs, URLs, files, reasoning, tool images",
    ]);
    // accessedAt frozen after the first write: the metadata test and prune (which would delete a session in use) catch it.
    expect(
      failed
        .filter((name) => name.includes("FrozenAccessStore"))
        .map((name) => name.replace(/^MemoryStore conformance: FrozenAccessStore /, ""))
        .sort(),
    ).toEqual([
      "prune (optional) deletes sessions not written since olderThan and keeps the rest [prune]",
      "session metadata (optional) records createdAt, accessedAt, messageCount, agentName and tags [getSession, updateSession]",
    ]);
    // A capability the store must have (requireCapabilities) fails when it is missing, instead of passing empty.
    expect(
      failed
        .filter((name) => name.includes("MissingPruneStore"))
        .map((name) => name.replace(/^MemoryStore conformance: MissingPruneStore /, ""))
        .sort(),
    ).toEqual([
      "context reports (optional) prunes reports with their session [saveContextReport, getContextReports, prune]",
      "prune (optional) deletes sessions not written since olderThan and keeps the rest [prune]",
    ]);
    // A store whose getSummaries ignores { last } fails that one test, with a message saying why it matters.
    const allSummaries = run.tests.filter(
      (test) => test.status === "failed" && test.fullName.includes("AllSummariesStore"),
    );
    expect(
      allSummaries.map((test) => test.fullName.replace(/^MemoryStore conformance: AllSummariesStore /, "")),
    ).toEqual([
      "summaries (optional) reads only the newest summaries with { last }, oldest first [getSummaries, saveSummary]",
    ]);
    expect(allSummaries[0]!.failureMessages.join("\n")).toMatch(/ignores `last` still works with the agent/);
    // deleteMessagesFrom that removes only the message named, ignores an unknown id and keeps summaries.
    expect(
      failed
        .filter((name) => name.includes("SloppyDeleteStore"))
        .map((name) => name.replace(/^MemoryStore conformance: SloppyDeleteStore /, ""))
        .sort(),
    ).toEqual([
      "deleteMessagesFrom (optional) deletes from the message on, keeps the rest and other sessions, and appends after the cut [deleteMessagesFrom]",
      "deleteMessagesFrom (optional) drops the summaries that cover a deleted message and keeps the others [deleteMessagesFrom, getSummaries, saveSummary]",
      "deleteMessagesFrom (optional) rejects an unknown id with a MessageNotFoundError and deletes nothing [deleteMessagesFrom]",
      // The answer it keeps after the cut stays the preview.
      "titles, metadata and previews (optional) keeps the last text as the preview [listSessions, deleteMessagesFrom]",
    ]);
    expect(
      failed.filter(
        (name) =>
          !/RacyStore|PlainJsonStore|CollidingStore|MiscountingTailStore|LaxLimitStore|FrozenAccessStore|MissingPruneStore|AllSummariesStore|SloppyDeleteStore/.test(
            name,
          ),
      ),
    ).toEqual([]);
  }, 60_000);
});

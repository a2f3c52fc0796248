// A session's title being generated during its first turn (`generateTitle`): made by `startTitle` (session-title.ts).

/** A title being generated for a run's session. */
export interface PendingTitle {
  /** The title, once the model answered with one (not yet written: `written` says when it is). */
  readonly generated: string | undefined;
  /** Resolves with the title once written; undefined when none was (a title already there, a failure, a failed turn). Never rejects. */
  readonly written: Promise<string | undefined>;
  /** The turn completed: write the title when it is generated. */
  commit(): void;
  /** The turn failed: write nothing (the call is aborted if still running). */
  abandon(): void;
}

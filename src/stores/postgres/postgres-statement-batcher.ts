/** The most requests one statement carries (a bound on its size and on the work one failure redoes). */
const MAX_BATCH = 64;

/**
 * Sends a store's requests of one kind (appends, lease takes) in shared statements: a request made
 * while a statement of this batcher is running waits for it, and all that waited go together in one
 * statement (`send`), one transaction; each caller is answered only once that statement committed.
 * A request with nothing running goes at once, alone, so a lone request waits for nothing; the
 * wait is bounded by one statement (at most `maxInFlight` run at a time). One statement holds at
 * most one request per session, so requests to a session keep their order. A batch that fails for
 * another reason than its connection is retried one request at a time (it rolled back whole), so
 * one bad request never fails the others. `send` must throw only for the statement: what fails one
 * request alone (encoding its values, parsing what it read) is done by that request's caller,
 * before `submit` or after its answer, since any other error is taken for a lost connection and
 * rejects the whole batch.
 */
export class PostgresStatementBatcher<Request extends { sessionId: string }, Answer> {
  private readonly waiting: {
    request: Request;
    resolve: (answer: Answer) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private inFlight = 0;

  constructor(
    /** Runs one statement for the requests (of distinct sessions); resolves to their answers, in the same order. */
    private readonly send: (requests: Request[]) => Promise<Answer[]>,
    private readonly isConnectionError: (error: unknown) => boolean,
    private readonly maxInFlight: number,
  ) {}

  submit(request: Request): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.take();
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The next batch: waiting requests in order, the first of each session, at most `MAX_BATCH`. */
  private take(): typeof this.waiting {
    const batch: typeof this.waiting = [];
    const sessions = new Set<string>();
    for (let index = 0; index < this.waiting.length && batch.length < MAX_BATCH; ) {
      const entry = this.waiting[index]!;
      if (sessions.has(entry.request.sessionId)) {
        index++;
        continue;
      }
      sessions.add(entry.request.sessionId);
      batch.push(entry);
      this.waiting.splice(index, 1);
    }
    return batch;
  }

  private async run(batch: typeof this.waiting): Promise<void> {
    try {
      const answers = await this.send(batch.map((entry) => entry.request));
      for (const [index, entry] of batch.entries()) entry.resolve(answers[index]!);
    } catch (error) {
      if (batch.length === 1 || this.isConnectionError(error)) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      // Rolled back whole: each request again on its own, so only a bad one fails.
      await Promise.all(batch.map((entry) => this.run([entry])));
    }
  }
}

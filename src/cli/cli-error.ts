/** A failure the command reports as one line on stderr, with its exit code (2: usage or an unreachable store). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = "CliError";
  }
}

import { statSync, type Stats } from "node:fs";
import { access, open, stat, type FileHandle } from "node:fs/promises";

/** Opens a file for reading; undefined when it does not exist. */
export async function openIfExists(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Stats a file; undefined when it does not exist. */
export async function statIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** `statIfExists`, synchronously: for the one-stat checks made under the writers' lock, where a thread-pool round trip costs more than the call. */
export function statIfExistsSync(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

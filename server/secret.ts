/**
 * Key custody: the API key lives only with the server, from
 * COMPANY_DATA_API_KEY or from a key file (--key-file, or
 * COMPANY_DATA_API_KEY_FILE) that only the server's user may read: a file
 * others can read (any group or other permission bit) or that belongs to
 * another user is refused, as ssh refuses a private key others can read.
 * The key is handed to the shared client, which puts it in the
 * Authorization header of upstream requests and nowhere else.
 */
import { readFileSync, statSync } from "node:fs";

export class KeyFileError extends Error {}

export function readApiKey(env: NodeJS.ProcessEnv, keyFile: string | undefined): string | undefined {
  const file = keyFile ?? env.COMPANY_DATA_API_KEY_FILE?.trim();
  if (file) {
    let st;
    try {
      st = statSync(file);
    } catch {
      throw new KeyFileError(`key file ${file} cannot be read`);
    }
    if ((st.mode & 0o077) !== 0)
      throw new KeyFileError(
        `key file ${file} is readable by others (mode ${(st.mode & 0o777).toString(8)}); chmod 600 ${file}`,
      );
    if (typeof process.getuid === "function" && st.uid !== process.getuid())
      throw new KeyFileError(`key file ${file} belongs to another user; it must belong to the user the server runs as`);
    const key = readFileSync(file, "utf8").trim();
    if (!key) throw new KeyFileError(`key file ${file} is empty`);
    return key;
  }
  return env.COMPANY_DATA_API_KEY?.trim() || undefined;
}

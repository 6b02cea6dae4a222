/**
 * What a write error on standard output means. A reader that went away (EPIPE: `citeproof verify ... |
 * head`) is not a failure of the command: the rest of the output is dropped quietly and the command
 * ends with its own exit code. Any other failure (ENOSPC on a full disk, EIO) goes to `failed`. No
 * imports: the served call's client uses it before it loads anything else.
 */
export function onWriteError(
  stream: NodeJS.WriteStream,
  failed: (error: NodeJS.ErrnoException) => void,
): void {
  let readerGone = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (readerGone) return;
    if (error.code === "EPIPE") {
      readerGone = true;
      return;
    }
    failed(error);
  });
}

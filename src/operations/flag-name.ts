/**
 * How a command line names a field: `timeout_ms` is `--timeout-ms`. The CLI and the batch runner (whose
 * lines are the CLI's own documents) name settings this way.
 */
export function flagName(option: string): string {
  return `--${option.replace(/_/g, "-")}`;
}

import { type AppConfig, ConfigError, loadConfig } from "../config.ts";

/**
 * The server's configuration for an operator's command-line tool (`npm run announce`, `after-sale`, `set-master`,
 * `firmware`): {@link loadConfig} from the environment. A configuration error is written to stderr as one line (the
 * message names the variable, never its value) and null is returned, for the tool to exit with status 2.
 * @throws anything but a ConfigError, unchanged.
 */
export function loadCliConfig(stderr: (text: string) => void = (text) => process.stderr.write(text)): AppConfig | null {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      stderr(`${err.message}\n`);
      return null;
    }
    throw err;
  }
}

import { installShell } from "./install.ts";

// www/native-shell.js (scripts/build-web.ts): a classic script that runs before the boot script and the app's code.
installShell();

import { installShell } from "./install.ts";

// www/native-shell.js (scripts/build-web.ts): a classic script that runs before boot.js and the app's code.
installShell();

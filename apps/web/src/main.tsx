import { unstableSetRender } from "antd-mobile";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App, queryClient } from "./app/app.tsx";
import { preloadFirstScreen } from "./first-paint/first-screen.ts";
import { intlWarmed, warmIntlOffThread } from "./first-paint/intl-warm.ts";
import { afterFirstScreen, holdUntilFirstScreen, nextTask } from "./first-paint/scheduling.ts";
import { firstScreenComplete, showingSnapshot, showStaged, stageBeneathSnapshot } from "./first-paint/snapshot.ts";
import { setApiBaseUrl } from "./shared/api/api-host.ts";
import { setTenant } from "./shared/api/transport.ts";
import { registerServiceWorker } from "./shared/auth/service-worker.ts";
import { loadGrantedPolicies } from "./shared/auth/session.ts";
import { getNativeConfig, getNativeLanguage } from "./shared/bridge/index.ts";
import { changeLanguage, loadTexts, resolveStartupLanguage } from "./shared/i18n/index.ts";
import { removeRetiredKeys } from "./shared/storage/index.ts";
import { loadAntdLocale } from "./shared/ui/antd-locale.ts";
import { antdRender } from "./shared/ui/antd-render.ts";
import { followTextScale } from "./shared/ui/text-scale.ts";
import "./styles.css";

/**
 * Entry point: the antd-mobile React 19 render shim (without it Toast/Dialog render nothing), the language of spec §4
 * (stored `lang`, else the native app's, reload only when none was stored), the native config's tenant and API host (a
 * native shell's cloud) for every call and its status bar and safe-area sizes as CSS variables, then the React root.
 */
unstableSetRender(antdRender);

/**
 * The longest a showing Home snapshot, or a first screen that holds its first render, waits for the screen's chunk,
 * texts and first calls before the first render, ms.
 */
const SNAPSHOT_HOLD_MS = 3_000;

/**
 * The longest the snapshot stays on screen once the live Home has started drawing beneath it, ms: the screen says when
 * it is complete (`firstScreenDrawn`); a screen that never says so (another route after all) is shown after this.
 */
const SNAPSHOT_DRAW_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function start(): Promise<void> {
  // Start-up runs in tasks of its own, apart from the modules' evaluation and from each other (Lighthouse's total
  // blocking time). The first screen's chunks start loading first, beside the native calls and the texts.
  await nextTask();
  const first = preloadFirstScreen(window.location.hash);
  await nextTask();
  const [nativeLanguage, config] = await Promise.all([getNativeLanguage(), getNativeConfig()]);
  const { lang, reload } = resolveStartupLanguage(nativeLanguage);
  if (reload) {
    window.location.reload();
    return;
  }
  // The engine's locale data starts on another thread while the first screen's code and calls load (the
  // page's first number formatter was one task of 50-100 ms, several times that on a slow phone). The screens without
  // a session (Login, Register) show no figures: there it starts once the first screen is in (below), ready for Home.
  if (first.needsSession) void warmIntlOffThread(lang);
  // Each start-up step below comes in a task of its own (the worker's start, the texts' imports, the first calls and
  // the permissions were one task of 15-20 ms observed, right after the app's code, delaying its time to interactive).
  await nextTask();
  // The shell's tenant goes with every API and token call (spec §3 native config; ABP's `__tenant` header).
  setTenant(config.tenant);
  // Inside a shell the page's origin is the web view's own (https://localhost, capacitor://localhost): every call,
  // token call, hub and image goes to the cloud the shell names. A plain browser keeps its origin.
  if (config.apiBaseUrl) setApiBaseUrl(config.apiBaseUrl);
  // Texts of the open screens and antd-mobile's locale, in this language only: a phone downloads no other. The first
  // screen's own groups load beside them without holding start-up: a group that fails shows that route's error page.
  const texts = Promise.all([changeLanguage(lang), loadAntdLocale(lang)]);
  const screenTexts = loadTexts(lang, first.textGroups).catch(() => undefined);
  await nextTask();
  // The first screen's own calls (Home's families, devices and dashboard) start now, in this tenant and, while the
  // texts load, already in this language (`requestLanguage`), beside its chunk and before its first render (no
  // request waterfall).
  // What is not the first screen (the real-time client, the message centre, the pull gesture) waits for these calls
  // and their paint.
  const firstData = first.loadData(queryClient);
  // Drawn beneath a snapshot or copy, the first screen is in only once it is shown (below): what waits for it (the
  // real-time client, the background watchers) then never starts its downloads before that screen's largest paint
  // (on the Device screen opened first, they started while it was still being drawn).
  let shown: () => void = () => {};
  const firstScreenShown = new Promise<void>((resolve) => {
    shown = resolve;
  });
  holdUntilFirstScreen(Promise.allSettled([firstData, firstScreenShown]));
  if (!first.needsSession) void afterFirstScreen().then(() => warmIntlOffThread(lang));
  // What an earlier version kept and this one no longer reads goes too, once the first screen is in.
  void afterFirstScreen().then(removeRetiredKeys);
  if (first.needsSession) await nextTask();
  // Signed in: the permissions the guard checks (spec §4), asked likewise before the first render; the guard's own
  // call joins this one and handles a failure.
  const policies = first.needsSession ? loadGrantedPolicies().catch(() => undefined) : Promise.resolve();
  await texts;
  // A prerendered copy of the first screen is showing (index.html, apps/web/src/first-paint/boot.js): the first render
  // must be that screen itself, not the route's loading fallback, so its chunk and texts are in before it.
  const prerendered = document.documentElement.hasAttribute("data-prerender");
  if (prerendered) await Promise.all([first.ready, screenTexts]);
  // The last Home the owner saw is showing (apps/web/src/first-paint/boot.js, first-paint/snapshot.ts): the first
  // render must be Home with its data, not its skeletons or the guard's wait, so it replaces the snapshot with the same
  // screen; at most SNAPSHOT_HOLD_MS. A first screen that holds its first render (the Device screen) waits likewise, so
  // it draws once with its data instead of a spinner, an empty frame and then the data. Both wait for the locale data's
  // start on the other thread too, so their figures' formatters are not built in a task of the page.
  const snapshot = showingSnapshot();
  if (snapshot || first.holdsFirstRender) {
    const all = Promise.all([first.ready, screenTexts, firstData, policies, intlWarmed()]);
    await Promise.race([all, sleep(SNAPSHOT_HOLD_MS)]);
  }
  // The phone's text size picks the layout (large text wraps instead of being cut), before the first screen draws.
  followTextScale();
  const style = document.documentElement.style;
  if (config.statusBarHeight) style.setProperty("--native-status-bar", `${config.statusBarHeight}px`);
  if (config.safeAreaBottom) style.setProperty("--native-safe-bottom", `${config.safeAreaBottom}px`);

  const container = document.getElementById("root");
  if (!container) throw new Error("#root missing in index.html");
  await nextTask();
  // Over a snapshot, the live Home is drawn beneath it in short tasks (its cards one per task) and replaces it in one
  // step once complete (one 60-70 ms render of the whole screen was most of Home's blocking time). A first
  // screen that holds its first render (the Device screen) is drawn the same way, out of sight, section by section,
  // and shown at once (its one render was a task of 150-250 ms on a slow phone); so is Login beneath its prerendered
  // copy (its one render was a task of 40-150 ms).
  const staged = snapshot || first.holdsFirstRender || prerendered;
  const target = staged ? stageBeneathSnapshot(container) : container;
  const root = createRoot(target);
  // A transition: React (development, unit tests) renders the first screen in slices of a few milliseconds, yielding
  // to the browser between them (Lighthouse's total blocking time); Preact, which the production build runs
  // on, renders it at once. Either way the prerendered copy stays on screen until the commit.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
  if (staged) {
    await firstScreenComplete(SNAPSHOT_DRAW_MS);
    showStaged(container, target);
  }
  shown();
  // antd-mobile's animations follow the system's reduced-motion setting; loaded off the first screen.
  void afterFirstScreen()
    .then(() => import("./shared/ui/reduced-motion.ts"))
    .then((motion) => motion.followReducedMotion());
  // Web Push for the installed web app; a no-op inside the native shells and where unsupported.
  if (import.meta.env.PROD) void registerServiceWorker();
}

void start();

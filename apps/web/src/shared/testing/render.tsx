import { HUB_METHODS, type Language } from "@aquapilot/contract/wire";
import type { QueryClient } from "@tanstack/react-query";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, type RenderResult, render, screen, waitFor, within } from "@testing-library/react";
import { ConfigProvider, unstableSetRender } from "antd-mobile";
import enUS from "antd-mobile/es/locales/en-US";
import { type ReactElement, type ReactNode, useLayoutEffect } from "react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter, useLocation, useNavigate } from "react-router";
import { afterEach, vi } from "vitest";
import { createAppQueryClient } from "../api/query-client.ts";
import { signOut } from "../auth/session.ts";
import { changeLanguage, i18n } from "../i18n/index.ts";
import { resolveAppTarget, setNavigator } from "../navigation/index.ts";
import { resetOverlayHistory } from "../navigation/overlay-history.ts";
import { FakeConnection } from "../realtime/fake-connection.ts";
import { DeviceChangeChannel, setDeviceChannel } from "../realtime/index.ts";
import { loadHubModule } from "../realtime/lazy-hub.ts";
import { setItem } from "../storage/index.ts";
import { antdRender } from "../ui/antd-render.ts";
import { Toast } from "../ui/toast.ts";
import { type FakeApi, type FakeRoutes, fakeApi, type RawRoutes } from "./fake-api.ts";

export { type FakeApi, type FakeRoutes, fail, never } from "./fake-api.ts";

/**
 * Screen tests' `render()` (tests only): a screen inside the providers the app gives it — a fresh
 * TanStack Query client (the app's, retries off), i18next in English, antd-mobile's English locale and its React 19
 * overlay render (toasts and dialogs show in the document), a memory router at `route` wired to `navigateTo` /
 * `goBack`, a fake hub-1 connection — and a fake server ({@link fakeApi}) answering the screen's calls by endpoint
 * name.
 */

/** The signed-in user of a test: name and granted permissions (spec §3 login info, §6). */
export interface TestSession {
  userName?: string;
  grantedPolicies?: string[];
}

/** Options of {@link renderScreen}. */
export interface RenderScreenOptions {
  /**
   * Where the screen is, as the app's router would show it: a path with its query, e.g.
   * `"/FamilyDetails?params=" + encodeURIComponent(JSON.stringify({familyId: "f1"}))` (see {@link routeOf}).
   */
  route?: string;
  /** The fake server's answers by endpoint name (see `FakeRoutes`). */
  api?: FakeRoutes;
  /** Answers of calls outside the contract's table by "METHOD /path", e.g. the token call (see `RawRoutes`). */
  raw?: RawRoutes;
  /** Signed in (a token and login info are stored; default) with these permissions, or `null` for signed out. */
  session?: TestSession | null;
  /** The interface language (default English). */
  language?: Language;
}

/** What {@link renderScreen} answers: Testing Library's result plus the fake server, the router and the toasts. */
export interface ScreenHandle extends RenderResult {
  api: FakeApi;
  queryClient: QueryClient;
  /** The router's current path and query, e.g. "/FamilyList" or "/App?target=%2FFamilyDetails&params=…". */
  location(): string;
  /**
   * Where the screen navigated last, resolved through the start-up route as the app does (spec §2): the target path
   * and query, e.g. `"/FamilyDetails?params=%7B%22familyId%22%3A%22f1%22%7D"`; null when it has not navigated.
   */
  navigatedTo(): string | null;
  /** The navigation params (`params` query value) of the last navigation, parsed. */
  navigatedParams(): Record<string, unknown>;
  /** Whether the screen went back (`goBack`, `navigate(-1)`). */
  wentBack(): boolean;
  /**
   * The hub-1 connection behind `deviceChannel()` (spec §7): a fake the test drives, e.g.
   * `hub.send(HUB_METHODS.deviceChange, message)` to push a live device message.
   */
  hub: FakeConnection;
  /**
   * Pushes one hub-1 message (spec §7 `DeviceChangContentTypeMessage`, e.g. `{kind: "state", deviceId, online, …}`)
   * to the screen as the server would: loads the hubs' message schemas first, waits until the screen listens, and
   * sends it as the JSON text the hub carries.
   */
  sendDeviceChange(message: object): Promise<void>;
  /** Texts of the toasts shown so far (error toasts of failed queries included), in order. */
  toasts(): string[];
  /** Waits (up to a second) until a toast with exactly `text` was shown; throws otherwise. */
  findToast(text: string): Promise<void>;
}

/** A route with navigation params as the app writes them (spec §2: params as JSON in one query value). */
export function routeOf(path: string, params?: object): string {
  return params ? `${path}?params=${encodeURIComponent(JSON.stringify(params))}` : path;
}

let antdReady = false;

/** The screen's router state, reported to the handle. */
interface RouterProbe {
  location: string;
  history: string[];
  back: boolean;
}

function RouterBridge({ probe, children }: { probe: RouterProbe; children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  probe.location = location.pathname + location.search;
  useLayoutEffect(() => {
    setNavigator({
      navigate: (to, options) => {
        if (typeof to === "number") {
          probe.back = true;
          return navigate(to);
        }
        probe.history.push(to);
        return navigate(to, options);
      },
    });
    return () => setNavigator(null);
  }, [navigate, probe]);
  return <>{children}</>;
}

/**
 * Renders `ui` as a screen for a test: providers, router at `options.route`, a signed-in session (unless `session:
 * null`) and a fake server for `options.api`. Waits a tick so the first calls have gone out. Everything is undone
 * after the test (unmount, fetch restored, storage cleared, navigator unset).
 */
export async function renderScreen(ui: ReactElement, options: RenderScreenOptions = {}): Promise<ScreenHandle> {
  if (!antdReady) {
    unstableSetRender(antdRender);
    antdReady = true;
  }
  localStorage.clear();
  signOut();
  resetOverlayHistory();
  await changeLanguage(options.language ?? "en");
  const session = options.session === undefined ? {} : options.session;
  if (session) {
    setItem("token", { accessToken: "test-token", refreshToken: "test-refresh", expiresAt: Date.now() + 3_600_000 });
    setItem("loginInfo", {
      userName: session.userName ?? "tester",
      grantedPolicies: session.grantedPolicies ?? [],
      token: "test-token",
    });
  }
  const api = fakeApi(options.api, options.raw);
  const hub = new FakeConnection();
  setDeviceChannel(new DeviceChangeChannel(() => hub));
  const shown: string[] = [];
  const showToast = Toast.show.bind(Toast);
  vi.spyOn(Toast, "show").mockImplementation((props) => {
    const content = typeof props === "string" ? props : props.content;
    if (typeof content === "string") shown.push(content);
    showToast(props);
  });
  const queryClient = createAppQueryClient((text) => Toast.show({ content: text, position: "center" }));
  queryClient.setDefaultOptions({
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
    mutations: { retry: false },
  });
  // One page behind this one, as in the app, so `goBack()` goes back instead of falling back to Home.
  window.history.pushState(null, "", window.location.href);
  const probe: RouterProbe = { location: options.route ?? "/", history: [], back: false };
  let result!: RenderResult;
  await act(async () => {
    result = render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <ConfigProvider locale={enUS}>
            <MemoryRouter initialEntries={[options.route ?? "/"]}>
              <RouterBridge probe={probe}>{ui}</RouterBridge>
            </MemoryRouter>
          </ConfigProvider>
        </QueryClientProvider>
      </I18nextProvider>,
    );
  });
  const last = () => probe.history[probe.history.length - 1] ?? null;
  return {
    ...result,
    api,
    queryClient,
    hub,
    async sendDeviceChange(message) {
      await loadHubModule();
      await waitFor(() => {
        if (!hub.handlers.has(HUB_METHODS.deviceChange)) throw new Error("the screen does not listen to hub 1");
      });
      await act(async () => hub.send(HUB_METHODS.deviceChange, JSON.stringify(message)));
    },
    location: () => probe.location,
    navigatedTo() {
      const to = last();
      if (!to) return null;
      const [path, search = ""] = to.split("?");
      return path?.toLowerCase() === "/app" ? resolveAppTarget(search) : to;
    },
    navigatedParams() {
      const to = last();
      if (!to) return {};
      const raw = new URLSearchParams(to.split("?")[1] ?? "").get("params");
      return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    },
    wentBack: () => probe.back,
    toasts: () => [...shown],
    async findToast(text) {
      await waitFor(() => {
        if (!shown.includes(text)) throw new Error(`no toast "${text}"; toasts: ${JSON.stringify(shown)}`);
      });
    },
  };
}

/**
 * Clicks the button named `text` in the dialog on screen (antd-mobile's Dialog renders outside the screen), waiting
 * for the dialog to open first. Throws when no dialog opens or it has no such button.
 */
export async function clickInDialog(text: string): Promise<void> {
  const dialog = await screen.findByRole("dialog");
  await act(async () => {
    fireEvent.click(within(dialog).getByText(text));
  });
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  setNavigator(null);
  setDeviceChannel(null);
  localStorage.clear();
});

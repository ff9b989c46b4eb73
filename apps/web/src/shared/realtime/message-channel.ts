import { HUB_METHODS, HUB_PATHS, RealtimeChannelState, type TMessage } from "@aquapilot/contract/wire";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { createElement, useEffect, useSyncExternalStore } from "react";
import { apiBaseUrl } from "../api/api-host.ts";
import { queryKeys } from "../api/query-keys.ts";
import { ensureFreshToken } from "../api/token.ts";
import { bindPush } from "../auth/api/bind-push.ts";
import { forgetLostFamily, showFamilyNotice } from "../auth/family-lost.tsx";
import { subscribeSession } from "../auth/session.ts";
import { getNativeConfig } from "../bridge/index.ts";
import { onPushMessageOpened } from "../bridge/push-open.ts";
import { navigateTo, PATHS } from "../navigation/index.ts";
import { Toast } from "../ui/toast.ts";
import { HubChannel, type HubConnectionLike, readBefore } from "./hub-channel.ts";
import { lazyHubConnection, messageSchema } from "./lazy-hub.ts";
import { type SessionCheck, sessionGoesOn } from "./session-end.ts";
import { sessionKey, unreadAfterReceive } from "./unread.ts";

/**
 * Real-time hub 2 (spec §7): `/signalr-hubs/message`, method `ReceiveMessage` with one `ZMessage` of the contract (an object,
 * or its JSON text). Bearer token, automatic reconnect, the channel state of spec §3/§4 (none 0, connecting 1,
 * connected 2), and the message centre's live parts: the unread badge, refetch after a reconnect, a short toast per
 * new message, the push registration and the native "push opened" event.
 */

/** Builds the real SignalR connection of hub 2 with `accessTokenFactory` and `withAutomaticReconnect`. */
export function createMessageHubConnection(
  accessTokenFactory: () => string | Promise<string>,
  baseUrl = "",
): HubConnectionLike {
  return lazyHubConnection((m) => m.createHubConnection(HUB_PATHS.message, accessTokenFactory, baseUrl));
}

/** One hub-2 channel: {@link HubChannel} of new messages. */
export class MessageChannel extends HubChannel<TMessage> {
  /**
   * @param factory builds a new connection per start
   * @param retry wait before restarting after a failed start or a close, ms: fixed, or by retry number (default:
   *   jittered exponential backoff, forever, so a restarted server's clients come back spread out)
   * @param sessionCheck asked when the hub says the sign-in is over (hub-channel.ts); the app's: `sessionGoesOn`
   */
  constructor(
    factory: () => HubConnectionLike,
    retry?: number | ((attempt: number) => number),
    sessionCheck: SessionCheck | null = null,
  ) {
    super({ label: "hub 2", method: HUB_METHODS.receiveMessage, schema: messageSchema }, factory, retry, sessionCheck);
  }
}

let channel: MessageChannel | null = null;

/** The app's hub-2 channel (created on first use; the token is the stored access token, refreshed when due). */
export function messageChannel(): MessageChannel {
  channel ??= new MessageChannel(
    () => createMessageHubConnection(async () => (await ensureFreshToken()) ?? "", apiBaseUrl()),
    undefined,
    sessionGoesOn,
  );
  return channel;
}

/** The hub-2 channel state (none 0, connecting 1, connected 2) as React state. */
export function useMessageChannelState(target: MessageChannel = messageChannel()): RealtimeChannelState {
  return useSyncExternalStore(
    (cb) => target.onState(cb),
    () => target.state,
    () => RealtimeChannelState.None,
  );
}

/** Whether a message tells the user they lost a household (removed from it, or it was deleted). */
function isFamilyLoss(message: TMessage): boolean {
  return message.event === "household-removed" || message.event === "household-deleted";
}

/**
 * Applies one received message to the cache: bumps the unread count at once (before the refetch answers) and
 * invalidates every message query (lists, details, the count) so open screens show it; a "household-removed" or
 * "household-deleted" notice also drops everything cached of that household, leaves its screens and shows the notice
 * (shared/auth/family-lost.tsx).
 */
export function applyReceivedMessage(queryClient: QueryClient, message: TMessage): void {
  queryClient.setQueryData<number>(queryKeys.unreadMessageCount, (count) => unreadAfterReceive(count, message));
  void queryClient.invalidateQueries({ queryKey: queryKeys.messageAll });
  if (isFamilyLoss(message) && message.familyId) {
    // The user lost that household: every cached read of it and its devices goes (queries of it would only answer
    // 404), an open screen of it goes Home, and the notice says who did it.
    forgetLostFamily(queryClient, message.familyId);
    void showFamilyNotice(message.familyId, message.title, message.content);
  }
}

/** Options of {@link useMessageCenter}. */
export interface MessageCenterOptions {
  channel?: MessageChannel;
  /** Shows the short notice of a new message (default: an antd-mobile toast at the top, 2.5 s). */
  notify?: (message: TMessage) => void;
  /** Opens the message list or one message (default: `navigateTo(PATHS.MessageDetails, {id}?)`). */
  open?: (messageId: string | null) => void;
}

function defaultNotify(message: TMessage): void {
  Toast.show({
    content: createElement("span", { "data-testid": "message-toast", "data-message-id": message.id }, message.title),
    position: "top",
    duration: 2500,
  });
}

function defaultOpen(messageId: string | null): void {
  try {
    navigateTo(PATHS.MessageDetails, messageId ? { id: messageId } : null);
  } catch (err) {
    console.warn("[push] cannot open the message list yet", err);
  }
}

/**
 * The message centre's live side, mounted once at the app root: while a user who may see messages is signed in, hub 2
 * runs (bearer token, automatic reconnect; stopped at sign-out and on 401) and each ReceiveMessage bumps the badge,
 * invalidates the message queries and shows a short toast; a reconnect refetches every message query so nothing sent
 * while offline is missed. It also binds the native push registration once per sign-in (failures ignored) and opens
 * the message list when the native shell reports a tapped push notification (spec §2).
 */
export function useMessageCenter(options: MessageCenterOptions = {}): RealtimeChannelState {
  const target = options.channel ?? messageChannel();
  const notify = options.notify ?? defaultNotify;
  const open = options.open ?? defaultOpen;
  const queryClient = useQueryClient();
  const session = useSyncExternalStore(subscribeSession, sessionKey, () => "");
  const signedIn = session !== "";

  useEffect(() => {
    if (!signedIn) {
      void target.stop();
      return;
    }
    void target.start();
    const offMessage = target.onMessage((message) => {
      applyReceivedMessage(queryClient, message);
      // A lost household's notice shows as a dialog (applyReceivedMessage): no toast over it.
      if (!isFamilyLoss(message)) notify(message);
    });
    const offConnected = target.onConnected((since) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.messageAll, predicate: readBefore(since) });
    });
    return () => {
      offMessage();
      offConnected();
    };
  }, [signedIn, target, queryClient, notify]);

  // The push registration follows the signed-in user (spec §7 jpush app-device-binding; failures ignored).
  useEffect(() => {
    if (!signedIn) return;
    let alive = true;
    void getNativeConfig().then((config) => {
      if (alive && config.pushRegistrationId) void bindPush(config.pushRegistrationId, config.platform);
    });
    return () => {
      alive = false;
    };
  }, [signedIn]);

  useEffect(() => onPushMessageOpened(open), [open]);

  return useMessageChannelState(target);
}

/** {@link useMessageCenter} as a component for the app root (renders nothing). */
export function MessageCenterWatch(): null {
  useMessageCenter();
  return null;
}

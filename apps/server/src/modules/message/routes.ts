import { endpoints, HUB_METHODS, type Language } from "@aquapilot/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Bus } from "../../bus.ts";
import { registerEndpoint } from "../../http/route.ts";
import type { Hubs } from "../../realtime/hubs.ts";
import type { AppContext } from "../context.ts";
import type { MessageCenter } from "./center.ts";
import { getMessage, listMessages, messageTypeList, setAllMessagesRead, setMessagesRead } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The message center: system.ts starts its worker and hooks it to the device gateway. */
    messages: MessageCenter;
  }
}

/**
 * Routes of the message module: the message centre (spec §7 /api/push-service/app/message): get-message-type-list,
 * get-user-message-list, get-message-detail, set-message-read, set-message-all-read, test-send-message. Every call
 * reads or changes the caller's own messages only. `center` is the message centre buildApp built; the routes decorate
 * `app.messages` with it.
 */
export function messageRoutes(app: FastifyInstance, ctx: AppContext, center: MessageCenter): void {
  app.decorate("messages", center);
  // Pushes still in flight finish before the database goes away.
  app.addHook("onClose", async () => center.idle());
  registerEndpoint(app, endpoints.getMessageTypeList, async ({ lang }) => messageTypeList(lang));
  // Lists and details are worded in the caller's current language (Accept-Language, as the app always sends),
  // whatever it was when written; without the header, as written (the recipient's language then).
  const readerLanguage = (request: FastifyRequest, lang: Language) =>
    request.headers["accept-language"] ? lang : undefined;
  registerEndpoint(app, endpoints.getUserMessageList, async ({ user, query, lang, request }) =>
    listMessages(ctx.db, user.id, query, readerLanguage(request, lang)),
  );
  registerEndpoint(app, endpoints.getMessageDetail, async ({ user, query, lang, request }) =>
    getMessage(ctx.db, user.id, query.id, readerLanguage(request, lang)),
  );
  registerEndpoint(app, endpoints.setMessageRead, async ({ user, body }) =>
    setMessagesRead(ctx.db, user.id, body.ids, ctx.now()),
  );
  registerEndpoint(app, endpoints.setMessageAllRead, async ({ user }) =>
    setAllMessagesRead(ctx.db, user.id, ctx.now()),
  );
  registerEndpoint(app, endpoints.testSendMessage, async ({ user }) => center.sendTest(user.id));
}

/**
 * Hub 2 delivery (spec §7 "Hub 2 … listens for ReceiveMessage"): every `message.created` on the bus is sent as
 * `ReceiveMessage(message)` (the ZMessage object) to the recipient's hub-2 connections in this process. Answers the
 * unsubscribe function.
 */
export function forwardMessagesToHub(bus: Bus, hubs: Pick<Hubs, "sendToUser">): () => void {
  return bus.subscribe((event) => {
    if (event.type !== "message.created") return;
    hubs.sendToUser("message", event.userId, HUB_METHODS.receiveMessage, [event.message]);
  });
}

import { endpoints, HUB_METHODS, type Language } from "@aquapilot/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Bus } from "../../bus.ts";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import type { Hubs } from "../../realtime/hubs.ts";
import { MessageCenter } from "./center.ts";
import { getMessage, listMessages, messageTypeList, setAllMessagesRead, setMessagesRead } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The message centre, decorated by the message module: system.ts starts its worker and hooks it to the device
     * gateway; the family-user module delivers pending notices with it.
     */
    messages: MessageCenter;
  }
}

/**
 * Routes of the message module: the message centre (spec §7 /api/push-service/app/message): get-message-type-list,
 * get-user-message-list, get-message-detail, set-message-read, set-message-all-read, test-send-message. Every call
 * reads or changes the caller's own messages only. `center` is the module's message centre (test-send-message).
 */
function messageRoutes(app: FastifyInstance, ctx: CoreServices, center: MessageCenter): void {
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

/**
 * The message module as the plugin "module-message": builds the message centre on the core's decorations and the push
 * service the push module decorates (`app.push`, hence its dependency on "module-push"), decorates `app.messages` with
 * it and waits at close for the pushes still in flight. The plugin itself is not encapsulated, so that decoration
 * reaches system.ts and the modules registered after it; its routes ({@link messageRoutes}) and their hooks are
 * registered in an encapsulated child.
 */
export const messageModule = fp(
  async (app) => {
    const ctx = coreServices(app);
    const center = new MessageCenter({
      db: ctx.db,
      bus: ctx.bus,
      push: app.push,
      offlineMinutes: ctx.config.OFFLINE_MESSAGE_MINUTES,
      now: ctx.now,
      logger: app.log,
    });
    app.decorate("messages", center);
    // Pushes still in flight finish before the database goes away.
    app.addHook("onClose", async () => center.idle());
    await app.register(async (scope) => messageRoutes(scope, ctx, center));
  },
  { name: "module-message", fastify: "5.x", dependencies: [CORE_PLUGIN, "module-push"] },
);

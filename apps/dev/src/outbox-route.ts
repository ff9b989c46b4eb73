import type { Db } from "@aquapilot/server/db/index.ts";
import { listOutbox } from "@aquapilot/server/notify/index.ts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

/**
 * Registers `GET /dev/outbox[?recipient=…]` (JSON list of `OutboxEntry`, newest first, at most 100; an e-mail
 * recipient compared case-insensitively) — the demo's and the end-to-end tests' way to read codes. Mounted by
 * routes.ts `registerDevelopmentRoutes` outside production only: it exposes every code sent. 400 on a recipient longer
 * than 256 characters.
 */
export function registerDevOutboxRoute(app: FastifyInstance, db: Db): void {
  app.get(
    "/dev/outbox",
    { schema: { querystring: z.object({ recipient: z.string().max(256).optional() }) } },
    async (request) => {
      const { recipient } = request.query as { recipient?: string };
      return listOutbox(db, recipient);
    },
  );
}

import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Routes of the push module (issue 5; filled in next). */
export function pushRoutes(_app: FastifyInstance, _ctx: AppContext): void {}

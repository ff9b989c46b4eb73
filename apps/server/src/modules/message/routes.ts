import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Routes of the message module (issue 5; filled in next). */
export function messageRoutes(_app: FastifyInstance, _ctx: AppContext): void {}

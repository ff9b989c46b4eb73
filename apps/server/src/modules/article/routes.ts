import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Routes of the article module (issue 5; filled in next). */
export function articleRoutes(_app: FastifyInstance, _ctx: AppContext): void {}

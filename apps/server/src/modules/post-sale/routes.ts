import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Routes of the post-sale module (issue 5; filled in next). */
export function postSaleRoutes(_app: FastifyInstance, _ctx: AppContext): void {}

/**
 * antd-mobile's PullToRefresh alone: the chunk {@link ./pull-to-refresh.tsx} loads after the first paint, so its
 * gesture and animation libraries stay off the first screen.
 */
export { PullToRefresh } from "antd-mobile";

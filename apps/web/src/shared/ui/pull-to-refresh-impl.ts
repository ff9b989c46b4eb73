/** antd-mobile's PullToRefresh alone: the chunk {@link ./pull-to-refresh.tsx} loads after the first paint (issue 12). */
export { PullToRefresh } from "antd-mobile";

/** antd-mobile's Toast alone, the chunk {@link ./toast.ts} loads on the first toast (issue 12). */
export { Toast } from "antd-mobile";

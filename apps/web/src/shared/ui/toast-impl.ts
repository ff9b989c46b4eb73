/** antd-mobile's Toast alone, the chunk {@link ./toast.ts} loads on the first toast, off the first screen. */
export { Toast } from "antd-mobile";

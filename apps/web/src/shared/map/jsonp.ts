/**
 * A JSONP GET with a timeout, for map vendors whose web services have no CORS (Baidu, Tencent; spec §7 "Reverse
 * geocoding uses a map provider"). Never blocks: the script tag is async and the call rejects after `timeoutMs`.
 */
let seq = 0;

/** Loads `url&callback=<name>` as a script and resolves with the value passed to the callback; rejects on error/timeout. */
export function jsonp(url: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    seq += 1;
    const name = `__aquapilotJsonp${Date.now().toString(36)}${seq}`;
    const script = document.createElement("script");
    const registry = window as unknown as Record<string, unknown>;
    const cleanup = () => {
      clearTimeout(timer);
      delete registry[name];
      script.remove();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error("timeout"));
    }, timeoutMs);
    registry[name] = (data: unknown) => {
      cleanup();
      resolve(data);
    };
    script.async = true;
    script.src = `${url}${url.includes("?") ? "&" : "?"}callback=${name}`;
    script.onerror = () => {
      cleanup();
      reject(new Error("script error"));
    };
    document.head.appendChild(script);
  });
}

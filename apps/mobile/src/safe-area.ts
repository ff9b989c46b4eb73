/**
 * The status bar's height and the bottom safe area in CSS px (spec §3 native config `statusBarHeight`,
 * `safeAreaBottom`), as the web view reports them: the larger of CSS `env(safe-area-inset-*)` (iOS, and Android
 * web views that report insets) and the `--safe-area-inset-*` variables Capacitor 8's SystemBars writes on Android
 * (capacitor.config.json `SystemBars.insetsHandling: "css"`). Zero outside a shell or before layout. Rounded to px.
 */
export function readSafeAreas(doc: Document = document): { statusBarHeight: number; safeAreaBottom: number } {
  const probe = doc.createElement("div");
  probe.style.cssText =
    "position:fixed;visibility:hidden;pointer-events:none;left:0;top:0;width:0;" +
    "padding-top:env(safe-area-inset-top,0px);padding-bottom:env(safe-area-inset-bottom,0px)";
  (doc.body ?? doc.documentElement).appendChild(probe);
  const view = doc.defaultView;
  const probeStyle = view?.getComputedStyle(probe);
  const rootStyle = view?.getComputedStyle(doc.documentElement);
  const px = (value: string | undefined) => {
    const n = Number.parseFloat(value ?? "");
    return Number.isFinite(n) && n > 0 ? n : 0;
  };
  const result = {
    statusBarHeight: Math.round(
      Math.max(px(probeStyle?.paddingTop), px(rootStyle?.getPropertyValue("--safe-area-inset-top"))),
    ),
    safeAreaBottom: Math.round(
      Math.max(px(probeStyle?.paddingBottom), px(rootStyle?.getPropertyValue("--safe-area-inset-bottom"))),
    ),
  };
  probe.remove();
  return result;
}

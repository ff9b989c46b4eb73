/**
 * Saves a downloaded body as a file on the phone: an object URL clicked through a hidden `<a download>` (the browser's
 * download, which the native shells' web views hand to the system), revoked once the download had time to start.
 * `fileName` is used as given (callers pass a name from {@link fileNameOf} or their own).
 */
export function saveBlob(blob: Blob, fileName: string, revokeAfterMs = 10_000): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), revokeAfterMs);
}

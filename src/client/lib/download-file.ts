/** Hands a file made in the page (an export) to the browser's download, as if from a link. */
export function downloadFile(name: string, content: Blob | string, type = 'application/octet-stream'): void {
  const url = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: some browsers read the URL only after click() returned.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

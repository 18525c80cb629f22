// Saving a file from the page: a Blob behind a temporary link, the way browsers download without a server.

/** Offers `data` to the user as a download named `name`. */
export function saveFile(name: string, data: string | Blob | Uint8Array, type: string): void {
  // A copy, so the Blob gets bytes of its own (a view may sit on a larger or shared buffer).
  const part = data instanceof Uint8Array ? new Uint8Array(data) : data;
  const url = URL.createObjectURL(new Blob([part], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once click() returns; the URL is only needed until then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
